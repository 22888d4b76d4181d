package protocol

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"sync"

	"github.com/vmihailenco/msgpack/v5"
	"github.com/vmihailenco/msgpack/v5/msgpcode"
)

// MaxSize is the most bytes a message may take on the wire, envelope
// included. Bigger is refused before anything is parsed.
const MaxSize = 64 << 10

// A decoder may allocate at most allocPerByte bytes of Go values for each
// byte of the body, plus allocSlack: what a frame can make its reader
// hold is a small multiple of what it cost the sender to send. Honest
// messages stay well under it (FuzzDecode's samples, TestDecodeAllocBound):
// the densest is a journal of bare steps, about 10 bytes of wire each for
// a 152-byte Step. A length header is checked against the bytes left,
// counting the least each item can take, before anything is allocated.
const (
	allocPerByte = 16
	allocSlack   = 4 << 10
)

// maxSkipDepth bounds the nesting of fields a decoder skips (fields from a
// newer minor version): nothing legitimate comes near it.
const maxSkipDepth = 32

// Encode returns the msgpack body of m. It fails only on a message that is
// not in the catalog or is bigger than MaxSize.
func Encode(m Message) ([]byte, error) {
	var buf bytes.Buffer
	if err := encodeBody(&buf, m); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Decode decodes a body of type t. Every failure is a *DecodeError.
func Decode(t Type, body []byte) (Message, error) {
	if len(body) > MaxSize {
		return nil, &DecodeError{Kind: ErrTooBig, Type: t, Err: fmt.Errorf("%d bytes", len(body))}
	}
	e := catalog[t]
	if e == nil {
		return nil, &DecodeError{Kind: ErrUnknownType, Type: t}
	}
	rd := getReader(body)
	defer putReader(rd)
	err := rd.charge(int(e.typ.Size()))
	v := reflect.New(e.typ).Elem()
	if err == nil {
		err = rd.decode(e.s, v)
	}
	if err == nil && rd.r.Len() != 0 {
		err = decodeErr(ErrMalformed, "", "%d trailing bytes", rd.r.Len())
	}
	if err != nil {
		de := err.(*DecodeError)
		de.Type = t
		return nil, de
	}
	return v.Interface().(Message), nil
}

func encodeBody(buf *bytes.Buffer, m Message) error {
	if m == nil {
		return fmt.Errorf("%w: nil message", ErrUnknownType)
	}
	v := reflect.ValueOf(m)
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return fmt.Errorf("%w: nil %T", ErrUnknownType, m)
		}
		v = v.Elem()
	}
	e := catalog[m.Type()]
	if e == nil || v.Type() != e.typ {
		return fmt.Errorf("%w: %T is not in the catalog", ErrUnknownType, m)
	}
	start := buf.Len()
	enc := msgpack.GetEncoder()
	enc.Reset(buf)
	err := e.s.encode(enc, v)
	msgpack.PutEncoder(enc)
	if err != nil {
		return err
	}
	if n := buf.Len() - start; n > MaxSize {
		return fmt.Errorf("%w: %s is %d bytes", ErrTooBig, e.name, n)
	}
	return nil
}

// A schema is a Go type compiled into what the codec needs to know about it.
// The codec handles exactly the kinds the catalog uses; compile panics on
// anything else, which is a bug in this package, found at init.
type schema struct {
	kind   kind
	typ    reflect.Type
	min    int64   // kInt
	max    uint64  // kInt, kUint
	n      int     // kFixed: length
	elem   *schema // kSlice, kPtr
	fields []field // kStruct
	need   int     // kStruct: fields that must be present
	least  int     // the fewest bytes a value of it takes on the wire
}

type field struct {
	index int
	name  string
	s     *schema
}

type kind uint8

const (
	kBool kind = iota
	kInt
	kUint
	kString
	kBytes // []byte as bin
	kFixed // [n]byte as bin of exactly n
	kPeer  // PeerID as bin, nil when empty
	kSlice
	kPtr
	kStruct
)

var peerIDType = reflect.TypeOf(PeerID(""))

