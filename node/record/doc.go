// Package record is one player's record of a game, the same on the
// terminal (node's Remote) and on the phone (node/webclient): every event
// the host showed this seat, what a host's backlog may do to it, the
// host's reveal as it arrives, this seat's part in the deal's toss, and
// the audit that puts them together, with every sentence a player reads
// about them. The phone and the terminal draw the same conclusions from
// the same messages because they both draw them here.
//
// It never opens a socket or a file, never reads a clock, never imports
// libp2p (it compiles to js/wasm for the phone's page), and never lets a
// host's word replace what the player was shown: a backlog adds to the
// record, and one that would rewrite it leaves the record as it was and
// fails the audit. Its one draw of chance is a fresh nonce for the toss,
// from crypto/rand.
package record
