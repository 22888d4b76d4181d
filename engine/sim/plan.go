package sim

import "github.com/bullshit-game/bullshit/engine"

// Plan is a run of games, each a function of its number, so a run splits
// over any number of workers and gives the same totals.
type Plan struct {
	Rules engine.Rules
	Seats int
	// Bots sit round the table, the list turned one seat further each game
	// so every bot plays every seat; a shorter list repeats.
	Bots []string
	// Pair, when set, plays bot Pair[0] against Pair[1] instead: half the
	// games one of the first against the rest of the second, half the other
	// way round, the odd one out moving round the seats; scored head to
	// head (Report.PairScore).
	Pair [2]string
	Seed uint64
	Make Maker
}

// Game is game i of the run.
func (p *Plan) Game(i int) Config {
	n := p.Seats
	bots := make([]string, n)
	if p.Pair[0] != "" {
		one, rest := p.Pair[0], p.Pair[1]
		if i%2 == 1 {
			one, rest = rest, one
		}
		odd := (i / 2) % n
		for s := range bots {
			bots[s] = rest
		}
		bots[odd] = one
	} else {
		for s := range bots {
			bots[s] = p.Bots[(s+i)%len(p.Bots)]
		}
	}
	seed := Mix(p.Seed, uint64(i))
	if p.Pair[0] != "" {
		// Every arrangement of a pairing plays the same deal: luck of the
		// cards cancels out of the comparison.
		seed = Mix(p.Seed, uint64(i/(2*n)))
	}
	return Config{Rules: p.Rules, Seats: n, Bots: bots, Seed: seed, Make: p.Make}
}

// Report is an empty report for the plan's games.
func (p *Plan) Report() *Report {
	r := NewReport()
	r.Pair = p.Pair
	return r
}

// Run plays games from..to-1 of the plan on one Runner into rep.
func (p *Plan) Run(r *Runner, rep *Report, from, to int) error {
	for i := from; i < to; i++ {
		res, err := r.Play(p.Game(i))
		if err != nil {
			return err
		}
		rep.Add(&res)
	}
	return nil
}
