package mental

import (
	"crypto/sha512"
	"encoding/binary"
	"fmt"
	"hash"
	"io"

	"github.com/gtank/ristretto255"
)

// Sizes of the encodings, in bytes.
const (
	ElementSize = 32
	ScalarSize  = 32
)

// maxItems bounds every count a decoder reads, so no input can make it
// allocate much: a deck is at most this many cards, a table at most this
// many parties or commitments.
const maxItems = 1024

const domain = "bullshit/mental/v1/"

// randomScalar draws 64 bytes from rand and reduces them: uniform, and the
// same bytes give the same scalar (the tests pin it).
func randomScalar(rand io.Reader) (*ristretto255.Scalar, error) {
	var b [64]byte
	if _, err := io.ReadFull(rand, b[:]); err != nil {
		return nil, fmt.Errorf("mental: reading randomness: %w", err)
	}
	return ristretto255.NewScalar().FromUniformBytes(b[:]), nil
}

// transcript hashes a domain-separated sequence of length-prefixed parts
// into a challenge scalar (Fiat–Shamir).
type transcript struct{ h hash.Hash }

func newTranscript(label string) *transcript {
	t := &transcript{h: sha512.New()}
	t.bytes([]byte(domain + label))
	return t
}

func (t *transcript) bytes(b []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(b)))
	t.h.Write(n[:])
	t.h.Write(b)
}

func (t *transcript) elements(es ...*ristretto255.Element) {
	var buf [ElementSize]byte
	for _, e := range es {
		t.h.Write(e.Encode(buf[:0]))
	}
}

func (t *transcript) challenge() *ristretto255.Scalar {
	return ristretto255.NewScalar().FromUniformBytes(t.h.Sum(nil))
}

var identity = ristretto255.NewElement()

func isIdentity(e *ristretto255.Element) bool { return e.Equal(identity) == 1 }

// scalarInt is the scalar n, for Shamir's evaluation points.
func scalarInt(n uint64) *ristretto255.Scalar {
	var b [32]byte
	binary.LittleEndian.PutUint64(b[:], n)
	s := ristretto255.NewScalar()
	if err := s.Decode(b[:]); err != nil {
		panic(err) // n < 2^64 is always canonical
	}
	return s
}

// reader walks a fixed binary layout; the first failure sticks.
type reader struct {
	b   []byte
	bad bool
}

func (r *reader) take(n int) []byte {
	if r.bad || len(r.b) < n {
		r.bad = true
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) u8() int {
	b := r.take(1)
	if b == nil {
		return 0
	}
	return int(b[0])
}

func (r *reader) u16() int {
	b := r.take(2)
	if b == nil {
		return 0
	}
	return int(binary.BigEndian.Uint16(b))
}

// count reads a uint16 count and refuses one above max.
func (r *reader) count(max int) int {
	n := r.u16()
	if n > max {
		r.bad = true
		return 0
	}
	return n
}

func (r *reader) element(e *ristretto255.Element) {
	b := r.take(ElementSize)
	if b != nil && e.Decode(b) != nil {
		r.bad = true
	}
}

func (r *reader) scalar(s *ristretto255.Scalar) {
	b := r.take(ScalarSize)
	if b != nil && s.Decode(b) != nil {
		r.bad = true
	}
}

// done reports the decode's result: everything read, and nothing left.
func (r *reader) done(what string) error {
	if r.bad {
		return fmt.Errorf("%w: %s", ErrMalformed, what)
	}
	if len(r.b) != 0 {
		return fmt.Errorf("%w: %s: %d bytes left over", ErrMalformed, what, len(r.b))
	}
	return nil
}

func appendU16(b []byte, n int) []byte { return binary.BigEndian.AppendUint16(b, uint16(n)) }
