package webclient

import (
	"errors"
	"fmt"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/assist"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/protocol"
)

// Move is a move as the page asks for it.
type Move struct {
	Kind  string `json:"kind"`  // play, call, pass, give, quads, doubt, believe, skip
	Cards []int  `json:"cards"` // the cards picked (play, give, quads)
	Claim int    `json:"claim"` // how many a play claims; 0: as many as put down
	Rank  int    `json:"rank"`  // the rank a play claims where it is free; -1 otherwise
}

// Do sends a move for our seat; the host's answer comes in the state (a
// refusal is a sentence in State.Refusal). What is legal is the host's
// engine's to say: the only checks here are ones the page must not get
// wrong (a move at all, cards from our hand).
func (c *Client) Do(m Move) error {
	c.mu.Lock()
	v, seat, tid, commit, blind := c.view, c.seat, c.tid, c.lobby.Commit, c.blind != nil
	c.refusal = ""
	c.mu.Unlock()
	mv, ok := engine.ParseMove(m.Kind)
	if !ok || mv == engine.MoveResume || mv == engine.MoveForfeit { // the table's moves, no seat's
		return fmt.Errorf("no such move: %q", m.Kind)
	}
	if v == nil {
		return protocol.Refuse(protocol.CodeWaiting, "the game has not started", "The game hasn't started.")
	}
	if seat < 0 {
		return protocol.Refuse(protocol.CodeBadSeat, "a spectator has no seat to play", "You're watching: spectators don't play.")
	}
	cmd := engine.Command{Move: mv, Seat: seat, Rank: engine.NoRank}
	for _, id := range m.Cards {
		if id < 0 || id > int(engine.Joker) {
			return fmt.Errorf("no card %d", id)
		}
		cmd.Cards = append(cmd.Cards, engine.Card(id))
	}
	switch mv {
	case engine.MovePlay:
		a := assist.Now(v, seat)
		r := v.Rank
		if a.Choose {
			r = engine.Rank(m.Rank)
			if !r.Valid() {
				return protocol.Refuse(protocol.CodeBadRank, "no rank named for the claim", "Name the rank you claim.")
			}
			cmd.Rank = r
		}
		// The cards of the claimed rank first: they're the ones claimed.
		var yes, no []engine.Card
		for _, x := range cmd.Cards {
			if x.Matches(r) {
				yes = append(yes, x)
			} else {
				no = append(no, x)
			}
		}
		cmd.Cards = append(yes, no...)
		if m.Claim > 0 && m.Claim != len(cmd.Cards) {
			cmd.Claim = m.Claim
		}
		cmd.No = v.No
	case engine.MoveCall, engine.MovePass:
		if v.Window == nil {
			return protocol.Refuse(protocol.CodeNoWindow, "no call window open", "There's nothing to call right now.")
		}
		cmd.No = v.Window.No
	case engine.MoveDoubt, engine.MoveBelieve, engine.MoveSkip:
		cmd.No = v.No
	}
	if blind {
		// Named by handle by our Player, which alone knows our cards.
		c.mu.Lock()
		var m protocol.Message
		err := errors.New("webclient: the blind game is over")
		if c.blind != nil {
			m, err = c.blindMove(cmd)
		}
		c.mu.Unlock()
		if err != nil {
			return err
		}
		return c.send(m)
	}
	// Signed as our seat's own: the host keeps the signature in its
	// journal (gamewire: movesig.go).
	return c.send(gamewire.SignedMove(c.cfg.Key, tid, commit, gamewire.WireMove(cmd, seat)))
}

// Preview is what a play of the picked cards would say, before the press.
type Preview struct {
	Label   string `json:"label"`   // "Claim 2 aces"
	Problem string `json:"problem"` // why it can't go as it stands, or ""
	Shows   string `json:"shows"`   // whether the counts will give a sneak away, or ""
	Under   string `json:"under"`   // what the cards beyond the claim do (assist.UnderClaim), or ""
}

// Preview says what a play of m.Cards claiming m.Claim (0: as many) of
// m.Rank (where free) would be, and whether the counts will show it.
func (c *Client) Preview(m Move) Preview {
	c.mu.Lock()
	defer c.mu.Unlock()
	v := c.view
	if v == nil || c.seat < 0 {
		return Preview{}
	}
	k := len(m.Cards)
	r := v.Rank
	if a := assist.Now(v, c.seat); a.Choose {
		r = engine.Rank(m.Rank)
	}
	claim := k
	if m.Claim > 0 {
		claim = m.Claim
	}
	p := Preview{}
	verb := assist.PlayVerb(v, c.seat)
	if r.Valid() {
		p.Label = verb + " " + assist.ClaimWords(claim, r)
	} else {
		p.Label = fmt.Sprintf("%s %d", verb, claim)
	}
	if k > claim {
		p.Label += fmt.Sprintf(" +%d", k-claim) // as the terminal's dock says it
	}
	s := v.Rules.Sneak
	switch {
	case k == 0:
		p.Problem = "Pick the cards to put down first."
	case v.Rules.CountLies && (claim < 1 || claim > v.Cap):
		p.Problem = fmt.Sprintf("Claim 1 to %d cards.", v.Cap)
	case v.Rules.CountLies || (s > 0 && k > v.Cap+s):
		if k > v.Cap+s {
			p.Problem = fmt.Sprintf("Put down 1 to %d cards (%d picked).", v.Cap+s, k)
		}
	case s > 0:
		if claim > v.Cap {
			p.Problem = fmt.Sprintf("Claim 1 to %d cards (%d picked): put some under.", v.Cap, k)
		} else if k-claim > s {
			p.Problem = fmt.Sprintf("At most %d may go under a claim.", s)
		}
	case k > v.Cap:
		p.Problem = fmt.Sprintf("Claim 1 to %d cards (%d picked).", v.Cap, k)
	}
	if p.Problem == "" && !r.Valid() {
		p.Problem = "Name the rank you claim."
	}
	if k > 0 {
		p.Under = assist.UnderClaim(k - claim)
	}
	if k > 0 && claim != k {
		hand, pile := assist.SneakShows(v, k, claim)
		switch {
		case hand:
			p.Shows = "Your hand's count will show it."
		case pile:
			p.Shows = "The pile's count might show it."
		default:
			p.Shows = "The counts won't show it."
		}
	}
	return p
}
