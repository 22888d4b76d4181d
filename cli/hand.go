package cli

import (
	"fmt"
	"slices"
	"strings"

	bkey "charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/assist"
)

// The arithmetic behind the hand and the assists lives in engine/assist,
// shared with the browser client; these are its names here.

type sortMode = assist.SortMode

const (
	sortCalling = assist.SortCalling
	sortSoonest = assist.SortSoonest
)

func seats(v *engine.View) int          { return assist.Seats(v) }
func out(v *engine.View, seat int) bool { return assist.Out(v, seat) }
func sortHand(hand []engine.Card, v *engine.View, mode sortMode) []engine.Card {
	return assist.SortHand(hand, v, mode)
}
func matches(hand []engine.Card, r engine.Rank) int { return assist.Matches(hand, r) }
func bestRank(hand []engine.Card, choices []engine.Rank, rules engine.Rules) engine.Rank {
	return assist.BestRank(hand, choices, rules)
}
func leastUseful(hand []engine.Card, v *engine.View, k int) []engine.Card {
	return assist.LeastUseful(hand, v, k)
}
func claimWords(n int, r engine.Rank) string { return assist.ClaimWords(n, r) }
func cantBeTrue(v *engine.View, names func(int) string) string {
	return assist.CantBeTrue(v, names)
}
func sneakShows(v *engine.View, k, claim int) (hand, pile bool) {
	return assist.SneakShows(v, k, claim)
}
func quadsIn(hand []engine.Card, rules engine.Rules) []engine.Rank {
	return assist.QuadsIn(hand, rules)
}

// handModel is the hand as laid out and what the player is doing with it:
// the cards picked, the cursor, the sort order, the claim's adjustments.
// It is the table's sub-model for the hand, with its own keys (handKey)
// and its own rows on screen (rows); what it needs of the table, the
// view and what the seat may do, comes in as arguments.
type handModel struct {
	hand   []engine.Card
	picked []bool
	cursor int
	order  sortMode
	sneak  int         // V14: how many of the picked go under the claim
	extra  int         // V12: the claim minus the cards picked
	rank   engine.Rank // the rank to claim where it is free (V1, V4, V15)
}

// claimRank is the rank the play would claim.
func (h *handModel) claimRank(c can, v *engine.View) engine.Rank {
	if c.Choose {
		return h.rank
	}
	if v != nil {
		return v.Rank
	}
	return engine.NoRank
}

// pickedCards lists the picked cards, those of rank first: they're the
// ones claimed.
func (h *handModel) pickedCards(r engine.Rank) []engine.Card {
	var yes, no []engine.Card
	for i, c := range h.hand {
		if i < len(h.picked) && h.picked[i] {
			if c.Matches(r) {
				yes = append(yes, c)
			} else {
				no = append(no, c)
			}
		}
	}
	return append(yes, no...)
}

func (h *handModel) nPicked() int {
	k := 0
	for _, p := range h.picked {
		if p {
			k++
		}
	}
	return k
}

// maxSneak is how many picked cards may go under the claim now.
func (h *handModel) maxSneak(v *engine.View) int {
	if v == nil || v.Rules.Sneak == 0 || v.Rules.CountLies {
		return 0
	}
	return max(0, min(v.Rules.Sneak, h.nPicked()-1))
}

// claim is how many cards the play would claim.
func (h *handModel) claim(v *engine.View) int {
	k := h.nPicked()
	if v == nil || k == 0 {
		return 0
	}
	if v.Rules.CountLies {
		return min(max(k+h.extra, 1), v.Cap)
	}
	return k - min(h.sneak, h.maxSneak(v))
}

// claimProblem is why the picked cards can't be played as they stand, or
// "": the engine's counts (R6, V5, V12, V14), said before the press.
func (h *handModel) claimProblem(v *engine.View) string {
	k := h.nPicked()
	if v == nil || k == 0 {
		return ""
	}
	s := v.Rules.Sneak
	switch {
	case v.Rules.CountLies || (s > 0 && k > v.Cap+s):
		if k > v.Cap+s {
			return fmt.Sprintf("Put down 1 to %d cards (%d picked)", v.Cap+s, k)
		}
	case s > 0:
		if h.claim(v) > v.Cap {
			return fmt.Sprintf("Claim 1 to %d cards (%d picked): S puts some under", v.Cap, k)
		}
	case k > v.Cap:
		return fmt.Sprintf("Claim 1 to %d cards (%d picked)", v.Cap, k)
	}
	return ""
}

