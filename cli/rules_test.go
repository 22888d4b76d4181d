package cli

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bullshit-game/bullshit/engine"
)

var updateRules = flag.Bool("update-rules", false, "rewrite the rules texts in testdata/rules")

func rulesFor(t *testing.T, preset string, kv ...string) engine.Rules {
	t.Helper()
	r, ok := engine.Preset(preset)
	if !ok {
		t.Fatalf("no preset %q", preset)
	}
	for _, s := range kv {
		k, v, _ := strings.Cut(s, "=")
		if err := r.Set(k, v); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return r
}

func checkWidth(t *testing.T, name string, lines []string, w int) {
	t.Helper()
	for i, l := range lines {
		if n := width(l); n > w {
			t.Errorf("%s: line %d is %d columns, over %d: %q", name, i+1, n, w, l)
		}
		if strings.TrimRight(l, " ") != l {
			t.Errorf("%s: line %d ends in spaces: %q", name, i+1, l)
		}
	}
}

// golden compares text with testdata/rules/name.txt (-update-rules rewrites it).
func golden(t *testing.T, name string, lines []string) {
	t.Helper()
	path := filepath.Join("testdata", "rules", name+".txt")
	got := strings.Join(lines, "\n") + "\n"
	if *updateRules {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cli -run TestRulesText -update-rules)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from %s (-update-rules rewrites it):\n--- got\n%s--- want\n%s", name, path, got, want)
	}
}

// Every preset at 4 seats, against the texts in testdata.
func TestRulesTextPresets(t *testing.T) {
	for _, p := range engine.Presets {
		lines := RulesText(rulesFor(t, p), 4, 0)
		checkWidth(t, p, lines, RulesWidth)
		golden(t, p, lines)
		if !strings.Contains(lines[0], "How to play · "+p) {
			t.Errorf("%s: title %q", p, lines[0])
		}
	}
}

// The standard game fits one 80×24 screen at every table size, with room
// for a title bar and a key bar: 20 lines of 78 columns at most.
func TestRulesTextStandardFitsOneScreen(t *testing.T) {
	for _, seats := range []int{0, 2, 3, 4, 5, 6, 7, 8, 9, 10} {
		lines := RulesText(engine.Standard(), seats, 0)
		checkWidth(t, "standard", lines, 78)
		if len(lines) > 20 {
			t.Errorf("standard at %d seats is %d lines, over 20:\n%s", seats, len(lines), strings.Join(lines, "\n"))
		}
	}
	// Narrower terminals get narrower text.
	checkWidth(t, "standard at 60", RulesText(engine.Standard(), 4, 60), 60)
}

// Mixes of keys, against texts in testdata.
func TestRulesTextMixes(t *testing.T) {
	mixes := []struct {
		name   string
		preset string
		seats  int
		kv     []string
	}{
		{"mix-everything", "twist", 8, []string{"count_lies=true", "jokers=2", "quads=true", "places=true", "rapid=true",
			"callers=next", "sequence=near", "direction=ccw", "first=random", "window=10", "cap=6"}},
		{"mix-down-from-seven", "standard", 8, []string{"sequence=down", "start=7", "first=holder:2C"}},
		{"mix-doubt-variants", "doubt", 5, []string{"jokers=2", "quads=true", "places=true", "counts=rough", "count_lies=true"}},
		{"mix-any-table", "cheat", 0, []string{"sneak=1", "cap=0"}},
	}
	for _, m := range mixes {
		lines := RulesText(rulesFor(t, m.preset, m.kv...), m.seats, 0)
		checkWidth(t, m.name, lines, RulesWidth)
		golden(t, m.name, lines)
	}
}

