package protocol

import (
	"strings"
	"testing"
)

// The list is the one every peer has: 2048 distinct short words, sorted,
// or fingerprints would differ between versions.
func TestFingerprintWordList(t *testing.T) {
	if len(words) != 2048 {
		t.Fatalf("%d words, want 2048", len(words))
	}
	for i, w := range words {
		if i > 0 && words[i-1] >= w {
			t.Fatalf("words not sorted and distinct at %q, %q", words[i-1], w)
		}
		if len(w) < 3 || len(w) > 8 || strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") != "" {
			t.Errorf("word %q: want 3 to 8 lower-case letters", w)
		}
	}
}

// Fixed peers give fixed words (a change here renames every table), and
// two peers' words differ.
func TestFingerprint(t *testing.T) {
	a, b := Fingerprint(string(aliceID)), Fingerprint(string(bobID))
	if a != "daring-cowbell-dove" || b != "pecan-penguin-wild" {
		t.Errorf("alice %q, bob %q: the fingerprint of a fixed key changed", a, b)
	}
	if a == Fingerprint(string(aliceID)+"x") {
		t.Error("another ID gave the same words")
	}
	for _, c := range []struct {
		typed string
		ok    bool
	}{
		{a, true}, {strings.ToUpper(a), true}, {strings.ReplaceAll(a, "-", " "), true},
		{b, false}, {"", false}, {strings.Split(a, "-")[0], false},
	} {
		if got := SameFingerprint(c.typed, a); got != c.ok {
			t.Errorf("SameFingerprint(%q, %q) = %v", c.typed, a, got)
		}
	}
}
