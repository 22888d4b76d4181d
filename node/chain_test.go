package node

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/protocol"
)

// The chain's fixed vectors: a known key, table, deal and steps. The
// expected hashes were worked out apart from this package (Python's
// hashlib, from the layout in chain.go's comment).
var (
	chainTID    = protocol.TableID{1, 2, 3, 4, 5, 6, 7, 8}
	chainCommit = sha256.Sum256([]byte("the deal's commitment"))
	chainSalt   = [SaltSize]byte{9, 9, 9}
	chainSeed   = uint64(42)
)

func chainKey(name string) ed25519.PrivateKey {
	seed := sha256.Sum256([]byte(name))
	return ed25519.NewKeyFromSeed(seed[:])
}

// chainSteps are a play (two hidden cards), a call and a tick at term 1,
// signed by host A at the last step only.
func chainSteps(t *testing.T) []protocol.Step {
	t.Helper()
	seal := sealCards(hiddenKey(chainSeed, chainSalt, 0), []engine.Card{4, 5})
	ws := []protocol.Step{
		{At: 1500000000, Move: uint8(engine.MovePlay), Seat: 0, Claim: 2, Rank: 3, Hidden: 2, Term: 1, Seal: seal},
		{At: 2500000000, Move: uint8(engine.MoveCall), Seat: 1, Rank: protocol.NoRank, No: 1, Term: 1},
		{At: 7500000000, Tick: true, Rank: protocol.NoRank, Term: 1},
	}
	signAt(ws, len(ws)-1, chainKey("A"), chainCommit)
	return ws
}

// signAt signs step i of ws with key at its term.
func signAt(ws []protocol.Step, i int, key ed25519.PrivateKey, commit [32]byte) {
	h := chainHead(commit, ws[:i+1])
	ws[i].Sig = signStep(key, chainTID, ws[i].Term, i, h)
}

func hostsKeys(keys map[uint64]ed25519.PrivateKey) func(uint64) ed25519.PublicKey {
	return func(term uint64) ed25519.PublicKey {
		k, ok := keys[term]
		if !ok {
			return nil
		}
		return k.Public().(ed25519.PublicKey)
	}
}

var termA = hostsKeys(map[uint64]ed25519.PrivateKey{1: chainKey("A")})

func TestChainVectors(t *testing.T) {
	ws := chainSteps(t)
	want := []string{
		"bef25189b43b1edc3e28ac17c3a27e459d4c25fa747164e211e233db043ac800",
		"fb16198bcae04ecbdb51bf095eac7290683c19be623aa2743cea87ffe6c557fd",
		"c42153213f06dffc0434399668875b67b33aef128ef75373bc89fbf3836b0ed5",
	}
	h := chainCommit
	for i, w := range ws {
		h = chainNext(h, w)
		if got := hex.EncodeToString(h[:]); got != want[i] {
			t.Errorf("H_%d = %s, want %s", i, got, want[i])
		}
	}
	if got, want := hex.EncodeToString(ws[0].Seal), "2c8e80eca5265e04417e18e422c0b8694ea852a6c15accdc75ff081ee6035d2e"; got != want {
		t.Errorf("seal = %s, want %s", got, want)
	}
	if got, want := hex.EncodeToString(ws[2].Sig), "648de1c9d231c2139deddb6ba47e7ee2bdbb93ecaf6aee5bf031d45349d4a60457a6b6b3bb292e9557227efc04e0d8cbff4f6786d43b2e3fbf4497acf1edab0a"; got != want {
		t.Errorf("sig = %s, want %s", got, want)
	}
	n, head, err := verifyChain(chainTID, chainCommit, 0, ws, termA)
	if err != nil || n != 3 || head != h {
		t.Fatalf("verify: %d %v", n, err)
	}
}

