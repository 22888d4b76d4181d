package mental

import (
	"bytes"
	"errors"
	"testing"
)

// recoverySetup is a table of n after its shuffles, with dealer's secret
// split at the default threshold, and every holder's recovery share of
// the first card of dealer's hand, each through its wire bytes.
type recoverySetup struct {
	tb     *table
	dealer int
	rs     RecoveryShares
	p      int // the card's deck position
	ct     Ciphertext
	rss    []RecoveryShare // from every holder, in party order
}

func newRecoverySetup(t testing.TB, seed uint64, n, dealer int) *recoverySetup {
	t.Helper()
	tb := newTable(t, seed, n)
	r := rng(seed + 1000)
	rs, err := Split(r, &tb.secrets[dealer], dealer, n, DefaultThreshold(n))
	if err != nil {
		t.Fatal(err)
	}
	if err := rs.Commit.Check(dealer, &tb.keys[dealer], DefaultThreshold(n)); err != nil {
		t.Fatal(err)
	}
	s := &recoverySetup{tb: tb, dealer: dealer, rs: rs, p: tb.hand(dealer)[0]}
	s.ct = tb.deck()[s.p]
	for j := range n {
		if j == dealer {
			continue
		}
		e, err := RecoverShare(r, dealer, &rs.Subs[j], &s.ct, gameCtx)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := e.MarshalBinary()
		var back RecoveryShare
		if err := back.UnmarshalBinary(b); err != nil {
			t.Fatal(err)
		}
		if back.Holder != j {
			t.Fatalf("holder %d travels as %d", j, back.Holder)
		}
		s.rss = append(s.rss, back)
	}
	return s
}

// othersShares is every party's ordinary share of ct but the dealer's.
func (s *recoverySetup) othersShares(t testing.TB) []Share {
	t.Helper()
	r := rng(99)
	out := make([]Share, s.tb.n)
	for i := range s.tb.n {
		if i == s.dealer {
			continue
		}
		sh, err := DecryptShare(r, &s.tb.secrets[i], &s.ct, gameCtx)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = sh
	}
	return out
}

// A silent party's card turned up from the others' recovery shares and
// their ordinary shares: the face is the card's (as every secret decrypts
// it), and t − 1 holders are refused.
func TestRecoveryOpenCard(t *testing.T) {
	for _, c := range []struct{ n, dealer int }{{4, 1}, {10, 6}} {
		s := newRecoverySetup(t, uint64(300+c.n), c.n, c.dealer)
		tb := s.tb
		want, err := tb.cb.Decrypt(&s.ct, tb.secrets)
		if err != nil {
			t.Fatal(err)
		}
		for i := range s.rss {
			if err := s.rs.Commit.VerifyRecoveryShare(s.dealer, &s.ct, &s.rss[i], gameCtx); err != nil {
				t.Fatalf("n=%d: honest recovery share: %v", c.n, err)
			}
		}
		sh, err := CombineRecovery(s.dealer, &s.rs.Commit, &s.ct, s.rss, gameCtx)
		if err != nil {
			t.Fatalf("n=%d: %v", c.n, err)
		}
		if !sh.Recovered() {
			t.Fatal("combined share is not marked recovered")
		}
		own, _ := DecryptShare(rng(1), &tb.secrets[s.dealer], &s.ct, gameCtx)
		if own.Recovered() {
			t.Fatal("a party's own share reads as recovered")
		}
		if sh.d.Equal(&own.d) != 1 {
			t.Fatalf("n=%d: recovered D is not x_i·A", c.n)
		}
		// Through its wire bytes, as it would be passed on.
		b, _ := sh.MarshalBinary()
		var back Share
		if err := back.UnmarshalBinary(b); err != nil || !back.Recovered() {
			t.Fatalf("recovered share round trip: %v", err)
		}
		shares := s.othersShares(t)
		shares[s.dealer] = back
		got, err := tb.cb.Reveal(&s.ct, shares)
		if err != nil || got != want {
			t.Fatalf("n=%d: turned up %v (%v), want %v", c.n, got, err, want)
		}
		// Any t holders do: the last t, in another order.
		th := s.rs.Commit.Threshold()
		if th != c.n-1 {
			t.Fatalf("threshold %d", th)
		}
		rev := make([]RecoveryShare, 0, th)
		for i := len(s.rss) - 1; i >= 0; i-- {
			rev = append(rev, s.rss[i])
		}
		if sh2, err := CombineRecovery(s.dealer, &s.rs.Commit, &s.ct, rev, gameCtx); err != nil || sh2.d.Equal(&own.d) != 1 {
			t.Fatalf("n=%d: reversed holders: %v", c.n, err)
		}
		// t − 1 holders are refused.
		if _, err := CombineRecovery(s.dealer, &s.rs.Commit, &s.ct, s.rss[:th-1], gameCtx); !errors.Is(err, ErrTooFew) {
			t.Fatalf("n=%d: %d holders combined: %v", c.n, th-1, err)
		}
	}
}

