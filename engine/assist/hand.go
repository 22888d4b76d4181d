package assist

import (
	"fmt"
	"sort"

	"github.com/bullshit-game/bullshit/engine"
)

// This file is the arithmetic behind the hand and the assists, from a view
// alone: the order of the cards, which rank you'll be asked for when, what
// a claim can't be, whether a sneak will show. None of it is a rule; the
// engine decides those.

// SortMode is how the hand is laid out (key O).
type SortMode int

const (
	SortCalling SortMode = iota // in calling order: the sequence from its starting rank
	SortSoonest                 // the rank you'll be asked for next first
)

func (s SortMode) String() string {
	if s == SortSoonest {
		return "soonest asked first"
	}
	return "in calling order"
}

// Seats is how many seats the view's table has.
func Seats(v *engine.View) int { return len(v.Hands) }

// RankStep is how the required rank moves each play: +1 up, -1 down, 0 where
// there is no sequence (free, near, I Doubt It).
func RankStep(r engine.Rules) int {
	if r.Doubt {
		return 0
	}
	switch r.Sequence {
	case engine.SeqUp:
		return 1
	case engine.SeqDown:
		return -1
	}
	return 0
}

func AddRank(r engine.Rank, d int) engine.Rank {
	return engine.Rank(((int(r)+d)%engine.NumRanks + engine.NumRanks) % engine.NumRanks)
}

// Out reports whether seat has left the game (V8, V15).
func Out(v *engine.View, seat int) bool {
	return seat >= 0 && seat < len(v.Placed) && v.Placed[seat] != 0
}

// NextSeat is the seat after s in turn order, skipping seats that are out.
func NextSeat(v *engine.View, s int) int {
	n := Seats(v)
	if n == 0 {
		return s
	}
	d := 1
	if v.Rules.CCW {
		d = n - 1
	}
	for i := 0; i < n; i++ {
		s = (s + d) % n
		if !Out(v, s) {
			return s
		}
	}
	return s
}

// InPlay is how many seats still play.
func InPlay(v *engine.View) int {
	k := 0
	for s := range Seats(v) {
		if !Out(v, s) {
			k++
		}
	}
	return k
}

// TurnsUntil is how many plays come before seat's own next play.
func TurnsUntil(v *engine.View, seat int) int {
	s, k := v.Turn, 0
	for s != seat && k <= Seats(v) {
		s = NextSeat(v, s)
		k++
	}
	return k
}

// AskedIn gives, for each rank, how many of seat's own turns pass before it
// is asked for that rank (0: its next play). Where no sequence is kept every
// rank is -1.
func AskedIn(v *engine.View, seat int) [engine.NumRanks]int {
	var w [engine.NumRanks]int
	step := RankStep(v.Rules)
	if step == 0 || !v.Rank.Valid() || seat < 0 {
		for i := range w {
			w[i] = -1
		}
		return w
	}
	for i := range w {
		w[i] = engine.NumRanks
	}
	d, lap := TurnsUntil(v, seat), max(InPlay(v), 1)
	for m := 0; m < engine.NumRanks; m++ {
		r := AddRank(v.Rank, step*(d+m*lap))
		if w[r] == engine.NumRanks {
			w[r] = m
		}
	}
	return w
}

// CallingPos is a rank's place in the table's sequence from its start.
func CallingPos(r engine.Rank, rules engine.Rules) int {
	if !r.Valid() {
		return engine.NumRanks
	}
	p := int(r) - int(rules.Start)
	if RankStep(rules) < 0 {
		p = -p
	}
	if RankStep(rules) == 0 {
		p = int(r)
	}
	return ((p % engine.NumRanks) + engine.NumRanks) % engine.NumRanks
}

// SortHand lays out a copy of the hand: by calling order, or by the turn
// you'll be asked for each rank. Jokers go last, suits break ties.
func SortHand(hand []engine.Card, v *engine.View, mode SortMode) []engine.Card {
	out := append([]engine.Card(nil), hand...)
	var wait [engine.NumRanks]int
	if mode == SortSoonest {
		wait = AskedIn(v, v.Seat)
	}
	key := func(c engine.Card) int {
		if c == engine.Joker {
			return 1 << 20
		}
		pos := CallingPos(c.Rank(), v.Rules)
		if mode == SortSoonest && wait[c.Rank()] >= 0 {
			return wait[c.Rank()]*16 + pos
		}
		return pos
	}
	sort.SliceStable(out, func(i, j int) bool {
		ki, kj := key(out[i]), key(out[j])
		if ki != kj {
			return ki < kj
		}
		return out[i] < out[j]
	})
	return out
}

// Matches is how many cards of hand count as rank r, jokers included.
func Matches(hand []engine.Card, r engine.Rank) int {
	k := 0
	for _, c := range hand {
		if c.Matches(r) {
			k++
		}
	}
	return k
}

// BestRank is the rank to claim where the claim's rank is free: the one of
// choices you hold most of (calling order breaks ties).
func BestRank(hand []engine.Card, choices []engine.Rank, rules engine.Rules) engine.Rank {
	best, most := engine.NoRank, -1
	for _, r := range choices {
		k := 0
		for _, c := range hand {
			if c != engine.Joker && c.Rank() == r {
				k++
			}
		}
		if k > most || (k == most && CallingPos(r, rules) < CallingPos(best, rules)) {
			best, most = r, k
		}
	}
	return best
}