// Any change to a signed step, or to anything the signature binds, and the
// chain doesn't verify.
func TestChainTamper(t *testing.T) {
	cases := map[string]func(ws []protocol.Step){
		"time":          func(ws []protocol.Step) { ws[1].At++ },
		"seat":          func(ws []protocol.Step) { ws[1].Seat = 2 },
		"move":          func(ws []protocol.Step) { ws[1].Move = uint8(engine.MovePass) },
		"claim":         func(ws []protocol.Step) { ws[0].Claim = 3 },
		"rank":          func(ws []protocol.Step) { ws[0].Rank = 4 },
		"hidden count":  func(ws []protocol.Step) { ws[0].Hidden = 3 },
		"public cards":  func(ws []protocol.Step) { ws[0].Cards = []protocol.Card{4} },
		"seal":          func(ws []protocol.Step) { ws[0].Seal[0] ^= 1 },
		"term":          func(ws []protocol.Step) { ws[2].Term = 2 },
		"tick":          func(ws []protocol.Step) { ws[2].Tick = false },
		"reorder":       func(ws []protocol.Step) { ws[0], ws[1] = ws[1], ws[0] },
		"signature bit": func(ws []protocol.Step) { ws[2].Sig[5] ^= 1 },
	}
	for name, f := range cases {
		ws := chainSteps(t)
		f(ws)
		if n, _, err := verifyChain(chainTID, chainCommit, 0, ws, termA); err == nil || n == len(ws) {
			t.Errorf("%s: verified (%d steps)", name, n)
		}
	}
	// Another table, another deal, another host, another term's key.
	ws := chainSteps(t)
	if _, _, err := verifyChain(protocol.TableID{8}, chainCommit, 0, ws, termA); !errors.Is(err, ErrChainSig) {
		t.Errorf("another table: %v", err)
	}
	if _, _, err := verifyChain(chainTID, sha256.Sum256([]byte("another deal")), 0, ws, termA); !errors.Is(err, ErrChainSig) {
		t.Errorf("another deal: %v", err)
	}
	termB := hostsKeys(map[uint64]ed25519.PrivateKey{1: chainKey("B")})
	if _, _, err := verifyChain(chainTID, chainCommit, 0, ws, termB); !errors.Is(err, ErrChainSig) {
		t.Errorf("another host: %v", err)
	}
	if _, _, err := verifyChain(chainTID, chainCommit, 0, ws, hostsKeys(nil)); !errors.Is(err, ErrChainTerm) {
		t.Errorf("no host known: %v", err)
	}
}

// A player's forged call, after the host's last signed step: unsigned, it
// is a tail nobody vouches for; signed with the player's own key, it is
// refused; the steps before it still verify.
func TestChainForgedStep(t *testing.T) {
	forged := protocol.Step{At: 8000000000, Move: uint8(engine.MoveCall), Seat: 1, Rank: protocol.NoRank, No: 1, Term: 1}
	ws := append(chainSteps(t), forged)
	n, _, err := verifyChain(chainTID, chainCommit, 0, ws, termA)
	if !errors.Is(err, ErrChainUnsigned) || n != 3 {
		t.Fatalf("unsigned forgery: %d %v", n, err)
	}
	signAt(ws, 3, chainKey("mallory"), chainCommit)
	n, _, err = verifyChain(chainTID, chainCommit, 0, ws, termA)
	if !errors.Is(err, ErrChainSig) || n != 3 {
		t.Fatalf("self-signed forgery: %d %v", n, err)
	}
	// A step slipped in the middle breaks the signature after it.
	ws = chainSteps(t)
	ws = append(ws[:2], append([]protocol.Step{forged}, ws[2:]...)...)
	if n, _, err := verifyChain(chainTID, chainCommit, 0, ws, termA); !errors.Is(err, ErrChainSig) || n != 0 {
		t.Fatalf("inserted step: %d %v", n, err)
	}
}

// After a failover the elected host signs its own term, chained on from
// the old host's last signed step.
func TestChainTermBoundary(t *testing.T) {
	both := hostsKeys(map[uint64]ed25519.PrivateKey{1: chainKey("A"), 2: chainKey("B")})
	next := func() []protocol.Step {
		ws := chainSteps(t)
		ws = append(ws,
			protocol.Step{At: 9000000000, Move: uint8(engine.MoveResume), Seat: -1, Rank: protocol.NoRank, Term: 2},
			protocol.Step{At: 9500000000, Move: uint8(engine.MovePass), Seat: 2, Rank: protocol.NoRank, No: 1, Term: 2})
		signAt(ws, 4, chainKey("B"), chainCommit)
		return ws
	}
	ws := next()
	if n, _, err := verifyChain(chainTID, chainCommit, 0, ws, both); err != nil || n != 5 {
		t.Fatalf("two terms: %d %v", n, err)
	}
	// The new term signed by the old host, or by someone else.
	ws = next()
	signAt(ws, 4, chainKey("A"), chainCommit)
	if _, _, err := verifyChain(chainTID, chainCommit, 0, ws, both); !errors.Is(err, ErrChainSig) {
		t.Errorf("term 2 signed by term 1's host: %v", err)
	}
	// The old term's last step unsigned: the new host vouches for its own
	// term only.
	ws = next()
	ws[2].Sig = nil
	signAt(ws, 4, chainKey("B"), chainCommit)
	if n, _, err := verifyChain(chainTID, chainCommit, 0, ws, both); !errors.Is(err, ErrChainUnsigned) || n != 0 {
		t.Errorf("unsigned boundary: %d %v", n, err)
	}
	// Terms never go back.
	ws = next()
	ws[4].Term = 0
	if _, _, err := verifyChain(chainTID, chainCommit, 0, ws, both); !errors.Is(err, ErrChainTerm) {
		t.Errorf("term going back: %v", err)
	}
	// A later term nobody hosted, as far as the verifier knows.
	ws = next()
	if _, _, err := verifyChain(chainTID, chainCommit, 0, ws, termA); !errors.Is(err, ErrChainTerm) {
		t.Errorf("unknown term: %v", err)
	}
}

