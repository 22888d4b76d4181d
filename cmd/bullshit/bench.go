package main

// bench: every figure of BENCHMARKS.md from one run (issue 8), with the
// machine it ran on and its load, so a figure is never quoted without
// them. The engine, simulator and protocol figures run the very bodies of
// the packages' Benchmark functions (engine/bench, protocol/bench) under
// engine/bench's runner, so this binary never links testing; the network
// figures come from node/latency, which the node benchmarks call too.

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/bench"
	"github.com/bullshit-game/bullshit/node/flood"
	nodelan "github.com/bullshit-game/bullshit/node/lan"
	"github.com/bullshit-game/bullshit/node/latency"
	"github.com/bullshit-game/bullshit/node/netns"
	protobench "github.com/bullshit-game/bullshit/protocol/bench"
)

// benchConfig is what `bullshit bench` was asked for.
type benchConfig struct {
	quick   bool
	json    bool
	netns   bool
	runs    int           // repeats of every measure; the median is reported
	rounds  int           // shouts per run and table size
	echoes  int           // echoes per run
	benchT  time.Duration // time per engine/sim/protocol benchmark run
	rssFor  time.Duration // how long the host's RSS is watched
	nsTries int           // discovery rounds in namespaces
	foTries int           // failovers in namespaces
	floods  bool          // the host under each flood
	flood   flood.Config
}

func runBench(args []string) error {
	var c benchConfig
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.BoolVar(&c.quick, "quick", false, "fewer rounds and shorter runs (a smoke test, not figures to quote)")
	fs.BoolVar(&c.json, "json", false, "print one JSON object instead of the report")
	fs.BoolVar(&c.netns, "netns", false, "also measure discovery and failover between processes in network namespaces (root, iproute2)")
	fs.BoolVar(&c.floods, "floods", true, "measure the host's CPU and the honest shout to verdict under each flood (loopback; --floods=false skips it)")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	c.runs, c.rounds, c.echoes, c.benchT, c.rssFor, c.nsTries, c.foTries = 3, 200, 1000, 500*time.Millisecond, 6*time.Second, 8, 5
	c.flood = flood.Config{For: 3 * time.Second}
	if c.quick {
		c.runs, c.rounds, c.echoes, c.benchT, c.rssFor, c.nsTries, c.foTries = 1, 50, 300, 100*time.Millisecond, 2*time.Second, 2, 2
		c.flood = flood.Quick()
	}
	ctx, cancel, _ := signalContext()
	defer cancel()
	if os.Getenv(flood.HostEnv) != "" {
		// The host of the flood section, in a process of its own
		// (benchFloods starts it).
		return flood.ServeLines(ctx, os.Stdin, os.Stdout)
	}
	if os.Getenv(latency.HostEnv) != "" {
		// The host whose CPU per call round the network section reads,
		// in a process of its own (benchNetwork starts it).
		return latency.ServeHost(ctx, os.Stdin, os.Stdout)
	}
	rep := &benchReport{Machine: thisMachine(), Quick: c.quick}
	rep.Machine.LoadBefore = loadAvg()
	progress := func(what string) {
		if !c.json {
			fmt.Fprintf(os.Stderr, "… %s\n", what)
		}
	}
	progress("engine")
	if err := benchEngine(rep, c); err != nil {
		return err
	}
	progress("simulator")
	if err := benchSim(rep, c); err != nil {
		return err
	}
	progress("protocol")
	if err := benchProtocol(rep, c); err != nil {
		return err
	}
	progress("network: signed echo and shout to verdict on loopback, clear and blind")
	if err := benchNetwork(ctx, rep, c); err != nil {
		return err
	}
	progress("memory: a 10-seat table hosted by this binary")
	benchMemory(ctx, rep, c)
	if c.floods {
		progress("floods: the host's CPU and the honest shout to verdict under each flood, on loopback")
		benchFloods(ctx, rep, c, progress)
	}
	if c.netns {
		progress("LAN: discovery and failover in network namespaces")
		benchNetns(ctx, rep, c)
	} else {
		rep.add(figure{Section: secLAN, Name: "discovery (mDNS, table opened → player seated)", Note: "not measured: run as root with --netns"})
		rep.add(figure{Section: secLAN, Name: "failover (host killed → next accepted move)", Note: "not measured: run as root with --netns"})
	}
	rep.Machine.LoadAfter = loadAvg()
	if c.json {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	rep.print(os.Stdout)
	return nil
}

// The report's sections; BENCHMARKS.md's table of today's figures groups
// them as Engine and bots, Wire and network, Host and LAN.
const (
	secEngine   = "Engine"
	secSim      = "Bots and simulator"
	secProtocol = "Protocol"
	secNetwork  = "Network"
	secFlood    = "Refusing before work"
	secLAN      = "LAN"
)

type machine struct {
	CPUs       int       `json:"cpus"`
	Model      string    `json:"model"`
	Go         string    `json:"go"`
	OS         string    `json:"os"`
	Date       time.Time `json:"date"`
	LoadBefore string    `json:"load_before"` // /proc/loadavg's 1, 5 and 15 minute figures
	LoadAfter  string    `json:"load_after"`
}

// figure is one line of the report. Value is in Unit; Goal and Met say how
// it compares with the target, when there is one.
type figure struct {
	Section string             `json:"section"`
	Name    string             `json:"name"`
	Value   float64            `json:"value,omitempty"`
	Unit    string             `json:"unit,omitempty"`
	Text    string             `json:"text,omitempty"` // the value as printed
	Extra   map[string]float64 `json:"extra,omitempty"`
	Goal    string             `json:"goal,omitempty"`
	Met     *bool              `json:"met,omitempty"`
	Note    string             `json:"note,omitempty"`
}

type benchReport struct {
	Machine machine  `json:"machine"`
	Quick   bool     `json:"quick"`
	Figures []figure `json:"figures"`
}

func (r *benchReport) add(f figure) { r.Figures = append(r.Figures, f) }

func (r *benchReport) print(w io.Writer) {
	m := r.Machine
	fmt.Fprintf(w, "bullshit bench, %s: %d × %s, %s %s\n", m.Date.Format("2006-01-02 15:04 MST"), m.CPUs, m.Model, m.Go, m.OS)
	fmt.Fprintf(w, "load average (1, 5, 15 min): %s at the start, %s at the end\n", m.LoadBefore, m.LoadAfter)
	if r.Quick {
		fmt.Fprintln(w, "--quick: short runs, not figures to quote")
	}
	sec := ""
	for _, f := range r.Figures {
		if f.Section != sec {
			sec = f.Section
			fmt.Fprintf(w, "\n## %s\n", sec)
		}
		line := fmt.Sprintf("  %-44s %s", f.Name, f.Text)
		if f.Goal != "" {
			verdict := "?"
			if f.Met != nil {
				verdict = map[bool]string{true: "met", false: "MISSED"}[*f.Met]
			}
			line += fmt.Sprintf("   [goal %s: %s]", f.Goal, verdict)
		}
		if f.Note != "" {
			if f.Text == "" {
				line = fmt.Sprintf("  %-44s %s", f.Name, f.Note)
			} else {
				line += "   (" + f.Note + ")"
			}
		}
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
}

func thisMachine() machine {
	m := machine{CPUs: runtime.NumCPU(), Go: runtime.Version(), OS: runtime.GOOS + "/" + runtime.GOARCH, Date: time.Now().UTC()}
	m.Model = "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.Model = strings.TrimSpace(v)
				break
			}
		}
	}
	return m
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "n/a"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "n/a"
	}
	return strings.Join(f[:3], " ")
}

