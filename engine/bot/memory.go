package bot

import (
	"math"

	"github.com/bullshit-game/bullshit/engine"
)

// slots are the thirteen ranks and the joker, which matches any claim.
const slots = engine.NumRanks + 1

const joker = engine.NumRanks

func slot(c engine.Card) int {
	if c == engine.Joker {
		return joker
	}
	return int(c.Rank())
}

// seatMem is what a bot knows of another seat.
type seatMem struct {
	// cert are cards the seat surely holds: they were in a pile it took
	// that this bot had seen into, or this bot handed them over, and the
	// seat hasn't played enough cards since to have parted with them.
	cert [slots]int
	// soft is the best guess of the same: cert, plus the claims in the
	// piles it took, minus the claims it made since.
	soft [slots]float64
	// lo, hi bound the seat's true hand size (hi -1: unknown), narrowed by
	// every count the table showed.
	lo, hi int
	// caught counts its lies and sneaks turned up; shown its plays turned
	// up, and sneaks those of them with cards slipped under.
	caught, shown, sneaks int
	// llr is the evidence, in log odds, that this seat sneaks as a habit
	// (seven plays in ten) rather than hardly ever (one in fifty): every
	// play's sizes and every play turned up add to it.
	llr float64
}

// The habits weighed by seatMem.llr.
const (
	habitSneaker = 0.7
	habitHonest  = 0.02
)

// lastPlay is the play waiting on its window, as this bot saw it.
type lastPlay struct {
	seat, no, claim int
	rank            engine.Rank
	sizes           engine.Sizes
	out             bool
	before          [slots]int // the player's cert before the play
	lo, hi          int        // the player's hand size before the play
	pileLo, pileHi  int        // the pile's size before the play
	llr             float64    // the player's sneaking habit before the play
	live            bool
}

// memory is what a bot has seen in this game: the sizes the table showed,
// the cards it saw go where, the claims still buried in the pile.
type memory struct {
	seat  int
	n     int
	ready bool
	rules engine.Rules
	known bool // rules known (from a view)

	total  [slots]int // cards of each rank at the table
	all    int
	gone   [slots]int // out of the game, face up
	hidden int        // out of the game face down (V15)

	pile      [slots]int // cards this bot knows are in the pile: its own plays
	pileN     int
	claims    [slots]int // other seats' claims buried in the pile, unrevealed
	pileLo    int
	pileHi    int
	seats     []seatMem
	last      lastPlay
	dealt     bool
	sneakSeen bool
	// early holds the events seen before the first view told the rules;
	// they are read once the rules are known.
	early []engine.Event
}

func (m *memory) start(n int) {
	m.n = n
	if cap(m.seats) >= n {
		m.seats = m.seats[:n]
		clear(m.seats)
	} else {
		m.seats = make([]seatMem, n)
	}
	for i := range m.seats {
		m.seats[i].hi = -1
	}
	m.ready = true
}

// sync learns the rules and narrows every size to what the view shows. A
// bot that takes over a seat mid-game starts its memory here.
func (m *memory) sync(v *engine.View) {
	if !m.ready {
		if len(v.Hands) == 0 {
			return // no table to size yet (a view before the deal): the deal starts the memory
		}
		m.start(len(v.Hands))
	}
	if !m.known {
		m.rules, m.known = v.Rules, true
		decks := v.Rules.DecksFor(m.n)
		for r := 0; r < engine.NumRanks; r++ {
			m.total[r] = 4 * decks
		}
		m.total[joker] = v.Rules.Jokers * decks
		m.all = 0
		for _, t := range m.total {
			m.all += t
		}
		early := m.early
		m.early = nil
		for i := range early {
			m.apply(&early[i])
		}
	}
	for s := range m.seats {
		if s < len(v.Hands) {
			m.narrow(s, v.Hands[s])
		}
	}
	if m.seat >= 0 && m.seat < m.n {
		h := len(v.Hand)
		m.seats[m.seat].lo, m.seats[m.seat].hi = h, h
	}
	m.pileLo, m.pileHi = clamp(m.pileLo, m.pileHi, v.Pile)
}

// clamp narrows [lo, hi] to what count c shows; if they don't meet (a
// memory begun mid-game), the count wins.
func clamp(lo, hi int, c engine.Count) (int, int) {
	clo, chi := c.Lo, c.Hi
	if chi < 0 {
		chi = 1 << 20
	}
	if hi < 0 {
		hi = 1 << 20
	}
	nlo, nhi := max(lo, clo), min(hi, chi)
	if nlo > nhi {
		nlo, nhi = clo, chi
	}
	if nhi >= 1<<20 {
		nhi = -1
	}
	return nlo, nhi
}

