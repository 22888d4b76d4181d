package nodetest

import (
	"testing"

	"github.com/bullshit-game/bullshit/engine"
)

// CheckEnded fails t unless v, the last view of a game, ended with places
// and every card of r's decks for seats accounted for.
func CheckEnded(t testing.TB, v engine.View, r engine.Rules, seats int) {
	t.Helper()
	if v.Final == nil || v.Places == nil {
		t.Fatalf("the game ended with no final sheet")
	}
	total := len(v.Final.Pile) + len(v.Final.Gone)
	for _, h := range v.Final.Hands {
		total += len(h)
	}
	want := r.DecksFor(seats) * (52 + r.Jokers)
	if total != want {
		t.Fatalf("cards at the end: %d, want %d", total, want)
	}
}
