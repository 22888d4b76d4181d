// Package bot is the computer players: easy, medium and hard, each in a
// style (cautious, bold, caller, and the simulation-only honest, careful,
// sometimes and always for the sneak twist).
//
// A bot decides from its seat's engine.View and the events its seat may see,
// and from nothing else: it is never handed the *engine.Game, so it can't
// peek. What it remembers (claims, reveals, who took which pile, how hand and
// pile sizes moved) is its own memory of those events.
//
// A decision is a pure function of (view, memory, seed): each one draws from
// a PCG seeded by the bot's seed and the situation, never from global
// randomness, a clock or a goroutine, so a game of bots replays exactly.
package bot

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/bullshit-game/bullshit/engine"
)

// A Player is a bot in a seat.
type Player interface {
	// Observe is every event its seat may see, in order, its own deal
	// ("hand") and plays ("mine") included.
	Observe(e *engine.Event)
	// Act is what to do now, if anything. think is how long a real-time
	// table waits before sending it (brisk pace; see ThinkAt). ok is false
	// when the seat has nothing to do: not its turn, already let this
	// play go, out of the game.
	Act(v *engine.View) (cmd engine.Command, think time.Duration, ok bool)
}

// A Retrier may answer a refusal of its command once more, as an external
// bot does (REFEREE.md, "External bots"). A table that gets ok=false, or a
// second refusal, plays Fallback. The built-in bots are never refused.
type Retrier interface {
	Retry(v *engine.View, refusal error) (cmd engine.Command, ok bool)
}

// Names are the names New takes, for help texts. "LEVEL/STYLE" (hard/bold)
// combines a level with a style; a level alone plays cautious, a style
// alone plays at medium.
var Names = []string{"easy", "medium", "hard", "cautious", "bold", "caller", "honest", "careful", "sometimes", "always"}

// Level is how well a bot plays its style.
type Level int

const (
	Easy Level = iota
	Medium
	Hard
)

var levelNames = [...]string{"easy", "medium", "hard"}

func (l Level) String() string { return levelNames[l] }

// New makes the bot called name for seat. The seed fixes every choice it
// will make.
func New(name string, seat int, seed uint64) (Player, error) {
	lv, st, err := Parse(name)
	if err != nil {
		return nil, err
	}
	return newBot(lv, st, seat, seed), nil
}

// Parse reads a bot name into its level and style.
func Parse(name string) (Level, Style, error) {
	name = strings.ToLower(strings.TrimSpace(name))
	if strings.HasPrefix(name, "exec:") {
		return 0, Style{}, fmt.Errorf("bot %q is an external program: node/extbot runs those", name)
	}
	lvName, stName, both := strings.Cut(name, "/")
	if !both {
		if _, ok := styles[name]; ok {
			lvName, stName = "medium", name
		} else {
			stName = "cautious"
		}
	}
	lv := Level(-1)
	for i, n := range levelNames {
		if n == lvName {
			lv = Level(i)
		}
	}
	st, ok := styles[stName]
	if lv < 0 || !ok {
		return 0, Style{}, fmt.Errorf("there is no bot %q: try %s, LEVEL/STYLE (hard/bold) or exec:PATH", name, strings.Join(Names, ", "))
	}
	return lv, st, nil
}

// Think is how long a bot at level takes over play no: to answer its
// window when it isn't seat's own play, and half as long again on its own
// turn. It varies by seat and play, (seat·7 + no·3) mod 4 steps, so no bot is
// always the quickest to shout. pace "relaxed" is half as long again as
// "brisk"; Act returns brisk times (the node's host stretches them itself).
func Think(level string, seat, no int, pace string) time.Duration {
	slot := (seat*7 + no*3) % 4
	d := 450*time.Millisecond + time.Duration(slot)*350*time.Millisecond
	switch level {
	case "easy":
		d += 150 * time.Millisecond
	case "hard":
		d += 100 * time.Millisecond
	}
	if pace == "relaxed" {
		d = d * 3 / 2
	}
	return d
}

