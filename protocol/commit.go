package protocol

import (
	"crypto/sha256"
	"encoding/binary"
)

// commitDomain keeps a commitment from ever equalling any other hash.
const commitDomain = "bullshit/commit/v1\x00"

// Commitment is the hash a host commits to before the deal:
// SHA-256(domain || seed, 8 bytes big-endian || salt). The salt (random, 16
// bytes or more, drawn by the node) stops anyone trying every seed.
func Commitment(seed uint64, salt []byte) [32]byte {
	h := sha256.New()
	h.Write([]byte(commitDomain))
	h.Write(binary.BigEndian.AppendUint64(nil, seed))
	h.Write(salt)
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}

// Matches says whether the audit reveals the seed the host committed to.
// Checking Hidden takes the engine: replay the game from Seed.
func (a Audit) Matches(c Commit) bool {
	return Commitment(a.Seed, a.Salt) == c.Hash
}
