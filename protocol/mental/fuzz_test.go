package mental

import (
	"bytes"
	"encoding"
	"errors"
	"sync"
	"testing"
)

// Every decoder decodes, re-encodes and decodes again to the same bytes,
// and never panics; every verifier, given bytes near an honest value,
// never panics and accepts only the honest value (nothing else verifies
// without a secret the fuzzer does not have).

var decoders = []func() encoding.BinaryUnmarshaler{
	func() encoding.BinaryUnmarshaler { return new(Secret) },
	func() encoding.BinaryUnmarshaler { return new(PublicKey) },
	func() encoding.BinaryUnmarshaler { return new(KeyProof) },
	func() encoding.BinaryUnmarshaler { return new(Ciphertext) },
	func() encoding.BinaryUnmarshaler { return new(Deck) },
	func() encoding.BinaryUnmarshaler { return new(ShuffleCommit) },
	func() encoding.BinaryUnmarshaler { return new(ShuffleOpening) },
	func() encoding.BinaryUnmarshaler { return new(ShuffleStep) },
	func() encoding.BinaryUnmarshaler { return new(Share) },
	func() encoding.BinaryUnmarshaler { return new(Opening) },
	func() encoding.BinaryUnmarshaler { return new(Sealed) },
	func() encoding.BinaryUnmarshaler { return new(RecoveryCommit) },
	func() encoding.BinaryUnmarshaler { return new(SubShare) },
	func() encoding.BinaryUnmarshaler { return new(RecoveryShare) },
}

func FuzzDecode(f *testing.F) {
	fx := fixture(f)
	for i, v := range fx.values {
		b, _ := v.MarshalBinary()
		f.Add(byte(i), b)
	}
	f.Fuzz(func(t *testing.T, kind byte, b []byte) {
		v := decoders[int(kind)%len(decoders)]()
		if err := v.UnmarshalBinary(b); err != nil {
			return
		}
		again, err := v.(encoding.BinaryMarshaler).MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(again, b) {
			t.Fatalf("%T: %x re-encodes as %x", v, b, again)
		}
		w := decoders[int(kind)%len(decoders)]()
		if err := w.UnmarshalBinary(again); err != nil {
			t.Fatalf("%T: re-encoding does not decode: %v", v, err)
		}
	})
}

func FuzzVerifyKey(f *testing.F) {
	fx := fixture(f)
	key, _ := fx.tb.keys[0].MarshalBinary()
	proof, _ := fx.tb.proofs[0].MarshalBinary()
	f.Add(key, proof, keyCtx(0))
	f.Fuzz(func(t *testing.T, kb, pb, ctx []byte) {
		var k PublicKey
		var p KeyProof
		if k.UnmarshalBinary(kb) != nil || p.UnmarshalBinary(pb) != nil {
			return
		}
		if p.Verify(&k, ctx) == nil && !(bytes.Equal(kb, key) && bytes.Equal(pb, proof) && bytes.Equal(ctx, keyCtx(0))) {
			t.Fatalf("a key proof verified that nobody made: %x %x %q", kb, pb, ctx)
		}
	})
}

func FuzzVerifyShare(f *testing.F) {
	fx := fixture(f)
	honest, _ := fx.share.MarshalBinary()
	f.Add(honest, gameCtx)
	f.Fuzz(func(t *testing.T, b, ctx []byte) {
		var sh Share
		if sh.UnmarshalBinary(b) != nil {
			return
		}
		ok := sh.Verify(&fx.tb.keys[1], &fx.ct, ctx) == nil
		batch := VerifyShares(fx.tb.keys[1:2], []Ciphertext{fx.ct}, [][]Share{{sh}}, -1, ctx) == nil
		if ok != batch {
			t.Fatalf("one by one says %v, the batch %v", ok, batch)
		}
		if ok && !(bytes.Equal(b, honest) && bytes.Equal(ctx, gameCtx)) {
			t.Fatalf("a share verified that its party did not make: %x", b)
		}
	})
}

func FuzzVerifyOpening(f *testing.F) {
	fx := fixture(f)
	honest, _ := fx.opening.MarshalBinary()
	f.Add(honest)
	f.Fuzz(func(t *testing.T, b []byte) {
		var o Opening
		if o.UnmarshalBinary(b) != nil {
			return
		}
		if o.Verify(fx.tb.cb, fx.tb.keys, 0, &fx.ct, gameCtx) == nil && !bytes.Equal(b, honest) {
			t.Fatalf("an opening verified that is not the card's: %x", b)
		}
	})
}

