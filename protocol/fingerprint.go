package protocol

import (
	"crypto/sha256"
	_ "embed"
	"encoding/binary"
	"strings"
)

// A table's name is the host's to choose, so two tables can share one; its
// host's key can't be chosen to look like another's, so players tell
// tables apart by a short fingerprint of the host's peer ID: three words
// from a fixed list of 2048 (words.txt, made for this game: common,
// short, plain English nouns and adjectives; sorted, one a line). Three
// words are 33 bits: an impostor who wants the fingerprint of one given
// host must make about 2^33 keys (8.6e9: days of a core's time at a few
// µs a key) before the evening, for a name that is only shown, not
// checked; the join code (pake.go) is what keeps an impostor from a
// private table. Never change the list or the hash: the words of every
// table would change.

//go:embed words.txt
var wordsFile string

var words = strings.Fields(wordsFile)

// FingerprintWords is how many words a fingerprint has.
const FingerprintWords = 3

// Fingerprint is the three words naming the host whose peer ID has the
// bytes id: "maple-otter-lunar". The same ID gives the same words on every
// peer, in the terminal and the browser alike.
func Fingerprint(id string) string {
	h := sha256.Sum256([]byte("bullshit/fingerprint/v1\x00" + id))
	n := binary.BigEndian.Uint64(h[:8])
	w := make([]string, FingerprintWords)
	for i := range w {
		w[i] = words[n>>(64-11*(i+1))&2047]
	}
	return strings.Join(w, "-")
}

// SameFingerprint says whether a fingerprint a person typed is fp: case,
// and spaces or dashes between the words, don't count.
func SameFingerprint(typed, fp string) bool {
	norm := func(s string) string {
		return strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == '-' || r == ' ' || r == '_' }), "-")
	}
	return typed != "" && norm(typed) == norm(fp)
}
