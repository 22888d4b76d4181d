package engine

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"
)

// A ruleKey is one key of a rules object (../shared/REFEREE.md): how Set
// reads a value for it, how Get writes it back, and what a menu offers.
// Set works on a copy, so set may write before it refuses.
type ruleKey struct {
	key     string
	set     func(r *Rules, v ruleValue) error
	get     func(r Rules) any
	choices []string
}

// ruleTable is every rules key, in the order of REFEREE.md: the one list
// Set, Get, RuleKeys and the menus read.
var ruleTable = []ruleKey{
	{key: "sequence", choices: seqNames,
		set: func(r *Rules, v ruleValue) error {
			i, err := v.oneOf(seqNames...)
			r.Sequence = Sequence(i)
			return err
		},
		get: func(r Rules) any { return r.Sequence.String() }},
	{key: "start", choices: rankNames[:],
		set: func(r *Rules, v ruleValue) error {
			s, err := v.word()
			if err != nil {
				return err
			}
			rk, ok := ParseRank(s)
			if !ok || (s != rk.String() && strings.ToUpper(s) != rk.String()) {
				return badRules("start is a rank, A to K, not %q", s)
			}
			r.Start = rk
			return nil
		},
		get: func(r Rules) any { return r.Start.String() }},
	wholeKey("cap", 0, 32, func(r *Rules) *int { return &r.Cap }), // 0: 4 per deck, as the twist plays
	wordKey("direction", "cw", "ccw", func(r *Rules) *bool { return &r.CCW }),
	{key: "jokers", choices: []string{"0", "2"},
		set: func(r *Rules, v ruleValue) error {
			n, err := v.whole(0, 2)
			if err == nil && n == 1 {
				err = badRules("jokers is 0 or 2 per deck")
			}
			r.Jokers = n
			return err
		},
		get: func(r Rules) any { return r.Jokers }},
	flagKey("places", func(r *Rules) *bool { return &r.Places }),
	flagKey("quads", func(r *Rules) *bool { return &r.Quads }),
	{key: "first", choices: []string{"dealer-left", "random", "holder:AS", "holder:2C", "holder:AC"},
		set: func(r *Rules, v ruleValue) error {
			s, err := v.word()
			if err != nil {
				return err
			}
			card, holder := strings.CutPrefix(s, "holder:")
			switch {
			case s == "dealer-left":
				r.First = FirstRule{}
			case s == "random":
				r.First = FirstRule{Random: true}
			case holder:
				c, ok := ParseCard(card)
				if !ok {
					return badRules("first holder:%s names no card", card)
				}
				r.First = FirstRule{Holder: true, Card: c}
			default:
				return badRules("first is dealer-left, random or holder:CARD, not %q", s)
			}
			return nil
		},
		get: func(r Rules) any { return r.First.String() }},
	wordKey("callers", "any", "next", func(r *Rules) *bool { return &r.NextOnly }),
	flagKey("count_lies", func(r *Rules) *bool { return &r.CountLies }),
	flagKey("rapid", func(r *Rules) *bool { return &r.Rapid }),
	wholeKey("sneak", 0, 3, func(r *Rules) *int { return &r.Sneak }),
	wordKey("counts", "exact", "rough", func(r *Rules) *bool { return &r.Rough }),
	{key: "window", choices: wholeNames(1, 60),
		set: func(r *Rules, v ruleValue) error {
			f, err := v.number(1, 60, false)
			r.Window = time.Duration(f * float64(time.Second))
			return err
		},
		get: func(r Rules) any { return r.Window.Seconds() }},
	wholeKey("decks", 0, 3, func(r *Rules) *int { return &r.Decks }), // 0: by seats
	wordKey("mode", "classic", "doubt", func(r *Rules) *bool { return &r.Doubt }),
}

func findRule(key string) *ruleKey {
	for i := range ruleTable {
		if ruleTable[i].key == key {
			return &ruleTable[i]
		}
	}
	return nil
}

// wordKey is a rule that is one of two words, off or on.
func wordKey(key, off, on string, field func(*Rules) *bool) ruleKey {
	words := []string{off, on}
	return ruleKey{key: key, choices: words,
		set: func(r *Rules, v ruleValue) error {
			i, err := v.oneOf(words...)
			*field(r) = i == 1
			return err
		},
		get: func(r Rules) any { return words[b2i(*field(&r))] }}
}

// flagKey is a rule that is true or false.
func flagKey(key string, field func(*Rules) *bool) ruleKey {
	return ruleKey{key: key, choices: []string{"false", "true"},
		set: func(r *Rules, v ruleValue) error {
			b, err := v.flag()
			*field(r) = b
			return err
		},
		get: func(r Rules) any { return *field(&r) }}
}

// wholeKey is a rule that is a whole number from lo to hi.
func wholeKey(key string, lo, hi int, field func(*Rules) *int) ruleKey {
	return ruleKey{key: key, choices: wholeNames(lo, hi),
		set: func(r *Rules, v ruleValue) error {
			n, err := v.whole(lo, hi)
			*field(r) = n
			return err
		},
		get: func(r Rules) any { return *field(&r) }}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func wholeNames(lo, hi int) []string {
	var out []string
	for i := lo; i <= hi; i++ {
		out = append(out, strconv.Itoa(i))
	}
	return out
}

// ruleValue is a value given for a rules key, read as the key needs it;
// a refusal names the key.
type ruleValue struct {
	key string
	v   any
}

func (v ruleValue) word() (string, error) {
	s, ok := v.v.(string)
	if !ok {
		return "", badRules("%s takes a word, not %v", v.key, v.v)
	}
	return s, nil
}

func (v ruleValue) oneOf(choices ...string) (int, error) {
	s, err := v.word()
	if err != nil {
		return 0, err
	}
	for i, c := range choices {
		if s == c {
			return i, nil
		}
	}
	return 0, badRules("%s is one of %s, not %q", v.key, strings.Join(choices, ", "), s)
}

func (v ruleValue) flag() (bool, error) {
	switch x := v.v.(type) {
	case bool:
		return x, nil
	case string:
		switch strings.ToLower(x) {
		case "true", "on", "yes", "1":
			return true, nil
		case "false", "off", "no", "0":
			return false, nil
		}
	}
	return false, badRules("%s is true or false", v.key)
}

func (v ruleValue) whole(lo, hi int) (int, error) {
	f, err := v.number(float64(lo), float64(hi), true)
	return int(f), err
}

func (v ruleValue) number(lo, hi float64, whole bool) (float64, error) {
	var f float64
	switch x := v.v.(type) {
	case float64:
		f = x
	case int:
		f = float64(x)
	case json.Number:
		var err error
		if f, err = x.Float64(); err != nil {
			return 0, badRules("%s takes a number", v.key)
		}
	case string:
		var err error
		if f, err = strconv.ParseFloat(x, 64); err != nil {
			return 0, badRules("%s takes a number, not %q", v.key, x)
		}
	default:
		return 0, badRules("%s takes a number", v.key)
	}
	if math.IsNaN(f) || f < lo || f > hi || (whole && f != math.Trunc(f)) {
		if whole {
			return 0, badRules("%s must be a whole number from %g to %g", v.key, lo, hi)
		}
		return 0, badRules("%s must be from %g to %g", v.key, lo, hi)
	}
	return f, nil
}
