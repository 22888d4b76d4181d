package mental

import (
	"errors"
	"testing"
)

// Dishonest parties, each playing its attack as a determined insider
// would, each caught and named.

// A wrong partial share: party 2 sends seat 0 a share shifted by a card's
// point (so that seat 0 would turn up the wrong card), with the proof it
// made for its true share, or with a proof made for the shifted value
// under a secret of its own choosing. Seat 0 refuses at once and names 2.
func TestDishonestWrongShare(t *testing.T) {
	tb := newTable(t, 1, 4)
	r := rng(11)
	shares := tb.shareOut(t, r)
	p := tb.hand(0)[0]
	ct := tb.deck()[p]
	honest := shares[p][2]

	shifted := honest
	shifted.d.Add(&honest.d, tb.cb.faces[5].Point())
	copy(shifted.enc[:], shifted.d.Encode(nil))

	// A proof for the shifted value: Chaum–Pedersen made with y such that
	// D' = y·A cannot exist for a known y, so the cheat makes a proof
	// for a fresh y and D' = y·A instead, a share that is "right" for
	// another key.
	y, _ := NewSecret(r)
	other, _ := DecryptShare(r, &y, &ct, gameCtx)

	// A share made under another context (replayed from another game).
	replayed, _ := DecryptShare(r, &tb.secrets[2], &ct, []byte("another game"))

	for name, bad := range map[string]Share{"shifted": shifted, "other key": other, "other game": replayed} {
		t.Run(name, func(t *testing.T) {
			forged := cloneShares(shares)
			forged[p][2] = bad
			_, _, err := tb.learn(t, r, 0, forged)
			mustFault(t, err, ErrShareProof, 2)
		})
	}
	// The same shares, honest, pass: the test breaks only the one share.
	if _, _, err := tb.learn(t, r, 0, shares); err != nil {
		t.Fatal(err)
	}
}

func cloneShares(s [][]Share) [][]Share {
	out := make([][]Share, len(s))
	for i := range s {
		out[i] = append([]Share(nil), s[i]...)
	}
	return out
}

// A false opening: seat 1 holds a card and claims another (the face it
// would like: an ace), with the true shares; or it forges its own share so
// that the shares combine to the ace, with the proof of its true share.
// Everyone refuses and names seat 1.
func TestDishonestFalseOpening(t *testing.T) {
	tb := newTable(t, 2, 5)
	r := rng(22)
	shares := tb.shareOut(t, r)
	faces, all, err := tb.learn(t, r, 1, shares)
	if err != nil {
		t.Fatal(err)
	}
	p := tb.hand(1)[0]
	ct := tb.deck()[p]
	want := Face{Card: 0, Deck: 1} // AC of the second deck
	if faces[0] == want {
		want.Card = 1
	}

	lie := Opening{Face: want, Shares: all[0]}
	mustFault(t, lie.Verify(tb.cb, tb.keys, 1, &ct, gameCtx), ErrFalseOpening, 1)

	// Forge its own share so the sum is want's point: D1' = D1 + M − M'.
	forged := Opening{Face: want, Shares: append([]Share(nil), all[0]...)}
	sh := &forged.Shares[1]
	sh.d.Add(&sh.d, faces[0].Point())
	sh.d.Subtract(&sh.d, want.Point())
	copy(sh.enc[:], sh.d.Encode(nil))
	if f, _ := tb.cb.Reveal(&ct, forged.Shares); f != want {
		t.Fatal("the forgery does not even combine to the claimed card")
	}
	mustFault(t, forged.Verify(tb.cb, tb.keys, 1, &ct, gameCtx), ErrShareProof, 1)

	// The honest opening passes.
	honest := Opening{Face: faces[0], Shares: all[0]}
	if err := honest.Verify(tb.cb, tb.keys, 1, &ct, gameCtx); err != nil {
		t.Fatal(err)
	}
}

