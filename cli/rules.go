package cli

import (
	"fmt"
	"strings"
	"time"

	bkey "charm.land/bubbles/v2/key"

	"github.com/bullshit-game/bullshit/engine"
)

// RulesWidth is the width RulesText writes to when it is given none: an
// 80-column terminal less a margin.
const RulesWidth = 78

// RulesText is "how to play" for a table with rules r and the given number
// of seats (0 when not known yet: the deck and the cap are then said for
// any table), in plain text wrapped to width columns. It is written from
// the rules keys, never from the preset's name, so a table that changed
// one key reads what it plays. The standard game fits one 80×24 screen;
// each variant adds its sentences. The same text is `bullshit rules`.
func RulesText(r engine.Rules, seats, width int) []string {
	if width <= 0 {
		width = RulesWidth
	}
	var b rulesBuilder
	b.w = width
	b.line(rulesTitle(r, seats))
	b.line("")
	if r.Doubt {
		doubtRules(&b, r, seats)
	} else {
		classicRules(&b, r, seats)
	}
	b.line("")
	b.keys(rulesKeys(r))
	return b.out
}

// rulesBuilder gathers wrapped lines.
type rulesBuilder struct {
	w   int
	out []string
}

func (b *rulesBuilder) line(s string) { b.out = append(b.out, s) }

// para is one paragraph, wrapped to the width; continuation lines are
// indented two.
func (b *rulesBuilder) para(parts ...string) {
	if text := strings.Join(strings.Fields(strings.Join(parts, " ")), " "); text != "" {
		b.out = append(b.out, hang("", "  ", text, b.w)...)
	}
}

// item is a paragraph under a lead-in, as "  - add …".
func (b *rulesBuilder) item(text string) { b.out = append(b.out, wrap("  - ", text, b.w)...) }

// keys lays the keys out on as few lines as fit, after "Keys  ".
func (b *rulesBuilder) keys(items []bkey.Binding) {
	const lead = "Keys  "
	cur := lead
	for _, k := range items {
		it := bar(plainKeys, k)
		if cur != lead && width(cur)+3+width(it) > b.w {
			b.out = append(b.out, cur)
			cur = strings.Repeat(" ", len(lead))
		}
		if strings.TrimSpace(cur) != "" && cur != lead {
			cur += " · "
		}
		cur += it
	}
	b.out = append(b.out, cur)
}

// rulesTitle names the preset the rules started from (only a label: the
// text below is written from the keys), says when keys were changed, and
// the seats.
func rulesTitle(r engine.Rules, seats int) string {
	name := r.Preset
	if name == "" {
		name = "standard"
	}
	if base, ok := engine.Preset(name); !ok || !sameRules(base, r) {
		name += ", changed"
	}
	t := "How to play · " + name
	if r.Doubt {
		t += " (I Doubt It)"
	}
	if seats > 0 {
		t += fmt.Sprintf(" · %d seats", seats)
	}
	return t
}

func sameRules(a, b engine.Rules) bool {
	am, bm := a.Map(), b.Map()
	for _, k := range engine.RuleKeys {
		if fmt.Sprint(am[k]) != fmt.Sprint(bm[k]) {
			return false
		}
	}
	return true
}

// classicRules are R1–R14 with V1–V14: a rank called, a call window.
func classicRules(b *rulesBuilder, r engine.Rules, seats int) {
	b.para(goal(r), dealText(r, seats), firstText(r, seats))
	b.para(sequenceText(r))
	as := "the rank called"
	if r.Sequence != engine.SeqUp && r.Sequence != engine.SeqDown {
		as = "one rank"
	}
	claim := fmt.Sprintf("On your turn put %s face down and claim them as %s: “2 %s”.", capText(r, seats, ""), as, sampleRank(r).Word(2))
	if r.CountLies {
		b.para(claim, countLiesText(r, seats, "called"), "You can't pass: with none of the rank, bluff.")
	} else {
		b.para(claim, "The count is the cards you put down; only the rank may be a lie. You can't pass: with none of the rank, bluff.")
	}
	if r.Sneak > 0 {
		b.para(sneakText(r))
	}
	who := "anyone else"
	if r.NextOnly {
		who = "only the next player"
	}
	lie := "a card not the rank"
	switch {
	case r.CountLies && r.Sneak > 0:
		lie = "a card not the rank, a wrong count or a sneak"
	case r.CountLies:
		lie = "a card not the rank, or a wrong count"
	case r.Sneak > 0:
		lie = "a card not the rank, or a sneak"
	}
	joker := ""
	if r.Jokers > 0 {
		joker = "A joker is always the rank claimed."
	}
	b.para(fmt.Sprintf("After each play %s may shout “Bullshit!” (B) or let it go (G), within %s.", who, secs(r.Window)),
		fmt.Sprintf("Only the first call counts: that play's cards are turned up. A lie (%s): the player takes the whole pile. The truth: the caller does.", lie),
		joker, "Either way, play goes on to the next player.")
	if r.Rapid {
		b.para("Rapid: the next player may play without waiting, which closes the window; a play of someone's last cards always gets its whole window.")
	}
	if r.Quads {
		b.para(quadsText())
	}
	b.para("Your last cards can be called too: you're out when they stand or prove true.", placesText(r))
	b.para(countsText(r))
}

