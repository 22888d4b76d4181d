package protocol

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
)

// FuzzDecode: no input panics, every refusal is a *DecodeError, and what
// decodes re-encodes to bytes that decode to the same value (and re-encode
// to the same bytes).
func FuzzDecode(f *testing.F) {
	for _, s := range samples() {
		b, _ := Encode(s.msg)
		f.Add(uint8(s.msg.Type()), b)
		f.Add(uint8(s.msg.Type()), b[:len(b)/2])
	}
	f.Add(uint8(TypePlay), []byte{0x96, 0x29, 0x02, 0xc4, 0x01, 0x00, 0x02, 0xff, 0x91, 0x91, 0xc0})
	f.Add(uint8(TypeLobby), []byte{0x93, 0x9a, 0xa0, 0xa0, 0xdf, 0x7f, 0xff, 0xff, 0xff})
	// Length headers that claim more than the body holds, or more values
	// than it may make (TestDecodeAllocBound): issue 21's State.
	f.Add(uint8(TypeState), stateFrame(512, 500, false))
	f.Add(uint8(TypeState), stateFrame(512, 40, true))
	f.Add(uint8(TypeAudit), []byte{0x96, 0x00, 0xc0, 0xdc, 0x01, 0x00, 0x92, 0x00, 0xc0})
	// The deck's (2.1): negative party and play numbers, which decode;
	// a field of the wrong type each; deals of nil and of empty shares,
	// the densest [][]byte frames.
	for _, c := range negativeBodies(f) {
		f.Add(uint8(c.typ), c.body)
	}
	for _, s := range deckSamples() {
		f.Add(uint8(s.msg.Type()), spoiled(f, s.msg, reflect.TypeOf(s.msg).NumField()-1, "x"))
	}
	f.Add(uint8(TypeDeckDeal), dealFrame(600, false))
	f.Add(uint8(TypeDeckDeal), dealFrame(600, true))
	f.Fuzz(func(t *testing.T, typ uint8, body []byte) {
		m, err := Decode(Type(typ), body)
		if err != nil {
			var de *DecodeError
			if !errors.As(err, &de) || m != nil {
				t.Fatalf("Decode = %#v, %T %v", m, err, err)
			}
			return
		}
		again, err := Encode(m)
		if err != nil {
			t.Fatalf("%#v decoded but does not encode: %v", m, err)
		}
		m2, err := Decode(Type(typ), again)
		if err != nil {
			t.Fatalf("%#v re-encoded as %x, which does not decode: %v", m, again, err)
		}
		if !reflect.DeepEqual(m, m2) {
			t.Fatalf("decoded %#v, then %#v", m, m2)
		}
		if third, _ := Encode(m2); !bytes.Equal(again, third) {
			t.Fatalf("encodings differ: %x, %x", again, third)
		}
	})
}

var openErrors = []error{ErrTooBig, ErrMalformed, ErrUnknownType, ErrVersion, ErrMissingField, ErrSignature, ErrSender, ErrKey}

// FuzzOpen: no envelope panics, every refusal is one of ours, and what
// opens was signed by alice (the fuzzer has no key): sealing its contents
// again opens to the same thing.
func FuzzOpen(f *testing.F) {
	for _, data := range goldenEnvelopes(f) {
		f.Add(data)
		f.Add(data[:len(data)-1])
		f.Add(flip(data, len(data)/2))
	}
	f.Add([]byte{0x92, 0x92, 0xcd, 0x02, 0x00, 0xc0, 0xc0})
	f.Fuzz(func(t *testing.T, data []byte) {
		env, err := Open(data, aliceID)
		if err != nil {
			known := false
			for _, e := range openErrors {
				known = known || errors.Is(err, e)
			}
			if !known {
				t.Fatalf("untyped error %T %v", err, err)
			}
			if env != nil && (env.Msg != nil || env.Sender != aliceID) {
				t.Fatalf("envelope %+v with %v", env, err)
			}
			return
		}
		if env.Sender != aliceID || env.Msg == nil {
			t.Fatalf("opened %+v", env)
		}
		resealed, err := Seal(alice, env.Table, env.Term, env.Seq, env.Msg)
		if err != nil {
			t.Fatal(err)
		}
		env2, err := Open(resealed, aliceID)
		if err != nil {
			t.Fatal(err)
		}
		env2.Version = env.Version
		if !reflect.DeepEqual(env, env2) {
			t.Fatalf("opened %+v, resealed %+v", env, env2)
		}
	})
}

// FuzzParse: the envelope layer alone, without signatures in the way: what
// parses rebuilds to bytes that parse the same.
func FuzzParse(f *testing.F) {
	for _, data := range goldenEnvelopes(f) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fr, signed, sig, err := parse(data)
		if err != nil {
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("untyped error %T %v", err, err)
			}
			return
		}
		if !bytes.Contains(data, signed) || len(sig) != sigSize {
			t.Fatalf("signed %x, sig %x", signed, sig)
		}
		var buf bytes.Buffer
		buf.WriteByte(0x92)
		fr.encode(&buf)
		buf.Write([]byte{0xc4, sigSize})
		buf.Write(sig)
		fr2, _, sig2, err := parse(buf.Bytes())
		if err != nil {
			t.Fatalf("rebuilt %x: %v", buf.Bytes(), err)
		}
		if !reflect.DeepEqual(fr, fr2) || !bytes.Equal(sig, sig2) {
			t.Fatalf("parsed %+v, rebuilt %+v", fr, fr2)
		}
	})
}
