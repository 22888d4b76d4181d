package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/bullshit-game/bullshit/engine"
)

// revealPanel is a call played out: the shout, the cards turned up, the
// verdict and where the pile goes. It stays for the host's reveal pause,
// during which nobody may play, so every screen shows the same moment.
type revealPanel struct {
	lines []string
	until time.Time
}

// cardList is cards as a player reads them: "K♦  7♥".
func cardList(cs []engine.Card) string {
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = c.Symbol()
	}
	return strings.Join(s, "  ")
}

// verb picks the form of a verb for a name: "You take" or "Ben takes".
func (t *tableModel) verb(s int, you, them string) string {
	if s == t.me() {
		return "You " + you
	}
	return t.name(s) + " " + them
}

// ownPlay is your last play with its sizes as you know them: exact, where
// the table may see them roughly (V14).
type ownPlay struct {
	no     int
	before int // your hand before it
	pile   int // the pile before it, -1 if not known
	sizes  engine.Sizes
}

// exactSizes is what your own play did to your hand and the pile: you
// count your own cards exactly, and the pile too while you know every card
// in it. before is your hand before the play, put the cards you put down,
// pile the pile before it (-1: not known); the table's rough sizes stay
// where they don't fit what you know.
func exactSizes(rough engine.Sizes, before, put, pile int) engine.Sizes {
	s := rough
	if rough.HandBefore.Has(before) && rough.HandAfter.Has(before-put) {
		s.HandBefore, s.HandAfter = engine.Exact(before), engine.Exact(before-put)
	}
	if pile >= 0 && rough.PileBefore.Has(pile) && rough.PileAfter.Has(pile+put) {
		s.PileBefore, s.PileAfter = engine.Exact(pile), engine.Exact(pile+put)
	}
	return s
}

// sizes is how a play changed the counts: exact for your own.
func (t *tableModel) sizes(l *engine.Last) engine.Sizes {
	if l.Seat == t.me() && t.own.no == l.No && l.No > 0 {
		return t.own.sizes
	}
	return l.Sizes
}

// pileCount is the pile as you can count it: exact while you know every
// card in it, else as the table sees it.
func (t *tableModel) pileCount(v *engine.View) engine.Count {
	if !v.Pile.IsExact() && t.pileKnown >= 0 && v.Pile.Has(t.pileKnown) {
		return engine.Exact(t.pileKnown)
	}
	return v.Pile
}

// taken is how many cards a seat took with the pile: exact when you know
// the pile, or when you took it (your hand is yours to count).
func (t *tableModel) taken(e engine.Event) engine.Count {
	if e.Count.IsExact() {
		return e.Count
	}
	if t.pileKnown >= 0 && e.Count.Has(t.pileKnown) {
		return engine.Exact(t.pileKnown)
	}
	if e.Seat == t.me() && e.Seat >= 0 {
		// t.hand is still the hand before this update.
		if d := len(t.u.View.Hand) - len(t.hand); d > 0 && e.Count.Has(d) {
			return engine.Exact(d)
		}
	}
	return e.Count
}

// checkPile keeps the known pile honest with the view: the view's count
// when it is exact, and nothing known when they disagree or updates were
// missed (a reconnection's backlog).
func (t *tableModel) checkPile(v *engine.View, backlog bool) {
	switch {
	case v.Pile.IsExact():
		t.pileKnown = v.Pile.Lo
	case backlog || !v.Pile.Has(t.pileKnown):
		t.pileKnown = -1
	}
}

func (t *tableModel) addLog(line string) {
	t.log = append(t.log, line)
	if len(t.log) > 60 {
		t.log = t.log[len(t.log)-60:]
	}
}

// eventBatch is what one call of events shares across its events: the
// reveal panel a call in it opens, and the time it arrived.
type eventBatch struct {
	t     *tableModel
	at    time.Time
	panel *revealPanel
}

// open is the panel of a call in this batch, made on first use.
func (b *eventBatch) open() *revealPanel {
	if b.panel == nil {
		b.panel = &revealPanel{until: b.at.Add(b.t.u.Table.RevealPause())}
	}
	return b.panel
}

// news goes to the log, and to the panel of a call this update made;
// late news of a call (the hand-over) to the panel still showing.
func (b *eventBatch) news(line string, late bool) {
	t := b.t
	t.addLog(line)
	switch {
	case b.panel != nil:
		b.panel.lines = append(b.panel.lines, line)
	case late && t.reveal != nil && b.at.Before(t.reveal.until):
		t.reveal.lines = append(t.reveal.lines, line)
	}
}

