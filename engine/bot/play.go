package bot

import (
	"math"

	"github.com/bullshit-game/bullshit/engine"
)

// play is the bot's move on its own turn.
func (b *Bot) play(v *engine.View) engine.Command {
	r := &v.Rules
	hand := v.Hand
	c := counts(hand)
	capn := max(v.Cap, 1)
	if r.Quads && len(hand) > 4 {
		if q := quadsToLay(v, &c, capn); q != nil {
			return engine.Command{Move: engine.MoveQuads, Cards: q}
		}
	}
	if r.Doubt && v.Round != nil && v.Last != nil {
		return b.judge(v, &c)
	}
	rank := b.claimRank(v, &c)
	cards := b.cards[:0]
	for _, x := range hand {
		if x != engine.Joker && x.Rank() == rank && len(cards) < capn {
			cards = append(cards, x)
		}
	}
	if b.level == Easy && len(cards) > 1 && b.rng.Float64() < 0.35 {
		// Loose play: holds some of the rank back for no good reason.
		cards = cards[:1+b.rng.IntN(len(cards)-1)]
	}
	if len(cards) == 0 && c[joker] > 0 {
		cards = append(cards, engine.Joker)
	}
	matching := c[rank] + c[joker]
	if matching == len(hand) && len(hand) <= capn {
		// Every card fits the claim: go out on a true play.
		cards = append(cards[:0], hand...)
	}
	truth := len(cards) > 0
	switch {
	case b.level == Hard && seqRules(r) && len(hand) > 1:
		if e := b.overclaim(v, rank, len(cards), capn); e > 0 {
			cards = append(cards, b.pick(v, e, cards)...)
		} else if !truth {
			cards = append(cards, b.pick(v, 1, nil)...)
		}
	case truth:
		// A pad: a wrong card slipped into a true claim, never on a play
		// that would empty the hand (those are always called).
		pad := b.style.Pad
		if b.level == Easy {
			pad += 0.25
		}
		if len(cards) < capn && len(hand) > len(cards)+1 && b.rng.Float64() < pad {
			cards = append(cards, b.pick(v, 1, cards)...)
		}
	default:
		n := 1
		two := b.style.Two
		if b.level == Easy {
			two += 0.3
		}
		if len(hand) > 2 && capn > 1 && b.rng.Float64() < two {
			n = 2
		}
		cards = append(cards, b.pick(v, n, nil)...)
	}
	claim := len(cards)
	cards = append(cards, b.sneak(v, claim, cards)...)
	b.cards = cards
	return engine.Command{Move: engine.MovePlay, Cards: append([]engine.Card(nil), cards...), Claim: claim, Rank: rank}
}

// quadsToLay is four of a kind worth laying out of the game, or nil: any
// but the rank to claim now, unless there are more of it than one play
// may hold.
func quadsToLay(v *engine.View, c *[slots]int, capn int) []engine.Card {
	for rk := 0; rk < engine.NumRanks; rk++ {
		if c[rk] >= 4 && (engine.Rank(rk) != v.Rank || c[rk] > capn) {
			var q []engine.Card
			for _, x := range v.Hand {
				if slot(x) == rk && len(q) < 4 {
					q = append(q, x)
				}
			}
			return q
		}
	}
	return nil
}

// claimRank is the rank to claim: the one asked for, or, when the bot may
// name one, its choice (easy's now and then at random).
func (b *Bot) claimRank(v *engine.View, c *[slots]int) engine.Rank {
	rank := v.Rank
	if !rank.Valid() {
		hand := v.Hand
		rank = freeRank(v, c)
		if b.level == Easy && b.rng.Float64() < 0.3 {
			rank = engine.Rank(slot(hand[b.rng.IntN(len(hand))]) % engine.NumRanks)
			if len(v.Ranks) > 0 {
				rank = v.Ranks[b.rng.IntN(len(v.Ranks))]
			}
		}
	}
	return rank
}

