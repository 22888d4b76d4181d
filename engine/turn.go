package engine

import "time"

// The table's rules from a play to its settling, shared by the clear Game
// and the blind game: what follows a play, the call window, the verdict
// once the cards are turned up, the V15 rounds and the end. A verdict
// comes in as truth: the clear game reads it from the cards it holds, the
// blind one from the cards a call had opened.

// checkTurn is whether seat may play now; over is a rapid play over an
// open window (V13).
func (t *table) checkTurn(seat int) (over bool, err error) {
	switch {
	case t.phase == PhaseGive:
		return false, refuse(CodeNotYourTurn, "Wait: the caller is handing over a card.")
	case t.placed[seat] != 0:
		return false, refuse(CodeNotYourTurn, "You're out of this game: you have no cards to play.")
	case seat != t.turn:
		return false, refusef(CodeNotYourTurn, "It isn't your turn: seat %d plays next.", t.turn)
	case t.rules.Doubt && t.plays >= MaxPlays:
		// R14: the 500th play is the game's last; its round must settle.
		return false, refuse(CodeNotYourTurn, "That was the game's last play: doubt, believe or skip it.")
	case t.phase == PhaseCall:
		if !t.rules.Rapid {
			return false, refuse(CodeNotYourTurn, "Wait: the last play can still be called.")
		}
		if t.last.out {
			return false, refuse(CodeNotYourTurn, "Wait: a play that empties a hand gets its whole call window.")
		}
		if t.win.no >= MaxPlays {
			return false, refuse(CodeNotYourTurn, "Wait: the last play of the game must settle first.")
		}
		return true, nil
	}
	return false, nil
}

// played records an accepted play of k cards by seat (cards: the cards
// placed, where they are known) and announces it: sizes are the hand and
// the pile before and after, left the cards the hand still holds.
func (t *table) played(seat, k, claim int, rank Rank, cards []Card, sizes Sizes, left int) {
	t.plays++
	t.prev = rank
	sneaked := sneakedOf(&t.rules, k, claim)
	if sneaked > 0 {
		t.stats[seat].Sneaks++
	}
	t.last = play{seat: seat, no: t.plays, rank: rank, claim: claim, cards: append(t.last.cards[:0], cards...),
		out: left == 0, caller: -1, sizes: sizes, sneaked: sneaked}
	t.emit(Event{Type: EventPlay, Seat: seat, No: t.plays, Rank: rank, Claim: claim, Out: t.last.out, Sizes: sizes})
}

// afterPlay is what follows a play once its player's own event is out:
// the window (R8), or in I Doubt It the next seat's turn.
func (t *table) afterPlay(p pieces, seat int, rank Rank) {
	if t.rules.Doubt {
		t.added(p, seat, rank)
		return
	}
	t.openWindow(seat)
}

// added is what follows a play in I Doubt It: the round's rank, and the
// next seat's turn.
func (t *table) added(p pieces, seat int, rank Rank) {
	// Adding is anything but a doubt: it puts out a seat that played its
	// last cards, once the add is on the table (as a believe or a doubt
	// that finds the truth is settled before the seat goes out).
	if t.settlePending(p); t.phase == PhaseOver {
		return
	}
	if t.round.rank == NoRank {
		t.round.rank, t.round.starter = rank, seat
	}
	t.round.skips = 0
	if t.last.out {
		t.round.pending = seat
	}
	t.turn = t.nextIn(seat)
}

// openWindow opens the call window on the play seat just made.
func (t *table) openWindow(seat int) {
	t.phase = PhaseCall
	t.turn = t.nextIn(seat)
	t.win = window{open: true, no: t.plays, closes: t.now + t.rules.Window}
	if t.rules.NextOnly {
		t.win.callers = 1 << t.turn
	} else {
		for s := 0; s < t.n; s++ {
			if s != seat && t.placed[s] == 0 {
				t.win.callers |= 1 << s
			}
		}
	}
}

