package bot

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/enginetest"
)

// A hosted table (and a screen, and a headless player) asks a seat to
// decide once per situation and again only when the situation changes. So
// whenever a seat must move, its situation must differ from the one it last
// moved in, or the table waits for ever. This plays bot games of every
// preset and of random rules and checks that at every move (found first by
// a hosted I Doubt It game that hung after a borne-out belief: the believer
// starts the next round with the play number, turn, skips and hand it had
// when it believed).
func TestSituationChangesBeforeASeatMovesAgain(t *testing.T) {
	games := 400
	if testing.Short() {
		games = 80
	}
	rng := rand.New(rand.NewPCG(11, 13))
	names := []string{"easy", "medium", "hard"}
	kinds := enginetest.Kinds
	played := map[string]int{}
	for i := 0; i < games; i++ {
		kind := kinds[i%len(kinds)]
		seats := 2 + rng.IntN(7)
		r, ok := enginetest.Rules(kind, rng)
		if !ok {
			continue
		}
		if r.Check(seats) != nil {
			continue
		}
		seed := rng.Uint64()
		g, ev, err := engine.New(engine.Config{Rules: r, Seats: seats, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		bots := make([]Player, seats)
		for s := range bots {
			if bots[s], err = New(names[(i+s)%len(names)], s, seed+uint64(s)); err != nil {
				t.Fatal(err)
			}
		}
		deliver := func(ev []engine.Event) {
			for k := range ev {
				for s, b := range bots {
					if ev[k].VisibleTo(s) {
						b.Observe(&ev[k])
					}
				}
			}
		}
		deliver(ev)
		moved := make([]string, seats)
		now := time.Duration(0)
		var v engine.View
		for steps := 0; !g.Over() && steps < 20000; steps++ {
			now += 100 * time.Millisecond
			if d, ok := g.Deadline(); ok && d <= now {
				deliver(g.Tick(now))
				continue
			}
			acted := false
			for s, b := range bots {
				g.ViewInto(s, &v)
				c, _, ok := b.Act(&v)
				if !ok {
					continue
				}
				key := v.Situation()
				must := (v.Phase == engine.PhasePlay && v.Turn == s) || (v.Phase == engine.PhaseGive && v.Give != nil && v.Give.From == s)
				if must && key == moved[s] {
					t.Fatalf("game %d (%s, %d seats, seed %d): seat %d must move again in situation %s, the one it last moved in; a hosted table would wait for ever", i, kind, seats, seed, s, key)
				}
				ev, err := g.Apply(now, c)
				if err != nil {
					continue
				}
				moved[s] = key
				deliver(ev)
				acted = true
				break
			}
			if !acted {
				if d, ok := g.Deadline(); ok {
					now = d
					deliver(g.Tick(now))
				}
			}
		}
		if !g.Over() {
			t.Fatalf("game %d (%s, %d seats, seed %d) did not end", i, kind, seats, seed)
		}
		played[kind]++
	}
	for _, k := range kinds {
		if played[k] == 0 {
			t.Fatalf("no %s game was played", k)
		}
	}
	t.Logf("games played to the end: %v", played)
}
