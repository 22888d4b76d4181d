package mentaltable

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/bot"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/protocol"
	"github.com/bullshit-game/bullshit/protocol/mental"
)

// A playerTable is a blind table as the network plays it, in one process
// and one goroutine: a Host keeping the log (each party's input as the
// signed envelope it came in), and a Player per party node, each given
// the log as the host sends it and answering by itself; a bot plays each
// seat from its party's view. A party can restart (Keep, then Restore and
// the whole log again), its messages on their way lost with it.
type playerTable struct {
	t      testing.TB
	deal   protocol.BlindDeal
	terms  []Terms
	host   *Host
	reader *LogReader
	wire   []protocol.LogInput
	keys   []ed25519.PrivateKey
	seq    []uint64
	pl     []*Player
	given  []int // how much of the log each player was given
	bots   []bot.Player
	rands  func(int) io.Reader
	queue  []queued
	now    time.Duration
	// refused counts the messages the host refused, by party.
	refused []int
	// sent is every message each party sent, in order.
	sent [][]protocol.Message
	// chunk, if set, is how many inputs a delivery carries at most (the
	// server's BlindLog parts).
	chunk int
	// lose, if set, is asked of each message before the host takes it:
	// true loses it (the test restarts its sender there).
	lose func(q queued) bool
	// cost, if set, is each party's time in its Player's calls, and
	// longest its longest call.
	cost, longest []time.Duration
	rng           *rand.Rand // lets a call window run out now and then
}

type queued struct {
	from int
	m    protocol.Message
}

var playerTID = protocol.TableID{'k', 'e', 'e', 'p'}

// newPlayerTable is a table of seats, party i playing seat i, the seats
// past parties bots spread round them.
func newPlayerTable(t testing.TB, parties, seats int, seed uint64) *playerTable {
	t.Helper()
	r, _ := engine.Preset("standard")
	rng := rand.New(rand.NewPCG(seed, 7))
	var salt [gamewire.SaltSize]byte
	for i := range salt {
		salt[i] = byte(rng.Uint32())
	}
	nonces := make([][gamewire.NonceSize]byte, parties)
	for i := range nonces {
		nonces[i][0] = byte(i + 1)
	}
	hostSeed := rng.Uint64()
	pt := &playerTable{t: t, rands: seeded(seed), rng: rand.New(rand.NewPCG(seed, 8)), refused: make([]int, parties), sent: make([][]protocol.Message, parties),
		given: make([]int, parties), seq: make([]uint64, parties)}
	holder := make([]int, seats)
	for s := range holder {
		holder[s] = s % parties
	}
	ids := make([]protocol.PeerID, parties)
	for i := range parties {
		var ks [ed25519.SeedSize]byte
		ks[0], ks[1] = byte(i), byte(seed)
		pt.keys = append(pt.keys, ed25519.NewKeyFromSeed(ks[:]))
		ids[i], _ = protocol.PeerIDOf(pt.keys[i])
	}
	game := fmt.Appendf(nil, "game %d", seed)
	ds := gamewire.DealSeed(hostSeed, salt, nonces)
	pt.deal = protocol.BlindDeal{Game: game, HostSeed: hostSeed, Salt: salt[:], Seed: ds, Holder: holder, Parties: ids, Bots: make([]string, seats)}
	tab := &Table{Rules: r, Seats: seats, Seed: ds, Holder: slices.Clone(holder), Table: []byte(playerTID.String()), Game: game}
	if err := tab.Check(); err != nil {
		t.Fatal(err)
	}
	var err error
	if pt.host, err = NewHost(tab); err != nil {
		t.Fatal(err)
	}
	pt.reader = NewLogReader(playerTID, ids)
	for s := range seats {
		b, err := bot.New("medium", s, seed+uint64(s))
		if err != nil {
			t.Fatal(err)
		}
		pt.bots = append(pt.bots, b)
	}
	for i := range parties {
		pt.terms = append(pt.terms, Terms{Me: ids[i], Table: playerTID, Rules: r, Seats: seats,
			Commit: gamewire.Commit(hostSeed, salt), Nonces: nonces})
		p, ms, err := NewPlayer(pt.deal, pt.terms[i], pt.rands(i))
		if err != nil {
			t.Fatal(err)
		}
		pt.pl = append(pt.pl, p)
		pt.post(i, ms)
	}
	return pt
}

