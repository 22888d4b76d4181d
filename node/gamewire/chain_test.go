package gamewire

import (
	"crypto/ed25519"
	"strings"
	"testing"

	"github.com/bullshit-game/bullshit/protocol"
)

// A host of one term: its key, its peer ID, and the chain it signs.
type testHost struct {
	key  ed25519.PrivateKey
	id   protocol.PeerID
	term uint64
}

func newTestHost(t *testing.T, seed byte, term uint64) testHost {
	k := ed25519.NewKeyFromSeed(make32(seed))
	id, err := protocol.PeerIDOf(k)
	if err != nil {
		t.Fatal(err)
	}
	return testHost{k, id, term}
}

func make32(b byte) []byte {
	s := make([]byte, 32)
	for i := range s {
		s[i] = b
	}
	return s
}

var (
	testTID    = protocol.TableID{1, 2, 3}
	testCommit = [32]byte{9, 9, 9}
)

// signed is steps with every step signed by the host of its term.
func signedSteps(steps []protocol.Step, hosts map[uint64]testHost) []protocol.Step {
	out := append([]protocol.Step(nil), steps...)
	h := testCommit
	for i := range out {
		out[i].Sig = nil
		h = ChainNext(h, out[i])
		out[i].Sig = SignStep(hosts[out[i].Term].key, testTID, out[i].Term, i, h)
	}
	return out
}

func step(at int64, seat int, term uint64) protocol.Step {
	return protocol.Step{AtNS: at, Move: 2, Seat: seat, Rank: protocol.NoRank, Term: term}
}

// The honest failover: the old host (term 1) sent steps 0..4 to us, but
// the new host (term 2) got only 0..3 and played its own step 4. Its
// backlog is a signed start of ours plus its own term: taken, one step
// rolled back, no doubt. The same backlog from the old host's term, or
// one that rewrites a step of the prefix, is refused and our record
// stands.
func TestJournalRollback(t *testing.T) {
	h1, h2 := newTestHost(t, 1, 1), newTestHost(t, 2, 2)
	hosts := map[uint64]testHost{1: h1, 2: h2}
	var old []protocol.Step
	for i := range 5 {
		old = append(old, step(int64(i), i%4, 1))
	}
	old = signedSteps(old, hosts)
	newer := signedSteps(append(append([]protocol.Step(nil), old[:4]...), step(10, 3, 2)), hosts)

	fresh := func() *Journal {
		var j Journal
		j.Take(testTID, testCommit, h1.id, 1, old[:2], false)
		j.Take(testTID, testCommit, h1.id, 1, old[2:], false)
		if len(j.Steps) != 5 || len(j.Doubt) != 0 {
			t.Fatalf("the old host's steps: %d kept, doubt %q", len(j.Steps), j.Doubt)
		}
		return &j
	}

	j := fresh()
	if n := j.Take(testTID, testCommit, h2.id, 2, newer, true); n != 1 || len(j.Doubt) != 0 || len(j.Steps) != 5 || j.Steps[4].Term != 2 {
		t.Fatalf("honest rollback: rolled %d, doubt %q, %d steps", n, j.Doubt, len(j.Steps))
	}
	if !strings.Contains(j.RollNote(), "rolled back 1 steps the new host never got") {
		t.Errorf("note %q", j.RollNote())
	}

	// No new step yet: the backlog is only the signed start.
	j = fresh()
	if n := j.Take(testTID, testCommit, h2.id, 2, old[:4], true); n != 1 || len(j.Doubt) != 0 || len(j.Steps) != 4 {
		t.Fatalf("bare rollback: rolled %d, doubt %q, %d steps", n, j.Doubt, len(j.Steps))
	}

	// The same host shortening what it sent us: refused.
	j = fresh()
	if n := j.Take(testTID, testCommit, h1.id, 1, old[:4], true); n != 0 || len(j.Doubt) == 0 || len(j.Steps) != 5 {
		t.Fatalf("same term rollback: rolled %d, doubt %q, %d steps", n, j.Doubt, len(j.Steps))
	}

	// A new host rewriting a step of the old term (signing it in its own
	// name): refused, ours stands.
	bad := append([]protocol.Step(nil), newer...)
	bad[2].Seat, bad[2].Term = 3, 2
	bad = signedSteps(bad, hosts)
	j = fresh()
	if n := j.Take(testTID, testCommit, h2.id, 2, bad, true); n != 0 || len(j.Doubt) == 0 || j.Steps[2].Seat != old[2].Seat {
		t.Fatalf("rewrite: rolled %d, doubt %q", n, j.Doubt)
	}

	// A step added in the old host's name, unsigned or signed by another
	// key: never kept.
	j = fresh()
	forged := step(20, 1, 1)
	j.Take(testTID, testCommit, h1.id, 1, []protocol.Step{forged}, false)
	if len(j.Steps) != 5 || len(j.Doubt) == 0 {
		t.Fatalf("unsigned forged step: %d steps, doubt %q", len(j.Steps), j.Doubt)
	}
	all := signedSteps(append(append([]protocol.Step(nil), old...), forged), map[uint64]testHost{1: h2})
	if n, err := VerifyChain(testTID, testCommit, all, func(uint64) ed25519.PublicKey { return h1.key.Public().(ed25519.PublicKey) }); n != 0 || err == nil {
		t.Fatalf("a chain signed by another key: %d verified, %v", n, err)
	}
}
