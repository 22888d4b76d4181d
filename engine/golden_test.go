package engine_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/referee"
)

// -update rewrites the golden transcripts (as does BULLSHIT_UPDATE=1, for
// `go test ./...` runs where another package lacks the flag).
var update = flag.Bool("update", false, "rewrite the golden transcripts in testdata")

func updating() bool { return *update || os.Getenv("BULLSHIT_UPDATE") == "1" }

// line is a driver's action as a referee command line.
func line(a action) string {
	if a.Tick {
		return fmt.Sprintf(`{"cmd":"tick","t":%s}`, ftoa(a.At.Seconds()))
	}
	c := a.Cmd
	m := map[string]any{"cmd": c.Move.String(), "seat": c.Seat}
	if c.Move < engine.MovePlay || c.Move > engine.MoveSkip {
		m["cmd"] = "fold"
	}
	switch c.Move {
	case engine.MovePlay, engine.MoveGive, engine.MoveQuads:
		cs := make([]string, len(c.Cards))
		for i, x := range c.Cards {
			cs[i] = x.String()
		}
		m["cards"] = cs
	}
	if c.Move == engine.MovePlay {
		if c.Claim != 0 {
			m["claim"] = c.Claim
		}
		if c.Rank.Valid() {
			m["rank"] = c.Rank.String()
		}
	}
	switch c.Move {
	case engine.MoveCall, engine.MovePass:
		m["no"] = c.No
	case engine.MoveDoubt, engine.MoveBelieve, engine.MoveSkip:
		if c.No > 0 {
			m["no"] = c.No
		}
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// transcript plays a seeded game through a referee and returns its lines,
// "> " for each command sent and "< " for each reply.
func transcript(t *testing.T, preset string, seats int, seed uint64) []string {
	ref := referee.New()
	var out []string
	send := func(l string) []byte {
		r := ref.Handle([]byte(l))
		out = append(out, "> "+l, "< "+string(r))
		return r
	}
	send(fmt.Sprintf(`{"cmd":"new","seats":%d,"seed":%d,"rules":%q}`, seats, seed, preset))
	g := ref.Game()
	if g == nil {
		t.Fatalf("%s: no game", preset)
	}
	d := &driver{rng: rand.New(rand.NewPCG(seed, 99)), g: g, junk: 60}
	for step := 0; step < 400 && !g.Over(); step++ {
		send(line(d.next()))
		if step%25 == 24 {
			send(fmt.Sprintf(`{"cmd":"view","seat":%d}`, step/25%seats))
		}
	}
	send(`{"cmd":"state"}`)
	return out
}

var goldens = []struct {
	preset string
	seats  int
	seed   uint64
}{
	{"standard", 4, 1},
	{"cheat", 3, 2},
	{"twist", 5, 3},
	{"doubt", 4, 4},
	{"free", 2, 5},
}

// TestGolden replays the transcripts in testdata through the referee and
// fails on any drift in a reply. -update regenerates them from the seeds.
func TestGolden(t *testing.T) {
	for _, gt := range goldens {
		t.Run(gt.preset, func(t *testing.T) {
			path := filepath.Join("testdata", gt.preset+".golden")
			if updating() {
				lines := transcript(t, gt.preset, gt.seats, gt.seed)
				head := fmt.Sprintf("# A seeded %s game at %d seats (seed %d) through the referee: > sent, < replied.\n"+
					"# Regenerate with: go test ./engine/ -run TestGolden -update\n", gt.preset, gt.seats, gt.seed)
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(head+strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			var in bytes.Buffer
			var want []string
			var wantAt []int
			for i, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
				switch {
				case strings.HasPrefix(l, "> "):
					in.WriteString(l[2:] + "\n")
				case strings.HasPrefix(l, "< "):
					want, wantAt = append(want, l[2:]), append(wantAt, i+1)
				}
			}
			var out bytes.Buffer
			if err := referee.Run(&in, &out); err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(&out)
			sc.Buffer(nil, referee.MaxLine*2)
			n := 0
			for sc.Scan() {
				if n >= len(want) {
					t.Fatalf("more replies than the transcript holds")
				}
				if got := sc.Text(); got != want[n] {
					t.Fatalf("%s:%d drifted:\n got %s\nwant %s", path, wantAt[n], got, want[n])
				}
				n++
			}
			if n != len(want) {
				t.Fatalf("%d replies, the transcript holds %d", n, len(want))
			}
			if n < 40 {
				t.Errorf("a short transcript: %d replies", n)
			}
		})
	}
}
