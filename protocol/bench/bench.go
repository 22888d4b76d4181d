// Package bench holds the bodies of the protocol's benchmarks that
// `bullshit bench` reports too: sealing and opening a play, the cost every
// move pays on each side. The bodies run under *testing.B or under
// engine/bench's Run; like engine/bench, this package must never import
// testing, and protocol itself never imports it.
package bench

import (
	"crypto/ed25519"
	"crypto/sha256"

	"github.com/bullshit-game/bullshit/engine/bench"
	"github.com/bullshit-game/bullshit/protocol"
)

// play is a play as large as one gets, four cards.
var (
	play  = protocol.Play{No: 41, Seat: 2, Cards: []protocol.Card{0, 13, 26, 51}, Claim: 4, Rank: protocol.NoRank}
	table = protocol.TableID{1, 2, 3, 4, 5, 6, 7, 8}
)

// signer is a seat's signer with a key from a fixed seed: ed25519 costs
// the same whatever the key.
func signer(b bench.B) *protocol.Signer {
	b.Helper()
	seed := sha256.Sum256([]byte("bullshit bench key"))
	s, err := protocol.NewSigner(ed25519.NewKeyFromSeed(seed[:]), 1_000_000)
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// Seal: encode and sign a play, as a seat does for every move. It reports
// wire-bytes.
func Seal(b bench.B) {
	s := signer(b)
	var size int
	for b.Loop() {
		data, _, err := s.Seal(table, 3, play)
		if err != nil {
			b.Fatal(err)
		}
		size = len(data)
	}
	b.ReportMetric(float64(size), "wire-bytes")
}

// Open: decode and verify a play, as the host does for every move. It
// reports wire-bytes.
func Open(b bench.B) {
	s := signer(b)
	data, _, err := s.Seal(table, 3, play)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := protocol.Open(data, s.ID()); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(data)), "wire-bytes")
}
