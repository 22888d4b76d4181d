package node

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/internal/nodetest"
	"github.com/bullshit-game/bullshit/node/table"
	"github.com/bullshit-game/bullshit/protocol"
)

// A blind table over loopback: the host sits and plays, players on their
// own nodes join, the bots are spread over the nodes; the game goes to
// its end and every seat sees the whole end and verifies it, from what
// its own node worked out: the host sent no view and no card.
func TestBlindGameOverTheWire(t *testing.T) {
	for _, c := range []struct {
		players, bots int
	}{{1, 0}, {2, 1}, {3, 3}} {
		t.Run("", func(t *testing.T) {
			var bots []string
			for range c.bots {
				bots = append(bots, "medium")
			}
			set := kitchen(1+c.players+c.bots, bots...)
			set.Blind = true
			hn, tb, _ := hostTable(t, set)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			_, hostSess, err := tb.Sit("local", "host")
			if err != nil {
				t.Fatal(err)
			}
			remotes := dialPlayers(t, ctx, hn, c.players)
			for _, r := range remotes {
				r.UseBots(dumbMaker, dumbFallback)
			}
			if err := tb.Start(); err != nil {
				t.Fatal(err)
			}
			sessions := []table.Session{hostSess}
			for _, r := range remotes {
				sessions = append(sessions, r)
			}
			shown := 0
			var mu sync.Mutex
			ends := playEach(ctx, sessions, func(i int) table.Player { return &nodetest.DumbBot{Seat: i} }, "fast", func(i int, u table.Update) {
				mu.Lock()
				defer mu.Unlock()
				if shown < 400 {
					shown++
					t.Logf("seat %d: phase %v no %d hand %d events %d notice %q refusal %v", i, u.View.Phase, u.View.No, len(u.View.Hand), len(u.Events), u.Notice, u.Refusal)
				}
			})()
			for i, u := range ends {
				if u.View.Phase != engine.PhaseOver || u.View.Final == nil {
					t.Fatalf("seat %d: the game did not end for it (phase %v, notice %q)", i, u.View.Phase, u.Notice)
				}
				if u.Audit == nil || !u.Audit.Verified {
					t.Fatalf("seat %d: the audit did not verify: %+v", i, u.Audit)
				}
				if !u.Table.Blind {
					t.Fatalf("seat %d: the game wasn't dealt blind", i)
				}
				total := len(u.View.Final.Pile) + len(u.View.Final.Gone)
				for _, h := range u.View.Final.Hands {
					total += len(h)
				}
				if want := 52 * set.Rules.DecksFor(len(u.Table.Seats)); total != want {
					t.Fatalf("seat %d counts %d cards at the end, want %d: %+v", i, total, want, u.View.Final)
				}
			}
			var game bool
			tb.Do(func() { game = tb.Game != nil })
			if game {
				t.Fatal("the host ran a clear game")
			}
		})
	}
}

// A node that takes no part in the deal (its deck messages never leave
// it) doesn't hold the table up: every screen names whom the deal waits
// for, then the deal goes again without it, a bot on another node in its
// seat, and the others play to the end; the quiet node watches.
func TestBlindDealWithoutASilentNode(t *testing.T) {
	set := kitchen(4, "medium")
	set.Blind = true
	set.Timing.Deal = 2 * time.Second
	hn, tb, hostSess, ctx := sittingHost(t, set, 40*time.Second)
	remotes := dialPlayers(t, ctx, hn, 2)
	for _, r := range remotes {
		r.UseBots(dumbMaker, dumbFallback)
	}
	quiet := remotes[1]
	quiet.do(func() {
		quiet.party.Close()
		quiet.party = table.NewParty(func() protocol.PeerID { return wireID(quiet.h.ID()) }, quiet.box,
			func(protocol.Message) (uint64, error) { return 0, nil }, dumbMaker, dumbFallback)
	})
	if err := tb.Start(); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var notices []string
	ends := playEach(ctx, []table.Session{hostSess, remotes[0]}, func(i int) table.Player { return &nodetest.DumbBot{Seat: i} }, "fast",
		func(i int, u table.Update) {
			mu.Lock()
			defer mu.Unlock()
			if u.Notice != "" {
				notices = append(notices, u.Notice)
			}
		})()
	for i, u := range ends {
		if u.View.Phase != engine.PhaseOver || u.Audit == nil || !u.Audit.Verified {
			t.Fatalf("seat %d: phase %v, audit %+v; notices %q", i, u.View.Phase, u.Audit, notices)
		}
	}
	saidWait, saidAgain := false, false
	for _, n := range notices {
		saidWait = saidWait || strings.Contains(n, "Shuffling… waiting for p2's node")
		saidAgain = saidAgain || strings.Contains(n, "Dealing again: p2's node didn't take part in the shuffle")
	}
	if !saidWait || !saidAgain {
		t.Fatalf("the screens weren't told whom the deal waited for and why it went again: %q", notices)
	}
	var covered bool
	tb.Do(func() { covered = tb.State(-1).Seats[2].Covered })
	if !covered {
		t.Fatal("the quiet node's seat isn't shown as a bot's")
	}
}

