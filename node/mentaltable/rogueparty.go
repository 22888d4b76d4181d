//go:build rogueparty

package mentaltable

// A dishonest party, for the end-to-end tests of issue 25 only: built
// with the tag rogueparty (cmd/bullshit's tests build such a binary beside
// the real one), never in the game. BS_ROGUE_PARTY chooses how its node
// cheats; in everything else it plays honestly:
//
//   - falseopen: a called or doubted play of one of its seats that was a
//     lie (a believed one that was true) is turned up as what it claimed
//     (as a lie), forged three ways in turn, each claiming a card of the
//     rank it needs: its own share of the card doctored so that the
//     decryption itself reads as that card (the one forgery that makes
//     the shares say it; the proof can't follow); the true opening of a
//     card of that rank it holds, under the play's handle; the true
//     shares, with the face claimed as that card. A play that was already
//     what it wanted (a truth called) it probes with: one card claimed as
//     another of its rank, to see whether the table checks.
//   - wrongshare: its deal gives, for the first card dealt to another
//     party, its share of another card (a valid proof, of that card).
//   - noopen: it never turns up a called play of its seats.
//   - leavedeal: its program leaves when its shares of the deal are due,
//     every shuffle done: the deal can't finish without them.
//   - badshuffle: its shuffle puts a second A♠ (a fresh encryption) in
//     place of one card; as the last shuffler, at a card dealt to itself.
//     It recommits to the deck it sends, so its step checks when it
//     comes (CheckStep sees no card in the clear or doubled) and its
//     commitment at the end; only its opening's re-encryption doesn't.
//
// Each cheat says so on stderr, "rogue party: " first, so that a test
// knows the attack was played.

import (
	"fmt"
	"os"
	"slices"

	"github.com/gtank/ristretto255"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/protocol"
	"github.com/bullshit-game/bullshit/protocol/mental"
)

// RoguePartyEnv chooses the rogue party's cheat.
const RoguePartyEnv = "BS_ROGUE_PARTY"

func init() {
	switch os.Getenv(RoguePartyEnv) {
	case "falseopen":
		rogueParty = falseOpen
	case "wrongshare":
		rogueParty = wrongShare
	case "noopen":
		rogueParty = noOpen
	case "leavedeal":
		rogueParty = leaveDeal
	case "badshuffle":
		rogueParty = badShuffle
	}
}

func roguef(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "rogue party: "+format+"\n", args...)
}

// calledOpen reports whether m is the node's opening of the called play
// its copy of the host waits for.
func calledOpen(p *Player, m protocol.Message) (protocol.DeckOpen, bool) {
	o, ok := m.(protocol.DeckOpen)
	a := p.h.calling
	return o, ok && p.node != nil && a != nil && a.What == AskOpen && o.No == a.No && o.From == p.node.Index
}

func noOpen(p *Player, send []protocol.Message) []protocol.Message {
	return slices.DeleteFunc(send, func(m protocol.Message) bool {
		o, ok := calledOpen(p, m)
		if ok {
			roguef("noopen: play %d is not turned up", o.No)
		}
		return ok
	})
}

var forgeries int

func falseOpen(p *Player, send []protocol.Message) []protocol.Message {
	for k, m := range send {
		if o, ok := calledOpen(p, m); ok {
			send[k] = forge(p, o)
		}
	}
	return send
}

