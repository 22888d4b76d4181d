package cli

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	bkey "charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/progress"
	"github.com/charmbracelet/x/ansi"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/assist"
)

// view draws the table's screen for its phase.
func (t *tableModel) view() string {
	switch {
	case t.help:
		return t.helpView()
	case t.qr:
		return t.qrView()
	case !t.have:
		e := t.env
		return screen([]string{e.st.titleBar("bullshit", "", e.w), e.st.ruleLine(e.w), "", "  Sitting down…"},
			[]string{e.st.ruleLine(e.w), e.st.keyBar(e.w, tableKeys.Leave)}, e.w, e.h)
	case t.over() && t.reveal == nil:
		// A call that ended the game is shown like any other, for the
		// host's reveal pause, before the sheet.
		return t.resultView()
	case t.v() == nil:
		return t.waitingView()
	}
	return t.gameView()
}

// title is the table's name, its preset and what's going on.
func (t *tableModel) title(what string) string { return t.titleWith(what, true) }

// titleWith is title, with the host's words or without.
func (t *tableModel) titleWith(what string, words bool) string {
	ts := t.u.Table
	parts := []string{}
	if ts.Name != "" {
		parts = append(parts, ts.Name)
	}
	if ts.Words != "" && words {
		parts = append(parts, ts.Words) // whose table this is: the host's key
	}
	p := ts.Preset
	if p == "" {
		p = ts.Rules.Preset
	}
	if p != "" {
		parts = append(parts, p)
	}
	if what != "" {
		parts = append(parts, what)
	}
	return strings.Join(parts, " · ")
}

// titleLine is the game's title bar: the table, the host's words, the
// preset and the play on the left, the keys on the right. Where both
// don't fit (80 columns with a web address), the words go first (the
// seats and the waiting room name the host), then the address (W shows
// it), so the preset and the play number are never cut.
func (t *tableModel) titleLine(what string, keys []bkey.Binding, w int) string {
	st := t.env.st
	fits := func(l, r string) bool { return width(l)+width(r)+3 <= w }
	left, right := t.titleWith(what, true), bar(plainKeys, keys...)
	if !fits(left, right) {
		left = t.titleWith(what, false)
	}
	if !fits(left, right) && len(keys) > 0 && isNote(keys[0]) {
		right = bar(plainKeys, keys[1:]...)
	}
	return st.titleBar(left, right, w)
}

// gameView is the table during a game: seats, middle, hand, dock.
func (t *tableModel) gameView() string {
	e := t.env
	st, w, h := e.st, e.w, e.h
	v := t.v()
	what := fmt.Sprintf("play %d", v.No)
	if v.No == 0 {
		what = "first play"
	}
	if t.me() < 0 {
		what += " · watching"
	}
	km := tableKeys
	keys := []bkey.Binding{km.Sort, appKeys.Rules, km.Help, km.Leave}
	if web := t.u.Table.Web; web != "" {
		// Where phones join, in the room O and I take (help has them).
		keys = []bkey.Binding{note(web), km.Web, km.Help, km.Leave}
	}
	top := []string{t.titleLine(what, keys, w), st.ruleLine(w)}
	// The seats take three lines a row, or one where the screen is short:
	// the hand always keeps a row.
	seatLines := t.seatsBlock(w, false)
	if 2+len(seatLines)+1+4+1+1+3+3 > h {
		seatLines = t.seatsBlock(w, true)
	}
	top = append(top, seatLines...)
	top = append(top, st.ruleLine(w))
	top = append(top, t.middle(w)...)
	top = append(top, st.ruleLine(w))

	bottom := []string{st.ruleLine(w), t.statusLine(w), t.dock(w)}
	var hand []string
	if t.me() >= 0 {
		room := h - len(top) - len(bottom) - 2 // the header and the caret line
		hand = t.handBlock(w, max(room, 1))
	}
	// What's left between the middle and the hand is the table talk: the
	// latest events, newest last. The hand stays just above the dock.
	room := h - len(top) - len(hand) - len(bottom)
	if len(hand) > 0 {
		room-- // the rule over the hand
	}
	if room > 0 && len(t.log) > 0 {
		talk := t.talk(room, w)
		top = append(top, talk...)
		room -= len(talk)
	}
	for ; room > 0; room-- {
		top = append(top, "")
	}
	if len(hand) > 0 {
		top = append(top, st.ruleLine(w))
	}
	return screen(append(top, hand...), bottom, w, h)
}

