package mental

import (
	"encoding/binary"
	"fmt"
	"io"

	"github.com/gtank/ristretto255"
)

// Opening one card of a silent party without rebuilding its secret:
// threshold decryption from the recovery sub-shares. Holder j of dealer
// i's sub-share s_ij = f_i(j+1) sends, for a card (A, B), E_j = s_ij·A with
// a Chaum–Pedersen proof that log_G V_ij = log_A E_j, where V_ij = s_ij·G
// = Σ C_k·(j+1)^k is public from the dealer's commitments. Any t of them
// interpolate at 0 to D_i = x_i·A, dealer i's share of that card and of no
// other: the holders learn the card (as Recover would let them) but not
// x_i, so the dealer's other cards stay closed. Recover is for a party
// that left for good; this is for one that will not open a card it played.
//
// A recovered Share carries no proof (nobody can make one without x_i): its
// R1, R2 are the identity and s is zero, in Share's usual 128-byte layout.
// Reveal accepts it (it only removes D); Share.Verify and VerifyShares
// refuse it with ErrShareProof (−c·X is not the identity), so an Opening
// that contains one fails VerifyOpenings, blaming its opener: a card turned
// up this way is checked by each party combining the recovery shares itself
// (CombineRecovery verifies every holder's proof), never by an Opening.

// A RecoveryShare is one holder's part in opening one card of a dealer:
// E = s·A and a Chaum–Pedersen proof (R1, R2, s) in commitment form, bound
// to the context, the dealer, the holder and the whole ciphertext.
type RecoveryShare struct {
	Holder    int
	e, r1, r2 ristretto255.Element
	s         ristretto255.Scalar
}

const recoveryShareSize = 2 + 3*ElementSize + ScalarSize

func recoveryChallenge(dealer, holder int, v, ct []byte, rs *RecoveryShare, ctx []byte) *ristretto255.Scalar {
	t := newTranscript("recovery share")
	t.bytes(ctx)
	t.bytes(appendU16(appendU16(nil, dealer), holder))
	t.h.Write(v)
	t.h.Write(ct)
	t.elements(&rs.e, &rs.r1, &rs.r2)
	return t.challenge()
}

// RecoverShare is sub's holder's recovery share of ct, a card of dealer,
// under ctx (the same context the table's shares use).
func RecoverShare(rand io.Reader, dealer int, sub *SubShare, ct *Ciphertext, ctx []byte) (RecoveryShare, error) {
	out, err := RecoverShares(rand, dealer, sub, []Ciphertext{*ct}, ctx)
	if err != nil {
		return RecoveryShare{}, err
	}
	return out[0], nil
}

// RecoverShares is RecoverShare for several cards of the same dealer.
func RecoverShares(rand io.Reader, dealer int, sub *SubShare, cts []Ciphertext, ctx []byte) ([]RecoveryShare, error) {
	if sub.Holder < 0 || sub.Holder >= maxItems || dealer < 0 || dealer >= maxItems || sub.Holder == dealer {
		return nil, fmt.Errorf("%w: no recovery share of party %d's card by holder %d", ErrHolder, dealer, sub.Holder)
	}
	v := ristretto255.NewElement().ScalarBaseMult(&sub.v).Encode(nil)
	out := make([]RecoveryShare, len(cts))
	for k := range cts {
		ct := &cts[k]
		nonce, err := randomScalar(rand)
		if err != nil {
			return nil, err
		}
		rs := &out[k]
		rs.Holder = sub.Holder
		rs.e.ScalarMult(&sub.v, &ct.a)
		rs.r1.ScalarBaseMult(nonce)
		rs.r2.ScalarMult(nonce, &ct.a)
		c := recoveryChallenge(dealer, sub.Holder, v, ct.appendTo(nil), rs, ctx)
		rs.s.Multiply(c, &sub.v)
		rs.s.Add(&rs.s, nonce)
	}
	return out, nil
}

// point is V = Σ C_k·(holder+1)^k, the holder's sub-share times G.
func (rc *RecoveryCommit) point(holder int) *ristretto255.Element {
	at := scalarInt(uint64(holder) + 1)
	pows := make([]*ristretto255.Scalar, len(rc.c))
	pts := make([]*ristretto255.Element, len(rc.c))
	for k := range rc.c {
		pows[k], pts[k] = scalarInt(1), &rc.c[k]
		if k > 0 {
			pows[k].Multiply(pows[k-1], at)
		}
	}
	return ristretto255.NewElement().VarTimeMultiScalarMult(pows, pts)
}

