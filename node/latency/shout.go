package latency

// Shout to verdict: how long after a player shouts "Bullshit!" every other
// player has the cards turned up. It is the latency a party feels, so it is
// measured end to end through the real path (the caller's signed move, the
// host's Server and Table goroutine, one signed update per seat, each
// player's Remote and mailbox), on loopback, where the wire costs next to
// nothing and what is left is our own work. Echo (echo.go) is the floor to
// compare with; `bullshit bench` and BenchmarkShoutToVerdict* print both.
//
// At a blind table (Blind, issue 25) the same shout takes one more leg:
// the host asks the node of the player who played to open the cards, that
// node opens them, the host checks the opening and rules, and every
// player's node works the reveal out of the host's log on its own copy of
// the host (node/table's Party). The clock is the same one: from the
// caller's Send to each seat's Update carrying the reveal.

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node"
	"github.com/bullshit-game/bullshit/node/table"
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
	// Blind says every shout measured was at a blind game.
	Blind bool
	// HostCPU is the hosting process's CPU over the shouts, from
	// ShoutSpawned (0 from Shout, whose host shares its process): the
	// bracket's stretches, every shout in Last and Left, and no deal.
	HostCPU time.Duration
}

// An Option changes how Shout measures.
type Option func(*shoutOpts)

type shoutOpts struct {
	bracket func(begin bool)
	blind   bool
}

// WithBracket has f(true) called once the table is dealt and every player
// seated, and f(false) after the last shout: the caller can time or profile
// the shouts alone, without the hosts' start. A new deal between two
// shouts is left out the same way: f(false) once the shout that ended a
// game is in, f(true) again once every player sees the new game's first
// play (a blind deal, a shuffle by every node, costs more than a hundred
// shouts, and would swamp them).
func WithBracket(f func(begin bool)) Option {
	return func(o *shoutOpts) { o.bracket = f }
}

// Blind has Shout deal blind games (issue 25): every player's node is a
// party of the mental deck, the host sees no card, and a shout is turned
// up by the node of the player who played. It takes 3 seats or more (a
// blind table needs two player nodes), and Shout fails if the table dealt
// in the clear after all.
func Blind() Option {
	return func(o *shoutOpts) { o.blind = true }
}

// shoutPause is the table's reveal pause while measuring: long beside a
// round's deliveries, so the next play never overlaps the one measured,
// and short, so a few hundred shouts take seconds.
const shoutPause = 20 * time.Millisecond

// shoutWait bounds every wait of the measurement: a lost update is an
// error, not a hang.
const shoutWait = 10 * time.Second

// Settings are the table Shout hosts: seats, the host's own seat a quiet
// bot (Bots), no window that closes before its shout, the reveal pause
// short, so a few hundred shouts take seconds. The games are dealt in the
// clear; Blind sets table.Settings.Blind, and the bot seat is then played
// by one of the player nodes (the blind table spreads its bots over them),
// as quietly.
func Settings(seats int) table.Settings {
	rules := engine.Standard()
	rules.Window = 60 * time.Second // no window closes before its shout
	return table.Settings{Name: "bench", Rules: rules, Seats: seats, Bots: []string{"quiet"}, Pace: "fast",
		Timing: table.Timing{Reveal: shoutPause}}
}

// Bots makes the host's seat of a measured table, whatever its name: a
// bot that plays and hands over like the measured players and never calls.
func Bots(string, int, uint64) (table.Player, error) { return quietBot{}, nil }

// Fallback is a measured seat's move when its turn clock runs out: what
// the measured players play.
func Fallback(v *engine.View) (engine.Command, bool) { return quietMove(v, v.Seat) }

