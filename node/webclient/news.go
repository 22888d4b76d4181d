package webclient

import (
	"fmt"
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

// teller says the table's events for this seat, in the terminal's
// words (engine/assist). Called with mu held.
func (c *Client) teller() assist.Teller { return assist.Teller{Me: c.seat, Name: c.name} }

func (c *Client) verb(s int, you, them string) string { return c.teller().Verb(s, you, them) }

// tell turns events into news lines and the reveal panel, which stays for
// the host's reveal pause, as every screen at the table shows it; the
// counts are as this seat knows them (engine/assist.Pile, the terminal's
// too), before being its hand before the update. Called with mu held.
func (c *Client) tell(evs []engine.Event, now time.Time, before int) {
	t := c.teller()
	pause := c.set.Reveal
	hand := 0
	if c.view != nil {
		hand = len(c.view.Hand)
	}
	for _, e := range evs {
		e = c.pile.Event(e, c.seat, before, hand)
		line := t.Tell(e, c.view)
		switch e.Type {
		case engine.EventCall, engine.EventDoubt, engine.EventBelieve:
			// Each turn-up opens a box of its own, headed by who turned
			// it up: a belief's never runs on under the last doubt's.
			c.reveal, c.revealT = []string{line}, now.Add(pause)
		case engine.EventReveal:
			c.reveal, c.revealT = append(c.reveal, assist.Turned(e), assist.Verdict(e)), now.Add(pause)
		case engine.EventTake:
			c.reveal = append(c.reveal, line)
		}
		c.addNews(line)
	}
}
