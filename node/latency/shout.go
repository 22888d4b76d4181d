package latency

// Shout to verdict: how long after a player shouts "Bullshit!" every other
// player has the cards turned up. It is the latency a party feels, so it is
// measured end to end through the real path (the caller's signed move, the
// host's Server and Table goroutine, one signed update per seat, each
// player's Remote and mailbox), on loopback, where the wire costs next to
// nothing and what is left is our own work. Echo (echo.go) is the floor to
// compare with; `bullshit bench` and BenchmarkShoutToVerdict* print both.

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node"
)

// ShoutResult is what Shout measured.
type ShoutResult struct {
	Seats int
	// Samples has one time per remote seat per shout: from the caller's
	// Send to that seat's Update carrying the reveal.
	Samples []time.Duration
	// Last has one time per shout: until the last remote seat had the
	// reveal, the moment the whole table knows.
	Last []time.Duration
	// Left counts shouts left out of the samples: the one that ends a game,
	// whose update carries the end-of-game audit (a replay per seat).
	Left  int
	Games int
}

// An Option changes how Shout measures.
type Option func(*shoutOpts)

type shoutOpts struct {
	bracket func(begin bool)
}

// WithBracket has f(true) called once the table is dealt and every player
// seated, and f(false) after the last shout: the caller can time or profile
// the shouts alone, without the hosts' start.
func WithBracket(f func(begin bool)) Option {
	return func(o *shoutOpts) { o.bracket = f }
}

// shoutPause is the table's reveal pause while measuring: long beside a
// round's deliveries, so the next play never overlaps the one measured,
// and short, so a few hundred shouts take seconds.
const shoutPause = 20 * time.Millisecond

// shoutWait bounds every wait of the measurement: a lost update is an
// error, not a hang.
const shoutWait = 10 * time.Second

// Shout hosts a table of seats on 127.0.0.1 (a Server and its
// Table, the host's own seat a bot), seats-1 players each on their own
// libp2p host joined with Dial, and measures rounds shouts. Nobody calls or
// lets a play go on their own: each player plays one card when its turn
// comes, and after every play, once every player has the open window, one
// player (in turn) shouts on it.
func Shout(ctx context.Context, seats, rounds int, opts ...Option) (*ShoutResult, error) {
	var o shoutOpts
	for _, opt := range opts {
		opt(&o)
	}
	if seats < 2 || seats > 10 {
		return nil, fmt.Errorf("latency: %d seats (2 to 10)", seats)
	}
	if rounds < 1 {
		return nil, fmt.Errorf("latency: %d rounds", rounds)
	}
	var hosts []host.Host
	defer func() {
		for _, h := range hosts {
			h.Close()
		}
	}()
	newHost := func() (host.Host, crypto.PrivKey, error) {
		h, k, err := loopHost(ctx)
		if err == nil {
			hosts = append(hosts, h)
		}
		return h, k, err
	}

	rules := engine.Standard()
	rules.Window = 60 * time.Second // no window closes before its shout
	hh, hk, err := newHost()
	if err != nil {
		return nil, err
	}
	quiet := func(string, int, uint64) (node.Player, error) { return quietBot{}, nil }
	tb, err := node.NewTable(node.Settings{Name: "bench", Rules: rules, Seats: seats, Bots: []string{"quiet"}, Pace: "fast",
		Reveal: shoutPause}, "host", quiet, nil)
	if err != nil {
		return nil, err
	}
	defer tb.Close()
	srv, err := node.Serve(hh, hk, tb)
	if err != nil {
		return nil, err
	}
	defer srv.Close()

	at := peer.AddrInfo{ID: hh.ID(), Addrs: hh.Addrs()}
	notes := make(chan shoutNote, 4096)
	var st shoutState
	remotes := make([]*node.Remote, seats-1)
	for i := range remotes {
		h, k, err := newHost()
		if err != nil {
			return nil, err
		}
		r, err := node.Dial(ctx, h, k, at, fmt.Sprintf("p%d", i), "", false, nil)
		if err != nil {
			return nil, fmt.Errorf("player %d joins: %w", i, err)
		}
		defer r.Close()
		remotes[i] = r
	}
	for i, r := range remotes {
		go follow(i, r, notes, &st)
	}
	if err := tb.Start(); err != nil {
		return nil, err
	}

	res := &ShoutResult{Seats: seats, Games: 1}
	if o.bracket != nil {
		o.bracket(true)
		defer o.bracket(false)
	}
	seen := make([]int, len(remotes)) // the open window each player has
	var callers []int
	// next is the next note; every note of an open window counts, even one
	// that comes while a slow player still waits for the last reveal.
	next := func(what string) (shoutNote, error) {
		t := time.NewTimer(shoutWait)
		defer t.Stop()
		select {
		case n := <-notes:
			if n.window > 0 {
				seen[n.peer] = n.window
				callers = n.callers
			}
			return n, nil
		case <-ctx.Done():
			return shoutNote{}, ctx.Err()
		case <-t.C:
			return shoutNote{}, fmt.Errorf("latency: no news for %v waiting for %s; players see %s", shoutWait, what, st.String())
		}
	}
	called := 0 // the last play shouted on in this game
	caller := 0
	for measured := 0; measured < rounds; {
		// Every player has the window of a new play: the table is quiet.
		for seen[0] <= called || slices.ContainsFunc(seen, func(no int) bool { return no != seen[0] }) {
			if _, err := next("every player to see the play"); err != nil {
				return res, err
			}
		}
		no := seen[0]
		called = no
		c := -1
		for k := range remotes {
			j := (caller + k) % len(remotes)
			if slices.Contains(callers, remotes[j].Seat()) {
				c = j
				break
			}
		}
		if c < 0 {
			return res, fmt.Errorf("latency: no player may call play %d (callers %v)", no, callers)
		}
		caller = c + 1
		times := make([]time.Duration, len(remotes))
		got, over := 0, false
		start := time.Now()
		if err := remotes[c].Send(engine.Command{Move: engine.MoveCall, No: no}); err != nil {
			return res, err
		}
		for got < len(remotes) {
			n, err := next(fmt.Sprintf("the reveal of play %d (%d of %d players have it)", no, got, len(remotes)))
			if err != nil {
				return res, err
			}
			switch {
			case n.refused != "" && n.peer == c:
				return res, fmt.Errorf("latency: the shout on play %d was refused: %s", no, n.refused)
			case n.reveal == no && times[n.peer] == 0:
				times[n.peer] = n.at.Sub(start)
				over = over || n.over
				got++
			}
		}
		if over {
			res.Left++
			clear(seen)
			called = 0
			if err := tb.Start(); err != nil {
				return res, fmt.Errorf("latency: a new deal: %w", err)
			}
			res.Games++
			continue
		}
		res.Samples = append(res.Samples, times...)
		res.Last = append(res.Last, slices.Max(times))
		measured++
	}
	return res, nil
}