// forget starts the hand afresh: nothing picked, nothing adjusted, no
// rank named.
func (h *handModel) forget() {
	h.clearPicks()
	h.sneak, h.extra, h.rank = 0, 0, engine.NoRank
}

// setupTurn readies the hand for a play: the rank where it is free, and
// the cards of the rank picked (assist) unless the player picks alone.
func (h *handModel) setupTurn(v *engine.View, c can, noPick bool) {
	h.clearPicks()
	h.sneak, h.extra = 0, 0
	if c.Choose {
		h.rank = bestRank(v.Hand, c.Ranks, v.Rules)
	}
	if noPick || !c.Play {
		return
	}
	r := h.claimRank(c, v)
	if !r.Valid() {
		return
	}
	var real, jokers []engine.Card
	for _, card := range v.Hand {
		switch {
		case card == engine.Joker:
			jokers = append(jokers, card)
		case card.Rank() == r:
			real = append(real, card)
		}
	}
	pick := append(real, jokers...)
	if len(pick) > v.Cap {
		pick = pick[:v.Cap]
	}
	if len(pick) == len(v.Hand) && len(pick) > 0 && v.Rules.Doubt {
		// Playing out is yours to choose; never empty a hand for you.
		pick = pick[:len(pick)-1]
	}
	h.pickCards(pick)
	h.moveCursorToPicked()
}

// layout lays the view's hand out and carries the picks over to it, card
// by card; no view, no hand.
func (h *handModel) layout(v *engine.View) {
	if v == nil {
		h.hand, h.picked = nil, nil
		return
	}
	was := h.pickedCards(engine.NoRank)
	h.hand = sortHand(v.Hand, v, h.order)
	h.picked = make([]bool, len(h.hand))
	h.pickCards(was)
	if h.cursor >= len(h.hand) {
		h.cursor = max(len(h.hand)-1, 0)
	}
}

func (h *handModel) clearPicks() {
	for i := range h.picked {
		h.picked[i] = false
	}
}

// pickCards picks the given cards (a multiset) in the laid-out hand.
func (h *handModel) pickCards(cs []engine.Card) {
	for _, c := range cs {
		for i, card := range h.hand {
			if card == c && !h.picked[i] {
				h.picked[i] = true
				break
			}
		}
	}
}

func (h *handModel) moveCursorToPicked() {
	for i, p := range h.picked {
		if p {
			h.cursor = i
			return
		}
	}
}

// handKey is the hand's Update: a key that moves the cursor, picks,
// sorts or adjusts the claim. ok is false for a key that isn't the
// hand's; say is news for the status line (bad: a refusal).
func (h *handModel) handKey(k tea.KeyPressMsg, v *engine.View, c can) (say string, bad, ok bool) {
	km := tableKeys
	switch {
	case bkey.Matches(k, km.Left):
		h.cursor = moved(h.cursor, -1, len(h.hand))
	case bkey.Matches(k, km.Right):
		h.cursor = moved(h.cursor, 1, len(h.hand))
	case bkey.Matches(k, km.Home):
		h.cursor = 0
	case bkey.Matches(k, km.End):
		h.cursor = max(len(h.hand)-1, 0)
	case bkey.Matches(k, km.Pick, km.PickUp, km.Drop):
		if h.cursor < len(h.picked) {
			switch {
			case bkey.Matches(k, km.Pick):
				h.picked[h.cursor] = !h.picked[h.cursor]
			case bkey.Matches(k, km.PickUp):
				h.picked[h.cursor] = true
			default:
				h.picked[h.cursor] = false
			}
		}
		h.sneak = min(h.sneak, h.maxSneak(v))
	case bkey.Matches(k, km.Clear):
		h.clearPicks()
		h.sneak, h.extra = 0, 0
	case bkey.Matches(k, km.Sort):
		return h.resort(v), false, true
	case bkey.Matches(k, km.Sneak):
		say, bad = h.sneakKey(v)
		return say, bad, true
	case bkey.Matches(k, km.More):
		h.extraKey(v, 1)
	case bkey.Matches(k, km.Fewer):
		h.extraKey(v, -1)
	case bkey.Matches(k, km.Rank):
		if !c.Choose {
			return "The rank is set: you claim " + v.Rank.Word(2) + ".", false, true
		}
		i := slices.Index(c.Ranks, h.rank)
		h.rank = c.Ranks[(i+1)%len(c.Ranks)]
	default:
		return "", false, false
	}
	return "", false, true
}