func (pt *playerTable) post(from int, ms []protocol.Message) {
	for _, m := range ms {
		pt.queue = append(pt.queue, queued{from, m})
	}
}

// hostTakes is the host taking one party's message, as its envelope.
func (pt *playerTable) hostTakes(q queued) {
	pt.seq[q.from]++
	raw, err := protocol.Seal(pt.keys[q.from], playerTID, 1, pt.seq[q.from], q.m)
	if err != nil {
		pt.t.Fatal(err)
	}
	pt.sent[q.from] = append(pt.sent[q.from], q.m)
	env, err := protocol.OpenRelayed(raw)
	if err != nil {
		pt.t.Fatal(err)
	}
	in, err := pt.reader.Envelope(pt.host, env, pt.now)
	if err == nil {
		_, err = pt.host.Input(in)
	}
	if err != nil {
		pt.refused[q.from]++
		pt.t.Logf("the host refuses party %d's %T: %v", q.from, q.m, err)
		return
	}
	pt.logged(raw)
}

// logged puts the host's new inputs in the log as the wire carries it
// (raw, the envelope of the last one's, if a party's).
func (pt *playerTable) logged(raw []byte) {
	for pt.host.Len() > len(pt.wire) {
		i := len(pt.wire)
		env := raw
		if i != pt.host.Len()-1 {
			env = nil
		}
		pt.wire = append(pt.wire, WireInput(pt.host.Logged(i), env))
	}
	if pt.host.B.Over() && !pt.host.finished() {
		if _, err := pt.host.Finish(); err != nil {
			pt.t.Fatal(err)
		}
		pt.logged(nil)
	}
}

// deliver gives each player the log it hasn't had, and queues its answers.
func (pt *playerTable) deliver() {
	for i, p := range pt.pl {
		for pt.given[i] < len(pt.wire) {
			end := len(pt.wire)
			if pt.chunk > 0 {
				end = min(end, pt.given[i]+pt.chunk)
			}
			t0 := time.Now()
			send, shown, err := p.Log(pt.given[i], pt.wire[pt.given[i]:end])
			if pt.cost != nil {
				d := time.Since(t0)
				pt.cost[i] += d
				pt.longest[i] = max(pt.longest[i], d)
			}
			if err != nil {
				pt.t.Fatalf("party %d: %v", i, err)
			}
			pt.given[i] = end
			for _, sh := range shown {
				e := sh.Event
				pt.bots[sh.Seat].Observe(&e)
			}
			pt.post(i, send)
		}
	}
}

// pump carries every queued message to the host, the log to every
// player, until the wire is quiet.
func (pt *playerTable) pump() {
	for {
		pt.deliver()
		if len(pt.queue) == 0 {
			return
		}
		q := pt.queue[0]
		pt.queue = pt.queue[1:]
		if pt.lose != nil && pt.lose(q) {
			continue
		}
		pt.hostTakes(q)
	}
}

