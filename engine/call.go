package engine

import "time"

// call is "Bullshit!" (R9): the first call on the open play settles it.
func (g *Game) call(now time.Duration, seat, no int) error {
	if err := g.windowCheck(now, seat, no, "call"); err != nil {
		return err
	}
	g.called(now, seat)
	g.settle(g, seat, g.verdict(g.truth(), MoveCall))
	return nil
}

// truth reports whether the last play was what it claimed (Truth).
func (g *Game) truth() bool {
	p := &g.last
	return Truth(p.cards, p.claim, p.rank, p.sneaked)
}

// hand is the V14 hand-over: the caller gives the caught sneaker cards.
func (g *Game) hand(now time.Duration, seat int, cards []Card) error {
	if err := g.checkSeat(seat); err != nil {
		return err
	}
	if err := checkCards(cards); err != nil {
		return err
	}
	if err := g.checkGive(now, seat, len(cards), holds(g.hands[seat], cards)); err != nil {
		return err
	}
	g.touch(now)
	g.transfer(cards, false)
	return nil
}

// autoGive is the hand-over when the caller's time runs out: the cards
// whose rank the caller would be asked for last.
func (g *Game) autoGive() {
	g.transfer(g.LeastUseful(g.give.from, g.give.n), true)
}

func (g *Game) transfer(cards []Card, auto bool) {
	from, to := g.give.from, g.give.to
	g.hands[from] = take(g.hands[from], cards)
	g.hands[to] = addTo(g.hands[to], cards)
	g.gave(len(cards), auto)
	g.emit(Event{Type: EventHanded, To: []int{from, to}, Seat: from, Target: to, Cards: append([]Card(nil), cards...)})
	g.gaveOver(g)
}

// LeastUseful is the k cards seat would most like rid of: those whose rank
// it will be asked for last (the bluffs it needs last). Where the rank is
// free, the ranks it holds fewest of; jokers are kept.
func (g *Game) LeastUseful(seat, k int) []Card {
	a := asked{rules: &g.rules, n: g.n, seat: seat, plays: g.plays, last: g.last.seat, placed: g.placed, next: g.rankAt(g.plays + 1)}
	return a.leastUseful(g.hands[seat], k)
}

// LeastUseful is Game.LeastUseful worked out from the viewer's own view:
// the cards a timed-out hand-over gives (V14). A seat's own node, which
// knows its hand, picks them so at a table of hidden cards (engine/blind).
func (v *View) LeastUseful(k int) []Card {
	a := asked{rules: &v.Rules, n: len(v.Hands), seat: v.Seat, plays: v.No, placed: v.Placed, next: v.Rank}
	if v.Last != nil {
		a.last = v.Last.Seat
	}
	return a.leastUseful(v.Hand, k)
}

// asked is where a seat stands in the rank sequence: what LeastUseful
// needs besides the hand. placed nil is nobody out; next is the rank play
// plays+1 must claim.
type asked struct {
	rules                *Rules
	n, seat, plays, last int
	placed               []int
	next                 Rank
}

func (a *asked) leastUseful(hand []Card, k int) []Card {
	wait := a.waits(hand)
	out := make([]Card, 0, k)
	used := make([]bool, len(hand))
	for len(out) < k && len(out) < len(hand) {
		best := -1
		for i, c := range hand {
			if used[i] {
				continue
			}
			if best < 0 || worse(c, hand[best], wait) {
				best = i
			}
		}
		used[best] = true
		out = append(out, hand[best])
	}
	return out
}

// worse reports whether a is less useful to keep than b.
func worse(a, b Card, wait *[NumRanks + 1]int) bool {
	wa, wb := wait[rankSlot(a)], wait[rankSlot(b)]
	if wa != wb {
		return wa > wb
	}
	return a > b
}

func rankSlot(c Card) int {
	if c == Joker {
		return NumRanks
	}
	return int(c.Rank())
}

func (a *asked) in(s int) bool { return a.placed == nil || a.placed[s] == 0 }

// nextIn is the next seat after s still holding cards, as Game.nextIn.
func (a *asked) nextIn(s int) int {
	for i := 0; i < a.n; i++ {
		if a.rules.CCW {
			s = (s + a.n - 1) % a.n
		} else {
			s = (s + 1) % a.n
		}
		if a.in(s) {
			return s
		}
	}
	return s
}

// waits is, for each rank, how long until the seat is next asked for it
// (the larger, the less useful the card); the joker slot is always most
// useful.
func (a *asked) waits(hand []Card) *[NumRanks + 1]int {
	var w [NumRanks + 1]int
	w[NumRanks] = -1
	r := a.rules
	if r.Doubt || r.Sequence == SeqFree || r.Sequence == SeqNear || r.Sequence == SeqNearStrict {
		// No sequence: the ranks it holds fewest of are the easiest to part with.
		var have [NumRanks]int
		for _, c := range hand {
			if c != Joker {
				have[c.Rank()]++
			}
		}
		for r := range have {
			w[r] = 100 - have[r]
		}
		return &w
	}
	// The play number of the seat's next turn, then every lap after.
	no := a.plays + 1
	for s := a.nextIn(a.last); s != a.seat; s = a.nextIn(s) {
		no++
		if no > a.plays+a.n+1 {
			break
		}
	}
	lap := 0
	for s := range a.n {
		if a.in(s) {
			lap++
		}
	}
	for r := range NumRanks {
		w[r] = NumRanks
	}
	// Ranks counted from the next play's: play x claims RankAt(x-plays)
	// of a sequence that starts at next.
	c := claimRules{rules: a.rules, start: a.next}
	for m := 0; m < NumRanks; m++ {
		r := c.RankAt(no + m*lap - a.plays)
		if w[r] == NumRanks {
			w[r] = m
		}
	}
	return &w
}