// pick is n cards to part with, not counting those in skip: the least
// useful for medium and hard, any for easy.
func (b *Bot) pick(v *engine.View, n int, skip []engine.Card) []engine.Card {
	if b.level == Easy && b.rng.Float64() < 0.7 {
		out := make([]engine.Card, 0, n)
		used := make([]bool, len(v.Hand))
		for _, c := range skip {
			for i, x := range v.Hand {
				if !used[i] && x == c {
					used[i] = true
					break
				}
			}
		}
		for len(out) < n {
			free := 0
			for _, u := range used {
				if !u {
					free++
				}
			}
			if free == 0 {
				break
			}
			k := b.rng.IntN(free)
			for i, u := range used {
				if u {
					continue
				}
				if k == 0 {
					used[i] = true
					out = append(out, v.Hand[i])
					break
				}
				k--
			}
		}
		return out
	}
	return leastUseful(v, n, skip)
}

// sneak is the cards slipped under a claim of claim cards (V14; with V12
// and rough counts, the same thing): never the last card, never past the
// style's, the table's or the hand's limit, and, unless the bot is easy or
// reckless this time, only what the hand's and the pile's counts won't show.
func (b *Bot) sneak(v *engine.View, claim int, played []engine.Card) []engine.Card {
	r := &v.Rules
	if r.Doubt || b.style.Sneak <= 0 {
		return nil
	}
	most := r.Sneak
	if r.CountLies && r.Rough {
		most = max(most, v.Cap+r.Sneak-claim)
	}
	if r.Sneak == 0 && !r.Rough {
		most = 0
	}
	if b.style.Most > 0 {
		most = min(most, b.style.Most)
	}
	most = min(most, len(v.Hand)-len(played)-1)
	if most <= 0 || b.rng.Float64() >= b.style.Sneak {
		return nil
	}
	check := b.level > Easy && b.rng.Float64() >= b.style.Reckless
	n := most
	if check {
		for n > 0 && !b.hides(v, claim, len(played)+n-claim) {
			n--
		}
		if n == 0 {
			return nil
		}
	}
	return b.pick(v, n, played)
}

// hides reports whether putting down claim+extra cards while claiming claim
// would look like the claim alone, to anyone counting the hand and the
// pile, for every pile size this bot thinks possible. Medium and easy ask
// engine.LooksClean, which judges from the counts the table shows. Hard
// also minds readers who have kept exact count since the deal: it sneaks
// only where the hand and the pile land in the very count an honest play
// would show.
func (b *Bot) hides(v *engine.View, claim, extra int) bool {
	rough := v.Rules.Rough
	h := len(v.Hand)
	placed := claim + extra
	after := engine.Seen(h-placed, false, rough)
	if !engine.LooksClean(engine.Seen(h, false, rough), after, -claim, false, rough) {
		return false
	}
	strict := b.level == Hard && b.style.Name == "careful"
	if strict && engine.Seen(h-claim, false, rough) != after {
		return false
	}
	lo, hi := clamp(b.mem.pileLo, b.mem.pileHi, v.Pile)
	if hi < 0 {
		hi = lo + 40
	}
	for p := lo; p <= hi; p++ {
		pa := engine.Seen(p+placed, true, rough)
		if !engine.LooksClean(engine.Seen(p, true, rough), pa, claim, true, rough) {
			return false
		}
		if strict && engine.Seen(p+claim, true, rough) != pa {
			return false
		}
	}
	return true
}

