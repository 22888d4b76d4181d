package assist

import (
	"testing"

	"github.com/bullshit-game/bullshit/engine"
)

// The play button's word, the same on both screens: I Doubt It starts a
// round with "Start with" and adds to it with "Add" (the page said
// "Claim" where the terminal said "Add").
func TestPlayVerb(t *testing.T) {
	rules, _ := engine.Preset("doubt")
	g, _, err := engine.New(engine.Config{Rules: rules, Seats: 3, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	v := g.View(0)
	first := v.Turn
	if got := PlayVerb(&v, first); got != "Start with" {
		t.Errorf("the round's first play says %q", got)
	}
	v = g.View(first)
	c := engine.Command{Move: engine.MovePlay, Seat: first, Cards: v.Hand[:1], Rank: v.Hand[0].Rank(), No: v.No}
	if _, err := g.Apply(0, c); err != nil {
		t.Fatal(err)
	}
	v = g.View(0)
	next := v.Turn
	v = g.View(next)
	if got := PlayVerb(&v, next); got != "Add" {
		t.Errorf("adding to the round says %q (judge %v)", got, Now(&v, next).Judge)
	}
	std, _ := engine.Preset("standard")
	g, _, _ = engine.New(engine.Config{Rules: std, Seats: 3, Seed: 4})
	v = g.View(0)
	if got := PlayVerb(&v, v.Turn); got != "Claim" {
		t.Errorf("a standard play says %q", got)
	}
}
