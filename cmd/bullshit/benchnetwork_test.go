//go:build linux

package main

import (
	"context"
	"strings"
	"testing"
	"time"
)

// The bench's network section runs, briefly: the echo, shout to verdict
// clear and blind at 4 and 10 seats, the CPU of all peers, and the host's
// own CPU per call round from a host in a process of its own (this test
// binary again, as `bullshit bench` runs itself). Each line is there with
// a figure; the figures themselves are the bench's, never the test's.
func TestBenchNetwork(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	rep := &benchReport{}
	if err := benchNetwork(ctx, rep, benchConfig{runs: 1, rounds: 5, echoes: 20}); err != nil {
		t.Fatal(err)
	}
	byName := map[string]figure{}
	for _, f := range rep.Figures {
		t.Logf("%s: %s [goal %s] (%s)", f.Name, f.Text, f.Goal, f.Note)
		byName[f.Name] = f
	}
	for _, name := range []string{
		"signed echo round trip (the floor)",
		"shout to verdict, 4 seats (each player)", "shout to verdict, 4 seats, blind (each player)",
		"shout to verdict, 10 seats (each player)", "shout to verdict, 10 seats, blind (each player)",
		"CPU per shout round, 4 seats (all peers)", "CPU per shout round, 10 seats, blind (all peers)",
		"host CPU per call round, 4 seats", "host CPU per call round, 10 seats",
	} {
		f, ok := byName[name]
		if !ok {
			t.Errorf("no line %q", name)
			continue
		}
		if f.Value <= 0 {
			t.Errorf("%s: value %v (%s)", name, f.Value, f.Note)
		}
		if strings.Contains(name, "blind (each") && (f.Met == nil || f.Extra["x_floor"] <= 0) {
			t.Errorf("%s: no goal against the floor: %+v", name, f)
		}
		if strings.HasPrefix(name, "host CPU") && (f.Extra["clear_ms"] <= 0 || f.Extra["blind_ms"] <= 0) {
			t.Errorf("%s: clear %v ms, blind %v ms", name, f.Extra["clear_ms"], f.Extra["blind_ms"])
		}
	}
}
