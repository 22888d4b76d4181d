package protocol

import (
	"crypto/ed25519"
	"testing"
)

// benchPlay is protocol/bench's play, for the benchmarks that need the
// package's insides (BenchmarkSealPlay and BenchmarkOpenPlay, which
// `bullshit bench` reports too, are in bench_ext_test.go).
var benchPlay = Play{No: 41, Seat: 2, Cards: []Card{0, 13, 26, 51}, Claim: 4, Rank: NoRank}

// BenchmarkBareVerify: the floor, ed25519 alone over the same bytes.
func BenchmarkBareVerify(b *testing.B) {
	data := mustSeal(b, alice, 1_000_000, benchPlay)
	_, signed, sig, err := parse(data)
	if err != nil {
		b.Fatal(err)
	}
	msg := append([]byte(domain), signed...)
	pub := alice.Public().(ed25519.PublicKey)
	for b.Loop() {
		if !ed25519.Verify(pub, msg, sig) {
			b.Fatal("bad signature")
		}
	}
}

// BenchmarkExtractKey: what deriving the key from the peer ID costs in Open.
func BenchmarkExtractKey(b *testing.B) {
	for b.Loop() {
		if _, err := aliceID.PublicKey(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeUpdate(b *testing.B) {
	body, _ := Encode(sampleOf(b, TypeUpdate))
	for b.Loop() {
		if _, err := Decode(TypeUpdate, body); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(body)), "body-bytes")
}

func BenchmarkEncodeUpdate(b *testing.B) {
	m := sampleOf(b, TypeUpdate)
	for b.Loop() {
		if _, err := Encode(m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpenPlayOverhead: everything Open does but ed25519 itself
// (parse, key from peer ID, body decode), the part this package can make
// slower or faster.
func BenchmarkOpenPlayOverhead(b *testing.B) {
	data := mustSeal(b, alice, 1_000_000, benchPlay)
	for b.Loop() {
		f, _, _, err := parse(data)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := f.sender.PublicKey(); err != nil {
			b.Fatal(err)
		}
		if _, err := Decode(f.typ, f.body); err != nil {
			b.Fatal(err)
		}
	}
}
