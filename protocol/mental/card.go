package mental

import (
	"crypto/sha512"
	"fmt"

	"github.com/gtank/ristretto255"
)

// A Face is one physical card: its value as the engine numbers cards
// (rank*4 + suit, suits C D H S, 52 the joker: engine.Card, the byte the
// protocol sends), the deck it belongs to (0 for the first of a table's
// decks), and which copy of that value within the deck (always 0 but for
// the second joker of a deck, which is 1). Two decks hold the same values;
// their faces still differ, so every physical card is its own point and a
// card duplicated in a shuffle is caught.
type Face struct {
	Card, Deck, Copy uint8
}

const jokerCard = 52

// Name is the card's name as the engine and the referee write it: "AS",
// "10H", "JK".
func (f Face) Name() string {
	if f.Card == jokerCard {
		return "JK"
	}
	if f.Card > jokerCard {
		return "??"
	}
	return [13]string{"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"}[f.Card/4] + string("CDHS"[f.Card%4])
}

func (f Face) String() string { return fmt.Sprintf("%s/%d.%d", f.Name(), f.Deck, f.Copy) }

// Point is the card's group element: ristretto255's FromUniformBytes of
// SHA-512("bullshit/mental/v1/card", name, deck, copy), each part
// length-prefixed. Nobody knows the discrete log of any card, nor of one
// card relative to another.
func (f Face) Point() *ristretto255.Element {
	t := newTranscript("card")
	t.bytes([]byte(f.Name()))
	t.bytes([]byte{f.Deck, f.Copy})
	h := t.h.Sum(nil)
	return ristretto255.NewElement().FromUniformBytes(h[:sha512.Size])
}

// Faces lists the physical cards of a table's decks in the order the
// engine builds a deck (engine/card.go, deck): for each deck in turn the 52
// cards AC, AD, AH, AS, 2C … KS, then its jokers.
func Faces(decks, jokers int) ([]Face, error) {
	if decks < 1 || decks > 8 || jokers < 0 || jokers > 4 {
		return nil, fmt.Errorf("mental: no deck of %d decks with %d jokers each", decks, jokers)
	}
	out := make([]Face, 0, decks*(52+jokers))
	for d := range decks {
		for c := range jokerCard {
			out = append(out, Face{Card: uint8(c), Deck: uint8(d)})
		}
		for j := range jokers {
			out = append(out, Face{Card: jokerCard, Deck: uint8(d), Copy: uint8(j)})
		}
	}
	return out, nil
}

// A Codebook is a table's deck in the clear: every face and its point, and
// the way back from a decrypted point to its face.
type Codebook struct {
	faces  []Face
	points []ristretto255.Element
	index  map[[ElementSize]byte]int
}

// NewCodebook builds the codebook of decks with jokers per deck (the
// engine's Rules.DecksFor and Rules.Jokers).
func NewCodebook(decks, jokers int) (*Codebook, error) {
	faces, err := Faces(decks, jokers)
	if err != nil {
		return nil, err
	}
	cb := &Codebook{faces: faces, points: make([]ristretto255.Element, len(faces)), index: make(map[[ElementSize]byte]int, len(faces))}
	for i, f := range faces {
		cb.points[i] = *f.Point()
		var k [ElementSize]byte
		cb.points[i].Encode(k[:0])
		cb.index[k] = i
	}
	return cb, nil
}

// Len is the number of cards.
func (cb *Codebook) Len() int { return len(cb.faces) }

// Faces lists the cards in codebook order (a copy).
func (cb *Codebook) Faces() []Face { return append([]Face(nil), cb.faces...) }

// lookup is the face whose point p is, if p is one.
func (cb *Codebook) lookup(p *ristretto255.Element) (Face, bool) {
	var k [ElementSize]byte
	i, ok := cb.index[[ElementSize]byte(p.Encode(k[:0]))]
	if !ok {
		return Face{}, false
	}
	return cb.faces[i], true
}

// Deck is the table's starting deck: every card's trivial encryption
// (nothing hidden yet, r = 0), in codebook order. The first shuffle hides
// them.
func (cb *Codebook) Deck() Deck {
	d := make(Deck, len(cb.points))
	for i := range d {
		d[i].a.Zero()
		d[i].b = cb.points[i]
	}
	return d
}

// Decrypt turns a card up with every party's secret, as at the end of a
// game when each has published its x_i (checked with CheckSecret): M =
// B − (Σ x_i)·A, for the audit that replays the game in the clear.
func (cb *Codebook) Decrypt(ct *Ciphertext, secrets []Secret) (Face, error) {
	sum := ristretto255.NewScalar()
	for i := range secrets {
		sum.Add(sum, &secrets[i].x)
	}
	m := ristretto255.NewElement().ScalarMult(sum, &ct.a)
	f, ok := cb.lookup(m.Subtract(&ct.b, m))
	if !ok {
		return Face{}, ErrNotACard
	}
	return f, nil
}
