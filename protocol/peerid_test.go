package protocol

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
)

// secp256k1ID is a peer ID that holds a key, but not an ed25519 one: the
// identity multihash of a protobuf PublicKey{Type: Secp256k1, Data: 33 bytes}.
func secp256k1ID(t testing.TB) PeerID {
	t.Helper()
	key := append([]byte{0x02}, bytes.Repeat([]byte{0x5e}, 32)...)
	return PeerID(append([]byte{0x00, 0x25, 0x08, 0x02, 0x12, 0x21}, key...))
}

// Bitcoin's base58 vectors (bitcoin/src/test/data/base58_encode_decode.json).
func TestBase58Vectors(t *testing.T) {
	for _, c := range []struct{ hex, text string }{
		{"61", "2g"},
		{"626262", "a3gV"},
		{"636363", "aPEr"},
		{"73696d706c792061206c6f6e6720737472696e67", "2cFupjhnEsSn59qHXstmK2ffpLv2"},
		{"00eb15231dfceb60925886b67d065299925915aeb172c06647", "1NS17iag9jJgTHD1VXjvLCEnZuQ3rJDE9L"},
		{"516b6fcd0f", "ABnLTmg"},
		{"bf4f89001e670274dd", "3SEo3LWLoPntC"},
		{"572e4794", "3EFU7m"},
		{"ecac89cad93923c02321", "EJDM8drfXA6uyA"},
		{"10c8511e", "Rt5zm"},
		{"00000000000000000000", "1111111111"},
		{"000111d38e5fc9071ffcd20b4a763cc9ae4f252bb4e48fd66a835e252ada93ff480d6dd43dc62a641155a5", "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"},
	} {
		b, _ := hex.DecodeString(c.hex)
		if got := base58Encode(b); got != c.text {
			t.Errorf("encode %s = %s, want %s", c.hex, got, c.text)
		}
		if got, err := base58Decode(c.text); err != nil || !bytes.Equal(got, b) {
			t.Errorf("decode %s = %x, %v, want %s", c.text, got, err, c.hex)
		}
	}
	for _, bad := range []string{"", "0", "O", "I", "l", "2g+", "2g ", "é", strings.Repeat("2", maxBase58+1)} {
		if b, err := base58Decode(bad); err == nil {
			t.Errorf("decode %q = %x, want an error", bad, b)
		}
	}
}

// The fixed test key's ID is the one libp2p printed for it (golden.txt's
// header says so too), and it goes there and back.
func TestPeerIDOfTestKey(t *testing.T) {
	const want = "12D3KooWEiW4cct8LU8akzZNWT541RdWroZEttm29vbsU1M19ggy"
	if aliceID.String() != want {
		t.Fatalf("alice is %s, want %s", aliceID, want)
	}
	if id, err := ParsePeerID(want); err != nil || id != aliceID {
		t.Errorf("ParsePeerID = %x, %v", string(id), err)
	}
	pub, err := aliceID.PublicKey()
	if err != nil || !pub.Equal(alice.Public()) {
		t.Errorf("PublicKey = %x, %v", pub, err)
	}
	if id, err := NewPeerID(pub); err != nil || id != aliceID {
		t.Errorf("NewPeerID = %s, %v", id, err)
	}
}

func TestPeerIDRefusals(t *testing.T) {
	ed := string(aliceID)
	for _, c := range []struct {
		name string
		id   PeerID
		want error // from PublicKey
	}{
		{"empty", "", ErrPeerID},
		{"one byte", "\x00", ErrPeerID},
		{"digest shorter than said", PeerID(ed[:len(ed)-1]), ErrPeerID},
		{"digest longer than said", PeerID(ed + "\x00"), ErrPeerID},
		{"length varint padded", PeerID("\x00\xa4\x00" + ed[2:]), ErrPeerID},
		{"code varint runs off the end", "\x80\x80", ErrPeerID},
		{"code varint of ten bytes", PeerID(strings.Repeat("\xff", 9) + "\x01\x00"), ErrPeerID},
		{"a sha2-256 hash: no key inside", PeerID("\x12\x20" + strings.Repeat("\x07", 32)), ErrPeerID},
		{"a secp256k1 key", secp256k1ID(t), ErrKey},
		{"an ed25519 key of 31 bytes", PeerID("\x00\x23\x08\x01\x12\x1f" + ed[6:len(ed)-1]), ErrKey},
		{"fields in another order", PeerID("\x00\x24\x12\x20" + ed[6:] + "\x08\x01"), ErrKey},
	} {
		if pub, err := c.id.PublicKey(); !errors.Is(err, c.want) {
			t.Errorf("%s: PublicKey = %x, %v, want %v", c.name, pub, err, c.want)
		}
		// Only well-formed multihashes are IDs at all.
		_, err := peerIDFromBytes([]byte(c.id))
		if wellFormed := c.want != ErrPeerID || strings.Contains(c.name, "no key"); wellFormed != (err == nil) {
			t.Errorf("%s: peerIDFromBytes: %v", c.name, err)
		}
	}
	for _, s := range []string{"", "Qm", "12D3KooW", "12D3KooWEiW4cct8LU8akzZNWT541RdWroZEttm29vbsU1M19ggyy", "bafzaajaiaejcaxykbmjfvz3rvqfj7ziw4imrhgr4qctfrbe4kf7h7yzqvtqeieog", "12D3KooWEiW4cct8LU8akzZNWT541RdWroZEttm29vbsU1M19gg0"} {
		if id, err := ParsePeerID(s); !errors.Is(err, ErrPeerID) {
			t.Errorf("ParsePeerID(%q) = %x, %v", s, string(id), err)
		}
	}
	if _, err := NewPeerID(make(ed25519.PublicKey, 31)); !errors.Is(err, ErrKey) {
		t.Errorf("NewPeerID of 31 bytes: %v", err)
	}
}

// Text goes there and back for any well-formed ID.
func FuzzParsePeerID(f *testing.F) {
	f.Add(aliceID.String())
	f.Add(bobID.String())
	f.Add("QmYyQSo1c1Ym7orWxLYvCrM2EmxFTANf8wXmmE7DWjhx5N")
	f.Add("1")
	f.Fuzz(func(t *testing.T, s string) {
		id, err := ParsePeerID(s)
		if err != nil {
			return
		}
		again, err := ParsePeerID(id.String())
		if err != nil || again != id {
			t.Fatalf("%q → %x → %q → %x, %v", s, string(id), id.String(), string(again), err)
		}
		_, _ = id.PublicKey()
	})
}
