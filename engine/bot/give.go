package bot

import "github.com/bullshit-game/bullshit/engine"

// waits is, for each slot, how long until the seat is next asked for that
// rank (larger: the card is less useful); jokers are always worth keeping.
// Where the rank is free, the ranks it holds fewest of go first. It is the
// engine's LeastUseful rule, worked out from the view alone.
func waits(v *engine.View) (w [slots]int) {
	w[joker] = -1
	r := &v.Rules
	if r.Doubt || !v.Rank.Valid() || r.Sequence == engine.SeqFree || r.Sequence == engine.SeqNear || r.Sequence == engine.SeqNearStrict {
		c := counts(v.Hand)
		for i := 0; i < engine.NumRanks; i++ {
			w[i] = 100 - c[i]
		}
		return w
	}
	n := len(v.Hands)
	in := func(s int) bool { return v.Placed == nil || s >= len(v.Placed) || v.Placed[s] == 0 }
	step := 1
	if r.CCW {
		step = n - 1
	}
	lap := 0
	for s := 0; s < n; s++ {
		if in(s) {
			lap++
		}
	}
	lap = max(lap, 1)
	// The play number of the seat's next turn: v.Rank is play v.No+1's.
	ahead := 0
	if !(v.Phase == engine.PhasePlay && v.Turn == v.Seat) {
		for s, i := v.Turn, 0; s != v.Seat && i < n; i++ {
			if in(s) {
				ahead++
			}
			s = (s + step) % n
		}
	}
	dir := 1
	if r.Sequence == engine.SeqDown {
		dir = -1
	}
	for i := 0; i < engine.NumRanks; i++ {
		w[i] = engine.NumRanks
	}
	for k := 0; k < engine.NumRanks; k++ {
		rk := ((int(v.Rank)+dir*(ahead+k*lap))%engine.NumRanks + engine.NumRanks) % engine.NumRanks
		if w[rk] == engine.NumRanks {
			w[rk] = k
		}
	}
	return w
}

// leastUseful is the k cards of the hand the seat would most like rid of,
// skipping any in skip (as a multiset): those it will be asked for last.
// The result is a new slice.
func leastUseful(v *engine.View, k int, skip []engine.Card) []engine.Card {
	w := waits(v)
	hand := v.Hand
	used := make([]bool, len(hand))
	for _, c := range skip {
		for i, x := range hand {
			if !used[i] && x == c {
				used[i] = true
				break
			}
		}
	}
	out := make([]engine.Card, 0, k)
	for len(out) < k {
		best := -1
		for i, c := range hand {
			if used[i] {
				continue
			}
			if best < 0 || worse(c, hand[best], &w) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		used[best] = true
		out = append(out, hand[best])
	}
	return out
}

func worse(a, b engine.Card, w *[slots]int) bool {
	wa, wb := w[slot(a)], w[slot(b)]
	if wa != wb {
		return wa > wb
	}
	return a > b
}

// freeRank is the rank to claim where the table lets the player choose:
// of the ranks allowed, the one it holds most of.
func freeRank(v *engine.View, c *[slots]int) engine.Rank {
	var own [slots]int
	if c == nil {
		own = counts(v.Hand)
		c = &own
	}
	best, bestN := engine.Rank(0), -1
	try := func(r engine.Rank) {
		if r.Valid() && c[r] > bestN {
			best, bestN = r, c[r]
		}
	}
	if len(v.Ranks) > 0 {
		for _, r := range v.Ranks {
			try(r)
		}
		return best
	}
	for r := engine.Rank(0); r < engine.NumRanks; r++ {
		try(r)
	}
	return best
}
