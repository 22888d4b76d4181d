package mental

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// rng is a seeded reader: the tests' only randomness.
func rng(seed uint64) io.Reader {
	var s [32]byte
	for i := range 8 {
		s[i] = byte(seed >> (8 * i))
	}
	return rand.NewChaCha8(s)
}

var gameCtx = []byte("table 7f3a / game 2")

func keyCtx(party int) []byte {
	return fmt.Appendf(nil, "table 7f3a / game 2 / peer 12D3KooW%02d", party)
}

// table is n honest parties in one process, after keys and shuffles.
type table struct {
	n        int
	cb       *Codebook
	secrets  []Secret
	keys     []PublicKey
	proofs   []KeyProof
	joint    PublicKey
	initial  Deck
	steps    []ShuffleStep
	openings []ShuffleOpening
}

func (tb *table) deck() Deck { return tb.steps[len(tb.steps)-1].Out }

// newKeys makes n parties' secrets, keys and proofs, and the joint key.
func newKeys(t testing.TB, r io.Reader, n int) *table { return newKeysFor(t, r, n, 2, 0) }

func newKeysFor(t testing.TB, r io.Reader, n, decks, jokers int) *table {
	t.Helper()
	cb, err := NewCodebook(decks, jokers)
	if err != nil {
		t.Fatal(err)
	}
	tb := &table{n: n, cb: cb}
	ctxs := make([][]byte, n)
	for i := range n {
		x, err := NewSecret(r)
		if err != nil {
			t.Fatal(err)
		}
		p, err := ProveKey(r, &x, keyCtx(i))
		if err != nil {
			t.Fatal(err)
		}
		tb.secrets = append(tb.secrets, x)
		tb.keys = append(tb.keys, x.Public())
		tb.proofs = append(tb.proofs, p)
		ctxs[i] = keyCtx(i)
	}
	if tb.joint, err = JointKey(tb.keys, tb.proofs, ctxs); err != nil {
		t.Fatal(err)
	}
	return tb
}

// shuffleAll has every party shuffle in turn.
func (tb *table) shuffleAll(t testing.TB, r io.Reader) {
	t.Helper()
	tb.initial = tb.cb.Deck()
	in := tb.initial
	for range tb.n {
		st, o, err := Shuffle(r, &tb.joint, in, gameCtx)
		if err != nil {
			t.Fatal(err)
		}
		if err := CheckStep(len(tb.steps), in, &st); err != nil {
			t.Fatal(err)
		}
		tb.steps = append(tb.steps, st)
		tb.openings = append(tb.openings, o)
		in = st.Out
	}
}

func newTable(t testing.TB, seed uint64, n int) *table {
	r := rng(seed)
	tb := newKeys(t, r, n)
	tb.shuffleAll(t, r)
	return tb
}

// hand is the deck positions dealt to seat, round robin.
func (tb *table) hand(seat int) []int {
	var out []int
	for p := seat; p < len(tb.deck()); p += tb.n {
		out = append(out, p)
	}
	return out
}

// shareOut is every party's shares of every card not its own, as each
// would broadcast them: out[p][i] is party i's share of position p (the
// owner's entry is empty).
func (tb *table) shareOut(t testing.TB, r io.Reader) [][]Share {
	t.Helper()
	d := tb.deck()
	out := make([][]Share, len(d))
	for p := range d {
		out[p] = make([]Share, tb.n)
		for i := range tb.n {
			if p%tb.n == i {
				continue
			}
			sh, err := DecryptShare(r, &tb.secrets[i], &d[p], gameCtx)
			if err != nil {
				t.Fatal(err)
			}
			out[p][i] = sh
		}
	}
	return out
}

// learn is seat's turning up of its hand from the broadcast shares.
func (tb *table) learn(t testing.TB, r io.Reader, seat int, shares [][]Share) ([]Face, [][]Share, error) {
	t.Helper()
	var cts []Ciphertext
	var sh [][]Share
	for _, p := range tb.hand(seat) {
		cts = append(cts, tb.deck()[p])
		sh = append(sh, shares[p])
	}
	return Learn(r, tb.cb, tb.keys, seat, &tb.secrets[seat], cts, sh, gameCtx)
}

func mustFault(t *testing.T, err error, want error, party int) {
	t.Helper()
	if err == nil {
		t.Fatalf("accepted; want %v naming party %d", want, party)
	}
	if want != nil && !errorsIs(err, want) {
		t.Fatalf("got %v; want %v", err, want)
	}
	if p, ok := Blame(err); !ok || p != party {
		t.Fatalf("got %v, blaming %d (%v); want party %d", err, p, ok, party)
	}
}

func errorsContains(err error, s string) bool { return err != nil && strings.Contains(err.Error(), s) }
