package engine

import "time"

// windowCheck is what a call and a let-go share (R8, R9, V8, V11).
func (g *Game) windowCheck(now time.Duration, seat, no int, verb string) error {
	if err := g.checkSeat(seat); err != nil {
		return err
	}
	if g.rules.Doubt {
		return refuse(CodeNotAllowed, "I Doubt It has no call window: doubt, believe or skip on your turn.")
	}
	if no < 1 || no > g.plays {
		if g.plays == 0 {
			return refuse(CodeNoWindow, "There's nothing to call yet: nobody has played.")
		}
		return refusef(CodeNoWindow, "There's no play %d: the last play is number %d.", no, g.plays)
	}
	if !g.win.open || g.win.no != no || now >= g.win.closes {
		if no == g.plays && g.last.caller == seat && g.last.shown {
			return refuse(CodeTooLate, "Too late: that play was already settled. (You called it.)")
		}
		return ErrTooLate
	}
	if seat == g.last.seat {
		return refusef(CodeOwnPlay, "You can't %s your own play.", verb)
	}
	if g.win.passed&(1<<seat) != 0 {
		return ErrAlreadyPassed
	}
	if g.placed[seat] != 0 {
		return refuse(CodeNotAllowed, "You're out of this game: you no longer call.")
	}
	if g.win.callers&(1<<seat) == 0 {
		return refuse(CodeNotAllowed, "Only the next player may call at this table.")
	}
	return nil
}

// call is "Bullshit!" (R9): the first call on the open play settles it.
func (g *Game) call(now time.Duration, seat, no int) error {
	if err := g.windowCheck(now, seat, no, "call"); err != nil {
		return err
	}
	g.touch(now)
	g.win.open = false
	g.showdown(seat)
	return nil
}

// pass lets the open play go; when every seat that may call has, it stands.
func (g *Game) pass(now time.Duration, seat, no int) error {
	if err := g.windowCheck(now, seat, no, "let go"); err != nil {
		return err
	}
	g.touch(now)
	g.win.passed |= 1 << seat
	g.win.callers &^= 1 << seat
	g.emit(Event{Type: EventPass, Seat: seat, No: no})
	if g.win.callers == 0 {
		g.stand()
	}
	return nil
}

// stand closes the window with no call (R8): the play stands unrevealed.
func (g *Game) stand() {
	g.win.open = false
	g.emit(Event{Type: EventStand, Seat: g.last.seat, No: g.last.no})
	if g.last.out {
		if g.goOut(g.last.seat); g.phase == PhaseOver {
			return
		}
	}
	g.advance()
}

// truth reports whether the last play was what it claimed: every card the
// rank (a joker matches any, V7), as many as claimed (V12), nothing sneaked
// under it (V14).
func (g *Game) truth() bool {
	p := &g.last
	if p.sneaked > 0 || len(p.cards) != p.claim {
		return false
	}
	for _, c := range p.cards {
		if !c.Matches(p.rank) {
			return false
		}
	}
	return true
}

// showdown turns the last play up (R10) and gives the pile to the loser.
func (g *Game) showdown(caller int) {
	p := &g.last
	p.shown, p.caller = true, caller
	truth := g.truth()
	g.emit(Event{Type: EventCall, Seat: caller, Target: p.seat, No: p.no})
	g.reveal(truth)
	st := &g.stats[caller]
	st.Calls++
	loser := caller
	if !truth {
		st.Right++
		loser = p.seat
	}
	g.takePile(loser)
	if truth && p.out {
		if g.goOut(p.seat); g.phase == PhaseOver {
			return
		}
	}
	if !truth && p.sneaked > 0 {
		// V14: the caller hands the sneaker a card, keeping one at least.
		if n := min(1, len(g.hands[caller])-1); n > 0 {
			g.phase = PhaseGive
			g.give = give{from: caller, to: p.seat, n: n, closes: g.now + GiveTime}
			return
		}
	}
	g.advance()
}