// Each key's sentence is there when the key is set, says what the key
// does, and isn't there in the standard game.
func TestRulesTextKeys(t *testing.T) {
	std := strings.Join(RulesText(engine.Standard(), 4, 1000), "\n")
	cases := []struct {
		kv    []string
		seats int
		want  []string
		not   []string // in this text, though they are in the standard one
	}{
		{[]string{"sequence=down"}, 4, []string{"goes down one every play: A, K, Q … 2, then A again"}, []string{"goes up"}},
		{[]string{"sequence=free"}, 4, []string{"There's no rank called: claim any rank you like", "R rank", "as one rank"}, []string{"goes up", "the rank called:"}},
		{[]string{"sequence=near"}, 4, []string{"claim the last rank claimed again, or one above or one below it", "A sits between K and 2", "R rank"}, []string{"goes up"}},
		{[]string{"sequence=near-strict"}, 4, []string{"claim one rank above or one below the last claim, never the same", "R rank"}, []string{"goes up"}},
		{[]string{"start=7"}, 4, []string{"goes up one every play: 7, 8, 9 … K, A … 6, then 7 again", "The first play calls sevens", "“2 sevens”"}, []string{"calls aces"}},
		{[]string{"start=Q", "sequence=down"}, 4, []string{"Q, J, 10 … A, K, then Q again", "The first play calls queens"}, nil},
		{[]string{"cap=6"}, 4, []string{"put 1 to 6 cards face down"}, []string{"1 to 4 cards"}},
		{[]string{"cap=1"}, 4, []string{"put 1 card face down"}, []string{"1 to 4 cards"}},
		{[]string{"cap=0"}, 8, []string{"put 1 to 8 cards face down", "All 104 cards of two decks"}, nil},
		{[]string{"cap=0"}, 0, []string{"1 to 4 cards a deck (8 with two decks)"}, nil},
		{[]string{"direction=ccw"}, 4, []string{"turns go counter-clockwise, to the right"}, []string{"turns go clockwise"}},
		{[]string{"jokers=2"}, 4, []string{"All 54 cards of one deck, with 2 jokers a deck, are dealt out", "jokers are wild", "A joker is always the rank claimed"}, []string{"All 52"}},
		{[]string{"places=true"}, 4, []string{"the first out wins, the rest play for places", "until one player is left holding cards: last place"}, []string{"placed by cards left"}},
		{[]string{"quads=true"}, 4, []string{"before you play, you may lay four of one rank face up (4); they leave the game. Never your last cards", "4 four of a kind"}, nil},
		{[]string{"first=holder:AS"}, 4, []string{"Whoever holds the A♠ starts"}, []string{"Left of the dealer starts"}},
		{[]string{"first=holder:2C"}, 8, []string{"Whoever holds the 2♣ starts (with two decks, the first to hold one in deal order)"}, nil},
		{[]string{"first=random"}, 4, []string{"A random player starts", "from a random rank; after K comes A"}, []string{"Left of the dealer starts", "calls aces"}},
		{[]string{"callers=next"}, 4, []string{"After each play only the next player may shout “Bullshit!” (B) or let it go (G)"}, []string{"anyone else"}},
		{[]string{"count_lies=true"}, 4, []string{"The count may lie too (+ − set it): claim 1 to 4 whatever you put down", "a wrong count", "+ − count"}, []string{"only the rank may be a lie"}},
		{[]string{"rapid=true"}, 4, []string{"Rapid: the next player may play without waiting, which closes the window", "last cards always gets its whole window"}, nil},
		{[]string{"sneak=1"}, 4, []string{"slip up to 1 extra card under your claim", "S sneak", "H hand over",
			"Caught sneaking, you take the pile, and the caller also hands you a card of their choice (H, within 12 seconds) unless it's their last", "or a sneak"}, nil},
		{[]string{"sneak=3"}, 4, []string{"slip up to 3 extra cards under your claim"}, nil},
		{[]string{"sneak=2", "count_lies=true"}, 4, []string{"put down up to 2 more cards than you claim (+ −), unclaimed", "a wrong count or a sneak"}, []string{"only the rank may be a lie"}},
		{[]string{"counts=rough"}, 4, []string{"a hand over 8 cards shows only as 9–10, 11–13, 14–17, 18–22, 23–29 or 30+",
			"the pile over 3 as 4–6, 7–10, 11–15, 16–22, 23–31 or 32+", "Your own hand is exact"}, []string{"shown exactly"}},
		{[]string{"window=10"}, 4, []string{"within 10 seconds"}, []string{"within 6 seconds"}},
		{[]string{"window=1.5"}, 4, []string{"within 1.5 seconds"}, []string{"within 6 seconds"}},
		{[]string{"decks=2"}, 4, []string{"All 104 cards of two decks"}, []string{"All 52"}},
		{[]string{"decks=3"}, 4, []string{"All 156 cards of three decks"}, []string{"All 52"}},
		{[]string{"mode=doubt"}, 4, []string{"The game goes in rounds", "name any rank (R)", "doubt the last play (D)", "believe it (V)", "skip (K)",
			"the round's cards leave the game", "D doubt", "V believe", "K skip", "doubt them and find a lie"}, []string{"Bullshit!", "B Bullshit!", "goes up"}},
	}
	for _, c := range cases {
		name := strings.Join(c.kv, " ")
		text := strings.Join(RulesText(rulesFor(t, "standard", c.kv...), c.seats, 1000), "\n")
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: no %q in\n%s", name, w, text)
			}
			if strings.Contains(std, w) {
				t.Errorf("%s: %q is in the standard text too", name, w)
			}
		}
		for _, w := range c.not {
			if !strings.Contains(std, w) {
				t.Errorf("%s: %q isn't in the standard text either: the test says nothing", name, w)
			}
			if strings.Contains(text, w) {
				t.Errorf("%s: %q shouldn't be in\n%s", name, w, text)
			}
		}
		if !strings.Contains(text, "How to play · standard, changed") {
			t.Errorf("%s: the title doesn't say the preset was changed: %q", name, strings.SplitN(text, "\n", 2)[0])
		}
	}
	// With count lies the sneak is set by + −: there is no S.
	if text := strings.Join(RulesText(rulesFor(t, "twist", "count_lies=true"), 4, 0), "\n"); strings.Contains(text, "S sneak") {
		t.Errorf("twist with count lies offers S:\n%s", text)
	}
	// Every rules key is covered above.
	seen := map[string]bool{}
	for _, c := range cases {
		for _, kv := range c.kv {
			k, _, _ := strings.Cut(kv, "=")
			seen[k] = true
		}
	}
	for _, k := range engine.RuleKeys {
		if !seen[k] {
			t.Errorf("rules key %q has no case", k)
		}
	}
}
