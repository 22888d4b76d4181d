package engine

import "time"

// play is R6: cards face down, claimed as claim cards of rank.
func (g *Game) play(now time.Duration, seat int, cards []Card, claim int, rank Rank) error {
	if err := g.checkSeat(seat); err != nil {
		return err
	}
	if err := checkCards(cards); err != nil {
		return err
	}
	over, err := g.checkTurn(seat)
	if err != nil {
		return err
	}
	hand := g.hands[seat]
	if !holds(hand, cards) {
		return refuse(CodeNotInHand, "You don't hold those cards.")
	}
	k := len(cards)
	if claim == 0 {
		claim = k
	}
	if err := g.checkCount(k, claim); err != nil {
		return err
	}
	if rank == NoRank {
		rank = g.required()
		if rank == NoRank {
			if g.rules.Doubt {
				return refuse(CodeBadRank, "Name the rank this round is played in.")
			}
			return refuse(CodeBadRank, "Name the rank you claim.")
		}
	}
	if !g.allowed(rank) {
		return g.badRank(rank)
	}
	g.touch(now)
	if over {
		g.stand()
	}
	rough := g.rules.Rough
	sizes := Sizes{HandBefore: Seen(len(hand), false, rough), PileBefore: Seen(len(g.pile), true, rough)}
	hand = take(hand, cards)
	g.hands[seat] = hand
	g.pile = append(g.pile, cards...)
	sizes.HandAfter = Seen(len(hand), false, rough)
	sizes.PileAfter = Seen(len(g.pile), true, rough)
	g.plays++
	g.prev = rank
	sneaked := k - claim
	if sneaked < 0 || g.rules.Sneak == 0 {
		// Under V12 alone more cards than claimed is a count lie, not a
		// sneak: a lie when called, with no hand-over (V14's penalty).
		sneaked = 0
	}
	if sneaked > 0 {
		g.stats[seat].Sneaks++
	}
	g.last = play{seat: seat, no: g.plays, rank: rank, claim: claim, cards: append(g.last.cards[:0], cards...),
		out: len(hand) == 0, caller: -1, sizes: sizes, sneaked: sneaked}
	g.emit(Event{Type: EventPlay, Seat: seat, No: g.plays, Rank: rank, Claim: claim, Out: g.last.out, Sizes: sizes})
	g.emit(Event{Type: EventMine, To: g.only(seat), Seat: seat, No: g.plays, Cards: append([]Card(nil), cards...)})

	if g.rules.Doubt {
		g.added(seat, rank)
		return nil
	}
	g.openWindow(seat)
	return nil
}

// checkTurn is whether seat may play now; over is a rapid play over an
// open window (V13).
func (g *Game) checkTurn(seat int) (over bool, err error) {
	switch {
	case g.phase == PhaseGive:
		return false, refuse(CodeNotYourTurn, "Wait: the caller is handing over a card.")
	case g.placed[seat] != 0:
		return false, refuse(CodeNotYourTurn, "You're out of this game: you have no cards to play.")
	case seat != g.turn:
		return false, refusef(CodeNotYourTurn, "It isn't your turn: seat %d plays next.", g.turn)
	case g.rules.Doubt && g.plays >= MaxPlays:
		// R14: the 500th play is the game's last; its round must settle.
		return false, refuse(CodeNotYourTurn, "That was the game's last play: doubt, believe or skip it.")
	case g.phase == PhaseCall:
		if !g.rules.Rapid {
			return false, refuse(CodeNotYourTurn, "Wait: the last play can still be called.")
		}
		if g.last.out {
			return false, refuse(CodeNotYourTurn, "Wait: a play that empties a hand gets its whole call window.")
		}
		if g.win.no >= MaxPlays {
			return false, refuse(CodeNotYourTurn, "Wait: the last play of the game must settle first.")
		}
		return true, nil
	}
	return false, nil
}

// added is what follows a play in I Doubt It: the round's rank, and the
// next seat's turn.
func (g *Game) added(seat int, rank Rank) {
	// Adding is anything but a doubt: it puts out a seat that played its
	// last cards, once the add is on the table (as a believe or a doubt
	// that finds the truth is settled before the seat goes out).
	if g.settlePending(); g.phase == PhaseOver {
		return
	}
	if g.round.rank == NoRank {
		g.round.rank, g.round.starter = rank, seat
	}
	g.round.skips = 0
	if g.last.out {
		g.round.pending = seat
	}
	g.turn = g.nextIn(seat)
}