// step is one action: a seat's bot's move, a timed-out hand-over's pick,
// or the clock. It reports false once every secret is in.
func (pt *playerTable) step() bool {
	pt.pump()
	if pt.host.Revealed() {
		return false
	}
	for i, p := range pt.pl {
		if m, ok := p.Pick(); ok {
			pt.post(i, []protocol.Message{m})
			return true
		}
	}
	if p := pt.pl[0]; p.Dealt() && !pt.host.B.Over() && (pt.host.B.View(-1).Phase != engine.PhaseCall || pt.rng.IntN(4) != 0) {
		for s := range pt.deal.Holder {
			pl := pt.pl[pt.deal.Holder[s]]
			v, err := pl.View(s)
			if err != nil {
				pt.t.Fatal(err)
			}
			cmd, _, ok := pt.bots[s].Act(&v)
			if !ok {
				continue
			}
			cmd.Seat = s
			m, err := pl.Move(cmd)
			if err != nil {
				continue // a bot's move the party can't name now
			}
			pt.now += 10 * time.Millisecond
			pt.post(pl.Party(), []protocol.Message{m})
			return true
		}
	}
	d, ok := pt.host.Deadline()
	if !ok {
		pt.t.Fatalf("the table waits for %v, and nothing moves", pt.host.Waiting())
	}
	pt.now = max(pt.now, d)
	pt.host.Tick(pt.now)
	pt.logged(nil)
	return true
}

// restart is party i's node restarting: its messages on their way are
// lost, and it is made again from what it kept, given the whole log.
func (pt *playerTable) restart(i int) {
	pt.t.Helper()
	kept := pt.pl[i].Keep()
	q := pt.queue[:0]
	for _, m := range pt.queue {
		if m.from != i {
			q = append(q, m)
		}
	}
	pt.queue = q
	p, err := Restore(pt.deal, pt.terms[i], kept, pt.rands(100+i))
	if err != nil {
		pt.t.Fatal(err)
	}
	pt.pl[i], pt.given[i] = p, 0
	send, _, err := p.Log(0, nil)
	if err != nil {
		pt.t.Fatal(err)
	}
	pt.post(i, send)
}

// play plays the game to its end (every secret in), calling at(k) before
// action k.
func (pt *playerTable) play(at func(k int)) {
	for k := 0; ; k++ {
		if k > 5000 {
			pt.t.Fatal("the game doesn't end")
		}
		if at != nil {
			at(k)
		}
		if !pt.step() {
			return
		}
	}
}

// playFor plays n actions (fewer if the game ends first), then carries
// what is on its way.
func (pt *playerTable) playFor(n int) {
	for k := 0; k < n && pt.step(); k++ {
	}
	pt.pump()
}

func (h *Host) finished() bool {
	return slices.ContainsFunc(h.log, func(in Input) bool { return in.What == InputFinish })
}

// verified fails the test unless every player's audit passed.
func (pt *playerTable) verified() {
	pt.t.Helper()
	for i, p := range pt.pl {
		r := p.Finish(func(i int) string { return fmt.Sprint("party ", i) })
		if r == nil {
			pt.t.Fatalf("party %d: no result (failed: %v)", i, p.Failed())
		}
		if !r.Verified() {
			pt.t.Fatalf("party %d: the audit found %v", i, r.Problems)
		}
	}
}

