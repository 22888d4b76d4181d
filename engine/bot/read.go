package bot

import (
	"math"

	"github.com/bullshit-game/bullshit/engine"
)

// counts is a hand by slot.
func counts(hand []engine.Card) (c [slots]int) {
	for _, x := range hand {
		c[slot(x)]++
	}
	return c
}

// shows reports whether the last play's sizes give it away: a counted hand
// or pile that moved by other than the claim (V12, V14; engine.LooksClean).
func shows(l *engine.Last, rough bool) bool {
	sz := l.Sizes
	return !engine.LooksClean(sz.HandBefore, sz.HandAfter, -l.Claim, false, rough) ||
		!engine.LooksClean(sz.PileBefore, sz.PileAfter, l.Claim, true, rough)
}

// hyper fills p with the chance of drawing x of k marked cards, x = 0…,
// when m cards are drawn from n: the hypergeometric law. It returns how
// many entries it filled.
func hyper(p []float64, n, k, m int) int {
	k = max(0, min(k, n))
	m = max(0, min(m, n))
	top := min(k, m, len(p)-1)
	for i := range p {
		p[i] = 0
	}
	if n == 0 || m == 0 || k == 0 {
		p[0] = 1
		return 1
	}
	lo := max(0, m-(n-k)) // fewer than lo is impossible
	// P(x=lo) = C(k,lo) C(n-k,m-lo) / C(n,m), then walk up.
	q := math.Exp(lchoose(k, lo) + lchoose(n-k, m-lo) - lchoose(n, m))
	for x := lo; x <= top; x++ {
		p[x] = q
		if n-k-m+x+1 <= 0 {
			q = 0
			continue
		}
		q = q * float64(k-x) * float64(m-x) / (float64(x+1) * float64(n-k-m+x+1))
	}
	if top < min(k, m) {
		// Fold the tail into the last entry.
		s := 0.0
		for x := 0; x < top; x++ {
			s += p[x]
		}
		p[top] = max(0, 1-s)
	}
	return top + 1
}

