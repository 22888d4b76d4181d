package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/bot"
	"github.com/bullshit-game/bullshit/engine/sim"
	"github.com/bullshit-game/bullshit/node/extbot"
)

// simConfig is what `bullshit sim` was asked for.
type simConfig struct {
	games  int
	seats  int
	preset string
	rules  []string
	bots   string
	styles string
	level  string
	pair   string
	ladder bool
	sweep  bool
	seed   uint64
	json   bool
	cpu    int
}

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, " ") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

func runSim(args []string) error {
	var c simConfig
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	fs.IntVar(&c.games, "games", 1000, "games to play (per cell or pairing with --sweep and --ladder)")
	fs.IntVar(&c.seats, "seats", 0, "seats at the table (default 4; 3 for --pair and --ladder, 4 for --sweep)")
	fs.StringVar(&c.preset, "preset", "standard", "rules preset: "+strings.Join(engine.Presets, ", "))
	var rules listFlag
	fs.Var(&rules, "rules", "a rule as key=value (REFEREE.md keys; repeatable)")
	fs.StringVar(&c.bots, "bots", "medium", "bots round the table, comma-separated: "+strings.Join(bot.Names, ", ")+", LEVEL/STYLE or exec:PATH")
	fs.StringVar(&c.styles, "styles", "", "styles round the table at --level, comma-separated (instead of --bots)")
	fs.StringVar(&c.level, "level", "medium", "the level for --styles")
	fs.StringVar(&c.pair, "pair", "", "A,B: bot A against bot B head to head (half the games 1 A vs the rest B, half the other way)")
	fs.BoolVar(&c.ladder, "ladder", false, "every level against every other, head to head")
	fs.BoolVar(&c.sweep, "sweep", false, "the sneak limit 0-3 against readers of each level (V14)")
	fs.Uint64Var(&c.seed, "seed", 1, "seed of the run")
	fs.BoolVar(&c.json, "json", false, "print the report as JSON")
	fs.IntVar(&c.cpu, "cpu", runtime.NumCPU(), "games played at once")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: bullshit sim [flags]\n\nPlays bot-only games without clocks and reports how long they last and how the bots fare.\n\n")
		fs.PrintDefaults()
	}
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	c.rules = rules
	if c.games < 1 {
		return errors.New("sim: --games must be at least 1")
	}
	c.cpu = max(c.cpu, 1)
	r, err := simRules(c.preset, c.rules)
	if err != nil {
		return err
	}
	extbot.Stderr = os.Stderr
	if os.Getenv("GOGC") == "" {
		// Games are small and short-lived: collect less often.
		debug.SetGCPercent(400)
	}
	switch {
	case c.sweep:
		return simSweep(c, r)
	case c.ladder:
		return simLadder(c, r)
	}
	plan, err := simPlan(c, r)
	if err != nil {
		return err
	}
	if err := checkPlan(&plan); err != nil {
		return err
	}
	rep, took, err := simRun(&plan, c.games, c.cpu, "")
	if err != nil {
		return err
	}
	if c.json {
		return writeJSON(os.Stdout, struct {
			sim.Summary
			Seconds     float64 `json:"seconds"`
			GamesPerSec float64 `json:"games_per_second"`
		}{rep.Summary(), took.Seconds(), float64(c.games) / took.Seconds()})
	}
	fmt.Printf("%s, %d seats, bots %s\n", r.Preset, plan.Seats, strings.Join(planBots(&plan), ","))
	rep.Print(os.Stdout)
	fmt.Printf("\n%d games in %.1f s on %d cores: %.0f games/s\n", c.games, took.Seconds(), c.cpu, float64(c.games)/took.Seconds())
	return nil
}

// simPlan is the plain run's plan: --pair head to head, or the --bots
// (or --styles) round the table.
func simPlan(c simConfig, r engine.Rules) (sim.Plan, error) {
	plan := sim.Plan{Rules: r, Seats: c.seats, Seed: c.seed, Make: extbot.Resolve}
	if c.pair != "" {
		a, b, ok := strings.Cut(c.pair, ",")
		if !ok || a == "" || b == "" {
			return plan, errors.New("sim: --pair takes two bots, as --pair hard,medium")
		}
		plan.Pair = [2]string{a, b}
		if plan.Seats == 0 {
			plan.Seats = 3
		}
	} else {
		plan.Bots = strings.Split(c.bots, ",")
		if c.styles != "" {
			plan.Bots = nil
			for _, s := range strings.Split(c.styles, ",") {
				plan.Bots = append(plan.Bots, c.level+"/"+s)
			}
		}
		if plan.Seats == 0 {
			plan.Seats = 4
		}
	}
	return plan, nil
}

