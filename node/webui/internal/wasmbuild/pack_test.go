package wasmbuild

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// module is a WebAssembly module of a type section and a data section of
// segs, as Go's linker writes them.
func module(segs []segment) []byte {
	b := []byte("\x00asm\x01\x00\x00\x00")
	b = append(b, 1, 1, 0) // an empty type section
	data := binary.AppendUvarint(nil, uint64(len(segs)))
	for _, s := range segs {
		data = append(data, 0, 0x41)
		data = appendSleb(data, s.at)
		data = append(data, 0x0b)
		data = binary.AppendUvarint(data, uint64(len(s.data)))
		data = append(data, s.data...)
	}
	b = append(b, sectionData)
	b = binary.AppendUvarint(b, uint64(len(data)))
	return append(b, data...)
}

// memory is the memory a module's data sets, from its lowest byte set,
// and how many segments set it.
func memory(t *testing.T, wasm []byte) ([]byte, int) {
	t.Helper()
	r := reader{b: wasm[8:]}
	for len(r.b) > 0 {
		id, body := r.byte(), r.bytes()
		if id != sectionData {
			continue
		}
		d := reader{b: body}
		n := d.uint()
		mem := map[int64]byte{}
		lo, hi := int64(-1), int64(0)
		for range n {
			d.uint()
			d.byte()
			at := d.sleb()
			d.byte()
			for k, c := range d.bytes() {
				mem[at+int64(k)] = c
				hi = max(hi, at+int64(k)+1)
			}
			if lo < 0 || at < lo {
				lo = at
			}
		}
		if d.err != nil || r.err != nil {
			t.Fatal(d.err, r.err)
		}
		out := make([]byte, hi-lo)
		for a, c := range mem {
			out[a-lo] = c
		}
		return out, int(n)
	}
	t.Fatal("no data section")
	return nil, 0
}

// Packed, a module sets the same memory with fewer segments: those less
// than packGap apart merged (in offset order, whatever order they came
// in), those further apart kept apart; the sections around it as they
// were.
func TestPackSameMemory(t *testing.T) {
	segs := []segment{
		{4096, []byte("go")},
		{4107, []byte("runtime")},         // 9 zeros after the last: merged
		{4107 + 7 + packGap, []byte("x")}, // packGap zeros after: merged
		{20000, []byte("far")},            // far: a segment of its own
		{100, []byte("first, though last written")},
	}
	in := module(segs)
	out, err := Pack(in)
	if err != nil {
		t.Fatal(err)
	}
	want, n := memory(t, in)
	got, m := memory(t, out)
	if !bytes.Equal(got, want) || n != 5 || m != 3 {
		t.Fatalf("packed: %d segments (of %d), same memory %v", m, n, bytes.Equal(got, want))
	}
	if !bytes.Equal(out[:11], in[:11]) {
		t.Fatal("the sections before the data changed")
	}
	again, err := Pack(out)
	if err != nil || !bytes.Equal(again, out) {
		t.Fatalf("packing a packed module changed it (%v)", err)
	}
}

// What Go's linker doesn't write is refused: overlapping segments, a
// passive one, an offset that isn't a constant, a module cut short.
func TestPackRefuses(t *testing.T) {
	overlap := module([]segment{{10, []byte("abcdef")}, {12, []byte("x")}})
	passive := module([]segment{{10, []byte("a")}})
	passive[len(passive)-6] = 1 // the segment's flags: passive
	for name, b := range map[string][]byte{
		"overlap": overlap, "passive": passive, "short": module([]segment{{10, []byte("abc")}})[:20], "not wasm": []byte("hello, world"),
	} {
		if _, err := Pack(b); err == nil {
			t.Errorf("%s: packed", name)
		}
	}
}

// FuzzPack: any bytes pack or are refused, never a panic; what packs
// packs again to itself and sets the same memory.
func FuzzPack(f *testing.F) {
	f.Add(module([]segment{{1, []byte("a")}, {30, []byte("b")}, {5000, []byte("c")}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		out, err := Pack(b)
		if err != nil {
			return
		}
		again, err := Pack(out)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("packing again: %v", err)
		}
	})
}