func (m *memory) narrow(s int, c engine.Count) {
	sm := &m.seats[s]
	sm.lo, sm.hi = clamp(sm.lo, sm.hi, c)
}

// size is the best single guess of seat s's hand size.
func (m *memory) size(s int) float64 {
	sm := &m.seats[s]
	if sm.hi < 0 {
		return float64(sm.lo) + 3
	}
	return float64(sm.lo+sm.hi) / 2
}

func (m *memory) pileSize() float64 {
	if m.pileHi < 0 {
		return float64(m.pileLo) + 4
	}
	return float64(m.pileLo+m.pileHi) / 2
}

// extra is how many cards a play may place beyond its claim, and how many
// fewer (count lies).
func (m *memory) extra(claim int) (more, fewer int) {
	more = m.rules.Sneak
	if !m.known {
		more = 3
	}
	if m.rules.CountLies {
		capn := m.rules.CapFor(max(m.n, 2))
		more = max(more, capn+m.rules.Sneak-claim)
		fewer = claim - 1
	}
	return more, fewer
}

func (m *memory) observe(e *engine.Event) {
	if !m.ready {
		if e.Type != engine.EventDeal || len(e.Counts) == 0 {
			return
		}
		m.start(len(e.Counts))
	}
	if !m.known {
		m.early = append(m.early, *e)
		return
	}
	m.apply(e)
}

// apply learns what e tells of the cards: one case per event type, so it
// runs long.
func (m *memory) apply(e *engine.Event) {
	switch e.Type {
	case engine.EventDeal:
		// Every card is dealt one at a time from the seat after the
		// dealer (R3), so each hand's size is known exactly, however
		// roughly the table shows it.
		step := 1
		if m.rules.CCW {
			step = m.n - 1
		}
		from := e.Seat + step
		if m.rules.First.Random {
			from = e.Target
		}
		from = (from%m.n + m.n) % m.n // a seat off the table (a peer's event) still sizes every hand
		for i, s := 0, from; i < m.n; i, s = i+1, (s+step)%m.n {
			size := m.all / m.n
			if i < m.all%m.n {
				size++
			}
			m.seats[s].lo, m.seats[s].hi = size, size
		}
		for s, c := range e.Counts {
			if s < m.n {
				m.narrow(s, c)
			}
		}
		m.pileLo, m.pileHi = 0, 0
		m.dealt = true
	case engine.EventQuads:
		for _, c := range e.Cards {
			m.gone[slot(c)]++
		}
		if e.Seat != m.seat && e.Seat < m.n {
			sm := &m.seats[e.Seat]
			r := int(e.Rank)
			sm.cert[r] = max(0, sm.cert[r]-4)
			sm.soft[r] = max(0, sm.soft[r]-4)
			sm.lo, sm.hi = max(0, sm.lo-4), dec(sm.hi, 4)
		}
	case engine.EventPlay:
		m.play(e)
	case engine.EventMine:
		for _, c := range e.Cards {
			m.pile[slot(c)]++
		}
		m.pileN += len(e.Cards)
		if m.last.live && m.last.seat == m.seat {
			m.pileLo, m.pileHi = m.last.pileLo+len(e.Cards), inc(m.last.pileHi, len(e.Cards))
		}
	case engine.EventReveal:
		m.reveal(e)
	case engine.EventTake:
		m.take(e)
	case engine.EventStand:
		m.last.live = false
	case engine.EventHanded:
		if e.Seat == m.seat && e.Target < m.n {
			sm := &m.seats[e.Target]
			for _, c := range e.Cards {
				sm.cert[slot(c)]++
				sm.soft[slot(c)]++
			}
		}
	case engine.EventGive:
		n := e.Count.Lo
		if e.Seat < m.n && e.Target < m.n {
			f, t := &m.seats[e.Seat], &m.seats[e.Target]
			f.lo, f.hi = max(0, f.lo-n), dec(f.hi, n)
			t.lo, t.hi = t.lo+n, inc(t.hi, n)
		}
	case engine.EventLeave:
		// The round's cards leave the game (V15): those this bot knew of
		// face up, the rest face down.
		for i, k := range m.pile {
			m.gone[i] += k
		}
		// A play turned up before it left was counted into the pile then.
		known := m.pileN
		m.hidden += max(0, (m.pileLo+max(m.pileHi, m.pileLo))/2-known)
		m.clearPile()
	case engine.EventRound:
		m.last.live = false
	}
}

func dec(hi, n int) int {
	if hi < 0 {
		return -1
	}
	return max(0, hi-n)
}

func inc(hi, n int) int {
	if hi < 0 {
		return -1
	}
	return hi + n
}

func (m *memory) clearPile() {
	m.pile = [slots]int{}
	m.claims = [slots]int{}
	m.pileN, m.pileLo, m.pileHi = 0, 0, 0
}

