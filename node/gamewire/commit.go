package gamewire

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
	"errors"
)

// Before the deal the host publishes, signed, a commitment to the deal's
// seed; at the end it reveals the seed and the salt, and every node checks
// them against the commitment before it replays the game (engine.Audit).
// The hash binds the host: no other seed gives the same commitment, so the
// deal can't be swapped once play has begun. The 32-byte salt hides the
// seed: without it anyone could try all 2^64 seeds against the hash and
// learn every hand.
//
// On its own it would not stop a host that tries seeds before it commits
// until one deals it a good hand: the players' nonces, mixed in after the
// commitment (toss.go), do.

// commitDomain keeps a commitment from equalling any other SHA-256 use.
const commitDomain = "bullshit/commit/v1"

// SaltSize is the length of a commitment's salt.
const SaltSize = 32

// ErrCommitMismatch is a revealed seed and salt that don't hash to the
// commitment the host published before the deal.
var ErrCommitMismatch = errors.New("the revealed seed and salt don't match the commitment the host published before the deal")

// Commit is SHA-256("bullshit/commit/v1" || seed, 8 bytes little-endian
// || salt).
func Commit(seed uint64, salt [SaltSize]byte) [32]byte {
	var b [len(commitDomain) + 8 + SaltSize]byte
	n := copy(b[:], commitDomain)
	binary.LittleEndian.PutUint64(b[n:], seed)
	copy(b[n+8:], salt[:])
	return sha256.Sum256(b[:])
}

// CheckCommit reports whether seed and salt are what commitment bound.
func CheckCommit(commitment [32]byte, seed uint64, salt [SaltSize]byte) bool {
	c := Commit(seed, salt)
	return subtle.ConstantTimeCompare(c[:], commitment[:]) == 1
}
