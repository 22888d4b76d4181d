//go:build !js

package mentaltable

import (
	"slices"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/protocol"
	"github.com/bullshit-game/bullshit/protocol/mental"
)

// checkOpen is checkOpenKnown against the record. The host's record
// (strict) proved every share of the deal as it came, and holds every
// share of a card turned up since: an opening's shares that are those need
// no proof again (mental.VerifyOpeningsProved), so a called play costs the
// host one proof a card (its dealt holder's own share) instead of one for
// every party, on the way from the shout to the verdict. A node's record
// holds the deal's shares unchecked, and checks them all.
//
// A phone never hosts: the page has only checkOpenKnown (open_js.go).
func (r *record) checkOpen(o *protocol.DeckOpen, want []engine.Handle) ([]mental.Opening, error) {
	if !r.strict {
		return checkOpenKnown(r.T, r.known, o, want)
	}
	// Other cards than want, or a card twice: checkOpenKnown refuses
	// them, and says why.
	if len(o.Handles) != len(want) || len(o.Openings) != len(want) {
		return checkOpenKnown(r.T, r.known, o, want)
	}
	for k, h := range o.Handles {
		if !slices.Contains(want, engine.Handle(h)) || int(h) >= len(r.T.Deck) || slices.Contains(o.Handles[:k], h) {
			return checkOpenKnown(r.T, r.known, o, want)
		}
	}
	os := make([]mental.Opening, len(o.Openings))
	var fresh []int // the openings of cards not turned up before
	for k, b := range o.Openings {
		f, seen := r.known[engine.Handle(o.Handles[k])]
		if !seen {
			fresh = append(fresh, k)
			continue
		}
		if err := os[k].UnmarshalBinary(b); err != nil {
			return nil, fault(o.From, err, "opening %d", k)
		}
		if os[k].Face != f {
			return nil, fault(o.From, mental.ErrFalseOpening, "claims %s, was turned up as %s", os[k].Face.Name(), f.Name())
		}
	}
	cts := make([]mental.Ciphertext, len(fresh))
	bs := make([][]byte, len(fresh))
	for i, k := range fresh {
		cts[i], bs[i] = r.T.Deck[o.Handles[k]], o.Openings[k]
	}
	got, err := mental.VerifyOpeningsProved(r.T.CB, r.T.Keys, o.From, cts, bs, func(i, p int) *mental.Share {
		if h := o.Handles[fresh[i]]; r.has[h][p] {
			return &r.shares[h][p]
		}
		return nil
	}, r.T.Ctx)
	if err != nil {
		return nil, err
	}
	for i, k := range fresh {
		os[k] = got[i]
	}
	return os, nil
}
