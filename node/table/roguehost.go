//go:build roguehost

package table

// A dishonest host, for the end-to-end tests of issue 21 only: built with
// the tag roguehost (cmd/bullshit's tests build such a binary beside the
// real one), never in the game. BS_ROGUE_HOST chooses how it cheats at the
// deal:
//
//   - grind: it never asks the players for their nonces, and tries seeds
//     until its own hand holds all four aces and all four kings, then deals
//     that hand from that seed alone.
//   - toolate: it asks for the players' commitments, then calls every one
//     of them too late and deals from its own seed alone.

import (
	"encoding/binary"
	"fmt"
	"os"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
)

// RogueHostEnv chooses the rogue host's cheat.
const RogueHostEnv = "BS_ROGUE_HOST"

func init() {
	switch os.Getenv(RogueHostEnv) {
	case "grind":
		rogueDeal = grindDeal
	case "toolate":
		rogueDeal = tooLateDeal
	}
}

// grindDeal deals the host the four aces and the four kings.
func grindDeal(t *Table, seed uint64, salt [gamewire.SaltSize]byte) bool {
	mine := -1
	for i, s := range t.Seats {
		if s.Owner == "local" {
			mine = i
		}
	}
	if mine < 0 {
		return false
	}
	best, most := seed, -1
	for try := range uint64(5_000_000) {
		s := binary.LittleEndian.Uint64(salt[:8]) ^ try*0x9e3779b97f4a7c15
		g, _, err := engine.New(engine.Config{Rules: t.Set.Rules, Seats: t.Set.Seats, Seed: s})
		if err != nil {
			return false
		}
		n := 0
		for _, c := range g.View(mine).Hand {
			if r := c.Rank(); c != engine.Joker && (r == 0 || r == 12) {
				n++
			}
		}
		if n > most {
			best, most = s, n
		}
		if n >= 8 {
			break
		}
	}
	t.Seed, t.commits = best, nil
	fmt.Fprintf(os.Stderr, "rogue host: dealt itself %d of the four aces and four kings (seed %d)\n", most, best)
	if err := t.dealFrom(best, salt, nil); err != nil {
		t.notice = "The deal failed: " + err.Error()
	}
	return true
}

// tooLateDeal asks for the players' commitments, and takes none.
func tooLateDeal(t *Table, seed uint64, salt [gamewire.SaltSize]byte) bool {
	if t.startToss(seed, salt, TossTries) {
		t.toss.asked = map[int]bool{} // every commitment is "too late"
		return true
	}
	return false
}
