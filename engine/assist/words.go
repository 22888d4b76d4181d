package assist

import (
	"fmt"

	"github.com/bullshit-game/bullshit/engine"
)

// The sentences the terminal and the phone's page both say, from one
// place, so the two screens can't drift apart.

// PlayVerb is the word on the play's button for seat now: "Add" to an I
// Doubt It round under way when the seat may judge or add, "Start with"
// for the play that opens a round, "Claim" otherwise.
func PlayVerb(v *engine.View, seat int) string {
	a := Now(v, seat)
	switch {
	case a.Judge:
		return "Add"
	case v.Rules.Doubt && v.Round == nil:
		return "Start with"
	}
	return "Claim"
}

// HalvesText is a count of halves as a player reads it: "7", "4½".
func HalvesText(h int) string {
	s := fmt.Sprint(h / 2)
	if h%2 != 0 {
		if h < 2 {
			s = ""
		}
		s += "½"
	}
	return s
}

// PointsRule is the evening's scoring in a few words, for under its
// heading, at a table of n seats.
func PointsRule(n int) string {
	return fmt.Sprintf("%d points for 1st down to 0 for last; ties share", max(n-1, 1))
}

// UnderClaim says what the picked cards beyond the claim are: under > 0
// cards go face down under the claim, unclaimed (a sneak); under < 0
// claims more than are put down (V12's count lies).
func UnderClaim(under int) string {
	switch {
	case under == 1:
		return "1 card goes under the claim, unclaimed: a sneak"
	case under > 1:
		return fmt.Sprintf("%d cards go under the claim, unclaimed: a sneak", under)
	case under < 0:
		return fmt.Sprintf("claiming %d more than you put down", -under)
	}
	return ""
}