// Shout hosts a table of seats on 127.0.0.1 (a Server and its Table, the
// host's own seat a bot), seats-1 players each on their own libp2p host
// joined with Dial (Seat), and measures rounds shouts. Nobody calls or
// lets a play go on their own: each player plays one card when its turn
// comes, and after every play, once every player has the open window, one
// player (in turn) shouts on it.
//
// With Blind, the games are dealt blind and every player's node is a
// party; the host's seat is played by one of them.
func Shout(ctx context.Context, seats, rounds int, opts ...Option) (*ShoutResult, error) {
	var o shoutOpts
	for _, opt := range opts {
		opt(&o)
	}
	if err := shoutArgs(seats, rounds, o.blind); err != nil {
		return nil, err
	}
	h, err := serveTable(ctx, seats, o.blind)
	if err != nil {
		return nil, err
	}
	defer h.Close()
	return shoutAt(ctx, h, seats, rounds, o.blind, opts)
}

// shoutArgs says what is wrong with a measurement's table and rounds.
func shoutArgs(seats, rounds int, blind bool) error {
	if seats < 2 || seats > 10 || blind && seats < 3 {
		return fmt.Errorf("latency: %d seats (2 to 10, 3 up when blind)", seats)
	}
	if rounds < 1 {
		return fmt.Errorf("latency: %d rounds", rounds)
	}
	return nil
}

// A dealer is the measured table's host, in this process (tableHost) or
// in one of its own (Child).
type dealer interface {
	Addr() peer.AddrInfo
	// Deal deals a game: the first, or the next once one is over.
	Deal() error
}

// shoutAt seats seats-1 players at the table h hosts, deals, and
// measures rounds shouts.
func shoutAt(ctx context.Context, h dealer, seats, rounds int, blind bool, opts []Option) (*ShoutResult, error) {
	p, err := Seat(ctx, h.Addr(), seats-1)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	p.Redeal = h.Deal
	p.Blind = blind
	if err := h.Deal(); err != nil {
		return nil, err
	}
	return p.Shouts(ctx, rounds, 0, opts...)
}

// tableHost is the table Shout measures, hosted in this process: a host
// on 127.0.0.1, the Table (Settings) and its Server.
type tableHost struct {
	h   host.Host
	tb  *table.Table
	srv *node.Server
}

// serveTable hosts Settings(seats), blind or not.
func serveTable(ctx context.Context, seats int, blind bool) (_ *tableHost, err error) {
	hh, hk, err := LoopHost(ctx)
	if err != nil {
		return nil, err
	}
	t := &tableHost{h: hh}
	defer func() {
		if err != nil {
			t.Close()
		}
	}()
	set := Settings(seats)
	set.Blind = blind
	if t.tb, err = table.NewTable(set, "host", Bots, nil); err != nil {
		return nil, err
	}
	if t.srv, err = node.Serve(hh, hk, t.tb); err != nil {
		return nil, err
	}
	return t, nil
}

func (t *tableHost) Addr() peer.AddrInfo { return peer.AddrInfo{ID: t.h.ID(), Addrs: t.h.Addrs()} }

func (t *tableHost) Deal() error { return t.tb.Start() }

// Close closes the server, the table and the host, in that order.
func (t *tableHost) Close() {
	if t.srv != nil {
		t.srv.Close()
	}
	if t.tb != nil {
		t.tb.Close()
	}
	t.h.Close()
}

// Players are the measured players at a table, each on its own host on
// loopback, each followed by its own goroutine (follow). Only the
// goroutine that calls Shouts touches the rest; the players send it notes.
type Players struct {
	// Redeal deals the next game once a shout ended one; nil when the
	// table's host deals again by itself.
	Redeal func() error
	// Blind says the table deals blind: a reveal that comes at a game
	// dealt in the clear is an error of the measurement, not a figure.
	Blind bool

	hosts   []host.Host
	remotes []*node.Remote
	notes   chan shoutNote
	st      shoutState
	bracket func(begin bool) // WithBracket's, while Shouts runs
	on      bool             // bracket(true) was called last

	seen    []int // the open window each player has
	callers []int // who may call the open window
	called  int   // the last play shouted on in this game
	caller  int   // the player the search for the next shouter starts at
}

