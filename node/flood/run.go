package flood

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"slices"
	"time"

	ma "github.com/multiformats/go-multiaddr"

	"github.com/bullshit-game/bullshit/engine/bench"
	"github.com/bullshit-game/bullshit/node"
	"github.com/bullshit-game/bullshit/node/latency"
	"github.com/bullshit-game/bullshit/node/rogue"
)

// Config says how Run floods.
type Config struct {
	// For is how long each flood, and each calm stretch, lasts; the honest
	// players shout throughout.
	For time.Duration
	// Honest is how many measured players sit at the table (with the rogue
	// and the host's bot: Seats).
	Honest int
	// Addrs is how many addresses the strangers of a flood come from
	// (127.0.N.1 up, N its own for each flood, so that one flood's spent
	// limits are not the next one's).
	Addrs int
	// Rate is what a seated flood offers, frames a second.
	Rate float64
	// Kinds are the floods to throw, by name (nil: all of Kinds).
	Kinds []string
	// Progress, if set, hears of each stretch as it begins.
	Progress func(what string)
}

func (c Config) or() Config {
	if c.For <= 0 {
		c.For = 3 * time.Second
	}
	if c.Honest <= 0 {
		c.Honest = 3
	}
	if c.Addrs <= 0 {
		c.Addrs = 32
	}
	if c.Rate <= 0 {
		c.Rate = 1000
	}
	return c
}

// Seats is the table Run needs for cfg: the measured players, the rogue
// and the host's own seat.
func (c Config) Seats() int { return c.or().Honest + 2 }

// Calm is the name of a stretch with no flood.
const Calm = "calm"

// Result is one stretch: a flood, or the calm.
type Result struct {
	Kind, Who, What string
	Wall            time.Duration
	// Offered is what the flood tried, a second: frames, streams,
	// connections or opens; Sent, in all.
	Offered float64
	Sent    int
	// Refused were refused for the right reason (seen by the flooder);
	// Wrong, a few refused for another. Held got in and stayed
	// (spectators placed, half-open connections open at the end).
	Refused int
	Wrong   []string
	Held    int
	Outcome map[string]int // every outcome the flooder saw, counted
	// The host over the stretch: its process's CPU, as a share of one
	// core; envelopes it refused and signatures it verified, a second.
	HostCPU     float64
	HostRefused float64
	Verified    float64
	// OwnCPU is this process's (the flooders' and the measured players'),
	// a share of one core: on one machine they take from the host's.
	OwnCPU float64
	// The measured players' shouts over the stretch.
	Shouts *latency.ShoutResult
	// Err is why the flood could not run (the stretch is still measured).
	Err error
}

// P is the shout to verdict's q quantile, each player's time counted.
func (r *Result) P(q float64) time.Duration {
	if r.Shouts == nil {
		return 0
	}
	return bench.Percentile(r.Shouts.Samples, q)
}

// ErrNoAddrs says this machine can't flood from addresses of its own.
var ErrNoAddrs = errors.New("flood: 127.0.N.M are not this machine's (Linux routes all of 127/8 to loopback; this system doesn't)")

// The rogue's address, and the strangers' of each flood: 127.0.N.1 up,
// N = firstBlock + the flood's place in Kinds.
const firstBlock = 10

var rogueAddr = net.IPv4(127, 0, firstBlock-1, 1)

// addrsOf are the n addresses the strangers of Kinds[i] come from.
func addrsOf(i, n int) []net.IP {
	var out []net.IP
	for j := range n {
		out = append(out, net.IPv4(127, 0, byte(firstBlock+i), byte(1+j)))
	}
	return out
}