// talk is the latest news, newest last, in at most room lines of w
// columns: a long line wraps (indented under its start) instead of being
// cut at the screen's edge.
func (t *tableModel) talk(room, w int) []string {
	st := t.env.st
	var out []string
	for i := len(t.log) - 1; i >= 0 && len(out) < room; i-- {
		lines := strings.Split(ansi.Wrap(t.log[i], max(w-5, 10), ""), "\n")
		for j, l := range lines {
			pad := "   "
			if j > 0 {
				pad = "     "
			}
			lines[j] = pad + st.r(st.faint, strings.TrimRight(l, " "))
		}
		out = append(lines, out...)
	}
	if len(out) > room {
		out = out[len(out)-room:]
	}
	return out
}

// others are the seats round the table from your left to your right; a
// spectator sees them all from seat 1.
func (t *tableModel) others(v *engine.View) []int {
	n, me := seats(v), t.me()
	var out []int
	if me < 0 {
		for s := range n {
			out = append(out, s)
		}
		return out
	}
	d := 1
	if v.Rules.CCW {
		d = n - 1
	}
	for i := 1; i < n; i++ {
		out = append(out, (me+i*d)%n)
	}
	return out
}

// seatsBlock is the strip of seats: name and bot, hand size, bubble; in
// three lines a seat, or compact in one.
func (t *tableModel) seatsBlock(w int, compact bool) []string {
	v := t.v()
	others := t.others(v)
	cols := max(1, min(len(others), w/16))
	if compact {
		cols = max(1, min(len(others), w/26))
	}
	cw := w / cols
	var out []string
	for i := 0; i < len(others); i += cols {
		row := others[i:min(i+cols, len(others))]
		var l1, l2, l3 strings.Builder
		for _, s := range row {
			if compact {
				l1.WriteString("  " + fit(t.seatLine(v, s), cw-2))
				continue
			}
			a, b, c := t.seatCell(v, s, cw-2)
			l1.WriteString("  " + fit(a, cw-2))
			l2.WriteString("  " + fit(b, cw-2))
			l3.WriteString("  " + fit(c, cw-2))
		}
		if compact {
			out = append(out, l1.String())
		} else {
			out = append(out, l1.String(), l2.String(), l3.String())
		}
	}
	return out
}

// seatCell is one seat's three lines.
func (t *tableModel) seatCell(v *engine.View, s, w int) (string, string, string) {
	st := t.env.st
	info := node0(t.u.Table.Seats, s)
	name := t.name(s)
	mark := "  "
	turn := v.Turn == s && v.Phase != engine.PhaseOver && !out(v, s)
	if turn {
		mark = "▸ "
	}
	line1 := mark + name
	if turn {
		line1 = st.r(st.turn, line1)
	}
	// At a blind table a bot runs on a player's node, which knows its
	// cards: every screen says whose.
	on := ""
	if info.RunBy != "" {
		on = " on " + info.RunBy + "'s"
	}
	switch {
	case info.Covered:
		line1 += " " + st.r(st.faint, "bot covering"+on)
	case info.Bot != "" && width(line1)+5+len(info.Bot)+len(on) <= w:
		line1 += " " + st.r(st.faint, "bot·"+info.Bot+on)
	case info.Bot != "" && width(line1)+4+len(on) <= w:
		line1 += " " + st.r(st.faint, "bot"+on)
	case info.Bot != "":
		line1 += " " + st.r(st.faint, "bot")
	case !info.Connected && info.Name != "":
		line1 += " " + st.r(st.warn, "away")
	}
	count := "  " + countWords(v.Hands[s])
	if out(v, s) {
		count = "  " + st.r(st.good, "Out! "+Ordinal(v.Placed[s]))
	}
	b := t.bubbles[s]
	bub := b.text
	switch b.kind {
	case bubbleShout:
		bub = st.r(st.shout, bub)
	case bubbleOut:
		bub = st.r(st.good, bub)
	case bubbleLast:
		bub = st.r(st.warn, bub)
	case bubbleQuiet:
		bub = st.r(st.faint, bub)
	}
	if out(v, s) && b.kind == bubbleOut {
		bub = ""
	}
	return cut(line1, w), count, "  " + cut(bub, w-2)
}