// A player node that restarts at any point of a blind game (its key on
// its way, its shuffle made and lost, after the deal, mid-game twice, an
// opening or its secret at the end lost) is the same party from what it
// kept: it sends nothing the host already took (no refusal), never draws
// a new shuffle (the one it made goes again, byte for byte), and every
// audit verifies at the end. The log comes in parts, as the server sends
// it.
func TestRestoreAnywhere(t *testing.T) {
	type lost struct {
		typ protocol.Type
		k   int // the k-th of party 1's messages of that type
	}
	for _, c := range []struct {
		name string
		at   []int // restart party 1 before these actions
		lose *lost // restart party 1 as this message of its is lost
	}{
		{name: "its key on its way", at: []int{-1}},
		{name: "its shuffle lost", lose: &lost{protocol.TypeDeckShuffle, 1}},
		{name: "after the deal", at: []int{1}},
		{name: "mid-game, twice", at: []int{15, 40}},
		{name: "an opening lost", lose: &lost{protocol.TypeDeckOpen, 1}},
		{name: "its secret lost at the end", lose: &lost{protocol.TypeDeckPublish, 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			pt := newPlayerTable(t, 3, 4, 11)
			pt.chunk = 5
			restarts := 0
			var made []byte // the shuffle party 1 made before it restarted
			if slices.Contains(c.at, -1) {
				pt.restart(1) // its key, from NewPlayer, never reached the host
				restarts++
			}
			if c.lose != nil {
				seen := 0
				pt.lose = func(q queued) bool {
					if q.from != 1 || q.m.Type() != c.lose.typ {
						return false
					}
					if seen++; seen != c.lose.k {
						return false
					}
					if s, ok := q.m.(protocol.DeckShuffle); ok {
						made = s.Step
					}
					pt.restart(1)
					restarts++
					return true
				}
			}
			pt.play(func(k int) {
				if slices.Contains(c.at, k) {
					pt.restart(1)
					restarts++
				}
			})
			if restarts == 0 || !pt.pl[1].Restored() {
				t.Fatal("party 1 never restarted")
			}
			for i, n := range pt.refused {
				if n != 0 {
					t.Fatalf("the host refused %d of party %d's messages", n, i)
				}
			}
			var shuffles [][]byte
			for _, m := range pt.sent[1] {
				if s, ok := m.(protocol.DeckShuffle); ok {
					shuffles = append(shuffles, s.Step)
				}
			}
			if len(shuffles) != 1 || made != nil && !bytes.Equal(shuffles[0], made) {
				t.Fatalf("party 1 sent %d shuffles (the one it made before its restart: %v)", len(shuffles), made != nil)
			}
			pt.verified()
		})
	}
}

// A host that resends another log after a restart than the one the node
// took (here a tick a nanosecond later, which the game itself takes
// alike) is caught at the count the node kept, and nothing after it is
// taken.
func TestRestoreRewrittenLog(t *testing.T) {
	pt := newPlayerTable(t, 3, 3, 5)
	pt.playFor(30)
	// Party 1's node as it stands 30 actions in, kept: an input of the
	// log before its last answer, rewritten (its time moved), is caught.
	acked := pt.pl[1].keep.ackAt
	if acked < 1 || acked >= len(pt.wire) {
		t.Fatalf("party 1 last answered at input %d of %d: nothing to rewrite on either side", acked, len(pt.wire))
	}
	p, err := Restore(pt.deal, pt.terms[1], pt.pl[1].Keep(), pt.rands(9))
	if err != nil {
		t.Fatal(err)
	}
	log := slices.Clone(pt.wire)
	log[acked-1].AtNS++
	if _, _, err := p.Log(0, log); !errors.Is(err, ErrRewritten) {
		t.Fatalf("a rewritten log: %v, want ErrRewritten", err)
	}
	// One rewritten after it is a new host's log that lost what a host
	// that failed sent last: taken, the node sending again from there.
	r, err := Restore(pt.deal, pt.terms[1], pt.pl[1].Keep(), pt.rands(11))
	if err != nil {
		t.Fatal(err)
	}
	lost := slices.Clone(pt.wire)
	lost[len(lost)-1].AtNS++
	if _, _, err := r.Log(0, lost); err != nil || r.Replaying() || !r.keep.rolled {
		t.Fatalf("a log that lost an input after the last answer: %v, replaying %v, rolled %v", err, r.Replaying(), r.keep.rolled)
	}
	if p.Taken() != acked-1 || p.Finish(nil) != nil {
		t.Fatalf("took %d of %d (the rewrite is input %d), and a result", p.Taken(), len(log), acked-1)
	}
	// The same log as it was replays to where party 1 was,
	q, err := Restore(pt.deal, pt.terms[1], pt.pl[1].Keep(), pt.rands(10))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := q.Log(0, pt.wire); err != nil {
		t.Fatal(err)
	}
	// and plays on to an end it verifies, in party 1's place.
	pt.pl[1], pt.given[1] = q, len(pt.wire)
	pt.play(nil)
	pt.verified()
}

