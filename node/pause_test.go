package node

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/bullshit-game/bullshit/node/table"
	"github.com/bullshit-game/bullshit/protocol"

	"github.com/bullshit-game/bullshit/engine"
)

// The host's pause: the table's time stands still (the call window keeps
// what it had left, no bot moves, no turn clock runs out, an away
// person's grace waits), every move is refused with the sentence, every
// seat hears it is paused; going on, the game goes on from where it stood.
// Before the deal there is nothing to pause.
func TestPauseFreezesTheTable(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rules := engine.Standard()
		tb, err := table.NewTable(table.Settings{Name: "T", Rules: rules, Seats: 3, Bots: []string{"", "b", "c"}, TurnClock: 5 * time.Second, Seed: 3}, "h", dumbMaker, dumbFallback)
		if err != nil {
			t.Fatal(err)
		}
		defer tb.Close()
		_, ana, err := tb.Sit("ana", "Ana")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tb.Pause(); err == nil || protocol.Sentence(err) != table.ErrNoPauseText {
			t.Fatalf("a pause before the deal: %v", err)
		}
		if err := tb.Start(); err != nil {
			t.Fatal(err)
		}
		// Into a call window.
		var left time.Duration
		for range 10000 {
			var ok bool
			tb.Do(func() {
				var d time.Duration
				if d, ok = tb.Game.Deadline(); ok {
					left = d - tb.Now()
				}
			})
			if ok && left > 100*time.Millisecond {
				break
			}
			time.Sleep(time.Millisecond)
		}
		if err := tb.Control("pause"); err != nil {
			t.Fatalf("pause: %v", err)
		}
		synctest.Wait()
		plays, clock := tb.Plays(), time.Duration(0)
		tb.Do(func() { clock = tb.Now() })
		var seen table.Update
		for len(ana.Updates()) > 0 {
			seen = <-ana.Updates()
		}
		if !seen.Table.Paused || seen.Notice != table.NewsPaused {
			t.Fatalf("Ana's last update: paused %v, notice %q", seen.Table.Paused, seen.Notice)
		}
		time.Sleep(10 * time.Minute) // far past every clock
		synctest.Wait()
		var stillLeft time.Duration
		tb.Do(func() {
			d, _ := tb.Game.Deadline()
			stillLeft = d - tb.Now()
		})
		if tb.Plays() != plays || stillLeft != left {
			t.Fatalf("paused 10 minutes: plays %d → %d, the window's time left %v → %v", plays, tb.Plays(), left, stillLeft)
		}
		tb.Do(func() {
			if tb.Now() != clock {
				t.Errorf("the table's time ran while paused: %v → %v", clock, tb.Now())
			}
		})
		for _, mv := range []engine.Command{{Move: engine.MoveCall, Rank: engine.NoRank}, {Move: engine.MovePass, Rank: engine.NoRank}} {
			if err := tb.Move(0, mv); err == nil || err.Error() != table.PausedText {
				t.Errorf("Ana's %v while paused: %v, want %q", mv.Move, err, table.PausedText)
			}
		}
		if tb.Plays() != plays {
			t.Fatalf("a move was taken while paused")
		}
		// Ana leaves while paused: no bot takes her seat while it lasts.
		ana.Close()
		time.Sleep(10 * time.Minute)
		synctest.Wait()
		covered := false
		tb.Do(func() { covered = tb.Seats[0].Covered })
		if covered {
			t.Fatal("a bot covered Ana while the game was paused")
		}
		// Going on: the window has what it had left, and the game moves.
		paused, err := tb.Pause()
		if err != nil || paused {
			t.Fatalf("going on: %v, %v", paused, err)
		}
		tb.Do(func() {
			d, _ := tb.Game.Deadline()
			if got := d - tb.Now(); got != left {
				t.Errorf("going on, the window has %v left, want %v", got, left)
			}
			if tb.State(-1).Paused {
				t.Error("the table says it is paused after going on")
			}
		})
		time.Sleep(2 * time.Minute)
		synctest.Wait()
		if tb.Plays() <= plays {
			t.Fatalf("after going on the game stood at play %d", tb.Plays())
		}
		tb.Do(func() { covered = tb.Seats[0].Covered || tb.Phase == table.PhaseOver })
		if !covered {
			t.Error("Ana, away, was never covered after the game went on")
		}
	})
}

// Over loopback: a player's node hears the pause (Lobby.Paused) and that
// it is over, and its move while paused is refused with the sentence.
func TestNetPauseHeard(t *testing.T) {
	hn, tb, _ := hostTableWith(t, table.Settings{Name: "Kitchen", Rules: engine.Standard(), Seats: 2, Bots: []string{"still"}}, stillMaker)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r := dialPlayer(t, ctx, hn, "Ana")
	defer r.Close()
	if err := tb.Start(); err != nil {
		t.Fatal(err)
	}
	u := waitFor(t, ctx, r, func(u table.Update) bool { return u.Table.Phase == table.PhasePlaying && len(u.View.Hand) > 0 })
	if _, err := tb.Pause(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, r, func(u table.Update) bool { return u.Table.Paused })
	// Ana calls, or plays on her turn: refused either way.
	cmd := engine.Command{Move: engine.MoveCall, Rank: engine.NoRank}
	if u.View.Turn == r.Seat() {
		cmd = engine.Command{Move: engine.MovePlay, Cards: u.View.Hand[:1], Rank: u.View.Rank}
	}
	r.Send(cmd)
	ref := waitFor(t, ctx, r, func(u table.Update) bool { return u.Refusal != nil })
	if ref.Refusal.Msg != table.PausedText {
		t.Errorf("a move while paused: %q, want %q", ref.Refusal.Msg, table.PausedText)
	}
	if _, err := tb.Pause(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, r, func(u table.Update) bool { return !u.Table.Paused && u.Notice == table.NewsGoesOn })
}