// A holder that sends a wrong E: made with a wrong scalar, shifted by a
// card's point under its honest proof, its share of another card replayed,
// made under another context, or made with its sub-share of another
// dealer. VerifyRecoveryShare and CombineRecovery refuse each and name it.
func TestRecoveryShareDishonest(t *testing.T) {
	s := newRecoverySetup(t, 400, 4, 1)
	tb := s.tb
	r := rng(401)
	const h = 2 // the cheat
	hi := 1     // its index in s.rss (holders 0, 2, 3)
	if s.rss[hi].Holder != h {
		t.Fatal("setup")
	}
	wrongSub := s.rs.Subs[h]
	wrongSub.v.Add(&wrongSub.v, scalarInt(1))
	wrongScalar, _ := RecoverShare(r, s.dealer, &wrongSub, &s.ct, gameCtx)

	shifted := s.rss[hi]
	shifted.e.Add(&shifted.e, tb.cb.faces[7].Point())

	other := tb.deck()[tb.hand(s.dealer)[1]]
	replayed, _ := RecoverShare(r, s.dealer, &s.rs.Subs[h], &other, gameCtx)

	otherCtx, _ := RecoverShare(r, s.dealer, &s.rs.Subs[h], &s.ct, []byte("another game"))

	rs3, _ := Split(r, &tb.secrets[3], 3, 4, 3)
	otherDealer, _ := RecoverShare(r, 3, &rs3.Subs[h], &s.ct, gameCtx)
	// Its honest share, claimed for dealer 3's card: the dealer is bound too.
	honestOtherDealer := s.rss[hi]

	cases := []struct {
		name   string
		bad    RecoveryShare
		dealer int
		rc     *RecoveryCommit
	}{
		{"wrong scalar", wrongScalar, s.dealer, &s.rs.Commit},
		{"shifted E", shifted, s.dealer, &s.rs.Commit},
		{"another card's", replayed, s.dealer, &s.rs.Commit},
		{"another context", otherCtx, s.dealer, &s.rs.Commit},
		{"another dealer's sub-share", otherDealer, s.dealer, &s.rs.Commit},
		{"presented for another dealer", honestOtherDealer, 3, &rs3.Commit},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mustFault(t, c.rc.VerifyRecoveryShare(c.dealer, &s.ct, &c.bad, gameCtx), ErrRecoveryProof, h)
			rss := append([]RecoveryShare(nil), s.rss...)
			rss[hi] = c.bad
			if c.dealer == 3 {
				rss = []RecoveryShare{c.bad} // alone; the check comes before the count
			}
			_, err := CombineRecovery(c.dealer, c.rc, &s.ct, rss, gameCtx)
			mustFault(t, err, ErrRecoveryProof, h)
		})
	}
	// Honest, the same shares pass: each case breaks only the one share.
	if _, err := CombineRecovery(s.dealer, &s.rs.Commit, &s.ct, s.rss, gameCtx); err != nil {
		t.Fatal(err)
	}
}

