package cli

import (
	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/assist"
)

// The arithmetic behind the hand and the assists lives in engine/assist,
// shared with the browser client; these are its names here.

type sortMode = assist.SortMode

const (
	sortCalling = assist.SortCalling
	sortSoonest = assist.SortSoonest
)

func seats(v *engine.View) int          { return assist.Seats(v) }
func out(v *engine.View, seat int) bool { return assist.Out(v, seat) }
func sortHand(hand []engine.Card, v *engine.View, mode sortMode) []engine.Card {
	return assist.SortHand(hand, v, mode)
}
func matches(hand []engine.Card, r engine.Rank) int { return assist.Matches(hand, r) }
func bestRank(hand []engine.Card, choices []engine.Rank, rules engine.Rules) engine.Rank {
	return assist.BestRank(hand, choices, rules)
}
func leastUseful(hand []engine.Card, v *engine.View, k int) []engine.Card {
	return assist.LeastUseful(hand, v, k)
}
func claimWords(n int, r engine.Rank) string { return assist.ClaimWords(n, r) }
func cantBeTrue(v *engine.View, names func(int) string) string {
	return assist.CantBeTrue(v, names)
}
func sneakShows(v *engine.View, k, claim int) (hand, pile bool) {
	return assist.SneakShows(v, k, claim)
}
func quadsIn(hand []engine.Card, rules engine.Rules) []engine.Rank {
	return assist.QuadsIn(hand, rules)
}
