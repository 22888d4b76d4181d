package protocol

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"math"
	"strings"
)

// PeerID names a peer. It holds exactly the bytes libp2p uses for a peer
// ID, a multihash, so the node converts one to libp2p's peer.ID and back
// with a plain string conversion and the wire carries the same bytes as it
// always has. A bullshit peer's ID is the identity multihash of its
// ed25519 public key in libp2p's protobuf form:
//
//	0x00 0x24 | 0x08 0x01 0x12 0x20 | 32 key bytes
//
// so the ID alone is enough to check the peer's signatures. The zero value
// is no peer (a bot's seat, say).
//
// protocol keeps its own type rather than libp2p's so that it compiles
// without libp2p (to WebAssembly, small).
type PeerID string

// edPrefix is an identity multihash of 36 bytes (0x00 0x24) holding a
// protobuf PublicKey{Type: Ed25519 (0x08 0x01), Data: 32 bytes (0x12 0x20)}.
const edPrefix = "\x00\x24\x08\x01\x12\x20"

// ErrPeerID says a peer ID is not one, or (from PublicKey) holds no ed25519
// key.
var ErrPeerID = errors.New("protocol: bad peer ID")

// NewPeerID returns the ID of the peer whose key is pub, the same ID libp2p
// gives that key.
func NewPeerID(pub ed25519.PublicKey) (PeerID, error) {
	if len(pub) != ed25519.PublicKeySize {
		return "", fmt.Errorf("%w: ed25519 public key of %d bytes", ErrKey, len(pub))
	}
	return PeerID(edPrefix + string(pub)), nil
}

// PeerIDOf is the ID of the peer whose private key is key.
func PeerIDOf(key ed25519.PrivateKey) (PeerID, error) {
	if len(key) != ed25519.PrivateKeySize {
		return "", fmt.Errorf("%w: ed25519 private key of %d bytes", ErrKey, len(key))
	}
	return NewPeerID(key.Public().(ed25519.PublicKey))
}

// PublicKey is the ed25519 key inside id. It refuses an ID that holds no key
// (a hash of one: ErrPeerID) and one that holds a key of another kind, RSA or
// secp256k1 say (ErrKey); a bullshit peer always has an ed25519 key.
func (id PeerID) PublicKey() (ed25519.PublicKey, error) {
	code, _, err := multihash(id)
	switch {
	case err != nil:
		return nil, err
	case code != 0:
		return nil, fmt.Errorf("%w: %s holds a hash (multihash code %#x), not a key", ErrPeerID, id, code)
	case len(id) != len(edPrefix)+ed25519.PublicKeySize || !strings.HasPrefix(string(id), edPrefix):
		return nil, fmt.Errorf("%w: %s does not hold an ed25519 key", ErrKey, id)
	}
	return ed25519.PublicKey(id[len(edPrefix):]), nil
}

// String is the ID as libp2p prints it: base58btc of its bytes ("12D3KooW…"
// for an ed25519 key).
func (id PeerID) String() string { return base58Encode([]byte(id)) }

// ParsePeerID reads an ID written by String. It takes the base58btc form
// only, the one libp2p prints, not the CID forms libp2p also reads.
func ParsePeerID(s string) (PeerID, error) {
	b, err := base58Decode(s)
	if err != nil {
		return "", fmt.Errorf("%w: %q: %v", ErrPeerID, s, err)
	}
	return peerIDFromBytes(b)
}

// peerIDFromBytes takes b as an ID if it is a well-formed multihash, as
// libp2p's peer.IDFromBytes does; which keys it may hold is PublicKey's
// business.
func peerIDFromBytes(b []byte) (PeerID, error) {
	id := PeerID(b)
	if _, _, err := multihash(id); err != nil {
		return "", err
	}
	return id, nil
}

// multihash splits id into its hash code and digest: two unsigned varints
// (minimally encoded, at most 9 bytes, the rules of go-varint) then exactly
// as many bytes as the second says.
func multihash(id PeerID) (code uint64, digest string, err error) {
	bad := func(why string) (uint64, string, error) {
		return 0, "", fmt.Errorf("%w: %x: %s", ErrPeerID, string(id), why)
	}
	if len(id) < 2 {
		return bad("too short")
	}
	rest := string(id)
	code, rest, ok := uvarint(rest)
	if !ok {
		return bad("bad hash code")
	}
	n, rest, ok := uvarint(rest)
	if !ok {
		return bad("bad digest length")
	}
	if n > math.MaxInt32 || n != uint64(len(rest)) {
		return bad(fmt.Sprintf("digest of %d bytes says %d", len(rest), n))
	}
	return code, rest, nil
}

// uvarint reads a multiformats unsigned varint: like encoding/binary's, but
// at most 9 bytes and never padded with a trailing zero byte.
func uvarint(s string) (uint64, string, bool) {
	var x uint64
	for i := 0; i < len(s) && i < 9; i++ {
		b := s[i]
		if b < 0x80 {
			if b == 0 && i > 0 {
				return 0, s, false
			}
			return x | uint64(b)<<(7*i), s[i+1:], true
		}
		if i == 8 {
			break
		}
		x |= uint64(b&0x7f) << (7 * i)
	}
	return 0, s, false
}

const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

var base58Index = func() (ix [256]int8) {
	for i := range ix {
		ix[i] = -1
	}
	for i := range len(base58Alphabet) {
		ix[base58Alphabet[i]] = int8(i)
	}
	return ix
}()

// base58Encode is Bitcoin's base58: each leading zero byte is a '1', the
// rest is the number the bytes spell, big-endian, in base 58.
func base58Encode(b []byte) string {
	zeros := 0
	for zeros < len(b) && b[zeros] == 0 {
		zeros++
	}
	// Digits of the number, least significant first, in base 58.
	digits := make([]byte, 0, len(b)*138/100+1)
	for _, c := range b[zeros:] {
		carry := int(c)
		for i := range digits {
			carry += int(digits[i]) << 8
			digits[i] = byte(carry % 58)
			carry /= 58
		}
		for carry > 0 {
			digits = append(digits, byte(carry%58))
			carry /= 58
		}
	}
	out := make([]byte, zeros+len(digits))
	for i := range zeros {
		out[i] = '1'
	}
	for i, d := range digits {
		out[len(out)-1-i] = base58Alphabet[d]
	}
	return string(out)
}

// maxBase58 bounds what base58Decode reads: far more than any peer ID, far
// less than what would make the quadratic decoding slow.
const maxBase58 = 256

// base58Decode undoes base58Encode.
func base58Decode(s string) ([]byte, error) {
	if s == "" {
		return nil, errors.New("empty")
	}
	if len(s) > maxBase58 {
		return nil, fmt.Errorf("%d characters", len(s))
	}
	zeros := 0
	for zeros < len(s) && s[zeros] == '1' {
		zeros++
	}
	// Bytes of the number, least significant first.
	var num []byte
	for i := zeros; i < len(s); i++ {
		d := base58Index[s[i]]
		if d < 0 {
			return nil, fmt.Errorf("%q is not a base58 digit", s[i])
		}
		carry := int(d)
		for j := range num {
			carry += int(num[j]) * 58
			num[j] = byte(carry)
			carry >>= 8
		}
		for carry > 0 {
			num = append(num, byte(carry))
			carry >>= 8
		}
	}
	out := make([]byte, zeros+len(num))
	for i, c := range num {
		out[len(out)-1-i] = c
	}
	return out, nil
}
