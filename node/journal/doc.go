// Package journal is what a node writes to disk of a game: the host's
// journal of its table (journal.go: the rules, the seats, the seed and
// every accepted step with its time, fsynced per step, a torn tail cut off
// when it is opened again), and a seat's saved game of a finished one
// (savedgame.go: the commitment, what the host revealed and what this seat
// was shown, which VerifyGame holds against each other).
//
// The engine is deterministic, so a journal is the whole game: a host that
// crashes and restarts with the same identity replays it (Resume) and its
// players reconnect to their seats (node's Device.Resume).
//
// It must never open a socket or keep a clock of its own (a step's time is
// the host's, given to it), never read a file it wrote without checking it
// (a journal's header and every record carry a checksum, a saved game its
// format), and never trust a saved game it reads: VerifyGame is how a
// player checks its host, so nothing in it may take the host's word.
package journal
