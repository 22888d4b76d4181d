package mental

import (
	"testing"
)

// splits is every party's recovery split at tb (threshold n − 1).
func (tb *table) splits(t testing.TB, seed uint64) []RecoveryShares {
	t.Helper()
	r := rng(seed)
	out := make([]RecoveryShares, tb.n)
	for i := range tb.n {
		rs, err := Split(r, &tb.secrets[i], i, tb.n, DefaultThreshold(tb.n))
		if err != nil {
			t.Fatal(err)
		}
		out[i] = rs
	}
	return out
}

// recoverCard has every holder but the dealer give its recovery share of
// position p, as each would broadcast it.
func (tb *table) recoverCard(t testing.TB, split []RecoveryShares, dealer, p int) []RecoveryShare {
	t.Helper()
	r := rng(uint64(1000*dealer + p))
	var out []RecoveryShare
	for j := range tb.n {
		if j == dealer {
			continue
		}
		rs, err := RecoverShare(r, &split[dealer].Subs[j], &tb.deck()[p], gameCtx)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, rs)
	}
	return out
}

// A party's card turns up from the others' recovery shares and the
// shares they dealt, with no party rebuilding its secret: at 2, 4 and 10
// parties, each a card of the last party's.
func TestRecoverCard(t *testing.T) {
	for _, n := range []int{2, 4, 10} {
		tb := newTable(t, uint64(70+n), n)
		split := tb.splits(t, uint64(80+n))
		dealt := tb.shareOut(t, rng(uint64(90+n)))
		dealer := n - 1
		for _, p := range tb.hand(dealer)[:3] {
			ct := tb.deck()[p]
			sh, err := CombineRecovery(dealer, &split[dealer].Commit, &ct, tb.recoverCard(t, split, dealer, p), gameCtx)
			if err != nil {
				t.Fatal(err)
			}
			shares := append([]Share(nil), dealt[p]...)
			shares[dealer] = sh
			got, err := tb.cb.Reveal(&ct, shares)
			if err != nil {
				t.Fatal(err)
			}
			want, err := tb.cb.Decrypt(&ct, tb.secrets)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("%d parties: card %d recovered as %s; it is %s", n, p, got, want)
			}
			// The share is the dealer's own, to the point.
			own, _ := DecryptShare(rng(1), &tb.secrets[dealer], &ct, gameCtx)
			if own.d.Equal(&sh.d) != 1 {
				t.Fatalf("%d parties: the recovered share isn't party %d's", n, dealer)
			}
		}
	}
}

// Fewer holders than the threshold, a holder twice, the dealer as its
// own holder: each refused.
func TestRecoverCardRefusals(t *testing.T) {
	tb := newTable(t, 5, 4)
	split := tb.splits(t, 6)
	p := tb.hand(2)[0]
	ct := tb.deck()[p]
	rss := tb.recoverCard(t, split, 2, p)
	rc := &split[2].Commit
	if _, err := CombineRecovery(2, rc, &ct, rss[:2], gameCtx); !errorsIs(err, ErrTooFew) {
		t.Fatalf("2 of 3 holders: %v", err)
	}
	if _, err := CombineRecovery(2, rc, &ct, append(rss[:2:2], rss[0]), gameCtx); !errorsIs(err, ErrRecoveryShare) {
		t.Fatalf("a holder twice: %v", err)
	}
	own := rss[0]
	own.Holder = 2
	if _, err := CombineRecovery(2, rc, &ct, append([]RecoveryShare{own}, rss...), gameCtx); !errorsIs(err, ErrRecoveryShare) {
		t.Fatalf("the dealer as holder: %v", err)
	}
}

// A holder that cheats is named, whichever way: its share of another
// card, its share under another game's context, another holder's share
// under its name, E made with a wrong scalar and a proof for it, or its
// sub-share of another dealer's secret.
func TestDishonestRecoveryShare(t *testing.T) {
	tb := newTable(t, 7, 4)
	split := tb.splits(t, 8)
	p, q := tb.hand(3)[0], tb.hand(3)[1]
	ct := tb.deck()[p]
	rc := &split[3].Commit
	for _, c := range []struct {
		name  string
		forge func() RecoveryShare
	}{
		{"another card's", func() RecoveryShare {
			rs, _ := RecoverShare(rng(2), &split[3].Subs[1], &tb.deck()[q], gameCtx)
			return rs
		}},
		{"another game's", func() RecoveryShare {
			rs, _ := RecoverShare(rng(2), &split[3].Subs[1], &ct, []byte("another game"))
			return rs
		}},
		{"another holder's, renamed", func() RecoveryShare {
			rs, _ := RecoverShare(rng(2), &split[3].Subs[0], &ct, gameCtx)
			rs.Holder = 1
			return rs
		}},
		{"a wrong scalar", func() RecoveryShare {
			wrong := split[3].Subs[1]
			wrong.v.Add(&wrong.v, scalarInt(1))
			rs, _ := RecoverShare(rng(2), &wrong, &ct, gameCtx)
			return rs
		}},
		{"another dealer's sub-share", func() RecoveryShare {
			rs, _ := RecoverShare(rng(2), &split[0].Subs[1], &ct, gameCtx)
			return rs
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			bad := c.forge()
			mustFault(t, rc.VerifyRecoveryShare(3, &ct, &bad, gameCtx), ErrRecoveryShare, 1)
			rss := tb.recoverCard(t, split, 3, p)
			rss[1] = bad // holder 1's place
			_, err := CombineRecovery(3, rc, &ct, rss, gameCtx)
			mustFault(t, err, ErrRecoveryShare, 1)
		})
	}
}