func FuzzCheckShuffle(f *testing.F) {
	fx := fixture(f)
	honest, _ := fx.tb.openings[1].MarshalBinary()
	f.Add(honest)
	f.Fuzz(func(t *testing.T, b []byte) {
		var o ShuffleOpening
		if o.UnmarshalBinary(b) != nil {
			return
		}
		if o.Check(&fx.tb.joint, fx.tb.steps[0].Out, &fx.tb.steps[1], gameCtx) == nil && !bytes.Equal(b, honest) {
			t.Fatalf("a shuffle opening checked that is not the shuffler's: %x", b)
		}
	})
}

func FuzzOpenSealed(f *testing.F) {
	fx := fixture(f)
	honest, _ := fx.sealed.MarshalBinary()
	f.Add(honest, gameCtx)
	f.Fuzz(func(t *testing.T, b, ctx []byte) {
		var s Sealed
		if s.UnmarshalBinary(b) != nil {
			return
		}
		o, err := s.OpenOpening(&fx.tb.secrets[1], ctx)
		if err == nil && !(bytes.Equal(b, honest) && bytes.Equal(ctx, gameCtx) && o.Face == fx.opening.Face) {
			t.Fatalf("a sealed message opened that nobody sealed: %x", b)
		}
	})
}

func FuzzVerifySub(f *testing.F) {
	fx := fixture(f)
	honest, _ := fx.rec.Subs[2].MarshalBinary()
	f.Add(honest)
	f.Fuzz(func(t *testing.T, b []byte) {
		var s SubShare
		if s.UnmarshalBinary(b) != nil {
			return
		}
		if fx.rec.Commit.VerifySub(0, &s) == nil {
			want, _ := fx.rec.Subs[s.Holder%len(fx.rec.Subs)].MarshalBinary()
			if s.Holder == 0 || s.Holder >= len(fx.rec.Subs) || !bytes.Equal(b, want) {
				t.Fatalf("a sub-share verified that the dealer did not make: %x", b)
			}
		}
	})
}

func FuzzVerifyRecoveryShare(f *testing.F) {
	fx := fixture(f)
	honest, _ := fx.recOpen.MarshalBinary()
	f.Add(honest, gameCtx)
	f.Fuzz(func(t *testing.T, b, ctx []byte) {
		var rs RecoveryShare
		if rs.UnmarshalBinary(b) != nil {
			return
		}
		ok := fx.rec.Commit.VerifyRecoveryShare(0, &fx.ct, &rs, ctx) == nil
		// The batch in CombineRecovery (one share, below the threshold of
		// 2: it can only say the proof or the count is wrong) agrees.
		_, err := CombineRecovery(0, &fx.rec.Commit, &fx.ct, []RecoveryShare{rs}, ctx)
		if batch := !errors.Is(err, ErrRecoveryProof) && !errors.Is(err, ErrHolder); ok != batch {
			t.Fatalf("one by one says %v, the batch %v (%v)", ok, batch, err)
		}
		if ok && !(bytes.Equal(b, honest) && bytes.Equal(ctx, gameCtx)) {
			t.Fatalf("a recovery share verified that its holder did not make: %x %q", b, ctx)
		}
	})
}

type fuzzFixture struct {
	tb      *table
	ct      Ciphertext
	share   Share // party 1's of ct
	opening Opening
	sealed  Sealed
	rec     RecoveryShares
	recOpen RecoveryShare              // holder 1's of ct, for party 0's secret
	values  []encoding.BinaryMarshaler // one of each type, in decoders' order
}

var (
	fxOnce sync.Once
	fx     *fuzzFixture
)

// fixture is a 3-party table after its shuffles, with one of everything.
func fixture(t testing.TB) *fuzzFixture {
	fxOnce.Do(func() {
		r := rng(77)
		tb := newKeys(t, r, 3)
		tb.shuffleAll(t, r)
		x := &fuzzFixture{tb: tb, ct: tb.deck()[0]}
		var shares []Share
		for i := range 3 {
			sh, _ := DecryptShare(r, &tb.secrets[i], &x.ct, gameCtx)
			shares = append(shares, sh)
		}
		x.share = shares[1]
		face, _ := tb.cb.Reveal(&x.ct, shares)
		x.opening = Opening{Face: face, Shares: shares}
		x.sealed, _ = SealOpening(r, &tb.keys[1], gameCtx, &x.opening)
		x.rec, _ = Split(r, &tb.secrets[0], 0, 3, 2)
		x.recOpen, _ = RecoverShare(r, 0, &x.rec.Subs[1], &x.ct, gameCtx)
		x.values = []encoding.BinaryMarshaler{&tb.secrets[0], &tb.keys[0], &tb.proofs[0], &x.ct, tb.deck()[:3],
			tb.steps[0].Commit, &tb.openings[0], &tb.steps[0], &x.share, &x.opening, &x.sealed, &x.rec.Commit, &x.rec.Subs[1], &x.recOpen}
		fx = x
	})
	return fx
}