// AllRanks is A to K.
func AllRanks() []engine.Rank {
	out := make([]engine.Rank, engine.NumRanks)
	for i := range out {
		out[i] = engine.Rank(i)
	}
	return out
}

// LeastUseful picks k cards to hand over: those whose rank you'll be asked
// for last; where no sequence is kept, the ranks you hold fewest of. Jokers
// are kept. It mirrors the engine's default, so picking nothing and
// letting the clock run out gives the same card.
func LeastUseful(hand []engine.Card, v *engine.View, k int) []engine.Card {
	wait := AskedIn(v, v.Seat)
	var have [engine.NumRanks]int
	for _, c := range hand {
		if c != engine.Joker {
			have[c.Rank()]++
		}
	}
	score := func(c engine.Card) int {
		if c == engine.Joker {
			return -1000
		}
		if wait[c.Rank()] < 0 {
			return 100 - have[c.Rank()]
		}
		return wait[c.Rank()]
	}
	cs := append([]engine.Card(nil), hand...)
	sort.SliceStable(cs, func(i, j int) bool {
		si, sj := score(cs[i]), score(cs[j])
		if si != sj {
			return si > sj
		}
		return cs[i] > cs[j]
	})
	if k > len(cs) {
		k = len(cs)
	}
	return cs[:k]
}

// ClaimWords is "2 kings", "1 ace".
func ClaimWords(n int, r engine.Rank) string {
	return fmt.Sprintf("%d %s", n, r.Word(n))
}

// CantBeTrue says why the last claim can't be true, from what this seat
// knows: more of the rank than the decks hold, given the ones in its hand
// and the ones laid face up out of the game; or a count that moved by more
// than the claim (a countable hand dropping more, V12 and V14). "" when
// nothing shows.
func CantBeTrue(v *engine.View, names func(int) string) string {
	l := v.Last
	if l == nil || l.Seat == v.Seat || l.Shown || !l.Rank.Valid() {
		return ""
	}
	decks := v.Rules.DecksFor(Seats(v))
	copies := 4*decks + v.Rules.Jokers*decks
	held, gone := 0, 0
	for _, c := range v.Hand {
		if c.Matches(l.Rank) {
			held++
		}
	}
	for _, c := range v.Seen {
		if c.Matches(l.Rank) {
			gone++
		}
	}
	if held+gone+l.Claim > copies {
		what := l.Rank.Word(2)
		if v.Rules.Jokers > 0 {
			what += " and jokers"
		}
		switch {
		case gone == 0 && held == 0:
			return fmt.Sprintf("Can't be true: there are only %d %s.", copies, what)
		case gone == 0:
			return fmt.Sprintf("Can't be true: you hold %d of the %d %s.", held, copies, what)
		case held == 0:
			return fmt.Sprintf("Can't be true: %d of the %d %s are out of the game.", gone, copies, what)
		}
		return fmt.Sprintf("Can't be true: you hold %d of the %d %s and %d are out of the game.", held, copies, what, gone)
	}
	rough := v.Rules.Rough
	s := l.Sizes
	if s.HandBefore != (engine.Count{}) || s.HandAfter != (engine.Count{}) {
		if !engine.LooksClean(s.HandBefore, s.HandAfter, -l.Claim, false, rough) {
			return fmt.Sprintf("Counts show it: %s's hand went %s → %s for %s claimed.",
				names(l.Seat), s.HandBefore, s.HandAfter, ClaimWords(l.Claim, l.Rank))
		}
		if !engine.LooksClean(s.PileBefore, s.PileAfter, l.Claim, true, rough) {
			return fmt.Sprintf("Counts show it: the pile went %s → %s for %s claimed.",
				s.PileBefore, s.PileAfter, ClaimWords(l.Claim, l.Rank))
		}
	}
	return ""
}

// SneakShows judges a play of k cards claimed as claim from what the table
// will see: whether your hand's count gives it away, and whether the pile's
// might (the pile is a range to you too, so "might").
func SneakShows(v *engine.View, k, claim int) (hand, pile bool) {
	rough := v.Rules.Rough
	n := len(v.Hand)
	before, after := engine.Seen(n, false, rough), engine.Seen(n-k, false, rough)
	hand = !engine.LooksClean(before, after, -claim, false, rough)
	p := v.Pile
	hi := p.Hi
	if hi < 0 {
		hi = p.Lo + 64
	}
	for m := p.Lo; m <= hi; m++ {
		pb, pa := engine.Seen(m, true, rough), engine.Seen(m+k, true, rough)
		if !engine.LooksClean(pb, pa, claim, true, rough) {
			pile = true
			break
		}
	}
	return hand, pile
}

// QuadsIn lists the ranks hand holds four of (jokers aside), in calling order.
func QuadsIn(hand []engine.Card, rules engine.Rules) []engine.Rank {
	var have [engine.NumRanks]int
	for _, c := range hand {
		if c != engine.Joker {
			have[c.Rank()]++
		}
	}
	var out []engine.Rank
	for r := range have {
		if have[r] >= 4 {
			out = append(out, engine.Rank(r))
		}
	}
	sort.Slice(out, func(i, j int) bool { return CallingPos(out[i], rules) < CallingPos(out[j], rules) })
	return out
}