func countLiesText(r engine.Rules, seats int, when string) string {
	return fmt.Sprintf("The count may lie too (+ − set it): claim 1 to %s whatever you put down; a wrong count is a lie when %s.", capNumber(r, seats), when)
}

// doubtRules are V15: rounds of one rank, no call window.
func doubtRules(b *rulesBuilder, r engine.Rules, seats int) {
	b.para(goal(r), dealText(r, seats), firstText(r, seats))
	b.para("The game goes in rounds. Only the player whose turn it is acts: nobody shouts.",
		fmt.Sprintf("To start a round, name any rank (R) and put down %s claimed as it (C).", capText(r, seats, "")))
	if r.CountLies {
		b.para(countLiesText(r, seats, "turned up"))
	}
	b.line("Then each player in turn does one of four things:")
	b.item(fmt.Sprintf("add %s, claimed as the round's rank (C);", capText(r, seats, "more ")))
	b.item("doubt the last play (D): it is turned up. A lie: its player takes the round's cards and you start the next. The truth: you take them and the player after you starts;")
	b.item("believe it (V): it is turned up. The truth: the round's cards leave the game and you start the next. A lie: you take them and the player after you starts;")
	b.item("skip (K): when all the others skip in a row, the round's cards leave the game and the last to play starts the next.")
	if r.Jokers > 0 {
		b.para("A joker is always the rank claimed.")
	}
	if r.Quads {
		b.para(quadsText())
	}
	b.para("Play your last cards and you're out once the next player does anything but doubt them and find a lie.", placesText(r))
	b.para(countsText(r))
}

func goal(r engine.Rules) string {
	if r.Places {
		return "Get rid of all your cards: the first out wins, the rest play for places."
	}
	return "Be the first to get rid of all your cards."
}

func placesText(r engine.Rules) string {
	if r.Places {
		return "Play goes on for places, skipping those out, until one player is left holding cards: last place."
	}
	return "The first out wins; the others are placed by cards left."
}

// dealText is the deck: R2, V7.
func dealText(r engine.Rules, seats int) string {
	jok, wild := "", ""
	if r.Jokers > 0 {
		jok, wild = fmt.Sprintf(", with %d jokers a deck,", r.Jokers), "jokers are wild and "
	}
	per := 52 + r.Jokers
	switch {
	case seats > 0 || r.Decks > 0:
		d := r.DecksFor(seats)
		deck := "one deck"
		if d > 1 {
			deck = fmt.Sprintf("%s decks", numberWord(d))
		}
		return fmt.Sprintf("All %d cards of %s%s are dealt out; %ssuits never matter.", d*per, deck, jok, wild)
	}
	return fmt.Sprintf("Every card is dealt out: one deck%s for up to 6 players, two for 7 or more; %ssuits never matter.", jok, wild)
}

func numberWord(n int) string {
	if n >= 0 && n < 4 {
		return [...]string{"no", "one", "two", "three"}[n]
	}
	return fmt.Sprint(n)
}

// firstText is who starts and which way turns go: R4, V6, V10.
func firstText(r engine.Rules, seats int) string {
	way := "turns go clockwise."
	if r.CCW {
		way = "turns go counter-clockwise, to the right."
	}
	switch {
	case r.First.Holder:
		if r.DecksFor(seats) > 1 || seats == 0 && r.Decks == 0 {
			return fmt.Sprintf("Whoever holds the %s starts (with two decks, the first to hold one in deal order); %s", r.First.Card.Symbol(), way)
		}
		return fmt.Sprintf("Whoever holds the %s starts; %s", r.First.Card.Symbol(), way)
	case r.First.Random:
		return "A random player starts; " + way
	}
	return "Left of the dealer starts; " + way
}