// A node started again that took more of a failed host's log than the
// new host has (the old host sent its last inputs to it alone) is given
// the new host's whole log, shorter than its own and the same as far as
// it goes, and the empty part after it that says it ends there. Past its
// last answer, it goes on from there, sending again what it owes there;
// it used to go on replaying, waiting for inputs the host was waiting on
// it to make (a phone after a failover, in CI: "The game waits for Ana's
// node."). A log that ends before its last answer it still waits on.
func TestRestoredGoesOnFromAShorterLog(t *testing.T) {
	pt := newPlayerTable(t, 3, 3, 5)
	pt.playFor(30)
	acked := pt.pl[1].keep.ackAt
	if acked < 2 || acked >= pt.pl[1].Taken() {
		t.Fatalf("party 1 last answered at input %d of %d: no input after it to lose", acked, pt.pl[1].Taken())
	}
	r, err := Restore(pt.deal, pt.terms[1], pt.pl[1].Keep(), pt.rands(12))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.Log(0, pt.wire[:acked]); err != nil || !r.Replaying() {
		t.Fatalf("the new host's log, before its end is said: %v, replaying %v", err, r.Replaying())
	}
	send, _, err := r.Log(acked, nil)
	if err != nil || r.Replaying() || !r.keep.rolled {
		t.Fatalf("the new host's log, its end said at input %d (the node took %d): %v, replaying %v, rolled %v",
			acked, pt.pl[1].Taken(), err, r.Replaying(), r.keep.rolled)
	}
	if len(send) == 0 {
		t.Fatal("the node sends nothing of what it owes at the new host's log's end")
	}
	// Before its last answer, the end of a log is no end it takes.
	w, err := Restore(pt.deal, pt.terms[1], pt.pl[1].Keep(), pt.rands(13))
	if err != nil {
		t.Fatal(err)
	}
	w.Log(0, pt.wire[:acked-1])
	if _, _, err := w.Log(acked-1, nil); err != nil || !w.Replaying() {
		t.Fatalf("a log that ends before the node's last answer: %v, replaying %v", err, w.Replaying())
	}
}

// A node that lost its secret (a new Player for a party whose key the
// log already holds) says so, rather than that the host's log is wrong,
// and sends nothing.
func TestLostSecret(t *testing.T) {
	pt := newPlayerTable(t, 3, 3, 6)
	pt.playFor(3)
	p, _, err := NewPlayer(pt.deal, pt.terms[2], pt.rands(50))
	if err != nil {
		t.Fatal(err)
	}
	send, _, err := p.Log(0, pt.wire)
	if !errors.Is(err, ErrLostSecret) || len(send) != 0 {
		t.Fatalf("a node without its secret: %v, sending %d", err, len(send))
	}
}

// What Keep wrote and only that restores: another game's, another
// party's, or damaged bytes are refused, never a panic.
func TestRestoreRefuses(t *testing.T) {
	pt := newPlayerTable(t, 2, 2, 8)
	pt.pump()
	kept := pt.pl[0].Keep()
	if _, err := Restore(pt.deal, pt.terms[1], kept, pt.rands(3)); err == nil {
		t.Fatal("party 0's secret restored party 1")
	}
	other := pt.deal
	other.Game = []byte("another game")
	if _, err := Restore(other, pt.terms[0], kept, pt.rands(3)); err == nil {
		t.Fatal("a game's secret restored another game")
	}
	for n := range len(kept) {
		if _, err := Restore(pt.deal, pt.terms[0], kept[:n], pt.rands(3)); err == nil {
			t.Fatalf("kept bytes cut at %d restored", n)
		}
	}
	if _, err := Restore(pt.deal, pt.terms[0], kept, pt.rands(3)); err != nil {
		t.Fatal(err)
	}
}

func sameKey(a, b *mental.Secret) bool {
	ka, kb := a.Public(), b.Public()
	return ka.Equal(&kb)
}

