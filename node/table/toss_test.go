package table

import (
	"encoding/hex"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/journal"
)

// waitDealt waits until tb has dealt (after the players' toss).
func waitDealt(t *testing.T, tb *Table) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		var dealt bool
		tb.Do(func() { dealt = tb.Phase == PhasePlaying && tb.toss == nil })
		if dealt {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("the table never dealt")
}

// The mixing against fixed vectors: what any other implementation must
// give (the browser's is this same code, compiled to wasm).
func TestTossVectors(t *testing.T) {
	var salt [gamewire.SaltSize]byte
	for i := range salt {
		salt[i] = byte(i)
	}
	var round [32]byte
	round[0] = 0xaa
	n1 := [gamewire.NonceSize]byte{1}
	n3 := [gamewire.NonceSize]byte{3, 3, 3}
	h := gamewire.NonceHash(round, 1, n1)
	if got := hex.EncodeToString(h[:]); got != nonceHashVector {
		t.Errorf("gamewire.NonceHash(aa…, 1, 01…) = %s, want %s", got, nonceHashVector)
	}
	cases := []struct {
		name   string
		nonces [][gamewire.NonceSize]byte
		want   uint64
	}{
		{"no nonce: the host's seed", nil, 42},
		{"only zeros: the host's seed", make([][gamewire.NonceSize]byte, 4), 42},
		{"seat 1", [][gamewire.NonceSize]byte{{}, n1, {}, {}}, dealVector1},
		{"seats 1 and 3", [][gamewire.NonceSize]byte{{}, n1, {}, n3}, dealVector13},
		{"the same nonce at seat 0", [][gamewire.NonceSize]byte{n1, {}, {}, {}}, dealVector0},
	}
	for _, c := range cases {
		if got := gamewire.DealSeed(42, salt, c.nonces); got != c.want {
			t.Errorf("%s: DealSeed = %#x, want %#x", c.name, got, c.want)
		}
	}
	// Every part counts: the host's seed, its salt, each nonce.
	base := gamewire.DealSeed(42, salt, [][gamewire.NonceSize]byte{{}, n1, {}, {}})
	salt2 := salt
	salt2[31] ^= 1
	n1b := n1
	n1b[31] = 1
	for name, s := range map[string]uint64{
		"another seed":  gamewire.DealSeed(43, salt, [][gamewire.NonceSize]byte{{}, n1, {}, {}}),
		"another salt":  gamewire.DealSeed(42, salt2, [][gamewire.NonceSize]byte{{}, n1, {}, {}}),
		"another nonce": gamewire.DealSeed(42, salt, [][gamewire.NonceSize]byte{{}, n1b, {}, {}}),
	} {
		if s == base {
			t.Errorf("%s deals the same", name)
		}
	}
}

const (
	nonceHashVector = "7190e33c071d315d36d61858e0949afec15ad24b504b6133fe1dc787592e468a"
	dealVector1     = 0x49a372302bf5295f
	dealVector13    = 0x43e305e5c9e6ab25
	dealVector0     = 0x0a7b6bc50b02dbbd
)

// tossTable is a 3-seat table with two tossing players (seats 0 and 1)
// and a bot; it has asked both for commitments.
func tossTable(t *testing.T, wait time.Duration) (*Table, [2]*LocalSession, [32]byte) {
	t.Helper()
	tb, err := NewTable(Settings{Seats: 3, Bots: []string{"b"}, Timing: Timing{Toss: wait}}, "host", stillMaker, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tb.Close)
	var ss [2]*LocalSession
	for i, who := range []string{"peerA", "peerB"} {
		if _, ss[i], err = tb.SitTossing(who, who); err != nil {
			t.Fatal(err)
		}
	}
	if err := tb.Start(); err != nil {
		t.Fatal(err)
	}
	var round [32]byte
	for i := range ss {
		a := nextToss(t, ss[i])
		if len(a.Commits) != 0 {
			t.Fatalf("seat %d: the first ask carries commitments", i)
		}
		round = a.Round
	}
	return tb, ss, round
}

