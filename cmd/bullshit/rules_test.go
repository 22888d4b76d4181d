package main

import (
	"bytes"
	"net/http/httptest"
	"net/url"
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

// /rules takes its query from anyone on the LAN: every rules key with
// values good and bad, any seats and width, answers 200 with the rules
// screen or 400 with why, and never panics.
func TestServeRulesTakesAnyQuery(t *testing.T) {
	vals := []string{"0", "1", "2", "7", "99", "-1", "x", "true", "down", "free", "near", "holder:AS", "rough", ""}
	for _, preset := range append([]string{"", "custom", "nope"}, engine.Presets...) {
		for _, k := range append([]string{"nokey"}, engine.RuleKeys...) {
			for _, v := range vals {
				q := url.Values{"preset": {preset}, "r": {k + "=" + v, "sneak=1"}, "seats": {v}, "w": {v}}
				rw := httptest.NewRecorder()
				serveRules(rw, httptest.NewRequest("GET", "/rules?"+q.Encode(), nil))
				if c := rw.Code; c != 200 && c != 400 {
					t.Fatalf("%s: %d", q.Encode(), c)
				}
			}
		}
	}
	rw := httptest.NewRecorder()
	serveRules(rw, httptest.NewRequest("GET", "/rules?preset=twist&seats=4&w=40", nil))
	tw, _ := engine.Preset("twist")
	if want := strings.Join(cli.RulesText(tw, 4, 40), "\n") + "\n"; rw.Code != 200 || rw.Body.String() != want {
		t.Errorf("/rules for twist: %d\n%s", rw.Code, rw.Body.String())
	}
	rw = httptest.NewRecorder()
	serveRules(rw, httptest.NewRequest("GET", "/rules?r="+strings.Repeat("x", 5000), nil))
	if rw.Code != 414 {
		t.Errorf("a 5000-byte query: %d", rw.Code)
	}
}
