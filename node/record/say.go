package record

import (
	"fmt"

	"github.com/bullshit-game/bullshit/engine"
)

// The sentences a player reads about the record and its audit, on the
// terminal and on the phone alike.

// BadSalt is a reveal whose salt is of the wrong size.
const BadSalt = "the host revealed a salt of the wrong size."

// Rerun is the audit's finding that the host ran the toss again after this
// seat had revealed its nonce: it could have seen how the first would deal
// and chosen.
const Rerun = "the host asked for a new nonce after you had revealed one, and dealt from the second toss: it could have chosen between deals."

// RewroteAt is a backlog that differs from what this seat was shown at
// its event no (1 for the first).
func RewroteAt(no int, theirs, ours engine.EventType) string {
	if theirs == ours {
		return fmt.Sprintf("after a reconnection the host's record of what you were shown differs at event %d (another %s than the one you saw).", no, ours)
	}
	return fmt.Sprintf("after a reconnection the host's record of what you were shown differs at event %d (%s, where you saw %s).", no, theirs, ours)
}

// ShortenedAt is a backlog of n events where this seat was shown had.
func ShortenedAt(n, had int) string {
	return fmt.Sprintf("after a reconnection the host's record of what you were shown stops at event %d; you saw %d.", n, had)
}

// News is the audit as a line of the table talk, checked where (on the
// phone, "in this browser").
func News(res Result, where string) string {
	early := ""
	if res.Early {
		early = fmt.Sprintf("Ended early after %d plays. ", res.Plays)
	}
	if res.Verified {
		return early + "Deal verified " + where + ": the host's reveal replays to everything you were shown."
	}
	return early + "The deal did NOT verify " + where + ": " + res.Problems[0]
}
