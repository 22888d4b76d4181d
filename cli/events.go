package cli

import (
	"strings"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/assist"
)

// revealPanel is a call played out: the shout, the cards turned up, the
// verdict and where the pile goes. It stays for the host's reveal pause,
// during which nobody may play, so every screen shows the same moment.
type revealPanel struct {
	lines []string
	until time.Time
}

// tell is this seat's teller: the sentences of the table talk, the
// phone's news too (engine/assist).
func (t *tableModel) tell() assist.Teller { return assist.Teller{Me: t.me(), Name: t.name} }

// The words of engine/assist's news, by their names here.
func cardList(cs []engine.Card) string                    { return assist.CardList(cs) }
func countWords(c engine.Count) string                    { return assist.CountWords(c) }
func (t *tableModel) verb(s int, you, them string) string { return t.tell().Verb(s, you, them) }
func (t *tableModel) possessive(s int) string             { return t.tell().Possessive(s) }
func (t *tableModel) nameObj(s int) string                { return t.tell().Object(s) }

// Ordinal is 1st, 2nd, 3rd …
func Ordinal(n int) string { return assist.Ordinal(n) }

// addLog puts a line in the table talk; "" is nothing to tell.
func (t *tableModel) addLog(line string) {
	if line == "" {
		return
	}
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
	if line == "" {
		return
	}
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
// the longer ones in an on… method each; the sentences are the teller's.
func (t *tableModel) events(evs []engine.Event, at time.Time) {
	b := &eventBatch{t: t, at: at}
	tell, v := t.tell(), &t.u.View
	for _, e := range evs {
		// The counts you know exactly (engine/assist); t.hand is still
		// the hand before this update.
		e = t.pileKnown.Event(e, t.me(), len(t.hand), len(v.Hand))
		switch e.Type {
		case engine.EventDeal:
			t.onDeal(e)
		case engine.EventPlay:
			t.onPlay(e)
		case engine.EventMine:
			t.onMine(e)
		case engine.EventPass:
			t.bubbles[e.Seat] = bubble{text: "let it go", kind: bubbleQuiet}
			t.addLog(tell.Tell(e, v))
		case engine.EventStand, engine.EventOver:
			t.addLog(tell.Tell(e, v))
		case engine.EventSkip:
			t.bubbles[e.Seat] = bubble{text: "skips", kind: bubbleQuiet}
			t.addLog(tell.Tell(e, v))
		case engine.EventCall, engine.EventDoubt, engine.EventBelieve:
			t.onCall(b, e)
		case engine.EventReveal:
			t.onReveal(b, e)
		case engine.EventTake:
			t.onTake(b, e)
		case engine.EventGive:
			b.news(tell.Tell(e, v), true)
		case engine.EventHanded:
			b.news(tell.Tell(e, v), true)
		case engine.EventQuads:
			t.bubbles[e.Seat] = bubble{text: "four " + e.Rank.Word(2) + " out"}
			b.news(tell.Tell(e, v), false)
		case engine.EventLeave:
			b.news(tell.Tell(e, v), false)
		case engine.EventRound:
			t.newRound = true
			t.dropBubbles()
			t.addLog(tell.Tell(e, v))
		case engine.EventOut:
			t.bubbles[e.Seat] = bubble{text: "Out! " + Ordinal(e.Place), kind: bubbleOut, keep: true}
			b.news(tell.Tell(e, v), false)
		case engine.EventWin:
			t.bubbles[e.Seat] = bubble{text: "Out! Wins", kind: bubbleOut, keep: true}
			b.news(tell.Tell(e, v), false)
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
	t.addLog(t.tell().Tell(e, &t.u.View))
}

func (t *tableModel) onPlay(e engine.Event) {
	t.dropBubbles()
	if e.Out {
		t.bubbles[e.Seat] = bubble{text: "“" + claimWords(e.Claim, e.Rank) + "” their last!", kind: bubbleLast}
	} else {
		t.bubbles[e.Seat] = bubble{text: "“" + claimWords(e.Claim, e.Rank) + "”"}
	}
	t.addLog(t.tell().Tell(e, &t.u.View))
}

// onMine is the player's own cards of a play, sent to them alone.
func (t *tableModel) onMine(e engine.Event) {
	if n := len(t.log); n > 0 && strings.HasPrefix(t.log[n-1], "You claim") {
		t.log[n-1] += " (you put down " + cardList(e.Cards) + ")"
	}
}

// onCall is a call, a doubt or a belief: it opens the reveal panel.
func (t *tableModel) onCall(b *eventBatch, e engine.Event) {
	st := t.env.st
	p := b.open()
	t.reveal = nil
	switch e.Type {
	case engine.EventCall:
		t.bubbles[e.Seat] = bubble{text: "Bullshit!", kind: bubbleShout}
	case engine.EventDoubt:
		t.bubbles[e.Seat] = bubble{text: "I doubt it!", kind: bubbleShout}
	case engine.EventBelieve:
		t.bubbles[e.Seat] = bubble{text: "I believe it", kind: bubbleShout}
	}
	line := t.tell().Tell(e, &t.u.View)
	p.lines = append(p.lines, st.r(st.shout, line))
	t.addLog(line)
}

func (t *tableModel) onReveal(b *eventBatch, e engine.Event) {
	st := t.env.st
	p := b.open()
	look := st.shout
	if e.Truth {
		look = st.good
	}
	p.lines = append(p.lines, assist.Turned(e), st.r(look, assist.Verdict(e)))
	t.addLog(t.tell().Tell(e, &t.u.View))
}

func (t *tableModel) onTake(b *eventBatch, e engine.Event) {
	n := e.Count
	line := t.tell().Tell(e, &t.u.View)
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
