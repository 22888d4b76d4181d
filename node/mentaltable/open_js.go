//go:build js

package mentaltable

import (
	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/protocol"
	"github.com/bullshit-game/bullshit/protocol/mental"
)

// checkOpen is checkOpenKnown against the record. A phone never hosts, so
// its record is never strict (open.go).
func (r *record) checkOpen(o *protocol.DeckOpen, want []engine.Handle) ([]mental.Opening, error) {
	return checkOpenKnown(r.T, r.known, o, want)
}
