// Package sim plays bot-only games without clocks and adds up how the bots
// fared: how long games last, who wins, how calls, lies and sneaks go.
//
// A game is a pure function of its Config: after each play, the seats that
// may call answer in think-time order (the quickest first), a call ends the
// window, and the engine's clock jumps to the deadline when nobody calls.
// A player whose answers take real time (an exec: bot) says it took none,
// having spent it already; with no clock to measure it, the simulator gives
// it the think time a medium built-in bot takes in the same situation
// (bot.ThinkAt), so it neither wins every race to call nor loses every one.
// The package starts no goroutine and reads no clock: a command that wants
// every core runs many Runners side by side and merges their Reports.
package sim

import (
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/bot"
)

// Maker makes the bot named name for a seat; bot.New by default, or one
// that also knows exec: names.
type Maker func(name string, seat int, seed uint64) (bot.Player, error)

// Config is one game.
type Config struct {
	Rules engine.Rules
	Seats int
	Bots  []string // by seat; a shorter list repeats
	Seed  uint64
	Make  Maker // nil: bot.New
}

// Seat is how one seat fared.
type Seat struct {
	Bot string `json:"bot"`
	engine.Stats
	Place   int `json:"place"`
	Left    int `json:"left"`    // cards left at the end
	Refused int `json:"refused"` // moves the table refused (a fallback was played)
}

// Result is one game's outcome.
type Result struct {
	Plays  int    `json:"plays"`
	Winner int    `json:"winner"` // -1: none (the net, with first place shared)
	Net    bool   `json:"net"`    // ended by the 500-play net (R14)
	First3 int    `json:"first3"` // the first seat down to 3 cards or fewer, -1 if none
	Seats  []Seat `json:"seats"`
}

// Play plays one game.
func Play(cfg Config) (Result, error) {
	var r Runner
	return r.Play(cfg)
}

// Runner plays games one after another, reusing its buffers.
type Runner struct {
	g       *engine.Game
	players []bot.Player
	names   []string
	real    []bool // the seat's player answers in real time (an exec: bot)
	views   []engine.View
	asks    []ask
	now     time.Duration
	res     Result
	spec    engine.View
}

type ask struct {
	seat  int
	order int
	think time.Duration
	cmd   engine.Command
}