// checkHolder refuses a holder that cannot hold a sub-share of dealer's
// secret: out of range (no party to blame), or the dealer itself.
func (rc *RecoveryCommit) checkHolder(dealer, holder int) error {
	if len(rc.c) == 0 {
		return blame(dealer, ErrRecovery, "no commitments")
	}
	if holder < 0 || holder >= maxItems {
		return fmt.Errorf("%w: holder %d", ErrHolder, holder)
	}
	if holder == dealer {
		return blame(holder, ErrHolder, "party %d holds no sub-share of its own secret", dealer)
	}
	return nil
}

// holderPoint is a holder's V, and its encoding for the transcript.
type holderPoint struct {
	v   *ristretto255.Element
	enc []byte
}

func (rc *RecoveryCommit) holderPoint(holder int) holderPoint {
	v := rc.point(holder)
	return holderPoint{v, v.Encode(nil)}
}

// verifyRecovery checks rs's proof; ctEnc is ct's encoding.
func verifyRecovery(dealer int, v holderPoint, ct *Ciphertext, ctEnc []byte, rs *RecoveryShare, ctx []byte) bool {
	c := recoveryChallenge(dealer, rs.Holder, v.enc, ctEnc, rs, ctx)
	// s·G − c·V = R1 and s·A − c·E = R2.
	var negc ristretto255.Scalar
	negc.Negate(c)
	var t ristretto255.Element
	if t.VarTimeDoubleScalarBaseMult(&negc, v.v, &rs.s).Equal(&rs.r1) != 1 {
		return false
	}
	return t.VarTimeMultiScalarMult([]*ristretto255.Scalar{&rs.s, &negc}, []*ristretto255.Element{&ct.a, &rs.e}).Equal(&rs.r2) == 1
}

// VerifyRecoveryShare checks that rs is its holder's part in opening ct, a
// card of dealer, under ctx. A wrong one names the holder. rc must have
// passed Check against the dealer's deck key.
func (rc *RecoveryCommit) VerifyRecoveryShare(dealer int, ct *Ciphertext, rs *RecoveryShare, ctx []byte) error {
	if err := rc.checkHolder(dealer, rs.Holder); err != nil {
		return err
	}
	if !verifyRecovery(dealer, rc.holderPoint(rs.Holder), ct, ct.appendTo(nil), rs, ctx) {
		return blame(rs.Holder, ErrRecoveryProof, "for a card of party %d", dealer)
	}
	return nil
}

// CombineRecovery checks the holders' recovery shares of ct and combines
// them into dealer's Share of ct, a recovered one (see Share.Recovered):
// with the other parties' shares, Codebook.Reveal turns the card up. It
// refuses a wrong share (naming its holder), a holder twice, the dealer as
// a holder, and fewer than rc.Threshold() holders. rc must have passed
// Check against the dealer's deck key.
func CombineRecovery(dealer int, rc *RecoveryCommit, ct *Ciphertext, rss []RecoveryShare, ctx []byte) (Share, error) {
	out, err := CombineRecoveries(dealer, rc, []Ciphertext{*ct}, [][]RecoveryShare{rss}, ctx)
	if err != nil {
		return Share{}, err
	}
	return out[0], nil
}

