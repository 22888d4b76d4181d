package bench

// The engine's bodies. Goals (issue 5): a play or a call under 2 µs with a
// few allocations at most, a whole random 4-seat game under 100 µs.

import (
	"math/rand/v2"
	"slices"
	"time"

	"github.com/bullshit-game/bullshit/engine"
)

// deal is a standard 4-seat deal, seat 0 first, every hand 13 cards.
func deal(b B) *engine.Game {
	b.Helper()
	first := 0
	g, _, err := engine.New(engine.Config{Rules: engine.Standard(), Seats: 4, Seed: 1, First: &first})
	if err != nil {
		b.Fatal(err)
	}
	return g
}

// opened is deal with seat 0's first two cards played at 0 and the call
// window open.
func opened(b B) *engine.Game {
	b.Helper()
	g := deal(b)
	if _, err := g.Play(0, 0, hand(g, 0)[:2], 0, engine.NoRank); err != nil {
		b.Fatal(err)
	}
	return g
}

func hand(g *engine.Game, seat int) []engine.Card { return slices.Clone(g.View(seat).Hand) }

// batch runs op on fresh clones of base, one an iteration; the cloning,
// 64 at a time, is off the clock.
func batch(b B, base *engine.Game, op func(g *engine.Game) error) {
	b.Helper()
	const size = 64
	games := make([]*engine.Game, size)
	next := size
	b.ReportAllocs()
	for b.Loop() {
		if next == size {
			b.StopTimer()
			for j := range games {
				games[j] = base.Clone()
			}
			next = 0
			b.StartTimer()
		}
		if err := op(games[next]); err != nil {
			b.Fatal(err)
		}
		next++
	}
}

// Play: seat 1's play after seat 0's stood, a play in the middle of a game.
func Play(b B) {
	base := opened(b)
	base.Tick(6 * time.Second)
	cards := hand(base, 1)[:2]
	batch(b, base, func(g *engine.Game) error {
		_, err := g.Play(7*time.Second, 1, cards, 0, engine.NoRank)
		return err
	})
}

// Call: seat 2 calls seat 0's opening play.
func Call(b B) {
	batch(b, opened(b), func(g *engine.Game) error {
		_, err := g.Call(time.Second, 2, 1)
		return err
	})
}

// View: a fresh view, as a screen or the referee takes it.
func View(b B) {
	g := opened(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = g.View(1)
	}
}

// ViewInto: a view refilled in place, as bots and the simulator take it.
func ViewInto(b B) {
	g := opened(b)
	var v engine.View
	b.ReportAllocs()
	for b.Loop() {
		g.ViewInto(1, &v)
	}
}

// Game: whole random 4-seat standard games, one an iteration; it reports
// plays/game.
func Game(b B) {
	rng := rand.New(rand.NewPCG(1, 2))
	var v engine.View
	buf := make([]engine.Card, 0, 8)
	plays, seed := 0, uint64(0)
	b.ReportAllocs()
	for b.Loop() {
		seed++
		plays += randomGame(b, seed, rng, &v, buf)
	}
	b.ReportMetric(float64(plays)/float64(seed), "plays/game")
}

// randomGame plays one whole random 4-seat standard game: each seat plays
// its cards of the rank (else one card at random), and a play is called one
// time in five, else its window runs out. It returns the number of plays.
func randomGame(b B, seed uint64, rng *rand.Rand, v *engine.View, buf []engine.Card) int {
	g, _, err := engine.New(engine.Config{Rules: engine.Standard(), Seats: 4, Seed: seed})
	if err != nil {
		b.Fatal(err)
	}
	var now time.Duration
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
				if _, err := g.Call(now, (g.Turn()+rng.IntN(3))%4, g.Plays()); err != nil {
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