// Holders that hold nothing: out of range, the dealer itself, a holder
// twice (so that t − 1 holders would pass as t).
func TestRecoveryShareHolders(t *testing.T) {
	s := newRecoverySetup(t, 500, 4, 1)
	rc := &s.rs.Commit
	for _, bad := range []int{-1, maxItems} {
		rs := s.rss[0]
		rs.Holder = bad
		if err := rc.VerifyRecoveryShare(s.dealer, &s.ct, &rs, gameCtx); !errors.Is(err, ErrHolder) {
			t.Fatalf("holder %d: %v", bad, err)
		}
		rss := append([]RecoveryShare{rs}, s.rss...)
		if _, err := CombineRecovery(s.dealer, rc, &s.ct, rss, gameCtx); !errors.Is(err, ErrHolder) {
			t.Fatalf("holder %d combined: %v", bad, err)
		}
		if _, err := rs.MarshalBinary(); err == nil {
			t.Fatalf("holder %d encodes", bad)
		}
	}
	// The dealer as a holder: it has no sub-share; a share it made at its
	// own point would be consistent with the commitments (it knows the
	// polynomial), but it is refused all the same.
	dealerAs := s.rss[0]
	dealerAs.Holder = s.dealer
	mustFault(t, rc.VerifyRecoveryShare(s.dealer, &s.ct, &dealerAs, gameCtx), ErrHolder, s.dealer)
	_, err := CombineRecovery(s.dealer, rc, &s.ct, append([]RecoveryShare{dealerAs}, s.rss...), gameCtx)
	mustFault(t, err, ErrHolder, s.dealer)
	if _, err := RecoverShare(rng(1), s.dealer, &SubShare{Holder: s.dealer}, &s.ct, gameCtx); !errors.Is(err, ErrHolder) {
		t.Fatalf("the dealer made a recovery share: %v", err)
	}
	if _, err := RecoverShare(rng(1), s.dealer, &s.rs.Subs[s.dealer], &s.ct, gameCtx); !errors.Is(err, ErrHolder) {
		t.Fatalf("the dealer's empty entry made a recovery share: %v", err)
	}
	// Twice: t − 1 distinct holders and one repeated.
	twice := []RecoveryShare{s.rss[0], s.rss[1], s.rss[1]}
	_, err = CombineRecovery(s.dealer, rc, &s.ct, twice, gameCtx)
	mustFault(t, err, ErrHolderTwice, s.rss[1].Holder)
}

// The recovered share is no proof: an opening of the silent party's card
// with it (the true face, every other share honest) is refused, naming
// the opener, as is one with the proof of the party's share of another
// card pasted on. Reveal alone would believe both.
func TestRecoveredShareForgesNoOpening(t *testing.T) {
	s := newRecoverySetup(t, 600, 4, 2)
	tb := s.tb
	rec, err := CombineRecovery(s.dealer, &s.rs.Commit, &s.ct, s.rss, gameCtx)
	if err != nil {
		t.Fatal(err)
	}
	shares := s.othersShares(t)
	shares[s.dealer] = rec
	face, err := tb.cb.Reveal(&s.ct, shares)
	if err != nil {
		t.Fatal(err)
	}
	const opener = 0
	o := Opening{Face: face, Shares: shares}
	err = o.Verify(tb.cb, tb.keys, opener, &s.ct, gameCtx)
	mustFault(t, err, ErrShareProof, opener)
	if !errorsContains(err, "from party 2") {
		t.Fatalf("%v does not name the share's party", err)
	}
	// Through the wire, the same.
	b, _ := o.MarshalBinary()
	var back Opening
	if err := back.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	mustFault(t, back.Verify(tb.cb, tb.keys, opener, &s.ct, gameCtx), ErrShareProof, opener)

	// The party's real proof from another card, pasted on the recovered D.
	other := tb.deck()[tb.hand(s.dealer)[1]]
	real, _ := DecryptShare(rng(3), &tb.secrets[s.dealer], &other, gameCtx)
	pasted := rec
	pasted.r1, pasted.r2, pasted.s = real.r1, real.r2, real.s
	copy(pasted.enc[ElementSize:], real.enc[ElementSize:])
	o.Shares = append([]Share(nil), shares...)
	o.Shares[s.dealer] = pasted
	if f, _ := tb.cb.Reveal(&s.ct, o.Shares); f != face {
		t.Fatal("the pasted share does not even combine to the card")
	}
	mustFault(t, o.Verify(tb.cb, tb.keys, opener, &s.ct, gameCtx), ErrShareProof, opener)
	if err := rec.Verify(&tb.keys[s.dealer], &s.ct, gameCtx); !errors.Is(err, ErrShareProof) {
		t.Fatalf("a recovered share verified: %v", err)
	}

	// The honest opening, with the party's own share, passes.
	own, _ := DecryptShare(rng(4), &tb.secrets[s.dealer], &s.ct, gameCtx)
	o.Shares[s.dealer] = own
	if err := o.Verify(tb.cb, tb.keys, opener, &s.ct, gameCtx); err != nil {
		t.Fatal(err)
	}
}

