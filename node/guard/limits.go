// This file holds the host's limits on what peers send it: how fast a
// connection's frames are read (before anything is parsed), and how many
// wrong join codes an address, and the table, may try.

package guard

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"net/netip"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/x/rate"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"

	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/protocol"
)

// ---- Frames ----

// A connection's frames are read no faster than these, before a byte of
// them is parsed: a peer that sends faster is simply read slower, its TCP
// window closes, and the cost of its flood stays on its side. An honest
// player sends two heartbeats a second and a move now and then; a frame is
// one verification, one decode and, if refused, one signature.
//
// Who pays what: a seated player's connection has its own budget (at most
// ten of them). Spectators share one budget between them all, so a swarm
// of them costs the host what one busy spectator would. A joiner's frames
// are few (a hello, a proof; the host hangs up at the first refusal), and
// how often an address may open the game's stream is rate-limited
// (StreamsPerAddr), so what joining costs is bounded per address without a
// shared budget a crowd could use up to keep honest joiners waiting.
var (
	// Per connection.
	FramesPerSec = 50.0
	FrameBurst   = 100.0
	BytesPerSec  = 256 * 1024.0
	ByteBurst    = 1.0 * (1 << 20) // at least protocol.MaxSize, or a big frame would wait for ever
	// Shared by every spectator's connection.
	WatcherFramesPerSec = 100.0
	WatcherFrameBurst   = 200.0
	WatcherBytesPerSec  = 256 * 1024.0
	WatcherByteBurst    = 1.0 * (1 << 20)
)

// StreamsPerAddr is how often one address may open the game's stream (a
// join, a rejoin, a spectator): a burst, then a rate.
var StreamsPerAddr = rate.Limit{RPS: 1, Burst: 10}

// streamLimiter rate-limits opening the game's stream, per address (IPv4,
// or an IPv6 /64) and not in total; this machine's loopback is free.
func StreamLimiter() *rate.Limiter { return AddrLimiter(StreamsPerAddr, Unlimited) }

// addrLimiter is a rate per address (an IPv4 address, an IPv6 /64) and
// none in total, free for the prefixes given.
func AddrLimiter(l rate.Limit, free []netip.Prefix) *rate.Limiter {
	var pl []rate.PrefixLimit
	for _, p := range free {
		pl = append(pl, rate.PrefixLimit{Prefix: p}) // zero: no limit
	}
	return &rate.Limiter{NetworkPrefixLimits: pl, SubnetRateLimiter: rate.SubnetLimiter{
		IPv4SubnetLimits: []rate.SubnetLimit{{PrefixLength: 32, Limit: l}},
		IPv6SubnetLimits: []rate.SubnetLimit{{PrefixLength: 64, Limit: l}},
		GracePeriod:      time.Minute,
	}}
}

// bucket is a token bucket that may go into debt: take always succeeds and
// says how long the taker must wait for its tokens. Takers are served in
// the order they ask, so one that floods waits behind its own debt and one
// that asks once (a joiner's hello) waits at most for those already
// waiting. Safe for concurrent use.
type bucket struct {
	mu     sync.Mutex
	rate   float64 // tokens a second
	burst  float64
	tokens float64 // may be negative: owed
	last   time.Time
}

func newBucket(rate, burst float64, now time.Time) *bucket {
	return &bucket{rate: rate, burst: burst, tokens: burst, last: now}
}

// take takes n tokens at now and returns how long until they are there.
func (b *bucket) take(n float64, now time.Time) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	if now.After(b.last) {
		b.tokens = min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
		b.last = now
	}
	b.tokens -= n
	if b.tokens >= 0 {
		return 0
	}
	return time.Duration(-b.tokens / b.rate * float64(time.Second))
}

// frameLimit is the budgets one connection's frames are read under: its
// own, and a spectator's the watchers' shared one too.
type FrameLimit struct {
	frames, bytes *bucket // this connection's
	Shared        *Watchers

	now   func() time.Time
	sleep func(time.Duration)

	waited time.Duration // in all, for the tests
}

// watchers is the budget a server's spectators share.
type Watchers struct{ frames, bytes *bucket }

