package engine

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"
)

// Sequence is how the required rank moves from play to play (R5, V1, V2, V4).
type Sequence uint8

const (
	SeqUp         Sequence = iota // A, 2, … K, A … (R5)
	SeqDown                       // A, K, Q … 2, A … (V2)
	SeqFree                       // any rank (V1)
	SeqNear                       // the previous rank, one above or one below (V4)
	SeqNearStrict                 // one above or one below (V4, near-strict)
)

var seqNames = []string{"up", "down", "free", "near", "near-strict"}

func (s Sequence) String() string {
	if int(s) < len(seqNames) {
		return seqNames[s]
	}
	return "?"
}

// FirstRule picks the seat that plays first (R4, V10).
type FirstRule struct {
	Holder bool // the seat holding Card plays first
	Card   Card
	Random bool // a random first seat and starting rank
}

func (f FirstRule) String() string {
	switch {
	case f.Holder:
		return "holder:" + f.Card.String()
	case f.Random:
		return "random"
	}
	return "dealer-left"
}

// Rules is a table's rule set: the standard game with the variants of
// ../shared/RULES.md switched on or off. The zero value is not valid; start
// from Standard() or Preset.
type Rules struct {
	Preset    string        // the preset it started from, for display
	Sequence  Sequence      // R5, V1, V2, V4
	Start     Rank          // V3
	Cap       int           // V5: most cards in a claim; 0 means 4 per deck (the twist)
	CCW       bool          // V6
	Jokers    int           // V7: jokers per deck, 0 or 2
	Places    bool          // V8
	Quads     bool          // V9
	First     FirstRule     // V10
	NextOnly  bool          // V11: only the next seat may call
	CountLies bool          // V12
	Rapid     bool          // V13
	Sneak     int           // V14: extra cards a play may slip under its claim, 0..3
	Rough     bool          // V14: rough hand and pile counts
	Window    time.Duration // R8: the call window
	Decks     int           // R2: 0 picks by seats
	Doubt     bool          // V15: I Doubt It rounds
}

// GiveTime is how long a caller has to pick the card a caught sneaker gets (V14).
const GiveTime = 12 * time.Second

// MaxPlays is the safety net of R14.
const MaxPlays = 500

// Standard is the game with no variant switched on.
func Standard() Rules {
	return Rules{Preset: "standard", Sequence: SeqUp, Start: 0, Cap: 4, Window: 6 * time.Second}
}

// Presets are the rule sets a player can pick by name.
var Presets = []string{"standard", "cheat", "twist", "doubt", "free"}

// Preset returns the named rule set.
func Preset(name string) (Rules, bool) {
	r := Standard()
	r.Preset = name
	switch name {
	case "standard":
	case "cheat":
		r.First = FirstRule{Holder: true, Card: NewCard(0, 3)}
		r.CountLies = true
	case "twist":
		r.Sneak, r.Rough, r.Cap = 2, true, 0
	case "doubt":
		r.Doubt = true
	case "free":
		r.Sequence = SeqFree
	default:
		return Rules{}, false
	}
	return r, true
}

// RuleKeys are the keys of a rules object (../shared/REFEREE.md), in order:
// ruleTable's.
var RuleKeys = func() []string {
	keys := make([]string, len(ruleTable))
	for i, k := range ruleTable {
		keys[i] = k.key
	}
	return keys
}()

// ParseRules reads a rules value as the referee takes it: a preset name, or
// an object whose keys override its "preset" (standard by default).
func ParseRules(v any) (Rules, error) {
	switch v := v.(type) {
	case nil:
		return Standard(), nil
	case string:
		r, ok := Preset(v)
		if !ok {
			return Rules{}, badRules("there is no preset %q (try %s)", v, strings.Join(Presets, ", "))
		}
		return r, nil
	case map[string]any:
		r := Standard()
		if p, ok := v["preset"]; ok {
			name, ok := p.(string)
			if !ok {
				return Rules{}, badRules("preset must be a name")
			}
			if r, ok = Preset(name); !ok {
				return Rules{}, badRules("there is no preset %q (try %s)", name, strings.Join(Presets, ", "))
			}
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			if k != "preset" {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			if err := r.Set(k, v[k]); err != nil {
				return Rules{}, err
			}
		}
		return r, nil
	}
	return Rules{}, badRules("rules must be a preset name or an object")
}

func badRules(format string, args ...any) *Refusal {
	return refuse(CodeBadCommand, "Rules: "+fmt.Sprintf(format, args...)+".")
}

// Set changes one rule by its key. Values may be JSON-decoded (string,
// float64, json.Number, bool) or strings from a command line. A refused
// value changes nothing.
func (r *Rules) Set(key string, v any) error {
	k := findRule(key)
	if k == nil {
		if key == "preset" {
			return badRules("preset can only be the base of a rules object")
		}
		return badRules("there is no rule %q (the keys are %s)", key, strings.Join(RuleKeys, ", "))
	}
	next := *r
	if err := k.set(&next, ruleValue{key, v}); err != nil {
		return err
	}
	*r = next
	return nil
}

// Get is a rule's value by key, as the referee writes it; nil for no key.
func (r Rules) Get(key string) any {
	if k := findRule(key); k != nil {
		return k.get(r)
	}
	return nil
}

// RuleChoices are the values a menu may offer for a rules key, as Set takes
// them and Get writes them (a window in whole seconds; a few holder: cards);
// nil for no key.
func RuleChoices(key string) []string {
	if k := findRule(key); k != nil {
		return append([]string(nil), k.choices...)
	}
	return nil
}

// Map is every rule by key, with the preset, for display and the wire.
func (r Rules) Map() map[string]any {
	m := map[string]any{"preset": r.Preset}
	for _, k := range RuleKeys {
		m[k] = r.Get(k)
	}
	return m
}

// DecksFor is how many decks a table of n seats plays with (R2).
func (r Rules) DecksFor(n int) int {
	if r.Decks > 0 {
		return r.Decks
	}
	if n >= 7 {
		return 2
	}
	return 1
}

// CapFor is the most cards one claim may hold at a table of n seats.
func (r Rules) CapFor(n int) int {
	if r.Cap > 0 {
		return r.Cap
	}
	return 4 * r.DecksFor(n)
}

// Check refuses a rule set that can't be played at n seats.
func (r Rules) Check(n int) error {
	if n < 2 || n > 10 {
		return refusef(CodeBadCommand, "A table has 2 to 10 seats, not %d.", n)
	}
	if r.Window <= 0 {
		return badRules("window must be 1 to 60 seconds")
	}
	if r.Preset == "twist" && n < 3 {
		return refuse(CodeBadCommand, "The twist is played by 3 to 10 seats.")
	}
	if r.Doubt && r.Sneak > 0 {
		return badRules("sneaking isn't played in doubt mode")
	}
	if r.Sneak < 0 || r.Sneak > 3 || r.Jokers < 0 || r.Decks < 0 || r.Cap < 0 {
		return badRules("a rule is out of range")
	}
	return nil
}

// MarshalJSON writes the rules as a rules object (REFEREE.md).
func (r Rules) MarshalJSON() ([]byte, error) { return json.Marshal(r.Map()) }

// UnmarshalJSON reads a preset name or a rules object.
func (r *Rules) UnmarshalJSON(b []byte) error {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	if m, ok := v.(map[string]any); ok {
		if p, ok := m["preset"].(string); ok {
			if _, known := Preset(p); !known {
				delete(m, "preset")
			}
		}
	}
	x, err := ParseRules(v)
	if err != nil {
		return err
	}
	*r = x
	return nil
}
