package engine

// A SeatSide is one seat's own node at a blind table: the identities of
// the cards its seat has seen — its own hand as dealt, cards handed to it,
// a pile it took, every card turned up for all — and the decisions that
// need them, which the host can't make: which handles a move of cards
// names, V10's answer, a timed-out hand-over's pick, and the seat's view
// and events with its own cards' faces. It learns identities only from
// Learn: the cryptography (protocol/mental) proves them.
type SeatSide struct {
	seat  int
	known map[Handle]Card
}

// NewSeatSide is seat's node knowing the cards of known.
func NewSeatSide(seat int, known ...Opened) *SeatSide {
	s := &SeatSide{seat: seat, known: make(map[Handle]Card, len(known))}
	s.Learn(known...)
	return s
}

// Seat is the seat the node plays.
func (s *SeatSide) Seat() int { return s.seat }

// Learn records identities the seat has been shown.
func (s *SeatSide) Learn(open ...Opened) {
	for _, o := range open {
		s.known[o.Handle] = o.Card
	}
}

// Card is the identity of h, if the seat has seen it.
func (s *SeatSide) Card(h Handle) (Card, bool) {
	c, ok := s.known[h]
	return c, ok
}

// faces is the cards of hs, ok false if one isn't known.
func (s *SeatSide) faces(hs []Handle) ([]Card, bool) {
	out := make([]Card, len(hs))
	for i, h := range hs {
		c, ok := s.known[h]
		if !ok {
			return nil, false
		}
		out[i] = c
	}
	return out, true
}

// View completes v, the blind table's view for this seat (Blind.View),
// with what the seat's own node knows: its hand (hand, its handles) and
// its own last play's cards (last, the play's handles). The result is the
// view a clear game gives the seat. An unknown card of its own is an
// error: its node was never shown it.
func (s *SeatSide) View(v *View, hand, last []Handle) error {
	cards, ok := s.faces(hand)
	if !ok {
		return refuse(CodeNotInHand, "A card of this seat's hand was never shown to it.")
	}
	SortCards(cards)
	v.Hand = append(v.Hand[:0], cards...)
	if l := v.Last; l != nil && l.Seat == s.seat && !l.Shown && v.Final == nil {
		cards, ok := s.faces(last)
		if !ok {
			return refuse(CodeNotInHand, "A card of this seat's own play was never shown to it.")
		}
		l.Cards = append(l.Cards[:0], cards...)
	}
	return nil
}

// Event is e as the clear game announces it to this seat: its own cards
// (hand, mine, handed) with their faces. The cards a reveal or a quad
// turned up are learnt. e must be one the seat may see.
func (s *SeatSide) Event(e *BlindEvent) (Event, error) {
	c := e.Event
	switch e.Type {
	case EventHand, EventMine, EventHanded:
		cards, ok := s.faces(e.Handles)
		if !ok {
			return c, refuse(CodeNotInHand, "A card of this seat's was never shown to it.")
		}
		if e.Type == EventHand {
			SortCards(cards)
		}
		c.Cards = cards
	case EventReveal, EventQuads:
		for i, h := range e.Handles {
			if i < len(e.Cards) {
				s.known[h] = e.Cards[i]
			}
		}
	}
	return c, nil
}

// Command is a clear command of this seat's (a bot's, a player's, in
// cards) as the blind table takes it: each card named by a handle of hand
// holding it; quads open the four. A card the hand doesn't hold is
// refused.
func (s *SeatSide) Command(c Command, hand []Handle) (BlindCommand, error) {
	b := BlindCommand{Move: c.Move, Seat: c.Seat, Claim: c.Claim, Rank: c.Rank, No: c.No}
	if len(c.Cards) == 0 {
		return b, nil
	}
	used := make([]bool, len(hand))
	hs := make([]Handle, 0, len(c.Cards))
	for _, card := range c.Cards {
		i := -1
		for j, h := range hand {
			if x, ok := s.known[h]; ok && x == card && !used[j] {
				i = j
				break
			}
		}
		if i < 0 {
			return BlindCommand{}, refusef(CodeNotInHand, "You don't hold %s.", card)
		}
		used[i] = true
		hs = append(hs, hand[i])
	}
	if c.Move == MoveQuads {
		for i, h := range hs {
			b.Open = append(b.Open, Opened{h, c.Cards[i]})
		}
		return b, nil
	}
	b.Handles = hs
	return b, nil
}

// Holder is the seat's answer to V10's question: its opening of the card
// that plays first, or nil when its hand holds none.
func (s *SeatSide) Holder(r Rules, hand []Handle) []Opened {
	for _, h := range hand {
		if c, ok := s.known[h]; ok && c == r.First.Card {
			return []Opened{{h, c}}
		}
	}
	return nil
}

// Pick is the seat's cards for a timed-out hand-over of k (Blind.Pick):
// those View.LeastUseful names, v the seat's completed view (View).
func (s *SeatSide) Pick(v *View, hand []Handle, k int) ([]Handle, error) {
	c, err := s.Command(Command{Move: MoveGive, Seat: s.seat, Cards: v.LeastUseful(k)}, hand)
	return c.Handles, err
}
