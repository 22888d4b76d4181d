package sim

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/bot"
)

// levels mixes every level and style at a table.
var levels = []string{"easy", "medium", "hard", "cautious", "bold", "caller", "honest", "careful", "sometimes", "always", "hard/bold", "easy/always", "hard/careful"}

// randomRules switches variants on at random, as a table might.
func randomRules(rng *rand.Rand, seats int) engine.Rules {
	name := engine.Presets[rng.IntN(len(engine.Presets))]
	if name == "twist" && seats < 3 {
		name = "standard"
	}
	r, _ := engine.Preset(name)
	if rng.IntN(2) == 0 {
		return r
	}
	set := func(k string, v any) {
		saved := r
		if err := r.Set(k, v); err != nil || r.Check(seats) != nil {
			r = saved
		}
	}
	seqs := []string{"up", "down", "free", "near", "near-strict"}
	set("sequence", seqs[rng.IntN(len(seqs))])
	if rng.IntN(3) == 0 {
		set("start", engine.Rank(rng.IntN(13)).String())
	}
	if rng.IntN(4) == 0 {
		set("cap", float64(1+rng.IntN(32)))
	}
	if rng.IntN(3) == 0 {
		set("direction", "ccw")
	}
	if rng.IntN(4) == 0 {
		set("jokers", 2.0)
	}
	for _, k := range []string{"places", "quads", "count_lies", "rapid"} {
		if rng.IntN(3) == 0 {
			set(k, true)
		}
	}
	if rng.IntN(4) == 0 {
		set("first", "random")
	}
	if rng.IntN(4) == 0 {
		set("callers", "next")
	}
	if !r.Doubt && rng.IntN(3) == 0 {
		set("sneak", float64(rng.IntN(4)))
		if rng.IntN(2) == 0 {
			set("counts", "rough")
		}
	}
	if rng.IntN(5) == 0 {
		set("decks", float64(1+rng.IntN(3)))
	}
	return r
}

// Bots never make an illegal move, whatever the rules and the seats, and no
// game hits the 500-play net.
func TestBotsLegal(t *testing.T) {
	games := 10000
	if testing.Short() {
		games = 1500
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var run Runner
	net, mixNet, mixed, played := 0, 0, 0, map[string]int{}
	for i := range games {
		seats := 2 + i%9
		var r engine.Rules
		mix := i%3 == 0
		if mix {
			r = randomRules(rng, seats)
			mixed++
		} else {
			name := engine.Presets[(i/9)%len(engine.Presets)]
			if name == "twist" && seats < 3 {
				name = "standard"
			}
			r, _ = engine.Preset(name)
		}
		bots := make([]string, seats)
		for s := range bots {
			bots[s] = levels[rng.IntN(len(levels))]
		}
		cfg := Config{Rules: r, Seats: seats, Bots: bots, Seed: uint64(i) * 7919}
		res, err := run.Play(cfg)
		if err != nil {
			t.Fatalf("game %d (%d seats, %v): %v", i, seats, r.Map(), err)
		}
		for s, st := range res.Seats {
			if st.Refused > 0 {
				t.Fatalf("game %d (%d seats, %v): seat %d (%s) was refused %d moves", i, seats, r.Map(), s, st.Bot, st.Refused)
			}
		}
		if res.Net && mix {
			mixNet++
			t.Logf("game %d (%d seats, %v, %v) hit the net", i, seats, r.Map(), bots)
		} else if res.Net {
			net++
			t.Logf("game %d (%d seats, %s, %v) hit the net", i, seats, r.Preset, bots)
		}
		played[fmt.Sprintf("%s/%d", r.Preset, seats)]++
	}
	// A preset game reaches the net only at a table of simulation-only
	// sneakers that sneak every play, all they may, in sight of everyone
	// (each sneak is called and the pile goes round). Random mixes of
	// variants can also lock good callers into a duel (V8 playing on for
	// places, near sequences, two seats): the net is there for them. Keep
	// both rare.
	if net*2000 > games-mixed {
		t.Errorf("%d of %d preset games hit the 500-play net", net, games-mixed)
	}
	if mixNet*100 > 4*mixed {
		t.Errorf("%d of %d games with random variants hit the 500-play net", mixNet, mixed)
	}
	t.Logf("%d games (%d with random variants, %d of those hit the net), none refused: %v", games, mixed, mixNet, played)
}

// A game is a function of its config: a Runner that played other games
// first (and reset its bots) gives the same result as a fresh one.
func TestDeterministic(t *testing.T) {
	r, _ := engine.Preset("twist")
	p := Plan{Rules: r, Seats: 4, Bots: []string{"hard", "medium", "easy", "bold"}, Seed: 9}
	var warm Runner
	for i := range 30 {
		a, err := warm.Play(p.Game(i))
		if err != nil {
			t.Fatal(err)
		}
		b, err := Play(p.Game(i))
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("game %d differs:\n%v\n%v", i, a, b)
		}
	}
}

// asExec plays a built-in bot as the simulator sees an exec: bot: its
// answers take real time (Blocking), so the think time it returns is 0.
type asExec struct{ bot.Player }

func (a asExec) Act(v *engine.View) (engine.Command, time.Duration, bool) {
	cmd, _, ok := a.Player.Act(v)
	return cmd, 0, ok
}

func (asExec) Blocking() bool { return true }

// A player that answers in real time (an exec: bot) is given the think time
// a medium built-in bot takes, by the same function: one that decides as
// medium does plays the very game medium plays, where with think time 0 it
// answered first in every window and won every race to call (issue 11,
// defect 8).
func TestRealTimeThink(t *testing.T) {
	mk := func(name string, seat int, seed uint64) (bot.Player, error) {
		if name == "exec-medium" {
			p, err := bot.New("medium", seat, seed)
			return asExec{p}, err
		}
		return bot.New(name, seat, seed)
	}
	games, differ := 0, 0
	for _, preset := range engine.Presets {
		r, _ := engine.Preset(preset)
		for i := range 12 {
			seats := 3 + i%3
			seed := uint64(i)*104729 + 17
			want, err := Play(Config{Rules: r, Seats: seats, Bots: []string{"medium", "caller"}, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			got, err := Play(Config{Rules: r, Seats: seats, Bots: []string{"exec-medium", "caller"}, Seed: seed, Make: mk})
			if err != nil {
				t.Fatal(err)
			}
			for s := range got.Seats {
				got.Seats[s].Bot = want.Seats[s].Bot
			}
			games++
			if fmt.Sprint(got) != fmt.Sprint(want) {
				differ++
				if differ <= 3 {
					t.Errorf("%s, %d seats, seed %d: exec-medium fared otherwise than medium:\n got %v\nwant %v", preset, seats, seed, got, want)
				}
			}
		}
	}
	if differ > 0 {
		t.Errorf("%d of %d games went otherwise with exec-medium in medium's seats", differ, games)
	}
}
