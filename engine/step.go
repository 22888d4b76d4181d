package engine

import (
	"fmt"
	"time"
)

// A Step is one accepted command with its time, or a tick (Cmd nil): the
// game's journal line. Replaying a game's steps from its Config gives the
// same game, event for event.
type Step struct {
	At  time.Duration `json:"at" msgpack:"at"`
	Cmd *Command      `json:"cmd,omitempty" msgpack:"cmd,omitempty"`
}

// Replay plays steps on a new game from cfg and returns it with every
// step's events (the deal's first). A step the engine refuses is an error:
// a journal holds accepted commands only.
func Replay(cfg Config, steps []Step) (*Game, [][]Event, error) {
	g, deal, err := New(cfg)
	if err != nil {
		return nil, nil, err
	}
	out := make([][]Event, 0, len(steps)+1)
	out = append(out, deal)
	for i, s := range steps {
		ev := g.Tick(s.At)
		if s.Cmd != nil {
			more, err := g.Apply(s.At, *s.Cmd)
			if err != nil {
				return g, out, &ReplayError{Step: i, Err: err}
			}
			ev = append(ev, more...)
		}
		out = append(out, ev)
	}
	return g, out, nil
}

// ReplayError is a journal step the engine refused.
type ReplayError struct {
	Step int
	Err  error
}

func (e *ReplayError) Error() string {
	return fmt.Sprintf("step %d was refused: ", e.Step) + e.Err.Error()
}
