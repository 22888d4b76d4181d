package table

import (
	"reflect"
	"testing"
	"testing/synctest"

	"github.com/bullshit-game/bullshit/node/internal/nodetest"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/bot"
)

// dumbMaker seats the dumb bot (nodetest.DumbBot): the simplest legal
// player, so table tests don't depend on engine/bot.
func dumbMaker(_ string, seat int, _ uint64) (Player, error) {
	return &nodetest.DumbBot{Seat: seat}, nil
}

// dumbFallback plays the dumb bot's move for a seat out of time.
var dumbFallback = nodetest.DumbFallback

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

// A seat never makes one of the host's moves (a forfeit, R10b, which a
// blind table's own record of a false opening makes; a resume of the
// clock): a clear table refuses either, whoever's seat it names, and the
// game doesn't change.
func TestSeatMakesNoHostMove(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rules, _ := engine.Preset("standard")
		tb, _ := watchedGame(t, Settings{Name: "T", Rules: rules, Seats: 3, Bots: []string{"a", "b", "c"}, Seed: 7}, stillMaker, dumbFallback)
		defer tb.Close()
		var before, after engine.View
		var errs []error
		var played error
		tb.Do(func() {
			p := tb.Game.Turn()
			hand := tb.Game.View(p).Hand
			if _, played = tb.Game.Play(tb.Now(), p, hand[:1], 1, engine.NoRank); played != nil {
				return
			}
			before = tb.Game.View(-1)
			for s := range 3 {
				errs = append(errs, tb.apply(s, engine.Command{Move: engine.MoveForfeit, Seat: p, No: 1}, nil),
					tb.apply(s, engine.Command{Move: engine.MoveResume, Seat: -1}, nil))
			}
			after = tb.Game.View(-1)
		})
		if played != nil {
			t.Fatal(played)
		}
		if len(errs) != 6 {
			t.Fatalf("%d moves tried", len(errs))
		}
		for _, err := range errs {
			if err != errHostsMove {
				t.Fatalf("a seat's host move: %v", err)
			}
		}
		if !reflect.DeepEqual(before, after) {
			t.Fatal("a refused host move changed the game")
		}
	})
}
