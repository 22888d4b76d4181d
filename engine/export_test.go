package engine

import (
	"math/rand/v2"
	"slices"
)

// Test hooks into the hidden state. They exist only in test builds.

// Scramble re-deals everything seat keep cannot see (R15, R16): the other
// seats' hands, the face-down pile, the last play's cards while they are
// face down and not keep's own, and the cards that left the game face down
// (V15), each part keeping its size. Under rough counts (V14) it may also
// move a card between someone else's face-down play and their hand, a sneak
// of another size, when neither the hand nor the pile would look different.
// It reports whether any hidden card moved. Over games are left alone:
// everything is shown then.
func (g *Game) Scramble(keep int, rng *rand.Rand) bool {
	if g.phase == PhaseOver {
		return false
	}
	before := g.Clone()
	p := &g.last
	top := len(p.cards)
	down := g.plays > 0 && !p.shown && top > 0 && top <= len(g.pile) &&
		slices.Equal(g.pile[len(g.pile)-top:], p.cards)
	mine := down && p.seat == keep
	rest := len(g.pile)
	if down {
		rest -= top
	}

	var pool []Card
	for s := range g.n {
		if s != keep {
			pool = append(pool, g.hands[s]...)
		}
	}
	pool = append(pool, g.pile[:rest]...)
	if down && !mine {
		pool = append(pool, p.cards...)
	}
	// Of the cards out of the game, the ones turned up are known to all.
	hiddenGone := minus(g.gone, g.seen)
	pool = append(pool, hiddenGone...)
	rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })

	deal := func(n int) []Card {
		out := append([]Card(nil), pool[:n]...)
		pool = pool[n:]
		return out
	}
	for s := range g.n {
		if s != keep {
			h := deal(len(g.hands[s]))
			SortCards(h)
			g.hands[s] = h
		}
	}
	pile := deal(rest)
	if down && !mine {
		p.cards = deal(top)
	}
	g.gone = append(append([]Card(nil), g.seen...), deal(len(hiddenGone))...)

	if down && !mine && g.rules.Rough && g.rules.Sneak > 0 && !g.rules.CountLies && !p.out {
		// A sneak of another size that nobody else could tell.
		hand := g.hands[p.seat]
		pileN := len(pile) + len(p.cards)
		unseen := func(dh int) bool {
			return Seen(len(hand), false, true) == Seen(len(hand)+dh, false, true) &&
				Seen(pileN, true, true) == Seen(pileN-dh, true, true)
		}
		switch {
		case p.sneaked > 0 && rng.IntN(2) == 0 && unseen(1):
			c := p.cards[len(p.cards)-1]
			p.cards = p.cards[:len(p.cards)-1]
			hand = addTo(hand, []Card{c})
			p.sneaked--
			SneakMoves++
		case len(hand) > 1 && p.sneaked < g.rules.Sneak && unseen(-1):
			i := rng.IntN(len(hand))
			c := hand[i]
			hand = append(hand[:i:i], hand[i+1:]...)
			p.cards = append(p.cards, c)
			p.sneaked++
			SneakMoves++
		}
		g.hands[p.seat] = hand
	}
	if down {
		pile = append(pile, p.cards...)
	}
	g.pile = append(make([]Card, 0, cap(g.pile)), pile...)
	for s := range g.stats {
		if s != keep {
			g.stats[s].Sneaks = rng.IntN(4)
		}
	}
	return !sameHidden(before, g)
}

// SneakMoves counts the scrambles that changed the size of a sneak, so a
// test can tell that case was reached.
var SneakMoves int

// minus is the multiset a less b (b must be within a).
func minus(a, b []Card) []Card {
	var c counts
	c.add(b)
	var out []Card
	for _, x := range a {
		if c[x] > 0 {
			c[x]--
			continue
		}
		out = append(out, x)
	}
	return out
}

func sameHidden(a, b *Game) bool {
	for s := range a.hands {
		if !slices.Equal(a.hands[s], b.hands[s]) {
			return false
		}
	}
	return slices.Equal(a.pile, b.pile) && slices.Equal(a.last.cards, b.last.cards) && slices.Equal(a.gone, b.gone)
}

// Hidden is the number of cards keep cannot see, for tests that want to
// know a scramble had something to move.
func (g *Game) Hidden(keep int) int {
	n := len(g.pile) + len(g.gone) - len(g.seen)
	for s, h := range g.hands {
		if s != keep {
			n += len(h)
		}
	}
	return n
}

// Steal takes a card out of seat's hand without putting it anywhere: a
// broken game, for the negative control of R17.
func (g *Game) Steal(seat int) {
	h := g.hands[seat]
	g.hands[seat] = h[:len(h)-1]
}

// Sneaked is how many cards were slipped under the last play (V14).
func (g *Game) Sneaked() int { return g.last.sneaked }

// LastCards are the cards of the last play, whoever may see them.
func (g *Game) LastCards() []Card { return append([]Card(nil), g.last.cards...) }

// Dealer is the seat that dealt (R4).
func (g *Game) Dealer() int { return g.dealer }

// Decks is how many decks the table plays with (R2).
func (g *Game) Decks() int { return g.decks }

// Hand is seat's hand, for tests that look at the truth.
func (g *Game) Hand(seat int) []Card { return append([]Card(nil), g.hands[seat]...) }

// Pile is the pile, bottom first.
func (g *Game) Pile() []Card { return append([]Card(nil), g.pile...) }

// Gone is the cards out of the game.
func (g *Game) Gone() []Card { return append([]Card(nil), g.gone...) }

// IsOut reports whether seat has gone out for good (V8, V15).
func (g *Game) IsOut(seat int) bool { return g.placed[seat] != 0 }