// nextToss is the next toss ask s gets, skipping other updates.
func nextToss(t *testing.T, s *LocalSession) *TossAsk {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case u := <-s.Updates():
			if u.Toss != nil {
				return u.Toss
			}
		case <-timeout:
			t.Fatal("no toss ask")
		}
	}
}

// The toss between honest players: the deal is DealSeed of the host's
// seed and both nonces, every seat's lobby carries them, and the seat's
// audit of the toss finds nothing.
func TestTossDealsFromEveryNonce(t *testing.T) {
	tb, ss, round := tossTable(t, time.Minute)
	nonces := [2][gamewire.NonceSize]byte{{0xa}, {0xb}}
	for i := range ss {
		h := gamewire.NonceHash(round, i, nonces[i])
		if err := tb.Nonce(i, round, &h, nil); err != nil {
			t.Fatalf("seat %d's commitment: %v", i, err)
		}
	}
	for i := range ss {
		a := nextToss(t, ss[i])
		if len(a.Commits) != 3 || a.Commits[i] != gamewire.NonceHash(round, i, nonces[i]) || a.Commits[2] != ([32]byte{}) {
			t.Fatalf("seat %d was relayed %x", i, a.Commits)
		}
	}
	for i := range ss {
		n := nonces[i]
		if err := tb.Nonce(i, round, nil, &n); err != nil {
			t.Fatalf("seat %d's nonce: %v", i, err)
		}
	}
	waitDealt(t, tb)
	var seed uint64
	var salt [gamewire.SaltSize]byte
	var st TableState
	var hand []engine.Card
	tb.Do(func() { seed, salt, st, hand = tb.Seed, tb.salt, tb.State(0), tb.Game.View(0).Hand })
	if st.Commit != round || gamewire.Commit(seed, salt) != round {
		t.Fatal("the deal's commitment is not the one the toss was bound to")
	}
	want := [][gamewire.NonceSize]byte{nonces[0], nonces[1], {}}
	if len(st.Nonces) != 3 || st.Nonces[0] != want[0] || st.Nonces[1] != want[1] || st.Nonces[2] != want[2] {
		t.Fatalf("the lobby carries nonces %x", st.Nonces)
	}
	g, _, err := engine.New(engine.Config{Rules: engine.Standard(), Seats: 3, Seed: gamewire.DealSeed(seed, salt, want)})
	if err != nil {
		t.Fatal(err)
	}
	if got := g.View(0).Hand; !sameCards(got, hand) {
		t.Fatalf("seat 0 holds %v, a deal from the mixed seed gives %v", hand, got)
	}
	if gamewire.DealSeed(seed, salt, want) == seed {
		t.Fatal("the nonces changed nothing")
	}
	own := journal.Toss{Round: round, Commits: [][32]byte{gamewire.NonceHash(round, 0, nonces[0]), gamewire.NonceHash(round, 1, nonces[1]), {}},
		Nonces: st.Nonces, Mine: nonces[0], Revealed: true}
	if p := tossProblems(round, own); len(p) != 0 {
		t.Fatalf("an honest toss audits with %q", p)
	}
}

