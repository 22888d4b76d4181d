package mental

import (
	"errors"
	"fmt"
)

// An Opening turns a card up for everyone: the card it claims, and every
// party's share of its ciphertext with its proof (the holder's own among
// them). Anyone checks it against the deck keys and the ciphertext alone;
// it needs no signature, since only a share's owner can make its proof.
// Sealed to one receiver (SealOpening), the same material hands a card over
// privately.
type Opening struct {
	Face   Face
	Shares []Share // Shares[i] is party i's
}

// VerifyOpenings checks that os[k] opens cts[k] to os[k].Face, for cards
// turned up together (the four laid face up, a call's cards). opener is
// the party that presents them, the one blamed for a share that fails (it
// should have checked the shares it was given) and for a false claim.
func VerifyOpenings(cb *Codebook, keys []PublicKey, opener int, cts []Ciphertext, os []Opening, ctx []byte) error {
	if len(cts) != len(os) {
		return fmt.Errorf("%w: %d ciphertexts, %d openings", ErrParties, len(cts), len(os))
	}
	shares := make([][]Share, len(os))
	for k := range os {
		shares[k] = os[k].Shares
	}
	if err := VerifyShares(keys, cts, shares, -1, ctx); err != nil {
		var f *Fault
		if errors.As(err, &f) {
			return blame(opener, f.Err, "from party %d", f.Party)
		}
		return blame(opener, err, "")
	}
	for k := range os {
		f, err := cb.Reveal(&cts[k], os[k].Shares)
		if err != nil {
			return blame(opener, err, "card %d", k)
		}
		if f != os[k].Face {
			return blame(opener, ErrFalseOpening, "claims %s, is %s", os[k].Face, f)
		}
	}
	return nil
}

// Verify checks one opening, as VerifyOpenings does.
func (o *Opening) Verify(cb *Codebook, keys []PublicKey, opener int, ct *Ciphertext, ctx []byte) error {
	return VerifyOpenings(cb, keys, opener, []Ciphertext{*ct}, []Opening{*o}, ctx)
}

// MarshalBinary is the face's 3 bytes (card, deck, copy), a 2-byte count,
// then the shares.
func (o *Opening) MarshalBinary() ([]byte, error) {
	b := make([]byte, 0, 5+len(o.Shares)*shareSize)
	b = append(b, o.Face.Card, o.Face.Deck, o.Face.Copy)
	b = appendU16(b, len(o.Shares))
	for i := range o.Shares {
		b = o.Shares[i].appendTo(b)
	}
	return b, nil
}

// UnmarshalBinary reads what MarshalBinary wrote (at most 1024 shares).
func (o *Opening) UnmarshalBinary(b []byte) error {
	r := reader{b: b}
	var t Opening
	t.Face = Face{Card: uint8(r.u8()), Deck: uint8(r.u8()), Copy: uint8(r.u8())}
	n := r.count(maxItems)
	if len(r.b) != n*shareSize {
		return fmt.Errorf("%w: opening", ErrMalformed)
	}
	t.Shares = make([]Share, n)
	for i := range t.Shares {
		t.Shares[i].read(&r)
	}
	if err := r.done("opening"); err != nil {
		return err
	}
	*o = t
	return nil
}
