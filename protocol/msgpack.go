package protocol

import (
	"bytes"
	"fmt"
	"io"
	"math"
)

// The msgpack the codec speaks, written here rather than taken from a
// general msgpack library: the codec needs only headers and scalars (the
// shapes come from its schemas), and a general library's reflection, type
// registries and extensions were a quarter of the browser player's
// download. The bytes and the readings are msgpack's (the spec's smallest
// encodings, as vmihailenco/msgpack wrote them); the golden and frozen
// tests hold the codec to them.

// Codes of the msgpack format.
const (
	codePosFixMax = 0x7f
	codeFixMap    = 0x80 // 0x80–0x8f
	codeFixArray  = 0x90 // 0x90–0x9f
	codeFixStr    = 0xa0 // 0xa0–0xbf
	codeNil       = 0xc0
	codeFalse     = 0xc2
	codeTrue      = 0xc3
	codeBin8      = 0xc4
	codeBin16     = 0xc5
	codeBin32     = 0xc6
	codeExt8      = 0xc7
	codeExt32     = 0xc9
	codeFloat     = 0xca
	codeDouble    = 0xcb
	codeUint8     = 0xcc
	codeUint16    = 0xcd
	codeUint32    = 0xce
	codeUint64    = 0xcf
	codeInt8      = 0xd0
	codeInt16     = 0xd1
	codeInt32     = 0xd2
	codeInt64     = 0xd3
	codeFixExt1   = 0xd4
	codeFixExt16  = 0xd8
	codeStr8      = 0xd9
	codeStr16     = 0xda
	codeStr32     = 0xdb
	codeArray16   = 0xdc
	codeArray32   = 0xdd
	codeMap16     = 0xde
	codeMap32     = 0xdf
	codeNegFixLow = 0xe0 // 0xe0–0xff
	codeFixMapMax = 0x8f
	codeFixArrMax = 0x9f
	codeFixStrMax = 0xbf
	fixMapMask    = 0x0f
	fixArrayMask  = 0x0f
	fixStrMask    = 0x1f
)

func isFixedNum(c byte) bool { return c <= codePosFixMax || c >= codeNegFixLow }
func isExt(c byte) bool {
	return c >= codeFixExt1 && c <= codeFixExt16 || c >= codeExt8 && c <= codeExt32
}

// encoder writes msgpack to a buffer. Its methods return an error to read
// like any writer's; a bytes.Buffer never fails.
type encoder struct{ w *bytes.Buffer }

func (e encoder) code(c byte) error { return e.w.WriteByte(c) }

func (e encoder) write1(c byte, n uint8) error {
	e.w.Write([]byte{c, n})
	return nil
}

func (e encoder) write2(c byte, n uint16) error {
	e.w.Write([]byte{c, byte(n >> 8), byte(n)})
	return nil
}

func (e encoder) write4(c byte, n uint32) error {
	e.w.Write([]byte{c, byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)})
	return nil
}

func (e encoder) write8(c byte, n uint64) error {
	e.w.Write([]byte{c, byte(n >> 56), byte(n >> 48), byte(n >> 40), byte(n >> 32),
		byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)})
	return nil
}

func (e encoder) EncodeNil() error { return e.code(codeNil) }

func (e encoder) EncodeBool(v bool) error {
	if v {
		return e.code(codeTrue)
	}
	return e.code(codeFalse)
}

// EncodeUint writes n in the fewest bytes.
func (e encoder) EncodeUint(n uint64) error {
	switch {
	case n <= codePosFixMax:
		return e.code(byte(n))
	case n <= math.MaxUint8:
		return e.write1(codeUint8, uint8(n))
	case n <= math.MaxUint16:
		return e.write2(codeUint16, uint16(n))
	case n <= math.MaxUint32:
		return e.write4(codeUint32, uint32(n))
	}
	return e.write8(codeUint64, n)
}

// EncodeInt writes n in the fewest bytes, unsigned when it isn't negative.
func (e encoder) EncodeInt(n int64) error {
	switch {
	case n >= 0:
		return e.EncodeUint(uint64(n))
	case n >= -32:
		return e.code(byte(n))
	case n >= math.MinInt8:
		return e.write1(codeInt8, uint8(n))
	case n >= math.MinInt16:
		return e.write2(codeInt16, uint16(n))
	case n >= math.MinInt32:
		return e.write4(codeInt32, uint32(n))
	}
	return e.write8(codeInt64, uint64(n))
}