// forge is o forged: a lie called or doubted turned up as the truth it
// claimed, a truth believed as a lie. A play whose cards already say what
// the forger wants (a truth called, a lie believed) it probes with: one
// card claimed as another of its rank, to see whether the table checks
// (the rules then go against it all the same: R10b).
func forge(p *Player, o protocol.DeckOpen) protocol.DeckOpen {
	n := p.node
	last := p.h.B.View(-1).Last
	if last == nil || len(o.Handles) != len(o.Openings) {
		return o
	}
	// What turned the play up: the last move the host took.
	var move engine.Move
	for i := len(p.h.log) - 1; i >= 0; i-- {
		if p.h.log[i].What == InputMove {
			move = p.h.log[i].Cmd.Move
			break
		}
	}
	cards := make([]engine.Card, len(o.Handles))
	for k, h := range o.Handles {
		cards[k] = engine.Card(n.known[engine.Handle(h)].Card)
	}
	believed := move == engine.MoveBelieve
	probe := engine.Truth(cards, last.Claim, last.Rank, 0) != believed
	if len(cards) != last.Claim && !probe {
		return o // a count lie (V12) or a sneak (V14): no face helps
	}
	how := []string{"share", "swap", "face"}[forgeries%3]
	forgeries++
	for k, c := range cards {
		var want engine.Card // claimed in c's place
		switch {
		case (probe || believed) && k > 0:
			return o
		case probe && c == engine.Joker:
			return o
		case probe:
			want = c/4*4 + (c+1)%4 // the same rank, another suit
		case believed:
			want = engine.Card((last.Rank+1)%engine.NumRanks) * 4 // another rank: a lie
		case c.Matches(last.Rank):
			continue
		default:
			want = engine.Card(last.Rank) * 4
		}
		h := engine.Handle(o.Handles[k])
		op, ok := n.opening(h)
		if !ok {
			return o
		}
		target := mental.Face{Card: uint8(want)}
		used := how
		if how == "swap" {
			other, ok := n.holding(want.Rank(), h)
			if ok {
				if op, ok = n.opening(other); ok {
					target = op.Face
				}
			}
			if !ok {
				used = "share"
			}
		}
		if used == "share" {
			// D' = D + M − M': the card decrypts to M', the claimed card.
			b, _ := op.Shares[n.Index].MarshalBinary()
			var d ristretto255.Element
			if d.Decode(b[:mental.ElementSize]) != nil {
				return o
			}
			d.Add(&d, op.Face.Point())
			d.Subtract(&d, target.Point())
			copy(b, d.Encode(nil))
			if op.Shares[n.Index].UnmarshalBinary(b) != nil {
				return o
			}
		}
		if probe {
			used += ", probe"
		}
		roguef("falseopen (%s): play %d's card %d, %s, turned up as %s", used, o.No, h, c, engine.Card(target.Card))
		op.Face = target
		o.Openings[k], _ = op.MarshalBinary()
	}
	return o
}

// holding is a card of rank r the node's seats hold, but not h.
func (n *Node) holding(r engine.Rank, not engine.Handle) (engine.Handle, bool) {
	for _, s := range n.seats {
		for _, h := range n.h.B.Hand(s) {
			if f, ok := n.known[h]; ok && h != not && engine.Card(f.Card).Matches(r) {
				return h, true
			}
		}
	}
	return 0, false
}

var wrongDone bool

func wrongShare(p *Player, send []protocol.Message) []protocol.Message {
	n := p.node
	for k, m := range send {
		d, ok := m.(protocol.DeckDeal)
		if !ok || n == nil || d.From != n.Index || wrongDone {
			continue
		}
		victim := slices.IndexFunc(n.t.Dealt, func(party int) bool { return party != n.Index })
		if victim < 0 {
			continue
		}
		other := (victim + 1) % len(n.t.Deck)
		sh, err := mental.DecryptShare(n.rand, &n.x, &n.t.Deck[other], n.t.Ctx)
		if err != nil {
			continue
		}
		d.Shares = slices.Clone(d.Shares)
		d.Shares[victim], _ = sh.MarshalBinary()
		send[k] = d
		wrongDone = true
		roguef("wrongshare: its share of card %d (party %d's) is its share of card %d", victim, n.t.Dealt[victim], other)
	}
	return send
}

func leaveDeal(p *Player, send []protocol.Message) []protocol.Message {
	for _, m := range send {
		if d, ok := m.(protocol.DeckDeal); ok && p.node != nil && d.From == p.node.Index {
			roguef("leavedeal: leaving with its shares of the deal due (%d shuffles done)", len(p.node.t.Steps))
			os.Exit(3)
		}
	}
	return send
}

func badShuffle(p *Player, send []protocol.Message) []protocol.Message {
	n := p.node
	for k, m := range send {
		sh, ok := m.(protocol.DeckShuffle)
		if !ok || n == nil || sh.From != n.Index {
			continue
		}
		var st mental.ShuffleStep
		if st.UnmarshalBinary(sh.Step) != nil {
			continue
		}
		in := n.t.Initial
		if i := len(n.t.Steps); i > 0 {
			prev, err := n.rec.step(i - 1)
			if err != nil {
				continue
			}
			in = prev.Out
		}
		at := 0
		if n.Index == n.rec.n-1 {
			at = slices.Index(n.t.Dealt, n.Index)
		}
		ace := mental.Face{Card: 3} // A♠
		ct, err := mental.Encrypt(n.rand, &n.t.Joint, ace)
		if err != nil {
			continue
		}
		st.Out = slices.Clone(st.Out)
		st.Out[at] = ct
		st.Commit = mental.RogueCommit(&n.shuf, in, st.Out, n.t.Ctx)
		sh.Step, _ = st.MarshalBinary()
		send[k] = sh
		roguef("badshuffle: a second %s at card %d (dealt to party %d), recommitted", engine.Card(ace.Card), at, n.t.Dealt[at])
	}
	return send
}
