package assist

import (
	"testing"

	"github.com/bullshit-game/bullshit/engine"
)

func rough(lo, hi int) engine.Count { return engine.Count{Lo: lo, Hi: hi} }

// V14: with the twist the table sees hands over 8 and piles over 3 as
// ranges; a seat counts its own play exactly, and the pile while it knows
// every card in it.
func TestV14_OwnPlayExact(t *testing.T) {
	var p Pile
	p.Event(engine.Event{Type: engine.EventDeal}, 0, 0, 12)
	// Seat 0 (me) holds 12 and puts 3 on a pile of 0: the table sees
	// the hand as 9+ before and 9+ after.
	play := engine.Event{Type: engine.EventPlay, Seat: 0, No: 1, Sizes: engine.Sizes{
		HandBefore: rough(9, -1), HandAfter: rough(9, -1), PileBefore: engine.Exact(0), PileAfter: engine.Exact(3)}}
	p.Event(play, 0, 12, 12)
	p.Event(engine.Event{Type: engine.EventMine, Seat: 0, No: 1, Cards: make([]engine.Card, 3)}, 0, 12, 9)
	last := &engine.Last{Seat: 0, No: 1, Sizes: play.Sizes}
	if s := p.Sizes(last, 0); s.HandBefore != engine.Exact(12) || s.HandAfter != engine.Exact(9) {
		t.Errorf("my own play: %+v, want hand 12 → 9", s)
	}
	// Another seat's play is as the table sees it.
	if s := p.Sizes(last, 1); s != play.Sizes {
		t.Errorf("seen from seat 1: %+v", s)
	}
	// The pile after is 3 and mine: a further play of mine on it (2
	// cards) is counted exactly, though the table sees 4+.
	p.Event(engine.Event{Type: engine.EventPlay, Seat: 0, No: 2, Sizes: engine.Sizes{
		HandBefore: rough(9, -1), HandAfter: engine.Exact(7), PileBefore: engine.Exact(3), PileAfter: rough(4, -1)}}, 0, 9, 9)
	p.Event(engine.Event{Type: engine.EventMine, Seat: 0, No: 2, Cards: make([]engine.Card, 2)}, 0, 9, 7)
	if c := p.Count(&engine.View{Pile: rough(4, -1)}); c != engine.Exact(5) {
		t.Errorf("the pile after my two plays: %v, want 5", c)
	}
}

// V14: another seat's play on a big pile makes it rough; the pile is
// known again when the play is turned up (every card of it on the table),
// and when it is taken.
func TestV14_PileKnownAgain(t *testing.T) {
	var p Pile
	p.Event(engine.Event{Type: engine.EventDeal}, 0, 0, 12)
	p.Event(engine.Event{Type: engine.EventPlay, Seat: 1, No: 1, Sizes: engine.Sizes{PileAfter: engine.Exact(2)}}, 0, 12, 12)
	p.Event(engine.Event{Type: engine.EventPlay, Seat: 2, No: 2, Sizes: engine.Sizes{PileBefore: engine.Exact(2), PileAfter: rough(4, -1)}}, 0, 12, 12)
	v := &engine.View{Pile: rough(4, -1)}
	if c := p.Count(v); c != v.Pile {
		t.Fatalf("after another seat's rough play: %v, want the table's %v", c, v.Pile)
	}
	p.Event(engine.Event{Type: engine.EventReveal, Seat: 2, No: 2, Cards: make([]engine.Card, 3)}, 0, 12, 12)
	if c := p.Count(v); c != engine.Exact(5) {
		t.Errorf("after the reveal: %v, want 5 (2 and the 3 turned up)", c)
	}
	take := p.Event(engine.Event{Type: engine.EventTake, Seat: 1, Count: rough(4, -1)}, 0, 12, 12)
	if take.Count != engine.Exact(5) {
		t.Errorf("seat 1 took %v, want 5", take.Count)
	}
	if c := p.Count(&engine.View{Pile: engine.Exact(0)}); c != engine.Exact(0) {
		t.Errorf("after the take: %v", c)
	}
}

// V14: a seat that takes a pile it couldn't count knows how many it took
// from its own hand.
func TestV14_TakenByMe(t *testing.T) {
	var p Pile
	p.Event(engine.Event{Type: engine.EventDeal}, 0, 0, 12)
	p.Event(engine.Event{Type: engine.EventPlay, Seat: 1, No: 1, Sizes: engine.Sizes{PileAfter: rough(4, -1)}}, 0, 12, 12)
	for _, c := range []struct {
		name            string
		me, before, now int
		want            engine.Count
	}{
		{"me, hand 12 → 18", 0, 12, 18, engine.Exact(6)},
		{"someone else", 2, 12, 18, rough(4, -1)},
		{"me, a hand that didn't grow", 0, 12, 12, rough(4, -1)},
	} {
		q := p
		if e := q.Event(engine.Event{Type: engine.EventTake, Seat: 0, Count: rough(4, -1)}, c.me, c.before, c.now); e.Count != c.want {
			t.Errorf("%s: took %v, want %v", c.name, e.Count, c.want)
		}
	}
}

// V15: the cards left in the pile at a round's end are counted when the
// pile is known.
func TestV15_LeftInPile(t *testing.T) {
	var p Pile
	p.Event(engine.Event{Type: engine.EventDeal}, 0, 0, 12)
	p.Event(engine.Event{Type: engine.EventPlay, Seat: 0, No: 1, Sizes: engine.Sizes{PileAfter: engine.Exact(3)}}, 0, 12, 12)
	if e := p.Event(engine.Event{Type: engine.EventLeave, Count: rough(2, 5)}, 0, 12, 9); e.Count != engine.Exact(3) {
		t.Errorf("left %v, want 3", e.Count)
	}
	if c := p.Count(&engine.View{Pile: rough(0, 3)}); c != engine.Exact(0) {
		t.Errorf("after the round: %v, want 0", c)
	}
}

// What the seat knows yields to the view: an exact view is taken, one
// that disagrees or a backlog (updates missed) forgets the count.
func TestPileCheck(t *testing.T) {
	var p Pile
	p.Event(engine.Event{Type: engine.EventDeal}, 0, 0, 12)
	p.Check(&engine.View{Pile: engine.Exact(3)}, false)
	if c := p.Count(&engine.View{Pile: rough(2, 5)}); c != engine.Exact(3) {
		t.Errorf("an exact view: %v", c)
	}
	q := p
	q.Check(&engine.View{Pile: rough(4, -1)}, false)
	if c := q.Count(&engine.View{Pile: rough(2, 5)}); c != rough(2, 5) {
		t.Errorf("a view that disagrees: %v", c)
	}
	p.Check(&engine.View{Pile: rough(2, 5)}, true)
	if c := p.Count(&engine.View{Pile: rough(2, 5)}); c != rough(2, 5) {
		t.Errorf("after a backlog: %v", c)
	}
}
