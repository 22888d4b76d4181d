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
	// Other cards than want, a card twice, or a card turned up before (its
	// opening must claim the face it was, and proves nothing): that is
	// checkOpenKnown's, which refuses the first two and says why.
	if len(o.Handles) != len(want) || len(o.Openings) != len(want) {
		return checkOpenKnown(r.T, r.known, o, want)
	}
	cts := make([]mental.Ciphertext, len(o.Handles))
	for k, h := range o.Handles {
		_, seen := r.known[engine.Handle(h)]
		if seen || !slices.Contains(want, engine.Handle(h)) || int(h) >= len(r.T.Deck) || slices.Contains(o.Handles[:k], h) {
			return checkOpenKnown(r.T, r.known, o, want)
		}
		cts[k] = r.T.Deck[h]
	}
	return mental.VerifyOpeningsProved(r.T.CB, r.T.Keys, o.From, cts, o.Openings, func(k, p int) *mental.Share {
		if h := o.Handles[k]; r.has[h][p] {
			return &r.shares[h][p]
		}
		return nil
	}, r.T.Ctx)
}
