package protocol

import (
	"crypto/hmac"
	"crypto/sha256"
	"strings"
	"unicode"
)

// NonceSize is the length of a Challenge nonce.
const NonceSize = 16

// Prove answers a host's Challenge: HMAC-SHA256 keyed with the join code
// over nonce || the joiner's peer ID. The code never crosses the network and
// the proof is good for one nonce and one peer only. Codes are typed by
// people, so case, spaces and dashes do not count: "ab-12 c" is "AB12C".
func Prove(code string, nonce []byte, id PeerID) []byte {
	mac := hmac.New(sha256.New, []byte(normalize(code)))
	mac.Write(nonce)
	mac.Write([]byte(id))
	return mac.Sum(nil)
}

// CheckProof says whether proof is Prove(code, nonce, id). The host must
// pass the nonce it sent that peer; a nonce shorter than NonceSize never
// checks out.
func CheckProof(code string, nonce []byte, id PeerID, proof []byte) bool {
	if len(nonce) < NonceSize {
		return false
	}
	return hmac.Equal(proof, Prove(code, nonce, id))
}

func normalize(code string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || unicode.IsSpace(r) {
			return -1
		}
		return unicode.ToUpper(r)
	}, code)
}
