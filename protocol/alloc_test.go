package protocol

import (
	"bytes"
	"encoding/binary"
	"runtime"
	"testing"
)

// stateFrame is a State body of size bytes (at most, when valid) whose Steps array
// claims steps items: each a bare step (the fewest bytes a Step can take)
// when valid, else filler the decoder refuses at the first item.
func stateFrame(size, steps int, valid bool) []byte {
	var b bytes.Buffer
	b.Write([]byte{0x92, 0xdd}) // [Steps: array32
	binary.Write(&b, binary.BigEndian, uint32(steps))
	bare := []byte{0x9d, 0, 0xc2, 0, 0, 0xc0, 0, 0, 0, 0, 0, 0xc0, 0xc0, 0xc0} // At, Tick, Move, Seat, Cards nil, Claim, Rank, No, Hidden, Term, Seal, Sig, Mark nil
	for i := 0; i < steps && valid; i++ {
		b.Write(bare)
	}
	if valid {
		b.WriteByte(0xc0) // Shares nil
	}
	for b.Len() < size && !valid {
		b.WriteByte(0xc0)
	}
	return b.Bytes()
}

// allocated is the bytes of heap one Decode of body takes, on average.
func allocated(t Type, body []byte) (uint64, error) {
	const runs = 20
	var before, after runtime.MemStats
	var err error
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range runs {
		_, err = Decode(t, body)
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / runs, err
}

// dealFrame is a DeckDeal body of size bytes (at most) whose Shares are
// all nil (0xc0, one byte for a 24-byte slice header), or all empty bins
// (0xc4 0x00) when empty: the densest frames a [][]byte message makes.
func dealFrame(size int, empty bool) []byte {
	per := 1
	if empty {
		per = 2
	}
	n := (size - 7) / per
	var b bytes.Buffer
	b.Write([]byte{0x92, 0x00, 0xdd}) // [From 0, Shares: array32
	binary.Write(&b, binary.BigEndian, uint32(n))
	for range n {
		if empty {
			b.Write([]byte{0xc4, 0x00})
		} else {
			b.WriteByte(0xc0)
		}
	}
	return b.Bytes()
}

// A stranger's 64 KiB frame can make the decoder hold a small multiple of
// its size, never the ten megabytes issue 21 measured (a State whose Steps
// header claims 65,000 steps: 65,000 × 152 bytes made before the first
// step was read). A frame that lies fails from its length header; the
// densest frame that decodes stays under the budget (allocPerByte). The
// deck's [][]byte messages are the other dense kind: a nil share is one
// byte of wire for a 24-byte slice header, over the budget, so a deal of
// nothing but nil shares fails at its header; empty ones (two bytes) fit.
func TestDecodeAllocBound(t *testing.T) {
	const size = MaxSize
	bare := 14
	fit := (size - 16) / bare
	for _, c := range []struct {
		name  string
		typ   Type
		body  []byte
		ok    bool
		bound int
	}{
		{"issue 21's frame: a header claiming a step a byte", TypeState, stateFrame(size, size-10, false), false, 8 * size},
		{"as many steps as could fit, then filler", TypeState, stateFrame(size, fit, false), false, allocPerByte*size + allocSlack},
		{"as many bare steps as fit, all valid", TypeState, stateFrame(size, fit, true), true, allocPerByte*size + allocSlack + 1024},
		{"a deal of nil shares, one a byte", TypeDeckDeal, dealFrame(size, false), false, allocSlack},
		{"a deal of empty shares, one in two bytes, all valid", TypeDeckDeal, dealFrame(size, true), true, allocPerByte*size + allocSlack},
	} {
		if len(c.body) > size || len(c.body) < size-bare {
			t.Fatalf("%s: %d bytes", c.name, len(c.body))
		}
		got, err := allocated(c.typ, c.body)
		if (err == nil) != c.ok {
			t.Errorf("%s: err %v, want ok %v", c.name, err, c.ok)
		}
		t.Logf("%s: %d bytes allocated for a %d-byte body (%.1f×)", c.name, got, size, float64(got)/size)
		if got > uint64(c.bound) {
			t.Errorf("%s: %d bytes allocated for a %d-byte body, over %d", c.name, got, size, c.bound)
		}
	}
	// Every honest sample still decodes, with room to spare.
	for _, s := range samples() {
		b, _ := Encode(s.msg)
		if _, err := Decode(s.msg.Type(), b); err != nil {
			t.Errorf("%s: %v", s.name, err)
		}
	}
	// So do the biggest honest deck messages, well under the budget: a
	// share or an opening is far more bytes of wire than its slice header.
	for _, c := range bigDeckMessages() {
		b, _ := Encode(c.msg)
		got, err := allocated(c.msg.Type(), b)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
		t.Logf("%s: %d bytes allocated for a %d-byte body (%.1f×)", c.name, got, len(b), float64(got)/float64(len(b)))
		if budget := allocPerByte*len(b) + allocSlack; got > uint64(budget) {
			t.Errorf("%s: %d bytes allocated for a %d-byte body, over the budget of %d", c.name, got, len(b), budget)
		}
	}
}
