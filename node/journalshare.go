package node

import "github.com/bullshit-game/bullshit/engine"

// The host's journal travels to every seat as it grows, with the hidden
// cards of each play and hand-over split into threshold-2 Shamir shares,
// one a seat. No seat can read a card it may not see from its own share;
// any two seats together can rebuild the whole journal, and so the exact
// game, when the host vanishes (election.go). The deal's seed and salt
// are shared the same way.

// hiddenCards is what a step hides from the table: the cards of a play or
// of a hand-over.
func hiddenCards(s engine.Step) []engine.Card {
	if s.Cmd == nil {
		return nil
	}
	switch s.Cmd.Move {
	case engine.MovePlay, engine.MoveGive:
		return s.Cmd.Cards
	}
	return nil
}

// public is a step with its hidden cards left out.
func public(s engine.Step) PubStep {
	p := PubStep{Step: s}
	if h := hiddenCards(s); len(h) > 0 {
		c := *s.Cmd
		c.Cards = nil
		p.Cmd = &c
		p.Hidden = len(h)
	}
	return p
}

// split shares step i's hidden cards among the seats.
func (t *Table) split(i int, s engine.Step) {
	h := hiddenCards(s)
	if len(h) == 0 || t.shares == nil {
		return
	}
	b := make([]byte, len(h))
	for j, c := range h {
		b[j] = byte(c)
	}
	if sh, err := Split(b, len(t.seats), 2, nil); err == nil {
		t.shares[i] = sh
	}
}

// journalFor is what seat has not been sent of the journal yet, with its
// shares.
func (t *Table) journalFor(seat int) ([]PubStep, []StepShare) {
	if t.cursor == nil || seat < 0 || seat >= len(t.cursor) {
		return nil, nil
	}
	from := t.cursor[seat]
	var steps []PubStep
	var shares []StepShare
	if from == 0 {
		if sh, ok := t.shares[-1]; ok {
			shares = append(shares, StepShare{Step: -1, Share: sh[seat]})
		}
	}
	for i := from; i < len(t.log); i++ {
		steps = append(steps, public(t.log[i]))
		if sh, ok := t.shares[i]; ok {
			shares = append(shares, StepShare{Step: i, Share: sh[seat]})
		}
	}
	t.cursor[seat] = len(t.log)
	return steps, shares
}
