//go:build !js

package mental

import (
	"errors"
	"testing"

	"github.com/gtank/ristretto255"
)

// provedOpenings is a 3-party deal where party 0 opens the first two
// cards of its hand: the host holds every other party's share of them,
// proved at the deal (proved), and party 0's own is what it adds.
type provedOpenings struct {
	tb     *table
	shares [][]Share // by deck position, as broadcast at the deal
	pos    []int     // the two cards' positions
	cts    []Ciphertext
	os     []Opening
}

func newProvedOpenings(t *testing.T) *provedOpenings {
	t.Helper()
	r := rng(41)
	tb := newTable(t, 41, 3)
	shares := tb.shareOut(t, r)
	faces, full, err := tb.learn(t, r, 0, shares)
	if err != nil {
		t.Fatal(err)
	}
	po := &provedOpenings{tb: tb, shares: shares, pos: tb.hand(0)[:2]}
	for k, p := range po.pos {
		po.cts = append(po.cts, tb.deck()[p])
		po.os = append(po.os, Opening{Face: faces[k], Shares: full[k]})
	}
	return po
}

// proved is what the host proved at the deal: every share of the two
// cards but their holder's (party 0).
func (po *provedOpenings) proved(k, i int) *Share {
	if i == 0 {
		return nil
	}
	return &po.shares[po.pos[k]][i]
}

func (po *provedOpenings) verify(os []Opening) ([]Opening, error) {
	bs := make([][]byte, len(os))
	for k := range os {
		bs[k], _ = os[k].MarshalBinary()
	}
	return VerifyOpeningsProved(po.tb.cb, po.tb.keys, 0, po.cts, bs, po.proved, gameCtx)
}

func cloneOpenings(os []Opening) []Opening {
	out := make([]Opening, len(os))
	for k := range os {
		out[k] = Opening{Face: os[k].Face, Shares: append([]Share(nil), os[k].Shares...)}
	}
	return out
}

func TestVerifyOpeningsProvedHonest(t *testing.T) {
	po := newProvedOpenings(t)
	got, err := po.verify(po.os)
	if err != nil {
		t.Fatalf("an honest opening refused: %v", err)
	}
	for k := range got {
		if got[k].Face != po.os[k].Face {
			t.Fatalf("card %d read as %s, is %s", k, got[k].Face, po.os[k].Face)
		}
		if err := VerifyOpenings(po.tb.cb, po.tb.keys, 0, po.cts[k:k+1], got[k:k+1], gameCtx); err != nil {
			t.Fatalf("what it returned doesn't verify in full: %v", err)
		}
	}
	// Party 1's share made again (a successor's, with the secret it
	// rebuilt): the same partial decryption under another proof.
	again := cloneOpenings(po.os)
	sh, err := DecryptShare(rng(5), &po.tb.secrets[1], &po.cts[0], gameCtx)
	if err != nil {
		t.Fatal(err)
	}
	if sh.enc == po.os[0].Shares[1].enc {
		t.Fatal("the share made again is the same bytes: the test tests nothing")
	}
	again[0].Shares[1] = sh
	if _, err := po.verify(again); err != nil {
		t.Fatalf("a share proved again by its party refused: %v", err)
	}
}

// The attacks on what the host no longer proves: each is what a
// dishonest opener would send to have a card read as another, and each
// names it.
func TestVerifyOpeningsProvedCatches(t *testing.T) {
	po := newProvedOpenings(t)
	other := po.tb.hand(0)[2] // a third card of party 0's

	// A proved place, with party 1's valid share of another card.
	swapped := cloneOpenings(po.os)
	swapped[1].Shares[1] = po.shares[other][1]
	_, err := po.verify(swapped)
	mustFault(t, err, ErrShareProof, 0)

	// The holder's own share, the only one proved here: the partial
	// decryption that turns the card up as the next card, under the
	// proof of its true share.
	forged := cloneOpenings(po.os)
	want := Face{Card: (po.os[0].Face.Card + 1) % 52, Deck: po.os[0].Face.Deck}
	var d ristretto255.Element
	d.Subtract(&po.cts[0].b, want.Point())
	for i := 1; i < 3; i++ {
		d.Subtract(&d, &forged[0].Shares[i].d)
	}
	forged[0].Shares[0].d = d
	copy(forged[0].Shares[0].enc[:ElementSize], d.Encode(nil))
	forged[0].Face = want
	if f, err := po.tb.cb.Reveal(&po.cts[0], forged[0].Shares); err != nil || f != want {
		t.Fatalf("the forged share reads as %v (%v), not %s: the test tests nothing", f, err, want)
	}
	_, err = po.verify(forged)
	mustFault(t, err, ErrShareProof, 0)

	// Every share right, the face claimed another.
	lie := cloneOpenings(po.os)
	lie[0].Face = want
	_, err = po.verify(lie)
	mustFault(t, err, ErrFalseOpening, 0)

	// Bytes that aren't an opening of 3 shares.
	b, _ := po.os[0].MarshalBinary()
	for _, bad := range [][]byte{nil, b[:4], b[:len(b)-1], append(b[:len(b):len(b)], 0)} {
		_, err := VerifyOpeningsProved(po.tb.cb, po.tb.keys, 0, po.cts[:1], [][]byte{bad}, po.proved, gameCtx)
		mustFault(t, err, ErrMalformed, 0)
	}
	two := Opening{Face: po.os[0].Face, Shares: po.os[0].Shares[:2]}
	b, _ = two.MarshalBinary()
	_, err = VerifyOpeningsProved(po.tb.cb, po.tb.keys, 0, po.cts[:1], [][]byte{b}, po.proved, gameCtx)
	if !errors.Is(err, ErrParties) {
		t.Fatalf("2 shares for 3 parties: %v", err)
	}
}

// FuzzVerifyOpeningsProved: no bytes make a card read as another, with the
// host holding every share but the opener's proved, and none panic.
func FuzzVerifyOpeningsProved(f *testing.F) {
	fx := fixture(f)
	honest, _ := fx.opening.MarshalBinary()
	f.Add(honest)
	proved := func(_, i int) *Share {
		if i == 0 {
			return nil
		}
		return &fx.opening.Shares[i]
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		os, err := VerifyOpeningsProved(fx.tb.cb, fx.tb.keys, 0, []Ciphertext{fx.ct}, [][]byte{b}, proved, gameCtx)
		if err == nil && os[0].Face != fx.opening.Face {
			t.Fatalf("the card read as %s, is %s: %x", os[0].Face, fx.opening.Face, b)
		}
	})
}