// A player's node goes for good mid-game: past the grace, the others
// rebuild its secret for one of them, whose bot plays the seat to the end
// (answering what was still due of it: a card to hand over, a play to
// turn up), every screen saying whose node now knows its cards; the game
// ends and the others' audits verify.
func TestBlindNodeGoneForGood(t *testing.T) {
	tb, hostSess, remotes, ctx := goneTable(t, 4, 2, 40*time.Second)
	gone := remotes[1]
	go func() {
		for tb.Plays() < 6 && ctx.Err() == nil {
			time.Sleep(5 * time.Millisecond)
		}
		gone.Close()
	}()
	go table.PlayBot(ctx, gone, &nodetest.DumbBot{Seat: 2}, dumbFallback, "fast", nil)
	var mu sync.Mutex
	var notices []string
	ends := playEach(ctx, []table.Session{hostSess, remotes[0]}, func(i int) table.Player { return &nodetest.DumbBot{Seat: i} }, "fast",
		func(i int, u table.Update) {
			mu.Lock()
			defer mu.Unlock()
			if u.Notice != "" {
				notices = append(notices, u.Notice)
			}
		})()
	for i, u := range ends {
		if u.View.Phase != engine.PhaseOver || u.Audit == nil || !u.Audit.Verified {
			t.Fatalf("seat %d: phase %v, audit %+v; notices %q", i, u.View.Phase, u.Audit, notices)
		}
	}
	said := false
	for _, n := range notices {
		said = said || strings.Contains(n, "p2 is gone: a bot on")
	}
	if !said {
		t.Fatalf("no screen said whose node took the seat over: %q", notices)
	}
	var runBy string
	tb.Do(func() { runBy = tb.State(-1).Seats[2].RunBy })
	if runBy == "" {
		t.Fatal("the seat taken over names no node that runs it")
	}
}

// Two nodes gone for good, one after the other, at a blind table: the
// first one's secret is rebuilt for a successor (TestBlindNodeGoneForGood),
// but the second's can't be, as every other party's sub-share is needed
// and the first is gone. The game is void, every screen says why, and it
// is dealt again without them, their seats bots on the nodes still there;
// that game ends and its audits verify. Before, the second takeover
// started a pool that could never complete, and the table waited on it
// for good.
func TestBlindSecondNodeGone(t *testing.T) {
	tb, hostSess, remotes, ctx := goneTable(t, 5, 3, 60*time.Second)
	var mu sync.Mutex
	var notices []string
	said := func(s string) bool {
		mu.Lock()
		defer mu.Unlock()
		return slices.ContainsFunc(notices, func(n string) bool { return strings.Contains(n, s) })
	}
	go func() {
		for tb.Plays() < 4 && ctx.Err() == nil {
			time.Sleep(5 * time.Millisecond)
		}
		remotes[1].Close()
		for !said("p2 is gone: a bot on") && ctx.Err() == nil {
			time.Sleep(5 * time.Millisecond)
		}
		remotes[2].Close()
	}()
	for i := 1; i <= 2; i++ {
		go table.PlayBot(ctx, remotes[i], &nodetest.DumbBot{Seat: i + 1}, dumbFallback, "fast", nil)
	}
	ends := playEach(ctx, []table.Session{hostSess, remotes[0]}, func(i int) table.Player { return &nodetest.DumbBot{Seat: i} }, "fast",
		func(i int, u table.Update) {
			mu.Lock()
			defer mu.Unlock()
			if u.Notice != "" && !slices.Contains(notices, u.Notice) {
				notices = append(notices, u.Notice)
			}
		})()
	const void = "Dealing again: p3 is gone, after p2: a blind game can rebuild the cards of one node that leaves, not two, so this game is void."
	if !said(void) {
		t.Fatalf("no screen said the game is void and why; notices %q", notices)
	}
	for i, u := range ends {
		if u.View.Phase != engine.PhaseOver || u.Audit == nil || !u.Audit.Verified {
			t.Fatalf("seat %d: phase %v, audit %+v; notices %q", i, u.View.Phase, u.Audit, notices)
		}
	}
	// The new game's seats of p2 and p3 are bots on the nodes still here
	// from its deal: nobody is taken over in it (the old game's clocks of
	// the seats gone once took the node that runs their bots).
	mu.Lock()
	after := notices[slices.IndexFunc(notices, func(n string) bool { return strings.HasPrefix(n, "Dealing again") }):]
	mu.Unlock()
	for _, n := range after {
		if strings.Contains(n, "is gone") && !strings.HasPrefix(n, "Dealing again") || strings.Contains(n, "kept the game waiting") {
			t.Fatalf("after the new deal: %q (notices %q)", n, notices)
		}
	}
	t.Logf("notices: %q", notices)
}

