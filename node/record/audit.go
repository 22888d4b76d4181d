package record

import (
	"fmt"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/protocol"
)

// Reveal gathers the host's reveal of a game, part by part.
type Reveal struct {
	parts []protocol.Audit
}

// Revealed is a whole reveal: the host's seed and salt, and every step.
type Revealed struct {
	Seed  uint64
	Salt  []byte // as sent: the audit checks its size
	Steps []engine.Step
}

// Part takes one part of the host's reveal, and returns the whole of it
// once the last part is in. A part out of order starts the gathering
// again.
func (r *Record) Part(m protocol.Audit) (Revealed, bool) {
	g := &r.reveal
	if m.Parts < 1 || m.Part != len(g.parts) || m.Parts > 1000 {
		g.parts = nil
		return Revealed{}, false
	}
	g.parts = append(g.parts, m)
	if len(g.parts) < m.Parts {
		return Revealed{}, false
	}
	var steps []engine.Step
	for _, p := range g.parts {
		steps = append(steps, gamewire.EngSteps(p.Steps)...)
	}
	g.parts = nil
	return Revealed{Seed: m.Seed, Salt: m.Salt, Steps: steps}, true
}

// Check is what the audit of a revealed game reads besides the record.
type Check struct {
	Commit [32]byte // the deal's commitment, as the lobby named it
	Rules  engine.Rules
	Seats  int
	Seat   int // this seat, -1 for a spectator or the host's own screen
	// Toss is this seat's part in the deal's toss, with the nonces the
	// host says it mixed and the seats whose nonce it must mix (Players).
	Toss gamewire.Toss
	// Rerun: the host asked for a new nonce after this seat had revealed
	// one (Toss.Answer).
	Rerun   bool
	Journal *gamewire.Journal // the hosts' chain as far as it verified
	Names   []string          // the seats' names, for the notes on marks
}

// Result is the audit of a game as one seat made it.
type Result struct {
	Verified bool
	Problems []string                // what doesn't match: each fails the audit
	Notes    []string                // no fault of the host's: a nonce that came too late
	Early    bool                    // the revealed game stops before its end: the host ended it early
	Plays    int                     // the revealed game's plays
	Salt     [gamewire.SaltSize]byte // the host's revealed salt, for a saved game (zero when of the wrong size)
}

// Audit checks a revealed game against this record: the commitment, the
// replay against every event this seat was shown, the toss, the hosts'
// chain, and the backlogs.
func (r *Record) Audit(g Revealed, c Check) Result {
	if len(g.Salt) != gamewire.SaltSize {
		return Result{Problems: []string{BadSalt}}
	}
	res := Result{}
	copy(res.Salt[:], g.Salt)
	cfg := engine.Config{Rules: c.Rules, Seats: c.Seats, Seed: g.Seed}
	plays, over := gamewire.Played(cfg, res.Salt, c.Toss.Nonces, g.Steps)
	res.Plays, res.Early = plays, !over
	problems, notes := gamewire.Verify(c.Commit, res.Salt, cfg, c.Toss, g.Steps, c.Seat, r.Got)
	if r.Rewrote != "" {
		problems = append([]string{r.Rewrote}, problems...)
	}
	if c.Rerun {
		problems = append(problems, Rerun)
	}
	problems = append(problems, Forfeits(g.Steps)...)
	res.Notes = notes
	if j := c.Journal; j != nil {
		problems = append(append([]string(nil), j.Doubt...), problems...)
		if n := j.RollNote(); n != "" {
			res.Notes = append(res.Notes, n)
		}
		res.Notes = append(res.Notes, gamewire.MarkNotes(j.Steps, c.Names, c.Seat)...)
	}
	res.Problems = problems
	res.Verified = len(problems) == 0
	return res
}

// Forfeits are the audit's words on a clear table's revealed game that
// forfeits a play (R10b): only a blind table's record of a false opening
// may, where a node turns its play up; at a clear table the cards decide,
// and a host that says otherwise gave a verdict the cards don't.
func Forfeits(steps []engine.Step) []string {
	var out []string
	for _, s := range steps {
		if s.Cmd != nil && s.Cmd.Move == engine.MoveForfeit {
			out = append(out, fmt.Sprintf("the host judged play %d against seat %d, as if its node had turned it up falsely: at a table dealt in the clear the cards decide.", s.Cmd.No, s.Cmd.Seat+1))
		}
	}
	return out
}

// Summary is the audit in a line: "deal verified", "ended early after 12
// plays; deal verified", or the first thing that didn't match.
func (res Result) Summary() string {
	return gamewire.Summary(res.Verified, res.Early, res.Plays, res.Problems)
}
