package protocol

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/vmihailenco/msgpack/v5"
)

// msgpack.go writes what vmihailenco/msgpack wrote, byte for byte, at
// every boundary of every form.
func TestMsgpackWritesAsTheLibrary(t *testing.T) {
	var ints []int64
	for _, b := range []int64{0, 31, 32, 127, 128, 255, 256, math.MaxInt16, math.MaxUint16, math.MaxInt32, math.MaxUint32} {
		ints = append(ints, b-1, b, b+1, -b-1, -b, -b+1)
	}
	ints = append(ints, math.MaxInt64, math.MinInt64, math.MinInt64+1)
	lens := []int{0, 1, 15, 16, 31, 32, 255, 256, math.MaxUint16, math.MaxUint16 + 1}
	for _, c := range []struct {
		name string
		ours func(encoder) error
		lib  func(*msgpack.Encoder) error
	}{
		{"nil", func(e encoder) error { return e.EncodeNil() }, func(e *msgpack.Encoder) error { return e.EncodeNil() }},
		{"true", func(e encoder) error { return e.EncodeBool(true) }, func(e *msgpack.Encoder) error { return e.EncodeBool(true) }},
		{"false", func(e encoder) error { return e.EncodeBool(false) }, func(e *msgpack.Encoder) error { return e.EncodeBool(false) }},
		{"nil bytes", func(e encoder) error { return e.EncodeBytes(nil) }, func(e *msgpack.Encoder) error { return e.EncodeBytes(nil) }},
	} {
		same(t, c.name, c.ours, c.lib)
	}
	for _, n := range ints {
		same(t, "int", func(e encoder) error { return e.EncodeInt(n) }, func(e *msgpack.Encoder) error { return e.EncodeInt(n) })
		u := uint64(n)
		same(t, "uint", func(e encoder) error { return e.EncodeUint(u) }, func(e *msgpack.Encoder) error { return e.EncodeUint(u) })
	}
	for _, l := range lens {
		s := strings.Repeat("é", l/2) + strings.Repeat("x", l%2)
		b := []byte(s)
		same(t, "string", func(e encoder) error { return e.EncodeString(s) }, func(e *msgpack.Encoder) error { return e.EncodeString(s) })
		same(t, "bytes", func(e encoder) error { return e.EncodeBytes(b) }, func(e *msgpack.Encoder) error { return e.EncodeBytes(b) })
		same(t, "array", func(e encoder) error { return e.EncodeArrayLen(l) }, func(e *msgpack.Encoder) error { return e.EncodeArrayLen(l) })
		same(t, "map", func(e encoder) error { return e.EncodeMapLen(l) }, func(e *msgpack.Encoder) error { return e.EncodeMapLen(l) })
	}
}

func same(t *testing.T, name string, ours func(encoder) error, lib func(*msgpack.Encoder) error) {
	t.Helper()
	var a, b bytes.Buffer
	if err := ours(encoder{&a}); err != nil {
		t.Fatal(err)
	}
	if err := lib(msgpack.NewEncoder(&b)); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Errorf("%s: ours %x, msgpack's %x", name, head(a.Bytes()), head(b.Bytes()))
	}
}

func head(b []byte) []byte { return b[:min(len(b), 12)] }

// msgpack.go reads what vmihailenco/msgpack read from the same bytes: the
// same value, an error where it failed, the same bytes consumed.
func FuzzMsgpackReadsAsTheLibrary(f *testing.F) {
	for _, s := range [][]byte{{0x00}, {0x7f}, {0xe0}, {0xff}, {0xc0}, {0xc2}, {0xc3}, {0xc1},
		{0xcc, 0xff}, {0xcd, 1, 2}, {0xce, 1, 2, 3, 4}, {0xcf, 0x80, 0, 0, 0, 0, 0, 0, 1}, {0xd0, 0x80},
		{0xd1, 0x80, 0}, {0xd2, 0x80, 0, 0, 0}, {0xd3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
		{0xa3, 'a', 'b', 'c'}, {0xd9, 3}, {0xda, 0, 3}, {0xdb, 0, 0, 0, 3}, {0xc4, 2}, {0xc5, 1, 0}, {0xc6, 0, 1, 0, 0},
		{0x93}, {0xdc, 0, 20}, {0xdd, 0, 0, 1, 0}, {0x82}, {0xde, 0, 17}, {0xdf, 0, 0, 0, 1},
		{0xca, 1, 2, 3, 4}, {0xcb, 1, 2, 3, 4, 5, 6, 7, 8}, {0xd4, 1, 1}, {0xcd, 1}} {
		for op := range byte(9) {
			f.Add(op, s)
		}
	}
	f.Fuzz(func(t *testing.T, op byte, in []byte) {
		r := bytes.NewReader(in)
		ours := decoder{r}
		lr := bytes.NewReader(in)
		lib := msgpack.NewDecoder(lr)
		var a, b any
		var ea, eb error
		switch op % 9 {
		case 0:
			a, ea = ours.DecodeUint64()
			b, eb = lib.DecodeUint64()
		case 1:
			a, ea = ours.DecodeInt64()
			b, eb = lib.DecodeInt64()
		case 2:
			a, ea = ours.DecodeBool()
			b, eb = lib.DecodeBool()
		case 3:
			ea, eb = ours.DecodeNil(), lib.DecodeNil()
		case 4:
			a, ea = ours.DecodeBytesLen()
			b, eb = lib.DecodeBytesLen()
		case 5:
			a, ea = ours.DecodeArrayLen()
			b, eb = lib.DecodeArrayLen()
		case 6:
			if len(in) > 0 && isMap(in[0]) || len(in) > 0 && in[0] == codeNil {
				a, ea = ours.DecodeMapLen()
				b, eb = lib.DecodeMapLen()
			}
		case 7:
			// The codec skips only scalars with Skip.
			if len(in) > 0 && !isArray(in[0]) && !isMap(in[0]) && !isStr(in[0]) && !isBin(in[0]) && !isExt(in[0]) {
				ea, eb = ours.Skip(), lib.Skip()
			}
		case 8:
			a, ea = ours.PeekCode()
			b, eb = lib.PeekCode()
		}
		if (ea == nil) != (eb == nil) || ea == nil && a != b {
			t.Fatalf("op %d on %x: ours %v, %v; msgpack's %v, %v", op%9, in, a, ea, b, eb)
		}
		if ea == nil && r.Len() != lr.Len() {
			t.Fatalf("op %d on %x: ours left %d bytes, msgpack's %d", op%9, in, r.Len(), lr.Len())
		}
	})
}
