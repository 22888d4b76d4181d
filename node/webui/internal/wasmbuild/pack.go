package wasmbuild

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

// Go's linker writes a program's data as one WebAssembly data segment
// per run of bytes between runs of more than eight zeros: that spares the
// zeros in the file, but each segment costs a header (its offset and its
// length, 5–8 bytes) that compresses badly, and the zeros it spares
// compress to almost nothing. The page's data is some 80,000 segments:
// their headers are over 100 kB of its gzipped download. Pack merges
// segments less than packGap apart, writing the zeros between them: the
// same memory, the file larger unzipped (about 0.8 MB, which the
// browser only copies into the memory it would have zeroed anyway) and
// some 130 kB smaller gzipped.
const packGap = 1024

// The wasm module's section ids, as far as Pack reads them.
const (
	sectionData      = 11
	sectionDataCount = 12
)

// Pack is the module wasm with its data segments merged where they are
// less than packGap apart. It understands only what Go's linker writes
// (active segments of memory 0 at i32.const offsets, none overlapping):
// anything else is an error, never a module packed wrong.
func Pack(wasm []byte) ([]byte, error) {
	if len(wasm) < 8 || string(wasm[:4]) != "\x00asm" {
		return nil, errors.New("wasmbuild: not a WebAssembly module")
	}
	out := slices.Clone(wasm[:8])
	segments := -1
	for r := (reader{b: wasm[8:]}); len(r.b) > 0; {
		id := r.byte()
		body := r.bytes()
		if r.err != nil {
			return nil, r.err
		}
		switch id {
		case sectionData:
			packed, n, err := packData(body)
			if err != nil {
				return nil, err
			}
			body, segments = packed, n
		case sectionDataCount:
			// Rewritten below, once the data's segments are counted.
			body = nil
		}
		out = append(out, id)
		out = binary.AppendUvarint(out, uint64(len(body)))
		out = append(out, body...)
	}
	if segments < 0 {
		return nil, errors.New("wasmbuild: the module has no data section")
	}
	return fixDataCount(out, segments)
}

// segment is one active data segment: its bytes at offset.
type segment struct {
	at   int64
	data []byte
}

// packData is a data section's body with its segments merged, and how
// many it holds now.
func packData(body []byte) ([]byte, int, error) {
	r := reader{b: body}
	n := r.uint()
	segs := make([]segment, 0, min(n, uint64(len(body))))
	for range n {
		if flags := r.uint(); flags != 0 || r.byte() != 0x41 { // active, memory 0; i32.const
			return nil, 0, errors.New("wasmbuild: a data segment of a kind Go's linker doesn't write")
		}
		at := r.sleb()
		if r.byte() != 0x0b { // end
			return nil, 0, errors.New("wasmbuild: a data segment's offset isn't a constant")
		}
		segs = append(segs, segment{at, r.bytes()})
	}
	if r.err != nil || len(r.b) != 0 {
		return nil, 0, fmt.Errorf("wasmbuild: a malformed data section (%v)", r.err)
	}
	slices.SortStableFunc(segs, func(a, b segment) int { return int(a.at - b.at) })
	var merged []segment
	for _, s := range segs {
		if s.at < 0 {
			return nil, 0, errors.New("wasmbuild: a data segment at a negative offset")
		}
		if k := len(merged) - 1; k >= 0 {
			end := merged[k].at + int64(len(merged[k].data))
			switch gap := s.at - end; {
			case gap < 0:
				return nil, 0, errors.New("wasmbuild: data segments overlap")
			case gap <= packGap:
				merged[k].data = append(append(merged[k].data, make([]byte, gap)...), s.data...)
				continue
			}
		}
		merged = append(merged, segment{s.at, slices.Clone(s.data)})
	}
	out := binary.AppendUvarint(nil, uint64(len(merged)))
	for _, s := range merged {
		out = append(out, 0, 0x41)
		out = appendSleb(out, s.at)
		out = append(out, 0x0b)
		out = binary.AppendUvarint(out, uint64(len(s.data)))
		out = append(out, s.data...)
	}
	return out, len(merged), nil
}

// fixDataCount writes the data count section's new count, if the module
// has one (Go's linker writes none).
func fixDataCount(wasm []byte, n int) ([]byte, error) {
	out := slices.Clone(wasm[:8])
	for r := (reader{b: wasm[8:]}); len(r.b) > 0; {
		id := r.byte()
		body := r.bytes()
		if r.err != nil {
			return nil, r.err
		}
		if id == sectionDataCount {
			body = binary.AppendUvarint(nil, uint64(n))
		}
		out = append(out, id)
		out = binary.AppendUvarint(out, uint64(len(body)))
		out = append(out, body...)
	}
	return out, nil
}

// reader reads a module's LEB128 numbers and byte strings; a short one
// sets err.
type reader struct {
	b   []byte
	err error
}

func (r *reader) fail() {
	if r.err == nil {
		r.err = errors.New("wasmbuild: the module ends early")
	}
	r.b = nil
}

func (r *reader) byte() byte {
	if len(r.b) == 0 {
		r.fail()
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *reader) uint() uint64 {
	v, k := binary.Uvarint(r.b)
	if k <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[k:]
	return v
}

func (r *reader) sleb() int64 {
	var v int64
	var shift uint
	for {
		c := r.byte()
		if r.err != nil || shift > 63 {
			r.fail()
			return 0
		}
		v |= int64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			if shift < 64 && c&0x40 != 0 {
				v |= -1 << shift
			}
			return v
		}
	}
}

func (r *reader) bytes() []byte {
	n := r.uint()
	if r.err != nil || n > uint64(len(r.b)) {
		r.fail()
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func appendSleb(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 && c&0x40 == 0 || v == -1 && c&0x40 != 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
