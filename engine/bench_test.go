package engine_test

import (
	"math/rand/v2"
	"testing"

	"github.com/bullshit-game/bullshit/engine"
)

// Speed is measured here and reported, never asserted (STYLE.md). Goals:
// a play or a call under 2 µs with a few allocations at most, a whole
// random 4-seat game under 100 µs.

// batch runs op on fresh clones of base, b.N times; the cloning is off the clock.
func batch(b *testing.B, base *engine.Game, op func(g *engine.Game) error) {
	b.Helper()
	const size = 64
	games := make([]*engine.Game, size)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i += size {
		b.StopTimer()
		for j := range games {
			games[j] = base.Clone()
		}
		b.StartTimer()
		for j := 0; j < size && i+j < b.N; j++ {
			if err := op(games[j]); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// benchTable is a standard 4-seat deal, seat 0 first, every hand 13 cards.
func benchTable(b *testing.B) *engine.Game {
	g, _, err := engine.New(engine.Config{Rules: engine.Standard(), Seats: 4, Seed: 1, First: ptr(0)})
	if err != nil {
		b.Fatal(err)
	}
	return g
}

func BenchmarkPlay(b *testing.B) {
	// Seat 1's play after seat 0's stood: a play in the middle of a game.
	base := benchTable(b)
	h := base.Hand(0)
	base.Play(0, 0, []engine.Card{h[0], h[1]}, 0, engine.NoRank)
	base.Tick(sec(6))
	h = base.Hand(1)
	play := []engine.Card{h[0], h[1]}
	batch(b, base, func(g *engine.Game) error {
		_, err := g.Play(sec(7), 1, play, 0, engine.NoRank)
		return err
	})
}

func BenchmarkCall(b *testing.B) {
	base := benchTable(b)
	h := base.Hand(0)
	if _, err := base.Play(0, 0, []engine.Card{h[0], h[1]}, 0, engine.NoRank); err != nil {
		b.Fatal(err)
	}
	batch(b, base, func(g *engine.Game) error {
		_, err := g.Call(sec(1), 2, 1)
		return err
	})
}

func BenchmarkView(b *testing.B) {
	base := benchTable(b)
	h := base.Hand(0)
	base.Play(0, 0, []engine.Card{h[0], h[1]}, 0, engine.NoRank)
	// View: a fresh view, as a screen or the referee takes it.
	b.Run("View", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = base.View(1)
		}
	})
	// ViewInto: a view refilled in place, as bots and the simulator take it.
	b.Run("ViewInto", func(b *testing.B) {
		var v engine.View
		b.ReportAllocs()
		for b.Loop() {
			base.ViewInto(1, &v)
		}
	})
}

// benchGame plays one whole random 4-seat standard game: each seat plays
// its cards of the rank (else one card at random), and a play is called one
// time in five, else its window runs out. It returns the number of plays.
func benchGame(b *testing.B, seed uint64, rng *rand.Rand, v *engine.View, buf []engine.Card) int {
	g, _, err := engine.New(engine.Config{Rules: engine.Standard(), Seats: 4, Seed: seed})
	if err != nil {
		b.Fatal(err)
	}
	now := sec(0)
	for !g.Over() {
		switch g.Phase() {
		case engine.PhasePlay:
			s := g.Turn()
			g.ViewInto(s, v)
			buf = buf[:0]
			for _, c := range v.Hand {
				if c.Rank() == v.Rank && len(buf) < 4 {
					buf = append(buf, c)
				}
			}
			if len(buf) == 0 {
				buf = append(buf, v.Hand[rng.IntN(len(v.Hand))])
			}
			if _, err := g.Play(now, s, buf, 0, engine.NoRank); err != nil {
				b.Fatal(err)
			}
		case engine.PhaseCall:
			if rng.IntN(5) == 0 {
				caller := (g.Turn() + rng.IntN(3)) % 4
				if _, err := g.Call(now, caller, g.Plays()); err != nil {
					b.Fatal(err)
				}
				continue
			}
			now, _ = g.Deadline()
			g.Tick(now)
		}
	}
	return g.Plays()
}

func BenchmarkGame(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	var v engine.View
	buf := make([]engine.Card, 0, 8)
	plays := 0
	b.ReportAllocs()
	seed := uint64(0)
	for b.Loop() {
		seed++
		plays += benchGame(b, seed, rng, &v, buf)
	}
	b.ReportMetric(float64(plays)/float64(b.N), "plays/game")
}
