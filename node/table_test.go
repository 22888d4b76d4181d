package node

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/bot"
)

// dumbThink is the dumb bot's think time: short, so network games are quick.
const dumbThink = 5 * time.Millisecond

// dumbBot plays its first card, lets every play go and hands over its first
// card: the simplest legal player, so table tests don't depend on engine/bot.
type dumbBot struct{ seat int }

func (d *dumbBot) Observe(*engine.Event) {}

func (d *dumbBot) Act(v *engine.View) (engine.Command, time.Duration, bool) {
	return dumbMove(v, d.seat)
}

func dumbMove(v *engine.View, seat int) (engine.Command, time.Duration, bool) {
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

func dumbMaker(name string, seat int, seed uint64) (Player, error) { return &dumbBot{seat: seat}, nil }

func dumbFallback(v *engine.View) (engine.Command, bool) {
	c, _, ok := dumbMove(v, v.Seat)
	return c, ok
}

// A table of bots plays a whole game to the end on the host's clock, and a
// spectator sees it end with every card accounted for.
func TestTableBotsPlayToTheEnd(t *testing.T) {
	for _, preset := range engine.Presets {
		t.Run(preset, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				rules, _ := engine.Preset(preset)
				tb, spec := watchedGame(t, Settings{Name: "T", Rules: rules, Seats: 4, Bots: []string{"a", "b", "c", "d"}, Seed: 7}, dumbMaker, dumbFallback)
				defer tb.Close()
				var last Update
				for u := range spec.Updates() {
					last = u
					if u.Table.Phase == "over" {
						break
					}
				}
				if last.Table.Phase != "over" {
					t.Fatalf("the game did not end: phase %q", last.Table.Phase)
				}
				checkEnded(t, last, rules, 4)
				for _, u := range []Update{last} {
					if len(u.View.Hand) != 0 {
						t.Fatalf("a spectator was sent a hand: %v", u.View.Hand)
					}
				}
			})
		})
	}
}

func realMaker(name string, seat int, seed uint64) (Player, error) { return bot.New(name, seat, seed) }
