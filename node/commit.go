package node

import (
	"crypto/rand"

	"github.com/bullshit-game/bullshit/node/gamewire"
)

// The commitment to the deal's seed (its why and its arithmetic) is in
// package gamewire, which the browser client checks with too.

// SaltSize is the length of a commitment's salt.
const SaltSize = gamewire.SaltSize

// ErrCommitMismatch is a revealed seed and salt that don't hash to the
// commitment the host published before the deal.
var ErrCommitMismatch = gamewire.ErrCommitMismatch

// Commit is gamewire.Commit.
func Commit(seed uint64, salt [SaltSize]byte) [32]byte { return gamewire.Commit(seed, salt) }

// CheckCommit reports whether seed and salt are what commitment bound.
func CheckCommit(commitment [32]byte, seed uint64, salt [SaltSize]byte) bool {
	return gamewire.CheckCommit(commitment, seed, salt)
}

// NewSalt draws a salt from crypto/rand.
func NewSalt() ([SaltSize]byte, error) {
	var s [SaltSize]byte
	_, err := rand.Read(s[:])
	return s, err
}
