//go:build linux

package main

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/node/flood"
)

// The bench's flood section runs (its host this test binary again, as
// `bullshit bench` runs itself), briefly, with a seated flood and a
// stranger's: each flood gets its line beside the calm, every frame
// refused for the right reason, and the measured players shout through
// it. The figures themselves are the bench's, not the test's.
func TestBenchFloods(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := benchConfig{flood: flood.Config{For: 500 * time.Millisecond, Addrs: 4, Kinds: []string{"garbage", "web"}}}
	res, err := runFloods(ctx, c, func(string) {})
	if errors.Is(err, flood.ErrNoAddrs) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	figs := floodFigures(res, c.flood)
	var names []string
	for _, f := range figs {
		names = append(names, f.Name)
		t.Logf("%s: %s (%s)", f.Name, f.Text, f.Note)
		if f.Section != secFlood {
			t.Errorf("%s: in section %q", f.Name, f.Section)
		}
		if f.Extra["samples"] == 0 {
			t.Errorf("%s: no shout measured", f.Name)
		}
		if strings.Contains(f.Note, "ANOTHER REASON") || strings.Contains(f.Note, "ERROR") {
			t.Errorf("%s: %s", f.Name, f.Note)
		}
		if !strings.HasPrefix(f.Name, "calm") && f.Extra["refused"] == 0 {
			t.Errorf("%s: nothing refused: %s", f.Name, f.Note)
		}
	}
	want := []string{"calm (no flood)", "garbage (seated rogue)", "web (stranger)", "calm again, after the floods"}
	if strings.Join(names, "|") != strings.Join(want, "|") {
		t.Errorf("figures %q, want %q", names, want)
	}
}
