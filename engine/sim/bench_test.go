package sim

import (
	"testing"

	"github.com/bullshit-game/bullshit/engine"
)

func benchGames(b *testing.B, preset, level string, seats int) {
	r, ok := engine.Preset(preset)
	if !ok {
		b.Fatal(preset)
	}
	p := Plan{Rules: r, Seats: seats, Bots: []string{level}, Seed: 1}
	var run Runner
	rep := p.Report()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if err := p.Run(&run, rep, i, i+1); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rep.Plays)/float64(rep.Games), "plays/game")
	b.ReportMetric(float64(rep.Games)/b.Elapsed().Seconds(), "games/s")
}

func BenchmarkGameEasy4(b *testing.B)   { benchGames(b, "standard", "easy", 4) }
func BenchmarkGameMedium4(b *testing.B) { benchGames(b, "standard", "medium", 4) }
func BenchmarkGameHard4(b *testing.B)   { benchGames(b, "standard", "hard", 4) }

// Every preset at four seats, medium and hard.
func BenchmarkPreset(b *testing.B) {
	for _, preset := range engine.Presets {
		for _, level := range []string{"medium", "hard"} {
			b.Run(preset+"/"+level, func(b *testing.B) { benchGames(b, preset, level, 4) })
		}
	}
}
