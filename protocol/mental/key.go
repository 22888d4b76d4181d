package mental

import (
	"fmt"
	"io"

	"github.com/gtank/ristretto255"
)

// A Secret is a player node's deck secret x_i. It never leaves the node
// until the game is over (then it is published, and everyone checks it
// with CheckSecret), except split into recovery sub-shares.
type Secret struct {
	x   ristretto255.Scalar
	pub PublicKey // x·G, kept: every proof hashes it
}

func newSecret(x *ristretto255.Scalar) Secret {
	s := Secret{x: *x}
	s.pub.p.ScalarBaseMult(x)
	return s
}

// A PublicKey is a deck key x_i·G, or the joint key, their sum.
type PublicKey struct{ p ristretto255.Element }

// A KeyProof is a Schnorr proof that its sender knows the secret of its
// deck key, bound to a context (the table, the game and the sender's peer
// ID): so no party can announce a key computed from the others' (T − x_i·G
// cancels nothing without its discrete log), nor replay another's.
type KeyProof struct{ c, s ristretto255.Scalar }

// NewSecret draws a deck secret from rand.
func NewSecret(rand io.Reader) (Secret, error) {
	x, err := randomScalar(rand)
	if err != nil {
		return Secret{}, err
	}
	return newSecret(x), nil
}

// Public is the secret's deck key x·G.
func (x *Secret) Public() PublicKey { return x.pub }

// Equal reports whether two keys are the same group element.
func (k *PublicKey) Equal(o *PublicKey) bool { return k.p.Equal(&o.p) == 1 }

func keyChallenge(key *PublicKey, r *ristretto255.Element, ctx []byte) *ristretto255.Scalar {
	t := newTranscript("key")
	t.bytes(ctx)
	t.elements(&key.p, r)
	return t.challenge()
}

// ProveKey proves knowledge of x, bound to ctx.
func ProveKey(rand io.Reader, x *Secret, ctx []byte) (KeyProof, error) {
	k, err := randomScalar(rand)
	if err != nil {
		return KeyProof{}, err
	}
	key := x.Public()
	r := ristretto255.NewElement().ScalarBaseMult(k)
	var p KeyProof
	p.c = *keyChallenge(&key, r, ctx)
	p.s.Multiply(&p.c, &x.x)
	p.s.Add(&p.s, k)
	return p, nil
}

// Verify checks the proof for key and ctx.
func (p *KeyProof) Verify(key *PublicKey, ctx []byte) error {
	// R = s·G − c·X, and c must be the hash of it.
	var negc ristretto255.Scalar
	negc.Negate(&p.c)
	r := ristretto255.NewElement().VarTimeDoubleScalarBaseMult(&negc, &key.p, &p.s)
	if keyChallenge(key, r, ctx).Equal(&p.c) != 1 {
		return ErrKeyProof
	}
	return nil
}

// JointKey checks every party's deck key and proof and returns the joint
// key, their sum. ctxs[i] is the context party i proved under (it names
// party i's peer ID, so it differs per party). It refuses an identity key,
// a key equal to another party's, and a proof that does not verify under
// its party's context, naming the party (the later one of two equal keys).
func JointKey(keys []PublicKey, proofs []KeyProof, ctxs [][]byte) (PublicKey, error) {
	if len(keys) == 0 || len(keys) != len(proofs) || len(keys) != len(ctxs) {
		return PublicKey{}, fmt.Errorf("%w: %d keys, %d proofs, %d contexts", ErrParties, len(keys), len(proofs), len(ctxs))
	}
	var joint PublicKey
	joint.p.Zero()
	for i := range keys {
		if isIdentity(&keys[i].p) {
			return PublicKey{}, blame(i, ErrIdentityKey, "")
		}
		for j := range i {
			if keys[i].Equal(&keys[j]) {
				return PublicKey{}, blame(i, ErrDuplicateKey, "same as party %d's", j)
			}
		}
		if err := proofs[i].Verify(&keys[i], ctxs[i]); err != nil {
			return PublicKey{}, blame(i, err, "")
		}
		joint.p.Add(&joint.p, &keys[i].p)
	}
	return joint, nil
}

// CheckSecret checks a secret party published at the end of the game
// against its deck key.
func CheckSecret(party int, x *Secret, key *PublicKey) error {
	pub := x.Public()
	if !pub.Equal(key) {
		return blame(party, ErrSecret, "")
	}
	return nil
}

// MarshalBinary is the secret's 32 bytes (canonical little-endian).
func (x *Secret) MarshalBinary() ([]byte, error) { return x.x.Encode(nil), nil }

// UnmarshalBinary reads what MarshalBinary wrote.
func (x *Secret) UnmarshalBinary(b []byte) error {
	var t ristretto255.Scalar
	r := reader{b: b}
	r.scalar(&t)
	if err := r.done("secret"); err != nil {
		return err
	}
	*x = newSecret(&t)
	return nil
}

// MarshalBinary is the key's 32-byte ristretto255 encoding.
func (k *PublicKey) MarshalBinary() ([]byte, error) { return k.p.Encode(nil), nil }

// UnmarshalBinary reads what MarshalBinary wrote. The identity decodes (it
// is a valid encoding); JointKey refuses it as a deck key.
func (k *PublicKey) UnmarshalBinary(b []byte) error {
	var t PublicKey
	r := reader{b: b}
	r.element(&t.p)
	if err := r.done("public key"); err != nil {
		return err
	}
	*k = t
	return nil
}

// MarshalBinary is c then s, 64 bytes.
func (p *KeyProof) MarshalBinary() ([]byte, error) { return p.s.Encode(p.c.Encode(nil)), nil }

// UnmarshalBinary reads what MarshalBinary wrote.
func (p *KeyProof) UnmarshalBinary(b []byte) error {
	var t KeyProof
	r := reader{b: b}
	r.scalar(&t.c)
	r.scalar(&t.s)
	if err := r.done("key proof"); err != nil {
		return err
	}
	*p = t
	return nil
}