// median runs body runs times for d each and keeps the run with the
// median ns/op.
func median(runs int, d time.Duration, body func(bench.B)) (bench.Result, error) {
	rs := make([]bench.Result, runs)
	for i := range rs {
		r, err := bench.Run(d, body)
		if err != nil {
			return bench.Result{}, err
		}
		rs[i] = r
	}
	slices.SortFunc(rs, func(a, b bench.Result) int { return cmp.Compare(a.NsPerOp(), b.NsPerOp()) })
	return rs[len(rs)/2], nil
}

func fmtNs(ns float64) string {
	switch {
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.1f µs", ns/1e3)
	}
	return fmt.Sprintf("%.0f ns", ns)
}

func goal(met bool) *bool { return &met }

// Engine: engine/bench's bodies, as engine/bench_test.go runs them.

func benchEngine(rep *benchReport, c benchConfig) error {
	for _, x := range []struct {
		name string
		body func(bench.B)
		goal float64
		gs   string
	}{
		{"play", bench.Play, 2000, "< 2 µs"},
		{"call", bench.Call, 2000, "< 2 µs"},
		{"view (fresh, as a screen takes it)", bench.View, 0, ""},
		{"view into (refilled, as bots take it)", bench.ViewInto, 0, ""},
		{"a whole random 4-seat game", bench.Game, 100_000, "< 100 µs"},
	} {
		r, err := median(c.runs, c.benchT, x.body)
		if err != nil {
			return fmt.Errorf("%s: %w", x.name, err)
		}
		ns := r.NsPerOp()
		f := figure{Section: secEngine, Name: x.name, Value: ns, Unit: "ns/op",
			Text:  fmt.Sprintf("%s/op, %d allocs/op", fmtNs(ns), r.AllocsPerOp()),
			Extra: map[string]float64{"allocs/op": float64(r.AllocsPerOp()), "B/op": float64(r.BytesPerOp())}}
		if p, ok := r.Extra["plays/game"]; ok {
			f.Text += fmt.Sprintf(", %.0f plays/game", p)
			f.Extra["plays/game"] = p
		}
		if x.goal > 0 {
			f.Goal, f.Met = x.gs, goal(ns < x.goal)
		}
		rep.add(f)
	}
	return nil
}