func (e encoder) EncodeString(s string) error {
	switch l := len(s); {
	case l < 32:
		e.code(codeFixStr | byte(l))
	case l <= math.MaxUint8:
		e.write1(codeStr8, uint8(l))
	case l <= math.MaxUint16:
		e.write2(codeStr16, uint16(l))
	default:
		e.write4(codeStr32, uint32(l))
	}
	e.w.WriteString(s)
	return nil
}

// EncodeBytes writes b as bin, nil as nil.
func (e encoder) EncodeBytes(b []byte) error {
	if b == nil {
		return e.EncodeNil()
	}
	switch l := len(b); {
	case l <= math.MaxUint8:
		e.write1(codeBin8, uint8(l))
	case l <= math.MaxUint16:
		e.write2(codeBin16, uint16(l))
	default:
		e.write4(codeBin32, uint32(l))
	}
	e.w.Write(b)
	return nil
}

func (e encoder) EncodeArrayLen(l int) error {
	switch {
	case l < 16:
		return e.code(codeFixArray | byte(l))
	case l <= math.MaxUint16:
		return e.write2(codeArray16, uint16(l))
	}
	return e.write4(codeArray32, uint32(l))
}

func (e encoder) EncodeMapLen(l int) error {
	switch {
	case l < 16:
		return e.code(codeFixMap | byte(l))
	case l <= math.MaxUint16:
		return e.write2(codeMap16, uint16(l))
	}
	return e.write4(codeMap32, uint32(l))
}

// decoder reads msgpack from bytes in memory. A truncated value is io.EOF
// or io.ErrUnexpectedEOF; a code that doesn't belong, an error that says
// so. The codec looks at each code before it asks for a value, so these
// checks are the second line.
type decoder struct{ r *bytes.Reader }

// PeekCode is the next code, not read.
func (d decoder) PeekCode() (byte, error) {
	c, err := d.r.ReadByte()
	if err != nil {
		return 0, err
	}
	return c, d.r.UnreadByte()
}

func (d decoder) ReadFull(b []byte) error {
	_, err := io.ReadFull(d.r, b)
	return err
}

// be reads an n-byte big-endian number. Short, it reads what there is
// and fails as io.ReadFull does.
func (d decoder) be(n int) (uint64, error) {
	if l := d.r.Len(); l < n {
		d.r.Seek(0, io.SeekEnd)
		if l == 0 {
			return 0, io.EOF
		}
		return 0, io.ErrUnexpectedEOF
	}
	var v uint64
	for range n {
		c, _ := d.r.ReadByte()
		v = v<<8 | uint64(c)
	}
	return v, nil
}

// DecodeUint64 reads any integer (nil as 0), its bits as a uint64.
func (d decoder) DecodeUint64() (uint64, error) {
	c, err := d.r.ReadByte()
	if err != nil {
		return 0, err
	}
	switch {
	case c == codeNil:
		return 0, nil
	case isFixedNum(c):
		return uint64(int8(c)), nil
	}
	switch c {
	case codeUint8:
		return d.be(1)
	case codeInt8:
		n, err := d.be(1)
		return uint64(int8(n)), err
	case codeUint16:
		return d.be(2)
	case codeInt16:
		n, err := d.be(2)
		return uint64(int16(n)), err
	case codeUint32:
		return d.be(4)
	case codeInt32:
		n, err := d.be(4)
		return uint64(int32(n)), err
	case codeUint64, codeInt64:
		return d.be(8)
	}
	return 0, fmt.Errorf("msgpack: invalid code=%x decoding uint64", c)
}

// DecodeInt64 reads any integer (nil as 0), its bits as an int64.
func (d decoder) DecodeInt64() (int64, error) {
	c, err := d.r.ReadByte()
	if err != nil {
		return 0, err
	}
	switch {
	case c == codeNil:
		return 0, nil
	case isFixedNum(c):
		return int64(int8(c)), nil
	}
	var n uint64
	switch c {
	case codeUint8, codeUint16, codeUint32:
		n, err = d.be(1 << (c - codeUint8))
		return int64(n), err
	case codeInt8:
		n, err = d.be(1)
		return int64(int8(n)), err
	case codeInt16:
		n, err = d.be(2)
		return int64(int16(n)), err
	case codeInt32:
		n, err = d.be(4)
		return int64(int32(n)), err
	case codeUint64, codeInt64:
		n, err = d.be(8)
		return int64(n), err
	}
	return 0, fmt.Errorf("msgpack: invalid code=%x decoding int64", c)
}