// Mix is the seed of game i of a run seeded seed (splitmix64).
func Mix(seed uint64, i uint64) uint64 {
	z := seed + (i+1)*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Play plays one game.
func (r *Runner) Play(cfg Config) (Result, error) {
	if len(cfg.Bots) == 0 {
		return Result{}, fmt.Errorf("sim: no bots")
	}
	mk := cfg.Make
	if mk == nil {
		mk = bot.New
	}
	g, ev, err := engine.New(engine.Config{Rules: cfg.Rules, Seats: cfg.Seats, Seed: cfg.Seed})
	if err != nil {
		return Result{}, err
	}
	n := cfg.Seats
	r.g, r.now = g, 0
	r.res = Result{Winner: -1, First3: -1, Seats: make([]Seat, n)}
	for len(r.players) < n {
		r.players = append(r.players, nil)
		r.names = append(r.names, "")
		r.real = append(r.real, false)
	}
	r.players, r.names, r.real = r.players[:n], r.names[:n], r.real[:n]
	for s := 0; s < n; s++ {
		name := cfg.Bots[s%len(cfg.Bots)]
		seed := Mix(cfg.Seed, uint64(s)+1000)
		// A built-in bot of the same name from the last game is as good as
		// new once reset.
		if rs, ok := r.players[s].(resetter); ok && r.names[s] == name && cfg.Make == nil {
			rs.Reset(s, seed)
		} else {
			p, err := mk(name, s, seed)
			if err != nil {
				return Result{}, err
			}
			r.players[s], r.names[s] = p, name
		}
		rt, ok := r.players[s].(realTime)
		r.real[s] = ok && rt.Blocking()
		r.res.Seats[s].Bot = name
	}
	if cap(r.views) < n {
		r.views = make([]engine.View, n)
	}
	r.views = r.views[:n]
	r.deliver(ev)
	for !g.Over() {
		if err := r.step(); err != nil {
			r.close()
			return r.res, err
		}
	}
	r.finish()
	r.close()
	return r.res, nil
}

type resetter interface{ Reset(seat int, seed uint64) }

// realTime is a player whose answers take real time, as an exec: bot's do
// (extbot.Bot, which tells a host the same way to ask it off the table's
// goroutine): the think time its Act returns is 0.
type realTime interface{ Blocking() bool }

// act asks seat s's player what to do in v. A player that answers in real
// time is given the think time of a medium built-in bot at its seat (brisk
// pace, as Act's are), drawn by the same function, in place of its 0.
func (r *Runner) act(s int, v *engine.View) (engine.Command, time.Duration, bool) {
	cmd, think, ok := r.players[s].Act(v)
	if ok && r.real[s] {
		think = bot.ThinkAt(bot.Medium, v, cmd)
	}
	return cmd, think, ok
}

// close ends players that hold something open (external bots); they are
// not reused.
func (r *Runner) close() {
	for s, p := range r.players {
		if c, ok := p.(io.Closer); ok {
			c.Close()
			r.players[s], r.names[s] = nil, ""
		}
	}
}

func (r *Runner) deliver(ev []engine.Event) {
	for i := range ev {
		e := &ev[i]
		for s, p := range r.players {
			if e.VisibleTo(s) {
				p.Observe(e)
			}
		}
	}
}

func (r *Runner) view(s int) *engine.View {
	v := &r.views[s]
	r.g.ViewInto(s, v)
	return v
}

// step moves the game on by one decision.
func (r *Runner) step() error {
	g := r.g
	switch g.Phase() {
	case engine.PhasePlay:
		s := g.Turn()
		v := r.view(s)
		cmd, think, ok := r.act(s, v)
		if !ok {
			r.res.Seats[s].Refused++
			cmd, ok = bot.Fallback(v)
			if !ok {
				return fmt.Errorf("sim: seat %d has a turn and no move", s)
			}
		}
		r.now += max(think, time.Millisecond)
		_, err := r.apply(s, cmd)
		if err != nil {
			return err
		}
		if cmd.Move == engine.MovePlay && r.res.First3 < 0 && g.HandSize(s) <= 3 {
			r.res.First3 = s
		}
	case engine.PhaseCall:
		return r.window()
	case engine.PhaseGive:
		g.ViewInto(-1, &r.spec)
		if r.spec.Give == nil {
			return fmt.Errorf("sim: a hand-over with nobody to give")
		}
		s := r.spec.Give.From
		v := r.view(s)
		cmd, _, ok := r.players[s].Act(v)
		if !ok {
			r.res.Seats[s].Refused++
			if cmd, ok = bot.Fallback(v); !ok {
				return fmt.Errorf("sim: seat %d has a card to give and no move", s)
			}
		}
		_, err := r.apply(s, cmd)
		return err
	}
	return nil
}

// window asks every seat that may call, then applies their answers
// quickest first until one calls or all have let the play go.
func (r *Runner) window() error {
	g := r.g
	open := r.now
	closes, _ := g.Deadline()
	r.asks = r.asks[:0]
	g.ViewInto(-1, &r.spec)
	if r.spec.Window == nil || r.spec.Last == nil {
		return fmt.Errorf("sim: a call phase with no window")
	}
	n, player := g.Seats(), r.spec.Last.Seat
	for _, s := range r.spec.Window.Callers {
		cmd, think, ok := r.act(s, r.view(s))
		if !ok {
			continue
		}
		r.asks = append(r.asks, ask{seat: s, order: (s - player + n) % n, think: think, cmd: cmd})
	}
	slices.SortFunc(r.asks, func(a, b ask) int {
		if a.think != b.think {
			if a.think < b.think {
				return -1
			}
			return 1
		}
		return a.order - b.order
	})
	for _, a := range r.asks {
		if g.Phase() != engine.PhaseCall {
			break
		}
		at := min(open+a.think, closes-time.Millisecond)
		r.now = max(r.now, at)
		if _, err := r.apply(a.seat, a.cmd); err != nil {
			return err
		}
	}
	if g.Phase() == engine.PhaseCall {
		r.now = closes
		r.deliver(g.Tick(closes))
	}
	return nil
}

// apply applies a seat's command; a refusal is counted, offered to the bot
// for one more try if it takes one, and then replaced by the fallback.
func (r *Runner) apply(s int, cmd engine.Command) (bool, error) {
	cmd.Seat = s
	ev, err := r.g.Apply(r.now, cmd)
	if err == nil {
		r.deliver(ev)
		return true, nil
	}
	r.res.Seats[s].Refused++
	v := r.view(s)
	if rt, ok := r.players[s].(bot.Retrier); ok {
		if again, ok := rt.Retry(v, err); ok {
			again.Seat = s
			if ev, err2 := r.g.Apply(r.now, again); err2 == nil {
				r.deliver(ev)
				return true, nil
			}
			r.res.Seats[s].Refused++
			v = r.view(s)
		}
	}
	fb, ok := bot.Fallback(v)
	if !ok {
		return false, nil // nothing to do after all (the window closed)
	}
	fb.Seat = s
	ev, err2 := r.g.Apply(r.now, fb)
	if err2 != nil {
		return false, fmt.Errorf("sim: seat %d's fallback %v was refused: %w (its move %v: %v)", s, fb.Move, err2, cmd.Move, err)
	}
	r.deliver(ev)
	return true, nil
}

func (r *Runner) finish() {
	g := r.g
	r.res.Plays = g.Plays()
	r.res.Winner = g.Winner()
	places := g.Places()
	st := g.Stats()
	for s := range r.res.Seats {
		r.res.Seats[s].Stats = st[s]
		r.res.Seats[s].Place = places[s]
		r.res.Seats[s].Left = g.HandSize(s)
	}
	r.res.Net = g.Plays() >= engine.MaxPlays
}
