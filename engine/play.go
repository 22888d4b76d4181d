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
	c := g.claims()
	claim, rank, err = c.Claim(k, claim, rank)
	if err != nil {
		return err
	}
	g.touch(now)
	if over {
		g.stand(g)
	}
	rough := g.rules.Rough
	sizes := Sizes{HandBefore: Seen(len(hand), false, rough), PileBefore: Seen(len(g.pile), true, rough)}
	hand = take(hand, cards)
	g.hands[seat] = hand
	g.pile = append(g.pile, cards...)
	sizes.HandAfter = Seen(len(hand), false, rough)
	sizes.PileAfter = Seen(len(g.pile), true, rough)
	g.played(seat, k, claim, rank, cards, sizes, len(hand))
	g.emit(Event{Type: EventMine, To: g.only(seat), Seat: seat, No: g.plays, Cards: append([]Card(nil), cards...)})
	g.afterPlay(g, seat, rank)
	return nil
}

// quads is V9: a true four of a kind laid face up, out of the game.
func (g *Game) quads(now time.Duration, seat int, cards []Card) error {
	if err := g.checkSeat(seat); err != nil {
		return err
	}
	if err := checkCards(cards); err != nil {
		return err
	}
	if err := g.checkQuads(seat); err != nil {
		return err
	}
	hand := g.hands[seat]
	if !holds(hand, cards) {
		return refuse(CodeNotInHand, "You don't hold those cards.")
	}
	r, err := quadOf(cards)
	if err != nil {
		return err
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
	g.laidQuads(seat, r, cards)
	return nil
}
