package mental

import (
	"fmt"
	"io"

	"github.com/gtank/ristretto255"
)

// Recovery of single cards: a party that doesn't turn its called play up
// (its node gone quiet, or its opening false) still has its share of those
// cards made, by threshold decryption, without anybody rebuilding its
// secret. Holder j of dealer i's sub-share s_ij = f_i(j+1) publishes, for
// a ciphertext (a, b), E_j = s_ij·a with a Chaum–Pedersen proof that
// log_G V_ij = log_a E_j, where V_ij = Σ_k C_k·(j+1)^k is the sub-share's
// public image, computed by anyone from the dealer's Feldman commitments.
// Any t of them interpolate at 0 to D_i = x_i·a, party i's share of the
// card: the card turns up, and the rest of party i's hand stays hidden,
// since x_i itself is never put together.

// A RecoveryShare is one holder's part in recovering a dealer's share of
// one card: E = s·a with its proof (commitment form, as a Share's).
type RecoveryShare struct {
	Holder int
	e      ristretto255.Element
	r1, r2 ristretto255.Element
	z      ristretto255.Scalar
}

// recoveryShareSize is the holder (2 bytes), E, R1, R2 and z.
const recoveryShareSize = 2 + 3*ElementSize + ScalarSize

// image is V = Σ_k C_k·(holder+1)^k: the holder's sub-share times G.
func (rc *RecoveryCommit) image(holder int) *ristretto255.Element {
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

func recoveryChallenge(v *ristretto255.Element, ct *Ciphertext, rs *RecoveryShare, ctx []byte) *ristretto255.Scalar {
	t := newTranscript("recovery share")
	t.bytes(ctx)
	t.bytes(appendU16(nil, rs.Holder))
	t.elements(v, &ct.a, &rs.e, &rs.r1, &rs.r2)
	return t.challenge()
}

// RecoverShare is the holder's recovery share of ct under its sub-share,
// with its proof under ctx (the game's: the same as the shares').
func RecoverShare(rand io.Reader, sub *SubShare, ct *Ciphertext, ctx []byte) (RecoveryShare, error) {
	if sub.Holder < 0 || sub.Holder >= maxItems {
		return RecoveryShare{}, fmt.Errorf("mental: no holder %d", sub.Holder)
	}
	k, err := randomScalar(rand)
	if err != nil {
		return RecoveryShare{}, err
	}
	rs := RecoveryShare{Holder: sub.Holder}
	rs.e.ScalarMult(&sub.v, &ct.a)
	rs.r1.ScalarBaseMult(k)
	rs.r2.ScalarMult(k, &ct.a)
	v := ristretto255.NewElement().ScalarBaseMult(&sub.v)
	c := recoveryChallenge(v, ct, &rs, ctx)
	rs.z.Multiply(c, &sub.v)
	rs.z.Add(&rs.z, k)
	return rs, nil
}

// VerifyRecoveryShare checks rs against dealer's commitments: E is the
// holder's sub-share times ct's A. A wrong one names its holder.
func (rc *RecoveryCommit) VerifyRecoveryShare(dealer int, ct *Ciphertext, rs *RecoveryShare, ctx []byte) error {
	if len(rc.c) == 0 || rs.Holder < 0 || rs.Holder >= maxItems || rs.Holder == dealer {
		return blame(rs.Holder, ErrRecoveryShare, "holder %d of party %d's secret", rs.Holder, dealer)
	}
	v := rc.image(rs.Holder)
	c := recoveryChallenge(v, ct, rs, ctx)
	var negc ristretto255.Scalar
	negc.Negate(c)
	// z·G − c·V = R1 and z·A − c·E = R2.
	var t ristretto255.Element
	if t.VarTimeDoubleScalarBaseMult(&negc, v, &rs.z).Equal(&rs.r1) != 1 ||
		t.VarTimeMultiScalarMult([]*ristretto255.Scalar{&rs.z, &negc}, []*ristretto255.Element{&ct.a, &rs.e}).Equal(&rs.r2) != 1 {
		return blame(rs.Holder, ErrRecoveryShare, "of party %d's share", dealer)
	}
	return nil
}

// CombineRecovery is dealer's share of ct from the holders' recovery
// shares: each is checked (a wrong one names its holder), at least the
// threshold of distinct holders other than the dealer are needed, and
// the first threshold of them are interpolated at 0. The share has no
// proof of its own (nobody knows the secret to make one): Reveal takes
// it, but Verify, VerifyShares and so an Opening refuse it, so that nobody
// can pass a recovered card off as opened by its holder; the recovery
// shares are its proof.
func CombineRecovery(dealer int, rc *RecoveryCommit, ct *Ciphertext, rss []RecoveryShare, ctx []byte) (Share, error) {
	t := len(rc.c)
	if t == 0 {
		return Share{}, blame(dealer, ErrRecovery, "no commitments")
	}
	seen := map[int]bool{}
	var use []*RecoveryShare
	for i := range rss {
		rs := &rss[i]
		if err := rc.VerifyRecoveryShare(dealer, ct, rs, ctx); err != nil {
			return Share{}, err
		}
		if seen[rs.Holder] {
			return Share{}, blame(rs.Holder, ErrRecoveryShare, "twice for party %d's share", dealer)
		}
		seen[rs.Holder] = true
		use = append(use, rs)
	}
	if len(use) < t {
		return Share{}, fmt.Errorf("%w: %d recovery shares of %d", ErrTooFew, len(use), t)
	}
	use = use[:t]
	var sh Share
	sh.d.Zero() // the identity (a zero value is none)
	for j, rs := range use {
		num, den := scalarInt(1), scalarInt(1)
		aj := scalarInt(uint64(rs.Holder) + 1)
		for m, o := range use {
			if m == j {
				continue
			}
			am := scalarInt(uint64(o.Holder) + 1)
			num.Multiply(num, am)
			den.Multiply(den, ristretto255.NewScalar().Subtract(am, aj))
		}
		num.Multiply(num, den.Invert(den))
		sh.d.Add(&sh.d, ristretto255.NewElement().ScalarMult(num, &rs.e))
	}
	sh.recovered = true
	sh.d.Encode(sh.enc[:0])
	return sh, nil
}

// MarshalBinary is the holder (2 bytes), E, R1, R2 and z: 130 bytes.
func (rs *RecoveryShare) MarshalBinary() ([]byte, error) {
	if rs.Holder < 0 || rs.Holder >= maxItems {
		return nil, fmt.Errorf("mental: no holder %d", rs.Holder)
	}
	b := make([]byte, 0, recoveryShareSize)
	b = appendU16(b, rs.Holder)
	b = rs.r2.Encode(rs.r1.Encode(rs.e.Encode(b)))
	return rs.z.Encode(b), nil
}

// UnmarshalBinary reads what MarshalBinary wrote.
func (rs *RecoveryShare) UnmarshalBinary(b []byte) error {
	r := reader{b: b}
	var t RecoveryShare
	t.Holder = r.count(maxItems - 1)
	r.element(&t.e)
	r.element(&t.r1)
	r.element(&t.r2)
	r.scalar(&t.z)
	if err := r.done("recovery share"); err != nil {
		return err
	}
	*rs = t
	return nil
}
