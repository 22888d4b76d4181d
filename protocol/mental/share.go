package mental

import (
	"fmt"
	"io"

	"github.com/gtank/ristretto255"
)

// A Share is one party's partial decryption of one ciphertext (r·G, ·):
// D = x_i·(r·G), with a Chaum–Pedersen proof (R1, R2, s) that D and the
// party's deck key share their discrete log (log_G X_i = log_{rG} D),
// bound to the context and the ciphertext. A share that is wrong fails
// Verify at once, and its sender is the one to blame: nobody else can make
// its proof. The proof is in commitment form, not (c, s), so that many
// shares check together in one multi-scalar multiplication (see
// VerifyShares).
type Share struct {
	d, r1, r2 ristretto255.Element
	s         ristretto255.Scalar
	enc       [shareSize]byte // d, r1, r2, s encoded: what the challenge hashes
}

const shareSize = 3*ElementSize + ScalarSize

func shareChallenge(key, a []byte, sh *Share, ctx []byte) *ristretto255.Scalar {
	t := newTranscript("share")
	t.bytes(ctx)
	t.h.Write(key)
	t.h.Write(a)
	t.h.Write(sh.enc[:3*ElementSize])
	return t.challenge()
}

// DecryptShare is x's share of ct, with its proof under ctx (the table and
// the game: the same context for every party, since the proof names its
// party by its key).
func DecryptShare(rand io.Reader, x *Secret, ct *Ciphertext, ctx []byte) (Share, error) {
	k, err := randomScalar(rand)
	if err != nil {
		return Share{}, err
	}
	key := x.Public()
	var sh Share
	sh.d.ScalarMult(&x.x, &ct.a)
	sh.r1.ScalarBaseMult(k)
	sh.r2.ScalarMult(k, &ct.a)
	b := sh.r2.Encode(sh.r1.Encode(sh.d.Encode(sh.enc[:0])))
	c := shareChallenge(key.p.Encode(nil), ct.a.Encode(nil), &sh, ctx)
	sh.s.Multiply(c, &x.x)
	sh.s.Add(&sh.s, k)
	sh.s.Encode(b)
	return sh, nil
}

// Verify checks that sh is the partial decryption of ct by key's owner.
func (sh *Share) Verify(key *PublicKey, ct *Ciphertext, ctx []byte) error {
	c := shareChallenge(key.p.Encode(nil), ct.a.Encode(nil), sh, ctx)
	// s·G − c·X = R1 and s·A − c·D = R2.
	var negc ristretto255.Scalar
	negc.Negate(c)
	var t ristretto255.Element
	if t.VarTimeDoubleScalarBaseMult(&negc, &key.p, &sh.s).Equal(&sh.r1) != 1 {
		return ErrShareProof
	}
	if t.VarTimeMultiScalarMult([]*ristretto255.Scalar{&sh.s, &negc}, []*ristretto255.Element{&ct.a, &sh.d}).Equal(&sh.r2) != 1 {
		return ErrShareProof
	}
	return nil
}

// VerifyShares checks every party's share of each ciphertext: shares[k][i]
// is party i's share of cts[k]. The entry of party skip (if skip >= 0) is
// not looked at: a seat checking the shares of its own cards, which it
// makes itself. All the proofs are checked in one batch: each equation is
// weighted by a 128-bit scalar hashed from the whole batch, and their sum
// must vanish; a wrong proof passes with probability about 2^-128. If the batch
// fails, the shares are checked one by one and the first wrong one names
// its party.
func VerifyShares(keys []PublicKey, cts []Ciphertext, shares [][]Share, skip int, ctx []byte) error {
	if len(cts) != len(shares) {
		return fmt.Errorf("%w: %d ciphertexts, %d sets of shares", ErrParties, len(cts), len(shares))
	}
	for k := range shares {
		if len(shares[k]) != len(keys) {
			return fmt.Errorf("%w: %d shares for %d parties", ErrParties, len(shares[k]), len(keys))
		}
	}
	if batchOK(keys, cts, shares, skip, ctx) {
		return nil
	}
	for k := range shares {
		for i := range shares[k] {
			if i == skip {
				continue
			}
			if err := shares[k][i].Verify(&keys[i], &cts[k], ctx); err != nil {
				return blame(i, err, "share of card %d of %d", k, len(cts))
			}
		}
	}
	return nil // unreachable unless the batch itself is wrong
}