func (d decoder) DecodeBool() (bool, error) {
	c, err := d.r.ReadByte()
	if err != nil {
		return false, err
	}
	switch c {
	case codeNil, codeFalse:
		return false, nil
	case codeTrue:
		return true, nil
	}
	return false, fmt.Errorf("msgpack: invalid code=%x decoding bool", c)
}

func (d decoder) DecodeNil() error {
	c, err := d.r.ReadByte()
	if err != nil {
		return err
	}
	if c != codeNil {
		return fmt.Errorf("msgpack: invalid code=%x decoding nil", c)
	}
	return nil
}

// DecodeBytesLen reads a str or bin header: its length, -1 for nil.
func (d decoder) DecodeBytesLen() (int, error) {
	c, err := d.r.ReadByte()
	if err != nil {
		return 0, err
	}
	n, err := d.bytesLen(c)
	return int(n), err
}

func (d decoder) bytesLen(c byte) (int64, error) {
	if c == codeNil {
		return -1, nil
	}
	if c >= codeFixStr && c <= codeFixStrMax {
		return int64(c & fixStrMask), nil
	}
	var n uint64
	var err error
	switch c {
	case codeStr8, codeBin8:
		n, err = d.be(1)
	case codeStr16, codeBin16:
		n, err = d.be(2)
	case codeStr32, codeBin32:
		n, err = d.be(4)
	default:
		return 0, fmt.Errorf("msgpack: invalid code=%x decoding string/bytes length", c)
	}
	return int64(n), err
}

// DecodeArrayLen reads an array header: its length, -1 for nil.
func (d decoder) DecodeArrayLen() (int, error) {
	c, err := d.r.ReadByte()
	if err != nil {
		return 0, err
	}
	n, err := d.arrayLen(c)
	return int(n), err
}

func (d decoder) arrayLen(c byte) (int64, error) {
	if c == codeNil {
		return -1, nil
	}
	if c >= codeFixArray && c <= codeFixArrMax {
		return int64(c & fixArrayMask), nil
	}
	var n uint64
	var err error
	switch c {
	case codeArray16:
		n, err = d.be(2)
	case codeArray32:
		n, err = d.be(4)
	default:
		return 0, fmt.Errorf("msgpack: invalid code=%x decoding array length", c)
	}
	return int64(n), err
}

// DecodeMapLen reads a map header: its length, -1 for nil.
func (d decoder) DecodeMapLen() (int, error) {
	c, err := d.r.ReadByte()
	if err != nil {
		return 0, err
	}
	n, err := d.mapLen(c)
	return int(n), err
}

func (d decoder) mapLen(c byte) (int64, error) {
	if c == codeNil {
		return -1, nil
	}
	if c >= codeFixMap && c <= codeFixMapMax {
		return int64(c & fixMapMask), nil
	}
	var n uint64
	var err error
	switch c {
	case codeMap16:
		n, err = d.be(2)
	case codeMap32:
		n, err = d.be(4)
	default:
		return 0, fmt.Errorf("msgpack: unexpected code=%x decoding map length", c)
	}
	return int64(n), err
}

// Skip passes over one scalar: the codec skips arrays, maps, strings and
// bins itself (counting what they claim against what is left) and
// refuses extensions, so those never come here.
func (d decoder) Skip() error {
	c, err := d.r.ReadByte()
	if err != nil {
		return err
	}
	n := 0
	switch {
	case isFixedNum(c), c == codeNil, c == codeFalse, c == codeTrue:
	case c == codeUint8, c == codeInt8:
		n = 1
	case c == codeUint16, c == codeInt16:
		n = 2
	case c == codeUint32, c == codeInt32, c == codeFloat:
		n = 4
	case c == codeUint64, c == codeInt64, c == codeDouble:
		n = 8
	default:
		return fmt.Errorf("msgpack: unknown code %x", c)
	}
	if n > d.r.Len() {
		d.r.Seek(0, io.SeekEnd)
		return io.ErrUnexpectedEOF
	}
	d.r.Seek(int64(n), io.SeekCurrent)
	return nil
}
