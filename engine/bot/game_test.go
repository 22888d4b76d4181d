package bot

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine"
)

// playGame is a bare game loop for tests inside the package (sim imports
// bot, so bot's own tests can't use it): the callers answer in think order.
func playGame(t testing.TB, r engine.Rules, names []string, seed uint64, onWindow func(g *engine.Game, b []*Bot, v []engine.View)) *engine.Game {
	n := len(names)
	g, ev, err := engine.New(engine.Config{Rules: r, Seats: n, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	bots := make([]*Bot, n)
	for s := range bots {
		p, err := New(names[s], s, seed*31+uint64(s))
		if err != nil {
			t.Fatal(err)
		}
		bots[s] = p.(*Bot)
	}
	views := make([]engine.View, n)
	deliver := func(ev []engine.Event) {
		for i := range ev {
			for s, b := range bots {
				if ev[i].VisibleTo(s) {
					b.Observe(&ev[i])
				}
			}
		}
	}
	deliver(ev)
	now := time.Duration(0)
	apply := func(c engine.Command) {
		ev, err := g.Apply(now, c)
		if err != nil {
			t.Fatalf("refused %+v: %v", c, err)
		}
		deliver(ev)
	}
	for !g.Over() {
		now += time.Second
		switch g.Phase() {
		case engine.PhasePlay, engine.PhaseGive:
			for s := range bots {
				g.ViewInto(s, &views[s])
				if c, _, ok := bots[s].Act(&views[s]); ok {
					apply(c)
					break
				}
			}
		case engine.PhaseCall:
			for s := range bots {
				g.ViewInto(s, &views[s])
			}
			if onWindow != nil {
				onWindow(g, bots, views)
			}
			type a struct {
				c engine.Command
				d time.Duration
			}
			var as []a
			for s := range bots {
				if c, d, ok := bots[s].Act(&views[s]); ok {
					as = append(as, a{c, d})
				}
			}
			for i := range as {
				for j := i + 1; j < len(as); j++ {
					if as[j].d < as[i].d {
						as[i], as[j] = as[j], as[i]
					}
				}
			}
			for _, x := range as {
				if g.Phase() != engine.PhaseCall {
					break
				}
				apply(x.c)
			}
			if g.Phase() == engine.PhaseCall {
				d, _ := g.Deadline()
				now = d
				deliver(g.Tick(d))
			}
		}
	}
	return g
}

// TestCalibration prints, for each level, how often claims read at each
// chance of a lie really were lies (CALIB=games; P=preset). It is how the
// reading was checked and how classicP was measured; it asserts nothing.
func TestCalibration(t *testing.T) {
	games, _ := strconv.Atoi(os.Getenv("CALIB"))
	if games == 0 {
		t.Skip("CALIB=games to run")
	}
	preset := os.Getenv("P")
	if preset == "" {
		preset = "standard"
	}
	r, _ := engine.Preset(preset)
	var hits [3][10][2]int
	for i := 0; i < games; i++ {
		playGame(t, r, []string{"hard", "medium", "easy"}, uint64(i), func(g *engine.Game, bots []*Bot, views []engine.View) {
			l := g.State().Last
			lie := lied(l)
			for s, b := range bots {
				if s == l.Seat {
					continue
				}
				o := b.pLie(&views[s])
				k := min(int(o.p*10), 9)
				hits[b.level][k][lie]++
			}
		})
	}
	for lv := 0; lv < 3; lv++ {
		fmt.Println(Level(lv))
		for k := 0; k < 10; k++ {
			h := hits[lv][k]
			if h[0]+h[1] > 0 {
				fmt.Printf("  p %.1f-%.1f  n %6d  lies %.2f\n", float64(k)/10, float64(k+1)/10, h[0]+h[1], float64(h[1])/float64(h[0]+h[1]))
			}
		}
	}
}

// TestFeatures prints the lie rate of claims among medium bots by claim
// size, copies unaccounted for and hand size (FEAT=games): classicP's table.
func TestFeatures(t *testing.T) {
	games, _ := strconv.Atoi(os.Getenv("FEAT"))
	if games == 0 {
		t.Skip("FEAT=games to run")
	}
	r, _ := engine.Preset("standard")
	type key struct{ k, avail, hb int }
	hits := map[key][2]int{}
	for i := 0; i < games; i++ {
		playGame(t, r, []string{"medium", "medium", "medium"}, uint64(i), func(g *engine.Game, bots []*Bot, views []engine.View) {
			l := g.State().Last
			lie := lied(l)
			s := (l.Seat + 1) % len(bots)
			v := &views[s]
			mine := counts(v.Hand)
			avail := 4 - mine[l.Rank]
			hb := min(l.Sizes.HandBefore.Lo/4, 5)
			k := key{l.Claim, avail, hb}
			h := hits[k]
			h[lie]++
			hits[k] = h
		})
	}
	for k := 1; k <= 4; k++ {
		for a := 0; a <= 4; a++ {
			for hb := 0; hb <= 5; hb++ {
				h := hits[key{k, a, hb}]
				if h[0]+h[1] >= 30 {
					fmt.Printf("k %d avail %d hand %2d+  n %5d lies %.2f\n", k, a, hb*4, h[0]+h[1], float64(h[1])/float64(h[0]+h[1]))
				}
			}
		}
	}
}

// lied is 1 when the last play l was a lie (not as many cards as claimed,
// or one not of the rank), 0 when it was true: a calibration's tally.
func lied(l *engine.Last) int {
	if len(l.Cards) != l.Claim {
		return 1
	}
	for _, c := range l.Cards {
		if !c.Matches(l.Rank) {
			return 1
		}
	}
	return 0
}
