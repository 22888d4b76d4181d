package mentaltable

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/protocol"
)

// The host's log as the wire carries it (protocol.LogInput). An input a
// party made (a deck message, a move, a pick) travels as the party's own
// signed envelope, the bytes it came in; what the host decided itself (the
// clock, a move it made for a seat, a departure, the end) in the host's
// words. Every node reads the log through a LogReader, which opens each
// envelope, checks its signer is the party that must have sent it, and
// refuses one it has seen before: a host can't put a move or a deck
// message in a party's name, nor take one twice.

// ErrLogInput is a log input a node refuses: the host's log isn't one an
// honest host keeps.
var ErrLogInput = errors.New("mentaltable: the host's log holds an input no party made")

// WireInput is in as the host's log carries it: env is the envelope the
// party's input came in, nil for the host's own.
func WireInput(in Input, env []byte) protocol.LogInput {
	li := protocol.LogInput{What: uint8(in.What), AtNS: int64(in.At), Env: env, Gone: -1, To: -1}
	switch in.What {
	case InputMove:
		if env == nil {
			m := WireMove(in.Cmd, nil)
			li.Move = &m
		}
	case InputLeave:
		li.Gone, li.To = in.Gone, in.To
	}
	return li
}

// WireMove is a seat's blind command as a party sends it, quads with
// their opening.
func WireMove(bc engine.BlindCommand, quads *protocol.DeckOpen) protocol.BlindMove {
	m := protocol.BlindMove{No: bc.No, Seat: bc.Seat, Move: uint8(bc.Move), Claim: bc.Claim, Rank: int8(bc.Rank), Quads: quads}
	if len(bc.Handles) > 0 {
		m.Handles = wireHandles(bc.Handles)
	}
	return m
}

// EngMove is a party's move as the blind engine takes it: quads name the
// handles their opening proves (the host fills in the faces once it has
// checked it).
func EngMove(m *protocol.BlindMove) engine.BlindCommand {
	bc := engine.BlindCommand{Move: engine.Move(m.Move), Seat: m.Seat, Claim: m.Claim, Rank: engine.Rank(m.Rank), No: m.No}
	if len(m.Handles) > 0 {
		bc.Handles = handles(m.Handles)
	}
	if m.Quads != nil {
		for _, h := range m.Quads.Handles {
			bc.Open = append(bc.Open, engine.Opened{Handle: engine.Handle(h)})
		}
	}
	return bc
}

// A LogReader reads the host's log of one table as a node takes it.
type LogReader struct {
	Table   protocol.TableID
	Parties []protocol.PeerID // party → the node that signs its messages
	seq     map[protocol.PeerID]uint64
}

// NewLogReader reads the log of table tid, whose parties' nodes are
// parties.
func NewLogReader(tid protocol.TableID, parties []protocol.PeerID) *LogReader {
	return &LogReader{Table: tid, Parties: slices.Clone(parties), seq: map[protocol.PeerID]uint64{}}
}

// Party is the party id signs for, -1 for none.
func (r *LogReader) Party(id protocol.PeerID) int { return slices.Index(r.Parties, id) }

// Input is li as an input for h, a copy of the host: a party's envelope
// opened, its signer checked against the party that must have sent it,
// and refused if the log carried it before.
func (r *LogReader) Input(h *Host, li protocol.LogInput) (Input, error) {
	at := time.Duration(li.AtNS)
	switch InputKind(li.What) {
	case InputMsg, InputPick:
		env, err := protocol.OpenRelayed(li.Env)
		if err != nil {
			return Input{}, fmt.Errorf("%w: %v", ErrLogInput, err)
		}
		return r.Envelope(h, env, at)
	case InputMove:
		if li.Env != nil {
			env, err := protocol.OpenRelayed(li.Env)
			if err != nil {
				return Input{}, fmt.Errorf("%w: %v", ErrLogInput, err)
			}
			in, err := r.Envelope(h, env, at)
			if err == nil && in.What != InputMove {
				err = fmt.Errorf("%w: a pick logged as a move", ErrLogInput)
			}
			return in, err
		}
		if li.Move == nil || li.Move.Quads != nil || li.Move.Pick {
			// The host can open no card: quads come from their seat's node.
			return Input{}, fmt.Errorf("%w: a move of the host's with cards opened", ErrLogInput)
		}
		return Input{What: InputMove, At: at, Cmd: EngMove(li.Move)}, nil
	case InputTick:
		return Input{What: InputTick, At: at}, nil
	case InputLeave:
		return Input{What: InputLeave, Gone: li.Gone, To: li.To}, nil
	case InputFinish:
		return Input{What: InputFinish}, nil
	case InputEnd:
		return Input{What: InputEnd}, nil
	}
	return Input{}, fmt.Errorf("%w: an input of kind %d", ErrLogInput, li.What)
}