func (m *memory) play(e *engine.Event) {
	s := e.Seat
	if s < 0 || s >= m.n {
		return
	}
	sm := &m.seats[s]
	sz := e.Sizes
	sm.lo, sm.hi = clamp(sm.lo, sm.hi, sz.HandBefore)
	m.pileLo, m.pileHi = clamp(m.pileLo, m.pileHi, sz.PileBefore)
	m.last = lastPlay{seat: s, no: e.No, claim: e.Claim, rank: e.Rank, sizes: sz, out: e.Out,
		before: sm.cert, lo: sm.lo, hi: sm.hi, pileLo: m.pileLo, pileHi: m.pileHi, llr: sm.llr, live: true}
	more, fewer := m.extra(e.Claim)
	placedLo, placedHi := e.Claim-fewer, e.Claim+more
	if s != m.seat && m.known && m.rules.Sneak > 0 && m.rules.Rough {
		clean, sneaky := sizeLikelihoods(sm.lo, sm.hi, m.pileLo, m.pileHi, e.Claim, m.rules.Sneak, sz, true)
		if a, b := (1-habitSneaker)*clean+habitSneaker*sneaky, (1-habitHonest)*clean+habitHonest*sneaky; a > 0 && b > 0 {
			sm.llr += math.Log(a / b)
		} else if a > 0 {
			sm.llr += 5
		}
	}
	if s == m.seat {
		placedLo, placedHi = e.Claim, e.Claim+more // the mine event sets the pile exactly
	}
	sm.lo, sm.hi = max(0, sm.lo-placedHi), dec(sm.hi, placedLo)
	sm.lo, sm.hi = clamp(sm.lo, sm.hi, sz.HandAfter)
	m.pileLo, m.pileHi = m.pileLo+placedLo, inc(m.pileHi, placedHi)
	m.pileLo, m.pileHi = clamp(m.pileLo, m.pileHi, sz.PileAfter)
	if s == m.seat {
		return
	}
	// The cards it put down are unseen: any of the ones it surely held
	// may be among them.
	for i := range sm.cert {
		sm.cert[i] = max(0, sm.cert[i]-placedHi)
	}
	r := int(e.Rank)
	if r >= 0 && r < engine.NumRanks {
		sm.soft[r] = max(0, sm.soft[r]-float64(e.Claim))
		m.claims[r] += e.Claim
	}
}

func (m *memory) reveal(e *engine.Event) {
	s := e.Seat
	if s < 0 || s >= m.n {
		return
	}
	m.seats[s].shown++
	if e.Sneaked > 0 {
		m.seats[s].llr += math.Log(habitSneaker / habitHonest)
	} else {
		m.seats[s].llr += math.Log((1 - habitSneaker) / (1 - habitHonest))
	}
	if !e.Truth {
		m.seats[s].caught++
		if e.Sneaked > 0 {
			m.sneakSeen = true
			m.seats[s].sneaks++
		}
	}
	if s == m.seat {
		return
	}
	sm := &m.seats[s]
	if m.last.live && m.last.seat == s && m.last.no == e.No {
		// Now the cards are known: undo the guess and count them exactly.
		sm.cert = m.last.before
		n := len(e.Cards)
		sm.lo, sm.hi = max(0, m.last.lo-n), dec(m.last.hi, n)
		sm.lo, sm.hi = clamp(sm.lo, sm.hi, m.last.sizes.HandAfter)
		m.pileLo, m.pileHi = m.last.pileLo+n, inc(m.last.pileHi, n)
		r := int(m.last.rank)
		if r >= 0 && r < engine.NumRanks {
			m.claims[r] = max(0, m.claims[r]-m.last.claim)
		}
	}
	for _, c := range e.Cards {
		i := slot(c)
		sm.cert[i] = max(0, sm.cert[i]-1)
		sm.soft[i] = max(0, sm.soft[i]-1)
		m.pile[i]++
	}
	m.pileN += len(e.Cards)
}

// take is a seat taking the pile: what this bot knew of the pile is now
// known to be in that hand.
func (m *memory) take(e *engine.Event) {
	t := e.Seat
	m.last.live = false
	if t < 0 || t >= m.n {
		m.clearPile()
		return
	}
	lo, hi := clamp(m.pileLo, m.pileHi, e.Count)
	sm := &m.seats[t]
	old := sm.hi
	sm.lo, sm.hi = sm.lo+lo, -1
	if hi >= 0 && old >= 0 {
		sm.hi = old + hi
	}
	if t != m.seat {
		for i, k := range m.pile {
			sm.cert[i] += k
			sm.soft[i] += float64(k)
		}
		for i, k := range m.claims {
			sm.soft[i] += 0.6 * float64(k)
		}
	}
	m.clearPile()
}