// sequenceText is what is called next: R5, V1–V4, V10's random rank.
func sequenceText(r engine.Rules) string {
	switch r.Sequence {
	case engine.SeqFree:
		return "There's no rank called: claim any rank you like (R picks it)."
	case engine.SeqNear:
		return "The first play claims any rank (R picks it). After that, claim the last rank claimed again, or one above or one below it (A sits between K and 2)."
	case engine.SeqNearStrict:
		return "The first play claims any rank (R picks it). After that, claim one rank above or one below the last claim, never the same (A sits between K and 2)."
	}
	down := r.Sequence == engine.SeqDown
	step := func(i int) engine.Rank {
		if down {
			i = -i
		}
		return engine.Rank(((int(r.Start)+i)%engine.NumRanks + engine.NumRanks) % engine.NumRanks)
	}
	way := "up"
	if down {
		way = "down"
	}
	if r.First.Random {
		wrapAt := "after K comes A"
		if down {
			wrapAt = "after A comes K"
		}
		return fmt.Sprintf("The rank called goes %s one every play, from a random rank; %s.", way, wrapAt)
	}
	// The first three ranks, the two where they wrap round (K then A going
	// up, A then K going down), and the last before the start again.
	edge := engine.Rank(engine.NumRanks - 1)
	if down {
		edge = 0
	}
	show := map[int]bool{0: true, 1: true, 2: true, 12: true}
	for i := range 12 {
		if step(i) == edge {
			show[i], show[i+1] = true, true
		}
	}
	seq, prev := "", -1
	for i := range 13 {
		if !show[i] {
			continue
		}
		switch {
		case prev < 0:
		case i == prev+1:
			seq += ", "
		default:
			seq += " … "
		}
		seq += step(i).String()
		prev = i
	}
	seq += ", then " + step(0).String() + " again"
	return fmt.Sprintf("The rank called goes %s one every play: %s. The first play calls %s.",
		way, seq, step(0).Word(2))
}

// sampleRank is a rank for the example claim.
func sampleRank(r engine.Rules) engine.Rank {
	if r.Sequence == engine.SeqUp || r.Sequence == engine.SeqDown {
		return r.Start
	}
	return 6 // sevens
}

// capNumber is the most cards a claim may hold: V5, and 4 a deck.
func capNumber(r engine.Rules, seats int) string {
	if r.Cap > 0 || seats > 0 {
		return fmt.Sprint(r.CapFor(seats))
	}
	return "4 a deck"
}

// capText is "1 to 4 cards", with more ("more ") before "cards".
func capText(r engine.Rules, seats int, more string) string {
	n := capNumber(r, seats)
	switch {
	case n == "1":
		return "1 " + more + "card"
	case r.Cap == 0 && seats == 0:
		return "1 to 4 " + more + "cards a deck (8 with two decks)"
	}
	return "1 to " + n + " " + more + "cards"
}

// sneakText is V14: how many may be sneaked and what a caught sneak costs.
func sneakText(r engine.Rules) string {
	n := "1 extra card"
	if r.Sneak > 1 {
		n = fmt.Sprintf("%d extra cards", r.Sneak)
	}
	s := fmt.Sprintf("Sneak: you may slip up to %s under your claim, unclaimed (S sets how many).", n)
	if r.CountLies {
		s = fmt.Sprintf("Sneak: you may put down up to %s than you claim (+ −), unclaimed.", strings.Replace(n, "extra card", "more card", 1))
	}
	return s + fmt.Sprintf(" Caught sneaking, you take the pile, and the caller also hands you a card of their choice (H, within %s) unless it's their last.", secs(engine.GiveTime))
}

func quadsText() string {
	return "Four of a kind: on your turn, before you play, you may lay four of one rank face up (4); they leave the game. Never your last cards."
}

// countsText is how the hand and pile sizes are shown: V14's rough counts
// with the buckets the engine uses.
func countsText(r engine.Rules) string {
	if !r.Rough {
		return "Hand and pile sizes are shown exactly."
	}
	buckets := func(bs []engine.Count) string {
		s := make([]string, len(bs))
		for i, c := range bs {
			s[i] = c.String()
		}
		return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
	}
	return fmt.Sprintf("Counts are rough: a hand over %d cards shows only as %s; the pile over %d as %s. Your own hand is exact.",
		engine.HandExact, buckets(engine.HandBuckets), engine.PileExact, buckets(engine.PileBuckets))
}

func secs(d time.Duration) string {
	s := d.Seconds()
	if s == 1 {
		return "1 second"
	}
	return fmt.Sprintf("%g seconds", s)
}

// rulesKeys are the keys of the moves this table has, as README's table
// names them.
func rulesKeys(r engine.Rules) []bkey.Binding {
	t := tableKeys
	k := []bkey.Binding{t.Left, as(t.Pick, "pick")}
	if r.Doubt {
		k = append(k, as(t.Rank, "rank"), as(t.Claim, "play or add"))
		if r.CountLies {
			k = append(k, as(t.More, "count"))
		}
		if r.Quads {
			k = append(k, as(t.Quads, "four of a kind"))
		}
		k = append(k, t.Doubt, t.Believe, t.Skip)
	} else {
		k = append(k, as(t.Claim, "claim"))
		if r.Sequence == engine.SeqFree || r.Sequence == engine.SeqNear || r.Sequence == engine.SeqNearStrict {
			k = append(k, as(t.Rank, "rank"))
		}
		if r.CountLies {
			k = append(k, as(t.More, "count"))
		}
		if r.Sneak > 0 && !r.CountLies {
			k = append(k, as(t.Sneak, "sneak"))
		}
		if r.Quads {
			k = append(k, as(t.Quads, "four of a kind"))
		}
		k = append(k, t.Call, t.Pass)
		if r.Sneak > 0 {
			k = append(k, as(t.HandOver, "hand over"))
		}
	}
	return append(k, t.Sort, t.Help, t.Leave)
}