// seatLine is one seat in a line, for short screens: the turn, the name,
// the hand's size and the bubble.
func (t *tableModel) seatLine(v *engine.View, s int) string {
	st := t.env.st
	mark := "  "
	if v.Turn == s && v.Phase != engine.PhaseOver && !out(v, s) {
		mark = "▸ "
	}
	line := st.r(st.bold, mark+t.name(s)) + " " + v.Hands[s].String()
	if out(v, s) {
		line = mark + t.name(s) + " " + st.r(st.good, "Out!")
	}
	if b := t.bubbles[s]; b.text != "" && b.kind != bubbleOut {
		look := st.faint
		if b.kind == bubbleShout {
			look = st.shout
		}
		line += " " + st.r(look, b.text)
	}
	return line
}

// node0 is seat s's info, or an empty one.
func node0[T any](xs []T, i int) T {
	var z T
	if i < 0 || i >= len(xs) {
		return z
	}
	return xs[i]
}

// middle is the rank, the pile, the last claim, the clock and the assist
// line; or, during the reveal pause, the reveal.
func (t *tableModel) middle(w int) []string {
	if t.reveal != nil {
		return t.revealLines(w)
	}
	v := t.v()
	c := t.can()
	half := w / 2
	rank := t.rankLine(v, c)
	pile := "Pile  " + countWords(t.pileKnown.Count(v))
	if v.Gone > 0 {
		pile += fmt.Sprintf(" · %d out of the game", v.Gone)
	}
	lines := []string{"   " + fit(rank, half-3) + pile}
	// The last claim and how the counts moved.
	claim, sizes := "", ""
	if l := v.Last; l != nil {
		claim = t.verb(l.Seat, "claim ", "claims ") + claimWords(l.Claim, l.Rank)
		if l.Shown {
			claim += " (turned up)"
		}
		s := t.pileKnown.Sizes(l, t.me())
		if s.HandBefore != (engine.Count{}) || s.HandAfter != (engine.Count{}) {
			who := t.possessive(l.Seat)
			who = strings.ToUpper(who[:1]) + who[1:]
			sizes = fmt.Sprintf("%s hand %s → %s · pile %s → %s", who, s.HandBefore, s.HandAfter, s.PileBefore, s.PileAfter)
		}
	}
	lines = append(lines, "   "+fit(claim, half-3)+sizes)
	clock := t.clockLine(w-3, c)
	if t.u.Table.Paused {
		clock = t.env.st.r(t.env.st.warn, "⏸ "+PausedText) + "  " + clock
	}
	lines = append(lines, "   "+clock)
	// The assist: a claim that can't be true; else a first-run hint.
	note := ""
	if !t.env.prefs.NoCount && (v.Phase == engine.PhaseCall || c.Judge) {
		if s := cantBeTrue(v, t.name); s != "" {
			note = t.env.st.r(t.env.st.warn, s)
		}
	}
	lines = append(lines, "   "+note)
	return lines
}

// revealLines are the reveal pause's four lines: the shout, the cards, the
// verdict and the sweep, and the latest news after them.
func (t *tableModel) revealLines(w int) []string {
	var out []string
	for _, l := range t.reveal.lines {
		out = append(out, wrap("   ", l, w)...)
	}
	if len(out) > 6 {
		// Up to six lines, so a line that wraps loses nothing; past
		// that the shout and the cards, and the latest news.
		out = append(out[:5], out[len(out)-1])
	}
	for len(out) < 4 {
		out = append(out, "")
	}
	return out
}

