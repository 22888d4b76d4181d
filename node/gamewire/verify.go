package gamewire

import (
	"fmt"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/protocol"
)

// Verify checks a finished game as one seat saw it: the revealed seed
// (cfg.Seed, the host's) and salt against the commitment the host
// published before the deal, the toss (every mixed nonce against its
// commitment, this seat's own nonce used), then the whole game, dealt from
// DealSeed, with engine.Audit against received, the events the seat was
// sent in order (seat -1: a spectator). It returns what did not match, nil
// when the game verifies, and notes that are no fault of the host's.
func Verify(commitment [32]byte, salt [SaltSize]byte, cfg engine.Config, toss Toss, steps []engine.Step, seat int, received []engine.Event) (problems, notes []string) {
	if !CheckCommit(commitment, cfg.Seed, salt) {
		problems = append(problems, ErrCommitMismatch.Error()+": the deal is not the one promised.")
	}
	p, notes := checkToss(commitment, cfg.Seats, seat, toss)
	problems = append(problems, p...)
	cfg.Seed = DealSeed(cfg.Seed, salt, toss.Nonces)
	for _, s := range steps {
		if s.Cmd != nil && s.Cmd.Move == engine.MoveForfeit {
			// R10b: only a blind table's game has these (a clear table's
			// audit refuses them: record.Forfeits).
			notes = append(notes, fmt.Sprintf("play %d went against seat %d: its node turned it up falsely.", s.Cmd.No, s.Cmd.Seat+1))
		}
	}
	return append(problems, engine.Audit(cfg, steps, seat, received)...), notes
}

// EngSteps is a journal's or a reveal's steps as the engine's.
func EngSteps(ws []protocol.Step) []engine.Step {
	out := make([]engine.Step, len(ws))
	for i, w := range ws {
		out[i].At = time.Duration(w.AtNS)
		if !w.Tick {
			out[i].Cmd = &engine.Command{Move: engine.Move(w.Move), Seat: w.Seat, Cards: EngCards(w.Cards),
				Claim: w.Claim, Rank: engine.Rank(w.Rank), No: w.No}
		}
	}
	return out
}

// Played is how far the revealed game goes: its plays, and whether it
// reached its end. A game the host ended early replays to a game not over;
// the audit is then of the plays so far. It is read from the replay, not
// from the host's word. A log that doesn't replay counts its plays up to
// the step that breaks it.
func Played(cfg engine.Config, salt [SaltSize]byte, nonces [][NonceSize]byte, steps []engine.Step) (plays int, over bool) {
	cfg.Seed = DealSeed(cfg.Seed, salt, nonces)
	g, _, err := engine.Replay(cfg, steps)
	if g == nil {
		return 0, false
	}
	return g.Plays(), err == nil && g.Over()
}

// Summary is an audit's result in a line: "deal verified", "ended early
// after 12 plays; deal verified", or the first thing that didn't match.
func Summary(verified, early bool, plays int, problems []string) string {
	s := "deal verified"
	if !verified {
		s = "the deal did NOT verify"
		if len(problems) > 0 {
			s += ": " + problems[0]
		}
	}
	if early {
		s = fmt.Sprintf("ended early after %d plays; %s", plays, s)
	}
	return s
}
