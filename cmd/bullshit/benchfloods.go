package main

// bench's flood section (issue 13, "refuse before you work"): this binary
// hosts a table in a process of its own, and node/flood throws each flood
// at it while measured players shout; the host's CPU and their shout to
// verdict under each, beside a calm stretch before and after.

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strings"

	"github.com/bullshit-game/bullshit/node/flood"
)

func benchFloods(ctx context.Context, rep *benchReport, c benchConfig, progress func(string)) {
	res, err := runFloods(ctx, c, progress)
	if err != nil && len(res) == 0 {
		rep.add(figure{Section: secFlood, Name: "floods", Note: "not measured: " + err.Error()})
		return
	}
	for _, f := range floodFigures(res, c.flood) {
		rep.add(f)
	}
	if err != nil {
		rep.add(figure{Section: secFlood, Name: "floods", Note: "stopped: " + err.Error()})
	}
}

// runFloods hosts the table in this binary run again (flood.HostEnv) and
// floods it.
func runFloods(ctx context.Context, c benchConfig, progress func(string)) ([]flood.Result, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	host, err := flood.Spawn(exec.CommandContext(ctx, exe, "bench"), c.flood.Seats())
	if err != nil {
		return nil, err
	}
	defer host.Close()
	cfg := c.flood
	cfg.Progress = func(kind string) { progress("flood: " + kind) }
	return flood.Run(ctx, host, cfg)
}

// floodFigures are the report's lines: the calm baseline, then each flood
// beside it.
func floodFigures(res []flood.Result, cfg flood.Config) []figure {
	if len(res) == 0 {
		return nil
	}
	calm := res[0]
	var out []figure
	for i, r := range res {
		p50, p99 := ms(r.P(0.5)), ms(r.P(0.99))
		samples, shouts := 0, 0
		if r.Shouts != nil {
			samples, shouts = len(r.Shouts.Samples), len(r.Shouts.Last)
		}
		f := figure{Section: secFlood, Value: r.HostCPU, Unit: "% of a core",
			Extra: map[string]float64{"host_cpu": r.HostCPU, "own_cpu": r.OwnCPU, "p50_ms": p50, "p99_ms": p99,
				"samples": float64(samples), "host_refused_per_s": r.HostRefused, "verified_per_s": r.Verified}}
		if r.Kind == flood.Calm {
			f.Name = "calm (no flood)"
			if i > 0 {
				f.Name = "calm again, after the floods"
			}
			f.Text = fmt.Sprintf("host CPU %.1f %% of a core; shout to verdict p50 %.2f ms, p99 %.2f ms", r.HostCPU, p50, p99)
			f.Note = fmt.Sprintf("%d shouts over %.1f s, each timed at %d players; the host verified %.0f signatures/s",
				shouts, r.Wall.Seconds(), cfg.Seats()-2, r.Verified)
			out = append(out, f)
			continue
		}
		f.Name = fmt.Sprintf("%s (%s)", r.Kind, r.Who)
		f.Text = fmt.Sprintf("offered %.0f/s; host CPU %.1f %% of a core (calm %.1f %%); shout to verdict p50 %.2f ms, p99 %.2f ms (calm %.2f / %.2f ms)",
			r.Offered, r.HostCPU, calm.HostCPU, p50, p99, ms(calm.P(0.5)), ms(calm.P(0.99)))
		f.Extra["offered_per_s"] = r.Offered
		f.Extra["sent"] = float64(r.Sent)
		f.Extra["refused"] = float64(r.Refused)
		f.Extra["held"] = float64(r.Held)
		var notes []string
		notes = append(notes, r.What)
		for _, k := range slices.Sorted(maps.Keys(r.Outcome)) {
			notes = append(notes, fmt.Sprintf("%s %d", k, r.Outcome[k]))
		}
		if len(r.Wrong) > 0 {
			notes = append(notes, fmt.Sprintf("REFUSED FOR ANOTHER REASON: %q", r.Wrong))
		}
		if r.Err != nil {
			notes = append(notes, "ERROR: "+r.Err.Error())
		}
		notes = append(notes, fmt.Sprintf("the bench's own CPU (flooders, players) %.0f %%", r.OwnCPU))
		f.Note = strings.Join(notes, "; ")
		out = append(out, f)
	}
	return out
}