// Simulator: engine/bench's Sim, as engine/sim/bench_test.go runs it, one
// Runner, one core. Wall time here swings with other people's jobs, so
// games per CPU second (the whole process, user + sys, as the simulator
// section counts them) is reported beside it; GOGC is 400 as in `bullshit
// sim`.

func benchSim(rep *benchReport, c benchConfig) error {
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(400))
	}
	for _, level := range []string{"medium", "hard"} {
		r, err := median(c.runs, c.benchT, func(b bench.B) { bench.Sim(b, engine.Standard(), 4, level) })
		if err != nil {
			return fmt.Errorf("sim, %s bots: %w", level, err)
		}
		ns := r.NsPerOp()
		f := figure{Section: secSim, Name: "sim, standard, 4 " + level + " bots, one core", Value: 1e9 / ns, Unit: "games/s",
			Text:  fmt.Sprintf("%.0f games/s wall (%s/game, %.0f plays/game)", 1e9/ns, fmtNs(ns), r.Extra["plays/game"]),
			Extra: map[string]float64{"ns/game": ns, "plays/game": r.Extra["plays/game"]}}
		if r.CPU > 0 {
			g := float64(r.N) / r.CPU.Seconds()
			f.Text = fmt.Sprintf("%.0f games per CPU second, ", g) + f.Text
			f.Extra["games/cpu-s"] = g
		}
		rep.add(f)
	}
	return nil
}

// Protocol: protocol/bench's seal and open of a play, as
// protocol/bench_ext_test.go runs them.

func benchProtocol(rep *benchReport, c benchConfig) error {
	seal, err := median(c.runs, c.benchT, protobench.Seal)
	if err != nil {
		return fmt.Errorf("seal: %w", err)
	}
	open, err := median(c.runs, c.benchT, protobench.Open)
	if err != nil {
		return fmt.Errorf("open: %w", err)
	}
	rep.add(figure{Section: secProtocol, Name: "seal a play (encode + ed25519 sign)", Value: seal.NsPerOp(), Unit: "ns/op",
		Text: fmt.Sprintf("%s/msg, %.0f wire bytes", fmtNs(seal.NsPerOp()), seal.Extra["wire-bytes"])})
	rep.add(figure{Section: secProtocol, Name: "open a play (decode + ed25519 verify)", Value: open.NsPerOp(), Unit: "ns/op",
		Text: fmt.Sprintf("%s/msg", fmtNs(open.NsPerOp()))})
	return nil
}

// Network: the signed echo and shout to verdict, interleaved run by run so
// both see the same machine; the median run is reported.

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