// Several cards at once: one holder's shares of three cards, combined
// together, turn each card up; a wrong one among them names its holder.
func TestRecoverSharesBatch(t *testing.T) {
	tb := newTable(t, 700, 4)
	r := rng(701)
	const dealer = 3
	rs, _ := Split(r, &tb.secrets[dealer], dealer, 4, 3)
	var cts []Ciphertext
	for _, p := range tb.hand(dealer)[:3] {
		cts = append(cts, tb.deck()[p])
	}
	rss := make([][]RecoveryShare, len(cts))
	for j := range dealer {
		mine, err := RecoverShares(r, dealer, &rs.Subs[j], cts, gameCtx)
		if err != nil {
			t.Fatal(err)
		}
		for k := range cts {
			rss[k] = append(rss[k], mine[k])
		}
	}
	got, err := CombineRecoveries(dealer, &rs.Commit, cts, rss, gameCtx)
	if err != nil {
		t.Fatal(err)
	}
	for k := range cts {
		own, _ := DecryptShare(r, &tb.secrets[dealer], &cts[k], gameCtx)
		if got[k].d.Equal(&own.d) != 1 {
			t.Fatalf("card %d: recovered D is wrong", k)
		}
	}
	// One wrong s among the nine proofs (holder 2's, card 2) fails the
	// batch and names holder 2, not the first holder of the batch.
	bad := cloneRecovery(rss)
	bad[2][2].s.Add(&bad[2][2].s, scalarInt(1))
	_, err = CombineRecoveries(dealer, &rs.Commit, cts, bad, gameCtx)
	mustFault(t, err, ErrRecoveryProof, 2)
	if !errorsContains(err, "card 2 of 3") {
		t.Fatalf("%v does not say which card", err)
	}
	// Two wrong proofs whose errors would cancel in an unweighted sum:
	// holder 0's R1 moved by +P on card 0 and −P on card 1.
	bad = cloneRecovery(rss)
	p := tb.cb.faces[3].Point()
	bad[0][0].r1.Add(&bad[0][0].r1, p)
	bad[1][0].r1.Subtract(&bad[1][0].r1, p)
	_, err = CombineRecoveries(dealer, &rs.Commit, cts, bad, gameCtx)
	mustFault(t, err, ErrRecoveryProof, 0)
	// Holder 1's shares of cards 0 and 1 swapped.
	rss[0][1], rss[1][1] = rss[1][1], rss[0][1]
	_, err = CombineRecoveries(dealer, &rs.Commit, cts, rss, gameCtx)
	mustFault(t, err, ErrRecoveryProof, 1)
}

// The decoder refuses a truncated share, one too long, a non-canonical
// element or scalar, a holder out of range.
func TestRecoveryShareDecode(t *testing.T) {
	s := newRecoverySetup(t, 800, 3, 0)
	good, _ := s.rss[0].MarshalBinary()
	if len(good) != recoveryShareSize {
		t.Fatalf("%d bytes", len(good))
	}
	edit := func(f func(b []byte)) []byte {
		b := bytes.Clone(good)
		f(b)
		return b
	}
	ff := bytes.Repeat([]byte{0xff}, 32)
	cases := map[string][]byte{
		"empty":               nil,
		"truncated":           good[:len(good)-1],
		"holder only":         good[:2],
		"too long":            append(bytes.Clone(good), 0),
		"non-canonical E":     edit(func(b []byte) { copy(b[2:], ff) }),
		"non-canonical R2":    edit(func(b []byte) { copy(b[2+2*ElementSize:], ff) }),
		"non-canonical s":     edit(func(b []byte) { copy(b[2+3*ElementSize:], ff) }),
		"holder out of range": edit(func(b []byte) { b[0], b[1] = 0x04, 0x00 }),
		"holder far out":      edit(func(b []byte) { b[0], b[1] = 0xff, 0xff }),
	}
	for name, b := range cases {
		t.Run(name, func(t *testing.T) {
			var rs RecoveryShare
			rs.Holder = 7
			if err := rs.UnmarshalBinary(b); !errors.Is(err, ErrMalformed) {
				t.Fatalf("decoded: %v", err)
			}
			if rs.Holder != 7 {
				t.Fatal("a refused decode changed the value")
			}
		})
	}
	var rs RecoveryShare
	if err := rs.UnmarshalBinary(good); err != nil {
		t.Fatal(err)
	}
	if again, _ := rs.MarshalBinary(); !bytes.Equal(again, good) {
		t.Fatal("round trip changed bytes")
	}
}

func cloneRecovery(s [][]RecoveryShare) [][]RecoveryShare {
	out := make([][]RecoveryShare, len(s))
	for i := range s {
		out[i] = append([]RecoveryShare(nil), s[i]...)
	}
	return out
}
