package engine_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/bot"
)

// A whole game of bots, in the clear and blind: the same game (the same
// deck, seed and bots), the blind one with every seat's node translating
// its moves to handles and the harness's openings standing in for the
// cryptography (which protocol/mental measures on its own). The
// difference is what the engine's blindness costs, per game.

// benchTable is what the bench driver needs of either game.
type benchTable interface {
	phase() engine.Phase
	turn() int
	deadline() (time.Duration, bool)
	view(seat int) *engine.View
	apply(now time.Duration, c engine.Command)
	tick(now time.Duration)
	deliver(bots []bot.Player)
}

type clearBench struct {
	g  *engine.Game
	v  engine.View
	ev []engine.Event
}

func (c *clearBench) phase() engine.Phase             { return c.g.Phase() }
func (c *clearBench) turn() int                       { return c.g.Turn() }
func (c *clearBench) deadline() (time.Duration, bool) { return c.g.Deadline() }
func (c *clearBench) view(s int) *engine.View         { c.g.ViewInto(s, &c.v); return &c.v }
func (c *clearBench) apply(now time.Duration, cmd engine.Command) {
	ev, err := c.g.Apply(now, cmd)
	if err != nil {
		panic(err)
	}
	c.ev = append(c.ev, ev...)
}
func (c *clearBench) tick(now time.Duration) { c.ev = append(c.ev, c.g.Tick(now)...) }
func (c *clearBench) deliver(bots []bot.Player) {
	for i := range c.ev {
		for s, p := range bots {
			if c.ev[i].VisibleTo(s) {
				p.Observe(&c.ev[i])
			}
		}
	}
	c.ev = c.ev[:0]
}

type blindBench struct {
	b     *engine.Blind
	deck  []engine.Card
	sides []*engine.SeatSide
	v     engine.View
	ev    []engine.BlindEvent
}

func (x *blindBench) phase() engine.Phase             { return x.b.Phase() }
func (x *blindBench) turn() int                       { return x.b.Turn() }
func (x *blindBench) deadline() (time.Duration, bool) { return x.b.Deadline() }
func (x *blindBench) view(s int) *engine.View {
	x.b.ViewInto(s, &x.v)
	if s >= 0 {
		if err := x.sides[s].View(&x.v, x.b.Hand(s), x.b.LastPlay()); err != nil {
			panic(err)
		}
	}
	return &x.v
}
func (x *blindBench) apply(now time.Duration, cmd engine.Command) {
	bc, err := x.sides[cmd.Seat].Command(cmd, x.b.Hand(cmd.Seat))
	if err != nil {
		panic(err)
	}
	ev, err := x.b.Apply(now, bc)
	if err != nil {
		panic(err)
	}
	x.ev = append(x.ev, ev...)
	if hs, ok := x.b.Opening(); ok {
		ev, err := x.b.Open(opened(x.deck, hs))
		if err != nil {
			panic(err)
		}
		x.ev = append(x.ev, ev...)
	}
}
func (x *blindBench) tick(now time.Duration) {
	x.ev = append(x.ev, x.b.Tick(now)...)
	if s, k, ok := x.b.Picking(); ok {
		hs, err := x.sides[s].Pick(x.view(s), x.b.Hand(s), k)
		if err != nil {
			panic(err)
		}
		ev, err := x.b.Pick(s, hs)
		if err != nil {
			panic(err)
		}
		x.ev = append(x.ev, ev...)
	}
}
func (x *blindBench) deliver(bots []bot.Player) {
	for i := range x.ev {
		e := &x.ev[i]
		switch e.Type {
		case engine.EventTake:
			x.sides[e.Seat].Learn(opened(x.deck, e.Handles)...)
		case engine.EventHanded:
			x.sides[e.Target].Learn(opened(x.deck, e.Handles)...)
		}
		for s, p := range bots {
			if !e.VisibleTo(s) {
				continue
			}
			c := e.Clear(x.deck) // the over event's cards; the rest as the seat reads them
			if e.Type != engine.EventOver {
				var err error
				if c, err = x.sides[s].Event(e); err != nil {
					panic(err)
				}
			}
			p.Observe(&c)
		}
	}
	x.ev = x.ev[:0]
}

// benchGame plays one game of bots on t to its end: the turn's seat plays,
// the quickest caller calls, a window or hand-over nobody answers in time
// runs out.
func benchGame(t benchTable, bots []bot.Player) {
	now := time.Duration(0)
	for t.phase() != engine.PhaseOver {
		t.deliver(bots)
		switch t.phase() {
		case engine.PhasePlay:
			s := t.turn()
			cmd, think, ok := bots[s].Act(t.view(s))
			if !ok {
				cmd, _ = bot.Fallback(t.view(s))
			}
			now += max(think, time.Millisecond)
			t.apply(now, cmd)
		case engine.PhaseCall, engine.PhaseGive:
			closes, _ := t.deadline()
			v := *t.view(-1)
			var askers []int
			if v.Window != nil {
				askers = append(askers, v.Window.Callers...)
			} else {
				askers = []int{v.Give.From}
			}
			var best engine.Command
			at, found := time.Duration(0), false
			for _, s := range askers {
				if cmd, think, ok := bots[s].Act(t.view(s)); ok && (!found || think < at) {
					best, at, found = cmd, think, true
				}
			}
			if !found || now+at >= closes {
				now = closes
				t.tick(now)
				continue
			}
			now += at
			t.apply(now, best)
		}
	}
	t.deliver(bots)
}

func benchBots(seed uint64) []bot.Player {
	bots := make([]bot.Player, 4)
	for s := range bots {
		bots[s], _ = bot.New("medium", s, seed+uint64(s))
	}
	return bots
}

func BenchmarkBlindGame(b *testing.B) {
	r, _ := engine.Preset("twist")
	b.Run("clear", func(b *testing.B) {
		b.ReportAllocs()
		for i := range b.N {
			seed := uint64(i % 64)
			deck := shuffled(r, 4, rand.New(rand.NewPCG(seed, 24)))
			g, ev, _ := engine.New(engine.Config{Rules: r, Seats: 4, Seed: seed, Deck: deck})
			benchGame(&clearBench{g: g, ev: ev}, benchBots(seed))
		}
	})
	b.Run("blind", func(b *testing.B) {
		b.ReportAllocs()
		for i := range b.N {
			seed := uint64(i % 64)
			deck := shuffled(r, 4, rand.New(rand.NewPCG(seed, 24)))
			bl, ev, _ := engine.NewBlind(engine.BlindConfig{Rules: r, Seats: 4, Seed: seed})
			x := &blindBench{b: bl, deck: deck, ev: ev}
			for s := range 4 {
				x.sides = append(x.sides, engine.NewSeatSide(s, opened(deck, bl.Hand(s))...))
			}
			benchGame(x, benchBots(seed))
		}
	})
}