// batchOK checks, for weights w, v hashed from everything:
//
//	Σ w·(s·G − c·X − R1) + v·(s·A − c·D − R2) = 0
//
// gathering the terms of each key and each ciphertext's A into one.
func batchOK(keys []PublicKey, cts []Ciphertext, shares [][]Share, skip int, ctx []byte) bool {
	keyEnc := make([][]byte, len(keys))
	for i := range keys {
		keyEnc[i] = keys[i].p.Encode(nil)
	}
	// The challenges, and a seed for the weights over all of them.
	seed := newTranscript("batch")
	seed.bytes(ctx)
	cs := make([][]*ristretto255.Scalar, len(shares))
	for k := range shares {
		a := cts[k].a.Encode(nil)
		cs[k] = make([]*ristretto255.Scalar, len(keys))
		seed.h.Write(a)
		for i := range shares[k] {
			if i == skip {
				continue
			}
			cs[k][i] = shareChallenge(keyEnc[i], a, &shares[k][i], ctx)
			seed.h.Write(keyEnc[i])
			seed.h.Write(shares[k][i].enc[:])
		}
	}
	base := seed.h.Sum(nil)
	// 128-bit weights: as sound for a batch (a wrong proof passes with
	// probability 2^-128) and half the additions in the multiplication.
	weight := func(k, i, which int) *ristretto255.Scalar {
		t := newTranscript("weight")
		t.bytes(base)
		t.bytes([]byte{byte(k >> 8), byte(k), byte(i >> 8), byte(i), byte(which)})
		var b [ScalarSize]byte
		copy(b[:16], t.h.Sum(nil))
		w := ristretto255.NewScalar()
		if err := w.Decode(b[:]); err != nil {
			panic(err) // below 2^128: always canonical
		}
		return w
	}

	n := len(keys)
	g := ristretto255.NewScalar()
	xs := make([]ristretto255.Scalar, n) // −Σ w·c per key
	as := make([]ristretto255.Scalar, len(cts))
	var ss []*ristretto255.Scalar
	var ps []*ristretto255.Element
	var t ristretto255.Scalar
	for k := range shares {
		for i := range shares[k] {
			if i == skip {
				continue
			}
			sh := &shares[k][i]
			w, v := weight(k, i, 0), weight(k, i, 1)
			g.Add(g, t.Multiply(w, &sh.s))
			xs[i].Subtract(&xs[i], t.Multiply(w, cs[k][i]))
			as[k].Add(&as[k], t.Multiply(v, &sh.s))
			vc := ristretto255.NewScalar().Multiply(v, cs[k][i])
			ss = append(ss, w.Negate(w), v.Negate(v), vc.Negate(vc))
			ps = append(ps, &sh.r1, &sh.r2, &sh.d)
		}
	}
	ss = append(ss, g)
	ps = append(ps, ristretto255.NewElement().Base())
	for i := range xs {
		ss, ps = append(ss, &xs[i]), append(ps, &keys[i].p)
	}
	for k := range as {
		ss, ps = append(ss, &as[k]), append(ps, &cts[k].a)
	}
	return isIdentity(ristretto255.NewElement().VarTimeMultiScalarMult(ss, ps))
}

// Reveal removes every share from ct and names the card left, or refuses
// if what is left is no card of cb. It does not check the shares' proofs:
// VerifyShares (or Opening.Verify) does.
func (cb *Codebook) Reveal(ct *Ciphertext, shares []Share) (Face, error) {
	m := ct.b
	for i := range shares {
		m.Subtract(&m, &shares[i].d)
	}
	f, ok := cb.lookup(&m)
	if !ok {
		return Face{}, ErrNotACard
	}
	return f, nil
}

// Learn is how a seat turns up its own cards: it checks the shares the
// other parties sent it (shares[k][i] from party i for cts[k];
// shares[k][seat] is not looked at), adds its own, and returns the cards
// and the full sets of shares, its own at [seat] — the material of an
// Opening. Without its own share nobody else can do this, so nobody else
// learns the cards. A card that decrypts to no card of cb (every share
// being right) means a shuffler substituted it; Learn says so, and
// CheckShuffles names the shuffler at the end.
func Learn(rand io.Reader, cb *Codebook, keys []PublicKey, seat int, x *Secret, cts []Ciphertext, shares [][]Share, ctx []byte) ([]Face, [][]Share, error) {
	if seat < 0 || seat >= len(keys) {
		return nil, nil, fmt.Errorf("%w: seat %d of %d", ErrParties, seat, len(keys))
	}
	if err := VerifyShares(keys, cts, shares, seat, ctx); err != nil {
		return nil, nil, err
	}
	faces := make([]Face, len(cts))
	all := make([][]Share, len(cts))
	for k := range cts {
		own, err := DecryptShare(rand, x, &cts[k], ctx)
		if err != nil {
			return nil, nil, err
		}
		all[k] = append([]Share(nil), shares[k]...)
		all[k][seat] = own
		if faces[k], err = cb.Reveal(&cts[k], all[k]); err != nil {
			return nil, nil, fmt.Errorf("card %d of %d: %w", k, len(cts), err)
		}
	}
	return faces, all, nil
}

// MarshalBinary is D, R1, R2, s: 128 bytes.
func (sh *Share) MarshalBinary() ([]byte, error) { return sh.appendTo(nil), nil }

func (sh *Share) appendTo(b []byte) []byte { return append(b, sh.enc[:]...) }

func (sh *Share) read(r *reader) {
	b := r.take(shareSize)
	if b == nil {
		return
	}
	copy(sh.enc[:], b)
	sub := reader{b: b}
	sub.element(&sh.d)
	sub.element(&sh.r1)
	sub.element(&sh.r2)
	sub.scalar(&sh.s)
	if sub.bad {
		r.bad = true
	}
}

// UnmarshalBinary reads what MarshalBinary wrote.
func (sh *Share) UnmarshalBinary(b []byte) error {
	var t Share
	r := reader{b: b}
	t.read(&r)
	if err := r.done("share"); err != nil {
		return err
	}
	*sh = t
	return nil
}