// rankLine says which rank the next play claims, or who names it.
func (t *tableModel) rankLine(v *engine.View, c can) string {
	st := t.env.st
	switch {
	case v.Rules.Doubt && v.Round != nil && v.Round.Rank.Valid():
		return "Round of  " + st.r(st.bold, strings.ToUpper(v.Round.Rank.Word(2)))
	case v.Rules.Doubt && c.Choose:
		return "New round: you name it  " + st.r(st.bold, strings.ToUpper(t.rank.Word(2))) + "  (R)"
	case v.Rules.Doubt:
		return "New round: " + t.name(v.Turn) + " names the rank"
	case c.Choose:
		return "Your claim  " + st.r(st.bold, strings.ToUpper(t.rank.Word(2))) + "  (R changes)"
	case v.Phase == engine.PhaseCall && v.Last != nil:
		// In a window the rank called is the one on trial.
		rank := "Rank called  " + st.r(st.bold, strings.ToUpper(v.Last.Rank.Word(2)))
		if v.Rank.Valid() {
			rank += st.r(st.faint, "  next: "+v.Rank.Word(2))
		}
		return rank
	case v.Rank.Valid():
		return "Rank called  " + st.r(st.bold, strings.ToUpper(v.Rank.Word(2)))
	case len(v.Ranks) > 0:
		var rs []string
		for _, r := range v.Ranks {
			rs = append(rs, r.String())
		}
		return "Next claim  " + strings.Join(rs, ", ")
	}
	return "Any rank: the player names it"
}

// clockLine is the countdown bar in a window or a hand-over, else whose
// turn it is.
func (t *tableModel) clockLine(w int, c can) string {
	st := t.env.st
	v := t.v()
	left := t.left()
	secs := fmt.Sprintf("%.1f s", left.Seconds())
	switch v.Phase {
	case engine.PhaseCall:
		label := secs + " to call"
		switch {
		case v.Last != nil && v.Last.Seat == t.me():
			label = secs + " for the others to call"
		case t.me() >= 0 && v.Window != nil && slices.Contains(v.Window.Passed, t.me()):
			label = secs + " · you let it go"
		case !c.Call && t.me() >= 0:
			label = secs + " for the others to call"
		}
		return t.bar(left, v.Rules.Window, min(30, w/3)) + "  " + label
	case engine.PhaseGive:
		g := v.Give
		label := fmt.Sprintf("%s picks a card for %s · %s", t.name(g.From), t.nameObj(g.To), secs)
		if g.From == t.me() {
			label = fmt.Sprintf("Pick a card to hand %s · %s", t.name(g.To), secs)
		}
		return t.bar(left, engine.GiveTime, min(30, w/3)) + "  " + label
	}
	if v.Turn == t.me() {
		switch {
		case c.Judge:
			return st.r(st.turn, "▸ Your turn: add cards, doubt, believe or skip")
		case v.Rules.Doubt && c.Choose:
			return st.r(st.turn, "▸ Your turn: name a rank and play")
		case c.Choose:
			return st.r(st.turn, "▸ Your turn: pick cards and claim a rank")
		}
		return st.r(st.turn, "▸ Your turn: claim "+v.Rank.Word(2))
	}
	return t.name(v.Turn) + " to play…"
}

// bar is the countdown, a bubbles progress bar: full at the window's
// length, empty at its close, red for its last 2 seconds.
func (t *tableModel) bar(left, total time.Duration, w int) string {
	st := t.env.st
	if total <= 0 {
		total = 6 * time.Second
	}
	look := st.barFull
	if left <= 2*time.Second {
		look = st.barLow
	}
	p := progress.New(progress.WithWidth(w), progress.WithoutPercentage(), progress.WithFillCharacters('█', '░'),
		progress.WithColors(look.GetForeground()))
	p.EmptyColor = st.faint.GetForeground()
	return p.ViewAs(float64(left) / float64(total))
}

// cellW is the width of a card on screen: "[10♥]*".
const cellW = 6