// checkQuads is V9's checks that need no card: the seat's own turn,
// before it plays.
func (t *table) checkQuads(seat int) error {
	if t.phase != PhasePlay || seat != t.turn || t.placed[seat] != 0 {
		return refuse(CodeNotYourTurn, "Lay out four of a kind on your own turn, before you play.")
	}
	return nil
}

// laidQuads records four of a kind laid face up, out of the game.
func (t *table) laidQuads(seat int, r Rank, cards []Card) {
	t.seen = append(t.seen, cards...)
	t.emit(Event{Type: EventQuads, Seat: seat, Rank: r, Cards: append([]Card(nil), cards...)})
}

// windowCheck is what a call and a let-go share (R8, R9, V8, V11).
func (t *table) windowCheck(now time.Duration, seat, no int, verb string) error {
	if err := t.checkSeat(seat); err != nil {
		return err
	}
	if t.rules.Doubt {
		return refuse(CodeNotAllowed, "I Doubt It has no call window: doubt, believe or skip on your turn.")
	}
	if no < 1 || no > t.plays {
		if t.plays == 0 {
			return refuse(CodeNoWindow, "There's nothing to call yet: nobody has played.")
		}
		return refusef(CodeNoWindow, "There's no play %d: the last play is number %d.", no, t.plays)
	}
	if !t.win.open || t.win.no != no || now >= t.win.closes {
		if no == t.plays && t.last.caller == seat && t.last.shown {
			return refuse(CodeTooLate, "Too late: that play was already settled. (You called it.)")
		}
		return ErrTooLate
	}
	if seat == t.last.seat {
		return refusef(CodeOwnPlay, "You can't %s your own play.", verb)
	}
	if t.win.passed&(1<<seat) != 0 {
		return ErrAlreadyPassed
	}
	if t.placed[seat] != 0 {
		return refuse(CodeNotAllowed, "You're out of this game: you no longer call.")
	}
	if t.win.callers&(1<<seat) == 0 {
		return refuse(CodeNotAllowed, "Only the next player may call at this table.")
	}
	return nil
}

// called is "Bullshit!" (R9) accepted: the window shuts on the play, which
// is turned up (settle gives the verdict).
func (t *table) called(now time.Duration, seat int) {
	t.touch(now)
	t.win.open = false
	p := &t.last
	p.shown, p.caller = true, seat
	t.emit(Event{Type: EventCall, Seat: seat, Target: p.seat, No: p.no})
}

// pass lets the open play go; when every seat that may call has, it stands.
func (t *table) pass(p pieces, now time.Duration, seat, no int) error {
	if err := t.windowCheck(now, seat, no, "let go"); err != nil {
		return err
	}
	t.touch(now)
	t.win.passed |= 1 << seat
	t.win.callers &^= 1 << seat
	t.emit(Event{Type: EventPass, Seat: seat, No: no})
	if t.win.callers == 0 {
		t.stand(p)
	}
	return nil
}

// stand closes the window with no call (R8): the play stands unrevealed.
func (t *table) stand(p pieces) {
	t.win.open = false
	t.emit(Event{Type: EventStand, Seat: t.last.seat, No: t.last.no})
	if t.last.out {
		if t.goOut(p, t.last.seat); t.phase == PhaseOver {
			return
		}
	}
	t.advance(p)
}

// settle is the called play turned up (R10), its verdict truth: the pile
// goes to the loser.
func (t *table) settle(p pieces, caller int, truth bool) {
	l := &t.last
	t.reveal(truth)
	st := &t.stats[caller]
	st.Calls++
	loser := caller
	if !truth {
		st.Right++
		loser = l.seat
	}
	t.takePile(p, loser)
	if truth && l.out {
		if t.goOut(p, l.seat); t.phase == PhaseOver {
			return
		}
	}
	if !truth && l.sneaked > 0 {
		// V14: the caller hands the sneaker a card, keeping one at least.
		if n := min(1, p.size(caller)-1); n > 0 {
			t.phase = PhaseGive
			t.give = give{from: caller, to: l.seat, n: n, closes: t.now + GiveTime}
			return
		}
	}
	t.advance(p)
}

