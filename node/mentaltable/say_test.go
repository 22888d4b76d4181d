package mentaltable

import (
	"errors"
	"testing"

	"github.com/bullshit-game/bullshit/protocol/mental"
)

// A refusal as a screen says it: what was wrong and where, never the
// party's number (the table names the person whose node it is), nor the
// deck and copy of a card.
func TestSaid(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{fault(2, mental.ErrShareProof, "share of card 7"), "a share in it doesn't prove itself: share of card 7"},
		{fault(1, mental.ErrFalseOpening, "claims %s, is %s", mental.Face{Card: 28, Deck: 1}, mental.Face{Card: 27}), "it claimed other cards than they are: claims 8C, is 7S"},
		{fault(0, mental.ErrShuffle, "card at 17"), "its shuffle's opening doesn't explain the deck it sent: card at 17"},
		{fault(3, ErrWrongCards, "card %d", 4), "it turns up other cards than the ones asked for: card 4"},
	} {
		if got := Said(c.err); got != c.want {
			t.Errorf("%v: said %q, want %q", c.err, got, c.want)
		}
	}
	// An error that wraps none of them: its own words, without the
	// prefix that names the party.
	if got := Said(&mental.Fault{Party: 1, Err: errors.New("mentaltable: something new")}); got != "something new" {
		t.Errorf("said %q", got)
	}
	name := func(p int) string { return []string{"Hana", "Ben", "Rook"}[p] }
	got := ShuffleCheat(fault(2, mental.ErrShuffle, "card at 3"), name)
	if want := "Rook's node cheated at the shuffle (its shuffle's opening doesn't explain the deck it sent: card at 3): this game can't be checked."; got != want {
		t.Errorf("ShuffleCheat: %q, want %q", got, want)
	}
}

// TestDropCopies: a card's deck and copy go, and nothing else that looks
// a little like them.
func TestDropCopies(t *testing.T) {
	for in, want := range map[string]string{
		"claims 8C/1.0, is 7S/0.0": "claims 8C, is 7S",
		"7S/0.12)":                 "7S)",
		"a/1.2x and b/3. and c/.4": "a/1.2x and b/3. and c/.4",
		"10H/2.1":                  "10H",
		"/":                        "/",
	} {
		if got := dropCopies(in); got != want {
			t.Errorf("dropCopies(%q) = %q, want %q", in, got, want)
		}
	}
}
