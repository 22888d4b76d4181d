// Package enginetest holds what tests in several packages share about the
// engine: random rules a table could send, cards read from their names. It
// is imported only by tests; the shipped binary never links it.
package enginetest

import (
	"math/rand/v2"

	"github.com/bullshit-game/bullshit/engine"
)

// RandomRules is a rules object with random keys, as a table could send it:
// sometimes over a preset, sometimes with a value out of range.
func RandomRules(rng *rand.Rand) map[string]any {
	m := map[string]any{}
	if rng.IntN(2) == 0 {
		m["preset"] = engine.Presets[rng.IntN(len(engine.Presets))]
	}
	values := map[string][]any{
		"sequence":   {"up", "down", "free", "near", "near-strict"},
		"start":      {"A", "5", "10", "K"},
		"cap":        {1.0, 2.0, 4.0, 6.0, 8.0},
		"direction":  {"cw", "ccw"},
		"jokers":     {0.0, 2.0},
		"places":     {false, true},
		"quads":      {false, true},
		"first":      {"dealer-left", "holder:AS", "holder:2C", "random"},
		"callers":    {"any", "next"},
		"count_lies": {false, true},
		"rapid":      {false, true},
		"sneak":      {0.0, 1.0, 2.0, 3.0},
		"counts":     {"exact", "rough"},
		"window":     {1.0, 2.5, 6.0, 60.0},
		"decks":      {0.0, 1.0, 2.0, 3.0},
		"mode":       {"classic", "doubt"},
	}
	for _, k := range engine.RuleKeys {
		if rng.IntN(3) == 0 {
			vs := values[k]
			m[k] = vs[rng.IntN(len(vs))]
		}
	}
	if rng.IntN(50) == 0 {
		m["bogus"] = 1.0 // refused: unknown key
	}
	return m
}

// Kinds are the presets by name and "random", which the tests that play
// many games take in turn.
var Kinds = append(append([]string{}, engine.Presets...), "random")

// Rules are the rules of kind, one of Kinds: the preset of that name, or
// for "random" RandomRules drawn from rng (which a preset leaves alone).
// ok is false when the random draw is rules the engine refuses.
func Rules(kind string, rng *rand.Rand) (r engine.Rules, ok bool) {
	if kind != "random" {
		r, _ = engine.Preset(kind)
		return r, true
	}
	r, err := engine.ParseRules(RandomRules(rng))
	return r, err == nil
}
