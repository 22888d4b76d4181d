package node

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/bullshit-game/bullshit/node/table"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/bot"
	"github.com/bullshit-game/bullshit/node/extbot"
)

// A player whose link drops comes back to its own seat, with everything it
// missed for its audit; the others don't hold an election over it.
func TestNetPlayerDropsAndRejoins(t *testing.T) {
	rules := engine.Standard()
	rules.Window = time.Second
	hn, tb, _ := hostTable(t, table.Settings{Name: "T", Rules: rules, Seats: 4, Bots: []string{"x"}, Timing: table.Timing{Reveal: 20 * time.Millisecond}})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	rs := seatPlayers(t, ctx, hn, 3, dumbMaker)
	tb.Start()
	played := playEach(ctx, rs, slowly(rs), "brisk", nil)
	for tb.Plays() < 4 {
		time.Sleep(10 * time.Millisecond)
	}
	// Player 1's stream dies under it.
	victim := rs[1]
	victim.do(func() { victim.link.st.Reset() })
	for i, u := range played() {
		if u.View.Phase != engine.PhaseOver {
			t.Fatalf("player %d did not see the end", i)
		}
		if u.Audit == nil || !u.Audit.Verified {
			t.Fatalf("player %d audit %+v", i, u.Audit)
		}
		if u.Table.You != i {
			t.Fatalf("player %d ended in seat %d", i, u.Table.You)
		}
	}
	for _, r := range rs {
		if r.Hosting() {
			t.Fatal("a player took over a table whose host was alive")
		}
	}
}

// adaWalksAway starts a table of Ada and two bots, with a five-second
// grace, from which Ada walks away before her first move; it is a
// spectator's session of that table, which closes with the test.
func adaWalksAway(t *testing.T) *table.LocalSession {
	t.Helper()
	tb, err := table.NewTable(table.Settings{Rules: engine.Standard(), Seats: 3, Bots: []string{"a", "b"}, Grace: 5 * time.Second, Seed: 3}, "h", dumbMaker, dumbFallback)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	_, sess, err := tb.Sit("ada", "Ada")
	if err != nil {
		t.Fatal(err)
	}
	spec, _ := tb.Watch()
	tb.Start()
	sess.Close() // Ada walks away before her first move
	return spec
}

// A person gone past the grace period is played by a bot until they are
// back, and the table never waits for them forever.
func TestTableBotCoversAwaySeat(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		spec := adaWalksAway(t)
		covered := false
		for u := range spec.Updates() {
			if u.Table.Seats[0].Covered {
				covered = true
			}
			if u.View.Phase == engine.PhaseOver {
				break
			}
		}
		if !covered {
			t.Fatal("no bot covered the away seat")
		}
	})
}

// The optional turn clock plays the fallback for a person who lets it run
// out; without it a connected person's turn waits.
func TestTableTurnClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rules := engine.Standard()
		first := 0
		_ = first
		tb, err := table.NewTable(table.Settings{Rules: rules, Seats: 2, Bots: []string{"b"}, TurnClock: 30 * time.Second, Seed: 5}, "h", dumbMaker, dumbFallback)
		if err != nil {
			t.Fatal(err)
		}
		defer tb.Close()
		_, sess, _ := tb.Sit("ada", "Ada")
		tb.Start()
		start := time.Now()
		var last table.Update
		for u := range sess.Updates() {
			last = u
			if u.View.Phase == engine.PhaseOver {
				break
			}
		}
		if last.View.Phase != engine.PhaseOver {
			t.Fatal("the game did not end with a silent player on a turn clock")
		}
		if took := time.Since(start); took < 30*time.Second {
			t.Fatalf("the game ended in %v: the clock didn't wait for the person", took)
		}
	})
}

// The host is killed at a chosen moment — a call window open, a hand-over
// under way, between plays — and the game plays on under a new host to a
// verified end, every card there.
func TestElectionKillAt(t *testing.T) {
	for _, when := range []engine.Phase{engine.PhaseCall, engine.PhaseGive, engine.PhasePlay} {
		t.Run(when.String(), func(t *testing.T) {
			rules, _ := engine.Preset("twist")
			rules.Window = 400 * time.Millisecond
			hn, tb, srv := hostTableWith(t, table.Settings{Name: "K", Rules: rules, Seats: 4, Bots: []string{"always"},
				Timing: table.Timing{Reveal: 20 * time.Millisecond}, Pace: "fast"}, realMaker)
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			rs := seatPlayers(t, ctx, hn, 3, realMaker)
			tb.Start()
			var killedNo, resumed atomic.Int64
			hard := func(i int) table.Player {
				p, _ := realMaker("hard", rs[i].Seat(), uint64(i))
				return p
			}
			played := playEach(ctx, rs, hard, "fast", func(i int, u table.Update) {
				if k := killedNo.Load(); k > 0 && int64(u.View.No) > k && len(u.Events) > 0 {
					resumed.CompareAndSwap(0, time.Now().UnixNano())
				}
				if u.Notice != "" {
					t.Logf("player %d: %q %v (play %d, %v)", i, u.Notice, u.Refusal, u.View.No, u.View.Phase)
				}
			})
			// Wait for the moment, then the host is gone.
			var killedAt int
			for {
				var ph engine.Phase
				var no int
				tb.Do(func() {
					if tb.Game != nil {
						ph, no = tb.Game.Phase(), tb.Game.Plays()
					}
				})
				if ph == when && no > 2 {
					killedAt = no
					break
				}
				if ph == engine.PhaseOver || ctx.Err() != nil {
					t.Skipf("the game ended before a %s phase came up (seeded bots)", when)
				}
				time.Sleep(time.Millisecond)
			}
			killed := time.Now()
			killedNo.Store(int64(killedAt))
			srv.Close()
			tb.Close()
			hn.h.Close()
			ends := played()
			t.Logf("killed in phase %s at play %d; game over %v later", when, killedAt, time.Since(killed).Round(time.Millisecond))
			if ns := resumed.Load(); ns > 0 {
				t.Logf("FIGURE failover: host killed to the next play under the new host: %v", time.Unix(0, ns).Sub(killed).Round(time.Millisecond))
			}
			for i, u := range ends {
				endedWhole(t, i, u)
			}
		})
	}
}