// reveal announces the last play turned up: t.last.cards are its cards.
func (t *table) reveal(truth bool) {
	p := &t.last
	if !truth {
		t.stats[p.seat].Lies++
		if p.sneaked > 0 {
			t.stats[p.seat].Caught++
		}
	}
	t.emit(Event{Type: EventReveal, Seat: p.seat, No: p.no, Rank: p.rank, Claim: p.claim,
		Cards: append([]Card(nil), p.cards...), Truth: truth, Sneaked: p.sneaked})
}

// takePile puts the whole pile into seat's hand (R10).
func (t *table) takePile(p pieces, seat int) {
	t.emit(Event{Type: EventTake, Seat: seat, Count: Seen(p.pileSize(), true, t.rules.Rough)})
	p.takePile(seat)
	t.stats[seat].Pickups++
}

// advance hands the turn on after a settled play (R11, R14).
func (t *table) advance(p pieces) {
	t.phase = PhasePlay
	if t.plays >= MaxPlays {
		t.end(p)
		return
	}
	t.turn = t.nextIn(t.last.seat)
}

// checkGive is the V14 hand-over's checks that need no card: seat is the
// caller handing over, k cards, in time. held says whether seat holds them.
func (t *table) checkGive(now time.Duration, seat, k int, held bool) error {
	if t.phase != PhaseGive || seat != t.give.from {
		return refuse(CodeNotYourTurn, "You have no card to hand over.")
	}
	if !held {
		return refuse(CodeNotInHand, "You don't hold that card.")
	}
	if k != t.give.n {
		if t.give.n == 1 {
			return refuse(CodeBadCount, "Hand over exactly one card.")
		}
		return refusef(CodeBadCount, "Hand over exactly %d cards.", t.give.n)
	}
	if now >= t.give.closes {
		return refuse(CodeTooLate, "Too late: the card was handed over for you.")
	}
	return nil
}

// gave announces a hand-over of k cards; handed is the two seats' own
// event of which cards, which the caller emits next, then calls gaveOver.
func (t *table) gave(k int, auto bool) {
	t.emit(Event{Type: EventGive, Seat: t.give.from, Target: t.give.to, Count: Exact(k), Auto: auto})
}

func (t *table) gaveOver(p pieces) {
	t.give = give{}
	t.advance(p)
}

// checkJudge is whether seat may judge play no now (V15).
func (t *table) checkJudge(m Move, seat, no int) error {
	if err := t.checkSeat(seat); err != nil {
		return err
	}
	if !t.rules.Doubt {
		return refusef(CodeNotAllowed, "%s is an I Doubt It move; this table calls \"Bullshit!\" instead.", capital(m.String()))
	}
	if t.placed[seat] != 0 {
		return refuse(CodeNotYourTurn, "You're out of this game.")
	}
	if seat != t.turn {
		return refusef(CodeNotYourTurn, "It isn't your turn: seat %d acts next.", t.turn)
	}
	if no != 0 && (no < 1 || no > t.plays) {
		return refusef(CodeNoWindow, "There's no play %d.", no)
	}
	if no != 0 && no != t.plays {
		return ErrTooLate
	}
	if t.round.rank == NoRank {
		if no != 0 {
			// The play named ended a round already: settled.
			return ErrTooLate
		}
		return refuse(CodeNoWindow, "Nothing is on the table: start the round by naming a rank and playing.")
	}
	p := &t.last
	if m != MoveSkip && t.placed[p.seat] != 0 {
		// Its player went out on it when the next seat let it be: settled.
		return refusef(CodeTooLate, "Too late: seat %d went out on that play; add or skip.", p.seat)
	}
	return nil
}

// judged is a doubt or a believe accepted: the last play is turned up
// (settleDoubt, settleBelieve give the verdict).
func (t *table) judged(now time.Duration, m Move, seat int) {
	t.touch(now)
	l := &t.last
	if m == MoveDoubt {
		t.emit(Event{Type: EventDoubt, Seat: seat, No: l.no})
		l.shown, l.caller = true, seat
		return
	}
	t.emit(Event{Type: EventBelieve, Seat: seat, No: l.no})
	l.shown = true
}

