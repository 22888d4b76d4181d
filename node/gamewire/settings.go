package gamewire

import (
	"fmt"
	"slices"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/protocol"
)

// This file is every conversion between a table's settings and the wire
// (protocol.Settings and protocol.Rules): the host's node sends them with
// WireSettings, and a player's node and the phone's page read them with
// EngSettings or Rules. Nothing else builds or reads those two types.

// Settings are a table's settings as a lobby announces them, in the
// engine's and Go's types.
type Settings struct {
	Name      string
	Rules     engine.Rules
	Seats     int
	Reveal    time.Duration // the pause on a reveal
	TurnClock time.Duration // 0 for none
	Grace     time.Duration // 0 for the table's default
	BotPace   string        // "" for the table's default
}

// WireSettings are s as a lobby sends them.
func WireSettings(s Settings) protocol.Settings {
	return protocol.Settings{Name: s.Name, Rules: WireRules(s.Rules), Seats: s.Seats, RevealMS: MS(s.Reveal),
		TurnClockMS: MS(s.TurnClock), GraceMS: MS(s.Grace), BotPace: s.BotPace}
}

// EngSettings are a host's settings as the table's, checked: a host (or
// whoever was elected) is a peer like any other. Its name is cleaned for a
// screen, its rules checked as Rules does, a duration out of bounds is 0
// (the default) and an unknown bot pace "".
func EngSettings(w protocol.Settings) Settings {
	return Settings{Name: protocol.Clean(w.Name, protocol.MaxTableName), Rules: EngRules(w.Rules), Seats: w.Seats,
		Reveal: durationMS(w.RevealMS), TurnClock: durationMS(w.TurnClockMS), Grace: durationMS(w.GraceMS),
		BotPace: paceOK(w.BotPace)}
}

// Rules are a lobby's settings as the engine's rules (EngRules).
func Rules(w protocol.Settings) engine.Rules { return EngRules(w.Rules) }

// WireRules are r field for field.
func WireRules(r engine.Rules) protocol.Rules {
	return protocol.Rules{Preset: r.Preset, Sequence: uint8(r.Sequence), Start: int8(r.Start), Cap: r.Cap, CCW: r.CCW,
		Jokers: r.Jokers, Places: r.Places, Quads: r.Quads,
		First:    protocol.First{Holder: r.First.Holder, Card: protocol.Card(r.First.Card), Random: r.First.Random},
		NextOnly: r.NextOnly, CountLies: r.CountLies, Rapid: r.Rapid, Sneak: r.Sneak, Rough: r.Rough,
		CallWindowMS: MS(r.Window), Decks: r.Decks, Doubt: r.Doubt}
}

// EngRules are a host's rules as the engine's. Each rule is checked by
// the engine's own rules keys, as a player's would be; rules that don't
// pass give the standard game. The call window is taken as the host set
// it, not as a player may (tests run sub-second ones): 0 < window ≤
// maxCallWindow, else the preset's stands.
func EngRules(w protocol.Rules) engine.Rules {
	r := engine.Rules{Preset: w.Preset, Sequence: engine.Sequence(w.Sequence), Start: engine.Rank(w.Start), Cap: w.Cap,
		CCW: w.CCW, Jokers: w.Jokers, Places: w.Places, Quads: w.Quads,
		First:    engine.FirstRule{Holder: w.First.Holder, Card: engine.Card(w.First.Card), Random: w.First.Random},
		NextOnly: w.NextOnly, CountLies: w.CountLies, Rapid: w.Rapid, Sneak: w.Sneak, Rough: w.Rough, Decks: w.Decks,
		Doubt: w.Doubt}
	m := r.Map()
	delete(m, "window")
	if _, ok := engine.Preset(w.Preset); !ok {
		delete(m, "preset")
	}
	checked, err := engine.ParseRules(m)
	if err != nil {
		checked = engine.Standard()
	}
	checked.Preset = w.Preset
	if w.CallWindowMS > 0 && w.CallWindowMS <= maxCallWindow.Milliseconds() {
		checked.Window = FromMS(w.CallWindowMS)
	}
	return checked
}

// maxCallWindow bounds a window a host sends: a player plays by the host's
// clock, and a window past this is nonsense, never a table's.
const maxCallWindow = time.Hour

// maxSetting bounds the other durations a host sends: a reveal's pause, a
// turn's clock, a person's grace.
const maxSetting = 24 * time.Hour

// durationMS is a host's duration in ms, within maxSetting; 0 (the
// default, or none) for anything else.
func durationMS(ms int64) time.Duration {
	if ms <= 0 || ms > maxSetting.Milliseconds() {
		return 0
	}
	return FromMS(ms)
}

// paceOK is a host's bot pace if it is one the table knows, else "" (the
// default).
func paceOK(p string) string {
	switch p {
	case "brisk", "relaxed", "fast":
		return p
	}
	return ""
}

// RuleList is r as a lobby lists it: every rules key but the preset as
// key=value, the value as the referee writes it, in key order.
func RuleList(r engine.Rules) []string {
	var out []string
	for k, v := range r.Map() {
		if k != "preset" {
			out = append(out, k+"="+fmt.Sprint(v))
		}
	}
	slices.Sort(out)
	return out
}
