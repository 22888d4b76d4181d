package journal

import (
	crand "crypto/rand"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
)

// received is what seat was delivered of a game's events: public ones,
// and its own; a spectator (-1) the public ones only.
func received(batches [][]engine.Event, seat int) []engine.Event {
	var out []engine.Event
	for _, b := range batches {
		for _, e := range b {
			if e.Public() || seat >= 0 && e.VisibleTo(seat) {
				e.Cards = slices.Clone(e.Cards)
				out = append(out, e)
			}
		}
	}
	return out
}

// honestSave is seat's saved game of a random game by an honest host.
func honestSave(t testing.TB, preset string, seat int, seed uint64) SavedGame {
	cfg := fairConfig(preset, 4, seed)
	_, steps, batches := fairGame(t, cfg, rand.New(rand.NewPCG(seed, 99)))
	salt, err := newSalt()
	if err != nil {
		t.Fatal(err)
	}
	return SavedGame{Table: "Kitchen", Seat: seat, Config: cfg, Salt: salt, Commitment: gamewire.Commit(cfg.Seed, salt),
		Steps: steps, Events: received(batches, seat)}
}

func wantProblem(t *testing.T, problems []string, want string) {
	t.Helper()
	if !slices.ContainsFunc(problems, func(p string) bool { return strings.Contains(p, want) }) {
		t.Fatalf("no %q among:\n%s", want, strings.Join(problems, "\n"))
	}
}

// A saved game survives the disk exactly and verifies, for every preset,
// for a seat and for a spectator.
func TestSavedGameRoundTripVerifies(t *testing.T) {
	dir := t.TempDir()
	for i, preset := range engine.Presets {
		for _, seat := range []int{-1, i % 4} {
			g := honestSave(t, preset, seat, uint64(20+i))
			path := filepath.Join(dir, preset+".json")
			if err := SaveGame(path, g); err != nil {
				t.Fatal(err)
			}
			back, err := LoadGame(path)
			if err != nil {
				t.Fatalf("%s: %v", preset, err)
			}
			if !reflect.DeepEqual(normalised(back), normalised(g)) {
				t.Fatalf("%s, seat %d: the game came back different", preset, seat)
			}
			if p := VerifyGame(back); p != nil {
				t.Fatalf("%s, seat %d: an honest game failed:\n%s", preset, seat, strings.Join(p, "\n"))
			}
		}
	}
}

// A host that deals from another seed than the one it committed to must
// reveal that seed at the end, and the commitment gives it away; if it
// reveals the committed seed instead, its game doesn't replay.
func TestSavedGameRedealCaught(t *testing.T) {
	g := honestSave(t, "standard", 1, 5)
	salt, _ := newSalt()
	g.Commitment = gamewire.Commit(g.Config.Seed+1, salt) // what it promised
	g.Salt = salt
	wantProblem(t, VerifyGame(g), "don't match the commitment")

	g.Config.Seed++ // it reveals the promised seed with the game it played
	p := VerifyGame(g)
	wantProblem(t, p, "your dealt hand differs from the committed deal")
	if strings.Contains(p[0], "commitment the host published") {
		t.Fatalf("the commitment should hold here: %q", p[0])
	}
}

// Tampering with the file after the game is caught, whatever is changed.
func TestSavedGameTampered(t *testing.T) {
	base := honestSave(t, "standard", 2, 8)
	clone := func() SavedGame {
		g := base
		g.Steps = slices.Clone(base.Steps)
		g.Events = slices.Clone(base.Events)
		return g
	}
	g := clone()
	g.Salt[5] ^= 1
	wantProblem(t, VerifyGame(g), "don't match the commitment")

	g = clone()
	for i, e := range g.Events {
		if e.Type == "reveal" {
			g.Events[i].Truth = !e.Truth
			break
		}
	}
	wantProblem(t, VerifyGame(g), "claim was")

	g = clone()
	for i, s := range g.Steps {
		if s.Cmd != nil && s.Cmd.Move == engine.MovePass {
			c := *s.Cmd
			c.Move = engine.MoveCall
			g.Steps[i].Cmd = &c
			break
		}
	}
	if VerifyGame(g) == nil {
		t.Fatal("a let-go turned into a call verified")
	}
}

// Files that aren't saved games are refused with a clear error; none of
// them makes the loader or the audit panic.
func TestLoadGameRefuses(t *testing.T) {
	dir := t.TempDir()
	good, err := json.Marshal(honestSave(t, "standard", 0, 3))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, data string }{
		{"empty", ""},
		{"not JSON", "hello"},
		{"cut", string(good[:len(good)/2])},
		{"other format", strings.Replace(string(good), savedFormat, "bullshit saved game v9", 1)},
		{"short salt", strings.Replace(string(good), `"salt":"`, `"salt":"00`, 1)},
		{"unknown field", strings.Replace(string(good), `"seat":`, `"seta":1,"seat":`, 1)},
		{"no rules", func() string {
			var m map[string]any
			json.Unmarshal(good, &m)
			delete(m["config"].(map[string]any), "rules")
			b, _ := json.Marshal(m)
			return string(b)
		}()},
		{"bad card", strings.Replace(string(good), `"cards":["`, `"cards":["ZZ","`, 1)},
	} {
		path := filepath.Join(dir, "f.json")
		os.WriteFile(path, []byte(c.data), 0o644)
		if _, err := LoadGame(path); !errors.Is(err, ErrSavedGame) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	if _, err := LoadGame(filepath.Join(dir, "missing.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
}

// The decoder never panics, and what it reads re-encodes to something it
// reads back the same; the audit never panics on what it reads.
func FuzzSavedGame(f *testing.F) {
	g := honestSave(f, "twist", 1, 4)
	g.Steps, g.Events = g.Steps[:12], g.Events[:20]
	good, _ := json.Marshal(g)
	f.Add(good)
	f.Add([]byte(`{"format":"bullshit saved game v1","seat":9,"config":{"rules":"doubt","seats":11,"seed":"1"},"salt":"","commitment":""}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var g SavedGame
		if json.Unmarshal(data, &g) != nil {
			return
		}
		VerifyGame(g)
		again, err := json.Marshal(g)
		if err != nil {
			return // a value the encoder refuses, such as a card out of range
		}
		var back SavedGame
		if err := json.Unmarshal(again, &back); err != nil {
			t.Fatalf("re-encoded game unreadable: %v\n%s", err, again)
		}
		if !reflect.DeepEqual(normalised(back), normalised(g)) {
			t.Fatalf("re-encoded game reads back different")
		}
	})
}

// normalised makes empty slices nil, which JSON can't tell apart.
func normalised(g SavedGame) SavedGame {
	if len(g.Steps) == 0 {
		g.Steps = nil
	}
	if len(g.Events) == 0 {
		g.Events = nil
	}
	g.Events = slices.Clone(g.Events)
	for i := range g.Events {
		e := &g.Events[i]
		if len(e.To) == 0 {
			e.To = nil
		}
		if len(e.Cards) == 0 {
			e.Cards = nil
		}
		if len(e.Counts) == 0 {
			e.Counts = nil
		}
		if len(e.Places) == 0 {
			e.Places = nil
		}
		if len(e.Hands) == 0 {
			e.Hands = nil
		}
	}
	if len(g.Config.Hands) == 0 {
		g.Config.Hands = nil
	}
	return g
}

// newSalt draws a commitment's salt, as the host does.
func newSalt() ([gamewire.SaltSize]byte, error) {
	var s [gamewire.SaltSize]byte
	_, err := crand.Read(s[:])
	return s, err
}
