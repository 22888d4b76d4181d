package webclient

import (
	"crypto/ed25519"
	"crypto/rand"
	"strings"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/mentaltable"
	"github.com/bullshit-game/bullshit/protocol"
)

// While a blind deal runs the page says so, and once it takes longer
// than ShufflingSlow whom it waits for, by the person's name: never this
// phone (it answers at once), and no longer one whose part the log
// holds. A bot's seat says whose node runs it.
func TestShufflingSaysWhom(t *testing.T) {
	tid := protocol.TableID{7, 7}
	var salt [gamewire.SaltSize]byte
	rand.Read(salt[:])
	nonces := [][gamewire.NonceSize]byte{{1}, {2}}
	keys := make([]ed25519.PrivateKey, 3)
	ids := make([]protocol.PeerID, 3)
	for i := range keys {
		keys[i] = newKey(t)
		ids[i], _ = protocol.PeerIDOf(keys[i])
	}
	const hostSeed = 42
	d := protocol.BlindDeal{Game: []byte("g1"), HostSeed: hostSeed, Salt: salt[:], Seed: gamewire.DealSeed(hostSeed, salt, nonces),
		Holder: []int{0, 1, 2, 1}, Parties: ids, Bots: []string{"", "", "", "medium"}}
	terms := func(i int) mentaltable.Terms {
		return mentaltable.Terms{Me: ids[i], Table: tid, Rules: engine.Standard(), Seats: 4, Commit: gamewire.Commit(hostSeed, salt), Nonces: nonces}
	}
	pl, _, err := mentaltable.NewPlayer(d, terms(0), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	c := &Client{seat: 0, me: ids[0], tid: tid, done: make(chan struct{}), blind: &blind{pl: pl, began: time.Now(), quiet: map[uint64]bool{}},
		lobby: protocol.Lobby{Players: []protocol.Player{{Nick: "Ada"}, {Nick: "Ben"}, {Nick: "Cleo"}, {Nick: "Dot", Bot: "medium", RunBy: "Ben"}}, Blind: true}}
	if s := c.State(); s.Shuffling != "Shuffling…" || !s.Blind || s.Seats[3].RunBy != "Ben" {
		t.Fatalf("at the deal's start: %q, blind %v, the bot on %q's", s.Shuffling, s.Blind, s.Seats[3].RunBy)
	}
	c.blind.began = time.Now().Add(-ShufflingSlow)
	if got := c.State().Shuffling; got != "Shuffling… waiting for Ben, Cleo" {
		t.Fatalf("a slow deal says %q", got)
	}
	// Ben's key is in the host's log: the deal waits for Cleo's.
	ben, ms, err := mentaltable.NewPlayer(d, terms(1), rand.Reader)
	if err != nil || ben.Party() != 1 {
		t.Fatal(err)
	}
	raw, err := protocol.Seal(keys[1], tid, 1, 1, ms[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := pl.Log(0, []protocol.LogInput{{What: uint8(mentaltable.InputMsg), Env: raw, Gone: -1, To: -1}}); err != nil {
		t.Fatal(err)
	}
	if got := c.State().Shuffling; !strings.HasSuffix(got, "waiting for Cleo") {
		t.Fatalf("with Ben's key in, the page says %q", got)
	}
}