// A player who changes its nonce after seeing the others' commitments is
// refused, and so are a commitment after the relay and a nonce twice.
func TestTossRefusesChangedNonce(t *testing.T) {
	tb, ss, round := tossTable(t, time.Minute)
	n0, n1 := [gamewire.NonceSize]byte{1}, [gamewire.NonceSize]byte{2}
	h0, h1 := gamewire.NonceHash(round, 0, n0), gamewire.NonceHash(round, 1, n1)
	if err := tb.Nonce(0, round, &h0, nil); err != nil {
		t.Fatal(err)
	}
	if err := tb.Nonce(0, round, &h1, nil); !errors.Is(err, ErrNoToss) {
		t.Fatalf("a second commitment: %v, want ErrNoToss", err)
	}
	if err := tb.Nonce(1, round, &h1, nil); err != nil {
		t.Fatal(err)
	}
	nextToss(t, ss[0])
	late := gamewire.NonceHash(round, 0, n1)
	if err := tb.Nonce(0, round, &late, nil); !errors.Is(err, ErrNoToss) {
		t.Fatalf("a commitment after the relay: %v, want ErrNoToss", err)
	}
	changed := [gamewire.NonceSize]byte{9}
	if err := tb.Nonce(0, round, nil, &changed); !errors.Is(err, gamewire.ErrNonceMismatch) {
		t.Fatalf("a changed nonce: %v, want gamewire.ErrNonceMismatch", err)
	}
	if err := tb.Nonce(0, [32]byte{1}, nil, &n0); !errors.Is(err, ErrNoToss) {
		t.Fatalf("a nonce for another round: %v, want ErrNoToss", err)
	}
	if err := tb.Nonce(2, round, nil, &n0); !errors.Is(err, ErrNoToss) {
		t.Fatalf("a nonce for the bot's seat: %v, want ErrNoToss", err)
	}
	if err := tb.Nonce(0, round, nil, &n0); err != nil {
		t.Fatal(err)
	}
	if err := tb.Nonce(0, round, nil, &n0); !errors.Is(err, ErrNoToss) {
		t.Fatalf("a nonce twice: %v, want ErrNoToss", err)
	}
	var dealing bool
	tb.Do(func() { dealing = tb.toss != nil && tb.Game == nil })
	if !dealing {
		t.Fatal("the table dealt before seat 1's nonce or its wait")
	}
}

// A player who never reveals: after the bounded wait the deal goes ahead
// without its nonce, the notice names it, and audits note it as the host's
// word, not a fault.
func TestTossGoesOnWithoutALatePlayer(t *testing.T) {
	tb, ss, round := tossTable(t, 30*time.Millisecond)
	n0, n1 := [gamewire.NonceSize]byte{1}, [gamewire.NonceSize]byte{2}
	h0, h1 := gamewire.NonceHash(round, 0, n0), gamewire.NonceHash(round, 1, n1)
	tb.Nonce(0, round, &h0, nil)
	tb.Nonce(1, round, &h1, nil)
	nextToss(t, ss[0])
	if err := tb.Nonce(0, round, nil, &n0); err != nil {
		t.Fatal(err)
	}
	// Seat 1 never reveals.
	waitDealt(t, tb)
	var st TableState
	var seed uint64
	var salt [gamewire.SaltSize]byte
	tb.Do(func() { st, seed, salt = tb.State(0), tb.Seed, tb.salt })
	if len(st.Nonces) != 3 || st.Nonces[0] != n0 || st.Nonces[1] != ([gamewire.NonceSize]byte{}) {
		t.Fatalf("dealt with nonces %x, want seat 0's alone", st.Nonces)
	}
	var notice string
	for notice == "" {
		select {
		case u := <-ss[0].Updates():
			notice = u.Notice
		case <-time.After(10 * time.Second):
			t.Fatal("no notice of the deal")
		}
	}
	if !strings.Contains(notice, "without peerB's nonce") {
		t.Fatalf("notice %q doesn't say whose nonce was missing", notice)
	}
	_ = seed
	_ = salt
	seat0 := journal.Toss{Round: round, Commits: [][32]byte{h0, h1, {}}, Nonces: st.Nonces, Mine: n0, Revealed: true}
	if p := tossProblems(round, seat0); len(p) != 0 {
		t.Fatalf("seat 0's audit: %q", p)
	}
	g := journal.SavedGame{Seat: 0, Commitment: round, Config: engine.Config{Rules: engine.Standard(), Seats: 3, Seed: seed}, Salt: salt, Toss: seat0}
	if n := strings.Join(journal.GameNotes(g), " "); !strings.Contains(n, "seat 2 committed to a nonce the deal didn't use") {
		t.Fatalf("notes %q don't say seat 2's nonce was left out", n)
	}
}