func NewWatchers() *Watchers {
	now := time.Now()
	return &Watchers{frames: newBucket(WatcherFramesPerSec, WatcherFrameBurst, now),
		bytes: newBucket(WatcherBytesPerSec, WatcherByteBurst, now)}
}

func NewFrameLimit() *FrameLimit {
	now := time.Now()
	return &FrameLimit{frames: newBucket(FramesPerSec, FrameBurst, now), bytes: newBucket(BytesPerSec, ByteBurst, now),
		now: time.Now, sleep: time.Sleep}
}

// wait holds a frame of n bytes until every budget it falls under has its
// tokens.
func (l *FrameLimit) wait(n int) {
	now := l.now()
	d := max(l.frames.take(1, now), l.bytes.take(float64(n), now))
	if l.Shared != nil {
		d = max(d, l.Shared.frames.take(1, now), l.Shared.bytes.take(float64(n), now))
	}
	if d > 0 {
		l.waited += d
		l.sleep(d)
	}
}

// read reads one length-prefixed frame under the limits. An oversize length
// is refused before its bytes are read; a frame that fits waits for its
// tokens before its body is read, with the stream's read deadline moved on
// by the wait (st may be nil).
func (l *FrameLimit) ReadFrame(r *bufio.Reader, st deadliner, deadline time.Duration) ([]byte, error) {
	n, err := binary.ReadUvarint(r)
	if err != nil {
		return nil, err
	}
	if n > protocol.MaxSize {
		return nil, fmt.Errorf("%w: %d bytes", gamewire.ErrFrameTooBig, n)
	}
	if l != nil {
		l.wait(int(n))
		if st != nil {
			st.SetReadDeadline(time.Now().Add(deadline))
		}
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, err
	}
	return b, nil
}

// deadliner is what frameLimit.read moves the read deadline of.
type deadliner interface{ SetReadDeadline(time.Time) error }

// ---- Join codes ----

// A private table's code is proved by CPace (protocol.Pake): nothing a
// listener, a joiner or an impostor table sees lets it test codes
// offline, so each run of the exchange is one guess, made online, and how
// fast a guesser may guess is the whole of a code's strength. Guesses are
// counted per source address and for the table; identities are free, so
// nothing is counted per peer ID.
//
// A code is counted when it is checked: the joiner's answer takes a
// place in each count, at once and under one lock, before the code is
// checked, and is refused unchecked when there is none; a right code
// gives its place back. So however many exchanges a guesser opens
// together, no more answers are checked than there are places (issue 21:
// 1,264 a minute got through when a hello was checked against the count
// and only a wrong answer, later, was counted). A hello is checked against
// the count too, so that a guesser who has spent it costs the host no
// exchange; but a hello takes no place: an exchange left unanswered
// checks nothing, and a stranger who opens exchanges and never answers
// holds none of the count from a player who has the code.
//
// The counts: one address has CodeTriesPerAddr = 5 places over a sliding
// minute; the table CodeTriesPerWindow = 10 over a sliding
// CodeTableWindow = 20 s, so that any minute (three such spans) holds at
// most 30 checked codes, 1,800 an hour, 10,800 in six hours, however many
// addresses a guesser has. A code drawn from N equally likely ones is
// found within the evening with probability at most 10,800/N:
//
//	4 digits             10^4    certain (on average in 2.8 h)
//	5 digits             10^5    11 %
//	6 digits             10^6    1.1 %  (the shortest allowed)
//	8 digits             10^8    0.011 %
//	6 letters or digits  2.2e9   0.0005 %
//
// So a code needs at least protocol.MinCodeLen = 6 characters
// (protocol.CheckCode, checked before a table is served): six digits is
// what a person reads off a screen and types on a phone, and a few
// letters in it make it safe for many evenings. An impostor table gets
// one guess per joiner it catches, and the joiner sees it fail. The
// price: while a guesser spends the table's count, honest joiners with
// the right code are turned away too (the count can't tell them apart
// before it checks), for as long as it goes on and at most
// CodeTableWindow after its last wrong code (the table's span is 20 s
// rather than a minute so that the lockout ends soon).
const (
	CodeTriesPerAddr   = 5  // codes checked a minute from one address
	CodeTriesPerTable  = 30 // codes checked a minute for the table, from everyone
	CodeTriesPerWindow = CodeTriesPerTable * int(CodeTableWindow) / int(time.Minute)
	CodeTableWindow    = 20 * time.Second
	codeWindow         = time.Minute // an address's
)