// ThinkAt is how long a bot at level takes over cmd in the situation v, at
// brisk pace: Think for v's seat and play, half as long again on its own
// turn, and for anything but a play in an open window at most four fifths
// of the time the window has left, so it shouts inside the window however
// short the table set it. Bot.Act returns it; the simulator gives it to a
// player whose answers take real time (an exec: bot), so every seat races
// to call on the same clock.
func ThinkAt(level Level, v *engine.View, cmd engine.Command) time.Duration {
	think := Think(level.String(), v.Seat, v.No, "brisk")
	if v.Phase == engine.PhasePlay {
		think = think * 3 / 2
	}
	if v.Window != nil && cmd.Move != engine.MovePlay {
		if room := time.Duration(v.Window.Closes-v.Now) * 4 / 5; think > room {
			think = max(room, 0)
		}
	}
	return think
}

// Bot is a built-in player.
type Bot struct {
	seat  int
	seed  uint64
	level Level
	style Style
	pcg   rand.PCG
	rng   *rand.Rand
	mem   memory
	// The decision in force, so a table that asks again over the same
	// situation gets the same answer, counted from when it was first asked.
	key   [4]int
	first engine.Seconds
	cmd   engine.Command
	think time.Duration
	cards []engine.Card // scratch, reused every play
}

func newBot(lv Level, st Style, seat int, seed uint64) *Bot {
	b := &Bot{seat: seat, seed: seed, level: lv, style: st, key: [4]int{-1}}
	b.rng = rand.New(&b.pcg)
	b.mem.seat = seat
	return b
}

// Reset makes the bot new for another game at seat with seed, keeping its
// level, style and buffers: the simulator's way to spare an allocation a
// game. It is the same as a bot fresh from New.
func (b *Bot) Reset(seat int, seed uint64) {
	seats := b.mem.seats[:0]
	cards := b.cards[:0]
	*b = Bot{seat: seat, seed: seed, level: b.level, style: b.style, key: [4]int{-1}, cards: cards}
	b.rng = rand.New(&b.pcg)
	b.mem.seat = seat
	b.mem.seats = seats
}

// Level is the bot's level; Style its style.
func (b *Bot) Level() Level { return b.level }

// Style is the bot's style.
func (b *Bot) Style() Style { return b.style }

// reseed makes the decision's randomness a function of the seed and the
// situation alone, however often the table asks.
func (b *Bot) reseed(a, c int) {
	b.pcg.Seed(b.seed, uint64(a)*0x9e3779b97f4a7c15^uint64(c)*0xbf58476d1ce4e5b9^uint64(b.seat+1)*0x94d049bb133111eb)
}

// Act implements Player.
func (b *Bot) Act(v *engine.View) (engine.Command, time.Duration, bool) {
	if v == nil || v.Seat != b.seat || v.Phase == engine.PhaseOver {
		return engine.Command{}, 0, false
	}
	b.mem.sync(v)
	if !mayAct(v) {
		return engine.Command{}, 0, false
	}
	giver := -1
	if v.Give != nil {
		giver = v.Give.From
	}
	key := [4]int{int(v.Phase), v.No, v.Turn, giver*1000 + len(v.Hand)}
	if v.Round != nil {
		key[2] += 16 * (v.Round.Skips + 1)
	}
	if key == b.key {
		left := b.think - time.Duration(v.Now-b.first)
		return b.cmd, max(left, 0), true
	}
	cmd, ok := b.decide(v)
	if !ok {
		return engine.Command{}, 0, false
	}
	think := ThinkAt(b.level, v, cmd)
	b.key, b.first, b.cmd, b.think = key, v.Now, cmd, think
	return cmd, think, true
}