func medianOf(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

// The shouts of a run: the table's seats, dealt blind or in the clear,
// hosted in this process (latency figures) or in one of its own (the
// host's CPU).
type shoutKey struct {
	seats   int
	blind   bool
	spawned bool
}

// shoutRuns are a shoutKey's figures, one a run.
type shoutRuns struct{ p50, p99, all99, cpu, hostCPU []float64 }

func benchNetwork(ctx context.Context, rep *benchReport, c benchConfig) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	var e50, e99 []float64
	shouts := map[shoutKey]*shoutRuns{}
	for run := 0; run < c.runs; run++ {
		echo, err := latency.Echo(ctx, c.echoes)
		if err != nil {
			return fmt.Errorf("echo: %w", err)
		}
		e50 = append(e50, ms(bench.Percentile(echo, 0.5)))
		e99 = append(e99, ms(bench.Percentile(echo, 0.99)))
		// Clear and blind one after the other at each size, so both see
		// the same load; then the same with the host in a process of its
		// own, for its CPU.
		for _, seats := range []int{4, 10} {
			for _, k := range []shoutKey{{seats, false, false}, {seats, true, false}, {seats, false, true}, {seats, true, true}} {
				if shouts[k] == nil {
					shouts[k] = &shoutRuns{}
				}
				if err := shoutRun(ctx, exe, c, k, shouts[k]); err != nil {
					return err
				}
			}
		}
	}
	echo50, echo99 := medianOf(e50), medianOf(e99)
	rep.add(figure{Section: secNetwork, Name: "signed echo round trip (the floor)", Value: echo99, Unit: "ms p99",
		Text:  fmt.Sprintf("p50 %.2f ms, p99 %.2f ms", echo50, echo99),
		Extra: map[string]float64{"p50_ms": echo50, "p99_ms": echo99}, Note: runsNote(c, c.echoes, "echoes", e99)})
	for _, seats := range []int{4, 10} {
		for _, blind := range []bool{false, true} {
			rep.add(shoutFigure(c, seats, blind, shouts[shoutKey{seats, blind, false}], echo99))
		}
		for _, blind := range []bool{false, true} {
			s := shouts[shoutKey{seats, blind, false}]
			if len(s.cpu) == 0 {
				continue
			}
			cpu, name := medianOf(s.cpu), fmt.Sprintf("CPU per shout round, %d seats (all peers)", seats)
			note := "play, shout and reveal delivered to every seat, plus heartbeats; the whole process"
			if blind {
				name = fmt.Sprintf("CPU per shout round, %d seats, blind (all peers)", seats)
				note = "as clear, and the opening, the pile's hand-over, and every node's copy of the host; the whole process"
			}
			rep.add(figure{Section: secNetwork, Name: name, Value: cpu, Unit: "ms", Text: fmt.Sprintf("%.2f ms", cpu), Note: note})
		}
		rep.add(hostCPUFigure(c, seats, shouts[shoutKey{seats, false, true}], shouts[shoutKey{seats, true, true}]))
	}
	return nil
}

// shoutRun measures c.rounds shouts as k says and adds its figures to s.
func shoutRun(ctx context.Context, exe string, c benchConfig, k shoutKey, s *shoutRuns) error {
	var opts []latency.Option
	if k.blind {
		opts = append(opts, latency.Blind())
	}
	var res *latency.ShoutResult
	var err error
	var cpu0, cpu time.Duration
	if k.spawned {
		res, err = latency.ShoutSpawned(ctx, exec.CommandContext(ctx, exe, "bench"), k.seats, c.rounds, opts...)
	} else {
		res, err = latency.Shout(ctx, k.seats, c.rounds, append(opts, latency.WithBracket(func(begin bool) {
			if begin {
				cpu0 = bench.CPUTime()
			} else {
				cpu += bench.CPUTime() - cpu0
			}
		}))...)
	}
	if err != nil {
		what := "shout to verdict at %d seats"
		if k.blind {
			what += ", blind"
		}
		return fmt.Errorf(what+": %w", k.seats, err)
	}
	s.p50 = append(s.p50, ms(bench.Percentile(res.Samples, 0.5)))
	s.p99 = append(s.p99, ms(bench.Percentile(res.Samples, 0.99)))
	s.all99 = append(s.all99, ms(bench.Percentile(res.Last, 0.99)))
	n := float64(len(res.Last) + res.Left) // every shout in the bracket's stretches
	if cpu > 0 {
		s.cpu = append(s.cpu, ms(cpu)/n)
	}
	if res.HostCPU > 0 {
		s.hostCPU = append(s.hostCPU, ms(res.HostCPU)/n)
	}
	return nil
}

// shoutFigure is the line of shout to verdict at seats, clear (issue 5's
// goal: p99 ≤ 2 × the echo's p99) or blind (issue 25's: p99 ≤ 2 × the
// floor of its path, two signed echo round trips).
func shoutFigure(c benchConfig, seats int, blind bool, s *shoutRuns, echo99 float64) figure {
	p50, p99, all99 := medianOf(s.p50), medianOf(s.p99), medianOf(s.all99)
	f := figure{Section: secNetwork, Name: fmt.Sprintf("shout to verdict, %d seats (each player)", seats), Value: p99, Unit: "ms p99",
		Text:  fmt.Sprintf("p50 %.2f ms, p99 %.2f ms; the whole table p99 %.2f ms", p50, p99, all99),
		Extra: map[string]float64{"p50_ms": p50, "p99_ms": p99, "all_p99_ms": all99},
		Goal:  fmt.Sprintf("p99 ≤ 2 × echo p99 = %.2f ms", 2*echo99), Met: goal(p99 <= 2*echo99),
		Note: runsNote(c, c.rounds, "shouts", s.p99)}
	if blind {
		floor := 2 * echo99
		f.Name = fmt.Sprintf("shout to verdict, %d seats, blind (each player)", seats)
		f.Text += fmt.Sprintf("; %.1f × the floor", p99/floor)
		f.Extra["floor_p99_ms"], f.Extra["x_floor"] = floor, p99/floor
		f.Goal, f.Met = fmt.Sprintf("p99 ≤ 2 × two echo round trips = %.2f ms", 2*floor), goal(p99 <= 2*floor)
		f.Note += "; the call's cards opened by the played seat's node, every player node a party"
	}
	return f
}

