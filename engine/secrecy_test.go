package engine_test

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/bullshit-game/bullshit/engine"
)

// secret checks R16 for seat keep: re-dealing everything keep can't see
// leaves its view exactly as it was. It reports whether the scramble moved
// anything, and whether some other seat's view did change (the control:
// the test can see a difference when there is one).
func secret(t *testing.T, g *engine.Game, keep int, rng *rand.Rand, where string) (moved, control bool) {
	t.Helper()
	before := g.View(keep)
	jb, _ := json.Marshal(before)
	others := make([]engine.View, g.Seats())
	for s := range others {
		others[s] = g.View(s)
	}
	c := g.Clone()
	moved = c.Scramble(keep, rng)
	if !c.Conserved() {
		t.Fatalf("%s: the scramble lost cards", where)
	}
	after := c.View(keep)
	if !reflect.DeepEqual(before, after) {
		t.Fatalf("%s: seat %d's view changed when hidden cards moved:\n%+v\n%+v", where, keep, before, after)
	}
	if ja, _ := json.Marshal(after); string(ja) != string(jb) {
		t.Fatalf("%s: seat %d's view JSON changed:\n%s\n%s", where, keep, jb, ja)
	}
	for s := range others {
		if s != keep && !reflect.DeepEqual(others[s], c.View(s)) {
			control = true
		}
	}
	return moved, control
}

func TestR16_Secrecy(t *testing.T) {
	// Scripted states: every seat, many scrambles each.
	states := []struct {
		name  string
		setup func(t testing.TB) *engine.Game
		lines []string
	}{
		// A face-down play in its window, and after it stood.
		{"window", std3, []string{"0 play AS KD"}},
		{"stood", std3, []string{"0 play AS KD", "tick 6", "1 play 2C"}},
		// Cards turned up stay as they were; the rest of the pile is hidden.
		{"called", std3, []string{"0 play AS", "tick 6", "1 play 7D", "2 call 2"}},
		// A sneak in its window, under rough counts: its size is secret too.
		{"sneak", twist3, []string{"0 play AS AC 2D claim=2"}},
		{"hand-over", twist3, []string{"0 play AS AC 2D claim=2", "1 call 1"}},
		// I Doubt It mid-round, and after cards left face down and face up.
		{"doubt round", doubt3, []string{"0 play AS rank=A", "1 play 2C"}},
		{"doubt skipped", doubt3, []string{"0 play AS rank=A", "1 skip", "2 skip"}},
		{"doubt believed", doubt3, []string{"0 play AS AC rank=A", "1 believe"}},
	}
	rng := rand.New(rand.NewPCG(16, 16))
	for _, st := range states {
		t.Run(st.name, func(t *testing.T) {
			g := run(t, st.setup(t), st.lines...).g
			moved, control := 0, false
			for keep := -1; keep < g.Seats(); keep++ {
				for k := 0; k < 30; k++ {
					m, c := secret(t, g, keep, rng, st.name)
					if m {
						moved++
					}
					control = control || c
				}
			}
			if moved == 0 || !control {
				t.Errorf("the scramble moved %d times, control %v: the test saw nothing", moved, control)
			}
		})
	}

	// Random mid-game states of seeded random games, every kind of table.
	games := 3000
	if testing.Short() {
		games /= 10
	}
	checked, moved, controls := 0, 0, 0
	sneaks := engine.SneakMoves
	grng := rand.New(rand.NewPCG(1616, 1))
	for i, played := 0, 0; played < games; i++ {
		cfg, kind, ok := randomGame(t, i, grng)
		if !ok {
			continue
		}
		played++
		g, _, err := engine.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		d := &driver{rng: rand.New(rand.NewPCG(cfg.Seed, 16)), g: g, junk: 50}
		for step := 0; step < maxSteps && !g.Over(); step++ {
			apply(g, d.next())
			if d.rng.IntN(25) == 0 {
				keep := d.rng.IntN(g.Seats()+1) - 1
				m, c := secret(t, g, keep, d.rng, kind)
				checked++
				if m {
					moved++
				}
				if c {
					controls++
				}
			}
		}
	}
	t.Logf("%d views checked in %d random games: %d scrambles moved hidden cards, %d changed another seat's view, %d changed a sneak's size",
		checked, games, moved, controls, engine.SneakMoves-sneaks)
	if moved < checked/2 || controls < checked/2 || engine.SneakMoves == sneaks {
		t.Errorf("the scrambles were mostly empty")
	}
}