// A host that ignores a nonce, or swaps one, is caught by the audit of the
// seat it cheated and by every seat that saw the commitments.
func TestTossAuditCatchesHost(t *testing.T) {
	var round [32]byte
	round[5] = 7
	n0, n1 := [gamewire.NonceSize]byte{1}, [gamewire.NonceSize]byte{2}
	commits := [][32]byte{gamewire.NonceHash(round, 0, n0), gamewire.NonceHash(round, 1, n1), {}}
	cases := []struct {
		name string
		toss journal.Toss
		a    string
	}{
		{"seat 1's nonce left out, seen by seat 1", journal.Toss{Round: round, Commits: commits, Nonces: [][gamewire.NonceSize]byte{n0, {}, {}}, Mine: n1, Revealed: true},
			"dealt without the nonce this seat revealed"},
		{"seat 1's nonce swapped, seen by seat 0", journal.Toss{Round: round, Commits: commits, Nonces: [][gamewire.NonceSize]byte{n0, {9}, {}}, Mine: n0, Revealed: true},
			"seat 2's nonce doesn't match"},
		{"a nonce for the bot's seat", journal.Toss{Round: round, Commits: commits, Nonces: [][gamewire.NonceSize]byte{n0, n1, {3}}, Mine: n0, Revealed: true},
			"seat 3's nonce doesn't match"},
		{"another commitment at the deal", journal.Toss{Round: [32]byte{1}, Commits: commits, Nonces: [][gamewire.NonceSize]byte{n0, n1, {}}, Mine: n0, Revealed: true},
			"commitment changed"},
		{"too few nonces", journal.Toss{Round: round, Commits: commits, Nonces: [][gamewire.NonceSize]byte{n0}, Mine: n0, Revealed: true},
			"one for each seat"},
	}
	for _, c := range cases {
		p := strings.Join(tossProblems(round, c.toss), " ")
		if !strings.Contains(p, c.a) {
			t.Errorf("%s: problems %q, want %q", c.name, p, c.a)
		}
	}
	// And in a whole saved game: the replay from the host's seed alone
	// (as if it ignored every nonce) doesn't match what the seat was shown.
	var salt [gamewire.SaltSize]byte
	cfg := engine.Config{Rules: engine.Standard(), Seats: 3, Seed: 77}
	commit := gamewire.Commit(77, salt)
	honest := [][gamewire.NonceSize]byte{n0, n1, {}}
	dealt := cfg
	dealt.Seed = gamewire.DealSeed(77, salt, honest)
	_, events, err := engine.New(dealt)
	if err != nil {
		t.Fatal(err)
	}
	var got []engine.Event
	for _, e := range events {
		if e.VisibleTo(0) {
			got = append(got, e)
		}
	}
	tossed := journal.Toss{Round: commit, Commits: [][32]byte{gamewire.NonceHash(commit, 0, n0), gamewire.NonceHash(commit, 1, n1), {}}, Mine: n0, Revealed: true}
	good := journal.SavedGame{Seat: 0, Config: cfg, Salt: salt, Commitment: commit, Toss: tossed, Events: got}
	good.Toss.Nonces = honest
	if p := journal.VerifyGame(good); hasToss(p) {
		t.Fatalf("the honest game's toss: %q", p)
	}
	bad := good
	bad.Toss.Nonces = nil // the host says no nonce came
	if p := journal.VerifyGame(bad); len(p) == 0 {
		t.Fatal("a host that dealt from its seed alone passed the audit")
	}
}

func tossProblems(commit [32]byte, tt journal.Toss) []string {
	p, _ := journal.Verify(journal.SavedGame{Seat: 0, Commitment: commit, Config: engine.Config{Rules: engine.Standard(), Seats: 3}, Toss: tt})
	var out []string
	for _, s := range p {
		if strings.Contains(s, "nonce") || strings.Contains(s, "commitment changed") || strings.Contains(s, "one for each seat") || strings.Contains(s, "commitments") {
			out = append(out, s)
		}
	}
	return out
}

