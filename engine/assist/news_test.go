package assist

import (
	"testing"

	"github.com/bullshit-game/bullshit/engine"
)

// The teller says an event to the seat it concerns as "you", to the others
// by name, and tells a seat nothing of what isn't its to hear.
func TestTellerSaysYouOrTheName(t *testing.T) {
	names := []string{"Ada", "Ben", "Cleo"}
	teller := func(me int) Teller {
		return Teller{Me: me, Name: func(s int) string {
			if s == me {
				return "You"
			}
			return names[s]
		}}
	}
	ks, _ := engine.ParseCard("KS")
	qh, _ := engine.ParseCard("QH")
	kings := ks.Rank()
	judged := &engine.View{Last: &engine.Last{Seat: 2}}
	for _, c := range []struct {
		me   int
		e    engine.Event
		v    *engine.View
		want string
	}{
		{0, engine.Event{Type: engine.EventPlay, Seat: 0, Claim: 2, Rank: kings}, nil, "You claim 2 kings"},
		{1, engine.Event{Type: engine.EventPlay, Seat: 0, Claim: 1, Rank: kings, Out: true}, nil, "Ada claims 1 king: their last cards!"},
		{0, engine.Event{Type: engine.EventPlay, Seat: 0, Claim: 1, Rank: kings, Out: true}, nil, "You claim 1 king: your last cards!"},
		{0, engine.Event{Type: engine.EventCall, Seat: 0, Target: 1}, nil, "You: “Bullshit!” on Ben"},
		{1, engine.Event{Type: engine.EventCall, Seat: 0, Target: 1}, nil, "Ada called it on you: “Bullshit!”"},
		{-1, engine.Event{Type: engine.EventCall, Seat: 0, Target: 1}, nil, "Ada: “Bullshit!” on Ben"},
		{0, engine.Event{Type: engine.EventDoubt, Seat: 1}, judged, "Ben doubts Cleo's play"},
		{2, engine.Event{Type: engine.EventBelieve, Seat: 1}, judged, "Ben believes your play"},
		{0, engine.Event{Type: engine.EventReveal, Cards: []engine.Card{ks, qh}, Claim: 2, Rank: kings},
			nil, "A lie! Turned up:  " + ks.Symbol() + "  " + qh.Symbol() + "   (claimed 2 kings)"},
		{0, engine.Event{Type: engine.EventReveal, Cards: []engine.Card{ks, qh}, Claim: 1, Rank: kings, Sneaked: 1},
			nil, "Caught sneaking! Turned up:  " + ks.Symbol() + "  " + qh.Symbol() + "   (1 sneaked under the claim of 1 king)"},
		{0, engine.Event{Type: engine.EventTake, Seat: 0, Count: engine.Exact(1)}, nil, "You take the pile: 1 card comes to your hand."},
		{0, engine.Event{Type: engine.EventTake, Seat: 1, Count: engine.Count{Lo: 9, Hi: 10}}, nil, "Ben takes the pile: 9–10 cards."},
		{1, engine.Event{Type: engine.EventGive, Seat: 0, Target: 1, Auto: true}, nil, "Ada hands you a card (the clock chose it)."},
		{1, engine.Event{Type: engine.EventHanded, Seat: 0, Target: 1, Cards: []engine.Card{qh}}, nil, "You get " + qh.Symbol() + " from Ada."},
		{0, engine.Event{Type: engine.EventHanded, Seat: 0, Target: 1, Cards: []engine.Card{qh}}, nil, ""},
		{0, engine.Event{Type: engine.EventPass, Seat: 0}, nil, "You let it go."},
		{0, engine.Event{Type: engine.EventPass, Seat: 1}, nil, ""},
		{-1, engine.Event{Type: engine.EventPass, Seat: 1}, nil, ""},
		{2, engine.Event{Type: engine.EventOut, Seat: 2, Place: 2}, nil, "You are out, in 2nd place."},
		{0, engine.Event{Type: engine.EventWin, Seat: 2}, nil, "Cleo wins!"},
		{0, engine.Event{Type: engine.EventStand, Seat: 0}, nil, "Nobody called: your claim stands."},
	} {
		if got := teller(c.me).Tell(c.e, c.v); got != c.want {
			t.Errorf("seat %d, %s: %q, want %q", c.me, c.e.Type, got, c.want)
		}
	}
}

func TestOrdinal(t *testing.T) {
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 102: "102nd"} {
		if got := Ordinal(n); got != want {
			t.Errorf("Ordinal(%d) = %q", n, got)
		}
	}
}

// Under rough counts (V14) the pile's size is a range to everyone, but
// whoever takes it counts their own hand: the news says the exact count,
// not "11–15 cards come to your hand". Others hear the range.
func TestTakeSaysYourExactHand(t *testing.T) {
	names := []string{"Ada", "Ben"}
	name := func(s int) string { return names[s] }
	hand := make([]engine.Card, 23)
	v := &engine.View{Hand: hand}
	e := engine.Event{Type: engine.EventTake, Seat: 0, Count: engine.Count{Lo: 11, Hi: 15}}
	if got := (Teller{Me: 0, Name: name}).Tell(e, v); got != "You take the pile: you hold 23 cards now." {
		t.Errorf("the taker hears %q", got)
	}
	if got := (Teller{Me: 1, Name: name}).Tell(e, v); got != "Ada takes the pile: 11–15 cards." {
		t.Errorf("another hears %q", got)
	}
	e.Count = engine.Exact(3)
	if got := (Teller{Me: 0, Name: name}).Tell(e, v); got != "You take the pile: 3 cards come to your hand." {
		t.Errorf("an exact take: %q", got)
	}
}