// hostCPUFigure is the line of the host's own CPU per call round at
// seats, clear and blind, from the runs with the table hosted in a process
// of its own (whose shout to verdict is in Extra too).
func hostCPUFigure(c benchConfig, seats int, clear, blind *shoutRuns) figure {
	name := fmt.Sprintf("host CPU per call round, %d seats", seats)
	if len(clear.hostCPU) == 0 || len(blind.hostCPU) == 0 {
		return figure{Section: secNetwork, Name: name, Note: "not measured: the hosting process said no CPU time"}
	}
	cl, bl := medianOf(clear.hostCPU), medianOf(blind.hostCPU)
	return figure{Section: secNetwork, Name: name, Value: bl, Unit: "ms",
		Text: fmt.Sprintf("clear %.2f ms, blind %.2f ms (%.1f ×)", cl, bl, bl/cl),
		Extra: map[string]float64{"clear_ms": cl, "blind_ms": bl,
			"clear_p99_ms": medianOf(clear.p99), "blind_p99_ms": medianOf(blind.p99)},
		Note: fmt.Sprintf("the host's process alone: play, shout, verdict and hand-over, plus heartbeats, no deal; median of %d runs of %d shouts, by run clear %s, blind %s ms; shout p99 there clear %.2f ms, blind %.2f ms",
			len(blind.hostCPU), c.rounds, byRun(clear.hostCPU), byRun(blind.hostCPU), medianOf(clear.p99), medianOf(blind.p99))}
}

// byRun is a figure of each run: "1.20, 1.31, 1.25".
func byRun(xs []float64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprintf("%.2f", x)
	}
	return strings.Join(parts, ", ")
}

func runsNote(c benchConfig, n int, what string, p99s []float64) string {
	if c.runs == 1 {
		return fmt.Sprintf("1 run of %d %s", n, what)
	}
	return fmt.Sprintf("median of %d runs of %d %s; p99 by run %s ms", c.runs, n, what, byRun(p99s))
}

// Memory: this very binary hosting a 10-seat table of bots, its RSS read
// from /proc while the game is on.

func benchMemory(ctx context.Context, rep *benchReport, c benchConfig) {
	name := "host RSS, 10-seat table mid-game"
	rss, peak, plays, err := hostRSS(ctx, c.rssFor)
	if err != nil {
		rep.add(figure{Section: secNetwork, Name: name, Note: "not measured: " + err.Error()})
		return
	}
	mb := float64(rss) / 1024
	rep.add(figure{Section: secNetwork, Name: name, Value: mb, Unit: "MB",
		Text:  fmt.Sprintf("%.1f MB (VmHWM %.1f MB)", mb, float64(peak)/1024),
		Extra: map[string]float64{"vmhwm_mb": float64(peak) / 1024, "plays": float64(plays)},
		Goal:  "≤ 60 MB", Met: goal(mb <= 60),
		Note: fmt.Sprintf("the largest VmRSS of `bullshit host --headless` sampled every 100 ms over %d plays", plays)})
}

