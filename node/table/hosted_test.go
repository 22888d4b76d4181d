package table

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/bullshit-game/bullshit/node/internal/nodetest"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/bot"
	"github.com/bullshit-game/bullshit/engine/enginetest"
)

// watchedGame makes a table of set, watches it as a spectator and starts
// its game. The caller closes the table.
func watchedGame(t *testing.T, set Settings, makeBot BotMaker, fallback func(*engine.View) (engine.Command, bool)) (*Table, *LocalSession) {
	t.Helper()
	tb, err := NewTable(set, "host", makeBot, fallback)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := tb.Watch()
	if err == nil {
		err = tb.Start()
	}
	if err != nil {
		tb.Close()
		t.Fatal(err)
	}
	return tb, spec
}

// hostToTheEnd hosts one game of bots on the table's own clock (virtual
// time) and returns the spectator's last update. It fails the test if the
// table stops moving: synctest reports a table whose every goroutine and
// timer is idle before the game ended as a deadlock.
func hostToTheEnd(t *testing.T, set Settings) Update {
	t.Helper()
	tb, spec := watchedGame(t, set, realMaker, bot.Fallback)
	defer tb.Close()
	var last Update
	// A game of bots ends by the safety net (R14) at the latest; a table
	// still playing after a virtual day has stalled.
	stall := time.After(24 * time.Hour)
	for {
		select {
		case u := <-spec.Updates():
			last = u
			if u.Table.Phase == "over" {
				return last
			}
		case <-stall:
			t.Fatalf("the hosted game stalled at play %d (phase %v, turn %d)", last.View.No, last.View.Phase, last.View.Turn)
		}
	}
}

// checkEnded: the game ended with places and every card accounted for.
func checkEnded(t *testing.T, u Update, r engine.Rules, seats int) {
	t.Helper()
	nodetest.CheckEnded(t, u.View, r, seats)
}

// Every preset is hosted to the end by the node's table with the real bots
// (the easy, medium and hard ones a player sits with), not only simulated:
// a hosted I Doubt It game once hung after its first round while every
// simulated one finished.
func TestHostedPresetsPlayToTheEnd(t *testing.T) {
	for _, preset := range engine.Presets {
		for _, seats := range []int{3, 4, 6} {
			t.Run(fmt.Sprintf("%s/%d", preset, seats), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					rules, _ := engine.Preset(preset)
					bots := []string{"medium", "hard", "easy", "medium/bold", "hard/caller", "easy"}[:seats]
					set := Settings{Name: "T", Rules: rules, Seats: seats, Bots: bots, Seed: uint64(11 + seats)}
					checkEnded(t, hostToTheEnd(t, set), rules, seats)
				})
			})
		}
	}
}

// Random mixes of rules keys, hosted to the end the same way.
func TestHostedRulesMixesPlayToTheEnd(t *testing.T) {
	rng := rand.New(rand.NewPCG(2026, 12))
	games := 24
	if testing.Short() {
		games = 8
	}
	for i := 0; i < games; {
		obj := enginetest.RandomRules(rng)
		rules, err := engine.ParseRules(obj)
		seats := 2 + rng.IntN(7)
		if err != nil || rules.Check(seats) != nil {
			continue
		}
		i++
		seed := rng.Uint64()
		t.Run(fmt.Sprintf("%d", i), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				bots := make([]string, seats)
				for s := range bots {
					bots[s] = bot.Names[(s+i)%3] // easy, medium, hard
				}
				set := Settings{Name: "T", Rules: rules, Seats: seats, Bots: bots, Seed: seed}
				t.Logf("rules %v, %d seats, seed %d", obj, seats, seed)
				checkEnded(t, hostToTheEnd(t, set), rules, seats)
			})
		})
	}
}

// A headless player (the host's own seat of `host --headless`, a joiner)
// waits out the reveal pause before its next play, as the table's own bots
// do, instead of sending it into the pause and being refused ("Wait: the
// cards are still being shown.") several times a game.
func TestPlayBotWaitsOutTheReveal(t *testing.T) {
	for _, preset := range engine.Presets {
		t.Run(preset, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				rules, _ := engine.Preset(preset)
				set := Settings{Name: "T", Rules: rules, Seats: 4, Bots: []string{"medium", "hard", "medium"}, Seed: 5, Pace: "fast"}
				tb, sess, err := Local(set, "Ada", realMaker, bot.Fallback)
				if err != nil {
					t.Fatal(err)
				}
				defer tb.Close()
				p, _ := realMaker("caller", sess.Seat(), 9)
				refused, reveals := 0, 0
				last, err := PlayBot(t.Context(), sess, p, bot.Fallback, "fast", func(u Update) {
					if u.Refusal != nil {
						refused++
						t.Logf("refused: %s", u.Refusal.Msg)
					}
					for _, e := range u.Events {
						if e.Type == "reveal" {
							reveals++
						}
					}
				})
				if err != nil {
					t.Fatal(err)
				}
				checkEnded(t, last, rules, 4)
				if reveals == 0 {
					t.Fatal("no call was made: the test shows nothing")
				}
				if refused > 0 {
					t.Fatalf("the headless player was refused %d times in a game with %d reveals", refused, reveals)
				}
			})
		})
	}
}

