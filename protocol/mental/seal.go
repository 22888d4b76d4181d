package mental

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/sha256"
	"fmt"
	"io"

	"github.com/gtank/ristretto255"
)

// Sealed is a message only one party can read: ECIES over the receiver's
// deck key. The sender draws e, sends E = e·G, and both derive an
// AES-256-GCM key by HKDF-SHA-256 from e·X = x·E, E, X and the context;
// the context is also the AEAD's additional data. Each key seals one
// message, so the nonce is zero. Sealed carries a card handed over (an
// Opening) and a recovery sub-share.
type Sealed struct {
	eph ristretto255.Element
	box []byte
}

func sealKey(shared, eph, to *ristretto255.Element, ctx []byte) (cipher.AEAD, error) {
	info := newTranscript("seal")
	info.bytes(ctx)
	info.elements(eph, to)
	key, err := hkdf.Key(sha256.New, shared.Encode(nil), nil, string(info.h.Sum(nil)), 32)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// Seal seals msg to the owner of to, under ctx.
func Seal(rand io.Reader, to *PublicKey, ctx, msg []byte) (Sealed, error) {
	if isIdentity(&to.p) {
		return Sealed{}, ErrIdentityKey
	}
	e, err := randomScalar(rand)
	if err != nil {
		return Sealed{}, err
	}
	var s Sealed
	s.eph.ScalarBaseMult(e)
	shared := ristretto255.NewElement().ScalarMult(e, &to.p)
	aead, err := sealKey(shared, &s.eph, &to.p, ctx)
	if err != nil {
		return Sealed{}, err
	}
	s.box = aead.Seal(nil, make([]byte, aead.NonceSize()), msg, ctx)
	return s, nil
}

// Open opens a message sealed to x's key under ctx.
func (s *Sealed) Open(x *Secret, ctx []byte) ([]byte, error) {
	if isIdentity(&s.eph) {
		return nil, ErrSealed // e = 0: anyone could have made the key
	}
	key := x.Public()
	shared := ristretto255.NewElement().ScalarMult(&x.x, &s.eph)
	aead, err := sealKey(shared, &s.eph, &key.p, ctx)
	if err != nil {
		return nil, err
	}
	msg, err := aead.Open(nil, make([]byte, aead.NonceSize()), s.box, ctx)
	if err != nil {
		return nil, ErrSealed
	}
	return msg, nil
}

// SealOpening hands the card of o to the owner of to, privately: the
// receiver learns the card and can open it to everyone later, as its
// holder; nobody else learns anything.
func SealOpening(rand io.Reader, to *PublicKey, ctx []byte, o *Opening) (Sealed, error) {
	b, _ := o.MarshalBinary()
	return Seal(rand, to, ctx, b)
}

// OpenOpening opens a card handed over with SealOpening. The receiver
// still checks it (Opening.Verify, with the sender as opener) before it
// believes it.
func (s *Sealed) OpenOpening(x *Secret, ctx []byte) (Opening, error) {
	b, err := s.Open(x, ctx)
	if err != nil {
		return Opening{}, err
	}
	var o Opening
	if err := o.UnmarshalBinary(b); err != nil {
		return Opening{}, err
	}
	return o, nil
}

// maxSealed bounds a sealed message: an opening at the largest table.
const maxSealed = 1 << 20

// MarshalBinary is E, then the AEAD's output.
func (s *Sealed) MarshalBinary() ([]byte, error) { return append(s.eph.Encode(nil), s.box...), nil }

// UnmarshalBinary reads what MarshalBinary wrote.
func (s *Sealed) UnmarshalBinary(b []byte) error {
	if len(b) < ElementSize+16 || len(b) > maxSealed {
		return fmt.Errorf("%w: sealed message of %d bytes", ErrMalformed, len(b))
	}
	var t Sealed
	if t.eph.Decode(b[:ElementSize]) != nil {
		return fmt.Errorf("%w: sealed message", ErrMalformed)
	}
	t.box = append([]byte(nil), b[ElementSize:]...)
	*s = t
	return nil
}
