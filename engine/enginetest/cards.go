package enginetest

import (
	"testing"

	"github.com/bullshit-game/bullshit/engine"
)

// Cards is the cards ss name ("AS", "10H"), or t fails.
func Cards(t testing.TB, ss ...string) []engine.Card {
	t.Helper()
	cs, err := engine.ParseCards(ss)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}
