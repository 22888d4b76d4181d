package bench

import (
	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/sim"
)

// Sim: the simulator's games under rules at seats, every seat a bot of
// level, one game an iteration on one Runner. It reports plays/game and
// games/s (wall time, on the clock).
func Sim(b B, rules engine.Rules, seats int, level string) {
	p := sim.Plan{Rules: rules, Seats: seats, Bots: []string{level}, Seed: 1}
	var run sim.Runner
	rep := p.Report()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if err := p.Run(&run, rep, i, i+1); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rep.Plays)/float64(rep.Games), "plays/game")
	b.ReportMetric(float64(rep.Games)/b.Elapsed().Seconds(), "games/s")
}