func (g *Game) reveal(truth bool) {
	p := &g.last
	if !truth {
		g.stats[p.seat].Lies++
		if p.sneaked > 0 {
			g.stats[p.seat].Caught++
		}
	}
	g.emit(Event{Type: EventReveal, Seat: p.seat, No: p.no, Rank: p.rank, Claim: p.claim,
		Cards: append([]Card(nil), p.cards...), Truth: truth, Sneaked: p.sneaked})
}

// takePile puts the whole pile into seat's hand (R10).
func (g *Game) takePile(seat int) {
	g.emit(Event{Type: EventTake, Seat: seat, Count: Seen(len(g.pile), true, g.rules.Rough)})
	g.hands[seat] = addTo(g.hands[seat], g.pile)
	g.pile = g.pile[:0]
	g.stats[seat].Pickups++
}

// advance hands the turn on after a settled play (R11, R14).
func (g *Game) advance() {
	g.phase = PhasePlay
	if g.plays >= MaxPlays {
		g.end()
		return
	}
	g.turn = g.nextIn(g.last.seat)
}

// hand is the V14 hand-over: the caller gives the caught sneaker cards.
func (g *Game) hand(now time.Duration, seat int, cards []Card) error {
	if err := g.checkSeat(seat); err != nil {
		return err
	}
	if err := checkCards(cards); err != nil {
		return err
	}
	if g.phase != PhaseGive || seat != g.give.from {
		return refuse(CodeNotYourTurn, "You have no card to hand over.")
	}
	if !holds(g.hands[seat], cards) {
		return refuse(CodeNotInHand, "You don't hold that card.")
	}
	if len(cards) != g.give.n {
		if g.give.n == 1 {
			return refuse(CodeBadCount, "Hand over exactly one card.")
		}
		return refusef(CodeBadCount, "Hand over exactly %d cards.", g.give.n)
	}
	if now >= g.give.closes {
		return refuse(CodeTooLate, "Too late: the card was handed over for you.")
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
	g.emit(Event{Type: EventGive, Seat: from, Target: to, Count: Exact(len(cards)), Auto: auto})
	g.emit(Event{Type: EventHanded, To: []int{from, to}, Seat: from, Target: to, Cards: append([]Card(nil), cards...)})
	g.give = give{}
	g.advance()
}

// LeastUseful is the k cards seat would most like rid of: those whose rank
// it will be asked for last (the bluffs it needs last). Where the rank is
// free, the ranks it holds fewest of; jokers are kept.
func (g *Game) LeastUseful(seat, k int) []Card {
	hand := g.hands[seat]
	wait := g.waits(seat)
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

// waits is, for each rank, how long until seat is next asked for it (the
// larger, the less useful the card); the joker slot is always most useful.
func (g *Game) waits(seat int) *[NumRanks + 1]int {
	var w [NumRanks + 1]int
	w[NumRanks] = -1
	if g.rules.Doubt || g.rules.Sequence == SeqFree || g.rules.Sequence == SeqNear || g.rules.Sequence == SeqNearStrict {
		// No sequence: the ranks it holds fewest of are the easiest to part with.
		var have [NumRanks]int
		for _, c := range g.hands[seat] {
			if c != Joker {
				have[c.Rank()]++
			}
		}
		for r := range have {
			w[r] = 100 - have[r]
		}
		return &w
	}
	// The play number of seat's next turn, then every lap after.
	no := g.plays + 1
	for s := g.nextIn(g.last.seat); s != seat; s = g.nextIn(s) {
		no++
		if no > g.plays+g.n+1 {
			break
		}
	}
	lap := g.in()
	for r := range NumRanks {
		w[r] = NumRanks
	}
	for m := 0; m < NumRanks; m++ {
		r := g.rankAt(no + m*lap)
		if w[r] == NumRanks {
			w[r] = m
		}
	}
	return &w
}