// goneTable is a started blind table of seats (the rest bots) where a
// node away 300 ms is covered and gone after 600 ms: the host's seat and
// players remote nodes, each running its bots dumbly; ctx ends after
// timeout.
func goneTable(t *testing.T, seats, players int, timeout time.Duration) (*table.Table, *table.LocalSession, []*Remote, context.Context) {
	t.Helper()
	set := kitchen(seats, "medium")
	set.Blind = true
	set.Grace = 300 * time.Millisecond
	set.Timing.Gone = 600 * time.Millisecond
	hn, tb, hostSess, ctx := sittingHost(t, set, timeout)
	remotes := dialPlayers(t, ctx, hn, players)
	for _, r := range remotes {
		r.UseBots(dumbMaker, dumbFallback)
	}
	if err := tb.Start(); err != nil {
		t.Fatal(err)
	}
	return tb, hostSess, remotes, ctx
}

// The host vanishes mid-game at a blind table: the player first in line
// takes the table over from its own record of the game (the host's log,
// which every node holds: nothing hidden is relayed, nobody is asked for
// a share), the others rejoin it, the old host's seat goes to a bot on
// the new host's node (which rebuilds its secret with the others' help),
// and the game goes on to its end, every player's audit verified.
func TestBlindHostVanishes(t *testing.T) {
	for _, at := range []int{1, 8} {
		t.Run("", func(t *testing.T) {
			set := kitchen(4, "medium")
			set.Blind, set.Pace = true, "fast"
			hn, tb, srv := hostTable(t, set)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			_, hostSess, err := tb.Sit("local", "host")
			if err != nil {
				t.Fatal(err)
			}
			remotes := seatPlayers(t, ctx, hn, 2, dumbMaker)
			if err := tb.Start(); err != nil {
				t.Fatal(err)
			}
			go table.PlayBot(ctx, hostSess, &nodetest.DumbBot{Seat: 0}, dumbFallback, "fast", nil)
			var mu sync.Mutex
			var notices []string
			done := make(chan []table.Update)
			go func() {
				done <- playEach(ctx, remotes, slowly(remotes), "fast", func(i int, u table.Update) {
					mu.Lock()
					defer mu.Unlock()
					if u.Notice != "" {
						notices = append(notices, u.Notice)
					}
				})()
			}()
			for tb.Plays() < at && ctx.Err() == nil {
				time.Sleep(5 * time.Millisecond)
			}
			tb.Close()
			hn.h.Close()
			srv.Close()
			ends := <-done
			hosting := 0
			for i, u := range ends {
				if u.View.Phase != engine.PhaseOver || u.Audit == nil || !u.Audit.Verified {
					mu.Lock()
					t.Fatalf("player %d: phase %v, audit %+v; notices %q", i, u.View.Phase, u.Audit, notices)
				}
				if remotes[i].Hosting() {
					hosting++
				}
				if u.View.No < at+4 {
					t.Fatalf("player %d: the game ended at play %d, before a round went by after the host left at %d", i, u.View.No, at)
				}
			}
			if hosting != 1 {
				t.Fatalf("%d hosts after the election", hosting)
			}
			mu.Lock()
			defer mu.Unlock()
			said := false
			for _, n := range notices {
				said = said || strings.Contains(n, "is now hosting")
			}
			if !said {
				t.Fatalf("no screen said who hosts now: %q", notices)
			}
			t.Logf("killed after %d plays; the players' notices: %q", at, notices)
		})
	}
}

