package engine

import (
	"fmt"
	"time"
)

// Move names a command.
type Move uint8

const (
	MovePlay Move = iota + 1
	MoveCall
	MovePass
	MoveGive
	MoveQuads
	MoveDoubt
	MoveBelieve
	MoveSkip
)

// MoveResume is the host's, not a seat's: a new host, taking over a table
// mid-game, gives an open call window or hand-over its whole time again,
// from now. It is numbered apart from the seats' moves.
const MoveResume Move = 64

// MoveForfeit is the host's too, at a blind table only (R10b): play No,
// Seat's, was turned up falsely by its player's node, so the call, doubt
// or believe that turns it up goes against Seat whatever the cards. The
// journal holds it just before that move, which it decides. No seat makes
// it: a table takes it from its host's own record of the openings.
const MoveForfeit Move = 65

var moveNames = [...]string{"", "play", "call", "pass", "give", "quads", "doubt", "believe", "skip"}

func (m Move) String() string {
	switch m {
	case MoveResume:
		return "resume"
	case MoveForfeit:
		return "forfeit"
	}
	if int(m) < len(moveNames) {
		return moveNames[m]
	}
	return fmt.Sprintf("move(%d)", m)
}

// ParseMove reads a move's name.
func ParseMove(s string) (Move, bool) {
	switch s {
	case "resume":
		return MoveResume, true
	case "forfeit":
		return MoveForfeit, true
	}
	for i, n := range moveNames {
		if i > 0 && n == s {
			return Move(i), true
		}
	}
	return 0, false
}

// MarshalText writes the move's name.
func (m Move) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText reads a move's name.
func (m *Move) UnmarshalText(b []byte) error {
	v, ok := ParseMove(string(b))
	if !ok {
		return fmt.Errorf("engine: no move %q", b)
	}
	*m = v
	return nil
}

// A Command is one seat's move. Which fields count depends on the move:
// Cards for play, give and quads; Claim (0: as many as the cards) and Rank
// (NoRank: the required one) for play; No, the play answered, for call and
// pass, and optionally for doubt, believe and skip (0: the last play).
type Command struct {
	Move  Move   `json:"move"`
	Seat  int    `json:"seat"`
	Cards []Card `json:"cards,omitempty"`
	Claim int    `json:"claim,omitempty"`
	Rank  Rank   `json:"rank"`
	No    int    `json:"no,omitempty"`
}

// Apply applies a command at time now and returns the events it caused.
// A refused command returns a *Refusal and changes nothing. Apply does not
// fire deadlines: call Tick(now) first, as the host and the referee do.
func (g *Game) Apply(now time.Duration, c Command) ([]Event, error) {
	var err error
	switch c.Move {
	case MovePlay:
		err = g.play(now, c.Seat, c.Cards, c.Claim, c.Rank)
	case MoveCall:
		err = g.call(now, c.Seat, c.No)
	case MovePass:
		err = g.pass(g, now, c.Seat, c.No)
	case MoveGive:
		err = g.hand(now, c.Seat, c.Cards)
	case MoveQuads:
		err = g.quads(now, c.Seat, c.Cards)
	case MoveDoubt, MoveBelieve, MoveSkip:
		err = g.judge(now, c.Move, c.Seat, c.No)
	case MoveResume:
		err = g.resume(now)
	case MoveForfeit:
		err = g.forfeit(c.Seat, c.No)
	default:
		err = refuse(CodeBadCommand, "That isn't a move.")
	}
	if err != nil {
		g.events = g.events[:0]
		return nil, err
	}
	return g.flush(), nil
}

// Play puts cards face down claiming claim (0: all of them) of rank (NoRank:
// the required one).
func (g *Game) Play(now time.Duration, seat int, cards []Card, claim int, rank Rank) ([]Event, error) {
	return g.Apply(now, Command{Move: MovePlay, Seat: seat, Cards: cards, Claim: claim, Rank: rank})
}

// Call shouts "Bullshit!" on play number no.
func (g *Game) Call(now time.Duration, seat, no int) ([]Event, error) {
	return g.Apply(now, Command{Move: MoveCall, Seat: seat, No: no})
}

// Pass lets play number no go.
func (g *Game) Pass(now time.Duration, seat, no int) ([]Event, error) {
	return g.Apply(now, Command{Move: MovePass, Seat: seat, No: no})
}

// Give hands a caught sneaker the caller's cards (V14).
func (g *Game) Give(now time.Duration, seat int, cards []Card) ([]Event, error) {
	return g.Apply(now, Command{Move: MoveGive, Seat: seat, Cards: cards})
}

// Quads lays a true four of a kind out of the game (V9).
func (g *Game) Quads(now time.Duration, seat int, cards []Card) ([]Event, error) {
	return g.Apply(now, Command{Move: MoveQuads, Seat: seat, Cards: cards})
}

func checkCards(cards []Card) error {
	for _, c := range cards {
		if !c.Valid() {
			return refuse(CodeBadCard, "That isn't a card.")
		}
	}
	return nil
}

// holds reports whether hand holds every card of cards, as a multiset.
func holds(hand, cards []Card) bool {
	var need counts
	for _, c := range cards {
		need[c]++
	}
	for _, c := range hand {
		if need[c] > 0 {
			need[c]--
		}
	}
	return need == counts{}
}

// take removes cards from a hand the caller knows holds them.
func take(hand []Card, cards []Card) []Card {
	for _, c := range cards {
		for i, x := range hand {
			if x == c {
				copy(hand[i:], hand[i+1:])
				hand = hand[:len(hand)-1]
				break
			}
		}
	}
	return hand
}

// addTo puts cards into a hand, keeping it sorted.
func addTo(hand []Card, cards []Card) []Card {
	hand = append(hand, cards...)
	SortCards(hand)
	return hand
}
