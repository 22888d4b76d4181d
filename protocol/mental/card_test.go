package mental

import (
	"encoding/hex"
	"testing"

	"github.com/bullshit-game/bullshit/engine"
)

// The card ⇄ point mapping: every face of every deck size the rules allow
// (1–3 decks, 0 or 2 jokers) is its own point, the faces come in the
// engine's deck order with the engine's card bytes and names, and every
// point maps back to its face.
func TestCardMapping(t *testing.T) {
	for decks := 1; decks <= 3; decks++ {
		for _, jokers := range []int{0, 2} {
			cb, err := NewCodebook(decks, jokers)
			if err != nil {
				t.Fatal(err)
			}
			if cb.Len() != decks*(52+jokers) {
				t.Fatalf("%d decks, %d jokers: %d cards", decks, jokers, cb.Len())
			}
			var ec []engine.Card // the engine's deck(decks, jokers), rebuilt from its exported parts
			for range decks {
				for r := range engine.Rank(engine.NumRanks) {
					for s := range 4 {
						ec = append(ec, engine.NewCard(r, s))
					}
				}
				for range jokers {
					ec = append(ec, engine.Joker)
				}
			}
			copies := map[[2]uint8]int{}
			for i, f := range cb.Faces() {
				if engine.Card(f.Card) != ec[i] || f.Name() != ec[i].String() {
					t.Fatalf("face %d is %s (%d); the engine's is %s (%d)", i, f.Name(), f.Card, ec[i], ec[i])
				}
				if int(f.Deck) != i/(52+jokers) {
					t.Fatalf("face %d in deck %d", i, f.Deck)
				}
				if want := copies[[2]uint8{f.Card, f.Deck}]; int(f.Copy) != want {
					t.Fatalf("face %d: copy %d, want %d", i, f.Copy, want)
				}
				copies[[2]uint8{f.Card, f.Deck}]++
				back, ok := cb.lookup(f.Point())
				if !ok || back != f {
					t.Fatalf("%s maps back to %s", f, back)
				}
			}
			if len(cb.index) != cb.Len() {
				t.Fatalf("%d distinct points for %d cards", len(cb.index), cb.Len())
			}
		}
	}
	for _, bad := range [][2]int{{0, 0}, {9, 0}, {1, -1}, {1, 5}} {
		if _, err := NewCodebook(bad[0], bad[1]); err == nil {
			t.Errorf("codebook of %d decks, %d jokers", bad[0], bad[1])
		}
	}
}

// The points of a few cards, pinned: a change to the hash (its domain,
// its layout) changes every table's deck and must be a new version.
func TestCardPointVectors(t *testing.T) {
	for _, c := range []struct {
		f    Face
		want string
	}{
		{Face{Card: 0, Deck: 0}, "f23e4fb574491db58f81f7163e1358241ccd82dec7dfe8f6f6d9945499519b1d"},
		{Face{Card: 51, Deck: 1}, "7e05f8a846e1b9c80a96592afe5b23d2e0c8081e32a87c234aa78bb08a51c551"},
		{Face{Card: 52, Deck: 1, Copy: 1}, "2e9ea59c23596beb902db22928134db277112bf9081a60c6d014b541a84de435"},
	} {
		if got := hex.EncodeToString(c.f.Point().Encode(nil)); got != c.want {
			t.Errorf("%s: point %s, want %s", c.f, got, c.want)
		}
	}
}