// handBlock is your hand: a header, the cards in rows, and a caret under
// the cursor; at most rows rows of cards.
func (t *tableModel) handBlock(w, rows int) []string {
	st := t.env.st
	v := t.v()
	c := t.can()
	head := fmt.Sprintf(" Your hand · %d", len(t.hand))
	if out(v, t.me()) {
		head = " You're out: " + Ordinal(v.Placed[t.me()]) + " place"
	}
	if d := t.u.Dealing; d != "" && len(t.hand) == 0 {
		head = " " + d // a blind deal: the nodes are still shuffling
	}
	info := ""
	if k := t.u.Arriving; k == 1 {
		info = "1 card comes to your hand" // a blind table: handed over by its player's node
	} else if k > 1 {
		info = fmt.Sprintf("%d cards come to your hand", k)
	}
	if k := t.nPicked(); k > 0 {
		info = fmt.Sprintf("picked %d", k)
		if c.Play {
			if r := t.claimRank(c, v); r.Valid() {
				info += " · claim " + claimWords(t.claim(v), r)
				if under := k - t.claim(v); under > 0 {
					info += fmt.Sprintf(" +%d under", under)
				}
			}
		}
	}
	km := tableKeys
	keys := []bkey.Binding{km.Left, as(km.Pick, "pick")}
	if t.nPicked() > 0 {
		keys = append(keys, km.Clear)
	}
	left := head
	if info != "" {
		left += "    " + st.r(st.picked, info)
	}
	out := []string{spreadOr(left, st.r(st.faint, bar(plainKeys, keys...))+" ", w)}
	lit := engine.NoRank
	if len(t.hand) > 0 && !t.env.prefs.NoLight && v.Phase != engine.PhaseOver {
		switch {
		case c.Play && !c.Call:
			lit = t.claimRank(c, v)
		case v.Phase == engine.PhaseCall && v.Last != nil:
			lit = v.Last.Rank
		default:
			lit = v.Rank
		}
	}
	return append(out, t.rows(st, w, rows, lit)...)
}

// statusLine is one line of news: a refusal, the table's notice, what a
// sneak will show, or what to do now.
func (t *tableModel) statusLine(w int) string {
	st := t.env.st
	v := t.v()
	if t.confirm {
		return " " + st.r(st.bold, "Leave the table? ") + bar(st.moves, tableKeys.Yes, tableKeys.No)
	}
	if t.giving {
		return " " + st.r(st.bold, fmt.Sprintf("Which seat does a bot play until its person moves again? 1–%d, any other key: none", len(t.u.Table.Seats)))
	}
	if t.ending {
		return " " + st.r(st.bold, "End the game now, for everyone? ") +
			bar(st.moves, as(tableKeys.Yes, "end it"), as(tableKeys.No, "play on"))
	}
	if t.u.Table.Paused {
		// Every screen at the table says so, above all else but a question.
		say := PausedText
		if t.isHost() {
			say += " P goes on."
		}
		return " " + st.r(st.warn, say)
	}
	if t.status != "" {
		if t.bad {
			return " " + st.r(st.refusal, t.status)
		}
		return " " + st.r(st.warn, t.status)
	}
	if t.hint != "" {
		return " " + st.r(st.hint, hintText[t.hint])
	}
	c := t.can()
	if c.Play && v.Rules.Sneak > 0 {
		k := t.nPicked()
		if under := k - t.claim(v); under > 0 {
			hand, pile := sneakShows(v, k, t.claim(v))
			rough := v.Rules.Rough
			looks := fmt.Sprintf("your hand %s → %s", engine.Seen(len(v.Hand), false, rough), engine.Seen(len(v.Hand)-k, false, rough))
			switch {
			case hand:
				return " " + st.r(st.warn, fmt.Sprintf("Sneak %d shows: %s is more than %d.", under, looks, t.claim(v)))
			case pile:
				return " " + st.r(st.warn, fmt.Sprintf("Sneak %d: %s hides it; the pile may not.", under, looks))
			}
			return " " + st.r(st.good, fmt.Sprintf("Sneak %d won't show: %s.", under, looks))
		}
	}
	if c.Play && t.nPicked() == 0 {
		r := t.claimRank(c, v)
		if r.Valid() && matches(v.Hand, r) == 0 {
			return " " + fmt.Sprintf("No %s in your hand: pick a card or two to bluff.", r.Word(2))
		}
	}
	return ""
}

