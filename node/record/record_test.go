package record

import (
	"strings"
	"testing"

	"github.com/bullshit-game/bullshit/engine"
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
