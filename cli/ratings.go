package cli

import (
	"encoding/hex"

	"github.com/bullshit-game/bullshit/cli/rating"
	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/table"
)

// CoverCount is, per seat, the moves a bot made for a person who was away:
// what decides whether that person's game is rated (rating.MaxCovered).
// The table feeds it every update with Observe.
type CoverCount []int

// coverMoves are the moves a seat makes on its own turn; let-gos in a call
// window are left out, as a covering bot makes one every play.
var coverMoves = map[engine.EventType]bool{engine.EventPlay: true, engine.EventQuads: true, engine.EventDoubt: true, engine.EventBelieve: true, engine.EventSkip: true}

// Observe counts the moves in u made by seats that u shows covered by a
// bot. A backlog (events sent again after a reconnection) is not counted.
func (c *CoverCount) Observe(u table.Update) {
	if u.Backlog {
		return
	}
	seats := u.Table.Seats
	for len(*c) < len(seats) {
		*c = append(*c, 0)
	}
	for _, e := range u.Events {
		if coverMoves[e.Type] && e.Seat >= 0 && e.Seat < len(seats) && seats[e.Seat].Covered {
			(*c)[e.Seat]++
		}
	}
}

// RatingResult is a finished game as rating.Record takes it, from the last
// update of the game (its View over, or not if the host ended it early)
// and the covered moves counted over the game. The game's ID is its
// commitment to the deal, the same on every player's screen, so recording
// it twice changes nothing.
func RatingResult(u table.Update, covered CoverCount) rating.Result {
	v, ts := u.View, u.Table
	res := rating.Result{You: ts.You, EndedEarly: v.Phase != engine.PhaseOver}
	if ts.Commit != ([32]byte{}) {
		res.ID = hex.EncodeToString(ts.Commit[:])
	}
	for i, s := range ts.Seats {
		seat := rating.Seat{Peer: s.Peer, Bot: s.Bot, Nick: s.Name}
		if s.Bot != "" {
			seat.Peer = ""
		}
		if i < len(v.Places) {
			seat.Place = v.Places[i]
		}
		// The host counts the moves it made for a person (a covering bot's,
		// the turn clock's), over the whole game and across a new host;
		// this screen's own count saw only the updates it was shown.
		seat.Covered = s.MadeFor
		if i < len(covered) {
			seat.Covered = max(seat.Covered, covered[i])
		}
		if i < len(v.Stats) {
			seat.Stats = v.Stats[i]
		}
		res.Seats = append(res.Seats, seat)
	}
	return res
}