// dock is the moves that fit the moment, the main one on the right.
func (t *tableModel) dock(w int) string {
	st := t.env.st
	v := t.v()
	c := t.can()
	km := tableKeys
	if t.confirm {
		return " " + spread(st.keyed(km.Yes, "Leave the table"), st.keyed(km.No, "Stay")+" ", w-1)
	}
	if t.ending {
		return " " + spread(st.keyed(km.Yes, "End the game"), st.keyed(km.No, "Play on")+" ", w-1)
	}
	var left []string
	main := ""
	claimLabel := func(verb string) string { return t.claimLabel(c, verb) }
	switch {
	case v.Phase == engine.PhaseOver:
		left = append(left, "Game over: the result follows the cards.")
	case t.me() < 0:
		left = append(left, "Watching")
	case c.Give:
		left = append(left, "← → space  pick the card")
		cards := t.pickedCards(engine.NoRank)
		if len(cards) == v.Give.Count {
			main = st.keyed(km.HandOver, st.r(st.main, "Hand over "+cardList(cards)))
		} else {
			main = st.r(st.faint, bar(plainMoves, as(km.HandOver, "Pick a card to hand over")))
		}
	case t.reveal != nil && (c.Play || c.Judge):
		// The host holds every play until the reveal pause is over:
		// offer nothing it would refuse.
		left = append(left, "Your turn is next: the cards are still being shown…")
	case c.Call:
		left = append(left, st.keyed(km.Pass, "Let it go"))
		if c.Play {
			left = append(left, claimLabel("Claim"))
		}
		main = st.keyed(km.Call, st.r(st.main, "BULLSHIT!"))
	case c.Judge:
		left = append(left, st.keyed(km.Doubt, "Doubt"), st.keyed(km.Believe, "Believe"), st.keyed(km.Skip, "Skip"))
		main = claimLabel(assist.PlayVerb(v, t.me()))
	case c.Play:
		left = append(left, t.playExtras(v, c)...)
		main = claimLabel(assist.PlayVerb(v, t.me()))
	case v.Phase == engine.PhaseCall && v.Last != nil && v.Last.Seat == t.me():
		left = append(left, "Your play is open to a call…")
	case v.Phase == engine.PhaseCall:
		left = append(left, "Waiting for the others to call…")
	case v.Phase == engine.PhaseGive:
		left = append(left, fmt.Sprintf("%s is handing over a card…", t.name(v.Give.From)))
	case out(v, t.me()):
		left = append(left, "You're out: watching the rest play.")
	default:
		left = append(left, t.name(v.Turn)+" is playing…")
	}
	return " " + spread(strings.Join(left, "    "), main+" ", w-1)
}

// claimLabel is the dock's main move for a play: the claim the picked
// cards make, or why they can't go as they stand.
func (t *tableModel) claimLabel(c can, verb string) string {
	st, km, v := t.env.st, tableKeys, t.v()
	r := t.claimRank(c, v)
	k := t.nPicked()
	if k == 0 || !r.Valid() {
		return st.r(st.faint, bar(plainMoves, as(km.Claim, "Pick cards to claim")))
	}
	if p := t.claimProblem(v); p != "" {
		return st.r(st.warn, p)
	}
	label := verb + " " + claimWords(t.claim(v), r)
	if under := k - t.claim(v); under > 0 {
		label += fmt.Sprintf(" +%d", under)
	}
	return st.keyed(km.Claim, st.r(st.main, label))
}

// playExtras are the dock's other moves on our turn: sneak, the claimed
// count, the rank to name, four of a kind to lay out.
func (t *tableModel) playExtras(v *engine.View, c can) []string {
	st, km := t.env.st, tableKeys
	var out []string
	if v.Rules.Sneak > 0 && !v.Rules.CountLies {
		out = append(out, st.keyed(km.Sneak, fmt.Sprintf("Sneak %d", min(t.sneak, t.maxSneak(v)))))
	}
	if v.Rules.CountLies {
		out = append(out, st.keyed(km.More, "claimed count"))
	}
	if c.Choose {
		out = append(out, st.keyed(km.Rank, "Rank ▸ "+t.rank.Word(2)))
	}
	if c.Quads {
		q := quadsIn(v.Hand, v.Rules)[0]
		out = append(out, st.keyed(km.Quads, "Lay out four "+q.Word(2)))
	}
	return out
}

