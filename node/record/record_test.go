package record

import (
	"strings"
	"testing"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/protocol"
)

func ev(typ engine.EventType, seat int) engine.Event { return engine.Event{Type: typ, Seat: seat} }

// A backlog may only extend the record of its deal; one that rewrites or
// shortens it leaves the record as it was and names the difference. A
// rollback the chain verified replaces it, and so does a backlog of
// another deal (we were away over the deal). Pure: runs natively and
// under js/wasm.
func TestBacklog(t *testing.T) {
	deal, other := [32]byte{1}, [32]byte{2}
	seen := []engine.Event{ev("deal", 0), ev("play", 1), ev("pass", 0)}
	for _, c := range []struct {
		name    string
		deal    [32]byte
		backlog []engine.Event
		rolled  bool
		want    []engine.Event // the record after
		problem string         // in Rewrote, "" for none
	}{
		{"extends", deal, append(append([]engine.Event(nil), seen...), ev("play", 0)), false, append(append([]engine.Event(nil), seen...), ev("play", 0)), ""},
		{"the same", deal, seen, false, seen, ""},
		{"rewrites", deal, []engine.Event{ev("deal", 0), ev("play", 0), ev("pass", 0), ev("play", 1)}, false, seen, "differs at event 2 (another play than the one you saw)"},
		{"shortens", deal, seen[:2], false, seen, "stops at event 2; you saw 3"},
		{"another type", deal, []engine.Event{ev("deal", 0), ev("pass", 1)}, false, seen, "differs at event 2 (pass, where you saw play)"},
		// The terminal took this one as a new game's record before
		// both clients shared the rule: a deal first, another than ours.
		{"a new deal's first event, the same commitment", deal, []engine.Event{ev("deal", 1), ev("play", 2)}, false, seen, "differs at event 1"},
		{"rolled back by a new host", deal, seen[:2], true, seen[:2], ""},
		{"another deal", other, []engine.Event{ev("deal", 1)}, false, []engine.Event{ev("deal", 1)}, ""},
	} {
		r := Record{}
		r.Shown(deal, seen)
		r.Backlog(c.deal, c.backlog, c.rolled)
		if !strings.Contains(r.Rewrote, c.problem) || (c.problem == "") != (r.Rewrote == "") {
			t.Errorf("%s: rewrote %q; want %q", c.name, r.Rewrote, c.problem)
		}
		if len(r.Got) != len(c.want) {
			t.Errorf("%s: %d events, want %d", c.name, len(r.Got), len(c.want))
			continue
		}
		for i := range c.want {
			if !SameEvent(r.Got[i], c.want[i]) {
				t.Errorf("%s: event %d is %+v, want %+v", c.name, i+1, r.Got[i], c.want[i])
			}
		}
	}
}

// The first rewrite is the one the audit names; the record keeps what we
// were shown, and a deal starts a new game's record afresh.
func TestShownAndRewrote(t *testing.T) {
	deal := [32]byte{1}
	r := Record{}
	if r.Shown(deal, []engine.Event{ev("play", 0)}) {
		t.Error("a play taken for a deal")
	}
	if !r.Shown(deal, []engine.Event{ev("over", 0), ev("deal", 0), ev("play", 1)}) || len(r.Got) != 2 || r.Got[0].Type != "deal" {
		t.Fatalf("a deal among the events: record %+v", r.Got)
	}
	r.Backlog(deal, []engine.Event{ev("deal", 0), ev("pass", 1)}, false)
	r.Backlog(deal, []engine.Event{ev("deal", 0)}, false)
	if !strings.Contains(r.Rewrote, "differs at event 2") {
		t.Errorf("rewrote %q: want the first rewrite's", r.Rewrote)
	}
	r.Shown(deal, []engine.Event{ev("deal", 0)})
	if r.Rewrote != "" {
		t.Errorf("a new game kept the old one's rewrite %q", r.Rewrote)
	}
}

// The reveal comes in parts, in order; one out of order starts again,
// and a salt of the wrong size fails the audit with the one sentence.
func TestRevealParts(t *testing.T) {
	r := Record{}
	if _, ok := r.Part(protocol.Audit{Part: 1, Parts: 2}); ok {
		t.Fatal("a part out of order made a reveal")
	}
	if _, ok := r.Part(protocol.Audit{Part: 0, Parts: 2}); ok {
		t.Fatal("one part of two made a reveal")
	}
	g, ok := r.Part(protocol.Audit{Part: 1, Parts: 2, Seed: 7, Salt: []byte{1}})
	if !ok || g.Seed != 7 {
		t.Fatalf("the whole reveal: %+v, %v", g, ok)
	}
	res := r.Audit(g, Check{})
	if res.Verified || len(res.Problems) != 1 || res.Problems[0] != BadSalt {
		t.Errorf("a short salt: %+v", res)
	}
}

// A clear table's revealed game that forfeits a play (R10b, which only a
// blind table's record of a false opening may) fails the audit, naming
// the play, even though the replay holds (the engine takes a forfeit, to
// replay a blind game): at a clear table the cards decide.
func TestClearForfeitFails(t *testing.T) {
	rules, _ := engine.Preset("standard")
	seed, salt := uint64(5), [gamewire.SaltSize]byte{9}
	cfg := engine.Config{Rules: rules, Seats: 3, Seed: gamewire.DealSeed(seed, salt, nil)}
	g, _, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	p := g.Turn()
	steps := []engine.Step{{Cmd: &engine.Command{Move: engine.MovePlay, Seat: p, Cards: g.View(p).Hand[:1], Claim: 1, Rank: engine.NoRank}},
		{Cmd: &engine.Command{Move: engine.MoveForfeit, Seat: p, No: 1, Rank: engine.NoRank}},
		{Cmd: &engine.Command{Move: engine.MoveCall, Seat: (p + 1) % 3, No: 1, Rank: engine.NoRank}}}
	for _, forfeit := range []bool{false, true} {
		ss := steps
		if !forfeit {
			ss = []engine.Step{steps[0], steps[2]}
		}
		_, batches, err := engine.Replay(cfg, ss)
		if err != nil {
			t.Fatal(err)
		}
		r := Record{}
		for _, b := range batches {
			for _, e := range b {
				if e.VisibleTo(-1) {
					r.Got = append(r.Got, e)
				}
			}
		}
		res := r.Audit(Revealed{Seed: seed, Salt: salt[:], Steps: ss}, Check{Commit: gamewire.Commit(seed, salt), Rules: rules, Seats: 3, Seat: -1})
		said := strings.Contains(strings.Join(res.Problems, " "), "the host judged play 1 against seat")
		if said != forfeit {
			t.Errorf("forfeit %v: problems %q", forfeit, res.Problems)
		}
	}
}
