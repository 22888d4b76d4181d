package mental

import (
	"fmt"
	"io"

	"github.com/gtank/ristretto255"
)

// Recovery: each party splits its deck secret among the others with
// Shamir's scheme over the scalar field, threshold t, and publishes Feldman
// commitments to the polynomial (a_0·G = its deck key, a_1·G …), so a
// holder checks its sub-share the moment it arrives. If the party leaves
// for good, any t of the holders together rebuild its secret and the game
// goes on: its cards still open. Fewer than t holders learn nothing of the
// secret (Shamir's is perfectly hiding; the commitments hide it as well as
// the deck key itself does).
//
// The default threshold is every other party (DefaultThreshold): since
// every party but one together know that one's hand by elimination once
// all cards are dealt, it costs nothing in secrecy, and a lower one would
// let a coalition read a hand it could not otherwise.

// DefaultThreshold is every other party: n − 1 at a table of n.
func DefaultThreshold(parties int) int { return parties - 1 }

// A SubShare is the value of a party's polynomial at a holder's point
// (holder index + 1). It travels sealed to its holder.
type SubShare struct {
	Holder int
	v      ristretto255.Scalar
}

// RecoveryShares is what a party's split makes: the public commitments,
// and one sub-share per other party (Subs[j] for party j; the dealer's own
// entry is empty and never sent).
type RecoveryShares struct {
	Commit RecoveryCommit
	Subs   []SubShare
}

// A RecoveryCommit is the Feldman commitments a_k·G, k < t. Its length is
// the threshold.
type RecoveryCommit struct{ c []ristretto255.Element }

// Threshold is how many sub-shares rebuild the secret.
func (rc *RecoveryCommit) Threshold() int { return len(rc.c) }

// Split splits dealer's secret among the other parties of a table of n,
// threshold t (1 ≤ t ≤ n − 1).
func Split(rand io.Reader, x *Secret, dealer, n, t int) (RecoveryShares, error) {
	if n < 2 || n > maxItems || dealer < 0 || dealer >= n || t < 1 || t > n-1 {
		return RecoveryShares{}, fmt.Errorf("mental: no split of party %d's secret at %d parties with threshold %d", dealer, n, t)
	}
	coef := make([]ristretto255.Scalar, t)
	coef[0] = x.x
	for k := 1; k < t; k++ {
		a, err := randomScalar(rand)
		if err != nil {
			return RecoveryShares{}, err
		}
		coef[k] = *a
	}
	rs := RecoveryShares{Commit: RecoveryCommit{c: make([]ristretto255.Element, t)}, Subs: make([]SubShare, n)}
	for k := range coef {
		rs.Commit.c[k].ScalarBaseMult(&coef[k])
	}
	for j := range n {
		if j == dealer {
			rs.Subs[j] = SubShare{Holder: -1}
			continue
		}
		rs.Subs[j] = SubShare{Holder: j, v: *eval(coef, j)}
	}
	return rs, nil
}

// eval is f(holder + 1), by Horner.
func eval(coef []ristretto255.Scalar, holder int) *ristretto255.Scalar {
	at := scalarInt(uint64(holder) + 1)
	v := ristretto255.NewScalar()
	for k := len(coef) - 1; k >= 0; k-- {
		v.Multiply(v, at)
		v.Add(v, &coef[k])
	}
	return v
}

// Check checks the commitments against the dealer's deck key (a_0·G must
// be it) and that the threshold is what the table agreed.
func (rc *RecoveryCommit) Check(dealer int, key *PublicKey, t int) error {
	if len(rc.c) != t {
		return blame(dealer, ErrRecovery, "threshold %d, want %d", len(rc.c), t)
	}
	if rc.c[0].Equal(&key.p) != 1 {
		return blame(dealer, ErrRecovery, "")
	}
	return nil
}

func (rc *RecoveryCommit) verify(s *SubShare) bool {
	if len(rc.c) == 0 || s.Holder < 0 || s.Holder >= maxItems {
		return false
	}
	// Σ C_k·at^k (one multi-scalar multiplication) against v·G.
	return ristretto255.NewElement().ScalarBaseMult(&s.v).Equal(rc.point(s.Holder)) == 1
}

