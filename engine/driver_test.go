package engine_test

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/enginetest"
)

// A driver plays a game at random: mostly moves a table could make, some
// that the engine must refuse, and ticks of the clock. It reads the whole
// truth (it is a test, not a bot) so that its moves are legal-ish.
type driver struct {
	rng *rand.Rand
	g   *engine.Game
	now time.Duration
	// junk is the share of moves (in 1000ths) made at random, mostly refused.
	junk int
	v    engine.View // reused
}

// view is what a spectator sees now.
func (d *driver) view() *engine.View {
	d.g.ViewInto(-1, &d.v)
	return &d.v
}

// An action is a command at a time, or a tick.
type action struct {
	Tick bool
	At   time.Duration
	Cmd  engine.Command
}

func (a action) String() string {
	if a.Tick {
		return fmt.Sprintf("tick %v", a.At)
	}
	return fmt.Sprintf("@%v %+v", a.At, a.Cmd)
}

// apply performs a on g.
func apply(g *engine.Game, a action) ([]engine.Event, error) {
	if a.Tick {
		return g.Tick(a.At), nil
	}
	return g.Apply(a.At, a.Cmd)
}

func (d *driver) pct(p int) bool { return d.rng.IntN(100) < p }

// next picks the next action.
func (d *driver) next() action {
	g := d.g
	if d.rng.IntN(1000) < d.junk {
		return action{At: d.now, Cmd: d.random()}
	}
	if d.pct(4) {
		d.now += time.Duration(d.rng.IntN(8000)) * time.Millisecond
		return action{Tick: true, At: d.now}
	}
	switch g.Phase() {
	case engine.PhaseGive:
		v := d.view()
		if d.pct(70) {
			h := g.Hand(v.Give.From)
			return d.cmd(engine.Command{Move: engine.MoveGive, Seat: v.Give.From, Cards: []engine.Card{h[d.rng.IntN(len(h))]}})
		}
		return d.toDeadline()
	case engine.PhaseCall:
		v := d.view()
		r := d.rng.IntN(100)
		switch {
		case r < 25 && len(v.Window.Callers) > 0:
			s := v.Window.Callers[d.rng.IntN(len(v.Window.Callers))]
			return d.cmd(engine.Command{Move: engine.MoveCall, Seat: s, No: v.Window.No})
		case r < 75 && len(v.Window.Callers) > 0:
			s := v.Window.Callers[d.rng.IntN(len(v.Window.Callers))]
			return d.cmd(engine.Command{Move: engine.MovePass, Seat: s, No: v.Window.No})
		case r < 88 && g.Rules().Rapid:
			return d.cmd(d.play())
		}
		return d.toDeadline()
	case engine.PhasePlay:
		rl := g.Rules()
		seat := g.Turn()
		if rl.Quads && d.pct(30) {
			if q := quad(g.Hand(seat)); q != nil {
				return d.cmd(engine.Command{Move: engine.MoveQuads, Seat: seat, Cards: q})
			}
		}
		if rl.Doubt && d.view().Rank != engine.NoRank {
			r := d.rng.IntN(100)
			switch {
			case r < 25:
				return d.cmd(engine.Command{Move: engine.MoveDoubt, Seat: seat})
			case r < 40:
				return d.cmd(engine.Command{Move: engine.MoveBelieve, Seat: seat, No: g.Plays()})
			case r < 60:
				return d.cmd(engine.Command{Move: engine.MoveSkip, Seat: seat})
			}
		}
		return d.cmd(d.play())
	}
	return d.toDeadline()
}

func (d *driver) cmd(c engine.Command) action { return action{At: d.now, Cmd: c} }

func (d *driver) toDeadline() action {
	if t, ok := d.g.Deadline(); ok && t > d.now {
		d.now = t
	}
	return action{Tick: true, At: d.now}
}

// play is a play by the seat whose turn it is: cards of the rank when it
// holds them (often), else any; sneaks and count lies where the rules allow.
func (d *driver) play() engine.Command {
	g := d.g
	rl := g.Rules()
	seat := g.Turn()
	h := g.Hand(seat)
	rk := d.view().Rank
	if rk == engine.NoRank {
		if ranks := g.AllowedRanks(); ranks != nil {
			rk = ranks[d.rng.IntN(len(ranks))]
		} else {
			rk = engine.Rank(d.rng.IntN(13))
		}
	}
	capN := g.Cap()
	if len(h) == 0 {
		return engine.Command{Move: engine.MovePlay, Seat: seat, Rank: rk}
	}
	k := 1 + d.rng.IntN(min(capN, len(h), 4))
	var picked []engine.Card
	used := make([]bool, len(h))
	if d.pct(70) {
		for i, c := range h {
			if len(picked) < k && c.Matches(rk) {
				picked, used[i] = append(picked, c), true
			}
		}
	}
	for len(picked) < k {
		i := d.rng.IntN(len(h))
		if !used[i] {
			picked, used[i] = append(picked, h[i]), true
		}
	}
	claim := 0
	switch {
	case rl.CountLies && d.pct(30):
		claim = 1 + d.rng.IntN(capN)
	case rl.Sneak > 0 && d.pct(40):
		extra := 1 + d.rng.IntN(rl.Sneak)
		for j := 0; j < extra && len(picked) < len(h); j++ {
			i := d.rng.IntN(len(h))
			if !used[i] {
				picked, used[i] = append(picked, h[i]), true
			}
		}
		claim = k
	}
	d.rng.Shuffle(len(picked), func(i, j int) { picked[i], picked[j] = picked[j], picked[i] })
	return engine.Command{Move: engine.MovePlay, Seat: seat, Cards: picked, Claim: claim, Rank: rk}
}

// quad is a true four of a kind in h that doesn't empty it, or nil.
func quad(h []engine.Card) []engine.Card {
	if len(h) <= 4 {
		return nil
	}
	var by [13][]engine.Card
	for _, c := range h {
		if r := c.Rank(); r != engine.NoRank {
			by[r] = append(by[r], c)
			if len(by[r]) == 4 {
				return by[r]
			}
		}
	}
	return nil
}

// random is a command with every field drawn at random: most are refused.
func (d *driver) random() engine.Command {
	g := d.g
	c := engine.Command{
		Move: engine.Move(d.rng.IntN(10)),
		Seat: d.rng.IntN(g.Seats()+2) - 1,
		Rank: engine.Rank(d.rng.IntN(15) - 1),
		No:   d.rng.IntN(g.Plays()+3) - 1,
	}
	if d.pct(50) {
		c.Claim = d.rng.IntN(g.Cap()+4) - 1
	}
	n := d.rng.IntN(6)
	for i := 0; i < n; i++ {
		if d.pct(80) && c.Seat >= 0 && c.Seat < g.Seats() && g.HandSize(c.Seat) > 0 {
			h := g.Hand(c.Seat)
			c.Cards = append(c.Cards, h[d.rng.IntN(len(h))])
		} else {
			c.Cards = append(c.Cards, engine.Card(d.rng.IntN(60)))
		}
	}
	// Often the seat whose turn it is, or the last player, and the last
	// play's number: that is where the interesting refusals are.
	switch r := d.rng.IntN(6); {
	case r < 3 && g.Phase() != engine.PhaseOver:
		c.Seat = g.Turn()
	case r == 3 && g.Plays() > 0:
		c.Seat = d.view().Last.Seat
	}
	if d.pct(40) {
		c.No = g.Plays()
	}
	return c
}

// randomRules is enginetest.RandomRules: a rules object with random keys.
func randomRules(rng *rand.Rand) map[string]any { return enginetest.RandomRules(rng) }