// CombineRecoveries is CombineRecovery for several cards of one dealer:
// rss[k] are the holders' shares of cts[k]. Each holder's V is computed
// once for all the cards, and all the proofs are checked in one batch, as
// VerifyShares does (weights hashed from everything; if the batch fails,
// one by one, and the first wrong share names its holder).
func CombineRecoveries(dealer int, rc *RecoveryCommit, cts []Ciphertext, rss [][]RecoveryShare, ctx []byte) ([]Share, error) {
	if len(cts) != len(rss) {
		return nil, fmt.Errorf("%w: %d ciphertexts, %d sets of recovery shares", ErrParties, len(cts), len(rss))
	}
	t := len(rc.c)
	if t == 0 {
		return nil, blame(dealer, ErrRecovery, "no commitments")
	}
	points := map[int]holderPoint{}
	ctEnc := make([][]byte, len(cts))
	for k := range cts {
		ctEnc[k] = cts[k].appendTo(nil)
		seen := map[int]bool{}
		for i := range rss[k] {
			rs := &rss[k][i]
			if err := rc.checkHolder(dealer, rs.Holder); err != nil {
				return nil, err
			}
			if seen[rs.Holder] {
				return nil, blame(rs.Holder, ErrHolderTwice, "card %d of %d", k, len(cts))
			}
			seen[rs.Holder] = true
			if _, ok := points[rs.Holder]; !ok {
				points[rs.Holder] = rc.holderPoint(rs.Holder)
			}
		}
	}
	if !batchRecoveryOK(dealer, points, cts, ctEnc, rss, ctx) {
		for k := range cts {
			for i := range rss[k] {
				rs := &rss[k][i]
				if !verifyRecovery(dealer, points[rs.Holder], &cts[k], ctEnc[k], rs, ctx) {
					return nil, blame(rs.Holder, ErrRecoveryProof, "for card %d of %d of party %d", k, len(cts), dealer)
				}
			}
		}
	}
	out := make([]Share, len(cts))
	var lambda []*ristretto255.Scalar
	var lambdaFor []RecoveryShare // the holders lambda is for, in order
	for k := range cts {
		if len(rss[k]) < t {
			return nil, fmt.Errorf("%w: %d holders of %d, card %d of %d", ErrTooFew, len(rss[k]), t, k, len(cts))
		}
		use := rss[k][:t]
		if !sameHolders(use, lambdaFor) { // the holders are most often the same for every card
			lambda, lambdaFor = lagrange(use), use
		}
		es := make([]*ristretto255.Element, t)
		for j := range use {
			es[j] = &use[j].e
		}
		out[k] = recoveredShare(ristretto255.NewElement().VarTimeMultiScalarMult(lambda, es))
	}
	return out, nil
}

// batchRecoveryOK checks, for 128-bit weights w, u hashed from every
// challenge (each of which hashes its whole proof):
//
//	Σ w·(s·G − c·V − R1) + u·(s·A − c·E − R2) = 0
//
// gathering the terms of each holder's V and each card's A into one.
func batchRecoveryOK(dealer int, points map[int]holderPoint, cts []Ciphertext, ctEnc [][]byte, rss [][]RecoveryShare, ctx []byte) bool {
	seed := newTranscript("recovery batch")
	seed.bytes(ctx)
	cs := make([][]*ristretto255.Scalar, len(rss))
	for k := range rss {
		cs[k] = make([]*ristretto255.Scalar, len(rss[k]))
		for i := range rss[k] {
			rs := &rss[k][i]
			cs[k][i] = recoveryChallenge(dealer, rs.Holder, points[rs.Holder].enc, ctEnc[k], rs, ctx)
			seed.h.Write(cs[k][i].Encode(nil))
			seed.h.Write(rs.s.Encode(nil))
		}
	}
	base := seed.h.Sum(nil)
	weight := func(k, i, which int) *ristretto255.Scalar {
		t := newTranscript("recovery weight")
		t.bytes(base)
		// Full-width indices: two proofs with the same weights could carry
		// errors that cancel.
		t.bytes(binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32([]byte{byte(which)}, uint32(k)), uint32(i)))
		var b [ScalarSize]byte
		copy(b[:16], t.h.Sum(nil))
		w := ristretto255.NewScalar()
		if err := w.Decode(b[:]); err != nil {
			panic(err) // below 2^128: always canonical
		}
		return w
	}
	g := ristretto255.NewScalar()
	vs := map[int]*ristretto255.Scalar{} // −Σ w·c per holder
	var ss []*ristretto255.Scalar
	var ps []*ristretto255.Element
	var tmp ristretto255.Scalar
	for k := range rss {
		a := ristretto255.NewScalar() // Σ u·s for this card's A
		for i := range rss[k] {
			rs := &rss[k][i]
			w, u := weight(k, i, 0), weight(k, i, 1)
			g.Add(g, tmp.Multiply(w, &rs.s))
			v, ok := vs[rs.Holder]
			if !ok {
				v = ristretto255.NewScalar()
				vs[rs.Holder] = v
			}
			v.Subtract(v, tmp.Multiply(w, cs[k][i]))
			a.Add(a, tmp.Multiply(u, &rs.s))
			uc := ristretto255.NewScalar().Multiply(u, cs[k][i])
			ss = append(ss, w.Negate(w), u.Negate(u), uc.Negate(uc))
			ps = append(ps, &rs.r1, &rs.r2, &rs.e)
		}
		ss, ps = append(ss, a), append(ps, &cts[k].a)
	}
	ss, ps = append(ss, g), append(ps, ristretto255.NewElement().Base())
	for h, v := range vs {
		ss, ps = append(ss, v), append(ps, points[h].v)
	}
	return isIdentity(ristretto255.NewElement().VarTimeMultiScalarMult(ss, ps))
}