// FuzzKept decodes kept bytes, encodes them again and decodes that: the
// same, and never a panic.
func FuzzKept(f *testing.F) {
	pt := newPlayerTable(f, 2, 2, 8)
	pt.pump()
	f.Add(pt.pl[0].Keep())
	f.Add([]byte(keptMagic))
	f.Fuzz(func(t *testing.T, b []byte) {
		k, err := readKept(b)
		if err != nil {
			return
		}
		again, err := readKept(k.append(nil))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(again.game, k.game) || again.party != k.party || again.taken != k.taken || again.sum != k.sum ||
			!bytes.Equal(again.shuf, k.shuf) || !bytes.Equal(again.step, k.step) || !sameKey(&again.x, &k.x) {
			t.Fatal("kept bytes don't read back the same")
		}
	})
}

// A node that plays on through a failover (no restart) and took inputs
// the new host's log hasn't (the old host's last, sent to it alone) goes
// on from the new host's log if it parts from its own after the node's
// last answer, made again as it stood there (rollTo); before that answer
// the new log is refused as not the one it took.
func TestRollToNewHostsLog(t *testing.T) {
	pt := newPlayerTable(t, 3, 3, 5)
	pt.playFor(30)
	acked := pt.pl[1].keep.ackAt
	if acked < 1 || acked >= len(pt.wire) {
		t.Fatalf("party 1 last answered at input %d of %d: nothing to part on either side", acked, len(pt.wire))
	}
	live := func(seed int) *Player {
		p, err := Restore(pt.deal, pt.terms[1], pt.pl[1].Keep(), pt.rands(seed))
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := p.Log(0, pt.wire); err != nil || p.Replaying() {
			t.Fatalf("the log it took: %v, replaying %v", err, p.Replaying())
		}
		return p
	}
	p := live(21)
	lost := slices.Clone(pt.wire)
	lost[len(lost)-1].AtNS++
	if _, _, err := p.Log(0, lost); err != nil || !p.keep.rolled || p.Replaying() || p.Taken() != len(lost) {
		t.Fatalf("a new host's log that parts after the last answer: %v, rolled %v, replaying %v, took %d of %d",
			err, p.keep.rolled, p.Replaying(), p.Taken(), len(lost))
	}
	q := live(22)
	rewritten := slices.Clone(pt.wire)
	rewritten[acked-1].AtNS++
	if _, _, err := q.Log(0, rewritten); !errors.Is(err, ErrDiverged) {
		t.Fatalf("a log that parts before the last answer: %v, want ErrDiverged", err)
	}
}

// A node restarted after the deal (as a phone that follows the table to a
// new host reloads its page) answers every ask of the game as it did
// before: here the cards of a silent player's called play that the
// player took in a pile, which the party each was dealt to turns up
// (AskShow). A restored node sends only what the log shows is still owed
// of it, and that check once knew of no such ask: the node kept the card
// back and the table waited on it for good (TestE2EBrowserHostKilled,
// under load).
func TestRestoredTurnsUpWhatItWasDealt(t *testing.T) {
	shown := 0
	for _, seed := range []uint64{1, 2, 3, 4, 5, 6, 7, 8} {
		pt := newPlayerTable(t, 3, 3, seed)
		for k := 0; !pt.pl[0].Dealt() && k < 1000; k++ {
			pt.step()
		}
		pt.restart(0)
		pt.restart(1)
		pt.lose = func(q queued) bool {
			o, ok := q.m.(protocol.DeckOpen)
			if !ok || o.No == 0 {
				return false
			}
			if q.from == 2 {
				return true // party 2 turns up none of its plays
			}
			if last := pt.host.B.View(-1).Last; last != nil && last.No == o.No && pt.deal.Holder[last.Seat] == 2 {
				shown++
			}
			return false
		}
		pt.play(nil)
		pt.verified()
	}
	if shown == 0 {
		t.Fatal("no silent play held a card a restored party was dealt: nothing was tested")
	}
	t.Logf("%d cards of party 2's silent plays turned up by the restored parties they were dealt to", shown)
}