func lchoose(n, k int) float64 {
	if k < 0 || k > n {
		return math.Inf(-1)
	}
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

// mode is how claims are chosen at this table, which decides how likely a
// claim of a rank its player lacks is.
func bluffRate(v *engine.View, m *memory) float64 {
	switch {
	case v.Rules.Doubt:
		if v.Last != nil && v.Round != nil && v.Round.Starter == v.Last.Seat && v.Round.Skips == 0 {
			return 0.05 // the round's starter picked the rank
		}
		return 0.35 // an add: without the rank most skip
	case v.Rules.Sequence == engine.SeqFree:
		return 0.05
	case v.Rules.Sequence == engine.SeqNear || v.Rules.Sequence == engine.SeqNearStrict:
		return 0.3
	}
	return 1
}

// odds is a reading of the last play: the chance it is a lie, and whether
// that is certain.
type odds struct {
	p    float64
	sure bool
}

// pLie reads the last play at this bot's level. Easy knows its own hand;
// medium also the cards turned up and out of the game; hard also its own
// cards in the pile, the cards it saw go into each hand, and the sizes of
// every hand and the pile through the whole game.
func (b *Bot) pLie(v *engine.View) odds {
	l := v.Last
	m := &b.mem
	s := l.Seat
	r := int(l.Rank)
	if r < 0 || r >= engine.NumRanks || s < 0 || s >= m.n {
		return odds{p: 0.5}
	}
	k := l.Claim
	total := m.total[r] + m.total[joker]
	located, locatedAll, c0, certS := b.locate(v, r, s)
	avail := total - located
	if k > avail {
		return odds{p: 1, sure: true}
	}
	h := b.handBefore(v)
	if v.Rules.Doubt && b.level == Hard {
		// In I Doubt It nobody has to lie (a seat may always skip), so
		// how often this player's plays turned up were lies says more
		// than any count: from one in six.
		sm := &m.seats[s]
		p := (float64(sm.caught) + 1) / (float64(sm.shown) + 6)
		if v.Round != nil && v.Round.Starter == s && v.Round.Skips == 0 {
			p *= 0.3 // the round's starter named a rank it chose
		}
		return odds{p: p}
	}
	if seqRules(&v.Rules) && c0 == 0 {
		p := classicP(k, avail, total, h)
		if v.Rules.Sneak > 0 || (v.Rules.CountLies && v.Rules.Rough) {
			p = 1 - (1-p)*(1-b.pSneak(v))
		}
		return odds{p: p}
	}
	pool := m.all - locatedAll - certS
	draws := int(math.Round(h)) - certS
	p := b.pHeld(v, k, c0, pool, avail, draws)
	if v.Rules.Sneak > 0 || (v.Rules.CountLies && v.Rules.Rough) {
		ps := b.pSneak(v)
		p = 1 - (1-p)*(1-ps)
	}
	return odds{p: p}
}

// matching is how many cards of a count match rank r, jokers included.
func matching(a *[slots]int, r int) int { return a[r] + a[joker] }

// cardsIn is how many cards a count holds.
func cardsIn(a *[slots]int) (t int) {
	for _, x := range a {
		t += x
	}
	return t
}

// locate is what this bot's level lets it place of the cards matching
// rank r: how many are located away from the claimant s (and how many
// cards in all), and how many matching, of how many, it knows s held.
func (b *Bot) locate(v *engine.View, r, s int) (located, locatedAll, c0, certS int) {
	m := &b.mem
	mine := counts(v.Hand)
	located = matching(&mine, r)
	locatedAll = len(v.Hand)
	if b.level >= Medium {
		located += matching(&m.gone, r)
		locatedAll += cardsIn(&m.gone) + m.hidden
	}
	if b.level == Hard {
		located += matching(&m.pile, r)
		locatedAll += m.pileN
		for t := range m.seats {
			if t == m.seat {
				continue
			}
			cert := &m.seats[t].cert
			if t == s && m.last.live && m.last.seat == s {
				cert = &m.last.before
			}
			if t == s {
				c0, certS = matching(cert, r), cardsIn(cert)
				continue
			}
			located += matching(cert, r)
			locatedAll += cardsIn(cert)
		}
	}
	return located, locatedAll, c0, certS
}

// handBefore is the claimant's hand before the play: the middle of what
// this bot knows of it.
func (b *Bot) handBefore(v *engine.View) float64 {
	m := &b.mem
	s := v.Last.Seat
	if b.level == Hard && m.last.live && m.last.seat == s {
		lo, hi := m.last.lo, m.last.hi
		if hi < 0 {
			hi = lo + 4
		}
		return float64(lo+hi) / 2
	}
	c := v.Last.Sizes.HandBefore
	hi := c.Hi
	if hi < 0 {
		hi = c.Lo + 4
	}
	return float64(c.Lo+hi) / 2
}

// pHeld is the chance a claim of k is a lie, from how many matching cards
// the claimant likely held: c0 known, the rest drawn from pool cards of
// which avail-c0 match.
func (b *Bot) pHeld(v *engine.View, k, c0, pool, avail, draws int) float64 {
	var pj [9]float64
	hyper(pj[:], pool, avail-c0, draws)
	// J = c0 + x copies held before the play.
	held := func(j int) float64 {
		x := j - c0
		if x < 0 || x >= len(pj) {
			return 0
		}
		return pj[x]
	}
	capn := max(v.Cap, 1)
	bluff := bluffRate(v, &b.mem)
	var lie, truth float64
	for j := 0; j <= c0+len(pj)-1; j++ {
		pr := held(j)
		if pr == 0 {
			continue
		}
		full := min(j, capn)
		switch {
		case j == 0:
			lie += pr * bluff * bluffK(k)
		case k > j:
			// A pad: the copies it held and a wrong card or more.
			lie += pr * 0.05 * math.Pow(0.1, float64(k-j-1))
		case k == full:
			truth += pr * 0.9
		default:
			truth += pr * 0.05
		}
	}
	if lie+truth > 0 {
		return lie / (lie + truth)
	}
	return 0.5
}

// seqRules reports whether claims follow a sequence, each seat claiming
// the rank it is asked for, as in the standard game.
func seqRules(r *engine.Rules) bool {
	return !r.Doubt && (r.Sequence == engine.SeqUp || r.Sequence == engine.SeqDown)
}

// classicP is the chance a claim of k is a lie where the rank is asked for,
// given avail of its total copies unaccounted for and the claimant's hand
// before the play: measured over a hundred thousand claims of bots playing
// the standard game (a player holding the rank usually holds several, so a
// lone card claimed while every copy is out is a lie about half the time).
func classicP(k, avail, total int, hand float64) float64 {
	if k >= 3 {
		return 0.002
	}
	a := float64(avail) * 4 / float64(max(total, 1))
	if k == 2 {
		return 0.04 + 0.012*max(a-2, 0)
	}
	switch {
	case a <= 1.5:
		return max(0.02, min(0.3, 0.02*hand-0.05))
	case a <= 2.5:
		return 0.32
	case a <= 3.5:
		return 0.23
	}
	return 0.45 + 0.005*max(hand-8, 0)
}

func bluffK(k int) float64 {
	switch k {
	case 1:
		return 0.8
	case 2:
		return 0.17
	}
	return 0.002
}

// pSneak is the chance something was slipped under the last play, from how
// the hand and the pile were seen to change (seed 002's _p_sneak): of the
// true sizes the counts allow, how many give what was seen with no sneak,
// and how many with one or two, each weighted by a prior that grows with
// the player's caught lies.
func (b *Bot) pSneak(v *engine.View) float64 {
	l := v.Last
	m := &b.mem
	if b.level == Easy {
		return 0
	}
	rough := v.Rules.Rough
	sz := l.Sizes
	most := v.Rules.Sneak
	if v.Rules.CountLies {
		most = max(most, v.Cap+v.Rules.Sneak-l.Claim)
	}
	if most <= 0 {
		return 0
	}
	var sm seatMem
	if l.Seat >= 0 && l.Seat < m.n {
		sm = m.seats[l.Seat]
	}
	prior := min(0.5, 0.2+0.06*float64(sm.caught))
	hlo, hhi := sz.HandBefore.Lo, sz.HandBefore.Hi
	plo, phi := sz.PileBefore.Lo, sz.PileBefore.Hi
	if b.level == Hard {
		// The seat's habit, as its sizes and its plays turned up tell it,
		// from one sneaker in five.
		llr := sm.llr
		if m.last.live && m.last.seat == l.Seat {
			llr = m.last.llr
		}
		w := 1 / (1 + math.Exp(-(llr - math.Log(4))))
		prior = habitHonest + (habitSneaker-habitHonest)*w
		if m.last.live && m.last.seat == l.Seat {
			hlo, hhi = clamp(m.last.lo, m.last.hi, sz.HandBefore)
			plo, phi = clamp(m.last.pileLo, m.last.pileHi, sz.PileBefore)
		}
	}
	clean, sneaky := sizeLikelihoods(hlo, hhi, plo, phi, l.Claim, most, sz, rough)
	clean *= 1 - prior
	sneaky *= prior
	if clean+sneaky == 0 {
		return 1
	}
	return sneaky / (clean + sneaky)
}

// sizeLikelihoods is how well a play of claim cards fits what the table saw
// of the hand and the pile, if nothing was slipped under it (clean) and on
// average if 1…most cards were (sneaky), the true sizes before the play
// being anywhere in [hlo, hhi] and [plo, phi] (hi -1: unbounded).
func sizeLikelihoods(hlo, hhi, plo, phi, claim, most int, sz engine.Sizes, rough bool) (clean, sneaky float64) {
	if hhi < 0 {
		hhi = hlo + 40
	}
	if phi < 0 {
		phi = plo + 40
	}
	frac := func(lo, hi, d int, pile bool, after engine.Count) float64 {
		ok := 0
		for n := lo; n <= hi; n++ {
			x := n + d
			if x >= 0 && engine.Seen(x, pile, rough) == after {
				ok++
			}
		}
		return float64(ok) / float64(hi-lo+1)
	}
	for j := 0; j <= most; j++ {
		like := frac(hlo, hhi, -claim-j, false, sz.HandAfter) * frac(plo, phi, claim+j, true, sz.PileAfter)
		if j == 0 {
			clean = like
		} else {
			sneaky += like / float64(most)
		}
	}
	return clean, sneaky
}