// hostRSS runs `bullshit host --headless` at a 10-seat table of bots on
// loopback and samples its VmRSS while the game is on, for up to watch. It
// returns the largest sample and VmHWM (in kB) and the plays seen.
func hostRSS(ctx context.Context, watch time.Duration) (rss, hwm, plays int, err error) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		return 0, 0, 0, errors.New("no /proc on this system")
	}
	exe, err := os.Executable()
	if err != nil {
		return 0, 0, 0, err
	}
	dir, err := os.MkdirTemp("", "bullshit-bench-")
	if err != nil {
		return 0, 0, 0, err
	}
	defer os.RemoveAll(dir)
	ctx, cancel := context.WithTimeout(ctx, watch+30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "host", "--headless", "--listen", "/ip4/127.0.0.1/tcp/0", "--no-mdns",
		"--seats", "10", "--bots", "9", "--pace", "fast", "--rules", "window=1", "--json", "--config", dir, "--nick", "bench")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, 0, 0, err
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return 0, 0, 0, err
	}
	defer stopProcess(cmd, syscall.SIGTERM)
	lines := make(chan string, 256)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), 4<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	status := fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	var until <-chan time.Time
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				if plays == 0 {
					return 0, 0, 0, fmt.Errorf("the host ended before a play: %s", strings.TrimSpace(stderr.String()))
				}
				return rss, hwm, plays, nil
			}
			switch {
			case strings.Contains(l, `"type":"play"`):
				plays++
				if until == nil {
					until = time.After(watch)
				}
			case strings.Contains(l, `"type":"result"`):
				return rss, hwm, plays, nil
			}
		case <-tick.C:
			if plays == 0 {
				continue
			}
			r, h, err := procStatus(status)
			if err != nil {
				return rss, hwm, plays, err
			}
			rss, hwm = max(rss, r), max(hwm, h)
		case <-until:
			return rss, hwm, plays, nil
		case <-ctx.Done():
			return 0, 0, 0, fmt.Errorf("the host did not start a game: %v %s", ctx.Err(), strings.TrimSpace(stderr.String()))
		}
	}
}

// procStatus reads VmRSS and VmHWM (kB) from a /proc/PID/status file.
func procStatus(path string) (rss, hwm int, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, 0, err
	}
	for _, l := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
		switch k {
		case "VmRSS":
			rss = n
		case "VmHWM":
			hwm = n
		}
	}
	return rss, hwm, nil
}

// LAN: real processes of this binary in network namespaces made by
// node/netns, so mDNS never runs in the machine's own namespace.

func benchNetns(ctx context.Context, rep *benchReport, c benchConfig) {
	disc, fail := "discovery (mDNS, table opened → player seated)", "failover (host killed → next accepted move)"
	nsLAN, err := newNetnsLAN()
	if err != nil {
		rep.add(figure{Section: secLAN, Name: disc, Note: "not measured: " + err.Error()})
		rep.add(figure{Section: secLAN, Name: fail, Note: "not measured: " + err.Error()})
		return
	}
	defer nsLAN.down()
	found, err := nsLAN.discovery(ctx, c.nsTries)
	if err != nil {
		rep.add(figure{Section: secLAN, Name: disc, Note: "not measured: " + err.Error()})
	} else {
		p50, worst := bench.Percentile(found, 0.5), bench.Percentile(found, 1)
		rep.add(figure{Section: secLAN, Name: disc, Value: ms(p50), Unit: "ms median",
			Text:  fmt.Sprintf("median %.0f ms, worst %.0f ms over %d tables", ms(p50), ms(worst), len(found)),
			Extra: map[string]float64{"median_ms": ms(p50), "worst_ms": ms(worst)},
			Goal:  "≤ 2 s", Met: goal(worst <= 2*time.Second),
			Note: fmt.Sprintf("browser polls every %v", nodelan.DefaultPoll)})
	}
	// Longer than the grace period (30 s) after which a bot covers a
	// person's seat: the dead host's seat may be next to play.
	const patience = 40 * time.Second
	var hosts, moves []time.Duration
	var stuck []string
	for i := 0; i < c.foTries; i++ {
		h, m, err := nsLAN.failover(ctx, i, patience)
		if h > 0 {
			hosts = append(hosts, h)
		}
		if err != nil {
			stuck = append(stuck, err.Error())
			continue
		}
		moves = append(moves, m)
	}
	note := fmt.Sprintf("3 seats in 3 namespaces, the host SIGKILLed at a random moment mid-game, %d tries", c.foTries)
	if len(stuck) > 0 {
		note += "; not resumed: " + strings.Join(stuck, "; ")
	}
	if len(hosts) > 0 {
		p50, worst := bench.Percentile(hosts, 0.5), bench.Percentile(hosts, 1)
		rep.add(figure{Section: secLAN, Name: "failover (host killed → a new host announced)", Value: ms(p50), Unit: "ms median",
			Text:  fmt.Sprintf("median %.0f ms, worst %.0f ms over %d kills", ms(p50), ms(worst), len(hosts)),
			Extra: map[string]float64{"median_ms": ms(p50), "worst_ms": ms(worst)}})
	}
	if len(moves) == 0 {
		rep.add(figure{Section: secLAN, Name: fail, Note: "not measured: " + strings.Join(stuck, "; ")})
		return
	}
	p50, worst := bench.Percentile(moves, 0.5), bench.Percentile(moves, 1)
	rep.add(figure{Section: secLAN, Name: fail, Value: ms(p50), Unit: "ms median",
		Text:  fmt.Sprintf("median %.0f ms, worst %.0f ms over %d kills", ms(p50), ms(worst), len(moves)),
		Extra: map[string]float64{"median_ms": ms(p50), "worst_ms": ms(worst), "tries": float64(c.foTries), "resumed": float64(len(moves))},
		Note:  note})
}

