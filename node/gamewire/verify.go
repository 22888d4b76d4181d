package gamewire

import (
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
	return append(problems, engine.Audit(cfg, steps, seat, received)...), notes
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
