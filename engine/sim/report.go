package sim

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/bullshit-game/bullshit/engine"
)

// SecondsPerPlay is what a play is reckoned to take at a real table.
const SecondsPerPlay = 7

// Tally is one bot name's totals over a run.
type Tally struct {
	Bot     string  `json:"bot"`
	Seats   int     `json:"seats"` // seat-games played
	Wins    int     `json:"wins"`
	Fair    float64 `json:"fair"`  // the wins a fair share would give: sum of 1/seats
	Share   float64 `json:"share"` // wins / fair
	Lo      float64 `json:"lo"`    // 95 % interval of the share
	Hi      float64 `json:"hi"`
	Calls   int     `json:"calls"`
	Right   int     `json:"right"`
	Lies    int     `json:"lies"` // lies of its caught
	Sneaks  int     `json:"sneaks"`
	Caught  int     `json:"caught"` // sneaks of its caught
	Pickups int     `json:"pickups"`
	Refused int     `json:"refused"`
	Left    int     `json:"left"` // cards left at the end, summed
}

// Report is a run's totals. Reports of parts of a run merge in any order.
type Report struct {
	Games  int               `json:"games"`
	Plays  int               `json:"plays"` // summed
	Net    int               `json:"net"`   // games ended by the 500-play net
	First3 int               `json:"first3"`
	Lost3  int               `json:"first3_lost"` // of which the first down to 3 didn't win
	Hist   []int             `json:"-"`           // games by plays
	Bots   map[string]*Tally `json:"-"`
	// Head-to-head (a pairing): the mean score of the first bot's seats
	// against the second's by finishing order (1 ahead, ½ tied, 0 behind).
	Pair   [2]string `json:"pair,omitempty"`
	PairN  int       `json:"pair_games,omitempty"`
	PairS  float64   `json:"-"`
	PairSS float64   `json:"-"`
}

// NewReport is an empty report.
func NewReport() *Report {
	return &Report{Hist: make([]int, engine.MaxPlays+1), Bots: map[string]*Tally{}}
}

// Add counts one game.
func (r *Report) Add(res *Result) {
	r.Games++
	r.Plays += res.Plays
	r.Hist[min(res.Plays, engine.MaxPlays)]++
	if res.Net {
		r.Net++
	}
	if res.First3 >= 0 {
		r.First3++
		if res.Winner != res.First3 {
			r.Lost3++
		}
	}
	n := float64(len(res.Seats))
	for s, st := range res.Seats {
		one := Tally{Seats: 1, Fair: 1 / n,
			Calls: st.Calls, Right: st.Right, Lies: st.Lies, Sneaks: st.Sneaks, Caught: st.Caught,
			Pickups: st.Pickups, Refused: st.Refused, Left: st.Left}
		if res.Winner == s {
			one.Wins = 1
		}
		r.tally(st.Bot).add(&one)
	}
	if r.Pair[0] != "" {
		if sc, ok := HeadToHead(res, r.Pair[0], r.Pair[1]); ok {
			r.PairN++
			r.PairS += sc
			r.PairSS += sc * sc
		}
	}
}

// HeadToHead scores bot a against bot b in one game: over every pair of a
// seat of a and a seat of b, 1 when a finished ahead, ½ when level, 0
// behind; the mean of those. ok is false when one of them wasn't playing.
func HeadToHead(res *Result, a, b string) (float64, bool) {
	var sum float64
	n := 0
	for _, x := range res.Seats {
		if x.Bot != a {
			continue
		}
		for _, y := range res.Seats {
			if y.Bot != b {
				continue
			}
			n++
			switch {
			case x.Place < y.Place:
				sum++
			case x.Place == y.Place:
				sum += 0.5
			}
		}
	}
	if n == 0 {
		return 0, false
	}
	return sum / float64(n), true
}

// tally is bot's totals, new if the report has none yet.
func (r *Report) tally(bot string) *Tally {
	t := r.Bots[bot]
	if t == nil {
		t = &Tally{Bot: bot}
		r.Bots[bot] = t
	}
	return t
}

// add adds o's counts to t's (not the share and its interval: Tallies
// works those out from the counts).
func (t *Tally) add(o *Tally) {
	t.Seats += o.Seats
	t.Wins += o.Wins
	t.Fair += o.Fair
	t.Calls += o.Calls
	t.Right += o.Right
	t.Lies += o.Lies
	t.Sneaks += o.Sneaks
	t.Caught += o.Caught
	t.Pickups += o.Pickups
	t.Refused += o.Refused
	t.Left += o.Left
}

// Merge adds another report's totals.
func (r *Report) Merge(o *Report) {
	r.Games += o.Games
	r.Plays += o.Plays
	r.Net += o.Net
	r.First3 += o.First3
	r.Lost3 += o.Lost3
	for i, h := range o.Hist {
		r.Hist[i] += h
	}
	for k, t := range o.Bots {
		r.tally(k).add(t)
	}
	if o.Pair[0] != "" {
		r.Pair = o.Pair
	}
	r.PairN += o.PairN
	r.PairS += o.PairS
	r.PairSS += o.PairSS
}

// Quantile is the play count below which a fraction q of games ended.
func (r *Report) Quantile(q float64) int {
	want := int(math.Ceil(q * float64(r.Games)))
	seen := 0
	for i, h := range r.Hist {
		seen += h
		if seen >= max(want, 1) {
			return i
		}
	}
	return engine.MaxPlays
}