// helpView is the keys, the assists and this table's rules.
func (t *tableModel) helpView() string {
	e := t.env
	st, w := e.st, e.w
	on := func(off bool) string {
		if off {
			return st.r(st.faint, "off")
		}
		return st.r(st.good, "on")
	}
	km := tableKeys
	row := func(label string, keys ...bkey.Binding) string { return label + bar(st.moves, keys...) }
	lines := []string{
		st.titleBar("Help · keys and assists", "any key closes", w), st.ruleLine(w),
		row("  Your turn    ", km.Left, km.Pick, km.PickUp, km.Clear),
		row("               ", km.Claim, km.Sneak),
		row("               ", km.Rank, km.More),
		row("               ", km.Quads),
		row("  Call window  ", km.Call, km.Pass),
		row("  I Doubt It   ", km.Doubt, km.Believe, km.Skip, as(km.Claim, "add cards")),
		row("  Hand-over    pick the card (one is picked for you), then ", km.HandOver),
		row("  Any time     ", as(km.Sort, "sort the hand"), km.Help, as(km.Leave, "leave the table")),
		row("  The host     ", km.EndGame, km.GiveSeat),
		row("               ", km.Pause),
		row("               ", as(km.Web, "a QR code of the table's web address, for phones")),
		"",
		"  Assists: press the number to switch",
	}
	for i, off := range []bool{e.prefs.NoLight, e.prefs.NoPick, e.prefs.NoCount, e.prefs.NoBell || e.cfg.NoBell} {
		lines = append(lines, "  "+fit(bar(st.moves, km.Assists[i]), 44)+on(off))
	}
	lines = append(lines, row("  ", km.Assists[4]), "")
	lines = append(lines, wrap("  This table: ", t.tableSummary(), w)...)
	return screen(lines, []string{st.ruleLine(w), t.helpNote()}, w, e.h)
}

// helpNote is the line under help: the table goes on behind it, so it
// says when something waits on you.
func (t *tableModel) helpNote() string {
	if n := t.turnNote("any key"); n != "" {
		return n
	}
	return " " + t.env.st.r(t.env.st.faint, "The game goes on behind this screen; any key goes back to the table.")
}

// waitsNote is the line under the rules screen at a table: what waits on
// you, or how to go back.
func (t *tableModel) waitsNote(key string) string {
	st := t.env.st
	if n := t.turnNote(key); n != "" {
		return n
	}
	if v := t.v(); v != nil && v.Phase != engine.PhaseOver {
		return " " + st.r(st.faint, "The game goes on behind this screen; "+key+" goes back to the table.")
	}
	return " " + st.r(st.faint, key+" goes back to the table.")
}

// turnNote says what waits on you at the table, when something does, for
// a screen over it that key closes.
func (t *tableModel) turnNote(key string) string {
	st := t.env.st
	c := t.can()
	back := " — press " + key + " to go back to the table"
	switch {
	case c.Give:
		return " " + st.r(st.turn, "▸ Your turn: hand over a card"+back)
	case c.Play || c.Judge:
		return " " + st.r(st.turn, "▸ Your turn"+back)
	case c.Call:
		return " " + st.r(st.turn, "▸ A play is open to call"+back)
	}
	return ""
}

// tableSummary is the table's rules and its turn clock, in a line.
func (t *tableModel) tableSummary() string {
	s := rulesSummary(t.u.Table.Rules)
	if c := t.u.Table.TurnClock; c > 0 {
		s += fmt.Sprintf(" · turn clock %g s", c.Seconds())
	}
	return s
}

// rulesSummary is a table's rules in a line: the preset, the keys that
// differ from it, and the window.
func rulesSummary(r engine.Rules) string {
	base, ok := engine.Preset(r.Preset)
	if !ok {
		base = engine.Standard()
	}
	name := r.Preset
	if name == "" {
		name = "standard"
	}
	parts := []string{name}
	bm, rm := base.Map(), r.Map()
	keys := make([]string, 0, len(engine.RuleKeys))
	for _, k := range engine.RuleKeys {
		if k != "window" && fmt.Sprint(bm[k]) != fmt.Sprint(rm[k]) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %v", strings.ReplaceAll(k, "_", " "), rm[k]))
	}
	if r.Window > 0 && !r.Doubt {
		parts = append(parts, fmt.Sprintf("%g s to call", r.Window.Seconds()))
	}
	return strings.Join(parts, " · ")
}
