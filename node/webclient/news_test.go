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
	}, now)
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