func compile(t reflect.Type) *schema {
	s := &schema{typ: t}
	switch {
	case t == peerIDType:
		s.kind = kPeer
	case t.Kind() == reflect.Bool:
		s.kind = kBool
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Int64:
		s.kind = kInt
		s.min = math.MinInt64 >> (64 - t.Bits())
		s.max = math.MaxInt64 >> (64 - t.Bits())
	case t.Kind() >= reflect.Uint && t.Kind() <= reflect.Uint64:
		s.kind = kUint
		s.max = math.MaxUint64 >> (64 - t.Bits())
	case t.Kind() == reflect.String:
		s.kind = kString
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8:
		s.kind = kBytes
	case t.Kind() == reflect.Array && t.Elem().Kind() == reflect.Uint8:
		s.kind = kFixed
		s.n = t.Len()
	case t.Kind() == reflect.Slice:
		s.kind = kSlice
		s.elem = compile(t.Elem())
	case t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct:
		s.kind = kPtr
		s.elem = compile(t.Elem())
	case t.Kind() == reflect.Struct:
		s.kind = kStruct
		s.need = -1
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				panic("protocol: unexported field " + t.Name() + "." + f.Name)
			}
			switch f.Tag.Get("protocol") {
			case "optional":
				if s.need < 0 {
					s.need = len(s.fields)
				}
			case "":
				if s.need >= 0 {
					panic("protocol: required field after an optional one: " + t.Name() + "." + f.Name)
				}
			default:
				panic("protocol: bad tag on " + t.Name() + "." + f.Name)
			}
			s.fields = append(s.fields, field{index: i, name: f.Name, s: compile(f.Type)})
		}
		if s.need < 0 {
			s.need = len(s.fields)
		}
	default:
		panic("protocol: the codec does not handle " + t.String())
	}
	s.least = 1
	switch s.kind {
	case kFixed:
		s.least = 2 + s.n // a bin8 header and its bytes
	case kStruct:
		for _, f := range s.fields[:s.need] {
			s.least += f.s.least
		}
	}
	return s
}

func (s *schema) encode(e *msgpack.Encoder, v reflect.Value) error {
	switch s.kind {
	case kBool:
		return e.EncodeBool(v.Bool())
	case kInt:
		return e.EncodeInt(v.Int())
	case kUint:
		return e.EncodeUint(v.Uint())
	case kString:
		return e.EncodeString(v.String())
	case kBytes:
		return e.EncodeBytes(v.Bytes())
	case kFixed:
		b := make([]byte, s.n)
		reflect.Copy(reflect.ValueOf(b), v)
		return e.EncodeBytes(b)
	case kPeer:
		if v.Len() == 0 {
			return e.EncodeNil()
		}
		return e.EncodeBytes([]byte(v.String()))
	case kSlice:
		if v.IsNil() {
			return e.EncodeNil()
		}
		if err := e.EncodeArrayLen(v.Len()); err != nil {
			return err
		}
		for i := range v.Len() {
			if err := s.elem.encode(e, v.Index(i)); err != nil {
				return err
			}
		}
		return nil
	case kPtr:
		if v.IsNil() {
			return e.EncodeNil()
		}
		return s.elem.encode(e, v.Elem())
	case kStruct:
		// Optional fields at their zero value at the end are left out: a
		// message that uses none of a minor's additions is, byte for byte,
		// what the minor before it sent.
		n := len(s.fields)
		for n > s.need && v.Field(s.fields[n-1].index).IsZero() {
			n--
		}
		if err := e.EncodeArrayLen(n); err != nil {
			return err
		}
		for _, f := range s.fields[:n] {
			if err := f.s.encode(e, v.Field(f.index)); err != nil {
				return err
			}
		}
		return nil
	}
	panic("protocol: unreachable kind")
}

// reader decodes from bytes already in memory. It checks every length
// against the bytes left before allocating, so a lying header costs nothing.
type reader struct {
	in   []byte
	r    bytes.Reader
	d    *msgpack.Decoder
	left int // bytes of Go values it may still allocate (allocPerByte)
}

var readers = sync.Pool{New: func() any { return &reader{d: msgpack.NewDecoder(nil)} }}

func getReader(b []byte) *reader {
	rd := readers.Get().(*reader)
	rd.in = b
	rd.left = allocPerByte*len(b) + allocSlack
	rd.r.Reset(b)
	rd.d.Reset(&rd.r)
	return rd
}

func putReader(rd *reader) {
	rd.in = nil
	rd.r.Reset(nil)
	rd.d.Reset(nil)
	readers.Put(rd)
}

// charge takes n bytes of Go values from what the body may allocate.
func (rd *reader) charge(n int) error {
	if n < 0 || n > rd.left {
		return decodeErr(ErrMalformed, "", "%d bytes of values is more than a body of %d bytes may make", n, len(rd.in))
	}
	rd.left -= n
	return nil
}

