package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/cli"
	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/journal"
	"github.com/bullshit-game/bullshit/node/table"
)

// verifyGame plays a random legal game by an honest host and returns seat
// 1's saved game of it.
func verifyGame(t *testing.T) journal.SavedGame {
	rules, _ := engine.Preset("standard")
	cfg := engine.Config{Rules: rules, Seats: 3, Seed: 2024}
	g, deal, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	const seat = 1
	var steps []engine.Step
	var seen []engine.Event
	keep := func(events []engine.Event) {
		for _, e := range events {
			if e.VisibleTo(seat) {
				seen = append(seen, e)
			}
		}
	}
	keep(deal)
	rng := rand.New(rand.NewPCG(1, 2))
	now := time.Duration(0)
	for tries := 0; !g.Over() && tries < 20000; tries++ {
		now += time.Duration(rng.IntN(2000)) * time.Millisecond
		events := g.Tick(now)
		var cmd *engine.Command
		v := g.View(g.Turn())
		switch {
		case g.Phase() == engine.PhaseCall && v.Window != nil && len(v.Window.Callers) > 0:
			c := engine.Command{Move: engine.MovePass, Seat: v.Window.Callers[rng.IntN(len(v.Window.Callers))], No: v.Window.No, Rank: engine.NoRank}
			if rng.IntN(3) == 0 {
				c.Move = engine.MoveCall
			}
			cmd = &c
		case g.Phase() == engine.PhasePlay:
			k := 1 + rng.IntN(min(3, len(v.Hand)))
			c := engine.Command{Move: engine.MovePlay, Seat: g.Turn(), Cards: v.Hand[:k], Rank: engine.NoRank}
			cmd = &c
		}
		if cmd != nil {
			more, err := g.Apply(now, *cmd)
			if err != nil {
				cmd = nil
			}
			events = append(events, more...)
		}
		if cmd == nil && len(events) == 0 {
			continue
		}
		steps = append(steps, engine.Step{At: now, Cmd: cmd})
		keep(events)
	}
	if !g.Over() {
		t.Fatal("the game did not end")
	}
	salt, _ := table.NewSalt()
	return journal.SavedGame{Table: "Kitchen", Seat: seat, Config: cfg, Salt: salt, Commitment: gamewire.Commit(cfg.Seed, salt),
		Steps: steps, Events: seen}
}

func TestVerifyCommand(t *testing.T) {
	dir := t.TempDir()
	g := verifyGame(t)
	good := filepath.Join(dir, "good.json")
	if err := journal.SaveGame(good, g); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if err := verify([]string{good}, &out, &errs); err != nil {
		t.Fatalf("an honest game: %v\n%s", err, out.String())
	}
	// Seat 1 counted from 0 is the screen's seat 2.
	if !strings.HasPrefix(out.String(), "verified: \"Kitchen\" as seat 2, ") {
		t.Fatalf("an honest game printed %q", out.String())
	}

	// The host told seat 1 a different verdict than the cards gave.
	for i, e := range g.Events {
		if e.Type == "reveal" {
			g.Events[i].Truth = !e.Truth
			break
		}
	}
	bad := filepath.Join(dir, "bad.json")
	if err := journal.SaveGame(bad, g); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	err := verify([]string{bad}, &out, &errs)
	if err == nil || !strings.Contains(err.Error(), "bad.json: the host's game did not check out") {
		t.Fatalf("a tampered game: %v", err)
	}
	t.Log(out.String())
	if !strings.HasPrefix(out.String(), "NOT verified") || !strings.Contains(out.String(), "'s claim was ") {
		t.Fatalf("a tampered game printed %q", out.String())
	}

	// Usage errors and unreadable files are errors, not verdicts.
	for _, args := range [][]string{nil, {good, bad}, {filepath.Join(dir, "missing.json")}} {
		out.Reset()
		if err := verify(args, &out, &errs); err == nil || strings.Contains(out.String(), "verified") {
			t.Errorf("verify %q: %v, %q", args, err, out.String())
		}
	}
}

// verify GAME SHARED: the text S wrote on the result sheet is held
// against the saved game: the same game, its places and winner, its best
// call. A text with a place changed, or of another game, is refused.
func TestVerifyShared(t *testing.T) {
	dir := t.TempDir()
	g := verifyGame(t)
	game := filepath.Join(dir, "game.json")
	if err := journal.SaveGame(game, g); err != nil {
		t.Fatal(err)
	}
	h, end, err := cli.GameHighlights(g.Config, g.Steps)
	if err != nil {
		t.Fatal(err)
	}
	if h.Call == nil {
		t.Fatal("the test game has no call that found a lie")
	}
	sg := cli.ShareGame{Table: "Kitchen", Rules: g.Config.Rules, Names: []string{"Ada", "Ben", "Cleo"}, Bots: []bool{false, false, true},
		Places: end.Places(), Winner: end.Winner(), Plays: end.Plays(), Audit: "verified", Commit: g.Commitment, High: &h}
	text := cli.ShareText(sg)
	shared := filepath.Join(dir, "shared.txt")
	write := func(s string) {
		if err := os.WriteFile(shared, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(text)
	var out, errs bytes.Buffer
	if err := verify([]string{game, shared}, &out, &errs); err != nil {
		t.Fatalf("the game's own text: %v\n%s\n%s", err, out.String(), text)
	}
	if !strings.Contains(out.String(), "verified: \"Kitchen\"") || !strings.Contains(out.String(), "the shared text tells this game: 3 places, the winner and the best call match") {
		t.Fatalf("printed %q", out.String())
	}

	// Two places swapped, as a boast might.
	w := end.Winner()
	if w < 0 {
		t.Fatal("the test game has no winner")
	}
	other := (w + 1) % 3
	swapped := sg
	swapped.Places = append([]int(nil), sg.Places...)
	swapped.Places[w], swapped.Places[other] = swapped.Places[other], swapped.Places[w]
	swapped.Winner = other
	write(cli.ShareText(swapped))
	out.Reset()
	err = verify([]string{game, shared}, &out, &errs)
	if err == nil || !strings.Contains(out.String(), "the shared text does NOT tell this game") ||
		!strings.Contains(out.String(), fmt.Sprintf("seat %d (%s) is", w+1, sg.Names[w])) || !strings.Contains(out.String(), "won") {
		t.Fatalf("swapped places: %v\n%s", err, out.String())
	}

	// Another game's text.
	sg.Commit[0]++
	write(cli.ShareText(sg))
	out.Reset()
	if err := verify([]string{game, shared}, &out, &errs); err == nil || !strings.Contains(out.String(), "another game") {
		t.Fatalf("another game's text: %v\n%s", err, out.String())
	}
	// Not a shared text at all: a usage error, before any verdict.
	write("hello")
	out.Reset()
	if err := verify([]string{game, shared}, &out, &errs); err == nil || out.Len() != 0 {
		t.Fatalf("not a shared text: %v, %q", err, out.String())
	}
}
