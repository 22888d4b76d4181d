package engine

import (
	"fmt"
	"strings"
)

// Rank is a card's rank: 0 is the ace, 12 the king. Suits never matter.
type Rank int8

// NoRank marks a rank that isn't known or isn't required.
const NoRank Rank = -1

// Ranks in a suit.
const NumRanks = 13

var rankNames = [NumRanks]string{"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"}

var rankWords = [NumRanks][2]string{
	{"ace", "aces"}, {"two", "twos"}, {"three", "threes"}, {"four", "fours"}, {"five", "fives"},
	{"six", "sixes"}, {"seven", "sevens"}, {"eight", "eights"}, {"nine", "nines"}, {"ten", "tens"},
	{"jack", "jacks"}, {"queen", "queens"}, {"king", "kings"},
}

func (r Rank) String() string {
	if r < 0 || r >= NumRanks {
		return "-"
	}
	return rankNames[r]
}

// Word is the rank's name in a sentence: "ace" for one, "aces" for more.
func (r Rank) Word(n int) string {
	if r < 0 || r >= NumRanks {
		return "cards"
	}
	if n == 1 {
		return rankWords[r][0]
	}
	return rankWords[r][1]
}

// Valid reports whether r is one of the 13 ranks.
func (r Rank) Valid() bool { return r >= 0 && r < NumRanks }

// ParseRank reads "A", "2" … "10", "J", "Q", "K" (case-insensitive).
func ParseRank(s string) (Rank, bool) {
	s = strings.ToUpper(strings.TrimSpace(s))
	for i, n := range rankNames {
		if n == s {
			return Rank(i), true
		}
	}
	if s == "1" {
		return 0, true
	}
	if s == "T" {
		return 9, true
	}
	return NoRank, false
}

// Card is rank*4 + suit (suits C, D, H, S), or Joker. Two decks hold
// identical cards: a hand is a multiset.
type Card uint8

// Joker is the wild card of V7.
const Joker Card = 52

const numCards = 53 // distinct card values, the joker included

const suitNames = "CDHS"

// NewCard makes the card of rank r and suit s (0..3 for C, D, H, S).
func NewCard(r Rank, suit int) Card { return Card(int(r)*4 + suit) }

// Rank is the card's rank, NoRank for a joker.
func (c Card) Rank() Rank {
	if c >= Joker {
		return NoRank
	}
	return Rank(c / 4)
}

// Suit is 0..3 for C, D, H, S, and -1 for a joker.
func (c Card) Suit() int {
	if c >= Joker {
		return -1
	}
	return int(c % 4)
}

// Valid reports whether c names a card.
func (c Card) Valid() bool { return c <= Joker }

// Matches reports whether c counts as rank r: its own rank, or a joker.
func (c Card) Matches(r Rank) bool { return c == Joker || c.Rank() == r }

func (c Card) String() string {
	if c == Joker {
		return "JK"
	}
	if c > Joker {
		return "??"
	}
	return rankNames[c/4] + string(suitNames[c%4])
}

// Symbol is the card for a screen: "A♠", "10♥", "🃏"-free "JK".
func (c Card) Symbol() string {
	if c == Joker {
		return "JK"
	}
	if c > Joker {
		return "??"
	}
	return rankNames[c/4] + [4]string{"♣", "♦", "♥", "♠"}[c%4]
}

// MarshalText writes the card as in the referee protocol ("AS", "10H", "JK").
func (c Card) MarshalText() ([]byte, error) {
	if !c.Valid() {
		return nil, fmt.Errorf("engine: no card %d", c)
	}
	return []byte(c.String()), nil
}

// UnmarshalText reads a card as ParseCard does.
func (c *Card) UnmarshalText(b []byte) error {
	v, ok := ParseCard(string(b))
	if !ok {
		return fmt.Errorf("engine: %q names no card", b)
	}
	*c = v
	return nil
}

// ParseCard reads rank then suit ("AS", "10H", "qd"), or "JK".
func ParseCard(s string) (Card, bool) {
	s = strings.ToUpper(strings.TrimSpace(s))
	if s == "JK" {
		return Joker, true
	}
	if len(s) < 2 || len(s) > 3 {
		return 0, false
	}
	suit := strings.IndexByte(suitNames, s[len(s)-1])
	if suit < 0 {
		return 0, false
	}
	r, ok := ParseRank(s[:len(s)-1])
	if !ok || s[:len(s)-1] == "1" || s[:len(s)-1] == "T" {
		return 0, false
	}
	return NewCard(r, suit), true
}

// ParseCards reads a list of card strings; the first that names no card is
// reported.
func ParseCards(ss []string) ([]Card, error) {
	out := make([]Card, len(ss))
	for i, s := range ss {
		c, ok := ParseCard(s)
		if !ok {
			return nil, refusef(CodeBadCard, "%q is not a card: write rank then suit, as AS, 10H or QD.", s)
		}
		out[i] = c
	}
	return out, nil
}

// Cards formats cards as their referee strings.
func Cards(cs []Card) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.String()
	}
	return out
}

// newDeck builds the cards of n decks, with j jokers per deck.
func newDeck(decks, jokers int) []Card {
	out := make([]Card, 0, decks*(52+jokers))
	for d := 0; d < decks; d++ {
		for c := Card(0); c < Joker; c++ {
			out = append(out, c)
		}
		for j := 0; j < jokers; j++ {
			out = append(out, Joker)
		}
	}
	return out
}

// SortCards sorts cards by rank (aces first), then suit; jokers last.
func SortCards(cs []Card) {
	// Insertion sort: hands are small and this allocates nothing.
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && cs[j] < cs[j-1]; j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
}

// counts is a multiset of cards.
type counts [numCards]uint8

func (m *counts) add(cs []Card) {
	for _, c := range cs {
		m[c]++
	}
}
