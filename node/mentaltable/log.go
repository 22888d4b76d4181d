package mentaltable

import (
	"fmt"
	"slices"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/protocol"
)

// An Input is one thing the host took, in the order it took them: a
// party's message, a seat's move, the clock, a timed-out hand-over's
// cards, a departure, the end. The host's log of them is public (every
// message in it was relayed to every node; a move names its cards by
// handle) and it is all a new host needs: replayed, it is the same host,
// so a failover relays nothing hidden.
type Input struct {
	What   InputKind
	From   int              // InputMsg: the sender's party
	Msg    protocol.Message // InputMsg
	At     time.Duration    // InputMove, InputTick
	Cmd    engine.BlindCommand
	Quads  *protocol.DeckOpen
	Seat   int             // InputPick
	Picked []engine.Handle // InputPick
	Gone   int             // InputLeave
	To     int             // InputLeave: the successor
}

// InputKind says which of the host's methods an Input went to.
type InputKind uint8

const (
	InputMsg    InputKind = iota + 1 // Take
	InputMove                        // Apply
	InputTick                        // Tick
	InputPick                        // Pick
	InputLeave                       // Leave
	InputFinish                      // Finish
	InputEnd                         // End
)

func (h *Host) logged(in Input) { h.log = append(h.log, in) }

// Log is every input the host took so far, in order.
func (h *Host) Log() []Input { return slices.Clone(h.log) }

// Replay is a new host for table t from another's log: it takes every
// input again, and so holds the same record, game and asks. An input that
// doesn't replay as it went is refused: the log isn't the table's.
func Replay(t *Table, log []Input) (*Host, error) {
	h, err := NewHost(t)
	if err != nil {
		return nil, err
	}
	for i, in := range log {
		if _, err := h.Input(in); err != nil {
			return nil, fmt.Errorf("mentaltable: the host's log doesn't replay at input %d of %d: %w", i+1, len(log), err)
		}
	}
	return h, nil
}

// Input takes one input of another host's log, as that host took it.
func (h *Host) Input(in Input) (Out, error) {
	var out Out
	var err error
	switch in.What {
	case InputMsg:
		out, err = h.Take(in.From, in.Msg)
	case InputMove:
		out, err = h.Apply(in.At, in.Cmd, in.Quads)
	case InputTick:
		out = h.Tick(in.At)
	case InputPick:
		out, err = h.Pick(in.Seat, in.Picked)
	case InputLeave:
		out = h.Leave(in.Gone, in.To)
	case InputFinish:
		out, err = h.Finish()
	case InputEnd:
		out = h.End()
	default:
		err = fmt.Errorf("mentaltable: an input of kind %d", in.What)
	}
	return out, err
}
