package table

import (
	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/shamir"
)

// The host's journal travels to every seat as it grows, with the hidden
// cards of each play and hand-over split into Shamir shares, one a seat.
// The threshold is every player node but the host's (at least two): only
// all of them together can rebuild the whole journal, and so the exact
// game, when the host vanishes (node's election.go). The deal's seed and salt are
// shared the same way.
//
// Why all of them: identities are free, so one person can hold two seats
// (two phones) and pool their shares; at threshold 2 that person read
// every hand at the deal. With the threshold at every player node, no
// coalition smaller than all the other players learns a card it may not
// see. The price: a failover needs every player node back at the new host
// (a player who vanishes with the host stalls it until one of them
// returns, or the old host resumes from its journal).

// threshold is how many shares rebuild a hidden part: one from every
// player node other than the host's own, and never fewer than two (a lone
// player can't rebuild anything, and must not read anything either).
func (t *Table) threshold() int {
	k := 0
	for _, s := range t.Seats {
		if s.Owner != "" && s.Owner != "local" {
			k++
		}
	}
	return max(2, k)
}

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

// Public is a step with its hidden cards left out.
func Public(s engine.Step) PubStep {
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
	if sh, err := shamir.Split(b, len(t.Seats), t.threshold(), nil); err == nil {
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
	for i := from; i < len(t.Log); i++ {
		p := Public(t.Log[i])
		// The batch's last step carries the host's signature, which
		// vouches for every step before it (chain.go).
		p.Link = t.link(i, i == len(t.Log)-1)
		steps = append(steps, p)
		if sh, ok := t.shares[i]; ok {
			shares = append(shares, StepShare{Step: i, Share: sh[seat]})
		}
	}
	t.cursor[seat] = len(t.Log)
	return steps, shares
}