func sameHolders(a, b []RecoveryShare) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Holder != b[i].Holder {
			return false
		}
	}
	return true
}

// lagrange is the coefficients at 0 of the holders' points:
// λ_j = Π_{m≠j} at_m / (at_m − at_j), as interpolate uses them, with one
// inversion for all the denominators (Montgomery's trick).
func lagrange(use []RecoveryShare) []*ristretto255.Scalar {
	n := len(use)
	at := make([]*ristretto255.Scalar, n)
	for j := range use {
		at[j] = scalarInt(uint64(use[j].Holder) + 1)
	}
	num := make([]*ristretto255.Scalar, n)
	den := make([]*ristretto255.Scalar, n)
	for j := range n {
		num[j], den[j] = scalarInt(1), scalarInt(1)
		for m := range n {
			if m == j {
				continue
			}
			num[j].Multiply(num[j], at[m])
			den[j].Multiply(den[j], ristretto255.NewScalar().Subtract(at[m], at[j]))
		}
	}
	// prefix[j] = Π_{m<j} den_m; then walk back with the inverse of all.
	prefix := make([]*ristretto255.Scalar, n+1)
	prefix[0] = scalarInt(1)
	for j := range n {
		prefix[j+1] = ristretto255.NewScalar().Multiply(prefix[j], den[j])
	}
	inv := ristretto255.NewScalar().Invert(prefix[n]) // 1 / Π_{m<j+1} den_m, going down
	out := make([]*ristretto255.Scalar, n)
	for j := n - 1; j >= 0; j-- {
		invDen := ristretto255.NewScalar().Multiply(inv, prefix[j])
		inv.Multiply(inv, den[j])
		out[j] = num[j].Multiply(num[j], invDen)
	}
	return out
}

// recoveredShare is the Share D with no proof: R1 = R2 = identity, s = 0.
func recoveredShare(d *ristretto255.Element) Share {
	var sh Share
	sh.d = *d
	sh.r1.Zero()
	sh.r2.Zero()
	sh.r2.Encode(sh.r1.Encode(sh.d.Encode(sh.enc[:0])))
	sh.s.Encode(sh.enc[3*ElementSize : 3*ElementSize])
	return sh
}

// Recovered reports whether sh was combined from recovery shares
// (CombineRecovery) rather than made by its party: it carries no proof,
// and Verify refuses it.
func (sh *Share) Recovered() bool {
	return isIdentity(&sh.r1) && isIdentity(&sh.r2) && sh.s.Equal(ristretto255.NewScalar()) == 1
}

// MarshalBinary is the holder (2 bytes), E, R1, R2, s: 130 bytes.
func (rs *RecoveryShare) MarshalBinary() ([]byte, error) {
	if rs.Holder < 0 || rs.Holder >= maxItems {
		return nil, fmt.Errorf("mental: no holder %d", rs.Holder)
	}
	b := make([]byte, 0, recoveryShareSize)
	b = appendU16(b, rs.Holder)
	return rs.s.Encode(rs.r2.Encode(rs.r1.Encode(rs.e.Encode(b)))), nil
}

// UnmarshalBinary reads what MarshalBinary wrote.
func (rs *RecoveryShare) UnmarshalBinary(b []byte) error {
	r := reader{b: b}
	var t RecoveryShare
	t.Holder = r.count(maxItems - 1)
	r.element(&t.e)
	r.element(&t.r1)
	r.element(&t.r2)
	r.scalar(&t.s)
	if err := r.done("recovery share"); err != nil {
		return err
	}
	*rs = t
	return nil
}
