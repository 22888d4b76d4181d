package assist

import "github.com/bullshit-game/bullshit/engine"

// Pile is what one seat can count exactly where the table sees the sizes
// roughly (V14: hands over 8 and piles over 3 shown as ranges): the pile
// while every card in it is one the seat put there or saw turned up, and
// the seat's own last play (its hand is its own to count). The terminal
// and the phone keep one each, fed the same events, so both show the same
// counts. The zero Pile knows nothing yet; a deal starts it.
type Pile struct {
	known    bool // pile is the pile's size
	pile     int
	own      ownPlay
	lastKnow bool // lastPile is the pile before the last play
	lastPile int
	lastNo   int // the last play's number
}

// ownPlay is the seat's last play with its sizes as it knows them.
type ownPlay struct {
	no       int
	before   int // the hand before it
	pileKnow bool
	pile     int // the pile before it, if pileKnow
	sizes    engine.Sizes
}

// Event takes one event as seat me (-1: a spectator) sees it, before is
// its hand before the update that brought the event and now its hand in
// that update's view; it returns the event with the counts made exact
// where the seat knows them (how many cards a seat took with the pile, or
// left in it at a V15 round's end).
func (p *Pile) Event(e engine.Event, me, before, now int) engine.Event {
	switch e.Type {
	case engine.EventDeal:
		*p = Pile{known: true}
	case engine.EventPlay:
		if e.Seat == me && e.Seat >= 0 {
			p.own = ownPlay{no: e.No, before: before, pileKnow: p.known, pile: p.pile, sizes: e.Sizes}
		}
		p.lastKnow, p.lastPile, p.lastNo = p.known, p.pile, e.No
		p.known = e.Sizes.PileAfter.IsExact()
		p.pile = e.Sizes.PileAfter.Lo
	case engine.EventMine:
		// The seat's own cards of its play, sent to it alone.
		if o := &p.own; e.Seat == me && o.no == e.No {
			pile := -1
			if o.pileKnow {
				pile = o.pile
			}
			o.sizes = exactSizes(o.sizes, o.before, len(e.Cards), pile)
			if o.sizes.PileAfter.IsExact() {
				p.known, p.pile = true, o.sizes.PileAfter.Lo
			}
		}
	case engine.EventReveal:
		if e.No == p.lastNo && p.lastKnow {
			// Every card of the play is on the table now: the pile is
			// what it was before it and these.
			p.known, p.pile = true, p.lastPile+len(e.Cards)
		}
	case engine.EventTake:
		e.Count = p.taken(e, me, now-before)
		p.known, p.pile = true, 0
	case engine.EventLeave:
		if !e.Count.IsExact() && p.known && e.Count.Has(p.pile) {
			e.Count = engine.Exact(p.pile)
		}
		p.known, p.pile = true, 0
	}
	return e
}

// taken is how many cards a seat took with the pile: exact when the pile
// is known, or when it is me (grew: how much its hand grew).
func (p *Pile) taken(e engine.Event, me, grew int) engine.Count {
	switch {
	case e.Count.IsExact():
		return e.Count
	case p.known && e.Count.Has(p.pile):
		return engine.Exact(p.pile)
	case e.Seat == me && e.Seat >= 0 && grew > 0 && e.Count.Has(grew):
		return engine.Exact(grew)
	}
	return e.Count
}

// exactSizes is what the seat's own play did to its hand and the pile:
// before is its hand before the play, put the cards it put down, pile the
// pile before it (-1: not known); the table's rough sizes stay where they
// don't fit what the seat knows.
func exactSizes(rough engine.Sizes, before, put, pile int) engine.Sizes {
	s := rough
	if rough.HandBefore.Has(before) && rough.HandAfter.Has(before-put) {
		s.HandBefore, s.HandAfter = engine.Exact(before), engine.Exact(before-put)
	}
	if pile >= 0 && rough.PileBefore.Has(pile) && rough.PileAfter.Has(pile+put) {
		s.PileBefore, s.PileAfter = engine.Exact(pile), engine.Exact(pile+put)
	}
	return s
}

// Check keeps the known pile honest with the view, after an update's
// events: the view's count when it is exact, and nothing known when they
// disagree or updates were missed (backlog: a reconnection's).
func (p *Pile) Check(v *engine.View, backlog bool) {
	switch {
	case v.Pile.IsExact():
		p.known, p.pile = true, v.Pile.Lo
	case backlog || !p.known || !v.Pile.Has(p.pile):
		p.known = false
	}
}

// Count is the pile as the seat can count it: exact while it knows every
// card in it, else as the table sees it.
func (p *Pile) Count(v *engine.View) engine.Count {
	if !v.Pile.IsExact() && p.known && v.Pile.Has(p.pile) {
		return engine.Exact(p.pile)
	}
	return v.Pile
}

// Sizes is how the last play changed the counts: exact where it was seat
// me's own.
func (p *Pile) Sizes(l *engine.Last, me int) engine.Sizes {
	if l.Seat == me && p.own.no == l.No && l.No > 0 {
		return p.own.sizes
	}
	return l.Sizes
}
