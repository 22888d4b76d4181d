package engine

import "time"

// table is a game's public state and the rules that run it: whose turn,
// the claims, the windows, the rounds, the hand-overs, the places — all
// that a table needs no card's identity for. The clear Game and the game
// over hidden cards (Blind) both embed it, so the two play one game by
// one set of rules; what each holds of the cards, and what a verdict is
// read from, is theirs. Where a rule moves cards it asks them through
// pieces.
type table struct {
	rules  Rules
	n      int
	decks  int
	cap    int
	total  int
	seen   []Card // of the cards out of the game, the ones turned up
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

// pieces is what holds the cards: the clear Game's cards, or the blind
// game's handles. The rules move them through it.
type pieces interface {
	size(seat int) int // cards in seat's hand
	pileSize() int
	goneSize() int
	takePile(seat int)                   // the whole pile into seat's hand
	leave()                              // the whole pile out of the game
	over() (hands [][]Card, pile []Card) // for the over event, as far as known
	// handOf is seat's hand as far as known, for its view; playCards the
	// last play's cards as far as known; final every card, once over.
	handOf(seat int) []Card
	playCards() []Card
	final() *Final
}

func newTable(r Rules, n int) table {
	t := table{rules: r, n: n, decks: r.DecksFor(n), cap: r.CapFor(n), winner: -1, start: r.Start, prev: NoRank}
	t.placed = make([]int, n)
	t.stats = make([]Stats, n)
	t.round.pending = -1
	t.round.rank = NoRank
	return t
}

// order starts the seats' audiences and the event buffer, once the deal
// is known.
func (t *table) order() {
	t.events = make([]Event, 0, max(t.n+1, 8))
	t.seats = make([]int, t.n)
	for s := range t.seats {
		t.seats[s] = s
	}
}

// clone copies the table's slices for a Clone.
func (t *table) clone() {
	t.seen = append([]Card(nil), t.seen...)
	t.last.cards = append(make([]Card, 0, cap(t.last.cards)), t.last.cards...)
	t.placed = append([]int(nil), t.placed...)
	t.places = append([]int(nil), t.places...)
	t.stats = append([]Stats(nil), t.stats...)
	t.events = make([]Event, 0, cap(t.events))
}

// only is the audience of seat s alone. The engine never writes to it.
func (t *table) only(s int) []int { return t.seats[s : s+1 : s+1] }

// next is the seat after s in turn order (R1, V6), out seats included.
func (t *table) next(s int) int {
	if t.rules.CCW {
		return (s + t.n - 1) % t.n
	}
	return (s + 1) % t.n
}

// nextIn is the next seat after s still holding cards (V8, V15).
func (t *table) nextIn(s int) int {
	for i := 0; i < t.n; i++ {
		s = t.next(s)
		if t.placed[s] == 0 {
			return s
		}
	}
	return s
}

// in is how many seats are still playing.
func (t *table) in() int { return t.n - t.nOut }

// claims is what the next play may claim, as claimRules decides it.
func (t *table) claims() claimRules {
	return claimRules{rules: &t.rules, cap: t.cap, start: t.start, plays: t.plays, prev: t.prev, round: t.round.rank}
}

// rankAt is the rank required of play number no (R5, V2, V3).
func (t *table) rankAt(no int) Rank {
	c := t.claims()
	return c.RankAt(no)
}

// required is the rank the next play must claim, NoRank where it is free.
func (t *table) required() Rank {
	c := t.claims()
	return c.Required()
}

// AllowedRanks lists the ranks the next play may claim; nil when one rank
// is required or any rank goes.
func (t *table) AllowedRanks() []Rank {
	c := t.claims()
	return c.AllowedRanks()
}

func (t *table) emit(e Event) { t.events = append(t.events, e) }

// flush hands back the events of the command just applied. The slice is
// the caller's.
func (t *table) flush() []Event {
	if len(t.events) == 0 {
		return nil
	}
	out := make([]Event, len(t.events))
	copy(out, t.events)
	clear(t.events)
	t.events = t.events[:0]
	return out
}

// Rules is the table's rule set.
func (t *table) Rules() Rules { return t.rules }

// Seats is how many seats the table has.
func (t *table) Seats() int { return t.n }

// Phase is what the table is waiting for.
func (t *table) Phase() Phase { return t.phase }

// Turn is the seat that plays next.
func (t *table) Turn() int { return t.turn }

// Plays is the number of the last play, 0 before any.
func (t *table) Plays() int { return t.plays }

// Now is the time of the last command or tick.
func (t *table) Now() time.Duration { return t.now }

// Over reports whether the game has ended.
func (t *table) Over() bool { return t.phase == PhaseOver }

// Winner is the winning seat, -1 for none (yet).
func (t *table) Winner() int { return t.winner }

// Places is each seat's place once the game is over (1 is first), else nil.
func (t *table) Places() []int { return append([]int(nil), t.places...) }

// Cap is the most cards a claim may hold.
func (t *table) Cap() int { return t.cap }

// Stats are the tallies of every seat, sneaks included: the host's view.
func (t *table) Stats() []Stats { return append([]Stats(nil), t.stats...) }

// deadline is when the next timed thing falls due (a call window closing,
// a hand-over running out), and whether there is one.
func (t *table) deadline() (time.Duration, bool) {
	switch t.phase {
	case PhaseCall:
		return t.win.closes, true
	case PhaseGive:
		return t.give.closes, true
	}
	return 0, false
}

// runClock moves the clock to now, firing every deadline due by then in
// order: fire handles the one at t.now and says whether the clock runs on
// (the blind game stops it to wait for a hand-over's pick). Time never goes
// back: an earlier now is taken as the current time, which it returns.
// Game.Tick and Blind.Tick both run on it.
func (t *table) runClock(now time.Duration, fire func() bool) time.Duration {
	now = max(now, t.now)
	for {
		d, ok := t.deadline()
		if !ok || d > now {
			break
		}
		t.now = d
		if !fire() {
			break
		}
	}
	t.now = now
	return now
}

// checkSeat is the start of every move: the game must be on, the seat real.
func (t *table) checkSeat(seat int) error {
	if t.phase == PhaseOver {
		return ErrGameOver
	}
	if seat < 0 || seat >= t.n {
		return refusef(CodeBadSeat, "There is no seat %d at this table of %d.", seat, t.n)
	}
	return nil
}

func (t *table) touch(now time.Duration) {
	if now > t.now {
		t.now = now
	}
}

// resume restarts the clock of an open window or hand-over at now: a table
// that changed hosts mid-window gives the seats their whole time again. It
// is a journal step like any other, so a replay gives the same game.
// forfeit is play no, seat's, going against seat when it is turned up
// (R10b): only the last play, face down, while it can still be called or
// doubted.
func (t *table) forfeit(seat, no int) error {
	if t.phase == PhaseOver {
		return ErrGameOver
	}
	l := &t.last
	open := t.phase == PhaseCall || (t.rules.Doubt && t.phase == PhasePlay)
	if no == 0 || no != t.plays || l.no != no || l.seat != seat || l.shown || !open {
		return refusef(CodeBadCommand, "Only the last play, still face down, can be forfeited (not seat %d's play %d).", seat, no)
	}
	l.forfeit = true
	return nil
}

// verdict is the truth of the last play as move m judges it: what its
// cards say, unless its player forfeited it (R10b), when it goes against
// the player: a lie when called or doubted, the truth when believed (a
// lie would have the believer take the cards).
func (t *table) verdict(truth bool, m Move) bool {
	if t.last.forfeit {
		return m == MoveBelieve
	}
	return truth
}

func (t *table) resume(now time.Duration) error {
	if t.phase == PhaseOver {
		return ErrGameOver
	}
	t.touch(now)
	switch t.phase {
	case PhaseCall:
		t.win.closes = t.now + t.rules.Window
	case PhaseGive:
		t.give.closes = t.now + GiveTime
	}
	t.emit(Event{Type: EventResume, No: t.plays})
	return nil
}
