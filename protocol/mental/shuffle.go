package mental

import (
	"crypto/sha512"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/gtank/ristretto255"
)

// A shuffle step is one party's turn: it draws a permutation π and a
// re-encryption scalar per card, publishes out[k] = in[π(k)] + (r_k·G,
// r_k·Y) with a ShuffleCommit to (π, r), and keeps the ShuffleOpening to
// itself until the game is over. Re-encryption makes out unlinkable to in
// without r, so as long as one shuffler keeps its opening secret nobody
// knows which card is where. At the end every shuffler publishes its
// opening and anyone runs CheckShuffles: a card substituted, dropped or
// duplicated by a shuffler is caught then, and the shuffler named.

// A ShuffleCommit is SHA-512/256 over the context, the input and output
// decks, and the opening.
type ShuffleCommit [32]byte

// A ShuffleOpening is a shuffler's permutation and randomness.
type ShuffleOpening struct {
	perm []uint16              // out[k] comes from in[perm[k]]
	rand []ristretto255.Scalar // out[k]'s re-encryption
}

// A ShuffleStep is what a shuffler publishes in its turn.
type ShuffleStep struct {
	Out    Deck
	Commit ShuffleCommit
}

// Shuffle is one party's turn: it permutes and re-encrypts in under joint.
func Shuffle(rand io.Reader, joint *PublicKey, in Deck, ctx []byte) (ShuffleStep, ShuffleOpening, error) {
	n := len(in)
	if n == 0 || n > maxItems {
		return ShuffleStep{}, ShuffleOpening{}, fmt.Errorf("mental: cannot shuffle a deck of %d cards", n)
	}
	o := ShuffleOpening{perm: make([]uint16, n), rand: make([]ristretto255.Scalar, n)}
	for i := range o.perm {
		o.perm[i] = uint16(i)
	}
	for i := n - 1; i > 0; i-- { // Fisher–Yates
		j, err := uniform(rand, i+1)
		if err != nil {
			return ShuffleStep{}, ShuffleOpening{}, err
		}
		o.perm[i], o.perm[j] = o.perm[j], o.perm[i]
	}
	for k := range o.rand {
		r, err := randomScalar(rand)
		if err != nil {
			return ShuffleStep{}, ShuffleOpening{}, err
		}
		o.rand[k] = *r
	}
	out := o.apply(joint, in)
	return ShuffleStep{Out: out, Commit: o.commit(in, out, ctx)}, o, nil
}

// uniform is an unbiased draw from [0, n), n < 2^16.
func uniform(rand io.Reader, n int) (int, error) {
	limit := (1 << 32) / uint64(n) * uint64(n)
	var b [4]byte
	for {
		if _, err := io.ReadFull(rand, b[:]); err != nil {
			return 0, fmt.Errorf("mental: reading randomness: %w", err)
		}
		if v := uint64(binary.BigEndian.Uint32(b[:])); v < limit {
			return int(v % uint64(n)), nil
		}
	}
}

func (o *ShuffleOpening) apply(joint *PublicKey, in Deck) Deck {
	out := make(Deck, len(in))
	for k, from := range o.perm {
		out[k].rerandomize(&in[from], joint, &o.rand[k])
	}
	return out
}

func (o *ShuffleOpening) commit(in, out Deck, ctx []byte) ShuffleCommit {
	h := sha512.New512_256()
	t := transcript{h: h}
	t.bytes([]byte(domain + "shuffle"))
	t.bytes(ctx)
	t.bytes(in.digest())
	t.bytes(out.digest())
	b, _ := o.MarshalBinary()
	t.bytes(b)
	return ShuffleCommit(h.Sum(nil))
}

// Check checks that o opens the step from in to s.Out: it is what was
// committed, its permutation is one, and it turns in into s.Out exactly.
func (o *ShuffleOpening) Check(joint *PublicKey, in Deck, s *ShuffleStep, ctx []byte) error {
	n := len(in)
	if len(o.perm) != n || len(o.rand) != n || len(s.Out) != n {
		return fmt.Errorf("%w: %d cards in, %d out, opening of %d", ErrShuffle, n, len(s.Out), len(o.perm))
	}
	if o.commit(in, s.Out, ctx) != s.Commit {
		return ErrShuffleCommit
	}
	seen := make([]bool, n)
	for _, from := range o.perm {
		if int(from) >= n || seen[from] {
			return fmt.Errorf("%w: not a permutation", ErrShuffle)
		}
		seen[from] = true
	}
	want := o.apply(joint, in)
	for k := range want {
		if !want[k].Equal(&s.Out[k]) {
			return fmt.Errorf("%w: card at %d", ErrShuffle, k)
		}
	}
	return nil
}

