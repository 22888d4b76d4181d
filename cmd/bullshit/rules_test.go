package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/bullshit-game/bullshit/cli"
	"github.com/bullshit-game/bullshit/engine"
)

// bullshit rules prints the table's rules text, from the same parser as
// host and sim.
func TestRulesCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := printRules(&out, &errOut, []string{"--preset", "twist", "--rules", "window=10", "--rules", "quads=true", "--seats", "5"}); err != nil {
		t.Fatal(err)
	}
	r, _ := engine.Preset("twist")
	r.Set("window", "10")
	r.Set("quads", "true")
	want := strings.Join(cli.RulesText(r, 5, cli.RulesWidth), "\n") + "\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	flat := strings.ReplaceAll(out.String(), "\n  ", " ")
	for _, s := range []string{"within 10 seconds", "Four of a kind", "slip up to 2 extra cards", "· 5 seats"} {
		if !strings.Contains(flat, s) {
			t.Errorf("no %q in\n%s", s, out.String())
		}
	}
	for _, bad := range [][]string{
		{"--preset", "nope"},
		{"--rules", "window"},
		{"--rules", "colour=red"},
		{"--preset", "twist", "--seats", "2"},
		{"extra"},
	} {
		out.Reset()
		if err := printRules(&out, &errOut, bad); err == nil {
			t.Errorf("%q: no error, printed\n%s", bad, out.String())
		}
	}
}