// A substituted card: party 1, shuffling, replaces one card with a fresh
// encryption of a card it chose (an ace, which it will then know the
// place of) and publishes its real permutation and randomness at the end.
// The deal still goes on (the ace turns up twice, or the lost card never),
// but CheckShuffles names party 1.
func TestDishonestSubstitutedCard(t *testing.T) {
	r := rng(33)
	tb := newKeys(t, r, 3)
	tb.initial = tb.cb.Deck()
	in := tb.initial
	for i := range tb.n {
		st, o, err := Shuffle(r, &tb.joint, in, gameCtx)
		if err != nil {
			t.Fatal(err)
		}
		if i == 1 {
			ace, _ := Encrypt(r, &tb.joint, Face{Card: 3})
			st.Out[17] = ace
			st.Commit = o.commit(in, st.Out, gameCtx) // its commitment is to what it published
		}
		tb.steps = append(tb.steps, st)
		tb.openings = append(tb.openings, o)
		in = st.Out
	}
	err := CheckShuffles(&tb.joint, tb.initial, tb.steps, tb.openings, gameCtx)
	mustFault(t, err, ErrShuffle, 1)
}

// A shuffler that opens a different permutation than it committed: party
// 2 swaps two entries of its opening (with their randomness, so the
// opening still explains a deck) — its commitment refuses it.
func TestDishonestShuffleOpening(t *testing.T) {
	tb := newTable(t, 4, 4)
	o := &tb.openings[2]
	o.perm[0], o.perm[1] = o.perm[1], o.perm[0]
	o.rand[0], o.rand[1] = o.rand[1], o.rand[0]
	err := CheckShuffles(&tb.joint, tb.initial, tb.steps, tb.openings, gameCtx)
	mustFault(t, err, ErrShuffleCommit, 2)

	// And one that opens honestly but publishes, with its commitment, a
	// deck with two cards swapped after committing: caught too.
	tb = newTable(t, 4, 4)
	st := &tb.steps[3]
	st.Out[0], st.Out[1] = st.Out[1], st.Out[0]
	mustFault(t, CheckShuffles(&tb.joint, tb.initial, tb.steps, tb.openings, gameCtx), ErrShuffleCommit, 3)
}

// A cancelling or reused key: party 2 announces X2 = T − X0 − X1 for a T
// whose discrete log it knows (so the joint key would be T), with the
// best proof it can make: a proof for T's secret, or party 0's proof
// replayed. Or it reuses party 0's key (with party 0's proof, or with one
// party 0 made for it), or announces the identity. JointKey refuses each and names party 2.
func TestDishonestKey(t *testing.T) {
	r := rng(44)
	tb := newKeys(t, r, 3)
	ctxs := [][]byte{keyCtx(0), keyCtx(1), keyCtx(2)}
	tsec, _ := NewSecret(r)
	tkey := tsec.Public()
	var cancel PublicKey
	cancel.p.Subtract(&tkey.p, &tb.keys[0].p)
	cancel.p.Subtract(&cancel.p, &tb.keys[1].p)
	proofT, _ := ProveKey(r, &tsec, keyCtx(2))
	// Party 0, colluding, proves its own key for party 2's context: only
	// the duplicate check stops the reuse.
	reused, _ := ProveKey(r, &tb.secrets[0], keyCtx(2))

	var zero PublicKey
	zero.p.Zero()
	cases := []struct {
		name  string
		key   PublicKey
		proof KeyProof
		want  error
	}{
		{"cancelling, proof for T", cancel, proofT, ErrKeyProof},
		{"cancelling, party 0's proof", cancel, tb.proofs[0], ErrKeyProof},
		{"copy of party 0's key and proof", tb.keys[0], tb.proofs[0], ErrDuplicateKey},
		{"party 0's key, proved by party 0 for party 2's context", tb.keys[0], reused, ErrDuplicateKey},
		{"identity", zero, proofT, ErrIdentityKey},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			keys := []PublicKey{tb.keys[0], tb.keys[1], c.key}
			proofs := []KeyProof{tb.proofs[0], tb.proofs[1], c.proof}
			_, err := JointKey(keys, proofs, ctxs)
			mustFault(t, err, c.want, 2)
		})
	}
	// A proof bound to another context: party 1's own key and proof,
	// presented for a game or peer it was not made for.
	_, err := JointKey(tb.keys, tb.proofs, [][]byte{keyCtx(0), keyCtx(9), keyCtx(2)})
	mustFault(t, err, ErrKeyProof, 1)
	// The honest keys pass.
	if _, err := JointKey(tb.keys, tb.proofs, ctxs); err != nil {
		t.Fatal(err)
	}
}

