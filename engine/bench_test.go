package engine_test

import (
	"testing"

	"github.com/bullshit-game/bullshit/engine/bench"
)

// Speed is measured here and reported, never asserted (STYLE.md). The
// bodies live in engine/bench, which `bullshit bench` runs too; their goals
// are written there.

func BenchmarkPlay(b *testing.B) { bench.Play(b) }
func BenchmarkCall(b *testing.B) { bench.Call(b) }

func BenchmarkView(b *testing.B) {
	b.Run("View", func(b *testing.B) { bench.View(b) })
	b.Run("ViewInto", func(b *testing.B) { bench.ViewInto(b) })
}

func BenchmarkGame(b *testing.B) { bench.Game(b) }
