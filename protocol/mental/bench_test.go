package mental

import (
	"testing"
)

// The goals (BENCHMARKS.md): a whole 10-seat deal's cryptography under
// 150 ms of CPU per node natively and under 1 s in WebAssembly
// (BenchmarkDealPerNode10 is one node's share of it: its key, checking
// the others', its shuffle, its shares of everyone else's cards, and
// turning up its own hand); an opening of 4 cards at 10 seats checked in
// under 5 ms natively.

var benchTable *table

func bench10(b *testing.B) *table {
	if benchTable == nil {
		benchTable = newTable(b, 10, 10)
	}
	return benchTable
}

// One shuffle of 104 cards: a permutation and 104 re-encryptions.
func BenchmarkShuffle104(b *testing.B) {
	tb := bench10(b)
	r := rng(1)
	in := tb.steps[0].Out
	defer cpuClock(b)()
	for b.Loop() {
		if _, _, err := Shuffle(r, &tb.joint, in, gameCtx); err != nil {
			b.Fatal(err)
		}
	}
}

// One node's partial decryptions, with proofs, for a 10-seat deal of 104
// cards: every card but its own 11.
func BenchmarkDealShares10(b *testing.B) {
	tb := bench10(b)
	r := rng(2)
	d := tb.deck()
	defer cpuClock(b)()
	for b.Loop() {
		for p := range d {
			if p%tb.n == 0 {
				continue
			}
			if _, err := DecryptShare(r, &tb.secrets[0], &d[p], gameCtx); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// One seat's check of its hand at 10 seats: the 9 others' shares of each
// of its 11 cards, its own shares, and the cards looked up.
func BenchmarkHandCheck10(b *testing.B) {
	tb := bench10(b)
	r := rng(3)
	shares := tb.shareOut(b, r)
	defer cpuClock(b)()
	for b.Loop() {
		if _, _, err := tb.learn(b, r, 0, shares); err != nil {
			b.Fatal(err)
		}
	}
}

// An opening of 4 cards at 10 seats, decoded from its bytes and checked.
func BenchmarkOpening4At10(b *testing.B) {
	tb := bench10(b)
	r := rng(4)
	shares := tb.shareOut(b, r)
	faces, all, err := tb.learn(b, r, 3, shares)
	if err != nil {
		b.Fatal(err)
	}
	var wire [][]byte
	var cts []Ciphertext
	for k := range 4 {
		o := Opening{Face: faces[k], Shares: all[k]}
		w, _ := o.MarshalBinary()
		wire = append(wire, w)
		cts = append(cts, tb.deck()[tb.hand(3)[k]])
	}
	os := make([]Opening, 4)
	defer cpuClock(b)()
	for b.Loop() {
		for k := range os {
			if err := os[k].UnmarshalBinary(wire[k]); err != nil {
				b.Fatal(err)
			}
		}
		if err := VerifyOpenings(tb.cb, tb.keys, 3, cts, os, gameCtx); err != nil {
			b.Fatal(err)
		}
	}
}

// One node's whole deal at 10 seats: its key and proof, the joint key
// (checking all ten proofs), its shuffle, every step checked on arrival
// (CheckStep), its shares of the 93 cards not its own, and its hand turned
// up from the others' shares.
func BenchmarkDealPerNode10(b *testing.B) {
	tb := bench10(b)
	r := rng(5)
	shares := tb.shareOut(b, r)
	ctxs := make([][]byte, tb.n)
	for i := range ctxs {
		ctxs[i] = keyCtx(i)
	}
	d := tb.deck()
	defer cpuClock(b)()
	for b.Loop() {
		if _, err := ProveKey(r, &tb.secrets[0], keyCtx(0)); err != nil {
			b.Fatal(err)
		}
		if _, err := JointKey(tb.keys, tb.proofs, ctxs); err != nil {
			b.Fatal(err)
		}
		if _, _, err := Shuffle(r, &tb.joint, tb.steps[0].Out, gameCtx); err != nil {
			b.Fatal(err)
		}
		in := tb.initial
		for i := range tb.steps {
			if err := CheckStep(i, in, &tb.steps[i]); err != nil {
				b.Fatal(err)
			}
			in = tb.steps[i].Out
		}
		for p := range d {
			if p%tb.n != 0 {
				if _, err := DecryptShare(r, &tb.secrets[0], &d[p], gameCtx); err != nil {
					b.Fatal(err)
				}
			}
		}
		if _, _, err := tb.learn(b, r, 0, shares); err != nil {
			b.Fatal(err)
		}
	}
}

// The end of a game at 10 seats: every shuffle opened and checked.
func BenchmarkCheckShuffles10(b *testing.B) {
	tb := bench10(b)
	defer cpuClock(b)()
	for b.Loop() {
		if err := CheckShuffles(&tb.joint, tb.initial, tb.steps, tb.openings, gameCtx); err != nil {
			b.Fatal(err)
		}
	}
}

// A departed party's secret rebuilt by the 9 others (default threshold).
func BenchmarkRecover10(b *testing.B) {
	tb := bench10(b)
	r := rng(6)
	rs, err := Split(r, &tb.secrets[4], 4, 10, DefaultThreshold(10))
	if err != nil {
		b.Fatal(err)
	}
	defer cpuClock(b)()
	for b.Loop() {
		if _, err := Recover(4, &tb.keys[4], &rs.Commit, rs.Subs); err != nil {
			b.Fatal(err)
		}
	}
}

// One holder's recovery shares of 4 cards of a silent party at 10 seats.
func BenchmarkRecoverShares4(b *testing.B) {
	tb := bench10(b)
	r := rng(7)
	rs, err := Split(r, &tb.secrets[4], 4, 10, DefaultThreshold(10))
	if err != nil {
		b.Fatal(err)
	}
	var cts []Ciphertext
	for _, p := range tb.hand(4)[:4] {
		cts = append(cts, tb.deck()[p])
	}
	defer cpuClock(b)()
	for b.Loop() {
		if _, err := RecoverShares(r, 4, &rs.Subs[0], cts, gameCtx); err != nil {
			b.Fatal(err)
		}
	}
}

// 4 cards of a silent party at 10 seats: the 9 holders' recovery shares
// of each checked and combined.
func BenchmarkCombineRecovery4At10(b *testing.B) {
	tb := bench10(b)
	r := rng(8)
	rs, err := Split(r, &tb.secrets[4], 4, 10, DefaultThreshold(10))
	if err != nil {
		b.Fatal(err)
	}
	var cts []Ciphertext
	for _, p := range tb.hand(4)[:4] {
		cts = append(cts, tb.deck()[p])
	}
	rss := make([][]RecoveryShare, len(cts))
	for j := range tb.n {
		if j == 4 {
			continue
		}
		mine, err := RecoverShares(r, 4, &rs.Subs[j], cts, gameCtx)
		if err != nil {
			b.Fatal(err)
		}
		for k := range cts {
			rss[k] = append(rss[k], mine[k])
		}
	}
	defer cpuClock(b)()
	for b.Loop() {
		if _, err := CombineRecoveries(4, &rs.Commit, cts, rss, gameCtx); err != nil {
			b.Fatal(err)
		}
	}
}
