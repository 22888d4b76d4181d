package protocol_test

import (
	"testing"

	"github.com/bullshit-game/bullshit/protocol/bench"
)

// BenchmarkSealPlay: encode and sign a play, as a seat does for every move.
func BenchmarkSealPlay(b *testing.B) { bench.Seal(b) }

// BenchmarkOpenPlay: decode and verify a play, as the host does for every
// move.
func BenchmarkOpenPlay(b *testing.B) { bench.Open(b) }
