//go:build !js

package mental

import (
	"bytes"
	"errors"
	"fmt"
)

// VerifyOpeningsProved is VerifyOpenings for a checker that proved some of
// the shares before: proved(k, i) is party i's share of cts[k] if it holds
// one it checked (a table's host checks every share of the deal as it
// comes), else nil. The openings come as their bytes (bs[k] opens cts[k])
// and are returned read. An opening's share where the checker holds one
// must be that very partial decryption (its encoding, byte for byte), and
// is neither decoded nor proved again; only the others are (a card's dealt holder's own share,
// which nobody published before), in one batch for each party. So a
// called play costs the host one proof a card, not one for every party.
//
// It blames the opener as VerifyOpenings does. A phone never hosts, so
// the page leaves it out (go:build !js).
func VerifyOpeningsProved(cb *Codebook, keys []PublicKey, opener int, cts []Ciphertext, bs [][]byte,
	proved func(k, i int) *Share, ctx []byte) ([]Opening, error) {
	if len(cts) != len(bs) {
		return nil, fmt.Errorf("%w: %d ciphertexts, %d openings", ErrParties, len(cts), len(bs))
	}
	os := make([]Opening, len(bs))
	// fresh[i] is the shares of party i to prove, and their cards.
	type fresh struct {
		cts []Ciphertext
		shs [][]Share
	}
	todo := make([]fresh, len(keys))
	for k, b := range bs {
		r := reader{b: b}
		o := &os[k]
		o.Face = Face{Card: uint8(r.u8()), Deck: uint8(r.u8()), Copy: uint8(r.u8())}
		n := r.count(maxItems)
		if r.bad || len(r.b) != n*shareSize {
			return nil, blame(opener, ErrMalformed, "opening %d", k)
		}
		if n != len(keys) {
			return nil, blame(opener, ErrParties, "%d shares for %d parties", n, len(keys))
		}
		o.Shares = make([]Share, n)
		for i := range o.Shares {
			raw := r.take(shareSize)
			if p := proved(k, i); p != nil {
				// The partial decryption must be the one proved; its
				// proof may differ (a successor makes a departed party's
				// shares again, with the secret it rebuilt).
				if !bytes.Equal(raw[:ElementSize], p.enc[:ElementSize]) {
					return nil, blame(opener, ErrShareProof, "from party %d: not the share it dealt", i)
				}
				o.Shares[i] = *p
				continue
			}
			if err := o.Shares[i].UnmarshalBinary(raw); err != nil {
				return nil, blame(opener, err, "opening %d, share %d", k, i)
			}
			todo[i].cts = append(todo[i].cts, cts[k])
			todo[i].shs = append(todo[i].shs, o.Shares[i:i+1])
		}
	}
	for i, f := range todo {
		if len(f.cts) == 0 {
			continue
		}
		if err := VerifyShares(keys[i:i+1], f.cts, f.shs, -1, ctx); err != nil {
			var fl *Fault
			if errors.As(err, &fl) {
				err = fl.Err
			}
			return nil, blame(opener, err, "from party %d", i)
		}
	}
	for k := range os {
		f, err := cb.Reveal(&cts[k], os[k].Shares)
		if err != nil {
			return nil, blame(opener, err, "card %d", k)
		}
		if f != os[k].Face {
			return nil, blame(opener, ErrFalseOpening, "claims %s, is %s", os[k].Face, f)
		}
	}
	return os, nil
}
