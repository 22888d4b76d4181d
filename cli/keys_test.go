package cli

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	bkey "charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// A letter works in either case, as the screens name it in capitals: W
// watches from the lobby, Q and Y leave a table.
func TestLettersInEitherCase(t *testing.T) {
	l := &fakeLobby{tables: []TableSummary{{ID: "k", Name: "Kitchen", Host: "Ben", Taken: 1, Seats: 4, Preset: "standard"}}}
	a := lobbyApp(t, l, Config{})
	press(a, "W")
	if len(l.joined) != 1 || l.joined[0] != "watch:k/" {
		t.Fatalf("W in the lobby: %v", l.joined)
	}

	h := newHarness(t, opts{hands: fixedHands(t), first: seat(0), plain: true})
	h.press("Q")
	h.has("Leave the table?")
	h.press("Y")
	if !h.sess.closed {
		t.Fatal("Q, Y didn't leave the table")
	}
}

// Every key a screen shows is a key its handler takes, a letter in either
// case: the bars and help are drawn from the bindings the handlers match.
func TestShownKeysAreBound(t *testing.T) {
	named := map[string]string{"Enter": "enter", "Esc": "esc", "^C": "ctrl+c", "^R": "ctrl+r", "space": "space",
		"↑↓": "up", "↑ ↓": "up", "← →": "left", "+ −": "+"}
	check := func(b bkey.Binding) {
		shown := b.Help().Key
		want := []string{named[shown]}
		if len([]rune(shown)) == 1 {
			want = []string{strings.ToLower(shown), strings.ToUpper(shown)}
		}
		for _, k := range want {
			if shown != "" && !slices.Contains(b.Keys(), k) {
				t.Errorf("%q is shown for keys %q", shown, b.Keys())
			}
		}
	}
	n := 0
	for _, km := range []any{appKeys, lobbyKeys, formKeys, busyKeys, rulesPageKeys, tableKeys} {
		v := reflect.ValueOf(km)
		for i := range v.NumField() {
			switch f := v.Field(i).Interface().(type) {
			case bkey.Binding:
				check(f)
				n++
			case [5]bkey.Binding:
				for _, b := range f {
					check(b)
					n++
				}
			}
		}
	}
	if n < 50 {
		t.Errorf("checked %d bindings", n)
	}
}

// A field edits where its cursor is, and takes a paste whole: an address
// is pasted more often than typed.
func TestFieldEditsAtTheCursorAndPastes(t *testing.T) {
	l := &fakeLobby{}
	a := lobbyApp(t, l, Config{})
	press(a, "a")
	for _, r := range "192.168.1.4:401" {
		press(a, string(r))
	}
	press(a, "left", "left")
	contains(t, text(a), "> 192.168.1.4:4▏01")
	press(a, "0", "enter")
	if len(l.joined) != 1 || l.joined[0] != "addr:192.168.1.4:4001/" {
		t.Fatalf("joined %v", l.joined)
	}

	l = &fakeLobby{}
	a = lobbyApp(t, l, Config{})
	press(a, "a")
	step(a, tea.PasteMsg{Content: "/ip4/10.0.0.7/tcp/4001"})
	contains(t, text(a), "> /ip4/10.0.0.7/tcp/4001▏")
	press(a, "enter")
	if len(l.joined) != 1 || l.joined[0] != "addr:/ip4/10.0.0.7/tcp/4001/" {
		t.Fatalf("joined %v", l.joined)
	}

	// The form's name: the cursor bar only on the row under the cursor.
	a = lobbyApp(t, &fakeLobby{}, Config{})
	press(a, "n", "backspace", "backspace", "backspace", "backspace", "backspace")
	step(a, tea.PasteMsg{Content: "kitchen"})
	contains(t, text(a), "Ada's kitchen▏")
	press(a, "down")
	contains(t, text(a), "Ada's kitchen ")
	if strings.Contains(text(a), "▏") {
		t.Error("a cursor bar on a field without the keyboard")
	}
}

// wrap keeps every line within the width, breaks only at spaces (a flag
// like --iface or "Wi-Fi" stays whole), indents the rest under the first,
// and loses no word.
func TestWrapFits(t *testing.T) {
	text := "The network could not start: no LAN interface found: connect to Wi-Fi, or pass --iface"
	for w := 16; w <= 90; w++ {
		lines := wrap("  ", text, w)
		var words []string
		for i, l := range lines {
			if width(l) > w {
				t.Errorf("w=%d: %q is %d wide", w, l, width(l))
			}
			if i > 0 && !strings.HasPrefix(l, "  ") {
				t.Errorf("w=%d: %q is not indented", w, l)
			}
			words = append(words, strings.Fields(l)...)
		}
		if got := strings.Join(words, " "); got != text {
			t.Errorf("w=%d: %q", w, got)
		}
	}
	if got := wrap("  · ", "fits", 20); len(got) != 1 || got[0] != "  · fits" {
		t.Errorf("a short line: %q", got)
	}
}
