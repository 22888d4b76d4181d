package main

import (
	"context"
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/bullshit-game/bullshit/cli"
	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/bot"
	"github.com/bullshit-game/bullshit/node"
	"github.com/bullshit-game/bullshit/node/journal"
	"github.com/bullshit-game/bullshit/node/table"
)

// The share text tells a player to run `bullshit verify GAME.json
// THIS-FILE`: a seat the terminal client takes at another's table saves
// that file in the profile's games/, as `join --headless --save` does
// (it once saved none), and the file verifies. On loopback.
func TestTerminalSeatSavesItsGame(t *testing.T) {
	t.Parallel()
	loop := []ma.Multiaddr{ma.StringCast("/ip4/127.0.0.1/tcp/0")}
	device := func(name string) *node.Device {
		k, _, err := crypto.GenerateEd25519Key(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		d, err := node.NewDevice(context.Background(), node.DeviceConfig{Key: k, Name: name, Listen: loop, Bots: makePlayBot, Fallback: bot.Fallback})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() })
		return d
	}
	rules := engine.Standard()
	rules.Window = time.Second
	hostDev := device("Hal")
	ho, err := hostDev.Open(table.Settings{Name: "Den", Rules: rules, Seats: 3, Bots: []string{"medium", "medium"},
		Pace: "fast", Timing: table.Timing{Reveal: 20 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	defer ho.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	games := filepath.Join(t.TempDir(), cli.GamesDir)
	l := &lanLobby{name: "Ada", games: games, dev: device("Ada"), ctx: ctx}
	sess, err := l.JoinAddr(hostDev.Addrs()[0])
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	if err := ho.WaitSeated(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if err := ho.Start(); err != nil {
		t.Fatal(err)
	}
	p, _ := makePlayBot("medium", 0, 1)
	last, err := table.PlayBot(ctx, sess, p, bot.Fallback, "fast", func(table.Update) {})
	if last.View.Phase != engine.PhaseOver {
		t.Fatalf("the game did not end: %v", err)
	}
	var path string
	// The file is written before the audit's update; a generous bound.
	for end := time.Now().Add(20 * time.Second); path == "" && time.Now().Before(end); {
		path, err = sess.(interface{ Saved() (string, error) }).Saved()
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil || filepath.Dir(path) != games {
		t.Fatalf("saved at %q (%v), want in %s", path, err, games)
	}
	g, err := journal.LoadGame(path)
	if err != nil {
		t.Fatal(err)
	}
	if probs := journal.VerifyGame(g); len(probs) > 0 {
		t.Fatalf("the saved game doesn't verify: %v", probs)
	}
	if _, err := os.Stat(path); err != nil || !strings.HasSuffix(path, ".json") {
		t.Fatalf("%s: %v", path, err)
	}
}
