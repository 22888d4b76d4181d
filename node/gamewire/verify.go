package gamewire

import (
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/protocol"
)

// Verify checks a finished game as one seat saw it: the revealed seed and
// salt against the commitment the host published before the deal, then
// the whole game with engine.Audit against received, the events the seat
// was sent in order (seat -1: a spectator). It returns what did not match,
// nil when the game verifies.
func Verify(commitment [32]byte, salt [SaltSize]byte, cfg engine.Config, steps []engine.Step, seat int, received []engine.Event) []string {
	var out []string
	if !CheckCommit(commitment, cfg.Seed, salt) {
		out = append(out, ErrCommitMismatch.Error()+": the deal is not the one promised.")
	}
	return append(out, engine.Audit(cfg, steps, seat, received)...)
}

// EngSteps is a journal's or a reveal's steps as the engine's.
func EngSteps(ws []protocol.Step) []engine.Step {
	out := make([]engine.Step, len(ws))
	for i, w := range ws {
		out[i].At = time.Duration(w.At)
		if !w.Tick {
			out[i].Cmd = &engine.Command{Move: engine.Move(w.Move), Seat: w.Seat, Cards: EngCards(w.Cards),
				Claim: w.Claim, Rank: engine.Rank(w.Rank), No: w.No}
		}
	}
	return out
}
