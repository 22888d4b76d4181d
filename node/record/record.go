package record

import (
	"fmt"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
)

// Record is what one seat was shown of the game the host last dealt, for
// the audit: its events in order, of one deal (Deal, the commitment the
// lobby named when it came), and how a host's backlog disagreed with them.
// The zero Record is empty and ready.
type Record struct {
	Deal [32]byte
	Got  []engine.Event
	// Rewrote, when not "", is how a host's backlog disagreed with what
	// this seat was shown: the audit fails with it.
	Rewrote string
	reveal  Reveal
}

// Shown adds events the host sent this seat, of the deal deal (the
// lobby's commitment). A deal among them starts the record of a new game
// at the same seats from it, and Shown reports it (the caller resets what
// else it keeps of one game: its journal, its shares).
func (r *Record) Shown(deal [32]byte, evs []engine.Event) (dealt bool) {
	if i := DealAt(evs); i >= 0 {
		*r = Record{Deal: deal, Got: append([]engine.Event(nil), evs[i:]...)}
		return true
	}
	r.Got = append(r.Got, evs...)
	return false
}

// Backlog takes a host's "everything you were sent" after a rejoin, of
// the deal deal. The rule, the phone's before both clients shared it and
// the stricter of the two: a backlog may only extend the record, the
// events we missed while away coming after what we saw. One that says we
// were shown something else, or less, leaves the record as it was, and
// the audit fails naming where (Rewrote). (The terminal took, besides, any
// backlog whose first event was a deal other than its first as a new
// game's, so a host could replace a game's record by starting it with
// another deal.) Two cases replace the record: rolled, the chain verified
// a new host's signed rollback of steps it never got, and a backlog of
// another deal than the record's (nothing of it was shown to rewrite: we
// were away over the deal).
func (r *Record) Backlog(deal [32]byte, evs []engine.Event, rolled bool) {
	if deal != r.Deal {
		*r = Record{Deal: deal, Got: append([]engine.Event(nil), evs...)}
		return
	}
	if rolled {
		r.Got = append([]engine.Event(nil), evs...)
		return
	}
	n := min(len(evs), len(r.Got))
	for i := 0; i < n; i++ {
		if !SameEvent(r.Got[i], evs[i]) {
			if r.Rewrote == "" {
				r.Rewrote = RewroteAt(i+1, evs[i].Type, r.Got[i].Type)
			}
			return
		}
	}
	if len(evs) < len(r.Got) {
		if r.Rewrote == "" {
			r.Rewrote = ShortenedAt(len(evs), len(r.Got))
		}
		return
	}
	r.Got = append(r.Got, evs[len(r.Got):]...)
}

// SameEvent says whether two events are one story as the wire carries
// them (the audit's own comparison is the judge of the game).
func SameEvent(a, b engine.Event) bool {
	return fmt.Sprint(gamewire.WireEvent(&a)) == fmt.Sprint(gamewire.WireEvent(&b))
}

// DealAt is where a new game's deal is among events, or -1.
func DealAt(evs []engine.Event) int {
	for i := range evs {
		if evs[i].Type == engine.EventDeal {
			return i
		}
	}
	return -1
}
