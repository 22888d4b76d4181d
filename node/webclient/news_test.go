package webclient

import (
	"slices"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/protocol"
)

// The phone says a call as the terminal does (engine/assist's teller):
// the shout, the cards and the verdict, and who takes the pile, in the
// news and in the reveal panel for the host's pause.
func TestNewsInTheTerminalsWords(t *testing.T) {
	c := &Client{seat: 1, lobby: protocol.Lobby{Players: []protocol.Player{{Nick: "Ada"}, {Nick: "Ben"}}}}
	c.set.Reveal = 2 * time.Second
	ks, _ := engine.ParseCard("KS")
	now := time.Unix(100, 0)
	c.tell([]engine.Event{
		{Type: engine.EventPlay, Seat: 0, Claim: 1, Rank: ks.Rank()},
		{Type: engine.EventCall, Seat: 1, Target: 0},
		{Type: engine.EventReveal, Seat: 0, Cards: []engine.Card{ks}, Claim: 1, Rank: ks.Rank(), Truth: true},
		{Type: engine.EventTake, Seat: 1, Count: engine.Exact(3)},
	}, now, 0)
	up := "Turned up:  " + ks.Symbol() + "   (claimed 1 king)"
	news := []string{"Ada claims 1 king", "You: “Bullshit!” on Ada", "Truth! " + up,
		"You take the pile: 3 cards come to your hand."}
	if !slices.Equal(c.news, news) {
		t.Errorf("news %q,\nwant %q", c.news, news)
	}
	reveal := []string{"You: “Bullshit!” on Ada", up, "Truth!", "You take the pile: 3 cards come to your hand."}
	if !slices.Equal(c.reveal, reveal) || !c.revealT.Equal(now.Add(2*time.Second)) {
		t.Errorf("reveal %q until %v,\nwant %q", c.reveal, c.revealT, reveal)
	}
}

// V14: the phone counts what this seat knows exactly, as the terminal
// does (engine/assist.Pile): a pile it saw built of its own cards, taken
// by another seat, is told in its exact size, and shown so in the state.
func TestNewsCountsTheKnownPile(t *testing.T) {
	c := &Client{seat: 0, lobby: protocol.Lobby{Players: []protocol.Player{{Nick: "Ada"}, {Nick: "Ben"}}},
		view: &engine.View{Hand: make([]engine.Card, 9), Pile: engine.Count{Lo: 4, Hi: -1}}}
	rough := engine.Count{Lo: 4, Hi: -1}
	c.tell([]engine.Event{
		{Type: engine.EventDeal},
		{Type: engine.EventPlay, Seat: 1, No: 1, Claim: 2, Sizes: engine.Sizes{PileAfter: engine.Exact(2)}},
		{Type: engine.EventPlay, Seat: 0, No: 2, Claim: 3, Sizes: engine.Sizes{PileBefore: engine.Exact(2), PileAfter: rough}},
		{Type: engine.EventMine, Seat: 0, No: 2, Cards: make([]engine.Card, 3)},
	}, time.Unix(100, 0), 12)
	if s := c.State(); s.Pile != "5" {
		t.Errorf("the pile shown %q, want 5", s.Pile)
	}
	take := engine.Event{Type: engine.EventTake, Seat: 1, Count: rough}
	c.tell([]engine.Event{take}, time.Unix(101, 0), 9)
	take.Count = engine.Exact(5)
	if want := c.teller().Tell(take, c.view); c.news[len(c.news)-1] != want {
		t.Errorf("news %q, want %q", c.news[len(c.news)-1], want)
	}
}