// events turns what happened into the log, the seats' bubbles and, for a
// call, the reveal panel. One case per event type: the short ones inline,
// the longer ones in an on… method each.
func (t *tableModel) events(evs []engine.Event, at time.Time) {
	b := &eventBatch{t: t, at: at}
	for _, e := range evs {
		switch e.Type {
		case engine.EventDeal:
			t.onDeal(e)
		case engine.EventPlay:
			t.onPlay(e)
		case engine.EventMine:
			t.onMine(e)
		case engine.EventPass:
			t.bubbles[e.Seat] = bubble{text: "let it go", kind: bubbleQuiet}
			if e.Seat == t.me() {
				t.addLog("You let it go.")
			}
		case engine.EventStand:
			t.addLog(fmt.Sprintf("Nobody called: %s claim stands.", t.possessive(e.Seat)))
		case engine.EventCall, engine.EventDoubt, engine.EventBelieve:
			t.onCall(b, e)
		case engine.EventReveal:
			t.onReveal(b, e)
		case engine.EventTake:
			t.onTake(b, e)
		case engine.EventGive:
			line := t.verb(e.Seat, "hand "+t.name(e.Target), "hands "+t.nameObj(e.Target)) + " a card"
			if e.Auto {
				line += " (the clock chose it)"
			}
			line += "."
			b.news(line, true)
		case engine.EventHanded:
			if e.Target == t.me() {
				b.news(fmt.Sprintf("You get %s from %s.", cardList(e.Cards), t.name(e.Seat)), true)
			}
		case engine.EventQuads:
			t.bubbles[e.Seat] = bubble{text: "four " + e.Rank.Word(2) + " out"}
			b.news(fmt.Sprintf("%s four %s out of the game: %s", t.verb(e.Seat, "lay", "lays"), e.Rank.Word(2), cardList(e.Cards)), false)
		case engine.EventSkip:
			t.bubbles[e.Seat] = bubble{text: "skips", kind: bubbleQuiet}
			t.addLog(t.verb(e.Seat, "skip.", "skips."))
		case engine.EventLeave:
			n := e.Count
			if !n.IsExact() && t.pileKnown >= 0 && n.Has(t.pileKnown) {
				n = engine.Exact(t.pileKnown)
			}
			t.pileKnown = 0
			b.news(fmt.Sprintf("The round's %s leave the game.", countWords(n)), false)
		case engine.EventRound:
			t.newRound = true
			t.dropBubbles()
			t.addLog(fmt.Sprintf("New round: %s the rank.", t.verb(e.Seat, "name", "names")))
		case engine.EventOut:
			t.bubbles[e.Seat] = bubble{text: "Out! " + Ordinal(e.Place), kind: bubbleOut, keep: true}
			b.news(fmt.Sprintf("%s out, in %s place.", t.verb(e.Seat, "are", "is"), Ordinal(e.Place)), false)
		case engine.EventWin:
			t.bubbles[e.Seat] = bubble{text: "Out! Wins", kind: bubbleOut, keep: true}
			if e.Seat == t.me() {
				b.news("You win!", false)
			} else {
				b.news(t.name(e.Seat)+" wins!", false)
			}
		case engine.EventOver:
			t.addLog("Game over.")
		}
	}
	if b.panel != nil {
		t.reveal = b.panel
		if t.over() {
			t.lastCall = b.panel.lines
		}
	}
}

// dropBubbles clears every bubble not meant to stay (an "Out!" stays).
func (t *tableModel) dropBubbles() {
	for s, b := range t.bubbles {
		if !b.keep {
			delete(t.bubbles, s)
		}
	}
}

func (t *tableModel) onDeal(e engine.Event) {
	t.bubbles = map[int]bubble{}
	t.pileKnown, t.own, t.lastPile, t.lastNo = 0, ownPlay{}, -1, 0
	if e.Rank.Valid() {
		t.addLog(fmt.Sprintf("New deal: %s first, calling %s.", t.verb(e.Target, "play", "plays"), e.Rank.Word(2)))
	} else {
		t.addLog(fmt.Sprintf("New deal: %s first.", t.verb(e.Target, "play", "plays")))
	}
}

func (t *tableModel) onPlay(e engine.Event) {
	t.dropBubbles()
	if e.Out {
		t.bubbles[e.Seat] = bubble{text: "“" + claimWords(e.Claim, e.Rank) + "” their last!", kind: bubbleLast}
	} else {
		t.bubbles[e.Seat] = bubble{text: "“" + claimWords(e.Claim, e.Rank) + "”"}
	}
	if e.Seat == t.me() && e.Seat >= 0 {
		t.own = ownPlay{no: e.No, before: len(t.hand), pile: t.pileKnown, sizes: e.Sizes}
	}
	t.lastPile, t.lastNo = t.pileKnown, e.No
	t.pileKnown = -1
	if e.Sizes.PileAfter.IsExact() {
		t.pileKnown = e.Sizes.PileAfter.Lo
	}
	line := t.verb(e.Seat, "claim ", "claims ") + claimWords(e.Claim, e.Rank)
	if e.Out {
		line += ": their last cards!"
		if e.Seat == t.me() {
			line = "You claim " + claimWords(e.Claim, e.Rank) + ": your last cards!"
		}
	}
	t.addLog(line)
}

