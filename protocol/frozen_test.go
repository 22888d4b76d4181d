package protocol

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/vmihailenco/msgpack/v5"
)

// Frozen envelopes: what a peer on an older release sends, byte for byte.
// Unlike golden.txt they are never rewritten.
const (
	// frozenFile holds envelopes a 1.1 peer sealed while protocol still
	// took libp2p keys and peer IDs, which 2.x must refuse cleanly.
	frozenFile = "testdata/frozen-1.1.txt"
	// frozen20File is golden.txt as 2.0 left it: every 2.x after it
	// must open it as 2.0 sent it.
	frozen20File = "testdata/frozen-2.0.txt"
	// frozen21File is golden.txt as 2.1 left it.
	frozen21File = "testdata/frozen-2.1.txt"
)

func frozenEnvelopes(t testing.TB) (names []string, env map[string][]byte) {
	return frozenEnvelopesOf(t, frozenFile)
}

func frozenEnvelopesOf(t testing.TB, file string) (names []string, env map[string][]byte) {
	f, err := os.Open(file)
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
		t.Fatalf("%s holds no envelopes", file)
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
// bodies, decoded as 2.x's, are refused as malformed or decode, but never
// panic (1.x sent the rules as a map; 2.x has none).
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
			t.Errorf("a 1.1 %s decoded at %s: %v", name, Current, err)
		}
	}
}

// A 1.9 lobby, the last 1.x's, decoded as 2.x's is refused at its
// rules: a map of strings where 2.x has a struct.
func TestLobby19Refused(t *testing.T) {
	settings19 := []any{"Kitchen", "standard", map[string]string{"window": "6", "sneak": "0"}, 3, nil, 0, 0, 1500, 0, false,
		6000, 30000, "brisk"}
	lobby19 := mp(t, []any{settings19, []any{}, false, "waiting", "ada", 1, make([]byte, 32), nil, nil, nil, false})
	_, err := Decode(TypeLobby, lobby19)
	var de *DecodeError
	if !errors.Is(err, ErrMalformed) || !errors.As(err, &de) || de.Field != "Settings.Rules" {
		t.Fatalf("a 1.9 lobby decoded at %s: %v", Current, err)
	}
}

// A 2.x host answers a 1.x joiner in an envelope that says 1.x, which the
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
		t.Fatalf("opened at %s: %v", Current, err)
	}
	typ, body, signed, sig := frozenFrame(t, b)
	if !ed25519.Verify(alice.Public().(ed25519.PublicKey), append([]byte(domain), signed...), sig) {
		t.Error("the signature is not alice's over the frame")
	}
	var fields []any
	if err := msgpack.Unmarshal(body, &fields); err != nil || typ != TypeRefusal || len(fields) != 3 ||
		fields[0] != CodeVersion || fields[1] != "This table needs bullshit "+Current.String()+" or newer." {
		t.Fatalf("a 1.x peer reads %s %v (%v)", typ, fields, err)
	}
}

// The envelopes each older minor of 2.x sent still open at Current, as
// that minor sent them: alice's signature checks, and each body decodes
// to a message that encodes back to the very bytes it sent, so nothing
// of it was lost or read otherwise. Each file holds every type its minor
// had.
func TestFrozen2xEnvelopesOpen(t *testing.T) {
	for _, c := range []struct {
		file  string
		minor uint8
		below Type // every type below it was in that minor
	}{
		{frozen20File, 0, TypeDeckKey},
		{frozen21File, 1, TypeBlindDeal},
	} {
		v := MakeVersion(2, c.minor)
		names, env := frozenEnvelopesOf(t, c.file)
		had := map[Type]bool{}
		for i, name := range names {
			e, err := Open(env[name], aliceID)
			if err != nil {
				t.Errorf("%s: a %s envelope refused at %s: %v", name, v, Current, err)
				continue
			}
			if e.Version != v || e.Seq != uint64(i+1) || e.Term != 3 || e.Table != testTable {
				t.Errorf("%s: opened %+v", name, e)
			}
			typ, body, _, _ := frozenFrame(t, env[name])
			had[typ] = true
			if again, err := Encode(e.Msg); err != nil || !bytes.Equal(again, body) {
				t.Errorf("%s: %s sent %x, %s re-encodes %x (%v)", name, v, body, Current, again, err)
			}
			if h, ok := e.Msg.(Hello); ok && h.Version != v {
				t.Errorf("%s: says %s, %s sent %s", name, h.Version, v, v)
			}
		}
		for _, typ := range Types() {
			if typ < c.below && !had[typ] {
				t.Errorf("%s holds no %s", c.file, typ)
			}
		}
	}
}

// The minor-version rule, run: a 2.0 peer is this package without the
// deck's types. It opens a 2.1 peer's envelopes of the types it knows,
// and refuses the deck's as unknown types while still opening the
// envelope (verified, with its sequence number and no message), so that
// its node refuses them by number instead of dropping the peer.
func TestDeckUnknownToA20Peer(t *testing.T) {
	all := samples()
	sealed := make([][]byte, len(all))
	for i, s := range all {
		sealed[i] = mustSeal(t, alice, uint64(i+1), s.msg)
	}
	saved := catalog
	defer func() { catalog = saved }()
	for typ := TypeDeckKey; typ <= TypeBlindMove; typ++ {
		catalog[typ] = nil
	}
	for i, s := range all {
		e, err := Open(sealed[i], aliceID)
		if s.msg.Type() < TypeDeckKey {
			if err != nil || !reflect.DeepEqual(e.Msg, s.msg) {
				t.Errorf("%s: a 2.0 peer opened %+v, %v", s.name, e, err)
			}
			continue
		}
		if !errors.Is(err, ErrUnknownType) || e == nil || e.Msg != nil || e.Seq != uint64(i+1) || e.Version != Current {
			t.Errorf("%s: a 2.0 peer opened %+v, %v; want the envelope and ErrUnknownType", s.name, e, err)
		}
	}
}
