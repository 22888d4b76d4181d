// Package table is the host's table: the authoritative engine, its only
// clock, and the bots that fill seats, run as one actor (Table: every
// change on its goroutine, in arrival order). People and bots reach it
// through Sessions (session.go: a Session is what a player holds, local or
// over the network; mailbox.go, the queue between them). It keeps the
// game's record as it goes: the journal it appends to (node/journal), the
// hash chain over it (chain.go), each seat's Shamir shares of the hidden
// parts (journalshare.go), the evening's running score (evening.go); it
// refuses a nickname that reads as one at the table (names.go), runs the
// deal's toss (toss.go) and is rebuilt from a journal when a new host
// takes over (rebuild.go). PlayBot (headless.go) plays a Session's seat
// with a bot.
//
// It must never open a socket or import libp2p (node serves it: the
// server, the web door and the election are there, and cli takes its
// types from here without carrying a network stack), never send a seat a
// card it may not see, never read its state off its goroutine (Do runs a
// function there; the atomics are the only exception), and never keep a
// clock but its own: the table's time is time since its start, given to
// the engine as a value.
//
// It is the largest of node's packages (about 3k lines) for a reason:
// everything in it is one actor's state, which only its goroutine may
// touch, so its files (by what they own: the deal's toss, the chain, the
// shares, the rebuild, the evening) share one struct rather than talking
// through an interface.
//
// # No one picks the deal
//
// The host can't try seeds until one deals it a good hand: before the deal
// it commits to its seed, every seated player's node (terminal or phone)
// commits to a fresh nonce, the host relays every commitment, and only then
// are the nonces revealed; the engine deals from a hash of the host's seed
// and salt and every nonce in seat order (toss.go here; a player node's
// side is node/remotetoss.go; the hashes gamewire/toss.go). A player that
// sends nothing within Timing.Toss (at each of the two
// stages) is left out: the deal goes ahead without its nonce, the notice
// names it and every audit notes it. Bots' seats and the host's own have
// no nonce. Every audit checks each mixed nonce against the commitment it
// was relayed, and its own seat's nonce among them: a host that leaves out
// or swaps a nonce, or asks again after seeing one, is caught.
//
// The Shamir shares are of the host's seed and salt, not of the dealt
// seed: the nonces are public (the Lobby carries them, for a new host), so
// a player who knows them all still learns nothing of the deal without the
// host's part, which stays behind the same threshold; and a new host that
// rebuilds the host's part checks it against the commitment, then mixes
// the nonces itself. Sharing the dealt seed would hide the cards as well,
// but could not be checked against the commitment at a failover.
package table
