package node

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/node/table"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/journal"
)

// watchTable is a 3-seat table over loopback: two players on their own
// nodes (they take part in the toss) and a bot of maker's in seat 2.
func watchTable(t *testing.T, maker table.BotMaker) (loopNode, *table.Table, []*Remote, context.Context) {
	t.Helper()
	rules := engine.Standard()
	rules.Window = 200 * time.Millisecond
	hn, tb, _ := hostTableWith(t, table.Settings{Name: "Kitchen", Rules: rules, Seats: 3, Bots: []string{"x"},
		Timing: table.Timing{Reveal: 20 * time.Millisecond}}, maker)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return hn, tb, dialPlayers(t, ctx, hn, 2), ctx
}

// A spectator who comes in mid-game is sent the public record so far, and
// at the end audits the whole game from the reveal: the seed against the
// commitment, the players' nonces against the commitments published with
// the deal, and the replay against every public event it holds. A reveal
// or a record that was tampered with fails it, for the right reason.
func TestWatcherAuditsTheGame(t *testing.T) {
	hn, tb, rs, ctx := watchTable(t, dumbMaker)
	if err := tb.Start(); err != nil {
		t.Fatal(err)
	}
	played := playEach(ctx, rs, dumbly(rs), "fast", nil)
	for tb.Plays() < 2 && ctx.Err() == nil {
		time.Sleep(5 * time.Millisecond)
	}
	wn := newLoopNode(t)
	w, err := Dial(ctx, wn.h, wn.key, info(hn), "w", "", true, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	end, _ := table.PlayBot(ctx, w, nil, nil, "fast", nil)
	for i, u := range played() {
		if u.Audit == nil || !u.Audit.Verified {
			t.Fatalf("player %d: %+v", i, u.Audit)
		}
	}
	if end.View.Phase != engine.PhaseOver || end.Audit == nil || end.Reveal == nil {
		t.Fatalf("the watcher saw no end with a reveal: phase %v, audit %+v", end.View.Phase, end.Audit)
	}
	if !end.Audit.Verified || end.Audit.Early || end.Audit.String() != "deal verified" {
		t.Fatalf("the watcher's audit: %+v (%s)", end.Audit, end.Audit)
	}
	var (
		got           []engine.Event
		round, commit [32]byte
		commits       [][32]byte
	)
	w.do(func() {
		got = append([]engine.Event(nil), w.rec.Got...)
		round, commits, commit = w.watched.round, w.watched.commits, w.table.Commit
	})
	if len(got) == 0 || got[0].Type != engine.EventDeal {
		t.Fatalf("the watcher came in at play %d but its record doesn't start at the deal: %d events", 2, len(got))
	}
	for _, e := range got {
		if !e.Public() {
			t.Fatalf("the watcher was sent a private event: %+v", e)
		}
	}
	if round != commit || len(commits) != 3 || mixedNonces(end.Reveal.Nonces) != 2 {
		t.Fatalf("the watcher holds no toss to check: round ok %v, %d commitments, %d nonces", round == commit, len(commits), mixedNonces(end.Reveal.Nonces))
	}

	// The same audit, with one thing changed each time.
	base := func() journal.SavedGame {
		return journal.SavedGame{Seat: -1, Config: end.Reveal.Config, Salt: end.Reveal.Salt, Commitment: commit,
			Toss:  journal.Toss{Round: round, Commits: commits, Nonces: append([][gamewire.NonceSize]byte(nil), end.Reveal.Nonces...)},
			Steps: append([]engine.Step(nil), end.Reveal.Steps...), Events: got}
	}
	if a := table.AuditOf(base()); !a.Verified {
		t.Fatalf("the untouched record fails: %v", a.Problems)
	}
	swapped := base()
	for i, n := range swapped.Toss.Nonces {
		if n != ([gamewire.NonceSize]byte{}) {
			swapped.Toss.Nonces[i][0] ^= 1
			break
		}
	}
	seed := base()
	seed.Config.Seed++
	lied := base()
	lied.Events = append([]engine.Event(nil), got...)
	for i := range lied.Events {
		if lied.Events[i].Type == engine.EventPlay {
			lied.Events[i].Claim++
			break
		}
	}
	for name, c := range map[string]struct {
		g    journal.SavedGame
		want string
	}{
		"a nonce swapped after its commitment": {swapped, "doesn't match the commitment"},
		"another seed than committed":          {seed, "the deal is not the one promised"},
		"a claim the replay doesn't make":      {lied, "play"},
	} {
		a := table.AuditOf(c.g)
		if a.Verified || !strings.Contains(strings.Join(a.Problems, " | "), c.want) {
			t.Errorf("%s: verified %v, problems %q; want one with %q", name, a.Verified, a.Problems, c.want)
		}
	}
}

// A game the host ends early still reveals its deal: every player and
// spectator, remote or on the host's machine, audits the plays so far and
// says so ("ended early after N plays; deal verified").
func TestEndedEarlyRevealsAndAudits(t *testing.T) {
	hn, tb, rs, ctx := watchTable(t, stillMaker) // the bot never moves: the game can't end by itself
	wn := newLoopNode(t)
	w, err := Dial(ctx, wn.h, wn.key, info(hn), "w", "", true, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	local, err := tb.Watch()
	if err != nil {
		t.Fatal(err)
	}
	defer local.Close()
	if err := tb.Start(); err != nil {
		t.Fatal(err)
	}
	played := playEach(ctx, rs, dumbly(rs), "fast", nil)
	// Until the table stands still at the bot's turn.
	for ctx.Err() == nil {
		var stands bool
		tb.Do(func() {
			if tb.Game != nil {
				v := tb.Game.View(-1)
				_, open := tb.Game.Deadline()
				stands = v.Turn == 2 && !open && tb.Now() >= tb.PausedTill
			}
		})
		if stands {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	plays := tb.Plays()
	if err := tb.Control("end"); err != nil {
		t.Fatal(err)
	}
	ends := played()
	seen := map[string]table.Update{"player 1": ends[0], "player 2": ends[1]}
	seen["remote watcher"], _ = table.PlayBot(ctx, w, nil, nil, "fast", nil)
	seen["the host's watcher"], _ = table.PlayBot(ctx, local, nil, nil, "fast", nil)
	want := fmt.Sprintf("ended early after %d plays; deal verified", plays)
	for who, u := range seen {
		if u.Audit == nil {
			t.Errorf("%s: no audit of the game ended early", who)
			continue
		}
		if !u.Audit.Verified || !u.Audit.Early || u.Audit.Plays != plays || u.Audit.String() != want {
			t.Errorf("%s: %q (problems %v), want %q", who, u.Audit, u.Audit.Problems, want)
		}
	}
}

// The host's own screen is told the join code it chose and who watches,
// by name, as spectators come and go; no other seat is told either.
func TestHostSeesCodeAndWatchers(t *testing.T) {
	tb, err := table.NewTable(table.Settings{Rules: engine.Standard(), Seats: 3, Bots: []string{"a"}, Code: "774829"}, "Hal", dumbMaker, dumbFallback)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	_, host, err := tb.Sit("local", "Hal")
	if err != nil {
		t.Fatal(err)
	}
	_, ada, err := tb.Sit("ada", "Ada")
	if err != nil {
		t.Fatal(err)
	}
	latest := func(s *table.LocalSession, ok func(table.TableState) bool) table.TableState {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for {
			select {
			case u := <-s.Updates():
				if ok(u.Table) {
					return u.Table
				}
			case <-deadline:
				t.Fatal("no such update")
			}
		}
	}
	cleo, err := tb.WatchAs("Cleo")
	if err != nil {
		t.Fatal(err)
	}
	ts := latest(host, func(ts table.TableState) bool { return len(ts.Watchers) == 1 })
	if ts.Code != "774829" || ts.Watchers[0] != "Cleo" {
		t.Fatalf("the host's screen: code %q, watchers %q", ts.Code, ts.Watchers)
	}
	cleo.Close()
	latest(host, func(ts table.TableState) bool { return len(ts.Watchers) == 0 })
	for _, s := range []*table.LocalSession{ada} {
		for len(s.Updates()) > 0 {
			if u := <-s.Updates(); u.Table.Code != "" || u.Table.Watchers != nil {
				t.Fatalf("a player is told the code %q or the watchers %q", u.Table.Code, u.Table.Watchers)
			}
		}
	}
	ada.Close()
}