// A player whose link drops is "away", not gone, and the table says so
// when they come back (it once said "left the table" and nothing after).
func TestAwayAndBackNotices(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tb, err := NewTable(Settings{Name: "T", Seats: 3, Bots: []string{"medium"}, Seed: 3}, "host", realMaker, bot.Fallback)
		if err != nil {
			t.Fatal(err)
		}
		defer tb.Close()
		_, ada, err := tb.Sit("a", "Ada")
		if err != nil {
			t.Fatal(err)
		}
		_, ben, err := tb.Sit("b", "Ben")
		if err != nil {
			t.Fatal(err)
		}
		if err := tb.Start(); err != nil {
			t.Fatal(err)
		}
		// notices reads what Ada's screen is told until the table goes quiet.
		notices := func() []string {
			var got []string
			for {
				select {
				case u := <-ada.Updates():
					if u.Notice != "" {
						got = append(got, u.Notice)
					}
				case <-time.After(time.Second):
					return got
				}
			}
		}
		notices()
		ben.Close()
		away := notices()
		if len(away) != 1 || away[0] != "Ben is away; a bot takes the seat if they're not back in 30 s." {
			t.Fatalf("when Ben's link dropped Ada was told %q", away)
		}
		if _, _, err := tb.Sit("b", "Ben"); err != nil {
			t.Fatal(err)
		}
		back := notices()
		if len(back) != 1 || back[0] != "Ben is back." {
			t.Fatalf("when Ben came back Ada was told %q", back)
		}
	})
}

// A person still away when the next game is dealt ("new game with the same
// seats") is played by a bot until they're back; the new game once waited
// on their turn for ever.
func TestNextDealCoversAnAwayPlayer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tb, spec := benAway(t) // gone for good: a bot covers after the grace
		stall := time.After(24 * time.Hour)
		for games := 0; games < 2; {
			select {
			case u := <-spec.Updates():
				if u.Table.Phase == "over" && u.View.Final != nil {
					games++
					if games == 1 {
						if err := tb.Control("again"); err != nil {
							t.Fatal(err)
						}
					}
				}
			case <-stall:
				t.Fatalf("game %d stalled with Ben away", games+1)
			}
		}
	})
}

// A player whose link was down when the game ended is sent the reveal when
// they are back, and audits the game as the others did; nobody else is
// sent it again. (A player back only after the end once had no reveal and
// no audit.)
func TestBackAfterTheEndAudits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tb, spec := benAway(t) // his link drops; a bot covers after the grace
		stall := time.After(24 * time.Hour)
		for over := false; !over; {
			select {
			case u := <-spec.Updates():
				over = u.Reveal != nil
			case <-stall:
				t.Fatal("the game stalled with Ben away")
			}
		}
		_, back, err := tb.Sit("b", "Ben")
		if err != nil {
			t.Fatal(err)
		}
		var audit *AuditResult
		backlog := false
		for audit == nil {
			select {
			case u := <-back.Updates():
				backlog = backlog || u.Backlog
				if u.Reveal != nil {
					if !backlog {
						t.Fatal("the reveal came before the backlog it is audited against")
					}
					audit = u.Audit
				}
			case <-time.After(time.Minute):
				t.Fatal("Ben, back after the end, was sent no reveal")
			}
		}
		// Ben sat as a node that takes no part in the toss (Sit, not
		// SitTossing): a deal without his nonce is not verified
		// (gamewire.MustMix), and that is all his audit finds.
		if audit == nil || audit.Verified || len(audit.Problems) != 1 || !strings.Contains(audit.Problems[0], "took no part in the deal's toss") {
			t.Fatalf("Ben's audit on his return: %+v", audit)
		}
		select {
		case u := <-spec.Updates():
			if u.Reveal != nil {
				t.Fatal("the spectator was sent the reveal again when Ben came back")
			}
		case <-time.After(time.Second):
		}
	})
}

// benAway is a table of Ben and two bots, with a spectator, dealt; then
// Ben's link drops. The table closes with the test.
func benAway(t *testing.T) (*Table, *LocalSession) {
	t.Helper()
	tb, err := NewTable(Settings{Name: "T", Seats: 3, Bots: []string{"medium", "hard"}, Pace: "fast"}, "host", realMaker, bot.Fallback)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tb.Close)
	_, ben, err := tb.Sit("b", "Ben")
	if err != nil {
		t.Fatal(err)
	}
	spec, err := tb.Watch()
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.Start(); err != nil {
		t.Fatal(err)
	}
	ben.Close()
	return tb, spec
}
