package engine

import (
	"math/rand/v2"
	"time"
)

// Phase is what a table is waiting for.
type Phase uint8

const (
	PhasePlay Phase = iota // a seat must play (in doubt mode: add, doubt, believe or skip)
	PhaseCall              // a call window is open (R8)
	PhaseGive              // a caller hands a caught sneaker a card (V14)
	PhaseOver              // the game has ended
)

var phaseNames = [...]string{"play", "call", "give", "over"}

func (p Phase) String() string { return phaseNames[p] }

// MarshalText writes the phase's name.
func (p Phase) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// Config is everything a game is a function of, besides its commands.
type Config struct {
	Rules Rules
	Seats int
	Seed  uint64
	Hands [][]Card // replaces the deal when not nil
	// Deck is the shuffled deck, dealt as the seed's shuffle would be: a
	// deck no node could see being shuffled (engine/blind), turned up at
	// the end. Nil lets the seed shuffle.
	Deck  []Card
	First *int // the seat to play first; nil lets the rules decide (R4, V10)
}

// play is a play on the pile.
type play struct {
	seat    int
	no      int
	rank    Rank
	claim   int
	cards   []Card // the cards placed, in order; the top of the pile
	out     bool   // it emptied the hand
	shown   bool   // a call or a doubt turned it up
	caller  int
	sizes   Sizes
	sneaked int
	forfeit bool // its node turned it up falsely (R10b): it goes against its player
}

type window struct {
	open    bool
	no      int
	closes  time.Duration
	passed  uint16 // seats that let the play go
	callers uint16 // seats that may still call
}

type give struct {
	from, to int // the caller hands cards to the sneaker
	n        int
	closes   time.Duration
}

// round is a V15 round: its rank and who played last.
type round struct {
	rank    Rank
	starter int
	skips   int
	pending int // a seat that played its last cards and waits to be out; -1
}

// Stats are a seat's tallies, for the result sheet.
type Stats struct {
	Calls   int `json:"calls"`   // calls (and doubts) made
	Right   int `json:"right"`   // of which found a lie
	Lies    int `json:"lies"`    // lies of this seat's that were caught
	Caught  int `json:"caught"`  // sneaks of this seat's that were caught
	Sneaks  int `json:"sneaks"`  // sneaks made; -1 while hidden from the viewer
	Pickups int `json:"pickups"` // times this seat took the pile
}

// Game is one game of Bullshit. Its methods are not safe for concurrent
// use: the host serialises commands.
type Game struct {
	table
	dealt counts // the cards at the table, for R17
	hands [][]Card
	pile  []Card
	gone  []Card // out of the game (V9, V15)
}

// New deals a game. It returns the deal's events: the public deal and each
// seat's own hand.
func New(cfg Config) (*Game, []Event, error) {
	r := cfg.Rules
	if err := r.Check(cfg.Seats); err != nil {
		return nil, nil, err
	}
	n := cfg.Seats
	g := &Game{table: newTable(r, n)}
	g.hands = make([][]Card, n)
	rng := rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15))
	g.dealer = rng.IntN(n)
	left := g.next(g.dealer)
	first := left
	pickFirst := cfg.First != nil
	if pickFirst && (*cfg.First < 0 || *cfg.First >= n) {
		return nil, nil, refusef(CodeBadSeat, "There is no seat %d at a table of %d.", *cfg.First, n)
	}
	if r.First.Random {
		first = rng.IntN(n)
		g.start = Rank(rng.IntN(NumRanks))
	}
	if pickFirst {
		first = *cfg.First
	}
	// Every hand lives in one block, each with room for every card at the
	// table, so taking the pile never reallocates a hand.
	total, most := 0, g.decks*(52+r.Jokers)
	if cfg.Hands != nil {
		for _, h := range cfg.Hands {
			total += len(h)
		}
		most = min(most, total)
	}
	block := make([]Card, n*most)
	for s := range g.hands {
		g.hands[s] = block[s*most : s*most : (s+1)*most]
	}
	if cfg.Hands != nil {
		if err := g.giveHands(cfg.Hands); err != nil {
			return nil, nil, err
		}
	} else {
		cards := newDeck(g.decks, r.Jokers)
		if cfg.Deck != nil {
			if err := sameDeck(cfg.Deck, cards); err != nil {
				return nil, nil, err
			}
			copy(cards, cfg.Deck)
		} else {
			rng.Shuffle(len(cards), func(i, j int) { cards[i], cards[j] = cards[j], cards[i] })
		}
		s := left
		if pickFirst || r.First.Random {
			s = first
		}
		for _, c := range cards {
			g.hands[s] = append(g.hands[s], c)
			s = g.next(s)
		}
	}
	if r.First.Holder && !pickFirst {
		for i, s := 0, left; i < n; i, s = i+1, g.next(s) {
			if hasCard(g.hands[s], r.First.Card) {
				first = s
				break
			}
		}
	}
	for _, h := range g.hands {
		g.dealt.add(h)
		g.total += len(h)
		SortCards(h)
	}
	g.first, g.turn = first, first
	g.pile = make([]Card, 0, g.total)
	g.order()
	g.emitDeal()
	return g, g.flush(), nil
}

