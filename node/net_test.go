package node

import (
	"context"
	"crypto/rand"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine/bot"
	"github.com/bullshit-game/bullshit/node/guard"
	"github.com/bullshit-game/bullshit/node/internal/nodetest"
	"github.com/bullshit-game/bullshit/node/table"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/protocol"
)

type loopNode struct {
	h   host.Host
	key crypto.PrivKey
}

func newLoopNode(t testing.TB) loopNode {
	t.Helper()
	k, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHost(context.Background(), HostConfig{Key: k, Listen: []ma.Multiaddr{ma.StringCast("/ip4/127.0.0.1/tcp/0")}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return loopNode{h, k}
}

func info(n loopNode) peer.AddrInfo { return peer.AddrInfo{ID: n.h.ID(), Addrs: n.h.Addrs()} }

// kitchen is the table the game-over-the-wire tests host: seats seats,
// bots (if any) on the last of them, the standard rules with a second's
// call window and a short reveal.
func kitchen(seats int, bots ...string) table.Settings {
	rules := engine.Standard()
	rules.Window = time.Second
	return table.Settings{Name: "Kitchen", Rules: rules, Seats: seats, Bots: bots, Timing: table.Timing{Reveal: 50 * time.Millisecond}}
}

// hostTable opens a table of seats with bots on the last ones and serves it.
func hostTable(t testing.TB, set table.Settings) (loopNode, *table.Table, *Server) {
	return hostTableWith(t, set, dumbMaker)
}

// stillBot never moves: a table that waits for it stands still.
type stillBot struct{}

func (stillBot) Observe(*engine.Event) {}
func (stillBot) Act(*engine.View) (engine.Command, time.Duration, bool) {
	return engine.Command{}, 0, false
}

func stillMaker(string, int, uint64) (table.Player, error) { return stillBot{}, nil }

func hostTableWith(t testing.TB, set table.Settings, maker table.BotMaker) (loopNode, *table.Table, *Server) {
	t.Helper()
	hn := newLoopNode(t)
	tb, err := table.NewTable(set, "host", maker, dumbFallback)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tb.Close)
	srv, err := Serve(hn.h, hn.key, tb)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return hn, tb, srv
}

// Players on their own nodes join over loopback and play a whole game with
// headless bots; every one of them sees the same end, all cards there.
func TestNetPlayersPlayAWholeGame(t *testing.T) {
	for _, n := range []int{2, 4, 10} {
		t.Run("", func(t *testing.T) {
			set := kitchen(n, "x")
			hn, tb, _ := hostTable(t, set)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			remotes := dialPlayers(t, ctx, hn, n-1)
			for i, r := range remotes {
				if r.Seat() != i {
					t.Fatalf("player %d got seat %d", i, r.Seat())
				}
			}
			if err := tb.Start(); err != nil {
				t.Fatal(err)
			}
			for i, u := range playEach(ctx, remotes, dumbly(remotes), "brisk", nil)() {
				if u.View.Phase != engine.PhaseOver || u.View.Final == nil {
					t.Fatalf("player %d: the game did not end for it (phase %v)", i, u.View.Phase)
				}
				total := len(u.View.Final.Pile) + len(u.View.Final.Gone)
				for _, h := range u.View.Final.Hands {
					total += len(h)
				}
				if want := 52 * set.Rules.DecksFor(n); total != want {
					t.Fatalf("player %d counts %d cards at the end, want %d", i, total, want)
				}
				if u.Table.Name != "Kitchen" || len(u.Table.Seats) != n {
					t.Fatalf("player %d sees table %+v", i, u.Table)
				}
				if u.Audit == nil || !u.Audit.Verified {
					t.Fatalf("player %d: the audit did not verify: %+v", i, u.Audit)
				}
			}
		})
	}
}

// A shout for a play already settled is refused as too late, over the wire.
func TestNetLateShoutRefused(t *testing.T) {
	rules := engine.Standard()
	hn, tb, _ := hostTable(t, table.Settings{Rules: rules, Seats: 2})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	rs := dialPlayers(t, ctx, hn, 2)
	tb.Start()
	// Wait for the deal, then the first player plays; the other lets it go,
	// then shouts on it: too late.
	views := make([]engine.View, 2)
	next := func(i int) table.Update {
		select {
		case u := <-rs[i].Updates():
			views[i] = u.View
			return u
		case <-ctx.Done():
			t.Fatal("no update")
		}
		return table.Update{}
	}
	for len(views[0].Hand) == 0 {
		next(0)
	}
	for len(views[1].Hand) == 0 {
		next(1)
	}
	first := views[0].Turn
	other := 1 - first
	if err := rs[first].Send(engine.Command{Move: engine.MovePlay, Cards: views[first].Hand[:1], Rank: engine.NoRank}); err != nil {
		t.Fatal(err)
	}
	for views[other].No != 1 {
		next(other)
	}
	rs[other].Send(engine.Command{Move: engine.MovePass, No: 1})
	for views[other].Phase != engine.PhasePlay {
		next(other)
	}
	rs[other].Send(engine.Command{Move: engine.MoveCall, No: 1})
	for {
		u := next(other)
		if u.Refusal != nil {
			if u.Refusal.Code != engine.CodeTooLate {
				t.Fatalf("late shout refused with %s, want too_late", u.Refusal.Code)
			}
			return
		}
	}
}

// A forged or replayed envelope is refused and changes nothing; the honest
// connection goes on.
func TestNetForgedAndReplayedRefused(t *testing.T) {
	hn, tb, srv := hostTableWith(t, table.Settings{Seats: 2, Bots: []string{"b"}}, stillMaker)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	r := dialPlayer(t, ctx, hn, "p")
	tb.Start()
	u := <-r.Updates()
	_ = u
	waitDealt(t, tb) // our toss replies are done: they take sequence numbers too
	before := tb.Plays()
	var tid protocol.TableID
	r.do(func() { tid = r.tid })
	// Forge: a move signed by another key, sent on our stream.
	stranger, _, _ := crypto.GenerateEd25519Key(rand.Reader)
	forged, err := protocol.Seal(mustEd(t, stranger), tid, 1, 99, protocol.Call{No: 0, Seat: 0})
	if err != nil {
		t.Fatal(err)
	}
	// Replay: a real envelope of ours, sent twice.
	own, _, err := r.signer.Seal(tid, 1, protocol.Heartbeat{})
	if err != nil {
		t.Fatal(err)
	}
	r.do(func() { // on the Remote's goroutine, the stream's one writer
		for _, b := range [][]byte{forged, own, own} {
			if err = gamewire.WriteFrame(r.link.w, b); err != nil {
				return
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for srv.Refused.Load() < 2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := srv.Refused.Load(); got != 2 {
		t.Fatalf("refused %d envelopes, want 2 (the forgery and the replay)", got)
	}
	if tb.Plays() != before {
		t.Fatal("a refused envelope changed the game")
	}
	// The connection still works: a heartbeat round goes through.
	var err2 error
	r.do(func() { err2 = r.send(protocol.Heartbeat{}) })
	if err2 != nil {
		t.Fatal(err2)
	}
}

// A private table wants its code: a wrong one is refused, the right one
// seats; a peer that keeps guessing is stopped.
func TestNetJoinCode(t *testing.T) {
	hn, _, _ := hostTable(t, table.Settings{Seats: 3, Code: "tulip-42", Bots: []string{"b"}})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	pn := newLoopNode(t)
	_, err := Dial(ctx, pn.h, pn.key, info(hn), "p", "wrong", false, nil)
	var ref *gamewire.Refused
	if !errors.As(err, &ref) || ref.Code != protocol.CodeBadCode {
		t.Fatalf("wrong code: %v, want a bad_code refusal", err)
	}
	r, err := Dial(ctx, pn.h, pn.key, info(hn), "p", "Tulip 42", false, nil)
	if err != nil {
		t.Fatalf("right code (spelt loosely): %v", err)
	}
	r.Close()
	guesser := newLoopNode(t)
	for i := 0; i < guard.CodeTriesPerAddr; i++ {
		Dial(ctx, guesser.h, guesser.key, info(hn), "g", "nope", false, nil)
	}
	_, err = Dial(ctx, guesser.h, guesser.key, info(hn), "g", "tulip-42", false, nil)
	if !errors.As(err, &ref) || !strings.Contains(ref.Msg, "Too many") {
		t.Fatalf("after %d wrong codes the right one got %v, want a rate-limit refusal", guard.CodeTriesPerAddr, err)
	}
}

// dialPlayer seats nick, on a node of its own, at the table at hn; it
// leaves with the test.
func dialPlayer(t testing.TB, ctx context.Context, hn loopNode, nick string) *Remote {
	t.Helper()
	pn := newLoopNode(t)
	r, err := Dial(ctx, pn.h, pn.key, info(hn), nick, "", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// nickRefused tries to sit nick, on a node of its own, at the table at hn,
// and fails the test unless the host refuses the name with a reason that
// begins with says.
func nickRefused(t *testing.T, ctx context.Context, hn loopNode, nick, says string) {
	t.Helper()
	pn := newLoopNode(t)
	r, err := Dial(ctx, pn.h, pn.key, info(hn), nick, "", false, nil)
	var ref *gamewire.Refused
	if !errors.As(err, &ref) || ref.Code != protocol.CodeBadName || !strings.HasPrefix(ref.Msg, says) {
		if r != nil {
			r.Close()
		}
		t.Fatalf("nickname %.20q: got %v, want a %s refusal saying %q", nick, err, protocol.CodeBadName, says)
	}
}

// dialPlayers seats n players "p1", "p2" … at the table at hn, in order, each on its
// own node; they leave with the test.
func dialPlayers(t testing.TB, ctx context.Context, hn loopNode, n int) []*Remote {
	t.Helper()
	rs := make([]*Remote, n)
	for i := range rs {
		rs[i] = dialPlayer(t, ctx, hn, "p"+strconv.Itoa(i+1))
	}
	return rs
}

// seatPlayers is dialPlayers whose players can host should one be elected
// (with maker's bots).
func seatPlayers(t *testing.T, ctx context.Context, hn loopNode, n int, maker table.BotMaker) []*Remote {
	t.Helper()
	rs := dialPlayers(t, ctx, hn, n)
	for _, r := range rs {
		r.UseBots(maker, dumbFallback)
	}
	return rs
}

// playEach plays every session in ss to its game's end, each in a
// goroutine of its own with the bot bot(i) at pace; show, if not nil, is
// shown session i's every update. wait waits for all of them and is each
// one's last update.
func playEach[S table.Session](ctx context.Context, ss []S, bot func(i int) table.Player, pace string, show func(i int, u table.Update)) (wait func() []table.Update) {
	var wg sync.WaitGroup
	ends := make([]table.Update, len(ss))
	for i, s := range ss {
		p := bot(i)
		var sh func(table.Update)
		if show != nil {
			sh = func(u table.Update) { show(i, u) }
		}
		wg.Go(func() { ends[i], _ = table.PlayBot(ctx, s, p, dumbFallback, pace, sh) })
	}
	return func() []table.Update {
		wg.Wait()
		return ends
	}
}

// dumbly is a dumbBot for each of rs's seats, to playEach.
func dumbly(rs []*Remote) func(int) table.Player {
	return func(i int) table.Player { return &nodetest.DumbBot{Seat: rs[i].Seat()} }
}

// slowly is a slowBot for each of rs's seats, to playEach.
func slowly(rs []*Remote) func(int) table.Player {
	return func(i int) table.Player { return slowBot{&nodetest.DumbBot{Seat: rs[i].Seat()}} }
}

// dumbMaker seats the dumb bot (nodetest.DumbBot), so network tests don't
// depend on engine/bot.
func dumbMaker(_ string, seat int, _ uint64) (table.Player, error) {
	return &nodetest.DumbBot{Seat: seat}, nil
}

// dumbFallback plays the dumb bot's move for a seat out of time.
var dumbFallback = nodetest.DumbFallback

// realMaker seats engine/bot's bots.
func realMaker(name string, seat int, seed uint64) (table.Player, error) {
	return bot.New(name, seat, seed)
}

// waitDealt waits until tb has dealt (after the players' toss).
func waitDealt(t *testing.T, tb *table.Table) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		var dealt bool
		tb.Do(func() { dealt = tb.Phase == table.PhasePlaying && tb.Game != nil })
		if dealt {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("the table never dealt")
}
