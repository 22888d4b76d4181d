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
	First *int     // the seat to play first; nil lets the rules decide (R4, V10)
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
	rules  Rules
	n      int
	decks  int
	cap    int
	dealt  counts // the cards at the table, for R17
	total  int
	hands  [][]Card
	pile   []Card
	gone   []Card // out of the game (V9, V15)
	seen   []Card // of gone, the ones turned up
	dealer int
	first  int
	start  Rank

	phase  Phase
	turn   int
	now    time.Duration
	plays  int
	prev   Rank // the rank last claimed (V4, V15)
	last   play
	win    window
	give   give
	round  round
	placed []int // V8/V15: each seat's place once out, 0 while in
	nOut   int
	winner int
	places []int
	stats  []Stats

	events []Event
	seats  []int // 0 … n-1: each seat's own audience is seats[s:s+1]
}

// New deals a game. It returns the deal's events: the public deal and each
// seat's own hand.
func New(cfg Config) (*Game, []Event, error) {
	r := cfg.Rules
	if err := r.Check(cfg.Seats); err != nil {
		return nil, nil, err
	}
	n := cfg.Seats
	g := &Game{rules: r, n: n, decks: r.DecksFor(n), cap: r.CapFor(n), winner: -1, start: r.Start, prev: NoRank}
	g.hands = make([][]Card, n)
	g.placed = make([]int, n)
	g.stats = make([]Stats, n)
	g.round.pending = -1
	g.round.rank = NoRank
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
		cards := deck(g.decks, r.Jokers)
		rng.Shuffle(len(cards), func(i, j int) { cards[i], cards[j] = cards[j], cards[i] })
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
	g.events = make([]Event, 0, max(n+1, 8))
	g.seats = make([]int, n)
	for s := range g.seats {
		g.seats[s] = s
	}
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

// only is the audience of seat s alone. The engine never writes to it.
func (g *Game) only(s int) []int { return g.seats[s : s+1 : s+1] }

// next is the seat after s in turn order (R1, V6), out seats included.
func (g *Game) next(s int) int {
	if g.rules.CCW {
		return (s + g.n - 1) % g.n
	}
	return (s + 1) % g.n
}

// nextIn is the next seat after s still holding cards (V8, V15).
func (g *Game) nextIn(s int) int {
	for i := 0; i < g.n; i++ {
		s = g.next(s)
		if g.placed[s] == 0 {
			return s
		}
	}
	return s
}

// in is how many seats are still playing.
func (g *Game) in() int { return g.n - g.nOut }

// rankAt is the rank required of play number no (R5, V2, V3).
func (g *Game) rankAt(no int) Rank {
	step := (no - 1) % NumRanks
	if g.rules.Sequence == SeqDown {
		step = -step
	}
	return Rank(((int(g.start)+step)%NumRanks + NumRanks) % NumRanks)
}

// required is the rank the next play must claim, NoRank where it is free.
func (g *Game) required() Rank {
	if g.rules.Doubt {
		return g.round.rank
	}
	switch g.rules.Sequence {
	case SeqUp, SeqDown:
		return g.rankAt(g.plays + 1)
	}
	return NoRank
}

// allowed reports whether the next play may claim r.
func (g *Game) allowed(r Rank) bool {
	if !r.Valid() {
		return false
	}
	if g.rules.Doubt {
		return g.round.rank == NoRank || r == g.round.rank
	}
	switch g.rules.Sequence {
	case SeqUp, SeqDown:
		return r == g.required()
	case SeqNear, SeqNearStrict:
		if g.prev == NoRank {
			return true
		}
		d := (int(r) - int(g.prev) + NumRanks) % NumRanks
		return d == 1 || d == NumRanks-1 || (d == 0 && g.rules.Sequence == SeqNear)
	}
	return true
}

// AllowedRanks lists the ranks the next play may claim; nil when one rank
// is required or any rank goes.
func (g *Game) AllowedRanks() []Rank {
	if g.rules.Doubt || (g.rules.Sequence != SeqNear && g.rules.Sequence != SeqNearStrict) || g.prev == NoRank {
		return nil
	}
	var out []Rank
	for _, d := range []int{-1, 0, 1} {
		if d == 0 && g.rules.Sequence == SeqNearStrict {
			continue
		}
		out = append(out, Rank((int(g.prev)+d+NumRanks)%NumRanks))
	}
	return out
}

func (g *Game) emit(e Event) { g.events = append(g.events, e) }

// flush hands back the events of the command just applied. The slice is
// the caller's.
func (g *Game) flush() []Event {
	if len(g.events) == 0 {
		return nil
	}
	out := make([]Event, len(g.events))
	copy(out, g.events)
	clear(g.events)
	g.events = g.events[:0]
	return out
}

// Rules is the table's rule set.
func (g *Game) Rules() Rules { return g.rules }

// Seats is how many seats the table has.
func (g *Game) Seats() int { return g.n }

// Phase is what the table is waiting for.
func (g *Game) Phase() Phase { return g.phase }

// Turn is the seat that plays next.
func (g *Game) Turn() int { return g.turn }

// Plays is the number of the last play, 0 before any.
func (g *Game) Plays() int { return g.plays }

// Now is the time of the last command or tick.
func (g *Game) Now() time.Duration { return g.now }

// Over reports whether the game has ended.
func (g *Game) Over() bool { return g.phase == PhaseOver }

// Winner is the winning seat, -1 for none (yet).
func (g *Game) Winner() int { return g.winner }

// Places is each seat's place once the game is over (1 is first), else nil.
func (g *Game) Places() []int { return append([]int(nil), g.places...) }

// HandSize is how many cards seat holds.
func (g *Game) HandSize(seat int) int { return len(g.hands[seat]) }

// PileSize is how many cards are on the pile.
func (g *Game) PileSize() int { return len(g.pile) }

// Cap is the most cards a claim may hold.
func (g *Game) Cap() int { return g.cap }

// Stats are the tallies of every seat, sneaks included: the host's view.
func (g *Game) Stats() []Stats { return append([]Stats(nil), g.stats...) }

// Deadline is when the next timed thing falls due (a call window closing,
// a hand-over running out), and whether there is one.
func (g *Game) Deadline() (time.Duration, bool) {
	switch g.phase {
	case PhaseCall:
		return g.win.closes, true
	case PhaseGive:
		return g.give.closes, true
	}
	return 0, false
}

// Tick moves the clock to now and fires every deadline due by then, in
// order. Time never goes back: an earlier now is taken as the current time.
func (g *Game) Tick(now time.Duration) []Event {
	if now < g.now {
		now = g.now
	}
	for {
		d, ok := g.Deadline()
		if !ok || d > now {
			break
		}
		g.now = d
		switch g.phase {
		case PhaseCall:
			g.stand()
		case PhaseGive:
			g.autoGive()
		}
	}
	g.now = now
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
	c.seen = append([]Card(nil), g.seen...)
	c.last.cards = append(make([]Card, 0, cap(g.last.cards)), g.last.cards...)
	c.placed = append([]int(nil), g.placed...)
	c.places = append([]int(nil), g.places...)
	c.stats = append([]Stats(nil), g.stats...)
	c.events = make([]Event, 0, cap(g.events))
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