// The host ends a blind game early: every node publishes its secret, the
// plays so far are revealed, and every seat's audit says the game ended
// early and verified; the host's own seat too.
func TestBlindEndedEarly(t *testing.T) {
	set := kitchen(3)
	set.Blind = true
	hn, tb, hostSess, ctx := sittingHost(t, set, 30*time.Second)
	remotes := dialPlayers(t, ctx, hn, 2)
	if err := tb.Start(); err != nil {
		t.Fatal(err)
	}
	audits := make(chan *table.AuditResult, 3)
	for i, s := range []table.Session{hostSess, remotes[0], remotes[1]} {
		go func() {
			u, _ := table.PlayBot(ctx, s, slowBot{&nodetest.DumbBot{Seat: i}}, dumbFallback, "fast", nil)
			audits <- u.Audit
		}()
	}
	for tb.Plays() < 3 && ctx.Err() == nil {
		time.Sleep(5 * time.Millisecond)
	}
	if ended, err := tb.EndEarly(); !ended || err != nil {
		t.Fatalf("EndEarly: %v, %v", ended, err)
	}
	for range 3 {
		select {
		case a := <-audits:
			if a == nil || !a.Verified || !a.Early || a.Plays < 3 {
				t.Fatalf("an audit of the game ended early: %+v", a)
			}
		case <-ctx.Done():
			t.Fatal("not every seat got its audit of the game ended early")
		}
	}
}

