package nodetest

import (
	"time"

	"github.com/bullshit-game/bullshit/engine"
)

// dumbThink is the dumb bot's think time: short, so network games are quick.
const dumbThink = 5 * time.Millisecond

// DumbBot plays its first card, lets every play go and hands over its first
// card: the simplest legal player, so table tests don't depend on engine/bot.
type DumbBot struct{ Seat int }

func (d *DumbBot) Observe(*engine.Event) {}

func (d *DumbBot) Act(v *engine.View) (engine.Command, time.Duration, bool) {
	return DumbMove(v, d.Seat)
}

func DumbMove(v *engine.View, seat int) (engine.Command, time.Duration, bool) {
	switch {
	case v.Phase == engine.PhaseCall && v.Window != nil:
		for _, s := range v.Window.Callers {
			if s == seat {
				return engine.Command{Move: engine.MovePass, No: v.Window.No, Rank: engine.NoRank}, dumbThink, true
			}
		}
	case v.Phase == engine.PhaseGive && v.Give != nil && v.Give.From == seat:
		return engine.Command{Move: engine.MoveGive, Cards: v.Hand[:1], Rank: engine.NoRank}, dumbThink, true
	case v.Phase == engine.PhasePlay && v.Turn == seat && len(v.Hand) > 0:
		r := v.Rank
		if r == engine.NoRank {
			r = v.Hand[0].Rank()
			if r == engine.NoRank {
				r = 0
			}
		}
		if v.Rules.Doubt && v.Round != nil && v.No > 0 {
			return engine.Command{Move: engine.MoveSkip, Rank: engine.NoRank}, dumbThink, true
		}
		// Up to the cap of cards, so games are short.
		k := min(len(v.Hand), v.Cap, 4)
		if v.Rules.Sneak > 0 || v.Rules.CountLies {
			k = min(k, 4)
		}
		return engine.Command{Move: engine.MovePlay, Cards: v.Hand[:k], Rank: r}, dumbThink, true
	}
	return engine.Command{}, 0, false
}

// DumbFallback plays the dumb bot's move for a seat out of time.
func DumbFallback(v *engine.View) (engine.Command, bool) {
	c, _, ok := DumbMove(v, v.Seat)
	return c, ok
}

// CallBot is DumbBot that shouts "Bullshit!" on every other play it may
// call: plays are turned up and piles move (face-down cards in them, from
// the plays let go), so a game shows the openings and hand-overs of a
// blind table at once.
type CallBot struct{ Seat int }

func (c *CallBot) Observe(*engine.Event) {}

func (c *CallBot) Act(v *engine.View) (engine.Command, time.Duration, bool) {
	if v.Phase == engine.PhaseCall && v.Window != nil && v.Window.No%2 == 0 {
		for _, s := range v.Window.Callers {
			if s == c.Seat {
				return engine.Command{Move: engine.MoveCall, No: v.Window.No, Rank: engine.NoRank}, dumbThink, true
			}
		}
	}
	return DumbMove(v, c.Seat)
}

// CallMaker seats CallBots.
func CallMaker(_ string, seat int, _ uint64) (Player, error) { return &CallBot{Seat: seat}, nil }

// Player is a bot in a seat, as node/table takes it.
type Player interface {
	Observe(e *engine.Event)
	Act(v *engine.View) (engine.Command, time.Duration, bool)
}
