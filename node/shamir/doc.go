// Package shamir is Shamir's secret sharing over GF(2^8), and the split
// and rebuild of a game's seed and salt that a new host needs when the old
// one vanishes (shamir.go says what is shared, with whom, and what that
// protects against). It is pure arithmetic: node decides who gets which
// share (node/table/journalshare.go) and when they are combined
// (node/restore.go).
//
// It must never do I/O beyond the random reader it is handed, keep a
// secret past the call that uses it, or branch on a secret byte (its
// field arithmetic runs in constant time). It is to give way to the
// mental deck (a host that can't see the cards); nothing outside node
// should import it.
package shamir
