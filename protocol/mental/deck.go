package mental

import (
	"crypto/sha512"
	"io"

	"github.com/gtank/ristretto255"
)

// A Ciphertext is one face-down card: the ElGamal pair (r·G, M + r·Y)
// under the joint key Y. Removing every party's share x_i·(r·G) from the
// second half leaves M, the card's point.
type Ciphertext struct{ a, b ristretto255.Element }

// A Deck is the table's cards face down, in order: position k is the k-th
// card dealt.
type Deck []Ciphertext

// Equal reports whether two ciphertexts are the same pair.
func (c *Ciphertext) Equal(o *Ciphertext) bool { return c.a.Equal(&o.a) == 1 && c.b.Equal(&o.b) == 1 }

// rerandomize sets c to in + (r·G, r·Y): the same card, unlinkable to in
// without r.
func (c *Ciphertext) rerandomize(in *Ciphertext, joint *PublicKey, r *ristretto255.Scalar) {
	var t ristretto255.Element
	c.a.Add(&in.a, t.ScalarBaseMult(r))
	c.b.Add(&in.b, t.ScalarMult(r, &joint.p))
}

// Encrypt is a fresh encryption of face under joint, with its randomness
// drawn from rand.
func Encrypt(rand io.Reader, joint *PublicKey, f Face) (Ciphertext, error) {
	r, err := randomScalar(rand)
	if err != nil {
		return Ciphertext{}, err
	}
	var c, m Ciphertext
	m.a.Zero()
	m.b = *f.Point()
	c.rerandomize(&m, joint, r)
	return c, nil
}

// MarshalBinary is the two elements, 64 bytes.
func (c *Ciphertext) MarshalBinary() ([]byte, error) { return c.appendTo(nil), nil }

func (c *Ciphertext) appendTo(b []byte) []byte { return c.b.Encode(c.a.Encode(b)) }

// UnmarshalBinary reads what MarshalBinary wrote.
func (c *Ciphertext) UnmarshalBinary(b []byte) error {
	var t Ciphertext
	r := reader{b: b}
	t.read(&r)
	if err := r.done("ciphertext"); err != nil {
		return err
	}
	*c = t
	return nil
}

func (c *Ciphertext) read(r *reader) {
	r.element(&c.a)
	r.element(&c.b)
}

// MarshalBinary is a 2-byte big-endian count, then each ciphertext.
func (d Deck) MarshalBinary() ([]byte, error) { return d.appendTo(nil), nil }

func (d Deck) appendTo(b []byte) []byte {
	b = appendU16(b, len(d))
	for i := range d {
		b = d[i].appendTo(b)
	}
	return b
}

// UnmarshalBinary reads what MarshalBinary wrote (at most 1024 cards).
func (d *Deck) UnmarshalBinary(b []byte) error {
	r := reader{b: b}
	t := readDeck(&r)
	if err := r.done("deck"); err != nil {
		return err
	}
	*d = t
	return nil
}

func readDeck(r *reader) Deck {
	n := r.count(maxItems)
	if r.bad || len(r.b) < n*2*ElementSize {
		r.bad = true
		return nil
	}
	d := make(Deck, n)
	for i := range d {
		d[i].read(r)
	}
	return d
}

// digest is a hash of the deck's encoding, for commitments.
func (d Deck) digest() []byte {
	h := sha512.Sum512_256(d.appendTo(nil))
	return h[:]
}