// openWindow opens the call window on the play seat just made.
func (g *Game) openWindow(seat int) {
	g.phase = PhaseCall
	g.turn = g.nextIn(seat)
	g.win = window{open: true, no: g.plays, closes: g.now + g.rules.Window}
	if g.rules.NextOnly {
		g.win.callers = 1 << g.turn
	} else {
		for s := 0; s < g.n; s++ {
			if s != seat && g.placed[s] == 0 {
				g.win.callers |= 1 << s
			}
		}
	}
}

// checkCount is R6's count rules with V5, V12 and V14.
func (g *Game) checkCount(k, claim int) error {
	if k == 0 {
		return refuse(CodeBadCount, "Pick at least one card to play.")
	}
	if claim < 1 || claim > g.cap {
		return refusef(CodeBadCount, "Claim 1 to %d cards.", g.cap)
	}
	s := g.rules.Sneak
	switch {
	case g.rules.CountLies:
		if k > g.cap+s {
			return refusef(CodeBadCount, "Put down 1 to %d cards.", g.cap+s)
		}
	case s > 0:
		if k < claim {
			return refuse(CodeBadCount, "You can't claim more cards than you put down.")
		}
		if k-claim > s {
			if s == 1 {
				return refuse(CodeBadCount, "You can sneak 1 extra card at most.")
			}
			return refusef(CodeBadCount, "You can sneak %d extra cards at most.", s)
		}
	default:
		if k > g.cap {
			return refusef(CodeBadCount, "Play 1 to %d cards.", g.cap)
		}
		if claim != k {
			return refuse(CodeBadCount, "Your claim is the number of cards you put down.")
		}
	}
	return nil
}

func (g *Game) badRank(r Rank) error {
	if g.rules.Doubt {
		return refusef(CodeBadRank, "This round is %s: add cards claimed as %s.", g.round.rank.Word(2), g.round.rank.Word(2))
	}
	if ranks := g.AllowedRanks(); ranks != nil {
		s := ""
		for i, x := range ranks {
			if i > 0 {
				s += ", "
			}
			s += x.String()
		}
		return refusef(CodeBadRank, "Claim %s: one of the ranks next to the last claim.", s)
	}
	if req := g.required(); req != NoRank {
		return refusef(CodeBadRank, "This play must claim %s, not %s.", req.Word(2), r.Word(2))
	}
	return refuse(CodeBadRank, "That isn't a rank.")
}

// quads is V9: a true four of a kind laid face up, out of the game.
func (g *Game) quads(now time.Duration, seat int, cards []Card) error {
	if err := g.checkSeat(seat); err != nil {
		return err
	}
	if err := checkCards(cards); err != nil {
		return err
	}
	if g.phase != PhasePlay || seat != g.turn || g.placed[seat] != 0 {
		return refuse(CodeNotYourTurn, "Lay out four of a kind on your own turn, before you play.")
	}
	hand := g.hands[seat]
	if !holds(hand, cards) {
		return refuse(CodeNotInHand, "You don't hold those cards.")
	}
	if len(cards) != 4 {
		return refuse(CodeBadCount, "Four of a kind is four cards.")
	}
	r := cards[0].Rank()
	for _, c := range cards {
		if c == Joker || c.Rank() != r {
			return refuse(CodeBadRank, "Only four cards of one rank, jokers aside, make four of a kind.")
		}
	}
	if !g.rules.Quads {
		return refuse(CodeNotAllowed, "This table doesn't lay out four of a kind.")
	}
	if len(hand) == 4 {
		return refuse(CodeNotAllowed, "Four of a kind can't empty your hand: play your last cards instead.")
	}
	g.touch(now)
	g.hands[seat] = take(hand, cards)
	g.gone = append(g.gone, cards...)
	g.seen = append(g.seen, cards...)
	g.emit(Event{Type: EventQuads, Seat: seat, Rank: r, Cards: append([]Card(nil), cards...)})
	return nil
}