// VerifySub is the holder's check of the sub-share dealer sent it: a
// wrong one names the dealer.
func (rc *RecoveryCommit) VerifySub(dealer int, s *SubShare) error {
	if !rc.verify(s) {
		return blame(dealer, ErrSubShare, "for party %d", s.Holder)
	}
	return nil
}

// Recover rebuilds the secret of a departed party from the sub-shares the
// holders present (any t or more, each from a different holder). A
// sub-share that does not match the commitments names the holder that
// presented it; the result is checked against the deck key.
func Recover(dealer int, key *PublicKey, rc *RecoveryCommit, subs []SubShare) (Secret, error) {
	t := len(rc.c)
	if t == 0 {
		return Secret{}, blame(dealer, ErrRecovery, "no commitments")
	}
	seen := map[int]bool{}
	var use []SubShare
	for i := range subs {
		s := &subs[i]
		if s.Holder < 0 || s.Holder == dealer || seen[s.Holder] { // the dealer's own entry is empty
			continue
		}
		if !rc.verify(s) {
			return Secret{}, blame(s.Holder, ErrSubShare, "presented for party %d's secret", dealer)
		}
		seen[s.Holder] = true
		use = append(use, *s)
	}
	if len(use) < t {
		return Secret{}, fmt.Errorf("%w: %d of %d", ErrTooFew, len(use), t)
	}
	sec := newSecret(interpolate(use[:t]))
	if err := CheckSecret(dealer, &sec, key); err != nil {
		return Secret{}, err
	}
	return sec, nil
}

// MarshalBinary is the holder (2 bytes) and the value.
func (s *SubShare) MarshalBinary() ([]byte, error) {
	if s.Holder < 0 || s.Holder >= maxItems {
		return nil, fmt.Errorf("mental: no holder %d", s.Holder)
	}
	return s.v.Encode(appendU16(nil, s.Holder)), nil
}

// UnmarshalBinary reads what MarshalBinary wrote.
func (s *SubShare) UnmarshalBinary(b []byte) error {
	r := reader{b: b}
	var t SubShare
	t.Holder = r.count(maxItems - 1)
	r.scalar(&t.v)
	if err := r.done("sub-share"); err != nil {
		return err
	}
	*s = t
	return nil
}

// MarshalBinary is a 2-byte count t, then the t commitments.
func (rc *RecoveryCommit) MarshalBinary() ([]byte, error) {
	b := appendU16(nil, len(rc.c))
	for i := range rc.c {
		b = rc.c[i].Encode(b)
	}
	return b, nil
}

// UnmarshalBinary reads what MarshalBinary wrote.
func (rc *RecoveryCommit) UnmarshalBinary(b []byte) error {
	r := reader{b: b}
	n := r.count(maxItems)
	if len(r.b) != n*ElementSize {
		return fmt.Errorf("%w: recovery commitments", ErrMalformed)
	}
	t := RecoveryCommit{c: make([]ristretto255.Element, n)}
	for i := range t.c {
		r.element(&t.c[i])
	}
	if err := r.done("recovery commitments"); err != nil {
		return err
	}
	*rc = t
	return nil
}

// interpolate is the value at 0 of the polynomial through the sub-shares
// (Lagrange): Σ v_j · Π_{m≠j} at_m / (at_m − at_j).
func interpolate(use []SubShare) *ristretto255.Scalar {
	x := ristretto255.NewScalar()
	for j := range use {
		num, den := scalarInt(1), scalarInt(1)
		aj := scalarInt(uint64(use[j].Holder) + 1)
		for m := range use {
			if m == j {
				continue
			}
			am := scalarInt(uint64(use[m].Holder) + 1)
			num.Multiply(num, am)
			den.Multiply(den, ristretto255.NewScalar().Subtract(am, aj))
		}
		num.Multiply(num, den.Invert(den))
		x.Add(x, num.Multiply(num, &use[j].v))
	}
	return x
}