// A recovered share proves nothing by itself: an opening that carries one
// as if its party had turned the card up is refused, naming the opener,
// and so is the share checked alone. The attack: a party turns up a card
// of party 3's, recovered, and presents it as party 3's own opening.
func TestRecoveredShareIsNoOpening(t *testing.T) {
	tb := newTable(t, 9, 4)
	split := tb.splits(t, 10)
	dealt := tb.shareOut(t, rng(11))
	p := tb.hand(3)[0]
	ct := tb.deck()[p]
	sh, err := CombineRecovery(3, &split[3].Commit, &ct, tb.recoverCard(t, split, 3, p), gameCtx)
	if err != nil {
		t.Fatal(err)
	}
	shares := append([]Share(nil), dealt[p]...)
	shares[3] = sh
	f, err := tb.cb.Reveal(&ct, shares)
	if err != nil {
		t.Fatal(err)
	}
	op := Opening{Face: f, Shares: shares}
	mustFault(t, op.Verify(tb.cb, tb.keys, 3, &ct, gameCtx), ErrShareProof, 3)
	if err := sh.Verify(&tb.keys[3], &ct, gameCtx); !errorsIs(err, ErrShareProof) {
		t.Fatalf("a recovered share verified as a proved one: %v", err)
	}
	// Marshalled, it comes back as a share whose proof fails.
	b, _ := sh.MarshalBinary()
	var back Share
	if err := back.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if err := back.Verify(&tb.keys[3], &ct, gameCtx); !errorsIs(err, ErrShareProof) {
		t.Fatalf("a recovered share, sent, verified: %v", err)
	}
}

// A recovery share's bytes: the round trip, and every short, long or
// non-canonical form refused.
func TestRecoveryShareEncoding(t *testing.T) {
	tb := newTable(t, 12, 3)
	split := tb.splits(t, 13)
	rs := tb.recoverCard(t, split, 0, tb.hand(0)[0])[0]
	b, err := rs.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != recoveryShareSize {
		t.Fatalf("%d bytes; want %d", len(b), recoveryShareSize)
	}
	var back RecoveryShare
	if err := back.UnmarshalBinary(b); err != nil || back.Holder != rs.Holder || back.e.Equal(&rs.e) != 1 {
		t.Fatalf("round trip: %v", err)
	}
	bad := func(f func([]byte) []byte) []byte { return f(append([]byte(nil), b...)) }
	for name, x := range map[string][]byte{
		"short":           b[:len(b)-1],
		"long":            append(append([]byte(nil), b...), 0),
		"empty":           nil,
		"holder too big":  bad(func(x []byte) []byte { x[0], x[1] = 0xff, 0xff; return x }),
		"E not canonical": bad(func(x []byte) []byte { copy(x[2:34], nonCanonical()); return x }),
		"z not canonical": bad(func(x []byte) []byte { copy(x[98:], nonCanonical()); return x }),
	} {
		var v RecoveryShare
		if err := v.UnmarshalBinary(x); !errorsIs(err, ErrMalformed) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func nonCanonical() []byte {
	b := make([]byte, 32)
	for i := range b {
		b[i] = 0xff
	}
	return b
}

// BenchmarkRecoverShares4 is one holder's recovery shares of a play of 4
// cards; BenchmarkCombine4At10 the host's (and every node's) check and
// combination of the 9 holders' shares of those 4 cards at 10 parties.
func BenchmarkRecoverShares4(b *testing.B) {
	tb := newTable(b, 14, 10)
	split := tb.splits(b, 15)
	r := rng(16)
	for b.Loop() {
		for _, p := range tb.hand(9)[:4] {
			if _, err := RecoverShare(r, &split[9].Subs[0], &tb.deck()[p], gameCtx); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkCombine4At10(b *testing.B) {
	tb := newTable(b, 14, 10)
	split := tb.splits(b, 15)
	var rss [][]RecoveryShare
	for _, p := range tb.hand(9)[:4] {
		rss = append(rss, tb.recoverCard(b, split, 9, p))
	}
	for b.Loop() {
		for k, p := range tb.hand(9)[:4] {
			if _, err := CombineRecovery(9, &split[9].Commit, &tb.deck()[p], rss[k], gameCtx); err != nil {
				b.Fatal(err)
			}
		}
	}
}