func planBots(p *sim.Plan) []string {
	if p.Pair[0] != "" {
		return p.Pair[:]
	}
	return p.Bots
}

// checkPlan makes sure every bot name and the rules can be played before
// the run starts.
func checkPlan(p *sim.Plan) error {
	if err := p.Rules.Check(p.Seats); err != nil {
		return fmt.Errorf("sim: %w", err)
	}
	p.Make = nil // built-in bots are reset between games, not made anew
	for _, name := range planBots(p) {
		if strings.HasPrefix(name, "exec:") {
			p.Make = extbot.Resolve
			continue
		}
		if _, err := bot.New(name, 0, 0); err != nil {
			return fmt.Errorf("sim: %w", err)
		}
	}
	return nil
}

func simRules(preset string, kv []string) (engine.Rules, error) {
	r, err := parseRules(preset, kv)
	if err != nil {
		return r, fmt.Errorf("sim: %w", err)
	}
	return r, nil
}

// simRun plays games 0…games-1 of the plan on cpu goroutines, each with
// its own Runner and Report, and merges them; a progress bar (or plain
// lines when standard error isn't a terminal) shows how far it has got.
func simRun(p *sim.Plan, games, cpu int, label string) (*sim.Report, time.Duration, error) {
	const chunk = 64
	var next, done atomic.Int64
	var wg sync.WaitGroup
	reps := make([]*sim.Report, cpu)
	errs := make([]error, cpu)
	start := time.Now()
	stop := make(chan struct{})
	prog := newProgress(os.Stderr, games, label)
	go func() {
		t := time.NewTicker(prog.every)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				prog.show(int(done.Load()))
			}
		}
	}()
	for w := range cpu {
		reps[w] = p.Report()
		wg.Add(1)
		go func() {
			defer wg.Done()
			var r sim.Runner
			for {
				from := int(next.Add(chunk)) - chunk
				if from >= games {
					return
				}
				to := min(from+chunk, games)
				for i := from; i < to; i++ {
					if err := p.Run(&r, reps[w], i, i+1); err != nil {
						errs[w] = fmt.Errorf("sim: game %d: %w", i, err)
						next.Store(int64(games))
						return
					}
					done.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	took := time.Since(start)
	prog.end(games, took)
	if err := errors.Join(errs...); err != nil {
		return nil, took, err
	}
	rep := reps[0]
	for _, o := range reps[1:] {
		rep.Merge(o)
	}
	return rep, took, nil
}

// progress draws a bar on a terminal, or a line every few seconds in a log.
type progress struct {
	w     io.Writer
	tty   bool
	games int
	label string
	every time.Duration
	start time.Time
}

func newProgress(w *os.File, games int, label string) *progress {
	p := &progress{w: w, games: games, label: label, every: 5 * time.Second, start: time.Now()}
	if fi, err := w.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
		p.tty, p.every = true, 150*time.Millisecond
	}
	return p
}

func (p *progress) show(done int) {
	frac := float64(done) / float64(p.games)
	rate := float64(done) / max(time.Since(p.start).Seconds(), 1e-9)
	if !p.tty {
		fmt.Fprintf(p.w, "sim: %s%d of %d games (%.0f %%), %.0f games/s\n", p.label, done, p.games, 100*frac, rate)
		return
	}
	const width = 30
	fill := int(frac * width)
	fmt.Fprintf(p.w, "\r%s[%s%s] %3.0f%%  %d/%d  %.0f games/s ", p.label, strings.Repeat("█", fill), strings.Repeat("·", width-fill), 100*frac, done, p.games, rate)
}

func (p *progress) end(games int, took time.Duration) {
	if p.tty {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", 78))
	} else if took >= p.every {
		fmt.Fprintf(p.w, "sim: %s%d games in %.1f s\n", p.label, games, took.Seconds())
	}
}

func writeJSON(w io.Writer, v any) error {
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	return e.Encode(v)
}

// simLadder plays every level against every other head to head.
func simLadder(c simConfig, r engine.Rules) error {
	pairs := [][2]string{{"medium", "easy"}, {"hard", "medium"}, {"hard", "easy"}}
	seats := c.seats
	if seats == 0 {
		seats = 3
	}
	type row struct {
		Pair  string  `json:"pair"`
		Games int     `json:"games"`
		Score float64 `json:"score"`
		Lo    float64 `json:"lo"`
		Hi    float64 `json:"hi"`
		Secs  float64 `json:"seconds"`
	}
	var rows []row
	for i, pr := range pairs {
		p := sim.Plan{Rules: r, Seats: seats, Pair: pr, Seed: c.seed + uint64(i)*1_000_003, Make: extbot.Resolve}
		if err := checkPlan(&p); err != nil {
			return err
		}
		rep, took, err := simRun(&p, c.games, c.cpu, pr[0]+" vs "+pr[1]+" ")
		if err != nil {
			return err
		}
		m, lo, hi := rep.PairScore()
		rows = append(rows, row{pr[0] + " vs " + pr[1], rep.PairN, m, lo, hi, took.Seconds()})
	}
	if c.json {
		return writeJSON(os.Stdout, rows)
	}
	fmt.Printf("%s, %d seats, head to head (half the games 1 vs %d, half %d vs 1; same deals)\n\n", r.Preset, seats, seats-1, seats-1)
	fmt.Printf("%-18s %7s %8s %17s\n", "pairing", "games", "score", "95 % interval")
	for _, x := range rows {
		fmt.Printf("%-18s %7d %7.1f%% %8.1f–%.1f %%\n", x.Pair, x.Games, 100*x.Score, 100*x.Lo, 100*x.Hi)
	}
	return nil
}

// simSweep is seed 002's sweep: for each sneak limit, one sneaker (careful,
// and one that always sneaks) among honest readers, casual (medium) and
// sharp (hard), its wins as a share of a fair share. The penalty for a
// caught sneak is the engine's fixed one card.
func simSweep(c simConfig, base engine.Rules) error {
	seats := c.seats
	if seats == 0 {
		seats = 4
	}
	type cell struct {
		Sneak   int     `json:"sneak"`
		Readers string  `json:"readers"`
		Sneaker string  `json:"sneaker"`
		Share   float64 `json:"share"`
		Lo      float64 `json:"lo"`
		Hi      float64 `json:"hi"`
		Sneaks  int     `json:"sneaks"`
		Caught  int     `json:"caught"`
		Median  int     `json:"plays_median"`
	}
	var cells []cell
	for s := 0; s <= 3; s++ {
		r := base
		if base.Preset == "standard" {
			r, _ = engine.Preset("twist")
		}
		r.Sneak = s
		for _, lv := range []string{"medium", "hard"} {
			for _, st := range []string{"careful", "always"} {
				sneaker := lv + "/" + st
				p := sim.Plan{Rules: r, Seats: seats, Bots: []string{sneaker}, Seed: c.seed + uint64(s), Make: extbot.Resolve}
				for range seats - 1 {
					p.Bots = append(p.Bots, lv+"/honest")
				}
				if err := checkPlan(&p); err != nil {
					return err
				}
				rep, _, err := simRun(&p, c.games, c.cpu, fmt.Sprintf("sneak %d %s ", s, sneaker))
				if err != nil {
					return err
				}
				t := rep.Bots[sneaker]
				x := cell{Sneak: s, Readers: lv, Sneaker: st, Median: rep.Quantile(0.5)}
				for _, tl := range rep.Tallies() {
					if tl.Bot == sneaker {
						x.Share, x.Lo, x.Hi = tl.Share, tl.Lo, tl.Hi
					}
				}
				x.Sneaks, x.Caught = t.Sneaks, t.Caught
				cells = append(cells, x)
			}
		}
	}
	if c.json {
		return writeJSON(os.Stdout, cells)
	}
	fmt.Printf("twist sweep, %d seats, %d games a cell: one sneaker among honest readers, its wins as a share of a fair share\n", seats, c.games)
	fmt.Printf("(the penalty is the engine's fixed one card of the caller's choosing; sweeping it needs an engine option)\n\n")
	fmt.Printf("%-6s %-8s %-8s %6s %15s %8s %8s %7s\n", "sneak", "readers", "sneaker", "share", "95 % interval", "sneaks", "caught", "plays")
	for _, x := range cells {
		fmt.Printf("%-6d %-8s %-8s %6.2f %7.2f–%-7.2f %8d %8d %7d\n", x.Sneak, x.Readers, x.Sneaker, x.Share, x.Lo, x.Hi, x.Sneaks, x.Caught, x.Median)
	}
	return nil
}
