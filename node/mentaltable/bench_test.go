package mentaltable

import (
	"fmt"
	"testing"

	"github.com/bullshit-game/bullshit/engine"
)

// BenchmarkMentalGame is a whole game of the standard rules at a mental
// table in one process: keys and proofs, the recovery split, a shuffle by
// each party, the deal, every play, opening and handover, and the end
// (every secret published, every shuffle and card checked, the reveal and
// every seat's audit). The same seeded game each time. cpu-ms/party is
// the process's CPU per game divided by the parties: every party's work,
// the host's and the spectator's checks, the engine and the bots, shared
// out (a node does its own part and the others' checks of what it
// receives, so this is close to one node's share).
func BenchmarkMentalGame(b *testing.B) {
	for _, c := range []struct {
		seats int
		seed  uint64
	}{{4, 4}, {10, 10}} {
		b.Run(fmt.Sprintf("%d seats", c.seats), func(b *testing.B) {
			r, _ := engine.Preset("standard")
			actions := 0
			stop := cpuClock(b, c.seats)
			for b.Loop() {
				d := newDriver(b, r, c.seats, c.seed, nil)
				if err := run(d); err != nil {
					b.Fatal(err)
				}
				actions = d.Actions()
			}
			stop()
			b.ReportMetric(float64(actions), "actions")
		})
	}
}