// shoutNote is a player's news for the measurement.
type shoutNote struct {
	peer    int
	at      time.Time
	window  int   // the open window's play, when there is one
	callers []int // who may call it
	reveal  int   // the play a reveal turned up
	over    bool  // the game ended with it
	refused string
}

// follow plays a remote seat: one card when its turn comes (after the
// reveal pause, so a play never lands in a measured round), a hand-over
// when one is owed, never a call or a let-go; and tells the measurement
// what it sees, timed as it arrives.
func follow(i int, r *node.Remote, notes chan<- shoutNote, st *shoutState) {
	var decided string
	var revealed time.Time
	for u := range r.Updates() {
		at := time.Now()
		st.see(i, &u)
		over := u.Table.Phase == "over" || u.View.Phase == engine.PhaseOver
		for _, e := range u.Events {
			switch e.Type {
			case "reveal":
				revealed = at
				notes <- shoutNote{peer: i, at: at, reveal: e.No, over: over}
			case "deal":
				decided = ""
			}
		}
		if u.Refusal != nil {
			decided = "" // asked again at the next update
			notes <- shoutNote{peer: i, at: at, refused: u.Refusal.Msg}
			continue
		}
		v := u.View
		if v.Phase == engine.PhaseCall && v.Window != nil {
			notes <- shoutNote{peer: i, at: at, window: v.Window.No, callers: v.Window.Callers}
		}
		if u.Table.Phase != node.PhasePlaying || u.Table.You < 0 {
			continue
		}
		key := v.Situation()
		if key == decided {
			continue
		}
		cmd, ok := quietMove(&v, u.Table.You)
		if !ok {
			continue
		}
		decided = key
		if wait := time.Until(revealed.Add(shoutPause + time.Millisecond)); wait > 0 {
			time.AfterFunc(wait, func() { r.Send(cmd) })
		} else {
			r.Send(cmd)
		}
	}
}

// shoutState is what each player last saw, for the error when the
// measurement stalls.
type shoutState struct {
	mu   sync.Mutex
	last map[int]string
}

func (s *shoutState) see(i int, u *node.Update) {
	v := &u.View
	line := fmt.Sprintf("%s/%v no %d turn %d hand %d", u.Table.Phase, v.Phase, v.No, v.Turn, len(v.Hand))
	if v.Window != nil {
		line += fmt.Sprintf(" window %d callers %v", v.Window.No, v.Window.Callers)
	}
	if u.Refusal != nil {
		line += " refused: " + u.Refusal.Msg
	}
	s.mu.Lock()
	if s.last == nil {
		s.last = map[int]string{}
	}
	s.last[i] = line
	s.mu.Unlock()
}

func (s *shoutState) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return fmt.Sprint(s.last)
}

// quietBot is the host's seat while measuring: it plays and hands over like
// a player, and never calls.
type quietBot struct{}

func (quietBot) Observe(*engine.Event) {}
func (quietBot) Act(v *engine.View) (engine.Command, time.Duration, bool) {
	c, ok := quietMove(v, v.Seat)
	return c, 0, ok
}

// quietMove plays one card (games last) or hands over what is owed.
func quietMove(v *engine.View, seat int) (engine.Command, bool) {
	switch {
	case v.Phase == engine.PhasePlay && v.Turn == seat && len(v.Hand) > 0:
		r := v.Rank
		if r == engine.NoRank {
			if r = v.Hand[0].Rank(); r == engine.NoRank {
				r = 0
			}
		}
		return engine.Command{Move: engine.MovePlay, Cards: v.Hand[:1], Rank: r}, true
	case v.Phase == engine.PhaseGive && v.Give != nil && v.Give.From == seat && len(v.Hand) > 0:
		k := min(max(v.Give.Count, 1), len(v.Hand))
		return engine.Command{Move: engine.MoveGive, Cards: v.Hand[:k], Rank: engine.NoRank}, true
	}
	return engine.Command{}, false
}