// giveHands deals the hands Config.Hands sets in place of a deal, refusing
// hands no deck of this table could hold.
func (g *Game) giveHands(hands [][]Card) error {
	if len(hands) != g.n {
		return refusef(CodeBadCommand, "hands must list %d hands, one a seat.", g.n)
	}
	var have counts
	limit := g.decks
	for s, h := range hands {
		if len(h) == 0 {
			return refusef(CodeBadCommand, "Seat %d's hand is empty: every seat needs a card.", s)
		}
		for _, c := range h {
			if !c.Valid() {
				return refuse(CodeBadCard, "A hand holds something that isn't a card.")
			}
			have[c]++
			max := limit
			if c == Joker {
				max = limit * g.rules.Jokers
			}
			if int(have[c]) > max {
				if c == Joker && g.rules.Jokers == 0 {
					return refuse(CodeBadCard, "This table plays without jokers.")
				}
				return refusef(CodeBadCard, "There are only %d of %s in %d deck(s).", max, c, limit)
			}
		}
		g.hands[s] = append(g.hands[s], h...)
	}
	return nil
}

// sameDeck refuses a Config.Deck that isn't this table's deck reordered.
func sameDeck(got, want []Card) error {
	if len(got) != len(want) {
		return refusef(CodeBadCommand, "The deck must hold the table's %d cards, not %d.", len(want), len(got))
	}
	var a, b counts
	for _, c := range got {
		if !c.Valid() {
			return refuse(CodeBadCard, "The deck holds something that isn't a card.")
		}
	}
	a.add(got)
	b.add(want)
	if a != b {
		return refuse(CodeBadCard, "The deck isn't this table's deck: a card is missing or doubled.")
	}
	return nil
}

func hasCard(h []Card, c Card) bool {
	for _, x := range h {
		if x == c {
			return true
		}
	}
	return false
}

func (g *Game) emitDeal() {
	sizes := make([]Count, g.n)
	for s, h := range g.hands {
		sizes[s] = Seen(len(h), false, g.rules.Rough)
	}
	rank := g.required()
	g.emit(Event{Type: EventDeal, Seat: g.dealer, Target: g.first, Rank: rank, Counts: sizes})
	// One block for the copies of every hand.
	cp := make([]Card, 0, g.total)
	for s, h := range g.hands {
		at := len(cp)
		cp = append(cp, h...)
		g.emit(Event{Type: EventHand, To: g.only(s), Seat: s, Cards: cp[at:len(cp):len(cp)]})
	}
}

// HandSize is how many cards seat holds.
func (g *Game) HandSize(seat int) int { return len(g.hands[seat]) }

// PileSize is how many cards are on the pile.
func (g *Game) PileSize() int { return len(g.pile) }

// Deadline is when the next timed thing falls due (a call window closing,
// a hand-over running out), and whether there is one.
func (g *Game) Deadline() (time.Duration, bool) { return g.deadline() }

// Tick moves the clock to now and fires every deadline due by then, in
// order. Time never goes back: an earlier now is taken as the current time.
func (g *Game) Tick(now time.Duration) []Event {
	g.runClock(now, func() bool {
		switch g.phase {
		case PhaseCall:
			g.stand(g)
		case PhaseGive:
			g.autoGive()
		}
		return true
	})
	return g.flush()
}

// Clone is a deep copy of the game, for tests, audits and what-ifs.
func (g *Game) Clone() *Game {
	c := *g
	c.hands = make([][]Card, g.n)
	for s, h := range g.hands {
		c.hands[s] = append(make([]Card, 0, cap(h)), h...)
	}
	c.pile = append(make([]Card, 0, cap(g.pile)), g.pile...)
	c.gone = append([]Card(nil), g.gone...)
	c.clone()
	return &c
}

// Conserved checks R17: the hands, the pile and the cards out of the game
// hold exactly the cards dealt.
func (g *Game) Conserved() bool {
	var have counts
	for _, h := range g.hands {
		have.add(h)
	}
	have.add(g.pile)
	have.add(g.gone)
	return have == g.dealt
}

// The clear game's pieces are its cards.
func (g *Game) size(seat int) int      { return len(g.hands[seat]) }
func (g *Game) pileSize() int          { return len(g.pile) }
func (g *Game) goneSize() int          { return len(g.gone) }
func (g *Game) handOf(seat int) []Card { return g.hands[seat] }
func (g *Game) playCards() []Card      { return g.last.cards }

func (g *Game) takePile(seat int) {
	g.hands[seat] = addTo(g.hands[seat], g.pile)
	g.pile = g.pile[:0]
}

func (g *Game) leave() {
	g.gone = append(g.gone, g.pile...)
	g.pile = g.pile[:0]
}

func (g *Game) over() ([][]Card, []Card) {
	hands := make([][]Card, g.n)
	for s, h := range g.hands {
		hands[s] = append([]Card{}, h...)
	}
	return hands, append([]Card{}, g.pile...)
}

func (g *Game) final() *Final {
	f := &Final{Hands: make([][]Card, g.n), Pile: append([]Card{}, g.pile...), Gone: append([]Card{}, g.gone...)}
	for s, h := range g.hands {
		f.Hands[s] = append([]Card{}, h...)
	}
	return f
}