type netnsLAN struct {
	net      *netns.LAN
	exe, dir string
}

// newNetnsLAN makes three namespaces on a pretend LAN.
func newNetnsLAN() (*netnsLAN, error) {
	if err := netns.Usable(); err != nil {
		return nil, err
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "bullshit-bench-ns-")
	if err != nil {
		return nil, err
	}
	net, err := netns.Up(3, netns.NewPrefix("b"))
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return &netnsLAN{net: net, exe: exe, dir: dir}, nil
}

func (l *netnsLAN) down() {
	l.net.Down()
	os.RemoveAll(l.dir)
}

// nsProc is this binary running in namespace ns, its stdout lines timed as
// they arrive.
type nsProc struct {
	cmd   *exec.Cmd
	lines chan nsLine
	once  sync.Once

	mu    sync.Mutex
	moves map[string]bool // every move printed so far, by moveKey
}

type nsLine struct {
	at   time.Time
	text string
}

func (l *netnsLAN) start(ns int, args ...string) (*nsProc, error) {
	profile := filepath.Join(l.dir, fmt.Sprintf("p%d-%d", ns, time.Now().UnixNano()))
	args = append(args, "--config", profile)
	cmd := l.net.Command(ns, l.exe, args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &nsProc{cmd: cmd, lines: make(chan nsLine, 1024), moves: map[string]bool{}}
	go func() {
		defer close(p.lines)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), 4<<20)
		for sc.Scan() {
			l := nsLine{time.Now(), sc.Text()}
			if k := moveKey(l.text); k != "" {
				p.mu.Lock()
				p.moves[k] = true
				p.mu.Unlock()
			}
			select {
			case p.lines <- l:
			default: // nobody reads: a line lost is a line nobody waits for
			}
		}
	}()
	return p, nil
}

// stop kills the process (ip netns exec execs in place, so the
// PID is the game's) and reaps it.
func (p *nsProc) stop(sig syscall.Signal) {
	p.once.Do(func() { stopProcess(p.cmd, sig) })
}

// stopProcess sends a started process sig and reaps it, killing it if it is
// still there after 3 s.
func stopProcess(cmd *exec.Cmd, sig syscall.Signal) {
	cmd.Process.Signal(sig)
	netns.Reap(cmd, 3*time.Second)
}

// await returns the first line containing want, or an error at the deadline.
func (p *nsProc) await(ctx context.Context, want string, d time.Duration) (nsLine, error) {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				return nsLine{}, fmt.Errorf("the process ended before printing %s", want)
			}
			if strings.Contains(l.text, want) {
				return l, nil
			}
		case <-t.C:
			return nsLine{}, fmt.Errorf("no %s within %v", want, d)
		case <-ctx.Done():
			return nsLine{}, ctx.Err()
		}
	}
}

// discovery: a player browsing in namespace 2, a table opened in namespace
// 1 at a random point of the browser's poll; the time from the host's
// "table" line (printed once it advertises) to the player's "seated" line.
func (l *netnsLAN) discovery(ctx context.Context, tries int) ([]time.Duration, error) {
	var found []time.Duration
	for i := 0; i < tries; i++ {
		name := fmt.Sprintf("bench-%d", i)
		join, err := l.start(2, "join", "--headless", "--json", "--iface", "lan0", "--table", name, "--wait", "20s", "--pace", "fast")
		if err != nil {
			return found, err
		}
		time.Sleep(500*time.Millisecond + mrand.N(nodelan.DefaultPoll))
		host, err := l.start(1, "host", "--headless", "--json", "--iface", "lan0", "--name", name, "--seats", "2", "--bots", "0",
			"--players", "1", "--pace", "fast", "--wait", "20s")
		if err != nil {
			join.stop(syscall.SIGKILL)
			return found, err
		}
		opened, err := host.await(ctx, `"type":"table"`, 10*time.Second)
		var seated nsLine
		if err == nil {
			seated, err = join.await(ctx, `"type":"seated"`, 10*time.Second)
		}
		join.stop(syscall.SIGTERM)
		host.stop(syscall.SIGTERM)
		if err != nil {
			return found, fmt.Errorf("table %d: %w", i, err)
		}
		found = append(found, seated.at.Sub(opened.at))
	}
	return found, nil
}