// Run seats cfg.Honest measured players and the rogue at the table t
// hosts (of cfg.Seats(), not yet dealt), deals, and throws each flood in
// turn, with a calm stretch before the first and after the last, the
// players shouting all along.
func Run(ctx context.Context, t Target, cfg Config) ([]Result, error) {
	cfg = cfg.or()
	kinds := Kinds
	if cfg.Kinds != nil {
		kinds = nil
		for _, name := range cfg.Kinds {
			i := slices.IndexFunc(Kinds, func(k Kind) bool { return k.Name == name })
			if i < 0 {
				return nil, fmt.Errorf("flood: no flood %q", name)
			}
			kinds = append(kinds, Kinds[i])
		}
	}
	if cfg.Addrs > 250 {
		return nil, fmt.Errorf("flood: %d addresses (250 at most)", cfg.Addrs)
	}
	last := addrsOf(len(Kinds)-1, cfg.Addrs)
	ln, err := net.Listen("tcp", net.JoinHostPort(last[len(last)-1].String(), "0"))
	if err != nil {
		return nil, ErrNoAddrs
	}
	ln.Close()
	e := &env{at: t.Addr(), web: t.Web(), cfg: cfg}

	// The rogue first, then the measured players; then the deal.
	rg, err := rogue.New(nil)
	if err != nil {
		return nil, err
	}
	rg.Again = 50 * time.Millisecond
	hk, err := rg.HostKey()
	if err != nil {
		return nil, err
	}
	rh, err := node.NewHost(ctx, node.HostConfig{Key: hk, Listen: []ma.Multiaddr{ma.StringCast(fmt.Sprintf("/ip4/%s/tcp/0", rogueAddr))}})
	if err != nil {
		return nil, err
	}
	defer rh.Close()
	e.rg = &seat{Rogue: rg, h: rh, at: t.Addr()}
	if err := e.rg.connect(ctx); err != nil {
		return nil, fmt.Errorf("flood: the rogue takes a seat: %w", err)
	}
	pctx, stopPlay := context.WithCancel(ctx)
	defer stopPlay()
	go rg.Play(pctx)
	go rogue.Heartbeats(pctx, rg.Send) // while the game is slow to come to its seat
	players, err := latency.Seat(ctx, t.Addr(), cfg.Honest)
	if err != nil {
		return nil, err
	}
	defer players.Close()
	players.Redeal = t.Deal
	if err := t.Deal(); err != nil {
		return nil, err
	}
	// A few shouts to warm up: the first deal's toss, the first connections.
	if _, err := players.Shouts(ctx, 5, 0); err != nil {
		return nil, err
	}

	var out []Result
	stretch := func(k Kind) error {
		if cfg.Progress != nil {
			cfg.Progress(k.Name)
		}
		r, err := measure(ctx, t, e, players, k)
		out = append(out, r)
		return err
	}
	if err := stretch(Kind{Name: Calm}); err != nil {
		return out, err
	}
	for _, k := range kinds {
		if err := stretch(k); err != nil {
			return out, err
		}
	}
	return out, stretch(Kind{Name: Calm})
}

// settle is the pause after a flood is called off, for the host to close
// what it left behind before the next stretch is measured.
const settle = 500 * time.Millisecond

// measure throws the flood k (none for Calm) for cfg.For while the players
// shout, and reads the host's counters either side.
func measure(ctx context.Context, target Target, e *env, players *latency.Players, k Kind) (Result, error) {
	r := Result{Kind: k.Name, Who: k.Who, What: k.What}
	if i := slices.IndexFunc(Kinds, func(x Kind) bool { return x.Name == k.Name }); i >= 0 {
		e.addrs = addrsOf(i, e.cfg.Addrs)
	}
	var f flood
	if k.prep != nil {
		var err error
		if f, err = k.prep(ctx, e); err != nil {
			r.Err = err
		}
	}
	s0, err := target.Stats()
	if err != nil {
		return r, err
	}
	own0, t0 := bench.CPUTime(), time.Now()
	fctx, stop := context.WithCancel(ctx)
	defer stop()
	flooded := make(chan *tally, 1)
	if f != nil {
		go func() { flooded <- f(fctx) }()
	}
	r.Shouts, err = players.Shouts(ctx, 0, e.cfg.For)
	r.Wall = time.Since(t0)
	s1, serr := target.Stats()
	r.OwnCPU = 100 * (bench.CPUTime() - own0).Seconds() / r.Wall.Seconds()
	stop()
	if f != nil {
		r.take(<-flooded)
	}
	if err != nil {
		return r, fmt.Errorf("flood %s: the measured players: %w", k.Name, err)
	}
	if serr != nil {
		return r, serr
	}
	sec := r.Wall.Seconds()
	r.HostCPU = 100 * (s1.CPU - s0.CPU).Seconds() / sec
	r.HostRefused = float64(s1.Refused-s0.Refused) / sec
	r.Verified = float64(s1.Verified-s0.Verified) / sec
	time.Sleep(settle)
	return r, nil
}

// take is what the flood offered and the host answered, as the flooder
// counted it over r.Wall.
func (r *Result) take(t *tally) {
	r.Sent, r.Refused, r.Wrong, r.Held, r.Outcome, r.Err = t.sent, t.refused, t.wrong, t.held, maps.Clone(t.by), t.err
	r.Offered = float64(t.sent) / r.Wall.Seconds()
}

// Quick is a Config for a smoke test: a second a flood, from a few
// addresses.
func Quick() Config { return Config{For: time.Second, Addrs: 8} }