// Envelope is a party's verified envelope (opened from its own link, or
// relayed in the log) as an input for h at time at: the host builds its
// inputs with it as every node does. The signer must be the party the
// message is from (a move's: the party that plays its seat now), and a
// number the reader has seen from it is refused.
func (r *LogReader) Envelope(h *Host, env *protocol.Envelope, at time.Duration) (Input, error) {
	if env.Table != r.Table {
		return Input{}, fmt.Errorf("%w: an envelope of table %s", ErrLogInput, env.Table)
	}
	p := r.Party(env.Sender)
	if p < 0 {
		return Input{}, fmt.Errorf("%w: an envelope signed by %s, no party of this game", ErrLogInput, env.Sender)
	}
	if env.Seq <= r.seq[env.Sender] {
		return Input{}, fmt.Errorf("%w: party %d's message %d again", ErrLogInput, p, env.Seq)
	}
	var in Input
	switch m := env.Msg.(type) {
	case protocol.DeckKey, protocol.DeckSplit, protocol.DeckShuffle, protocol.DeckDeal, protocol.DeckOpen,
		protocol.DeckHandover, protocol.DeckRecover, protocol.DeckPool, protocol.DeckPublish:
		in = Input{What: InputMsg, From: p, Msg: m}
	case protocol.BlindMove:
		if m.Seat < 0 || m.Seat >= len(h.rec.T.Holder) || h.rec.T.Holder[m.Seat] != p {
			return Input{}, fault(p, ErrNotExpected, "a move for seat %d, which party %d doesn't play", m.Seat, p)
		}
		if m.Pick {
			in = Input{What: InputPick, Seat: m.Seat, Picked: handles(m.Handles)}
			break
		}
		if m.Quads != nil && m.Quads.From != p {
			return Input{}, fault(p, ErrNotExpected, "quads opened as party %d's", m.Quads.From)
		}
		in = Input{What: InputMove, At: at, Cmd: EngMove(&m), Quads: m.Quads}
	default:
		return Input{}, fmt.Errorf("%w: party %d sent a %T", ErrLogInput, p, env.Msg)
	}
	r.seq[env.Sender] = env.Seq
	return in, nil
}

// TookPart reports whether the log holds an envelope of the node id's
// (its signature unchecked: for a node choosing whether it lost its part
// in a game under way, not for trusting the log).
func TookPart(log []protocol.LogInput, id protocol.PeerID) bool {
	for _, li := range log {
		if li.Env == nil {
			continue
		}
		if who, err := protocol.PeekSender(li.Env); err == nil && who == id {
			return true
		}
	}
	return false
}

// Holder is the party that plays seat s now (a departed party's seats are
// its successor's).
func (h *Host) Holder(s int) int { return h.rec.T.Holder[s] }

// Dealt reports whether the deal is done: every seat knows its hand.
func (h *Host) Dealt() bool { return h.started }

// Len is how many inputs the host has taken.
func (h *Host) Len() int { return len(h.log) }

// Revealed reports whether every secret is in: the deck is known and
// Reveal gives the clear game.
func (h *Host) Revealed() bool { return h.deck != nil || h.deckErr != nil }

// Picked is the cards V14's timed-out hand-over of seat takes, named by
// the seat's own node from the seat's completed view (nil when none is
// due of this node).
func (n *Node) Picked(seat int) ([]engine.Handle, bool, error) {
	s, k, ok := n.h.B.Picking()
	if !ok || s != seat || n.h.rec.T.Holder[s] != n.Index {
		return nil, false, nil
	}
	v := n.h.B.View(s)
	if err := n.View(s, &v, n.h.B.Hand(s), n.h.B.LastPlay()); err != nil {
		return nil, false, err
	}
	hs, err := n.Pick(s, &v, n.h.B.Hand(s), k)
	return hs, err == nil, err
}

// Logged is the host's i-th input.
func (h *Host) Logged(i int) Input { return h.log[i] }

// Dealt reports whether the node knows its seats' hands: the deal is
// done, and View can complete its seats' views.
func (n *Node) Dealt() bool { return len(n.sides) > 0 }

// Due is every message the table still waits for from this node, as its
// copy of the host says: what it sends again after a reconnection or a
// failover, when an answer of its may have been lost with the link (the
// host refuses one that did arrive: it is not due any more).
func (n *Node) Due() ([]protocol.Message, error) {
	r := n.rec
	var out []protocol.Message
	switch {
	case !r.keyed[n.Index]:
		m, err := n.keyMsg()
		if err != nil {
			return nil, err
		}
		return []protocol.Message{m}, nil
	case !r.keysDone():
		return nil, nil
	case !r.split[n.Index]:
		return n.splitMsg()
	case !r.splitDone():
		return nil, nil
	case !r.shuffled():
		return n.shuffleTurn()
	case !r.dealt[n.Index]:
		if len(n.shares) == 0 {
			n.reset()
		}
		d, err := n.deal()
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	for _, x := range r.asks {
		if !x.waiting[n.Index] && !(n.standsFor(x.Party) && x.waiting[x.Party]) {
			continue
		}
		ms, err := n.answer(x.Ask)
		if err != nil {
			return nil, err
		}
		out = append(out, ms...)
	}
	return out, nil
}

// Decryptable is every card the host's record lets anyone turn up: the
// shares everyone saw relayed, with no secret. At an honest table it is
// what was turned up for everyone, nothing more.
func (h *Host) Decryptable() map[engine.Handle]engine.Card {
	out := map[engine.Handle]engine.Card{}
	for x, f := range (&Watcher{h, h.rec}).Decryptable() {
		out[x] = engine.Card(f.Card)
	}
	return out
}
