package node

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/node/internal/nodetest"
	"github.com/bullshit-game/bullshit/node/table"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
)

// The host vanishes mid-game: the players elect the lowest peer ID among
// them, it rebuilds the game from the shares, and the game plays on to a
// verified end with every card there.
func TestElectionHostVanishes(t *testing.T) {
	set := kitchen(4, "x")
	set.Grace, set.Pace = 45*time.Second, "relaxed" // the new host keeps both (1.7)
	hn, tb, srv := hostTable(t, set)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	remotes := seatPlayers(t, ctx, hn, 3, dumbMaker)
	if err := tb.Start(); err != nil {
		t.Fatal(err)
	}
	played := playSlowly(ctx, remotes)
	// Let a few plays happen, then the host is gone: no goodbye.
	for tb.Plays() < 5 {
		time.Sleep(20 * time.Millisecond)
	}
	var mixedIn int
	tb.Do(func() { mixedIn = len(table.Mixed(tb.Nonces)) })
	if mixedIn != 4 {
		t.Fatalf("the deal mixed nonces for %d seats, want all 4 (3 players' and the bot's none)", mixedIn)
	}
	killed := time.Now()
	srv.Close()
	tb.Close()
	hn.h.Close()

	ends, notices := played()
	t.Logf("game over %v after the host was killed", time.Since(killed).Round(time.Millisecond))
	hosted := 0
	for i := range remotes {
		t.Logf("player %d notices: %q", i, notices[i])
		for _, n := range notices[i] {
			if strings.Contains(n, "is now hosting") || strings.Contains(n, "you are hosting now") {
				hosted++
				break
			}
		}
	}
	if hosted != len(remotes) {
		t.Fatalf("%d of %d players heard of a new host", hosted, len(remotes))
	}
	newHosts := 0
	for _, r := range remotes {
		var got *table.Settings
		r.do(func() {
			if r.server != nil {
				got = &r.server.tbl().Set
			}
		})
		if got == nil {
			continue
		}
		newHosts++
		if got.Grace != set.Grace || got.Pace != set.Pace {
			t.Fatalf("the new host's table has grace %v and pace %q, the old one's %v and %q", got.Grace, got.Pace, set.Grace, set.Pace)
		}
	}
	if newHosts != 1 {
		t.Fatalf("%d players host the table after the failover, want 1", newHosts)
	}
	for i, u := range ends {
		if u.View.Phase != engine.PhaseOver || u.View.Final == nil {
			t.Fatalf("player %d: the game did not end (phase %v); notices %q", i, u.View.Phase, notices[i])
		}
		endedWhole(t, i, u)
		// The new host dealt nothing anew: the game it rebuilt is the one
		// the three players' nonces went into.
		if u.Reveal == nil || mixedNonces(u.Reveal.Nonces) != 3 {
			t.Fatalf("player %d: the reveal after the failover mixed %v", i, u.Reveal)
		}
	}
}

// endedWhole fails t unless player i's last update u is a game over with
// every card there and a verified audit.
func endedWhole(t *testing.T, i int, u table.Update) {
	t.Helper()
	if u.View.Phase != engine.PhaseOver || u.View.Final == nil {
		t.Fatalf("player %d: the game did not end (phase %v)", i, u.View.Phase)
	}
	total := len(u.View.Final.Pile) + len(u.View.Final.Gone)
	for _, h := range u.View.Final.Hands {
		total += len(h)
	}
	if total != 52 {
		t.Fatalf("player %d counts %d cards, want 52", i, total)
	}
	if u.Audit == nil || !u.Audit.Verified {
		t.Fatalf("player %d: audit %+v", i, u.Audit)
	}
}

// dropHostAfter waits for the table's plays-th play, then takes the host
// away whole with no goodbye, as a crash does: its server, its table and
// its node.
func dropHostAfter(tb *table.Table, srv *Server, hn loopNode, plays int) {
	for tb.Plays() < plays {
		time.Sleep(20 * time.Millisecond)
	}
	srv.Close()
	tb.Close()
	hn.h.Close()
}

