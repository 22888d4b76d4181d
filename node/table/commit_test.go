package table

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/bullshit-game/bullshit/node/gamewire"
)

// The commitment is the documented hash, byte for byte: a node written in
// another language must compute the same.
func TestCommitIsTheDocumentedHash(t *testing.T) {
	var salt [gamewire.SaltSize]byte
	for i := range salt {
		salt[i] = byte(i)
	}
	msg := append([]byte("bullshit/commit/v1"), 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01)
	msg = append(msg, salt[:]...)
	want := sha256.Sum256(msg)
	if got := gamewire.Commit(0x0102030405060708, salt); got != want {
		t.Fatalf("Commit = %x, want %x", got, want)
	}
	// Pinned (computed with Python's hashlib), so a change to the format
	// can't pass unnoticed.
	const pinned = "6e5b946aadc6dcb50f152c1184ddc6434603ee2dc983effc483d737bb9eee1dd"
	if got := hex.EncodeToString(want[:]); got != pinned {
		t.Errorf("Commit = %s, pinned %s", got, pinned)
	}
}

// The check accepts the committed seed and salt and nothing else: not a
// neighbouring seed, not a salt with one bit changed.
func TestCheckCommit(t *testing.T) {
	salt, err := NewSalt()
	if err != nil {
		t.Fatal(err)
	}
	c := gamewire.Commit(12345, salt)
	if !gamewire.CheckCommit(c, 12345, salt) {
		t.Fatal("the committed seed and salt were refused")
	}
	if gamewire.CheckCommit(c, 12346, salt) {
		t.Error("another seed passed")
	}
	for i := 0; i < gamewire.SaltSize*8; i++ {
		s := salt
		s[i/8] ^= 1 << (i % 8)
		if gamewire.CheckCommit(c, 12345, s) {
			t.Fatalf("a salt with bit %d flipped passed", i)
		}
	}
	other, _ := NewSalt()
	if other == salt {
		t.Error("two salts drawn alike")
	}
}