// Seat seats n players at the table at, each on a host of its own on
// 127.0.0.1; the table's host deals once they (and whoever else it waits
// for) are seated, and Shouts measures.
func Seat(ctx context.Context, at peer.AddrInfo, n int) (_ *Players, err error) {
	if n < 1 || n > 9 {
		return nil, fmt.Errorf("latency: %d players (1 to 9)", n)
	}
	p := &Players{notes: make(chan shoutNote, 4096)}
	defer func() {
		if err != nil {
			p.Close()
		}
	}()
	for i := range n {
		h, k, err := LoopHost(ctx)
		if err != nil {
			return nil, err
		}
		p.hosts = append(p.hosts, h)
		// At a blind table the host's seat is a bot on one of the
		// players' nodes: the same quiet one.
		r, err := node.DialWith(ctx, h, k, at, fmt.Sprintf("p%d", i), "", false, nil, node.Setup{Bots: Bots, Fall: Fallback})
		if err != nil {
			return nil, fmt.Errorf("player %d joins: %w", i, err)
		}
		p.remotes = append(p.remotes, r)
	}
	p.seen = make([]int, len(p.remotes))
	for i, r := range p.remotes {
		go follow(i, r, p.notes, &p.st)
	}
	return p, nil
}

// Shouts measures shouts until rounds are measured (0: no such bound) or d
// has passed (0: no such bound), whichever comes first; one of the two
// must be set. The game goes on between calls: a later call measures the
// shouts after.
func (p *Players) Shouts(ctx context.Context, rounds int, d time.Duration, opts ...Option) (*ShoutResult, error) {
	var o shoutOpts
	for _, opt := range opts {
		opt(&o)
	}
	if rounds < 0 || d < 0 || rounds == 0 && d == 0 {
		return nil, fmt.Errorf("latency: %d rounds for %v", rounds, d)
	}
	res := &ShoutResult{Seats: len(p.remotes) + 1, Games: 1, Blind: p.Blind}
	p.bracket, p.on = o.bracket, false
	defer func() {
		p.pause()
		p.bracket = nil
	}()
	start := time.Now()
	for measured := 0; (rounds == 0 || measured < rounds) && (d == 0 || time.Since(start) < d); {
		times, over, err := p.round(ctx)
		if err != nil {
			return res, err
		}
		if over {
			res.Left++
			p.pause()
			if err := p.newDeal(); err != nil {
				return res, err
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

// Close closes the players, the last joined first, and their hosts.
func (p *Players) Close() {
	for _, r := range slices.Backward(p.remotes) {
		r.Close()
	}
	for _, h := range p.hosts {
		h.Close()
	}
}

// round waits until the table is quiet (every player has the window of a
// new play), has the next player who may shout on it shout, and times the
// reveal's arrival at each player. over says the reveal ended the game.
func (p *Players) round(ctx context.Context) (times []time.Duration, over bool, err error) {
	for p.seen[0] <= p.called || slices.ContainsFunc(p.seen, func(no int) bool { return no != p.seen[0] }) {
		if _, err := p.next(ctx, "every player to see the play"); err != nil {
			return nil, false, err
		}
	}
	if p.bracket != nil && !p.on {
		p.bracket(true) // every player sees a play of a game dealt: the shouts begin
		p.on = true
	}
	no := p.seen[0]
	p.called = no
	c := -1
	for k := range p.remotes {
		j := (p.caller + k) % len(p.remotes)
		if slices.Contains(p.callers, p.remotes[j].Seat()) {
			c = j
			break
		}
	}
	if c < 0 {
		return nil, false, fmt.Errorf("latency: no player may call play %d (callers %v)", no, p.callers)
	}
	p.caller = c + 1
	times = make([]time.Duration, len(p.remotes))
	got := 0
	start := time.Now()
	if err := p.remotes[c].Send(engine.Command{Move: engine.MoveCall, No: no}); err != nil {
		return nil, false, err
	}
	for got < len(p.remotes) {
		n, err := p.next(ctx, fmt.Sprintf("the reveal of play %d (%d of %d players have it)", no, got, len(p.remotes)))
		if err != nil {
			return nil, false, err
		}
		switch {
		case n.refused != "" && n.peer == c && n.code != engine.CodeNotYourTurn:
			// A call is never refused for a turn (engine.windowCheck): that
			// is the caller's play, late to a turn the table's turn clock
			// played for it (node/flood's table has one).
			return nil, false, fmt.Errorf("latency: the shout on play %d was refused: %s", no, n.refused)
		case n.reveal == no && p.Blind && !n.blind:
			return nil, false, fmt.Errorf("latency: play %d was turned up at a game dealt in the clear; players see %s", no, p.st.String())
		case n.reveal == no && times[n.peer] == 0:
			times[n.peer] = n.at.Sub(start)
			over = over || n.over
			got++
		}
	}
	return times, over, nil
}

// pause ends the bracket's stretch, if one is on.
func (p *Players) pause() {
	if p.bracket != nil && p.on {
		p.bracket(false)
		p.on = false
	}
}

// newDeal starts the next game after a shout ended one.
func (p *Players) newDeal() error {
	clear(p.seen)
	p.called = 0
	if p.Redeal == nil {
		return nil
	}
	if err := p.Redeal(); err != nil {
		return fmt.Errorf("latency: a new deal: %w", err)
	}
	return nil
}

// next is the next note; every note of an open window counts, even one
// that comes while a slow player still waits for the last reveal.
func (p *Players) next(ctx context.Context, what string) (shoutNote, error) {
	timer := time.NewTimer(shoutWait)
	defer timer.Stop()
	select {
	case n := <-p.notes:
		if n.window > 0 {
			p.seen[n.peer] = n.window
			p.callers = n.callers
		}
		return n, nil
	case <-ctx.Done():
		return shoutNote{}, ctx.Err()
	case <-timer.C:
		return shoutNote{}, fmt.Errorf("latency: no news for %v waiting for %s; players see %s", shoutWait, what, p.st.String())
	}
}

// shoutNote is a player's news for the measurement.
type shoutNote struct {
	peer    int
	at      time.Time
	window  int   // the open window's play, when there is one
	callers []int // who may call it
	reveal  int   // the play a reveal turned up
	over    bool  // the game ended with it
	blind   bool  // at a game dealt blind
	refused string
	code    engine.Code // the refusal's
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
		over := u.Table.Phase == table.PhaseOver || u.View.Phase == engine.PhaseOver
		for _, e := range u.Events {
			switch e.Type {
			case engine.EventReveal:
				revealed = at
				notes <- shoutNote{peer: i, at: at, reveal: e.No, over: over, blind: u.Table.Blind}
			case engine.EventDeal:
				decided = ""
			}
		}
		if u.Refusal != nil {
			decided = "" // asked again at the next update
			notes <- shoutNote{peer: i, at: at, refused: u.Refusal.Msg, code: u.Refusal.Code}
			continue
		}
		v := u.View
		if v.Phase == engine.PhaseCall && v.Window != nil {
			notes <- shoutNote{peer: i, at: at, window: v.Window.No, callers: v.Window.Callers}
		}
		if u.Table.Phase != table.PhasePlaying || u.Table.You < 0 {
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

func (s *shoutState) see(i int, u *table.Update) {
	v := &u.View
	line := fmt.Sprintf("%s/%v no %d turn %d hand %d", u.Table.Phase, v.Phase, v.No, v.Turn, len(v.Hand))
	if v.Window != nil {
		line += fmt.Sprintf(" window %d callers %v", v.Window.No, v.Window.Callers)
	}
	if u.Refusal != nil {
		line += " refused: " + u.Refusal.Msg
	}
	if u.Notice != "" {
		line += fmt.Sprintf(" notice %q", u.Notice)
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