// An exec: bot in a seat of a hosted table plays its moves, slow or not,
// without stalling the table: the game ends.
func TestTableExecBotSeat(t *testing.T) {
	script, err := filepath.Abs("extbot/testdata/first.py")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed (CI installs it)")
	}
	rules := engine.Standard()
	rules.Window = time.Second
	maker := func(name string, seat int, seed uint64) (table.Player, error) {
		return extbot.Resolve(name, seat, seed)
	}
	tb, err := table.NewTable(table.Settings{Rules: rules, Seats: 3, Bots: []string{"exec:" + script, "medium", "easy"}, Timing: table.Timing{Reveal: 10 * time.Millisecond}, Pace: "fast"}, "h", maker, bot.Fallback)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	spec, _ := tb.Watch()
	if err := tb.Start(); err != nil {
		t.Fatal(err)
	}
	timeout := time.After(90 * time.Second)
	for {
		select {
		case u := <-spec.Updates():
			if u.View.Phase == engine.PhaseOver {
				return
			}
		case <-timeout:
			t.Fatal("a table with an exec: bot did not finish")
		}
	}
}

// The host counts the moves it makes for a person, a covering bot's and
// the turn clock's, and every player is sent the count: a screen that came
// late, or lost updates in a host change, can't count them itself, and a
// seat a bot played most of the game was once rated.
func TestTableCountsMovesMadeForAPerson(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		spec := adaWalksAway(t)
		own, bots := 0, 0
		var last table.Update
		for u := range spec.Updates() {
			for _, e := range u.Events {
				if e.Seat == 0 && (e.Type == engine.EventPlay || e.Type == engine.EventQuads) {
					own++
				}
				if e.Seat == 1 && e.Type == engine.EventPlay {
					bots++
				}
			}
			last = u
			if u.View.Phase == engine.PhaseOver {
				break
			}
		}
		if own <= 3 || last.Table.Seats[0].MadeFor != own {
			t.Fatalf("Ada's seat made %d plays for her; the table says %d", own, last.Table.Seats[0].MadeFor)
		}
		if bots == 0 || last.Table.Seats[1].MadeFor != 0 {
			t.Fatalf("a bot's own seat counts %d moves made for it", last.Table.Seats[1].MadeFor)
		}
		// The count rides on the wire.
		l := wireLobby(&last.Table)
		if got := engLobby(&l); got.Seats[0].MadeFor != own {
			t.Fatalf("on the wire %d moves made for Ada become %d", own, got.Seats[0].MadeFor)
		}
	})
}

// The host hands an idle person's seat to a bot (Control "bot N"): the
// game goes on without them to its end, the moves made for them counted;
// a bot's seat, the host's own, or a table not in play is refused.
func TestHostGivesASeatToABot(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tb, err := table.NewTable(table.Settings{Rules: engine.Standard(), Seats: 3, Bots: []string{"a"}, Seed: 3}, "Hal", dumbMaker, dumbFallback)
		if err != nil {
			t.Fatal(err)
		}
		defer tb.Close()
		hostSeat, host, _ := tb.Sit("local", "Hal")
		adaSeat, ada, err := tb.Sit("ada", "Ada")
		if err != nil {
			t.Fatal(err)
		}
		if err := tb.Control(fmt.Sprintf("bot %d", adaSeat+1)); !errors.Is(err, table.ErrNotPlaying) {
			t.Errorf("before the deal: %v", err)
		}
		tb.Start()
		for _, c := range []struct {
			action string
			want   error
		}{{fmt.Sprintf("bot %d", hostSeat+1), table.ErrNoPerson}, {"bot 3", table.ErrNoPerson}, {"bot x", nil}, {"bot 9", nil}} {
			if err := tb.Control(c.action); err == nil || (c.want != nil && !errors.Is(err, c.want)) {
				t.Errorf("%s: %v, want a refusal", c.action, err)
			}
		}
		if err := tb.Control(fmt.Sprintf("bot %d", adaSeat+1)); err != nil {
			t.Fatal(err)
		}
		// The host plays its seat by the fallback; Ada never moves.
		var last table.Update
		for u := range host.Updates() {
			last = u
			if u.View.Phase == engine.PhaseOver {
				break
			}
			v := u.View
			if v.Phase == engine.PhasePlay && v.Turn == hostSeat {
				if cmd, ok := dumbFallback(&v); ok {
					host.Send(cmd)
				}
			}
		}
		if last.View.Phase != engine.PhaseOver || last.Table.Seats[adaSeat].MadeFor == 0 {
			t.Fatalf("the game ended %v with %d moves made for Ada", last.View.Phase, last.Table.Seats[adaSeat].MadeFor)
		}
		ada.Close()
	})
}