func hasToss(p []string) bool {
	for _, s := range p {
		if strings.Contains(s, "nonce") {
			return true
		}
	}
	return false
}

func sameCards(a, b []engine.Card) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A seat whose commitment doesn't come in time is named and asked again,
// in a new toss with a new salt, rather than dealt around; one that never
// answers, TossTries tosses over, is dealt around, the notice naming it and
// saying the game won't verify. Every later audit then says so.
func TestTossAsksALateSeatAgain(t *testing.T) {
	tb, ss, round := tossTable(t, 30*time.Millisecond)
	h0 := gamewire.NonceHash(round, 0, [gamewire.NonceSize]byte{1})
	if err := tb.Nonce(0, round, &h0, nil); err != nil {
		t.Fatal(err)
	}
	// Seat 1 sends nothing: the toss runs again, and again; seat 0 plays
	// its part in each.
	rounds := map[[32]byte]bool{round: true}
	var notices []string
	for !slices.ContainsFunc(notices, func(n string) bool { return strings.Contains(n, "Dealt without") }) {
		select {
		case u := <-ss[0].Updates():
			if u.Notice != "" && !slices.Contains(notices, u.Notice) {
				notices = append(notices, u.Notice)
			}
			if a := u.Toss; a != nil && len(a.Commits) == 0 && !rounds[a.Round] {
				rounds[a.Round] = true
				h := gamewire.NonceHash(a.Round, 0, [gamewire.NonceSize]byte{1})
				tb.Nonce(0, a.Round, &h, nil)
			} else if a != nil && len(a.Commits) > 0 {
				n := [gamewire.NonceSize]byte{1}
				tb.Nonce(0, a.Round, nil, &n)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%d tosses; notices %q", len(rounds), notices)
		}
	}
	if len(rounds) != TossTries {
		t.Errorf("%d tosses, want %d", len(rounds), TossTries)
	}
	if !strings.Contains(notices[0], "Dealing again: peerB didn't send a part of the toss in time (try 2 of 3)") {
		t.Fatalf("notices %q: want the late seat named", notices)
	}
	notice := notices[len(notices)-1]
	if !strings.Contains(notice, "Dealt without peerB's nonce: no answer to the toss, 3 tries over") || !strings.Contains(notice, "won't verify") {
		t.Fatalf("notice %q: want the staller named, and the game said not to verify", notice)
	}
	waitDealt(t, tb)
	var st TableState
	tb.Do(func() { st = tb.State(0) })
	// peerB's own audit and the spectator's both fail for it.
	own := journal.Toss{Round: st.Commit, Nonces: st.Nonces, Players: MustMix(st.Seats, "", 1)}
	p, _ := checkTossOf(st.Commit, 1, own)
	if !strings.Contains(strings.Join(p, " "), "this seat's nonce wasn't part of the deal") {
		t.Fatalf("peerB's audit: %q", p)
	}
	spec := journal.Toss{Nonces: st.Nonces, Players: MustMix(st.Seats, "", -1)}
	if p, _ := checkTossOf(st.Commit, -1, spec); !strings.Contains(strings.Join(p, " "), "peerB (seat 2)") {
		t.Fatalf("the spectator's audit: %q", p)
	}
}

// checkTossOf is the toss's part of seat's audit of a 3-seat game.
func checkTossOf(commit [32]byte, seat int, tt journal.Toss) ([]string, []string) {
	return journal.Verify(journal.SavedGame{Seat: seat, Commitment: commit, Config: engine.Config{Rules: engine.Standard(), Seats: 3}, Toss: tt})
}

// stillBot never moves: a table that waits for it stands still.
type stillBot struct{}

func (stillBot) Observe(*engine.Event) {}
func (stillBot) Act(*engine.View) (engine.Command, time.Duration, bool) {
	return engine.Command{}, 0, false
}

func stillMaker(string, int, uint64) (Player, error) { return stillBot{}, nil }