// codeGuard counts the join codes a table checks.
type CodeGuard struct {
	mu     sync.Mutex
	now    func() time.Time
	byAddr map[netip.Addr][]time.Time
	table  []time.Time
}

func NewCodeGuard() *CodeGuard {
	return &CodeGuard{now: time.Now, byAddr: map[netip.Addr][]time.Time{}}
}

// recent drops the times older than the window w.
func recent(ts []time.Time, now time.Time, w time.Duration) []time.Time {
	i := 0
	for i < len(ts) && now.Sub(ts[i]) >= w {
		i++
	}
	return ts[i:]
}

// full says why addr may have no code checked now, or "". Called with mu
// held.
func (g *CodeGuard) full(addr netip.Addr, now time.Time) string {
	g.prune(now)
	if len(g.byAddr[addr]) >= CodeTriesPerAddr {
		return fmt.Sprintf("Too many wrong join codes from your address (%d a minute): wait a minute before trying again.", CodeTriesPerAddr)
	}
	if len(g.table) >= CodeTriesPerWindow {
		return fmt.Sprintf("Too many wrong join codes for this table just now: wait %d seconds before trying again.", int(CodeTableWindow/time.Second))
	}
	return ""
}

// blocked says why an exchange from addr is refused before it starts, or
// "" when it may start (it takes no place).
func (g *CodeGuard) Blocked(addr netip.Addr) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.full(addr, g.now())
}

// take takes a place for checking a code from addr, or says why the code
// is refused unchecked. A place taken is kept, as a wrong code, unless
// given back (give) with the time take returned.
func (g *CodeGuard) Take(addr netip.Addr) (time.Time, string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.now()
	if why := g.full(addr, now); why != "" {
		return time.Time{}, why
	}
	g.byAddr[addr] = append(g.byAddr[addr], now)
	g.table = append(g.table, now)
	return now, ""
}

// give gives back the place take took at at: the code was right.
func (g *CodeGuard) Give(addr netip.Addr, at time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	drop := func(ts []time.Time) []time.Time {
		for i := len(ts) - 1; i >= 0; i-- {
			if ts[i].Equal(at) {
				return append(ts[:i], ts[i+1:]...)
			}
		}
		return ts
	}
	g.table = drop(g.table)
	if ts := drop(g.byAddr[addr]); len(ts) == 0 {
		delete(g.byAddr, addr)
	} else {
		g.byAddr[addr] = ts
	}
}

func (g *CodeGuard) prune(now time.Time) {
	g.table = recent(g.table, now, CodeTableWindow)
	for a, ts := range g.byAddr {
		if ts = recent(ts, now, codeWindow); len(ts) == 0 {
			delete(g.byAddr, a)
		} else {
			g.byAddr[a] = ts
		}
	}
}

// sourceOf is the address a stream's connection comes from, as the code
// limits count it: an IPv4 address, or an IPv6 address's /64 (a host
// picks any number of addresses inside its prefix). The zero Addr when
// there is none (an in-memory test network).
func SourceOf(st network.Stream) netip.Addr {
	a, ok := addrOf(st.Conn().RemoteMultiaddr())
	if !ok {
		return netip.Addr{}
	}
	if a.Is6() {
		p, _ := a.Prefix(64)
		a = p.Addr()
	}
	return a
}

// addrOf is a multiaddr's IP address, if it has one.
func addrOf(m ma.Multiaddr) (netip.Addr, bool) {
	ip, err := manet.ToIP(m)
	if err != nil {
		return netip.Addr{}, false
	}
	a, ok := netip.AddrFromSlice(ip)
	return a.Unmap(), ok
}
