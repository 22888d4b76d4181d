package webclient

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/protocol"
)

// The result sheet gives every seat its place, as the terminal does (the
// last one in had "–"), the evening's score and where ratings are, and
// a last line that fits who reads it: a seat, a watcher, or anyone once
// the host has left.
func TestSheetPlacesEveningAndWhatNext(t *testing.T) {
	h := newFakeHost(t, 7)
	c, ch := join(t, h.addr(), "", newKey(t))
	s := playOut(t, c, ch)
	for _, r := range s.Sheet.Rows {
		if r.Place < 1 {
			t.Errorf("sheet row %+v has no place", r)
		}
	}
	if s.Sheet.Next != NextSeat || s.Sheet.Ratings == "" {
		t.Errorf("a seat's sheet ends %q (ratings %q)", s.Sheet.Next, s.Sheet.Ratings)
	}
	// The evening, as the host's Lobby carries it.
	c.mu.Lock()
	c.lobby.Evening = &protocol.Evening{Games: 2, Lines: []protocol.EveningLine{
		{Key: "bot:1:medium", Name: "Ben", Bot: "medium", Games: 2, Wins: 1, Halves: 2},
		{Key: "peer:" + string(c.lobby.Players[0].Peer.String()), Name: "Ada", Games: 2, Wins: 1, Halves: 3},
	}}
	c.mu.Unlock()
	ev := c.State().Sheet.Evening
	if ev == nil || ev.Games != 2 || len(ev.Lines) != 2 || ev.Lines[0].Name != "Ada" || ev.Lines[0].Points != "1½" ||
		!ev.Lines[0].You || ev.Lines[1].You || ev.Rule != "1 points for 1st down to 0 for last; ties share" {
		t.Errorf("the evening on the sheet: %+v", ev)
	}
	// A watcher keeps watching; nobody keeps a seat at a table whose host left.
	c.mu.Lock()
	c.seat = -1
	c.mu.Unlock()
	if n := c.State().Sheet.Next; n != NextWatch {
		t.Errorf("a watcher's sheet ends %q", n)
	}
	c.mu.Lock()
	c.seat = 0
	c.mu.Unlock()
	h.drop()
	h.srv.Close()
	s = waitFor(t, c, ch, "the host gone", func(s State) bool { return s.Status == "closed" })
	if s.Sheet.Next != NextClosed || strings.Contains(s.Sheet.Next, "keep") {
		t.Errorf("after the host left, the sheet ends %q", s.Sheet.Next)
	}
}

// A belief turns cards up in a box of its own, headed by who believed:
// it never runs on under the last doubt's cards.
func TestBeliefOpensItsOwnRevealBox(t *testing.T) {
	c := &Client{seat: 1, lobby: protocol.Lobby{Players: []protocol.Player{{Nick: "Ada"}, {Nick: "Ben"}, {Nick: "Cleo"}}}}
	c.set.Reveal = 2 * time.Second
	ks, _ := engine.ParseCard("KS")
	now := time.Unix(100, 0)
	c.tell([]engine.Event{
		{Type: engine.EventDoubt, Seat: 1, No: 3},
		{Type: engine.EventReveal, Seat: 0, No: 3, Cards: []engine.Card{ks}, Claim: 1, Rank: ks.Rank(), Truth: true},
	}, now, 0)
	c.tell([]engine.Event{
		{Type: engine.EventBelieve, Seat: 2, No: 4},
		{Type: engine.EventReveal, Seat: 0, No: 4, Cards: []engine.Card{ks}, Claim: 1, Rank: ks.Rank(), Truth: true},
	}, now.Add(time.Second), 0)
	if len(c.reveal) != 3 || !strings.HasPrefix(c.reveal[0], "Cleo") || slices.ContainsFunc(c.reveal, func(l string) bool { return strings.HasPrefix(l, "You") }) {
		t.Errorf("the belief's reveal box: %q", c.reveal)
	}
}
