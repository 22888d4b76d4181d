package sim_test

import (
	"testing"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/bench"
)

func benchGames(b *testing.B, preset, level string, seats int) {
	r, ok := engine.Preset(preset)
	if !ok {
		b.Fatal(preset)
	}
	bench.Sim(b, r, seats, level)
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
