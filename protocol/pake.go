package protocol

import (
	"crypto/hmac"
	"crypto/sha512"
	"encoding/binary"
	"errors"
	"unicode"

	"github.com/gtank/ristretto255"
)

// A private table's join code is proved with CPace over ristretto255
// (draft-irtf-cfrg-cpace): both sides turn the code and the session's
// context into a generator of the group, each sends a share made with a
// fresh secret scalar, and each derives the same key only if both typed the
// same code. Each side then proves the key with a MAC. Unlike a MAC keyed
// with the code itself, nothing on the wire lets a listener, a joiner or an
// impostor table test codes offline: each run of the exchange is worth one
// guess, made online, which the host counts (node/guard/limits.go).
//
// What the session's context binds: both peer IDs and the table ID (the
// draft's channel identifier) and a nonce from each side (its session ID),
// so a transcript from one session never verifies in another.
//
// This follows the draft's construction (generator string, shares,
// intermediate session key, initiator-responder transcript); the key
// confirmation is the draft's explicit confirmation with HMAC-SHA-512. It
// is not claimed to reproduce the draft's own test vectors byte for byte;
// testdata/pake.txt pins this package's.

// NonceSize is the length of each side's nonce in the exchange.
const NonceSize = 16

// SecretSize is how many random bytes a side draws for its scalar; the
// node draws them, this package never does.
const SecretSize = 64

// MinCodeLen is the shortest join code a table may have, in the
// characters that count (dashes and spaces don't). node/guard/limits.go has the
// arithmetic: at the attempt limits, 6 digits is a 1-in-90 chance for a
// guesser with a whole evening; letters make a code of this length far
// stronger.
const MinCodeLen = 6

// ErrShortCode refuses a join code shorter than MinCodeLen.
var ErrShortCode = errors.New("a join code needs at least 6 letters or digits (dashes and spaces don't count): a shorter one can be guessed in an evening")

// CheckCode says whether code will do for a private table: "" (no code) or
// at least MinCodeLen letters or digits.
func CheckCode(code string) error {
	n := len([]rune(normalize(code)))
	if n > 0 && n < MinCodeLen {
		return ErrShortCode
	}
	return nil
}

// Side is a side of the exchange: the joiner starts it (the draft's
// initiator), the host answers (its responder).
type Side uint8

const (
	Joiner Side = iota
	Hosting
)

// PakeContext is what a run of the exchange is bound to. Joiner and Host
// are peer IDs' bytes.
type PakeContext struct {
	Joiner, Host           string
	Table                  TableID
	JoinerNonce, HostNonce []byte
}

// Pake is one side's run of the exchange: NewPake, send Share, Meet the
// other side's share, send Confirm, Check the other side's. Not safe for
// concurrent use; use one per run.
type Pake struct {
	side  Side
	sid   []byte
	y     *ristretto255.Scalar
	share []byte
	isk   []byte // nil until Meet
	other []byte
}

const (
	dsi     = "CPaceRistretto255"
	hashLen = 128 // SHA-512's block size: the draft's s_in_bytes
)

var errNoncesShort = errors.New("protocol: join code exchange: nonce too short")

// NewPake starts a run of the exchange for code in ctx, with secret
// (SecretSize random bytes) as this side's scalar. Codes are typed by
// people, so case, spaces and dashes do not count: "ab-12 c" is "AB12C".
func NewPake(side Side, code string, ctx PakeContext, secret []byte) (*Pake, error) {
	if len(ctx.JoinerNonce) < NonceSize || len(ctx.HostNonce) < NonceSize {
		return nil, errNoncesShort
	}
	if len(secret) != SecretSize {
		return nil, errors.New("protocol: join code exchange: secret must be 64 bytes")
	}
	sid := lvCat(ctx.JoinerNonce, ctx.HostNonce)
	ci := lvCat([]byte(ctx.Joiner), []byte(ctx.Host), ctx.Table[:])
	g := generator([]byte(normalize(code)), ci, sid)
	y := ristretto255.NewScalar().FromUniformBytes(secret)
	Y := ristretto255.NewElement().ScalarMult(y, g)
	return &Pake{side: side, sid: sid, y: y, share: Y.Encode(nil)}, nil
}

// generator is the draft's calculate_generator: the hash of
// lv_cat(DSI, PRS, zero padding, CI, sid) mapped into the group.
func generator(prs, ci, sid []byte) *ristretto255.Element {
	pad := hashLen - len(prependLen([]byte(prs))) - len(prependLen([]byte(dsi))) - 1
	if pad < 0 {
		pad = 0
	}
	h := sha512.Sum512(lvCat([]byte(dsi), prs, make([]byte, pad), ci, sid))
	return ristretto255.NewElement().FromUniformBytes(h[:])
}

// Share is this side's share, to send.
func (p *Pake) Share() []byte { return p.share }

// Meet takes the other side's share and derives the session key. A share
// that is not a group element, or is the identity, is refused with
// ErrMalformed: it is the only check of the peer's bytes, and one that
// fails tells nothing about the code.
func (p *Pake) Meet(other []byte) error {
	Y := ristretto255.NewElement()
	if len(other) != 32 || Y.Decode(other) != nil {
		return decodeErr(ErrMalformed, "Share", "not a ristretto255 element")
	}
	K := ristretto255.NewElement().ScalarMult(p.y, Y)
	if K.Equal(ristretto255.NewElement().Zero()) == 1 {
		return decodeErr(ErrMalformed, "Share", "identity element")
	}
	ya, yb := p.share, other
	if p.side == Hosting {
		ya, yb = other, p.share
	}
	// ISK = H(lv_cat(DSI || "_ISK", sid, K) || transcript_ir(Ya, ADa, Yb, ADb)),
	// the associated data empty on both sides.
	h := sha512.New()
	h.Write(lvCat([]byte(dsi+"_ISK"), p.sid, K.Encode(nil)))
	h.Write(lvCat(ya, nil))
	h.Write(lvCat(yb, nil))
	p.isk = h.Sum(nil)
	p.other = append([]byte(nil), other...)
	return nil
}

// Confirm is this side's key confirmation, to send after Meet: a MAC of
// its own share under a key only the same code gives. Nil before Meet.
func (p *Pake) Confirm() []byte {
	if p.isk == nil {
		return nil
	}
	return p.tag(p.side, p.share)
}

// Check says whether tag is the other side's confirmation: false before
// Meet, for a wrong code, and for a tag from any other run.
func (p *Pake) Check(tag []byte) bool {
	if p.isk == nil {
		return false
	}
	return hmac.Equal(tag, p.tag(1-p.side, p.other))
}

// Key is the session key both sides share after Meet (the draft's ISK).
func (p *Pake) Key() []byte { return p.isk }

func (p *Pake) tag(side Side, share []byte) []byte {
	label := "CPaceMac_a"
	if side == Hosting {
		label = "CPaceMac_b"
	}
	k := sha512.Sum512(append([]byte(label), p.isk...))
	m := hmac.New(sha512.New, k[:])
	m.Write(share)
	return m.Sum(nil)
}

// prependLen is the draft's prepend_len: a LEB128 length, then the bytes.
func prependLen(b []byte) []byte {
	out := binary.AppendUvarint(nil, uint64(len(b)))
	return append(out, b...)
}

// lvCat is the draft's lv_cat: each part length-prefixed, concatenated.
func lvCat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, prependLen(p)...)
	}
	return out
}

func normalize(code string) string {
	out := []rune{}
	for _, r := range code {
		if r == '-' || unicode.IsSpace(r) {
			continue
		}
		out = append(out, unicode.ToUpper(r))
	}
	return string(out)
}