// Tallies are the bots' totals with their shares worked out, best first.
func (r *Report) Tallies() []Tally {
	out := make([]Tally, 0, len(r.Bots))
	for _, t := range r.Bots {
		x := *t
		if x.Fair > 0 && x.Seats > 0 {
			rate := float64(x.Wins) / float64(x.Seats)
			fairRate := x.Fair / float64(x.Seats)
			lo, hi := wilson(x.Wins, x.Seats)
			x.Share, x.Lo, x.Hi = rate/fairRate, lo/fairRate, hi/fairRate
		}
		out = append(out, x)
	}
	slices.SortFunc(out, func(a, b Tally) int {
		if a.Share != b.Share {
			if a.Share > b.Share {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Bot, b.Bot)
	})
	return out
}

// wilson is the 95 % Wilson interval of k successes in n.
func wilson(k, n int) (float64, float64) {
	if n == 0 {
		return 0, 0
	}
	const z = 1.96
	p := float64(k) / float64(n)
	nn := float64(n)
	d := 1 + z*z/nn
	c := (p + z*z/(2*nn)) / d
	h := z * math.Sqrt(p*(1-p)/nn+z*z/(4*nn*nn)) / d
	return c - h, c + h
}

// PairScore is the head-to-head mean and its 95 % interval.
func (r *Report) PairScore() (mean, lo, hi float64) {
	if r.PairN == 0 {
		return 0, 0, 0
	}
	n := float64(r.PairN)
	mean = r.PairS / n
	v := max(r.PairSS/n-mean*mean, 0)
	se := math.Sqrt(v / n)
	return mean, mean - 1.96*se, mean + 1.96*se
}

// Summary is the report as plain data, for --json.
type Summary struct {
	Games    int      `json:"games"`
	Median   int      `json:"plays_median"`
	P90      int      `json:"plays_p90"`
	Mean     float64  `json:"plays_mean"`
	Minutes  float64  `json:"minutes_median"` // at SecondsPerPlay
	Net      int      `json:"net"`
	First3   int      `json:"first3"`
	Lost3    float64  `json:"first3_lost_share"`
	Bots     []Tally  `json:"bots"`
	Pair     []string `json:"pair,omitempty"`
	PairN    int      `json:"pair_games,omitempty"`
	PairMean float64  `json:"pair_score,omitempty"`
	PairLo   float64  `json:"pair_lo,omitempty"`
	PairHi   float64  `json:"pair_hi,omitempty"`
}

// Summary works out the figures a report prints.
func (r *Report) Summary() Summary {
	s := Summary{Games: r.Games, Median: r.Quantile(0.5), P90: r.Quantile(0.9), Net: r.Net,
		First3: r.First3, Bots: r.Tallies()}
	if r.Games > 0 {
		s.Mean = float64(r.Plays) / float64(r.Games)
	}
	s.Minutes = float64(s.Median) * SecondsPerPlay / 60
	if r.First3 > 0 {
		s.Lost3 = float64(r.Lost3) / float64(r.First3)
	}
	if r.Pair[0] != "" {
		s.Pair = r.Pair[:]
		s.PairN = r.PairN
		s.PairMean, s.PairLo, s.PairHi = r.PairScore()
	}
	return s
}

// Print writes the report for people.
func (r *Report) Print(w io.Writer) {
	s := r.Summary()
	fmt.Fprintf(w, "games            %d\n", s.Games)
	fmt.Fprintf(w, "plays per game   median %d, p90 %d, mean %.1f (about %.1f minutes at %d s a play)\n",
		s.Median, s.P90, s.Mean, s.Minutes, SecondsPerPlay)
	fmt.Fprintf(w, "500-play net     %d games (%.2f %%)\n", s.Net, pct(s.Net, s.Games))
	if s.First3 > 0 {
		fmt.Fprintf(w, "first down to 3  loses %.1f %% of %d games\n", 100*s.Lost3, s.First3)
	}
	fmt.Fprintln(w)
	wid := 16
	for _, t := range s.Bots {
		wid = max(wid, len(t.Bot))
	}
	fmt.Fprintf(w, "%-*s %7s %7s %6s %15s %8s %7s %7s %8s %8s\n", wid, "bot", "seats", "wins", "share", "95 % interval", "calls", "right", "lies", "sneaks", "caught")
	for _, t := range s.Bots {
		fmt.Fprintf(w, "%-*s %7d %7d %6.2f %7.2f–%-7.2f %8d %6.0f%% %7d %8d %8d\n", wid, t.Bot, t.Seats, t.Wins, t.Share, t.Lo, t.Hi,
			t.Calls, pct(t.Right, t.Calls), t.Lies, t.Sneaks, t.Caught)
	}
	if refused := sumRefused(s.Bots); refused > 0 {
		fmt.Fprintf(w, "refused moves    %d (each replaced by the fallback)\n", refused)
	}
	if s.PairN > 0 {
		fmt.Fprintf(w, "\n%s vs %s head to head: %.1f %% (95 %% interval %.1f–%.1f) over %d games\n",
			s.Pair[0], s.Pair[1], 100*s.PairMean, 100*s.PairLo, 100*s.PairHi, s.PairN)
	}
}

func sumRefused(ts []Tally) (n int) {
	for _, t := range ts {
		n += t.Refused
	}
	return n
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}
