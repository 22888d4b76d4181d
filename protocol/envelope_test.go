package protocol

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"reflect"
	"sync"
	"testing"
)

func TestOpenWhatWasSealed(t *testing.T) {
	for i, s := range samples() {
		data := mustSeal(t, alice, uint64(i+1), s.msg)
		env, err := Open(data, aliceID)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		want := &Envelope{Version: Current, Sender: aliceID, Table: testTable, Term: 3, Seq: uint64(i + 1), Msg: s.msg}
		if !reflect.DeepEqual(env, want) {
			t.Errorf("%s: opened\n%#v\nwant\n%#v", s.name, env, want)
		}
		if env, err := OpenRelayed(data); err != nil || env.Sender != aliceID {
			t.Errorf("%s: OpenRelayed = %v, %v", s.name, env, err)
		}
	}
}

// The goal: a signed play fits in 200 bytes.
func TestPlayFitsIn200Bytes(t *testing.T) {
	data := mustSeal(t, alice, 1<<20, Play{No: 499, Seat: 9, Cards: []Card{0, 13, 26, 39}, Claim: 4, Rank: 12})
	if len(data) > 200 {
		t.Errorf("a signed play is %d bytes", len(data))
	}
	t.Logf("a signed play of 4 cards is %d bytes", len(data))
}

// flip returns a copy of data with one byte of what changed XORed.
func flip(data []byte, at int) []byte {
	b := append([]byte{}, data...)
	b[at] ^= 0x01
	return b
}

// replace replaces old, which must be in data, with new.
func replace(t *testing.T, data, old, new []byte) []byte {
	t.Helper()
	if !bytes.Contains(data, old) {
		t.Fatalf("%x not in %x", old, data)
	}
	return bytes.Replace(data, old, new, 1)
}

// offsetOf finds where the field parse returns as an alias sits in data.
func offsetOf(t *testing.T, data []byte, part func(f frame) []byte) int {
	t.Helper()
	f, _, _, err := parse(data)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(data, part(f))
	if i < 0 {
		t.Fatal("field not found")
	}
	return i
}

func TestOpenRefusals(t *testing.T) {
	play := sampleOf(t, TypePlay)
	data := mustSeal(t, alice, 7, play)
	body, _ := Encode(play)
	good := frame{Current, aliceID, testTable, 3, 7, TypePlay, body}
	sealed := func(key ed25519.PrivateKey, change func(f *frame)) []byte {
		f := good
		change(&f)
		b, err := sealFrame(key, f)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	bodyAt := offsetOf(t, data, func(f frame) []byte { return f.body })
	sigAt := len(data) - sigSize
	_, signed, _, _ := parse(data)
	bobSig := ed25519.Sign(bob, append([]byte(domain), signed...)) // the very bytes, by bob
	withBobSig := append(append([]byte{}, data[:sigAt]...), bobSig...)
	noKeyID := PeerID(append([]byte{0x12, 0x20}, make([]byte, 32)...)) // a sha2-256 peer ID: no key inside
	secpID := secp256k1ID(t)

	for _, c := range []struct {
		name string
		data []byte
		from PeerID
		want error
		env  bool // the envelope verified, only its body did not decode
	}{
		// Signatures: made by someone else, or over other bytes.
		{"forged: bob signs as alice", sealed(bob, func(f *frame) {}), aliceID, ErrSignature, false},
		{"forged: bob's signature on alice's envelope", withBobSig, aliceID, ErrSignature, false},
		{"forged: zero signature", append(append([]byte{}, data[:sigAt]...), make([]byte, sigSize)...), aliceID, ErrSignature, false},
		{"signature bit flipped", flip(data, sigAt+10), aliceID, ErrSignature, false},
		{"body changed after signing", flip(data, bodyAt+1), aliceID, ErrSignature, false},
		{"term changed after signing", replace(t, data, []byte{0x02, 0x03, 0x03, 0x07}, []byte{0x02, 0x03, 0x04, 0x07}), aliceID, ErrSignature, false},
		{"seq changed after signing", replace(t, data, []byte{0x02, 0x03, 0x03, 0x07}, []byte{0x02, 0x03, 0x03, 0x08}), aliceID, ErrSignature, false},
		{"table changed after signing", replace(t, data, testTable[:], []byte("table!!!")), aliceID, ErrSignature, false},
		{"sender has no key inside", sealed(alice, func(f *frame) { f.sender = noKeyID }), noKeyID, ErrSignature, false},
		{"sender key not ed25519", sealed(alice, func(f *frame) { f.sender = secpID }), secpID, ErrKey, false},
		// Sender: the envelope must come from the stream's remote peer.
		{"wrong sender", data, bobID, ErrSender, false},
		{"bob's envelope on alice's stream", mustSeal(t, bob, 1, play), aliceID, ErrSender, false},
		// Versions: another major is refused before the rest is read.
		{"newer major", sealed(alice, func(f *frame) { f.version = MakeVersion(3, 0) }), aliceID, ErrVersion, false},
		{"older major", sealed(alice, func(f *frame) { f.version = MakeVersion(0, 9) }), aliceID, ErrVersion, false},
		{"newer major, other layout", []byte{0x92, 0x92, 0xcd, 0x03, 0x00, 0xa3, 'n', 'e', 'w', 0xc0}, aliceID, ErrVersion, false},
		// Size.
		{"oversize", append(append([]byte{}, data...), make([]byte, MaxSize)...), aliceID, ErrTooBig, false},
		// Bodies that do not decode, in envelopes that verify.
		{"unknown type", sealed(alice, func(f *frame) { f.typ = 200 }), aliceID, ErrUnknownType, true},
		{"missing field in the body", sealed(alice, func(f *frame) { f.body = mp(t, []any{41, 2, []byte{1}}) }), aliceID, ErrMissingField, true},
		// Envelope shapes.
		{"missing field in the envelope", []byte{0x92, 0x93, 0xcd, 0x02, 0x00, 0xc4, 0x00, 0xc4, 0x00, 0xc4, 0x00}, aliceID, ErrMissingField, false},
		{"empty", nil, aliceID, ErrMalformed, false},
		{"not an envelope", mp(t, "hello"), aliceID, ErrMalformed, false},
		{"three parts", append([]byte{0x93}, append(data[1:], 0xc0)...), aliceID, ErrMalformed, false},
		{"truncated", data[:len(data)-1], aliceID, ErrMalformed, false},
		{"trailing byte", append(append([]byte{}, data...), 0), aliceID, ErrMalformed, false},
		{"short signature", append(append([]byte{}, data[:sigAt-1]...), append([]byte{sigSize - 1}, data[sigAt:len(data)-1]...)...), aliceID, ErrMalformed, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			env, err := Open(c.data, c.from)
			if !errors.Is(err, c.want) {
				t.Fatalf("Open = %v, want %v", err, c.want)
			}
			if (env != nil) != c.env {
				t.Errorf("envelope %+v returned with %v", env, err)
			}
			if env != nil && (env.Msg != nil || env.Sender != aliceID || env.Seq != 7) {
				t.Errorf("envelope %+v", env)
			}
		})
	}
}