// playSlowly plays each remote's seat with a slowBot until its game ends;
// played waits for that, and is each one's last update and the notices
// it was shown.
func playSlowly(ctx context.Context, remotes []*Remote) (played func() ([]table.Update, [][]string)) {
	notices := make([][]string, len(remotes))
	wait := playEach(ctx, remotes, slowly(remotes), "brisk", func(i int, u table.Update) {
		if u.Notice != "" {
			notices[i] = append(notices[i], u.Notice)
		}
	})
	return func() ([]table.Update, [][]string) { return wait(), notices }
}

func mixedNonces(ns [][gamewire.NonceSize]byte) int {
	n := 0
	for _, x := range ns {
		if x != ([gamewire.NonceSize]byte{}) {
			n++
		}
	}
	return n
}

// slowBot waits a little before each move, so a game lasts long enough to
// lose its host mid-way.
type slowBot struct{ *nodetest.DumbBot }

func (s slowBot) Act(v *engine.View) (engine.Command, time.Duration, bool) {
	c, think, ok := s.DumbBot.Act(v)
	return c, think + 20*time.Millisecond, ok
}

// With one player node left there is no second share: the game waits for
// its host, which comes back from its journal on the same address and
// identity; the player gets its seat back and the game ends verified.
func TestHostRestartsFromJournal(t *testing.T) {
	rules := engine.Standard()
	rules.Window = time.Second
	hk := newLoopNode(t)
	dev, err := NewDevice(context.Background(), DeviceConfig{Key: hk.key, Name: "Host",
		Listen: []ma.Multiaddr{ma.StringCast("/ip4/127.0.0.1/tcp/0")}, Bots: dumbMaker, Fallback: dumbFallback})
	if err != nil {
		t.Fatal(err)
	}
	ho, err := dev.Open(table.Settings{Name: "Den", Rules: rules, Seats: 3, Bots: []string{"a", "b"}, Timing: table.Timing{Reveal: 50 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "den.journal")
	if err := ho.Keep(path); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	pn := newLoopNode(t)
	r, err := Dial(ctx, pn.h, pn.key, peer.AddrInfo{ID: dev.Host().ID(), Addrs: dev.Host().Addrs()}, "p", "", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	r.UseBots(dumbMaker, dumbFallback)
	defer r.Close()
	if err := ho.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan table.Update)
	var notices []string
	var mu sync.Mutex
	go func() {
		u, _ := table.PlayBot(ctx, r, slowBot{&nodetest.DumbBot{Seat: r.Seat()}}, dumbFallback, "brisk", func(u table.Update) {
			if testing.Verbose() {
				t.Logf("update: table %s view %v no %d notice %q refusal %v", u.Table.Phase, u.View.Phase, u.View.No, u.Notice, u.Refusal)
			}
			if u.Notice != "" {
				mu.Lock()
				notices = append(notices, u.Notice)
				mu.Unlock()
			}
		})
		done <- u
	}()
	for ho.Plays() < 4 {
		time.Sleep(10 * time.Millisecond)
	}
	listen := dev.Host().Addrs()
	ho.Close()
	dev.Close()
	time.Sleep(300 * time.Millisecond)

	// The same identity, the same address, the journal.
	dev2, err := NewDevice(context.Background(), DeviceConfig{Key: hk.key, Name: "Host", Listen: listen, Bots: dumbMaker, Fallback: dumbFallback})
	if err != nil {
		t.Fatal(err)
	}
	defer dev2.Close()
	ho2, err := dev2.Resume(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ho2.Close()
	u := <-done
	mu.Lock()
	defer mu.Unlock()
	if u.View.Phase != engine.PhaseOver {
		t.Fatalf("the game did not end after the restart; notices %q", notices)
	}
	if u.Audit == nil || !u.Audit.Verified {
		t.Fatalf("audit after a restart: %+v", u.Audit)
	}
	t.Logf("notices: %q", notices)
}

// After an election the new host's own screen deals the next game (N on
// its result sheet): its session passes the table action to the table it
// now hosts, the others are told in a sentence that only the host can, and
// the new game — a fresh deal, not one anybody can work out from the last
// game's revealed seed — plays to a verified end for every player,
// the old host's seat played by a bot.
func TestElectionNewHostDealsAgain(t *testing.T) {
	hn, tb, srv := hostTable(t, kitchen(4))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, hostSess, err := tb.Sit("local", "host")
	if err != nil {
		t.Fatal(err)
	}
	remotes := seatPlayers(t, ctx, hn, 3, dumbMaker)
	if err := tb.Start(); err != nil {
		t.Fatal(err)
	}
	go table.PlayBot(ctx, hostSess, slowBot{&nodetest.DumbBot{Seat: hostSess.Seat()}}, dumbFallback, "brisk", nil)
	play := func(sessions []table.Session) []table.Update {
		return playEach(ctx, sessions, slowly(remotes), "brisk", func(i int, u table.Update) {
			if u.Notice != "" || u.Refusal != nil {
				t.Logf("player %d: %q %v (play %d, %v)", i, u.Notice, u.Refusal, u.View.No, u.View.Phase)
			}
		})()
	}
	var first []table.Session
	for _, r := range remotes {
		first = append(first, r)
	}
	done := make(chan []table.Update)
	go func() { done <- play(first) }()
	for tb.Plays() < 4 {
		time.Sleep(10 * time.Millisecond)
	}
	// Gone at once, as a closed lid: the table first, so the dying host
	// tells nobody that a player left as its links drop.
	tb.Close()
	hn.h.Close()
	srv.Close()
	ends := <-done
	var host *Remote
	for i, r := range remotes {
		if ends[i].View.Phase != engine.PhaseOver || ends[i].Audit == nil || !ends[i].Audit.Verified {
			t.Fatalf("player %d, first game: phase %v audit %+v", i, ends[i].View.Phase, ends[i].Audit)
		}
		if r.Hosting() {
			host = r
		}
	}
	if host == nil {
		t.Fatal("nobody hosts after the election")
	}
	commit := ends[0].Table.Commit

	var next []table.Session
	for _, r := range remotes {
		if r != host {
			err := r.Control("again")
			if err == nil || err.Error() != "Only the host can deal a new game." {
				t.Errorf("a player's N: %v", err)
			}
		}
		next = append(next, fromNextDeal(r))
	}
	if err := host.Control("again"); err != nil {
		t.Fatalf("the new host's N: %v", err)
	}
	ends = play(next)
	for i, u := range ends {
		if u.View.Phase != engine.PhaseOver || u.View.Final == nil {
			t.Fatalf("player %d: the second game did not end (phase %v, turn %d, seats %+v)", i, u.View.Phase, u.View.Turn, u.Table.Seats)
		}
		if u.Table.Commit == commit {
			t.Errorf("player %d: the second game has the first game's commitment", i)
		}
		if u.Audit == nil || !u.Audit.Verified {
			t.Errorf("player %d, second game: audit %+v", i, u.Audit)
		}
	}
}

// serverOf is the server r hosts, nil if none.
func serverOf(r *Remote) *Server {
	var s *Server
	r.do(func() { s = r.server })
	return s
}

// fromNextDeal is s from the next deal on: what came before it (the end of
// the last game) is dropped.
func fromNextDeal(s table.Session) table.Session {
	ch := make(chan table.Update, 16)
	go func() {
		defer close(ch)
		dealt := false
		for u := range s.Updates() {
			if !dealt && (u.Table.Phase != "playing" || u.View.Phase == engine.PhaseOver || len(u.View.Hands) == 0) {
				continue
			}
			dealt = true
			ch <- u
		}
	}()
	return nextDeal{s, ch}
}

type nextDeal struct {
	table.Session
	ch chan table.Update
}

func (n nextDeal) Updates() <-chan table.Update { return n.ch }

// Two players who saw the table's connected flags at different moments (a
// dying host told one "Ada is away" and not the other) still agree on who
// is next in line: both put the lowest peer ID first, connected or not.
func TestCandidatesAgreeWhateverTheyLastHeard(t *testing.T) {
	ids := make([]peer.ID, 4)
	for i := range ids {
		_, pub, err := crypto.GenerateEd25519Key(nil)
		if err != nil {
			t.Fatal(err)
		}
		if ids[i], err = peer.IDFromPublicKey(pub); err != nil {
			t.Fatal(err)
		}
	}
	seats := func(away int) []table.SeatInfo {
		var out []table.SeatInfo
		for i, id := range ids {
			out = append(out, table.SeatInfo{Name: fmt.Sprint("p", i), Peer: id.String(), Connected: i != away})
		}
		return append(out, table.SeatInfo{Name: "bot", Bot: "medium", Connected: true})
	}
	old := ids[3]
	heardAll := candidates(seats(-1), old)
	for away := range 3 {
		heardAway := candidates(seats(away), old)
		if len(heardAway) != 3 || len(heardAll) != 3 {
			t.Fatalf("candidates: %d and %d, want 3 (the old host and the bot left out)", len(heardAll), len(heardAway))
		}
		for i := range heardAll {
			if heardAll[i].id != heardAway[i].id {
				t.Fatalf("seat %d shown away: line %v, but %v for a player who saw it connected", away, heardAway, heardAll)
			}
		}
	}
}

// Two or three players take over the same term at once, as on a machine
// too busy for one to reach the other in time: each would wait for the
// others' shares for ever (RebuildWait is long here). The ones later in
// line see a host ahead of them, yield and join it with their shares: one
// table, the lowest peer ID hosting, and the game ends verified for all.
func TestElectionSplitHeals(t *testing.T) {
	for _, split := range []int{2, 3} {
		t.Run(fmt.Sprint(split, " hosts"), func(t *testing.T) {
			hn, tb, srv := hostTable(t, kitchen(4, "x"))
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			var remotes []*Remote
			for range 3 {
				pn := newLoopNode(t)
				r, err := dial(ctx, pn.h, pn.key, info(hn), DefaultNick(pn.key), "", false, nil, table.Timing{RebuildWait: 10 * time.Minute},
					Setup{Bots: dumbMaker, Fall: dumbFallback}, nil)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { r.Close() })
				remotes = append(remotes, r)
			}
			sort.Slice(remotes, func(i, j int) bool { return remotes[i].h.ID() < remotes[j].h.ID() })
			if err := tb.Start(); err != nil {
				t.Fatal(err)
			}
			played := playSlowly(ctx, remotes)
			dropHostAfter(tb, srv, hn, 5)
			// The first split of them take over at once, before any
			// noticed the loss or heard of another.
			var took sync.WaitGroup
			for _, r := range remotes[:split] {
				took.Add(1)
				go func() {
					defer took.Done()
					r.do(func() {
						if r.takeover() == nil {
							t.Error("a player could not take over")
						}
					})
				}()
			}
			took.Wait()
			ends, notices := played()
			for i, r := range remotes {
				t.Logf("player %d (hosting %v): %q", i, r.Hosting(), notices[i])
				if r.Hosting() != (i == 0) {
					t.Errorf("player %d hosting: %v; only the first in line should", i, r.Hosting())
				}
				if i > 0 && i < split && !slices.ContainsFunc(notices[i], func(n string) bool { return strings.Contains(n, "ahead in line") }) {
					t.Errorf("player %d took over and was never told it yielded", i)
				}
			}
			for i, u := range ends {
				endedWhole(t, i, u)
			}
		})
	}
}
