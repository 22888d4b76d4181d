package engine

import "time"

// judge is a V15 move on the last play of the round: doubt, believe or skip.
func (g *Game) judge(now time.Duration, m Move, seat, no int) error {
	if err := g.checkJudge(m, seat, no); err != nil {
		return err
	}
	g.touch(now)
	switch m {
	case MoveDoubt:
		g.doubt(seat)
	case MoveBelieve:
		g.believe(seat)
	case MoveSkip:
		g.skip(seat)
	}
	return nil
}

// checkJudge is whether seat may judge play no now.
func (g *Game) checkJudge(m Move, seat, no int) error {
	if err := g.checkSeat(seat); err != nil {
		return err
	}
	if !g.rules.Doubt {
		return refusef(CodeNotAllowed, "%s is an I Doubt It move; this table calls \"Bullshit!\" instead.", capital(m.String()))
	}
	if g.placed[seat] != 0 {
		return refuse(CodeNotYourTurn, "You're out of this game.")
	}
	if seat != g.turn {
		return refusef(CodeNotYourTurn, "It isn't your turn: seat %d acts next.", g.turn)
	}
	if no != 0 && (no < 1 || no > g.plays) {
		return refusef(CodeNoWindow, "There's no play %d.", no)
	}
	if no != 0 && no != g.plays {
		return ErrTooLate
	}
	if g.round.rank == NoRank {
		if no != 0 {
			// The play named ended a round already: settled.
			return ErrTooLate
		}
		return refuse(CodeNoWindow, "Nothing is on the table: start the round by naming a rank and playing.")
	}
	p := &g.last
	if m != MoveSkip && g.placed[p.seat] != 0 {
		// Its player went out on it when the next seat let it be: settled.
		return refusef(CodeTooLate, "Too late: seat %d went out on that play; add or skip.", p.seat)
	}
	return nil
}

// doubt turns the last play up: on a lie its player takes the pile and
// the doubter starts the next round; on the truth the doubter takes it.
func (g *Game) doubt(seat int) {
	p := &g.last
	g.emit(Event{Type: EventDoubt, Seat: seat, No: p.no})
	p.shown, p.caller = true, seat
	truth := g.truth()
	g.reveal(truth)
	g.stats[seat].Calls++
	if !truth {
		g.stats[seat].Right++
		g.takePile(p.seat)
		g.round.pending = -1 // doubted successfully: back in
		g.newRound(seat)
		return
	}
	g.takePile(seat)
	if g.settlePending(); g.phase == PhaseOver {
		return
	}
	g.newRound(g.nextIn(seat))
}

// believe turns the last play up: on the truth the pile leaves the game,
// on a lie the believer takes it.
func (g *Game) believe(seat int) {
	p := &g.last
	g.emit(Event{Type: EventBelieve, Seat: seat, No: p.no})
	p.shown = true
	truth := g.truth()
	g.reveal(truth)
	starter := seat
	if truth {
		g.leave(true)
	} else {
		g.takePile(seat)
		starter = -1
	}
	if g.settlePending(); g.phase == PhaseOver {
		return
	}
	if starter < 0 {
		starter = g.nextIn(seat)
	}
	g.newRound(starter)
}

// skip lets the last play be; once every other seat has, the round ends.
func (g *Game) skip(seat int) {
	p := &g.last
	g.emit(Event{Type: EventSkip, Seat: seat, No: p.no})
	g.round.skips++
	if g.settlePending(); g.phase == PhaseOver {
		return
	}
	others := g.in()
	if g.placed[p.seat] == 0 {
		others--
	}
	if g.round.skips < others {
		g.turn = g.nextIn(seat)
		if g.turn == p.seat {
			// Everyone else has had their say: the last player's own
			// play comes back round to them; the round is over.
			g.round.skips = others
		} else {
			return
		}
	}
	g.leave(false)
	starter := p.seat
	if g.placed[starter] != 0 {
		starter = g.nextIn(starter)
	}
	g.newRound(starter)
}

// settlePending puts out a seat that played its last cards, now that the
// next seat did something other than doubt them successfully (V15).
func (g *Game) settlePending() {
	if s := g.round.pending; s >= 0 {
		g.round.pending = -1
		g.goOut(s)
	}
}

// leave takes the round's cards out of the game (V15). The last play was
// turned up when shown; the rest leave face down.
func (g *Game) leave(shown bool) {
	ev := Event{Type: EventLeave, Count: Seen(len(g.pile), true, g.rules.Rough)}
	if shown {
		ev.Cards = append([]Card(nil), g.last.cards...)
		g.seen = append(g.seen, g.last.cards...)
	}
	g.emit(ev)
	g.gone = append(g.gone, g.pile...)
	g.pile = g.pile[:0]
}

// newRound starts a V15 round with seat naming the rank.
func (g *Game) newRound(seat int) {
	g.round = round{rank: NoRank, starter: seat, pending: -1}
	g.prev = NoRank
	g.phase = PhasePlay
	if g.plays >= MaxPlays {
		g.end()
		return
	}
	g.turn = seat
	g.emit(Event{Type: EventRound, Seat: seat})
}

func capital(s string) string {
	if s == "" {
		return s
	}
	b := []byte(s)
	if b[0] >= 'a' && b[0] <= 'z' {
		b[0] -= 'a' - 'A'
	}
	return string(b)
}
