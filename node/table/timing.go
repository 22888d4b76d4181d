package table

import "time"

// Timing is how long a node waits on the network, and how long a table
// shows a call's cards. A table is built with one (Settings.Timing), and so
// is a device (DeviceConfig.Timing: the tables it opens, the tables it
// joins); a zero field takes DefaultTiming's. Two tables in one process
// (tests, the bench) each keep their own.
type Timing struct {
	// Heartbeat is how often each side of a link says it is there.
	Heartbeat time.Duration
	// DeadAfter is how long a side may be silent before the other takes it
	// for gone: a player's node then elects a new host.
	DeadAfter time.Duration
	// HostRetry is how long a player that lost its host tries it again
	// before an election.
	HostRetry time.Duration
	// RebuildWait is how long a new host waits for a second player's
	// shares before it gives hosting up and waits for the old host.
	RebuildWait time.Duration
	// Reveal is the pause after a call, so every screen shows the cards: a
	// table's own, and what a player assumes of a host that doesn't say.
	Reveal time.Duration
	// Toss is how long a host waits for the players' nonce commitments,
	// and again for their nonces, before it deals without the missing
	// (toss.go).
	Toss time.Duration
	// Stall is how long a new host waits for every seated player's shares
	// of the hidden cards before it deals a new game without the game so
	// far, a bot in the seat of whoever held them back (node's restore.go,
	// redeal). Under RebuildWait: with no other player here at all, the
	// new host gives hosting up at RebuildWait instead.
	Stall time.Duration
	// Deal is how long a blind deal waits on a party's node (its key, its
	// turn at the shuffle, its shares) before it deals again without it
	// (blind.go); a fifth of it in, the screens say whom it waits for.
	Deal time.Duration
	// Gone is how long a person's node may be away from a blind table
	// before the other nodes take its seat over for the rest of the game
	// (blind.go: blindCover, blindLeave). Till then the host plays the
	// seat blind and it is theirs again when they are back.
	Gone time.Duration
	// Held is how long a dealt blind game waits on a node that is at the
	// table for what its node alone gives (its share of a recovery, a
	// card to hand over, a first card, its secret at the end), with
	// nothing from it meanwhile, before the other nodes take its seat
	// over for the rest of the game (blind.go: stallWatch). Those
	// answers are its program's, never its person's.
	Held time.Duration
}

// DefaultTiming is the timing of a table or device built with none.
func DefaultTiming() Timing {
	return Timing{Heartbeat: 500 * time.Millisecond, DeadAfter: 2 * time.Second, HostRetry: 700 * time.Millisecond,
		RebuildWait: 30 * time.Second, Reveal: 2 * time.Second, Toss: 3 * time.Second, Stall: 20 * time.Second, Deal: 10 * time.Second,
		Gone: time.Minute, Held: 15 * time.Second}
}

// Or is t with each zero field taken from d.
func (t Timing) Or(d Timing) Timing {
	pick := func(a, b time.Duration) time.Duration {
		if a == 0 {
			return b
		}
		return a
	}
	return Timing{Heartbeat: pick(t.Heartbeat, d.Heartbeat), DeadAfter: pick(t.DeadAfter, d.DeadAfter),
		HostRetry: pick(t.HostRetry, d.HostRetry), RebuildWait: pick(t.RebuildWait, d.RebuildWait),
		Reveal: pick(t.Reveal, d.Reveal), Toss: pick(t.Toss, d.Toss), Stall: pick(t.Stall, d.Stall), Deal: pick(t.Deal, d.Deal),
		Gone: pick(t.Gone, d.Gone), Held: pick(t.Held, d.Held)}
}

// RevealPause is how long the table shows a call's cards: what its host
// said, or the default for a host that didn't.
func (ts TableState) RevealPause() time.Duration {
	if ts.Reveal > 0 {
		return ts.Reveal
	}
	return DefaultTiming().Reveal
}
