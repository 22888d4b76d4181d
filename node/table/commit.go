package table

import (
	"crypto/rand"

	"github.com/bullshit-game/bullshit/node/gamewire"
)

// The commitment to the deal's seed (its why and its arithmetic) is in
// package gamewire, which the browser client checks with too.

// NewSalt draws a salt from crypto/rand.
func NewSalt() ([gamewire.SaltSize]byte, error) {
	var s [gamewire.SaltSize]byte
	_, err := rand.Read(s[:])
	return s, err
}