// onMine is the player's own cards of a play, sent to them alone.
func (t *tableModel) onMine(e engine.Event) {
	if e.Seat == t.me() && t.own.no == e.No {
		o := &t.own
		o.sizes = exactSizes(o.sizes, o.before, len(e.Cards), o.pile)
		if o.sizes.PileAfter.IsExact() {
			t.pileKnown = o.sizes.PileAfter.Lo
		}
	}
	if n := len(t.log); n > 0 && strings.HasPrefix(t.log[n-1], "You claim") {
		t.log[n-1] += " (you put down " + cardList(e.Cards) + ")"
	}
}

// onCall is a call, a doubt or a belief: it opens the reveal panel.
func (t *tableModel) onCall(b *eventBatch, e engine.Event) {
	st := t.env.st
	p := b.open()
	t.reveal = nil
	target := e.Target
	if e.Type != engine.EventCall && t.u.View.Last != nil {
		target = t.u.View.Last.Seat
	}
	var line string
	switch e.Type {
	case engine.EventCall:
		t.bubbles[e.Seat] = bubble{text: "Bullshit!", kind: bubbleShout}
		switch {
		case e.Seat == t.me():
			line = fmt.Sprintf("You: “Bullshit!” on %s", t.name(target))
		case target == t.me():
			line = fmt.Sprintf("%s called it on you: “Bullshit!”", t.name(e.Seat))
		default:
			line = fmt.Sprintf("%s: “Bullshit!” on %s", t.name(e.Seat), t.name(target))
		}
	case engine.EventDoubt:
		t.bubbles[e.Seat] = bubble{text: "I doubt it!", kind: bubbleShout}
		line = t.verb(e.Seat, "doubt ", "doubts ") + t.possessive(target) + " play"
	case engine.EventBelieve:
		t.bubbles[e.Seat] = bubble{text: "I believe it", kind: bubbleShout}
		line = t.verb(e.Seat, "believe ", "believes ") + t.possessive(target) + " play"
	}
	p.lines = append(p.lines, st.r(st.shout, line))
	t.addLog(stripANSI(line))
}

func (t *tableModel) onReveal(b *eventBatch, e engine.Event) {
	st := t.env.st
	if e.No == t.lastNo && t.lastPile >= 0 {
		// Every card of the play is on the table now: the pile
		// is what it was before it and these.
		t.pileKnown = t.lastPile + len(e.Cards)
	}
	p := b.open()
	up := "Turned up:  " + cardList(e.Cards)
	if e.Sneaked > 0 {
		up += fmt.Sprintf("   (%d sneaked under the claim of %s)", e.Sneaked, claimWords(e.Claim, e.Rank))
	} else {
		up += "   (claimed " + claimWords(e.Claim, e.Rank) + ")"
	}
	p.lines = append(p.lines, up)
	verdict := st.r(st.good, "Truth!")
	switch {
	case !e.Truth && e.Sneaked > 0:
		verdict = st.r(st.shout, "Caught sneaking!")
	case !e.Truth:
		verdict = st.r(st.shout, "A lie!")
	}
	p.lines = append(p.lines, verdict)
	t.addLog(stripANSI(verdict) + " " + stripANSI(up))
}

func (t *tableModel) onTake(b *eventBatch, e engine.Event) {
	n := t.taken(e)
	t.pileKnown = 0
	line := fmt.Sprintf("%s takes the pile: %s.", t.name(e.Seat), countWords(n))
	if e.Seat == t.me() {
		verb := "come"
		if n == engine.Exact(1) {
			verb = "comes"
		}
		line = fmt.Sprintf("You take the pile: %s %s to your hand.", countWords(n), verb)
	}
	if bb := t.bubbles[e.Seat]; bb.kind == bubbleShout {
		t.bubbles[e.Seat] = bubble{text: bb.text + " +" + n.String(), kind: bubbleShout}
	} else {
		t.bubbles[e.Seat] = bubble{text: "picks up " + n.String(), kind: bubbleQuiet}
	}
	if b.panel != nil && len(b.panel.lines) > 0 {
		// The verdict and the sweep read as one line.
		last := len(b.panel.lines) - 1
		b.panel.lines[last] += "  " + line
		t.addLog(line)
	} else {
		b.news(line, false)
	}
}

// nameObj is a seat as an object: "you" or "Cleo".
func (t *tableModel) nameObj(s int) string {
	if s == t.me() {
		return "you"
	}
	return t.name(s)
}

// Ordinal is 1st, 2nd, 3rd …
func Ordinal(n int) string {
	suf := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suf = "st"
	case n%10 == 2:
		suf = "nd"
	case n%10 == 3:
		suf = "rd"
	}
	return fmt.Sprintf("%d%s", n, suf)
}