// failover: a host in namespace 1 and two players in 2 and 3 mid-game; the
// host is killed. newHost is the time until a player hears who hosts now;
// move, until the next move any player sees (a play, a let-go, a call…)
// after it heard it.
func (l *netnsLAN) failover(ctx context.Context, try int, patience time.Duration) (newHost, move time.Duration, err error) {
	host, players, err := l.midGame(ctx, fmt.Sprintf("bench-failover-%d", try))
	if err != nil {
		return 0, 0, err
	}
	defer func() {
		for _, p := range players {
			p.stop(syscall.SIGKILL)
		}
	}()
	time.Sleep(mrand.N(500 * time.Millisecond))
	killed := time.Now()
	host.stop(syscall.SIGKILL)
	hosting, moved := watchFailover(ctx, players, patience)
	deadline := time.After(patience)
	for {
		select {
		case at := <-hosting:
			if newHost == 0 {
				newHost = at.Sub(killed)
			}
		case at := <-moved:
			select {
			case h := <-hosting:
				if newHost == 0 {
					newHost = h.Sub(killed)
				}
			default:
			}
			return newHost, at.Sub(killed), nil
		case <-deadline:
			return newHost, 0, fmt.Errorf("no new move within %v of the host's death", patience)
		case <-ctx.Done():
			return newHost, 0, ctx.Err()
		}
	}
}

// midGame starts a table named name, its host in namespace 1 and a player
// in each of 2 and 3, and waits for a few plays the first player sees.
// On an error it has stopped them all.
func (l *netnsLAN) midGame(ctx context.Context, name string) (host *nsProc, players []*nsProc, err error) {
	defer func() {
		if err != nil {
			for _, p := range append(players, host) {
				if p != nil {
					p.stop(syscall.SIGKILL)
				}
			}
		}
	}()
	host, err = l.start(1, "host", "--headless", "--json", "--iface", "lan0", "--name", name, "--seats", "3", "--bots", "0",
		"--players", "2", "--pace", "fast", "--rules", "window=1", "--reveal", "200ms", "--wait", "20s")
	if err != nil {
		return nil, nil, err
	}
	for ns := 2; ns <= 3; ns++ {
		p, err := l.start(ns, "join", "--headless", "--json", "--iface", "lan0", "--table", name, "--wait", "20s", "--pace", "fast")
		if err != nil {
			return host, players, err
		}
		players = append(players, p)
	}
	for i := 0; i < 5; i++ {
		if _, err := players[0].await(ctx, `"type":"play"`, 20*time.Second); err != nil {
			return host, players, fmt.Errorf("the game did not start: %w", err)
		}
	}
	return host, players, nil
}

// watchFailover follows players after their host's death until patience
// runs out: hosting gets the moment each hears of a new host, moved the
// moment each then sees its first new move.
func watchFailover(ctx context.Context, players []*nsProc, patience time.Duration) (hosting, moved <-chan time.Time) {
	// Moves printed before the death are no failover, even when a new host
	// replays them to its own seat as it rebuilds the table.
	before := map[string]bool{}
	for _, p := range players {
		p.mu.Lock()
		for k := range p.moves {
			before[k] = true
		}
		p.mu.Unlock()
	}
	hostingC := make(chan time.Time, len(players))
	movedC := make(chan time.Time, len(players))
	for _, p := range players {
		go func() {
			told := false
			for {
				l, err := p.await(ctx, `"type":`, patience)
				if err != nil {
					return
				}
				// The notice a new host sends ("… is now hosting", "you are hosting now").
				if !told && strings.Contains(l.text, `"type":"notice"`) && strings.Contains(l.text, "hosting") {
					told = true
					hostingC <- l.at
				}
				// A move counts once this player knows the new host: one
				// the old host sent before it died may still be on its way.
				if k := moveKey(l.text); told && k != "" && !before[k] {
					movedC <- l.at
					return
				}
			}
		}()
	}
	return hostingC, movedC
}

// moveKey names a seat's move in a `--json` event line ("" for any other
// line): its type, seat and play number.
func moveKey(line string) string {
	var e struct {
		Type string
		Seat int
		No   int
	}
	if json.Unmarshal([]byte(line), &e) != nil {
		return ""
	}
	switch e.Type {
	case "play", "pass", "call", "give", "quads", "doubt", "believe", "skip":
		return fmt.Sprintf("%s/%d/%d", e.Type, e.Seat, e.No)
	}
	return ""
}