// pos is how many bytes have been read.
func (rd *reader) pos() int { return len(rd.in) - rd.r.Len() }

// The msgpack families a code may belong to.

func isInt(c byte) bool {
	return msgpcode.IsFixedNum(c) || c >= msgpcode.Uint8 && c <= msgpcode.Int64
}

func isArray(c byte) bool {
	return msgpcode.IsFixedArray(c) || c == msgpcode.Array16 || c == msgpcode.Array32
}

func isMap(c byte) bool {
	return msgpcode.IsFixedMap(c) || c == msgpcode.Map16 || c == msgpcode.Map32
}

func isBin(c byte) bool { return msgpcode.IsBin(c) }
func isStr(c byte) bool { return msgpcode.IsString(c) }

func malformed(err error) *DecodeError {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return decodeErr(ErrMalformed, "", "truncated")
	}
	return &DecodeError{Kind: ErrMalformed, Err: err}
}

func wrongType(c byte, want string) *DecodeError {
	return decodeErr(ErrMalformed, "", "msgpack code 0x%02x where %s belongs", c, want)
}

// length reads a bin, str, array or map header and checks that its n items,
// each of at least per bytes, fit in what is left.
func (rd *reader) length(read func() (int, error), per int) (int, error) {
	n, err := read()
	if err != nil {
		return 0, malformed(err)
	}
	if n < 0 || n > rd.r.Len()/per {
		return 0, decodeErr(ErrMalformed, "", "length %d overruns the message", n)
	}
	return n, nil
}

func (rd *reader) raw(n int) ([]byte, error) {
	if err := rd.charge(n); err != nil {
		return nil, err
	}
	b := make([]byte, n)
	if err := rd.d.ReadFull(b); err != nil {
		return nil, malformed(err)
	}
	return b, nil
}

// peek returns the next msgpack code without reading it.
func (rd *reader) peek() (byte, error) {
	c, err := rd.d.PeekCode()
	if err != nil {
		return 0, malformed(err)
	}
	return c, nil
}

// integer reads any msgpack integer and checks it is in [lo, hi].
func (rd *reader) integer(lo int64, hi uint64) (neg int64, pos uint64, err error) {
	c, err := rd.peek()
	if err != nil {
		return 0, 0, err
	}
	if !isInt(c) {
		return 0, 0, wrongType(c, "an integer")
	}
	if c == msgpcode.Uint64 {
		pos, err = rd.d.DecodeUint64()
	} else {
		neg, err = rd.d.DecodeInt64()
		if neg >= 0 {
			pos, neg = uint64(neg), 0
		}
	}
	if err != nil {
		return 0, 0, malformed(err)
	}
	if neg < lo || pos > hi {
		return 0, 0, decodeErr(ErrMalformed, "", "integer out of range")
	}
	return neg, pos, nil
}

// decode reads one value of schema s into v: one case per kind, the
// longer ones in a decode… method each.
func (rd *reader) decode(s *schema, v reflect.Value) error {
	c, err := rd.peek()
	if err != nil {
		return err
	}
	switch s.kind {
	case kBool:
		if c != msgpcode.True && c != msgpcode.False {
			return wrongType(c, "a bool")
		}
		b, err := rd.d.DecodeBool()
		if err != nil {
			return malformed(err)
		}
		v.SetBool(b)
	case kInt:
		neg, pos, err := rd.integer(s.min, s.max)
		if err != nil {
			return err
		}
		v.SetInt(neg + int64(pos))
	case kUint:
		_, pos, err := rd.integer(0, s.max)
		if err != nil {
			return err
		}
		v.SetUint(pos)
	case kString:
		if !isStr(c) {
			return wrongType(c, "a string")
		}
		n, err := rd.length(rd.d.DecodeBytesLen, 1)
		if err != nil {
			return err
		}
		b, err := rd.raw(n)
		if err == nil {
			err = rd.charge(n) // the string's own copy
		}
		if err != nil {
			return err
		}
		v.SetString(string(b))
	case kBytes, kFixed, kPeer:
		return rd.decodeBytes(s, v, c)
	case kSlice:
		return rd.decodeSlice(s, v, c)
	case kPtr:
		if c == msgpcode.Nil {
			_ = rd.d.DecodeNil()
			v.SetZero()
			return nil
		}
		if err := rd.charge(int(s.typ.Elem().Size())); err != nil {
			return err
		}
		p := reflect.New(s.typ.Elem())
		if err := rd.decode(s.elem, p.Elem()); err != nil {
			return err
		}
		v.Set(p)
	case kStruct:
		return rd.decodeStruct(s, v, c)
	default:
		panic("protocol: unreachable kind")
	}
	return nil
}

