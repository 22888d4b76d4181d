package protocol

import (
	"bufio"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/vmihailenco/msgpack/v5"
)

// frozenFile holds envelopes a 1.1 peer sealed while protocol still took
// libp2p keys and peer IDs. Unlike golden.txt it is never rewritten: it is
// what a peer on that release sends, byte for byte, and what 2.0 must
// refuse cleanly.
const frozenFile = "testdata/frozen-1.1.txt"

func frozenEnvelopes(t testing.TB) (names []string, env map[string][]byte) {
	f, err := os.Open(frozenFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	env = map[string][]byte{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		name, h, ok := strings.Cut(sc.Text(), " ")
		if !ok || name == "#" {
			continue
		}
		b, err := hex.DecodeString(h)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		names = append(names, name)
		env[name] = b
	}
	if len(names) == 0 {
		t.Fatalf("%s holds no envelopes", frozenFile)
	}
	return names, env
}

// frozenFrame unpacks a 1.x envelope by hand, as a 1.x peer reads it:
// its type, its body, the signed inner array and the signature.
func frozenFrame(t testing.TB, b []byte) (typ Type, body, signed, sig []byte) {
	t.Helper()
	var outer []msgpack.RawMessage
	if err := msgpack.Unmarshal(b, &outer); err != nil || len(outer) != 2 {
		t.Fatalf("not an envelope: %v", err)
	}
	var inner struct {
		_       struct{} `msgpack:",as_array"`
		Version uint16
		Sender  []byte
		Table   []byte
		Term    uint64
		Seq     uint64
		Type    uint8
		Body    []byte
	}
	if err := msgpack.Unmarshal(outer[0], &inner); err != nil {
		t.Fatalf("not an envelope's frame: %v", err)
	}
	if err := msgpack.Unmarshal(outer[1], &sig); err != nil {
		t.Fatal(err)
	}
	return Type(inner.Type), inner.Body, outer[0], sig
}

// A 1.x peer's envelopes are refused, never half read: ErrVersion, with
// the version it speaks and the sequence number to answer it by; and its
// bodies, decoded as 2.0's, are refused as malformed or decode, but never
// panic (1.x sent the rules as a map; 2.0 has none).
func TestFrozenEnvelopesRefusedAsOtherMajor(t *testing.T) {
	names, env := frozenEnvelopes(t)
	for i, name := range names {
		e, err := Open(env[name], aliceID)
		var ve *VersionError
		if !errors.Is(err, ErrVersion) || !errors.As(err, &ve) || e != nil {
			t.Errorf("%s: opened %+v, %v; want a version error", name, e, err)
			continue
		}
		if ve.Peer != MakeVersion(1, 1) || ve.Seq != uint64(i+1) {
			t.Errorf("%s: %+v, want 1.1 and sequence number %d", name, ve, i+1)
		}
		typ, body, _, _ := frozenFrame(t, env[name])
		if typ.Known() {
			_, _ = Decode(typ, body)
		}
	}
	for _, name := range []string{"hello", "lobby"} {
		typ, body, _, _ := frozenFrame(t, env[name])
		var de *DecodeError
		if _, err := Decode(typ, body); !errors.As(err, &de) {
			t.Errorf("a 1.1 %s decoded at 2.0: %v", name, err)
		}
	}
}

// A 1.9 lobby, the last 1.x's, decoded as 2.0's is refused at its
// rules: a map of strings where 2.0 has a struct.
func TestLobby19Refused(t *testing.T) {
	settings19 := []any{"Kitchen", "standard", map[string]string{"window": "6", "sneak": "0"}, 3, nil, 0, 0, 1500, 0, false,
		6000, 30000, "brisk"}
	lobby19 := mp(t, []any{settings19, []any{}, false, "waiting", "ada", 1, make([]byte, 32), nil, nil, nil, false})
	_, err := Decode(TypeLobby, lobby19)
	var de *DecodeError
	if !errors.Is(err, ErrMalformed) || !errors.As(err, &de) || de.Field != "Settings.Rules" {
		t.Fatalf("a 1.9 lobby decoded at 2.0: %v", err)
	}
}

// A 2.0 host answers a 1.x joiner in an envelope that says 1.x, which the
// joiner opens: the frame and the Refusal are laid out as 1.x's, and the
// signature is the sender's over them.
func TestSealRefusalForOtherMajor(t *testing.T) {
	s, err := NewSigner(alice, 7)
	if err != nil {
		t.Fatal(err)
	}
	old := MakeVersion(1, 9)
	ref := Refusal{Code: CodeVersion, Message: VersionRefusal(old), Ref: 3}
	b, seq, err := s.SealRefusal(old, testTable, 1, ref)
	if err != nil || seq != 7 {
		t.Fatal(seq, err)
	}
	_, err = Open(b, aliceID)
	var ve *VersionError
	if !errors.As(err, &ve) || ve.Peer != old || ve.Seq != 7 {
		t.Fatalf("opened at 2.0: %v", err)
	}
	typ, body, signed, sig := frozenFrame(t, b)
	if !ed25519.Verify(alice.Public().(ed25519.PublicKey), append([]byte(domain), signed...), sig) {
		t.Error("the signature is not alice's over the frame")
	}
	var fields []any
	if err := msgpack.Unmarshal(body, &fields); err != nil || typ != TypeRefusal || len(fields) != 3 ||
		fields[0] != CodeVersion || fields[1] != "This table needs bullshit 2.0 or newer." {
		t.Fatalf("a 1.x peer reads %s %v (%v)", typ, fields, err)
	}
}