// A player's program stops mid-game and starts again with the same
// profile (its key, and the deck secret it kept there): it is the same
// party, its node replays the host's log, and it plays its seat to the
// end; nobody takes the seat over.
//
// The host sends the game the moment it seats the node again, and the
// node takes it whenever its program gets round to it: here a second
// later (a loaded machine). Told where its secret is after Dial returned
// (Remote.KeepDeckIn, before Setup), a node that took the game up first
// followed it as a watcher, and the table waited on its seat for good.
func TestBlindNodeRestarted(t *testing.T) {
	set := kitchen(4, "medium")
	set.Blind = true
	hn, tb, hostSess, ctx := sittingHost(t, set, 40*time.Second)
	remotes := dialPlayers(t, ctx, hn, 1)
	remotes[0].UseBots(dumbMaker, dumbFallback)
	pn := newLoopNode(t)
	setup := Setup{Bots: dumbMaker, Fall: dumbFallback, Keep: t.TempDir()}
	first, err := DialWith(ctx, pn.h, pn.key, info(hn), "again", "", false, nil, setup)
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.Start(); err != nil {
		t.Fatal(err)
	}
	go table.PlayBot(ctx, first, slowBot{&nodetest.DumbBot{Seat: 2}}, dumbFallback, "fast", nil)
	done := make(chan []table.Update, 1)
	go func() {
		done <- playEach(ctx, []table.Session{hostSess, remotes[0]}, func(i int) table.Player { return slowBot{&nodetest.DumbBot{Seat: i}} }, "fast", nil)()
	}()
	for tb.Plays() < 5 && ctx.Err() == nil {
		time.Sleep(5 * time.Millisecond)
	}
	first.Close()
	// Started first from another profile, with no secret for the game:
	// it says it can't play its seat, and follows the game.
	lost, err := DialWith(ctx, pn.h, pn.key, info(hn), "again", "", false, nil, Setup{Bots: dumbMaker, Fall: dumbFallback, Keep: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	said := waitFor(t, ctx, lost, func(u table.Update) bool { return strings.Contains(u.Notice, "can't play its seat") })
	if !strings.Contains(said.Notice, "kept no deck secret") {
		t.Errorf("a restarted node with no secret says %q", said.Notice)
	}
	lost.Close()
	again, err := DialWith(ctx, pn.h, pn.key, info(hn), "again", "", false, nil, setup)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	time.Sleep(time.Second) // the game is sent meanwhile
	var notices []string
	var mu sync.Mutex
	last, err := table.PlayBot(ctx, again, slowBot{&nodetest.DumbBot{Seat: 2}}, dumbFallback, "fast", func(u table.Update) {
		mu.Lock()
		defer mu.Unlock()
		if u.Notice != "" {
			notices = append(notices, u.Notice)
		}
	})
	if err != nil || last.View.Phase != engine.PhaseOver || last.Audit == nil || !last.Audit.Verified {
		t.Fatalf("the restarted player: %v, phase %v, audit %+v; notices %q", err, last.View.Phase, last.Audit, notices)
	}
	if len(last.View.Hand) == 0 && last.View.Final == nil {
		t.Fatal("the restarted player was shown no cards")
	}
	for _, u := range <-done {
		if u.Audit == nil || !u.Audit.Verified {
			t.Fatalf("an audit: %+v", u.Audit)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for _, n := range notices {
		if strings.Contains(n, "is gone") || strings.Contains(n, "can't") {
			t.Fatalf("the restarted player's seat: %q", notices)
		}
	}
}

// The host vanishes at every moment of a blind game's life: mid-shuffle
// and mid-deal (the deal goes again without its node, saying why), while
// a called play is being turned up, while a pile is on its way to its
// taker. Each time the players take the table over from their own record
// and the game goes on to an end every one of them verifies.
func TestBlindHostVanishesAtEveryMoment(t *testing.T) {
	moments := []struct {
		name string
		at   func(li protocol.LogInput) bool
	}{
		{"mid-shuffle", func(li protocol.LogInput) bool { return sentType(li) == protocol.TypeDeckShuffle }},
		{"mid-deal", func(li protocol.LogInput) bool { return sentType(li) == protocol.TypeDeckDeal }},
		{"a call being turned up", func(li protocol.LogInput) bool {
			m, ok := sentMove(li)
			return ok && engine.Move(m.Move) == engine.MoveCall
		}},
		{"a pile on its way", func(li protocol.LogInput) bool { return sentType(li) == protocol.TypeDeckHandover }},
	}
	for _, mo := range moments {
		t.Run(mo.name, func(t *testing.T) {
			t.Parallel()
			set := kitchen(4, "medium")
			set.Blind, set.Pace = true, "fast"
			hn, tb, srv := hostTableWith(t, set, callMaker) // bots that call every play: openings and piles at once
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			killed := make(chan struct{})
			var once sync.Once
			tb.OnLog = func(li protocol.LogInput) {
				if mo.at(li) {
					once.Do(func() {
						close(killed)
						go func() { tb.Close(); hn.h.Close(); srv.Close() }()
					})
				}
			}
			_, hostSess, err := tb.Sit("local", "host")
			if err != nil {
				t.Fatal(err)
			}
			remotes := seatPlayers(t, ctx, hn, 2, callMaker)
			if err := tb.Start(); err != nil {
				t.Fatal(err)
			}
			go table.PlayBot(ctx, hostSess, &nodetest.CallBot{Seat: 0}, dumbFallback, "fast", nil)
			var mu sync.Mutex
			var notices []string
			ends := playEach(ctx, remotes, dumbly(remotes), "fast", func(i int, u table.Update) {
				mu.Lock()
				defer mu.Unlock()
				if u.Notice != "" {
					notices = append(notices, u.Notice)
				}
			})()
			select {
			case <-killed:
			default:
				t.Fatalf("the game ended with no %s: nothing was tested", mo.name)
			}
			mu.Lock()
			defer mu.Unlock()
			for i, u := range ends {
				if u.View.Phase != engine.PhaseOver || u.Audit == nil || !u.Audit.Verified {
					t.Fatalf("player %d: phase %v, audit %+v; notices %q", i, u.View.Phase, u.Audit, notices)
				}
			}
			hosting := 0
			for _, r := range remotes {
				if r.Hosting() {
					hosting++
				}
			}
			if hosting != 1 {
				t.Fatalf("%d hosts after the host left %s", hosting, mo.name)
			}
			t.Logf("host gone %s: %q", mo.name, notices)
		})
	}
}

// sentType is the type of the party's message a log input carries (0:
// the host's own input).
func sentType(li protocol.LogInput) protocol.Type {
	if li.Env == nil {
		return 0
	}
	env, err := protocol.OpenRelayed(li.Env)
	if err != nil || env.Msg == nil {
		return 0
	}
	return env.Msg.Type()
}

// sentMove is the move a log input carries, a party's or the host's.
func sentMove(li protocol.LogInput) (protocol.BlindMove, bool) {
	if li.Move != nil {
		return *li.Move, true
	}
	if li.Env == nil {
		return protocol.BlindMove{}, false
	}
	env, err := protocol.OpenRelayed(li.Env)
	if err != nil {
		return protocol.BlindMove{}, false
	}
	m, ok := env.Msg.(protocol.BlindMove)
	return m, ok
}

// callMaker seats nodetest's CallBots.
func callMaker(name string, seat int, seed uint64) (table.Player, error) {
	return nodetest.CallMaker(name, seat, seed)
}

// One person holding two seats (two nodes: a laptop and a phone, say)
// pools everything both nodes hold mid-game: their two secrets, every
// share either was sent or saw. Together they read their own two hands
// (the pool works) and what was turned up, and no card anyone else holds
// that neither seat was shown.
func TestBlindTwoSeatsReadNoHands(t *testing.T) {
	set := kitchen(5, "medium")
	set.Blind, set.Pace = true, "fast"
	hn, tb, hostSess, ctx := sittingHost(t, set, 40*time.Second)
	remotes := seatPlayers(t, ctx, hn, 3, callMaker)
	if err := tb.Start(); err != nil {
		t.Fatal(err)
	}
	go table.PlayBot(ctx, hostSess, slowBot{&nodetest.DumbBot{Seat: 0}}, dumbFallback, "fast", nil)
	done := make(chan []table.Update, 1)
	go func() { done <- playEach(ctx, remotes, slowly(remotes), "fast", nil)() }()
	for tb.Plays() < 6 && ctx.Err() == nil {
		time.Sleep(5 * time.Millisecond)
	}
	a, b := remotes[1], remotes[2]
	pooled, legit, err := table.Pooled(a.party, b.party)
	if err != nil {
		t.Fatal(err)
	}
	var hands [][]engine.Card
	for _, r := range []*Remote{a, b} {
		pl := r.party
		hands = append(hands, pl.HandNow(r.Seat()))
	}
	mine := map[engine.Card]int{}
	for _, c := range pooled {
		mine[c]++
	}
	for k, hand := range hands {
		for _, c := range hand {
			if mine[c] == 0 {
				t.Fatalf("the pair's pool doesn't read %s, in the hand of seat %d of theirs: the pool is broken", c, []*Remote{a, b}[k].Seat())
			}
		}
	}
	read := 0
	for h, card := range pooled {
		if got, ok := legit[h]; !ok || got != card {
			read++
		}
	}
	if read > 0 {
		t.Fatalf("two nodes of four, pooled, read %d cards neither of their seats was shown (pooled %d, shown %d)", read, len(pooled), len(legit))
	}
	t.Logf("four parties, a pair pooled mid-game (play %d): it reads %d cards, each one its seats were shown or turned up for all; none of the other three's hidden cards", tb.Plays(), len(pooled))
	<-done
}

// A spectator at a blind table: its node follows the host's log with no
// secret (the public game, the cards turned up), and at the end checks
// every shuffle and audits what it was shown, as the players do.
func TestBlindSpectatorAudits(t *testing.T) {
	set := kitchen(3, "medium")
	set.Blind, set.Pace = true, "fast"
	hn, tb, hostSess, ctx := sittingHost(t, set, 40*time.Second)
	remotes := seatPlayers(t, ctx, hn, 1, callMaker)
	wn := newLoopNode(t)
	watcher, err := Dial(ctx, wn.h, wn.key, info(hn), "watcher", "", true, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer watcher.Close()
	if err := tb.Start(); err != nil {
		t.Fatal(err)
	}
	go table.PlayBot(ctx, hostSess, &nodetest.CallBot{Seat: 0}, dumbFallback, "fast", nil)
	go table.PlayBot(ctx, remotes[0], &nodetest.CallBot{Seat: 1}, dumbFallback, "fast", nil)
	var hidden int
	last, err := table.PlayBot(ctx, watcher, nil, dumbFallback, "fast", func(u table.Update) {
		hidden += len(u.View.Hand)
	})
	if err != nil || last.View.Phase != engine.PhaseOver || last.Audit == nil || !last.Audit.Verified {
		t.Fatalf("the spectator: %v, phase %v, audit %+v", err, last.View.Phase, last.Audit)
	}
	if hidden > 0 {
		t.Fatalf("the spectator was shown %d cards of a hand", hidden)
	}
}

// A node that is there but gives no recovery share holds the game up:
// once nothing has happened for waitSaid every screen names whom the game
// waits for, as the deal names whom it waits for, and once the table has
// waited on it for Timing.Held the others take its seat over, as a gone
// node's, every screen saying why, and the game goes on to its end. Here
// p2's node doesn't turn up its called plays, so the others must, and
// p1's node keeps its part of that back. Before Timing.Held the game
// waited on p1's node for good.
func TestBlindGameNamesWhomItWaitsFor(t *testing.T) {
	set := kitchen(3)
	set.Blind = true
	set.Timing.Held = 8 * time.Second
	hn, tb, hostSess, ctx := sittingHost(t, set, 90*time.Second)
	remotes := dialPlayers(t, ctx, hn, 2)
	holdBack(remotes[1], func(m protocol.Message) bool { _, ok := m.(protocol.DeckOpen); return ok })
	holdBack(remotes[0], func(m protocol.Message) bool { _, ok := m.(protocol.DeckRecover); return ok })
	if err := tb.Start(); err != nil {
		t.Fatal(err)
	}
	hostEnd := make(chan table.Update, 1)
	go func() {
		u, _ := table.PlayBot(ctx, hostSess, &nodetest.CallBot{Seat: 0}, dumbFallback, "fast", nil)
		hostEnd <- u
	}()
	said := make(chan string, 1)
	var mu sync.Mutex
	var seen []string
	plays, tookAt := 0, 0
	const took = "p1's node kept the game waiting 8 s for what only it can give: a bot on "
	ends := playEach(ctx, remotes, dumbly(remotes), "fast",
		func(i int, u table.Update) {
			mu.Lock()
			defer mu.Unlock()
			if i == 1 && u.Notice != "" {
				seen = append(seen, u.Notice)
				if strings.HasPrefix(u.Notice, took) && tookAt == 0 {
					tookAt = plays
					// p2's node turns its plays up again: the game
					// ends sooner (a recovery takes OpenBound a call).
					go holdBack(remotes[1], nil)
				}
			}
			if i == 1 && u.View.No > 0 {
				plays = u.View.No
			}
			if i == 1 && strings.HasPrefix(u.Notice, "The game waits for ") {
				select {
				case said <- u.Notice:
				default:
				}
			}
		})
	select {
	case n := <-said:
		if want := "The game waits for p1's node."; n != want {
			t.Fatalf("the screen said %q, want %q", n, want)
		}
	case <-ctx.Done():
		mu.Lock()
		defer mu.Unlock()
		var st table.TableState
		tb.Do(func() { st = tb.State(-1) })
		t.Fatalf("no screen named whom the game waits for (at play %d; notices %q; table %+v)", plays, seen, st)
	}
	end := ends()[1]
	host := <-hostEnd
	mu.Lock()
	defer mu.Unlock()
	if tookAt == 0 {
		t.Fatalf("nobody took p1's seat over (notices %q)", seen)
	}
	if end.View.Phase != engine.PhaseOver || host.View.Phase != engine.PhaseOver {
		t.Fatalf("the game didn't end after p1's seat was taken over at play %d: p2 at play %d (%v), host %v; notices %q",
			tookAt, end.View.No, ctx.Err(), host.View.Phase, seen)
	}
	for who, u := range map[string]table.Update{"p2": end, "host": host} {
		if u.Audit == nil || !u.Audit.Verified {
			t.Errorf("%s's audit of the game: %+v", who, u.Audit)
		}
	}
	t.Logf("p1's seat taken over at play %d; the game ended at play %d", tookAt, end.View.No)
}

// A node that keeps back the cards it owes a pile's taker: the game goes
// on meanwhile (the taker is shown them coming), and once the table has
// waited on that node for Timing.Held the others take its seat over; the
// node that now holds its secret hands the cards over, and the game ends,
// every audit verified. Before Timing.Held the taker was left short for
// the rest of the game.
func TestBlindHandOverHeldBack(t *testing.T) {
	// The deal is random: a game may end before a pile holding p1's
	// cards goes to another seat. Such a game tests nothing; play another.
	for game := 1; handOverHeldBack(t) == 0; game++ {
		if game == 4 {
			t.Fatal("in 4 games p1's node never owed a card to a taker: the test tested nothing")
		}
		t.Logf("game %d: p1's node owed no card to a taker; another game", game)
	}
}

// handOverHeldBack plays TestBlindHandOverHeldBack's game, and returns
// how many hand-overs p1's node kept back (0: nothing was tested).
func handOverHeldBack(t *testing.T) int {
	set := kitchen(3)
	set.Blind = true
	set.Timing.Held = time.Second
	hn, tb, hostSess, ctx := sittingHost(t, set, 90*time.Second)
	remotes := dialPlayers(t, ctx, hn, 2)
	held := 0
	holdBack(remotes[0], func(m protocol.Message) bool {
		_, ok := m.(protocol.DeckHandover)
		if ok {
			held++ // under plink.mu
		}
		return ok
	})
	if err := tb.Start(); err != nil {
		t.Fatal(err)
	}
	hostEnd := make(chan table.Update, 1)
	go func() {
		u, _ := table.PlayBot(ctx, hostSess, &nodetest.CallBot{Seat: 0}, dumbFallback, "fast", nil)
		hostEnd <- u
	}()
	var mu sync.Mutex
	var seen []string
	const took = "p1's node kept the game waiting 1 s for what only it can give: a bot on "
	// The players think a while: the game outlasts Timing.Held.
	ponder := func(i int) table.Player { return ponderBot{&nodetest.DumbBot{Seat: remotes[i].Seat()}} }
	ends := playEach(ctx, remotes, ponder, "", func(i int, u table.Update) {
		if i == 1 && u.Notice != "" {
			mu.Lock()
			seen = append(seen, u.Notice)
			mu.Unlock()
		}
	})()
	host := <-hostEnd
	mu.Lock()
	defer mu.Unlock()
	remotes[0].plink.mu.Lock()
	kept := held
	remotes[0].plink.mu.Unlock()
	if kept == 0 {
		return 0
	}
	if !slices.ContainsFunc(seen, func(n string) bool { return strings.HasPrefix(n, took) }) {
		t.Fatalf("nobody took p1's seat over (notices %q; the game ended at play %d)", seen, host.View.No)
	}
	for who, u := range map[string]table.Update{"p2": ends[1], "host": host} {
		if u.View.Phase != engine.PhaseOver || u.Audit == nil || !u.Audit.Verified {
			t.Errorf("%s: the game at play %d, phase %v, audit %+v", who, u.View.No, u.View.Phase, u.Audit)
		}
	}
	t.Logf("p1's node kept %d hand-overs back; the game ended at play %d", kept, host.View.No)
	return kept
}

// ponderBot is the dumb bot thinking 150 ms a move.
type ponderBot struct{ *nodetest.DumbBot }

func (s ponderBot) Act(v *engine.View) (engine.Command, time.Duration, bool) {
	c, think, ok := s.DumbBot.Act(v)
	return c, think + 150*time.Millisecond, ok
}

// sittingHost is a blind test's table: set hosted and served, the host's
// own seat sat, and a context that ends after timeout (or with the test).
func sittingHost(t *testing.T, set table.Settings, timeout time.Duration) (loopNode, *table.Table, *table.LocalSession, context.Context) {
	t.Helper()
	hn, tb, _ := hostTable(t, set)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancel)
	_, hostSess, err := tb.Sit("local", "host")
	if err != nil {
		t.Fatal(err)
	}
	return hn, tb, hostSess, ctx
}

// holdBack has r's node keep back what its party sends that keep says
// (nil: nothing), as a node that withholds it would.
func holdBack(r *Remote, keep func(protocol.Message) bool) {
	r.plink.mu.Lock()
	r.plink.keep = keep
	r.plink.mu.Unlock()
}
