package gamewire

import (
	"reflect"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/protocol"
)

// Every preset, and every choice a menu offers for every rules key over
// each, comes back from the wire as it went: the typed rules lose nothing.
func TestRulesRoundTrip(t *testing.T) {
	for _, p := range engine.Presets {
		base, _ := engine.Preset(p)
		check := func(what string, r engine.Rules) {
			t.Helper()
			if got := EngRules(WireRules(r)); !reflect.DeepEqual(got, r) {
				t.Errorf("%s: %+v came back %+v", what, r, got)
			}
		}
		check(p, base)
		for _, k := range engine.RuleKeys {
			for _, v := range engine.RuleChoices(k) {
				r := base
				if r.Set(k, v) == nil {
					check(p+" "+k+"="+v, r)
				}
			}
		}
	}
	// A sub-second window, as tests run, travels as the host set it.
	r := engine.Standard()
	r.Window = 300 * time.Millisecond
	if got := EngRules(WireRules(r)); got.Window != r.Window {
		t.Errorf("window %v came back %v", r.Window, got.Window)
	}
}

// A host's rules that no rules key would take give the standard game; a
// window out of bounds gives the preset's. None of it panics.
func TestRulesFromAPeerChecked(t *testing.T) {
	std := engine.Standard()
	good := WireRules(std)
	for _, c := range []struct {
		name string
		edit func(*protocol.Rules)
		want engine.Rules
	}{
		{"a sequence past the names", func(w *protocol.Rules) { w.Sequence = 200 }, std},
		{"sneaking 9", func(w *protocol.Rules) { w.Sneak = 9 }, std},
		{"negative decks", func(w *protocol.Rules) { w.Decks = -1 }, std},
		{"a rank past K", func(w *protocol.Rules) { w.Start = 40 }, std},
		{"a first card past the joker", func(w *protocol.Rules) { w.First = protocol.First{Holder: true, Card: 99} }, std},
		{"a negative window", func(w *protocol.Rules) { w.CallWindowMS = -5 }, std},
		{"a window past an hour", func(w *protocol.Rules) { w.CallWindowMS = 1<<62 + 1 }, std},
		{"no window", func(w *protocol.Rules) { w.CallWindowMS = 0 }, std},
	} {
		w := good
		c.edit(&w)
		if got := EngRules(w); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
	// An unknown preset is shown as named, over the standard game.
	w := good
	w.Preset = "martian"
	if got := EngRules(w); got.Preset != "martian" || got.Window != std.Window || got.Sequence != std.Sequence {
		t.Errorf("unknown preset: %+v", got)
	}
}

// Settings make the round trip; a host's durations out of bounds and an
// unknown pace are the defaults, a name too long is cleaned.
func TestSettingsRoundTrip(t *testing.T) {
	twist, _ := engine.Preset("twist")
	s := Settings{Name: "Kitchen", Rules: twist, Seats: 5, Reveal: 1500 * time.Millisecond, TurnClock: 30 * time.Second,
		Grace: 45 * time.Second, BotPace: "relaxed"}
	if got := EngSettings(WireSettings(s)); !reflect.DeepEqual(got, s) {
		t.Errorf("%+v came back %+v", s, got)
	}
	w := WireSettings(s)
	w.RevealMS, w.TurnClockMS, w.GraceMS, w.BotPace = -1, 1<<62, 25*3600*1000, "warp"
	got := EngSettings(w)
	if got.Reveal != 0 || got.TurnClock != 0 || got.Grace != 0 || got.BotPace != "" {
		t.Errorf("out of bounds came back %+v", got)
	}
}

// The lobby's list of rules: every key but the preset, as the referee
// writes it, in order.
func TestRuleList(t *testing.T) {
	got := RuleList(engine.Standard())
	if len(got) != len(engine.RuleKeys) || got[len(got)-1] != "window=6" {
		t.Errorf("%q", got)
	}
}

// A standard table's settings take 99 bytes in a lobby where 1.9's took
// 269 (its rules as strings, the window twice): held under 128.
func TestSettingsSize(t *testing.T) {
	s := WireSettings(Settings{Name: "Kitchen", Rules: engine.Standard(), Seats: 4, Reveal: 1500 * time.Millisecond,
		Grace: 30 * time.Second, BotPace: "brisk"})
	b, err := protocol.Encode(protocol.Lobby{Settings: s})
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 128 {
		t.Errorf("a standard table's settings take %d bytes in a lobby, over 128", len(b))
	}
}