// A wrong recovery sub-share: the dealer (party 1) sends party 3 a value
// off by one, so that party 3's part in a recovery would rebuild a wrong
// secret; party 3 refuses it on arrival, naming the dealer. And a holder
// (party 2) that presents a doctored sub-share at recovery is named.
func TestDishonestSubShare(t *testing.T) {
	r := rng(55)
	tb := newKeys(t, r, 4)
	rs, err := Split(r, &tb.secrets[1], 1, 4, DefaultThreshold(4))
	if err != nil {
		t.Fatal(err)
	}
	bad := rs.Subs[3]
	bad.v.Add(&bad.v, scalarInt(1))
	mustFault(t, rs.Commit.VerifySub(1, &bad), ErrSubShare, 1)
	// The dealer's commitments must start with its key: commitments to
	// another polynomial (so that its "recovered" secret is not its own)
	// are refused.
	other, _ := Split(r, &tb.secrets[0], 1, 4, 3)
	mustFault(t, other.Commit.Check(1, &tb.keys[1], 3), ErrRecovery, 1)

	subs := []SubShare{rs.Subs[0], rs.Subs[2], rs.Subs[3]}
	subs[1].v.Add(&subs[1].v, scalarInt(1))
	_, err = Recover(1, &tb.keys[1], &rs.Commit, subs)
	mustFault(t, err, ErrSubShare, 2)
	// Honest, they rebuild it.
	subs[1] = rs.Subs[2]
	if x, err := Recover(1, &tb.keys[1], &rs.Commit, subs); err != nil || x.x.Equal(&tb.secrets[1].x) != 1 {
		t.Fatalf("honest recovery: %v", err)
	}
}

// A batch with one wrong share among many (an opening of four cards at
// ten seats) names that share's party, not the first of the batch.
func TestBatchNamesTheWrongShare(t *testing.T) {
	tb := newTable(t, 6, 10)
	r := rng(66)
	shares := tb.shareOut(t, r)
	_, all, err := tb.learn(t, r, 4, shares)
	if err != nil {
		t.Fatal(err)
	}
	var os []Opening
	var cts []Ciphertext
	for k := range 4 {
		f, _ := tb.cb.Reveal(&tb.deck()[tb.hand(4)[k]], all[k])
		os = append(os, Opening{Face: f, Shares: all[k]})
		cts = append(cts, tb.deck()[tb.hand(4)[k]])
	}
	if err := VerifyOpenings(tb.cb, tb.keys, 4, cts, os, gameCtx); err != nil {
		t.Fatal(err)
	}
	// Party 7's share of the third card, with the s of another proof.
	os[2].Shares = append([]Share(nil), os[2].Shares...)
	sh := &os[2].Shares[7]
	sh.s = os[1].Shares[7].s
	copy(sh.enc[3*ElementSize:], sh.s.Encode(nil))
	err = VerifyOpenings(tb.cb, tb.keys, 4, cts, os, gameCtx)
	mustFault(t, err, ErrShareProof, 4)
	var f *Fault
	if !errors.As(err, &f) || !errorsContains(err, "from party 7") {
		t.Fatalf("%v does not say whose share", err)
	}
}

// A shuffler caught on arrival, before any opening: a card doubled (so it
// knows where a second copy went), a card left in the clear (a trivial
// encryption of a card it chose: everyone could read it), a card dropped.
// CheckStep names it; the honest step passes.
func TestDishonestStepOnArrival(t *testing.T) {
	tb := newTable(t, 8, 3)
	in := tb.steps[0].Out
	honest := tb.steps[1]
	if err := CheckStep(1, in, &honest); err != nil {
		t.Fatal(err)
	}
	clone := func() *ShuffleStep {
		s := honest
		s.Out = append(Deck(nil), honest.Out...)
		return &s
	}
	doubled := clone()
	doubled.Out[9] = doubled.Out[40]
	mustFault(t, CheckStep(1, in, doubled), ErrShuffle, 1)
	clear := clone()
	clear.Out[3] = tb.cb.Deck()[0]
	mustFault(t, CheckStep(1, in, clear), ErrShuffle, 1)
	dropped := clone()
	dropped.Out = dropped.Out[1:]
	mustFault(t, CheckStep(1, in, dropped), ErrShuffle, 1)
}
