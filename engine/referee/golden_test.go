package referee_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bullshit-game/bullshit/engine/referee"
)

// -update rewrites testdata/session.golden (as does BULLSHIT_UPDATE=1).
var update = flag.Bool("update", false, "rewrite the golden transcript in testdata")

// script touches every command of the protocol: each rules key, each move,
// the clock, views and the state.
var script = []string{
	`{"cmd":"new","seats":3,"seed":11,"rules":{"preset":"twist","quads":true,"jokers":2,"window":4},"hands":[["AS","AC","2D","5C","5D","5H","5S","JK"],["2C","2H","7D","8S","9D"],["3C","3D","JD","QS","KC"]],"first":0}`,
	`{"cmd":"quads","seat":0,"cards":["5C","5D","5H","5S"]}`,
	`{"cmd":"play","seat":0,"cards":["AS","AC","2D"],"claim":2}`,
	`{"cmd":"view","seat":1}`,
	`{"cmd":"call","seat":1,"no":1}`,
	`{"cmd":"view","seat":0}`,
	`{"cmd":"give","seat":1,"cards":["9D"]}`,
	`{"cmd":"play","seat":1,"cards":["2C","2H"]}`,
	`{"cmd":"pass","seat":2,"no":2}`,
	`{"cmd":"tick","t":4}`,
	`{"cmd":"play","seat":2,"cards":["3C"]}`,
	`{"cmd":"call","seat":0,"no":3}`,
	`{"cmd":"tick","t":10}`,
	`{"cmd":"state"}`,
	`{"cmd":"new","seats":3,"seed":12,"rules":{"preset":"doubt","places":true},"hands":[["AS","AC"],["2C","2H","7D"],["3C","3D","JD"]],"first":0}`,
	`{"cmd":"play","seat":0,"cards":["AS","AC"],"rank":"A"}`,
	`{"cmd":"skip","seat":1}`,
	`{"cmd":"play","seat":2,"cards":["3C"]}`,
	`{"cmd":"believe","seat":1}`,
	`{"cmd":"play","seat":2,"cards":["3D"],"rank":"3"}`,
	`{"cmd":"doubt","seat":1,"no":3}`,
	`{"cmd":"view","seat":2}`,
	`{"cmd":"state"}`,
	`not a command`,
}

func TestGoldenSession(t *testing.T) {
	path := filepath.Join("testdata", "session.golden")
	var in bytes.Buffer
	for _, l := range script {
		in.WriteString(l + "\n")
	}
	var out bytes.Buffer
	if err := referee.Run(&in, &out); err != nil {
		t.Fatal(err)
	}
	replies := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(replies) != len(script) {
		t.Fatalf("%d replies to %d lines", len(replies), len(script))
	}
	var b strings.Builder
	b.WriteString("# Every command of the protocol through the referee: > sent, < replied.\n# Regenerate with: go test ./engine/referee/ -run TestGoldenSession -update\n")
	for i, l := range script {
		b.WriteString("> " + l + "\n< " + replies[i] + "\n")
	}
	if *update || os.Getenv("BULLSHIT_UPDATE") == "1" {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	got := strings.Split(b.String(), "\n")
	for i, w := range strings.Split(string(want), "\n") {
		if i >= len(got) || got[i] != w {
			g := ""
			if i < len(got) {
				g = got[i]
			}
			t.Fatalf("%s:%d drifted:\n got %s\nwant %s", path, i+1, g, w)
		}
	}
}