// resort switches the hand between the two sort orders, keeping the
// cursor on the card it was on, and says which it is.
func (h *handModel) resort(v *engine.View) string {
	if h.order == sortCalling {
		h.order = sortSoonest
	} else {
		h.order = sortCalling
	}
	var at engine.Card
	if h.cursor < len(h.hand) {
		at = h.hand[h.cursor]
	}
	h.layout(v)
	if i := slices.Index(h.hand, at); i >= 0 {
		h.cursor = i
	}
	return "Hand sorted " + h.order.String() + "."
}

// sneakKey is S: how many of the picked cards go under the claim.
func (h *handModel) sneakKey(v *engine.View) (say string, bad bool) {
	if v.Rules.Sneak == 0 || v.Rules.CountLies {
		return "This table doesn't sneak.", true
	}
	m := h.maxSneak(v)
	if m == 0 {
		h.sneak = 0
		return "Pick more cards than you claim to sneak: S sets how many go under.", false
	}
	h.sneak = (h.sneak + 1) % (m + 1)
	return "", false
}

// extraKey is + or - (d): how many more or fewer cards to claim than put
// down.
func (h *handModel) extraKey(v *engine.View, d int) {
	if !v.Rules.CountLies {
		return
	}
	h.extra += d
	h.extra = max(min(h.extra, v.Cap-h.nPicked()), 1-h.nPicked())
}

// rows is the hand's View: the cards in rows of w, at most rows of them
// around the cursor, with a caret under it; lit is the rank to light.
func (h *handModel) rows(st styles, w, rows int, lit engine.Rank) []string {
	if len(h.hand) == 0 {
		return []string{"  (no cards)"}
	}
	per := max(1, (w-2)/cellW)
	total := (len(h.hand) + per - 1) / per
	first := 0
	if total > rows {
		cr := h.cursor / per
		first = max(0, min(cr-rows/2, total-rows))
	}
	var out []string
	for r := first; r < min(first+rows, total); r++ {
		var b strings.Builder
		b.WriteString("  ")
		for i := r * per; i < min((r+1)*per, len(h.hand)); i++ {
			b.WriteString(h.cardCell(st, i, lit))
		}
		line := b.String()
		if r == first && first > 0 {
			line = fit(line, w-8) + st.r(st.faint, " ↑ more")
		}
		if r == first+rows-1 && first+rows < total {
			line = fit(line, w-8) + st.r(st.faint, " ↓ more")
		}
		out = append(out, line)
		if h.cursor/per == r {
			col := 2 + (h.cursor%per)*cellW
			caret := "^"
			if !st.plain {
				caret = "▲"
			}
			out = append(out, strings.Repeat(" ", col+1)+st.r(st.turn, caret))
		}
	}
	return out
}

// cardCell draws card i of the hand: brackets when picked, a star (or
// colour) when it is of the rank called, reversed under the cursor.
func (h *handModel) cardCell(st styles, i int, lit engine.Rank) string {
	c := h.hand[i]
	sym := c.Symbol()
	isLit := lit.Valid() && c.Matches(lit)
	l, r := " ", " "
	if h.picked[i] {
		l, r = "[", "]"
	}
	body := sym
	if isLit && st.plain {
		body += "*"
	}
	switch {
	case h.picked[i]:
		body = st.r(st.picked, body)
	case isLit:
		body = st.r(st.lit, body)
	case c.Suit() == 1 || c.Suit() == 2:
		body = st.r(st.red, body)
	}
	if i == h.cursor && !st.plain {
		body = st.cursor.Render(stripANSI(body))
	}
	return fit(l+body+r, cellW)
}
