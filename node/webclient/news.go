package webclient

import (
	"fmt"
	"strings"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/assist"
)

// newsKept is how many lines of news the state carries.
const newsKept = 12

// addNews puts a line in the news. Called with mu held.
func (c *Client) addNews(line string) {
	if line == "" {
		return
	}
	c.news = append(c.news, line)
	if len(c.news) > newsKept {
		c.news = c.news[len(c.news)-newsKept:]
	}
}

// name is a seat's name as the page says it. Called with mu held.
func (c *Client) name(s int) string {
	if s == c.seat && s >= 0 {
		return "You"
	}
	if s >= 0 && s < len(c.lobby.Players) {
		if n := c.lobby.Players[s].Nick; n != "" {
			return n
		}
	}
	return fmt.Sprintf("Seat %d", s+1)
}

func (c *Client) verb(s int, you, them string) string {
	if s == c.seat && s >= 0 {
		return "You " + you
	}
	return c.name(s) + " " + them
}

func cardList(cs []engine.Card) string {
	s := make([]string, len(cs))
	for i, x := range cs {
		s[i] = x.Symbol()
	}
	return strings.Join(s, " ")
}

// tell turns events into news lines and the reveal panel, which stays for
// the host's reveal pause, as every screen at the table shows it. Called
// with mu held.
func (c *Client) tell(evs []engine.Event, now time.Time) {
	pause := time.Duration(c.lobby.Settings.Reveal) * time.Millisecond
	for _, e := range evs {
		switch e.Type {
		case engine.EventDeal:
			c.addNews(fmt.Sprintf("New deal: %s starts.", c.name(e.Target)))
		case engine.EventPlay:
			line := fmt.Sprintf("%s %s.", c.verb(e.Seat, "claim", "claims"), assist.ClaimWords(e.Claim, e.Rank))
			if e.Out {
				line += " Their last cards!"
			}
			c.addNews(line)
		case engine.EventMine:
			c.addNews("You put down " + cardList(e.Cards) + ".")
		case engine.EventPass:
			if e.Seat == c.seat {
				c.addNews("You let it go.")
			}
		case engine.EventCall:
			c.reveal = []string{fmt.Sprintf("%s: “Bullshit!” on %s", c.name(e.Seat), c.name(e.Target))}
			c.revealT = now.Add(pause)
			c.addNews(c.reveal[0] + ".")
		case engine.EventReveal:
			verdict := "True!"
			if !e.Truth {
				verdict = "A lie!"
			}
			if e.Sneaked > 0 {
				verdict += fmt.Sprintf(" %d sneaked under.", e.Sneaked)
			}
			c.reveal = append(c.reveal, "Turned up: "+cardList(e.Cards), verdict)
			c.revealT = now.Add(pause)
			c.addNews("Turned up " + cardList(e.Cards) + ": " + verdict)
		case engine.EventTake:
			line := fmt.Sprintf("%s the pile: %s cards.", c.verb(e.Seat, "take", "takes"), e.Count)
			c.reveal = append(c.reveal, line)
			c.addNews(line)
		case engine.EventStand:
			c.addNews(fmt.Sprintf("Nobody called %s.", c.name(e.Seat)))
		case engine.EventGive:
			line := fmt.Sprintf("%s %d card to %s.", c.verb(e.Seat, "hand", "hands"), e.Count.Lo, c.name(e.Target))
			if e.Auto {
				line += " (the clock chose)"
			}
			c.addNews(line)
		case engine.EventHanded:
			c.addNews("Handed over: " + cardList(e.Cards) + ".")
		case engine.EventQuads:
			c.addNews(fmt.Sprintf("%s four %s out of the game: %s.", c.verb(e.Seat, "lay", "lays"), e.Rank.Word(4), cardList(e.Cards)))
		case engine.EventDoubt:
			c.reveal = []string{c.verb(e.Seat, "doubt", "doubts") + " the round."}
			c.revealT = now.Add(pause)
			c.addNews(c.reveal[0])
		case engine.EventBelieve:
			c.addNews(c.verb(e.Seat, "believe", "believes") + ".")
		case engine.EventSkip:
			c.addNews(c.verb(e.Seat, "skip", "skips") + ".")
		case engine.EventLeave:
			c.addNews(fmt.Sprintf("%s cards leave the game.", e.Count))
		case engine.EventRound:
			c.addNews(fmt.Sprintf("%s a new round.", c.verb(e.Seat, "start", "starts")))
		case engine.EventOut:
			c.addNews(fmt.Sprintf("%s out, %s.", c.verb(e.Seat, "are", "is"), ordinal(e.Place)))
		case engine.EventWin:
			c.addNews(fmt.Sprintf("%s!", c.verb(e.Seat, "win", "wins")))
		case engine.EventOver:
			c.addNews("Game over.")
		case engine.EventResume:
			c.addNews("The new host restarted the clock.")
		}
	}
}

func ordinal(n int) string {
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