// judge is an I Doubt It turn (V15) in a round under way: add, doubt,
// believe or skip.
func (b *Bot) judge(v *engine.View, c *[slots]int) engine.Command {
	l := v.Last
	rank := v.Rank
	o := b.pLie(v)
	if o.sure {
		return engine.Command{Move: engine.MoveDoubt}
	}
	if l.Out {
		// Anything but a good doubt lets a player with no cards out. Hard
		// believes a last play it all but knows is true, rather than take
		// the round's cards for nothing.
		if b.level == Hard && len(v.Hands) > 2 && o.p <= lastBar {
			return engine.Command{Move: engine.MoveBelieve}
		}
		return engine.Command{Move: engine.MoveDoubt}
	}
	capn := max(v.Cap, 1)
	var cards []engine.Card
	for _, x := range v.Hand {
		if x.Matches(rank) && len(cards) < capn {
			cards = append(cards, x)
		}
	}
	p := o.p
	if b.level == Easy {
		p += 0.2 * (b.rng.Float64() - 0.5)
	}
	pile := b.mem.pileSize()
	alpha := 0.5
	doubt := p*(alpha*pile+1) - (1-p)*pile
	believe := (1-p)*(1+0.2*pile) - p*pile
	if len(cards) > 0 && doubt <= 1 {
		return engine.Command{Move: engine.MovePlay, Cards: cards, Claim: len(cards), Rank: rank}
	}
	if b.level == Hard && len(cards) == 0 && len(v.Hand) > 1 {
		// A bluff added to the round: it pays when the round is small
		// and the next seat is unlikely to hold what disproves it. Against
		// it, believing counts for an eighth of its worth: a card gone from
		// hand beats a round begun (measured against medium: 68 % head to
		// head, against 55 % counting believing in full).
		q := 0.1 + 0.6*b.proof(v, rank, 1)
		if add := 1 - q*(pile+2); add > max(doubt, 0.12*believe, 0) {
			return engine.Command{Move: engine.MovePlay, Cards: b.pick(v, 1, nil), Claim: 1, Rank: rank}
		}
	}
	switch {
	case doubt > 0 && doubt >= believe:
		return engine.Command{Move: engine.MoveDoubt}
	case believe > 0:
		return engine.Command{Move: engine.MoveBelieve}
	}
	if b.level == Easy && len(v.Hand) > 2 && b.rng.Float64() < 0.15 {
		return engine.Command{Move: engine.MovePlay, Cards: b.pick(v, 1, nil), Claim: 1, Rank: rank}
	}
	return engine.Command{Move: engine.MoveSkip}
}

// overclaim is how many wrong cards hard adds to the j true ones (at least
// one when j is 0: a bluff must put something down): as many as pay, where
// a card got rid of is worth about a card, and the price is the chance a
// listener holds enough copies to know the claim can't be true, times the
// pile it would take. Never on a play that would empty the hand.
func (b *Bot) overclaim(v *engine.View, rank engine.Rank, j, capn int) int {
	m := &b.mem
	hand := len(v.Hand)
	lo := 0
	if j == 0 {
		lo = 1
	}
	best, bestEV := lo, math.Inf(-1)
	pile := m.pileSize()
	for e := lo; e <= 2 && j+e <= capn && j+e < hand; e++ {
		// proof overstates the risk: at 0.6 of it hard did best against
		// medium (61 % head to head, against 59 % at 1 and 19 % at 0).
		q := 0.6 * b.proof(v, rank, j+e)
		ev := float64(e) - q*(pile+float64(j+e)) - 0.15*float64(e)*b.style.Eager
		if ev > bestEV+0.25*float64(e-best) {
			best, bestEV = e, ev
		}
	}
	return best
}

// proof is the chance some listener holds enough copies of rank, with what
// it saw go out of the game, to know a claim of k can't be true.
func (b *Bot) proof(v *engine.View, rank engine.Rank, k int) float64 {
	m := &b.mem
	r := int(rank)
	mine := counts(v.Hand)
	total := m.total[r] + m.total[joker]
	gone := m.gone[r] + m.gone[joker]
	need := total - gone - k + 1
	u := total - gone - mine[r] - mine[joker] - m.pile[r] - m.pile[joker]
	if need > u || need <= 0 {
		if need <= 0 {
			return 1
		}
		return 0
	}
	sumAll := 0
	for _, x := range m.gone {
		sumAll += x
	}
	pool := m.all - len(v.Hand) - m.pileN - sumAll - m.hidden
	unknownPile := max(0, int(m.pileSize())-m.pileN)
	var p [9]float64
	none := 1.0
	for t := range m.seats {
		if t == b.seat || (v.Placed != nil && t < len(v.Placed) && v.Placed[t] != 0) {
			continue
		}
		draw := int(m.size(t)) + unknownPile/max(1, m.n-1)
		cert := m.seats[t].cert[r] + m.seats[t].cert[joker]
		top := hyper(p[:], pool, u-cert, draw-cert)
		at := 0.0
		for x := 0; x < top; x++ {
			if cert+x >= need {
				at += p[x]
			}
		}
		none *= 1 - min(1, 1.5*at)
	}
	return 1 - none
}