// decodeBytes is bin into []byte, a fixed-size array or a peer ID; c is
// the peeked code.
func (rd *reader) decodeBytes(s *schema, v reflect.Value, c byte) error {
	if c == msgpcode.Nil && s.kind != kFixed {
		_ = rd.d.DecodeNil()
		v.SetZero()
		return nil
	}
	if !isBin(c) {
		return wrongType(c, "bytes")
	}
	n, err := rd.length(rd.d.DecodeBytesLen, 1)
	if err != nil {
		return err
	}
	if s.kind == kFixed && n != s.n {
		return decodeErr(ErrMalformed, "", "%d bytes where %d belong", n, s.n)
	}
	b, err := rd.raw(n)
	if err != nil {
		return err
	}
	switch s.kind {
	case kBytes:
		v.SetBytes(b)
	case kFixed:
		reflect.Copy(v, reflect.ValueOf(b))
	case kPeer:
		if n == 0 {
			v.SetZero()
			return nil
		}
		id, err := peerIDFromBytes(b)
		if err != nil {
			return &DecodeError{Kind: ErrMalformed, Err: err}
		}
		v.SetString(string(id))
	}
	return nil
}

// decodeSlice is an array, or nil, into a slice.
func (rd *reader) decodeSlice(s *schema, v reflect.Value, c byte) error {
	if c == msgpcode.Nil {
		_ = rd.d.DecodeNil()
		v.SetZero()
		return nil
	}
	if !isArray(c) {
		return wrongType(c, "an array")
	}
	n, err := rd.length(rd.d.DecodeArrayLen, s.elem.least)
	if err == nil {
		err = rd.charge(n * int(s.typ.Elem().Size()))
	}
	if err != nil {
		return err
	}
	sl := reflect.MakeSlice(s.typ, n, n)
	for i := range n {
		if err := rd.decode(s.elem, sl.Index(i)); err != nil {
			return within(err, "["+strconv.Itoa(i)+"]")
		}
	}
	v.Set(sl)
	return nil
}

// decodeStruct is an array of fields into a struct: fields it lacks
// past the needed ones stay zero, fields past the known ones are skipped.
func (rd *reader) decodeStruct(s *schema, v reflect.Value, c byte) error {
	if !isArray(c) {
		return wrongType(c, "an array of fields")
	}
	n, err := rd.length(rd.d.DecodeArrayLen, 1)
	if err != nil {
		return err
	}
	if n < s.need {
		return &DecodeError{Kind: ErrMissingField, Field: s.fields[n].name,
			Err: fmt.Errorf("%d of %d fields", n, s.need)}
	}
	for i, f := range s.fields {
		if i == n {
			break
		}
		if err := rd.decode(f.s, v.Field(f.index)); err != nil {
			return within(err, f.name)
		}
	}
	for range n - len(s.fields) {
		if err := rd.skip(0); err != nil {
			return err
		}
	}
	return nil
}

// within prefixes the field path of a decoding error with a field name or
// an index ("[3]").
func within(err error, name string) error {
	de := err.(*DecodeError)
	if de.Field != "" && de.Field[0] != '[' {
		name += "."
	}
	de.Field = name + de.Field
	return de
}

// skip passes over one value of any shape but ext, which nothing uses.
func (rd *reader) skip(depth int) error {
	if depth > maxSkipDepth {
		return decodeErr(ErrMalformed, "", "nested too deep")
	}
	c, err := rd.peek()
	if err != nil {
		return err
	}
	switch {
	case isArray(c) || isMap(c):
		read, per := rd.d.DecodeArrayLen, 1
		if isMap(c) {
			read, per = rd.d.DecodeMapLen, 2
		}
		n, err := rd.length(read, per)
		if err != nil {
			return err
		}
		for range n * per {
			if err := rd.skip(depth + 1); err != nil {
				return err
			}
		}
		return nil
	case isStr(c) || isBin(c):
		n, err := rd.length(rd.d.DecodeBytesLen, 1)
		if err != nil {
			return err
		}
		_, _ = rd.r.Seek(int64(n), io.SeekCurrent)
		return nil
	case msgpcode.IsExt(c):
		return wrongType(c, "a plain value")
	}
	if err := rd.d.Skip(); err != nil {
		return malformed(err)
	}
	return nil
}
