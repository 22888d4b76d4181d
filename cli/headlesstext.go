package cli

// The sentences a headless seat prints without --json: a line a person reads for
// each event, seats counted from 1 as on the screen ("Ben (seat 2)").
// --json keeps the engine's own numbering, from 0 (README, "Other
// commands").

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/table"
)

// seatNamer names seats for a person: "you (seat 1)", "Ben (seat 2)".
type seatNamer struct{ t table.TableState }

func (n seatNamer) who(s int) string {
	switch {
	case s < 0:
		return "nobody"
	case s == n.t.You:
		return fmt.Sprintf("you (seat %d)", s+1)
	case s < len(n.t.Seats) && n.t.Seats[s].Name != "":
		return fmt.Sprintf("%s (seat %d)", n.t.Seats[s].Name, s+1)
	}
	return fmt.Sprintf("seat %d", s+1)
}

// Who is who at the start of a sentence.
func (n seatNamer) Who(s int) string {
	w := n.who(s)
	return strings.ToUpper(w[:1]) + w[1:]
}

// says is "you take" or "Ben (seat 2) takes"; verb is the same capitalised.
func (n seatNamer) says(s int, you, them string) string {
	if s >= 0 && s == n.t.You {
		return n.who(s) + " " + you
	}
	return n.who(s) + " " + them
}

func (n seatNamer) verb(s int, you, them string) string {
	w := n.says(s, you, them)
	return strings.ToUpper(w[:1]) + w[1:]
}

func cardSymbols(cs []engine.Card) string {
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = c.Symbol()
	}
	return strings.Join(s, " ")
}

// eventText is an event as a line for a person: one case per event type,
// so it runs long.
func eventText(e engine.Event, n seatNamer) string {
	switch e.Type {
	case engine.EventDeal:
		hands := make([]string, len(e.Counts))
		for i, c := range e.Counts {
			hands[i] = c.String()
		}
		line := fmt.Sprintf("New deal by %s: %s first", n.who(e.Seat), n.says(e.Target, "play", "plays"))
		if e.Rank.Valid() {
			line += ", calling " + e.Rank.Word(2)
		}
		return line + ". Hands: " + strings.Join(hands, ", ") + "."
	case engine.EventHand:
		return "Your hand: " + cardSymbols(e.Cards)
	case engine.EventQuads:
		return fmt.Sprintf("%s four %s out of the game: %s", n.verb(e.Seat, "lay", "lays"), e.Rank.Word(2), cardSymbols(e.Cards))
	case engine.EventPlay:
		line := fmt.Sprintf("Play %d: %s %s", e.No, n.verb(e.Seat, "claim", "claims"), claimWords(e.Claim, e.Rank))
		if e.Out {
			line += ", the last cards in hand"
		}
		return line + fmt.Sprintf(" (hand %s → %s, pile %s → %s).", e.Sizes.HandBefore, e.Sizes.HandAfter, e.Sizes.PileBefore, e.Sizes.PileAfter)
	case engine.EventMine:
		return fmt.Sprintf("Play %d: you put down %s.", e.No, cardSymbols(e.Cards))
	case engine.EventPass:
		return fmt.Sprintf("%s play %d go.", n.verb(e.Seat, "let", "lets"), e.No)
	case engine.EventCall:
		return fmt.Sprintf("%s: “Bullshit!” on %s, play %d.", n.Who(e.Seat), n.who(e.Target), e.No)
	case engine.EventStand:
		return fmt.Sprintf("Nobody called: play %d by %s stands.", e.No, n.who(e.Seat))
	case engine.EventReveal:
		line := fmt.Sprintf("Play %d by %s turned up: %s (claimed %s", e.No, n.who(e.Seat), cardSymbols(e.Cards), claimWords(e.Claim, e.Rank))
		if e.Sneaked > 0 {
			line += fmt.Sprintf(", %d sneaked under it", e.Sneaked)
		}
		line += "): "
		switch {
		case e.Truth:
			return line + "the truth."
		case e.Sneaked > 0:
			return line + "caught sneaking."
		}
		return line + "a lie."
	case engine.EventTake:
		return fmt.Sprintf("%s the pile: %s.", n.verb(e.Seat, "take", "takes"), countWords(e.Count))
	case engine.EventGive:
		line := fmt.Sprintf("%s %s a card", n.verb(e.Seat, "hand", "hands"), n.who(e.Target))
		if e.Auto {
			line += " (the clock chose it)"
		}
		return line + "."
	case engine.EventHanded:
		return fmt.Sprintf("%s %s: %s.", n.verb(e.Seat, "hand", "hands"), n.who(e.Target), cardSymbols(e.Cards))
	case engine.EventDoubt:
		return fmt.Sprintf("%s play %d.", n.verb(e.Seat, "doubt", "doubts"), e.No)
	case engine.EventBelieve:
		return fmt.Sprintf("%s play %d.", n.verb(e.Seat, "believe", "believes"), e.No)
	case engine.EventSkip:
		return n.verb(e.Seat, "skip.", "skips.")
	case engine.EventLeave:
		line := fmt.Sprintf("The round's %s leave the game", countWords(e.Count))
		if len(e.Cards) > 0 {
			line += ": " + cardSymbols(e.Cards)
		}
		return line + "."
	case engine.EventRound:
		return n.verb(e.Seat, "start", "starts") + " a new round."
	case engine.EventOut:
		return fmt.Sprintf("%s out, in %s place.", n.verb(e.Seat, "are", "is"), Ordinal(e.Place))
	case engine.EventWin:
		return n.verb(e.Seat, "win!", "wins!")
	case engine.EventOver:
		if e.Seat >= 0 {
			return fmt.Sprintf("The game is over: %s.", n.says(e.Seat, "win", "wins"))
		}
		return "The game is over."
	case engine.EventResume:
		return fmt.Sprintf("The new host starts the clock of play %d again.", e.No)
	}
	b, _ := json.Marshal(e)
	return string(e.Type) + ": " + string(b)
}

// resultText is the end of a seat's game for a person: the places, seats
// counted from 1, and the audit.
func resultText(v engine.View, n seatNamer, audit *table.AuditResult) []string {
	head := fmt.Sprintf("Game over after %d plays", v.No)
	switch {
	case audit == nil:
		head += "; the deal was not checked (the host's reveal did not come)."
	case audit.Verified:
		head += "; deal verified."
	default:
		head += "; the deal did NOT check out: " + strings.Join(audit.Problems, "; ")
	}
	lines := []string{head}
	seats := make([]int, len(v.Places))
	for i := range seats {
		seats[i] = i
	}
	sort.SliceStable(seats, func(a, b int) bool { return v.Places[seats[a]] < v.Places[seats[b]] })
	for _, s := range seats {
		left := ""
		if v.Final != nil && s < len(v.Final.Hands) {
			left = ", " + countWords(engine.Exact(len(v.Final.Hands[s]))) + " left"
		}
		lines = append(lines, fmt.Sprintf("  %s  %s%s", Ordinal(v.Places[s]), n.who(s), left))
	}
	if audit != nil {
		for _, note := range audit.Notes {
			lines = append(lines, "  note: "+note)
		}
	}
	return lines
}