// CheckStep is what anyone can check of party's step the moment it
// arrives, before any opening: as many cards out as in, none of them in
// the clear (A = identity: a card anyone reads, as a substituted trivial
// encryption would be), and no two alike (a card doubled). It cannot see a
// card substituted under fresh randomness; CheckShuffles does, at the end.
func CheckStep(party int, in Deck, s *ShuffleStep) error {
	if len(s.Out) != len(in) {
		return blame(party, ErrShuffle, "%d cards in, %d out", len(in), len(s.Out))
	}
	seen := make(map[[ElementSize]byte]bool, len(s.Out))
	var k [ElementSize]byte
	for i := range s.Out {
		if isIdentity(&s.Out[i].a) {
			return blame(party, ErrShuffle, "card at %d in the clear", i)
		}
		a := [ElementSize]byte(s.Out[i].a.Encode(k[:0]))
		if seen[a] {
			return blame(party, ErrShuffle, "card at %d doubled", i)
		}
		seen[a] = true
	}
	return nil
}

// CheckShuffles checks a whole chain: steps[i] is party i's turn, taken
// from the deck before it (initial for the first), and openings[i] its
// opening. The first that fails names its party.
func CheckShuffles(joint *PublicKey, initial Deck, steps []ShuffleStep, openings []ShuffleOpening, ctx []byte) error {
	if len(steps) != len(openings) {
		return fmt.Errorf("%w: %d shuffles, %d openings", ErrParties, len(steps), len(openings))
	}
	in := initial
	for i := range steps {
		if err := openings[i].Check(joint, in, &steps[i], ctx); err != nil {
			return blame(i, err, "")
		}
		in = steps[i].Out
	}
	return nil
}

// MarshalBinary is the commitment's 32 bytes.
func (c ShuffleCommit) MarshalBinary() ([]byte, error) { return c[:], nil }

// UnmarshalBinary reads what MarshalBinary wrote.
func (c *ShuffleCommit) UnmarshalBinary(b []byte) error {
	if len(b) != len(c) {
		return fmt.Errorf("%w: shuffle commitment of %d bytes", ErrMalformed, len(b))
	}
	copy(c[:], b)
	return nil
}

// MarshalBinary is a 2-byte count n, n 2-byte positions, n scalars.
func (o *ShuffleOpening) MarshalBinary() ([]byte, error) {
	b := make([]byte, 0, 2+len(o.perm)*(2+ScalarSize))
	b = appendU16(b, len(o.perm))
	for _, p := range o.perm {
		b = appendU16(b, int(p))
	}
	for i := range o.rand {
		b = o.rand[i].Encode(b)
	}
	return b, nil
}

// UnmarshalBinary reads what MarshalBinary wrote. It does not check the
// permutation: Check does, against the deck it claims to shuffle.
func (o *ShuffleOpening) UnmarshalBinary(b []byte) error {
	r := reader{b: b}
	n := r.count(maxItems)
	if len(r.b) != n*(2+ScalarSize) {
		return fmt.Errorf("%w: shuffle opening", ErrMalformed)
	}
	t := ShuffleOpening{perm: make([]uint16, n), rand: make([]ristretto255.Scalar, n)}
	for i := range t.perm {
		t.perm[i] = uint16(r.u16())
	}
	for i := range t.rand {
		r.scalar(&t.rand[i])
	}
	if err := r.done("shuffle opening"); err != nil {
		return err
	}
	*o = t
	return nil
}

// MarshalBinary is the deck, then the commitment.
func (s *ShuffleStep) MarshalBinary() ([]byte, error) {
	return append(s.Out.appendTo(nil), s.Commit[:]...), nil
}

// UnmarshalBinary reads what MarshalBinary wrote.
func (s *ShuffleStep) UnmarshalBinary(b []byte) error {
	r := reader{b: b}
	var t ShuffleStep
	t.Out = readDeck(&r)
	copy(t.Commit[:], r.take(len(t.Commit)))
	if err := r.done("shuffle step"); err != nil {
		return err
	}
	*s = t
	return nil
}
