package protocol

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"testing"
)

func TestJoinCodeProof(t *testing.T) {
	nonce := []byte("0123456789abcdef")
	proof := Prove("AB12C", nonce, bobID)
	if len(proof) != 32 {
		t.Fatalf("proof of %d bytes", len(proof))
	}
	for _, c := range []struct {
		name  string
		code  string
		nonce []byte
		who   string
		proof []byte
		ok    bool
	}{
		{"right code", "AB12C", nonce, "bob", proof, true},
		// People type codes loosely.
		{"lower case, spaces and dashes", " ab-12 c ", nonce, "bob", proof, true},
		// Anything else fails.
		{"wrong code", "AB12D", nonce, "bob", proof, false},
		{"empty code", "", nonce, "bob", proof, false},
		{"other nonce", "AB12C", []byte("0123456789abcdeF"), "bob", proof, false},
		{"other peer", "AB12C", nonce, "alice", proof, false},
		{"short nonce", "AB12C", nonce[:8], "bob", Prove("AB12C", nonce[:8], bobID), false},
		{"truncated proof", "AB12C", nonce, "bob", proof[:16], false},
		{"no proof", "AB12C", nonce, "bob", nil, false},
	} {
		id := bobID
		if c.who == "alice" {
			id = aliceID
		}
		if got := CheckProof(c.code, c.nonce, id, c.proof); got != c.ok {
			t.Errorf("%s: CheckProof = %v, want %v", c.name, got, c.ok)
		}
	}
	// The proof is HMAC-SHA256(code, nonce || peer ID), as other
	// implementations will compute it.
	mac := hmac.New(sha256.New, []byte("AB12C"))
	mac.Write(append(append([]byte{}, nonce...), bobID...))
	if want := mac.Sum(nil); !bytes.Equal(proof, want) {
		t.Errorf("proof %x, want %x", proof, want)
	}
}
