package node

import (
	"context"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/node/internal/nodetest"
	"github.com/bullshit-game/bullshit/node/table"

	"github.com/bullshit-game/bullshit/engine"
)

// checkEvening holds an evening against the games that made it: each
// game's places (a seat's key from the seats as shown then) and winner.
func checkEvening(t *testing.T, who string, e table.Evening, games []table.Update) {
	t.Helper()
	if e.Games != len(games) {
		t.Fatalf("%s: the evening counts %d games, %d were played: %+v", who, e.Games, len(games), e)
	}
	want := table.Evening{}
	for _, u := range games {
		w := -1
		if u.View.Winner != nil {
			w = *u.View.Winner
		}
		if !want.Add(u.Table.Commit, u.Table.Seats, u.View.Places, w) {
			t.Fatalf("%s: a game did not count: %+v", who, u.Table)
		}
	}
	total := 0
	for _, l := range e.Lines {
		total += l.Halves
		w := want.Line(l.Key)
		if w == nil {
			t.Fatalf("%s: a line for %q, who didn't play: %+v", who, l.Key, e)
		}
		if l.Games != w.Games || l.Wins != w.Wins || l.Halves != w.Halves || len(l.Places) != len(w.Places) {
			t.Errorf("%s: %s's line %+v, want %+v", who, l.Key, l, *w)
		}
		for i := range l.Places {
			if l.Places[i] != w.Places[i] {
				t.Errorf("%s: %s's places %v, want %v", who, l.Key, l.Places, w.Places)
			}
		}
	}
	if len(e.Lines) != len(want.Lines) {
		t.Errorf("%s: %d lines, want %d", who, len(e.Lines), len(want.Lines))
	}
	// Every game hands out 0 + 1 + … + (n−1) points, ties or not.
	n := 0
	for _, u := range games {
		k := len(u.Table.Seats)
		n += k * (k - 1)
	}
	if total != n {
		t.Errorf("%s: %d halves handed out, want %d", who, total, n)
	}
}

// A table plays two games at the same seats: the evening the players see
// at the end of each counts it once, with every seat's games, wins, places
// and points; the second game's sheet carries the first.
func TestEveningTwoGames(t *testing.T) {
	rules := engine.Standard()
	rules.Window = 300 * time.Millisecond
	tb, err := table.NewTable(table.Settings{Name: "Kitchen", Rules: rules, Seats: 4, Timing: table.Timing{Reveal: 10 * time.Millisecond}}, "Ada", dumbMaker, dumbFallback)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	_, sess, err := tb.Sit("local", "Ada")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := tb.Start(); err != nil {
		t.Fatal(err)
	}
	first, err := table.PlayBot(ctx, sess, &nodetest.DumbBot{Seat: sess.Seat()}, dumbFallback, "brisk", nil)
	if err != nil || first.View.Phase != engine.PhaseOver {
		t.Fatalf("the first game: %v, phase %v", err, first.View.Phase)
	}
	checkEvening(t, "after one game", first.Table.Evening, []table.Update{first})

	next := fromNextDeal(sess)
	if err := tb.Control("again"); err != nil {
		t.Fatal(err)
	}
	second, err := table.PlayBot(ctx, next, &nodetest.DumbBot{Seat: sess.Seat()}, dumbFallback, "brisk", nil)
	if err != nil || second.View.Phase != engine.PhaseOver {
		t.Fatalf("the second game: %v, phase %v", err, second.View.Phase)
	}
	if second.Table.Commit == first.Table.Commit {
		t.Fatal("one commitment for two games")
	}
	checkEvening(t, "after two games", second.Table.Evening, []table.Update{first, second})
	// A spectator who comes in now is shown the evening too.
	spec, err := tb.Watch()
	if err != nil {
		t.Fatal(err)
	}
	if u := <-spec.Updates(); u.Table.Evening.Games != 2 {
		t.Fatalf("a spectator's evening: %+v", u.Table.Evening)
	}
}

// The evening rides with the table's state: a host vanishes in the middle
// of the second game, a player is elected and finishes it, and the
// evening every player sees at its end is both games — the first counted
// by the old host, the second by the new one.
func TestEveningAcrossAHostChange(t *testing.T) {
	hn, tb, srv := hostTable(t, kitchen(4))
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	_, hostSess, err := tb.Sit("local", "host")
	if err != nil {
		t.Fatal(err)
	}
	remotes := seatPlayers(t, ctx, hn, 3, dumbMaker)
	play := func(sessions []table.Session) []table.Update {
		return playEach(ctx, sessions, slowly(remotes), "brisk", nil)()
	}
	// The first game, whole, at the first host.
	if err := tb.Start(); err != nil {
		t.Fatal(err)
	}
	hostDone := make(chan table.Update, 1)
	go func() {
		u, _ := table.PlayBot(ctx, hostSess, &nodetest.DumbBot{Seat: hostSess.Seat()}, dumbFallback, "brisk", nil)
		hostDone <- u
	}()
	var sessions []table.Session
	for _, r := range remotes {
		sessions = append(sessions, r)
	}
	ends := play(sessions)
	<-hostDone
	for i, u := range ends {
		if u.View.Phase != engine.PhaseOver {
			t.Fatalf("player %d, first game: phase %v", i, u.View.Phase)
		}
		checkEvening(t, "first game", u.Table.Evening, []table.Update{u})
	}
	firstGame := ends[0]

	// The second: the host deals, and is gone a few plays in.
	sessions = nil
	for _, r := range remotes {
		sessions = append(sessions, fromNextDeal(r))
	}
	go table.PlayBot(ctx, fromNextDeal(hostSess), slowBot{&nodetest.DumbBot{Seat: hostSess.Seat()}}, dumbFallback, "brisk", nil)
	if err := tb.Control("again"); err != nil {
		t.Fatal(err)
	}
	done := make(chan []table.Update)
	go func() { done <- play(sessions) }()
	// The deal waits on the players' toss: until it comes, Plays still
	// counts the first game.
	for tb.Plays() >= 4 {
		time.Sleep(10 * time.Millisecond)
	}
	for tb.Plays() < 4 {
		time.Sleep(10 * time.Millisecond)
	}
	tb.Close()
	hn.h.Close()
	srv.Close()
	ends = <-done
	hosting := 0
	for i, r := range remotes {
		u := ends[i]
		if u.View.Phase != engine.PhaseOver || u.Table.Commit == firstGame.Table.Commit {
			t.Fatalf("player %d: the second game did not end (phase %v)", i, u.View.Phase)
		}
		if r.Hosting() {
			hosting++
		}
		checkEvening(t, "after the host change", u.Table.Evening, []table.Update{firstGame, u})
		// The players' own lines carry the first game.
		me := u.Table.Evening.Line(table.SeatKey(u.Table.You, u.Table.Seats[u.Table.You]))
		if me == nil || me.Games != 2 {
			t.Errorf("player %d's line: %+v", i, me)
		}
	}
	if hosting != 1 {
		t.Fatalf("%d hosts after the election", hosting)
	}
}
