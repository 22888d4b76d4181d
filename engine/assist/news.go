package assist

import (
	"fmt"
	"strings"

	"github.com/bullshit-game/bullshit/engine"
)

// Teller says what happened at a table as one seat hears it: "You take
// the pile" to the seat that takes it, "Ben takes the pile" to the
// others. The terminal's table talk and the phone's news are its
// sentences.
type Teller struct {
	Me   int              // the seat told; -1, a spectator
	Name func(int) string // a seat as the screen names it: "You" for Me
}

// Verb is a seat and the form of a verb that goes with it: "You take",
// "Ben takes".
func (t Teller) Verb(s int, you, them string) string {
	if s >= 0 && s == t.Me {
		return "You " + you
	}
	return t.Name(s) + " " + them
}

// Possessive is "your" or "Cleo's".
func (t Teller) Possessive(s int) string {
	if s >= 0 && s == t.Me {
		return "your"
	}
	return t.Name(s) + "'s"
}

// Object is a seat as the object of a verb: "you" or "Cleo".
func (t Teller) Object(s int) string {
	if s >= 0 && s == t.Me {
		return "you"
	}
	return t.Name(s)
}

// Tell is an event as a sentence, "" for one the seat is not told of. v
// is the view the event came with: a doubt or a belief names the seat of
// the play judged only there (v.Last). Counts are the event's: a screen
// that knows the pile exactly passes an event with its own count. It is
// one case per event type, read against REFEREE.md's list, so it runs long.
func (t Teller) Tell(e engine.Event, v *engine.View) string {
	switch e.Type {
	case engine.EventDeal:
		if e.Rank.Valid() {
			return fmt.Sprintf("New deal: %s first, calling %s.", t.Verb(e.Target, "play", "plays"), e.Rank.Word(2))
		}
		return fmt.Sprintf("New deal: %s first.", t.Verb(e.Target, "play", "plays"))
	case engine.EventPlay:
		line := t.Verb(e.Seat, "claim ", "claims ") + ClaimWords(e.Claim, e.Rank)
		switch {
		case e.Out && e.Seat == t.Me:
			line += ": your last cards!"
		case e.Out:
			line += ": their last cards!"
		}
		return line
	case engine.EventMine:
		return "You put down " + CardList(e.Cards) + "."
	case engine.EventPass:
		if e.Seat >= 0 && e.Seat == t.Me {
			return "You let it go."
		}
	case engine.EventStand:
		return fmt.Sprintf("Nobody called: %s claim stands.", t.Possessive(e.Seat))
	case engine.EventCall:
		switch {
		case e.Seat == t.Me:
			return fmt.Sprintf("You: “Bullshit!” on %s", t.Name(e.Target))
		case e.Target >= 0 && e.Target == t.Me:
			return fmt.Sprintf("%s called it on you: “Bullshit!”", t.Name(e.Seat))
		}
		return fmt.Sprintf("%s: “Bullshit!” on %s", t.Name(e.Seat), t.Name(e.Target))
	case engine.EventDoubt, engine.EventBelieve:
		judged := e.Target
		if v != nil && v.Last != nil {
			judged = v.Last.Seat
		}
		if e.Type == engine.EventDoubt {
			return t.Verb(e.Seat, "doubt ", "doubts ") + t.Possessive(judged) + " play"
		}
		return t.Verb(e.Seat, "believe ", "believes ") + t.Possessive(judged) + " play"
	case engine.EventReveal:
		return Verdict(e) + " " + Turned(e)
	case engine.EventTake:
		if e.Seat >= 0 && e.Seat == t.Me {
			if !e.Count.IsExact() && v != nil {
				// Rough counts (V14) hide the pile's size from everyone
				// but its new holder, who counts their own hand.
				return fmt.Sprintf("You take the pile: you hold %s now.", CountWords(engine.Exact(len(v.Hand))))
			}
			verb := "come"
			if e.Count == engine.Exact(1) {
				verb = "comes"
			}
			return fmt.Sprintf("You take the pile: %s %s to your hand.", CountWords(e.Count), verb)
		}
		return fmt.Sprintf("%s takes the pile: %s.", t.Name(e.Seat), CountWords(e.Count))
	case engine.EventGive:
		line := t.Verb(e.Seat, "hand "+t.Name(e.Target), "hands "+t.Object(e.Target)) + " a card"
		if e.Auto {
			line += " (the clock chose it)"
		}
		return line + "."
	case engine.EventHanded:
		if e.Target >= 0 && e.Target == t.Me {
			return fmt.Sprintf("You get %s from %s.", CardList(e.Cards), t.Name(e.Seat))
		}
	case engine.EventQuads:
		return fmt.Sprintf("%s four %s out of the game: %s", t.Verb(e.Seat, "lay", "lays"), e.Rank.Word(2), CardList(e.Cards))
	case engine.EventSkip:
		return t.Verb(e.Seat, "skip.", "skips.")
	case engine.EventLeave:
		return fmt.Sprintf("The round's %s leave the game.", CountWords(e.Count))
	case engine.EventRound:
		return fmt.Sprintf("New round: %s the rank.", t.Verb(e.Seat, "name", "names"))
	case engine.EventOut:
		return fmt.Sprintf("%s out, in %s place.", t.Verb(e.Seat, "are", "is"), Ordinal(e.Place))
	case engine.EventWin:
		return t.Verb(e.Seat, "win!", "wins!")
	case engine.EventOver:
		return "Game over."
	case engine.EventResume:
		return "The new host restarted the clock."
	}
	return ""
}

// Turned is a call's cards turned up, and what was claimed of them.
func Turned(e engine.Event) string {
	if e.Sneaked > 0 {
		return fmt.Sprintf("Turned up:  %s   (%d sneaked under the claim of %s)", CardList(e.Cards), e.Sneaked, ClaimWords(e.Claim, e.Rank))
	}
	return fmt.Sprintf("Turned up:  %s   (claimed %s)", CardList(e.Cards), ClaimWords(e.Claim, e.Rank))
}

// Verdict is what the cards turned up say: "Truth!", "A lie!" or "Caught
// sneaking!".
func Verdict(e engine.Event) string {
	switch {
	case e.Truth:
		return "Truth!"
	case e.Sneaked > 0:
		return "Caught sneaking!"
	}
	return "A lie!"
}

// CardList is cards as a player reads them: "K♦  7♥".
func CardList(cs []engine.Card) string {
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = c.Symbol()
	}
	return strings.Join(s, "  ")
}

// CountWords is "7 cards", "1 card", "9–10 cards".
func CountWords(c engine.Count) string {
	if c.IsExact() && c.Lo == 1 {
		return "1 card"
	}
	return c.String() + " cards"
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
