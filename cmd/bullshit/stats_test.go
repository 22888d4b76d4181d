package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/bullshit-game/bullshit/cli/rating"
)

func TestStatsCommand(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	if err := printStats(&out, &errOut, []string{"--config", dir}); err != nil || !strings.Contains(out.String(), "no games yet") {
		t.Fatalf("empty profile: %v %q", err, out.String())
	}
	g := rating.Result{ID: "g", You: 0, Seats: []rating.Seat{
		{Peer: "me", Nick: "Ada", Place: 1}, {Peer: "ben", Nick: "Ben", Place: 2}, {Bot: "hard", Nick: "Dev", Place: 3}}}
	if _, err := rating.Record(dir, g); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := printStats(&out, &errOut, []string{"--config", dir}); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"Ada: 1 game, 1 win (100 %), average place 1.0 at tables of 3.0", "Rating ", "Calls right 0 of 0", "Ben", "hard bot"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("no %q in\n%s", w, out.String())
		}
	}
	out.Reset()
	if err := printStats(&out, &errOut, []string{"--config", dir, "--json"}); err != nil {
		t.Fatal(err)
	}
	var s rating.Store
	if err := json.Unmarshal(out.Bytes(), &s); err != nil || s.Tally.Games != 1 || s.Players["ben"] == nil {
		t.Errorf("json: %v %+v", err, s)
	}
	if err := printStats(&out, &errOut, []string{"extra"}); err == nil {
		t.Error("an argument was taken")
	}
}