// compact keeps one signature a term, and the journal still verifies.
func TestChainCompact(t *testing.T) {
	ws := chainSteps(t)
	signAt(ws, 0, chainKey("A"), chainCommit)
	signAt(ws, 1, chainKey("A"), chainCommit)
	ps := engLinked(ws)
	compact(ps)
	for i, p := range ps {
		if (p.Link.Sig != nil) != (i == 2) {
			t.Errorf("step %d: sig %x", i, p.Link.Sig)
		}
	}
	if n, _, err := verifyChain(chainTID, chainCommit, 0, wireLinkedAll(ps), termA); err != nil || n != 3 {
		t.Fatalf("compacted: %d %v", n, err)
	}
}

// A seal tells the right cards from others, and only its key makes it.
func TestChainSeal(t *testing.T) {
	k := hiddenKey(chainSeed, chainSalt, 0)
	s := sealCards(k, []engine.Card{4, 5})
	if string(s) == string(sealCards(k, []engine.Card{5, 4})) || string(s) == string(sealCards(k, []engine.Card{4})) {
		t.Fatal("a seal matched other cards")
	}
	if string(s) == string(sealCards(hiddenKey(chainSeed, chainSalt, 1), []engine.Card{4, 5})) ||
		string(s) == string(sealCards(hiddenKey(chainSeed+1, chainSalt, 0), []engine.Card{4, 5})) {
		t.Fatal("a seal matched under another key")
	}
}

// chainPeer is a libp2p identity for a chain key.
func chainPeer(t *testing.T, k ed25519.PrivateKey) peer.ID {
	t.Helper()
	pk, err := crypto.UnmarshalEd25519PrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.IDFromPrivateKey(pk)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// A player keeps what its host's chain vouches for, and a backlog that
// rewrites the journal or the events it was sent is refused and told to
// the audit.
func TestChainPlayerKeepsItsRecord(t *testing.T) {
	a := chainPeer(t, chainKey("A"))
	r := &Remote{tid: chainTID}
	r.table.Commit = chainCommit
	ws := chainSteps(t)
	r.takeSteps(a, 1, ws[:3], false)
	if len(r.journal) != 3 || len(r.chain.doubt) != 0 {
		t.Fatalf("honest steps: %d kept, doubt %q", len(r.journal), r.chain.doubt)
	}
	// An unsigned batch from the host, and one signed by somebody else.
	extra := protocol.Step{At: 8000000000, Move: uint8(engine.MovePass), Seat: 2, Rank: protocol.NoRank, No: 1, Term: 1}
	r.takeSteps(a, 1, []protocol.Step{extra}, false)
	if len(r.journal) != 3 || len(r.chain.doubt) != 1 {
		t.Fatalf("unsigned batch: %d kept, doubt %q", len(r.journal), r.chain.doubt)
	}
	// A backlog that changes step 1: ours stands.
	bad := chainSteps(t)
	bad[1].Seat = 2
	signAt(bad, 2, chainKey("A"), chainCommit)
	r.takeSteps(a, 1, bad, true)
	if len(r.journal) != 3 || r.journal[1].Cmd.Seat != 1 || len(r.chain.doubt) != 2 {
		t.Fatalf("rewriting backlog: seat %d, doubt %q", r.journal[1].Cmd.Seat, r.chain.doubt)
	}
	// A backlog that is a signed start of ours: the new host could rebuild
	// only so far (the old one died sending the last step), and we play
	// on from there.
	short := chainSteps(t)[:2]
	short[1].Sig = nil
	signAt(short, 1, chainKey("A"), chainCommit)
	if !r.takeSteps(a, 1, short, true) || len(r.journal) != 2 || len(r.chain.doubt) != 2 {
		t.Fatalf("rollback: %d kept, doubt %q", len(r.journal), r.chain.doubt)
	}
	// Another host claiming term 1.
	r.takeSteps(chainPeer(t, chainKey("B")), 1, nil, false)
	if len(r.chain.doubt) != 3 {
		t.Fatalf("two hosts of a term: doubt %q", r.chain.doubt)
	}

	// Events: a backlog must extend what we were sent.
	deal := engine.Event{Type: "deal", Counts: []engine.Count{{Lo: 13, Hi: 13}}}
	play := engine.Event{Type: "play", Seat: 0, Claim: 2}
	call := engine.Event{Type: "call", Seat: 1}
	r.got = []engine.Event{deal, play}
	r.takeBacklog([]engine.Event{deal, play, call}, false)
	if len(r.got) != 3 {
		t.Fatalf("extending backlog: %d events", len(r.got))
	}
	r.chain.doubt = nil
	r.takeBacklog([]engine.Event{deal, call, call}, false)
	if len(r.got) != 3 || r.got[1].Type != "play" || len(r.chain.doubt) != 1 {
		t.Fatalf("rewriting backlog: %+v, doubt %q", r.got, r.chain.doubt)
	}
}
