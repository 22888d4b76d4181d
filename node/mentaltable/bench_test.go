package mentaltable

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/protocol"
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

// BenchmarkDeal is the set-up and the deal of a blind table (keys,
// recovery split, a shuffle by each party, every party's shares, each
// hand learned, V10's first card) as each role bears it: node-ms is the
// busiest party node's own work (its key, split, shuffle and deal, and its
// checks of everyone's), host-ms the host's checks; standard rules, one
// process, one role at a time.
func BenchmarkDeal(b *testing.B) {
	for _, seats := range []int{4, 10} {
		b.Run(fmt.Sprintf("%d seats", seats), func(b *testing.B) {
			r, _ := engine.Preset("standard")
			start := time.Now()
			var node, host time.Duration
			for b.Loop() {
				d := newDriver(b, r, seats, uint64(seats), nil)
				d.Clock = func() time.Duration { return time.Since(start) }
				if err := d.Shuffle(); err != nil {
					b.Fatal(err)
				}
				node += slices.Max(d.Cost)
				host += d.HostCost
			}
			b.ReportMetric(float64(node.Microseconds())/1e3/float64(b.N), "node-ms")
			b.ReportMetric(float64(host.Microseconds())/1e3/float64(b.N), "host-ms")
		})
	}
}

// BenchmarkOpenLeg is the leg a call adds at a blind table, without the
// wire: the player's node turns a play of two cards up (its proofs were
// made at the deal: the opening only gathers them) and the host checks
// it (every share's proof, in one batch).
func BenchmarkOpenLeg(b *testing.B) {
	for _, seats := range []int{4, 10} {
		b.Run(fmt.Sprintf("%d seats", seats), func(b *testing.B) {
			r, _ := engine.Preset("standard")
			d := newDriver(b, r, seats, uint64(seats), nil)
			if err := d.Shuffle(); err != nil {
				b.Fatal(err)
			}
			p := d.Parties[1]
			hs := d.B.Hand(1)[:2]
			for b.Loop() {
				o, err := p.open(hs)
				if err != nil {
					b.Fatal(err)
				}
				m, err := d.send(o) // through the protocol's encoding
				if err != nil {
					b.Fatal(err)
				}
				sent := m.(protocol.DeckOpen)
				if _, err := checkOpen(d.T, &sent, hs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCheckOpening is one check of a 2-card opening, by a node (every
// share proved) and by the host (only the card's holder's: it proved the
// rest at the deal, record.checkOpen).
func BenchmarkCheckOpening(b *testing.B) {
	for _, seats := range []int{4, 10} {
		r, _ := engine.Preset("standard")
		d := newDriver(b, r, seats, uint64(seats), nil)
		if err := d.Shuffle(); err != nil {
			b.Fatal(err)
		}
		hs := d.B.Hand(1)[:2]
		o, err := d.Parties[1].open(hs)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("node/%d seats", seats), func(b *testing.B) {
			for b.Loop() {
				if _, err := checkOpen(d.T, &o, hs); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("host/%d seats", seats), func(b *testing.B) {
			for b.Loop() {
				if _, err := d.H.rec.checkOpen(&o, hs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