func (b *Bot) decide(v *engine.View) (engine.Command, bool) {
	me := b.seat
	if v.Placed != nil && me < len(v.Placed) && v.Placed[me] != 0 {
		return engine.Command{}, false
	}
	switch v.Phase {
	case engine.PhaseGive:
		if v.Give == nil || v.Give.From != me {
			return engine.Command{}, false
		}
		b.reseed(v.No, 3)
		cards := leastUseful(v, v.Give.Count, nil)
		return engine.Command{Move: engine.MoveGive, Seat: me, Cards: cards}, true
	case engine.PhaseCall:
		if v.Window == nil || !has(v.Window.Callers, me) || v.Last == nil || v.Last.Seat == me {
			return engine.Command{}, false
		}
		b.reseed(v.Window.No, 1)
		m := engine.MovePass
		if b.shouldCall(v) {
			m = engine.MoveCall
		}
		return engine.Command{Move: m, Seat: me, No: v.Window.No}, true
	case engine.PhasePlay:
		if v.Turn != me || len(v.Hand) == 0 {
			return engine.Command{}, false
		}
		b.reseed(v.No+1, 2+4*len(v.Hand))
		cmd := b.play(v)
		cmd.Seat = me
		return cmd, true
	}
	return engine.Command{}, false
}

// mayAct reports whether the view's seat has something to do: its turn,
// a window it hasn't let go, a card to hand over.
func mayAct(v *engine.View) bool {
	me := v.Seat
	if v.Phase == engine.PhaseOver || (v.Placed != nil && me < len(v.Placed) && v.Placed[me] != 0) {
		return false
	}
	switch v.Phase {
	case engine.PhaseGive:
		return v.Give != nil && v.Give.From == me
	case engine.PhaseCall:
		return v.Window != nil && v.Last != nil && v.Last.Seat != me && has(v.Window.Callers, me)
	case engine.PhasePlay:
		return v.Turn == me && len(v.Hand) > 0
	}
	return false
}

// Observe implements Player.
func (b *Bot) Observe(e *engine.Event) {
	if e == nil || !e.VisibleTo(b.seat) {
		return
	}
	b.mem.observe(e)
}

func has(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Fallback is the always-legal move for the view's seat, when it has one:
// let the play go; hand over the least useful card; in doubt mode skip (or
// believe when skipping can't be done); else play every card of the rank,
// up to the cap (else one card).
func Fallback(v *engine.View) (engine.Command, bool) {
	me := v.Seat
	if v.Phase == engine.PhaseOver || me < 0 || (v.Placed != nil && me < len(v.Placed) && v.Placed[me] != 0) {
		return engine.Command{}, false
	}
	switch v.Phase {
	case engine.PhaseCall:
		if v.Window != nil && has(v.Window.Callers, me) {
			return engine.Command{Move: engine.MovePass, Seat: me, No: v.Window.No}, true
		}
	case engine.PhaseGive:
		if v.Give != nil && v.Give.From == me {
			return engine.Command{Move: engine.MoveGive, Seat: me, Cards: leastUseful(v, v.Give.Count, nil)}, true
		}
	case engine.PhasePlay:
		if v.Turn != me || len(v.Hand) == 0 {
			return engine.Command{}, false
		}
		if v.Round != nil && v.Last != nil && v.Rules.Doubt {
			return engine.Command{Move: engine.MoveSkip, Seat: me}, true
		}
		rank := v.Rank
		if !rank.Valid() {
			rank = freeRank(v, nil)
		}
		capn := max(v.Cap, 1)
		var cards []engine.Card
		for _, c := range v.Hand {
			if c.Matches(rank) && len(cards) < capn {
				cards = append(cards, c)
			}
		}
		if len(cards) == 0 {
			cards = append(cards, v.Hand[0])
		}
		return engine.Command{Move: engine.MovePlay, Seat: me, Cards: cards, Claim: len(cards), Rank: rank}, true
	}
	return engine.Command{}, false
}
