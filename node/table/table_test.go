package table

import (
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