// The inner array may grow in a newer minor version; the signature covers
// what was sent, including fields this version skips.
func TestOpenSkipsEnvelopeFieldsFromANewerMinor(t *testing.T) {
	play := sampleOf(t, TypePlay)
	data := mustSeal(t, alice, 7, play)
	f, signed, _, err := parse(data)
	if err != nil {
		t.Fatal(err)
	}
	// One more field in the inner array: fixarray 7 → 8, then append a
	// string, then sign it all again.
	inner := append([]byte{signed[0] + 1}, signed[1:]...)
	inner = append(inner, mp(t, "later")...)
	sig := ed25519.Sign(alice, append([]byte(domain), inner...))
	newer := append(append(append([]byte{0x92}, inner...), 0xc4, sigSize), sig...)
	env, err := Open(newer, aliceID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(env.Msg, play) || env.Seq != f.seq {
		t.Errorf("opened %+v", env)
	}
	// And that string is signed: change it and the envelope fails.
	if _, err := Open(bytes.Replace(newer, []byte("later"), []byte("LATER"), 1), aliceID); !errors.Is(err, ErrSignature) {
		t.Errorf("changed skipped field: %v", err)
	}
}

func TestSealRefusals(t *testing.T) {
	short := alice[:ed25519.SeedSize] // a seed is not a key
	if _, err := Seal(short, testTable, 1, 1, Call{}); !errors.Is(err, ErrKey) {
		t.Errorf("seed for a key: %v", err)
	}
	if _, err := NewSigner(short, 1); !errors.Is(err, ErrKey) {
		t.Errorf("seed for a signer's key: %v", err)
	}
	if _, err := Seal(alice, testTable, 1, 1, State{Shares: []StepShare{{Y: make([]byte, MaxSize-100)}}}); !errors.Is(err, ErrTooBig) {
		t.Errorf("oversize: %v", err)
	}
	// Just under the limit is fine.
	data, err := Seal(alice, testTable, 1, 1, State{Shares: []StepShare{{Y: make([]byte, MaxSize-200)}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Open(data, aliceID); err != nil {
		t.Errorf("%d bytes: %v", len(data), err)
	}
}

func TestSignerNumbersEveryEnvelopeOnce(t *testing.T) {
	s, err := NewSigner(alice, 100)
	if err != nil {
		t.Fatal(err)
	}
	if s.ID() != aliceID {
		t.Fatalf("ID %s, want %s", s.ID(), aliceID)
	}
	const workers, each = 4, 50
	var mu sync.Mutex
	seen := map[uint64]bool{}
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for range each {
				data, seq, err := s.Seal(testTable, 1, Pass{No: 1, Seat: 1})
				if err != nil {
					t.Error(err)
					return
				}
				env, err := Open(data, aliceID)
				if err != nil || env.Seq != seq {
					t.Errorf("seq %d opened as %+v, %v", seq, env, err)
					return
				}
				mu.Lock()
				seen[seq] = true
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	for seq := uint64(100); seq < 100+workers*each; seq++ {
		if !seen[seq] {
			t.Errorf("seq %d never used", seq)
		}
	}
	if len(seen) != workers*each {
		t.Errorf("%d numbers for %d envelopes", len(seen), workers*each)
	}
}
