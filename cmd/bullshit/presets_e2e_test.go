package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Every preset, and a spread of rules keys, is hosted to the end by the
// real binary, a headless host and a headless player on loopback (no
// namespaces, no root): the path a player takes, where a hosted I Doubt It
// game once hung after its first round while every simulated one finished.
func TestE2EPresetsHostedToTheEnd(t *testing.T) { presetsHosted(t, false) }

// The same, dealt blind (--blind): the host sees no card but its own
// seat's; each program's node shuffles, deals, turns its plays up and
// hands its pile cards over itself, and audits the game at the end.
func TestE2EBlindPresetsHostedToTheEnd(t *testing.T) { presetsHosted(t, true) }

func presetsHosted(t *testing.T, blind bool) {
	t.Parallel()
	cases := []struct {
		name  string
		args  []string
		seats int
	}{
		{"standard", []string{"--preset", "standard"}, 4},
		{"cheat", []string{"--preset", "cheat"}, 4},
		{"twist", []string{"--preset", "twist"}, 4},
		{"doubt", []string{"--preset", "doubt"}, 4},
		{"doubt-6-jokers", []string{"--preset", "doubt", "--rules", "jokers=2"}, 6},
		{"free", []string{"--preset", "free"}, 3},
		{"near-quads-places", []string{"--rules", "sequence=near", "--rules", "quads=true", "--rules", "places=true"}, 5},
		{"down-ccw-next-rapid", []string{"--rules", "sequence=down", "--rules", "direction=ccw", "--rules", "callers=next", "--rules", "rapid=true"}, 4},
		{"lies-rough-sneak3", []string{"--rules", "count_lies=true", "--rules", "counts=rough", "--rules", "sneak=3", "--rules", "first=random"}, 5},
		{"doubt-rough-cap2-2decks", []string{"--rules", "mode=doubt", "--rules", "counts=rough", "--rules", "cap=2", "--rules", "decks=2"}, 3},
	}
	bin := bullshitBin(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			args := []string{"host", "--headless", "--json", "--config", filepath.Join(dir, "host"), "--name", "Host",
				"--players", "1", "--bots", strconv.Itoa(c.seats - 2), "--wait", "60s", "--no-mdns",
				"--listen", "/ip4/127.0.0.1/tcp/0", "--pace", "fast", "--reveal", "50ms", "--rules", "window=1"}
			args = append(args, c.args...)
			if !blind {
				args = append(args, "--blind=false")
			}
			host := startProc(t, "host", nil, bin, args...)
			table := host.waitFor(20*time.Second, "the table line", isType("table"))
			join := startProc(t, "join", nil, bin, "join", "--headless", "--json", "--config", filepath.Join(dir, "join"),
				"--pace", "fast", "--wait", "30s", "--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0", hostAddr(t, table))
			var res []result
			for _, p := range []*proc{host, join} {
				l, err := p.await(3*time.Minute, isType("result"))
				if err != nil {
					t.Fatalf("%s printed no result (the game hung?): %v; last lines: %s", p.name, err, tail(p, 4))
				}
				var r result
				if err := json.Unmarshal([]byte(l.raw), &r); err != nil {
					t.Fatal(err)
				}
				if r.Unfinished {
					t.Errorf("%s: the game did not finish", p.name)
				}
				if r.Audit == nil || !r.Audit.Verified {
					t.Errorf("%s: the audit did not verify: %+v", p.name, r.Audit)
				}
				if r.Blind != blind {
					t.Errorf("%s: dealt blind %v, asked %v", p.name, r.Blind, blind)
				}
				if len(r.Places) != c.seats {
					t.Errorf("%s: places %v for %d seats", p.name, r.Places, c.seats)
				}
				res = append(res, r)
			}
			if !slices.Equal(res[0].Places, res[1].Places) || !slices.Equal(res[0].Left, res[1].Left) {
				t.Errorf("host and player disagree: places %v / %v, cards left %v / %v", res[0].Places, res[1].Places, res[0].Left, res[1].Left)
			}
			if res[0].You == res[1].You {
				t.Errorf("host and player both in seat %d", res[0].You)
			}
		})
	}
}

// tail is a program's last n lines of output, for a failure message.
func tail(p *proc, n int) string {
	ls := p.snapshot()
	var out []string
	for _, l := range ls[max(0, len(ls)-n):] {
		out = append(out, l.raw)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(out, "\n") + "\nstderr: " + p.stderr.String()
}