// settleDoubt is a doubt's verdict: on a lie its player takes the pile and
// the doubter starts the next round; on the truth the doubter takes it.
func (t *table) settleDoubt(p pieces, seat int, truth bool) {
	l := &t.last
	t.reveal(truth)
	t.stats[seat].Calls++
	if !truth {
		t.stats[seat].Right++
		t.takePile(p, l.seat)
		t.round.pending = -1 // doubted successfully: back in
		t.newRound(p, seat)
		return
	}
	t.takePile(p, seat)
	if t.settlePending(p); t.phase == PhaseOver {
		return
	}
	t.newRound(p, t.nextIn(seat))
}

// settleBelieve is a believe's verdict: on the truth the pile leaves the
// game, on a lie the believer takes it.
func (t *table) settleBelieve(p pieces, seat int, truth bool) {
	t.reveal(truth)
	starter := seat
	if truth {
		t.leave(p, true)
	} else {
		t.takePile(p, seat)
		starter = -1
	}
	if t.settlePending(p); t.phase == PhaseOver {
		return
	}
	if starter < 0 {
		starter = t.nextIn(seat)
	}
	t.newRound(p, starter)
}

// skip lets the last play be; once every other seat has, the round ends.
func (t *table) skip(p pieces, now time.Duration, seat int) {
	t.touch(now)
	l := &t.last
	t.emit(Event{Type: EventSkip, Seat: seat, No: l.no})
	t.round.skips++
	if t.settlePending(p); t.phase == PhaseOver {
		return
	}
	others := t.in()
	if t.placed[l.seat] == 0 {
		others--
	}
	if t.round.skips < others {
		t.turn = t.nextIn(seat)
		if t.turn == l.seat {
			// Everyone else has had their say: the last player's own
			// play comes back round to them; the round is over.
			t.round.skips = others
		} else {
			return
		}
	}
	t.leave(p, false)
	starter := l.seat
	if t.placed[starter] != 0 {
		starter = t.nextIn(starter)
	}
	t.newRound(p, starter)
}

// settlePending puts out a seat that played its last cards, now that the
// next seat did something other than doubt them successfully (V15).
func (t *table) settlePending(p pieces) {
	if s := t.round.pending; s >= 0 {
		t.round.pending = -1
		t.goOut(p, s)
	}
}

// leave takes the round's cards out of the game (V15). The last play was
// turned up when shown; the rest leave face down.
func (t *table) leave(p pieces, shown bool) {
	ev := Event{Type: EventLeave, Count: Seen(p.pileSize(), true, t.rules.Rough)}
	if shown {
		ev.Cards = append([]Card(nil), t.last.cards...)
		t.seen = append(t.seen, t.last.cards...)
	}
	t.emit(ev)
	p.leave()
}

// newRound starts a V15 round with seat naming the rank.
func (t *table) newRound(p pieces, seat int) {
	t.round = round{rank: NoRank, starter: seat, pending: -1}
	t.prev = NoRank
	t.phase = PhasePlay
	if t.plays >= MaxPlays {
		t.end(p)
		return
	}
	t.turn = seat
	t.emit(Event{Type: EventRound, Seat: seat})
}

// goOut is a seat emptying its hand for good: the winner (R12, R13), or
// under V8 the next place, the game going on until one seat is left.
func (t *table) goOut(p pieces, seat int) {
	t.nOut++
	t.placed[seat] = t.nOut
	if t.winner < 0 {
		t.winner = seat
		t.emit(Event{Type: EventWin, Seat: seat})
	}
	if t.rules.Places {
		t.emit(Event{Type: EventOut, Seat: seat, Place: t.nOut})
		if t.in() > 1 {
			return
		}
	}
	t.end(p)
}

// end places every seat and ends the game (R13, R14, V8).
func (t *table) end(p pieces) {
	t.phase = PhaseOver
	t.win.open = false
	t.places, t.winner = standings(t.placed, t.nOut, p, t.winner)
	hands, pile := p.over()
	t.emit(Event{Type: EventOver, Seat: t.winner, Places: append([]int(nil), t.places...), Hands: hands, Cards: pile})
}
