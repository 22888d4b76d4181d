package flood

// The floods. Each runs until its context ends, then cleans up after
// itself and says what it offered and what the host answered (a tally).

import (
	"bufio"
	"cmp"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/coder/websocket"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"

	"github.com/bullshit-game/bullshit/node"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/guard"
	"github.com/bullshit-game/bullshit/node/rogue"
	"github.com/bullshit-game/bullshit/node/webwire"
	"github.com/bullshit-game/bullshit/node/webwire/coderws"
	"github.com/bullshit-game/bullshit/protocol"
)

// Who throws a flood.
const (
	Seated   = "seated rogue" // a player at the table, on its seat's stream
	Stranger = "stranger"     // anyone on the LAN, from many addresses
)

// A Kind is a flood.
type Kind struct {
	Name string
	Who  string
	What string
	// prep readies the flood (the strangers' own nodes, say) before it is
	// measured; the flood runs until its context ends.
	prep func(ctx context.Context, e *env) (flood, error)
}

// A flood runs until ctx ends, then cleans up after itself.
type flood func(ctx context.Context) *tally

// Kinds are the floods, in the order Run throws them.
var Kinds = []Kind{
	{"garbage", Seated, "frames that aren't envelopes", seated("garbage")},
	{"oversize", Stranger, "a frame's length over the 64 KiB limit, on a fresh stream each", oversize},
	{"first-state", Stranger, "a 64 KiB State as the first frame, before any hello, on a fresh stream each", firstState},
	{"big", Seated, "60 KiB envelopes of a host's message, that decode to megabytes", seated(rogue.Big)},
	{"forged-signature", Seated, "envelopes whose signature is wrong, each numbered anew", seated("forged-signature")},
	{"replay", Seated, "one of its own moves again and again", seated("replay")},
	{"other-table", Seated, "envelopes for another table", seated("other-table")},
	{"other-term", Seated, "envelopes for a term the table isn't at", seated("future-term")},
	{"connect", Stranger, "libp2p connections opened and closed, each through the handshake", connectFlood},
	{"slowloris", Stranger, "half-open TCP connections, a byte every second", slowloris},
	{"spectators", Stranger, "fresh identities asking to watch, again when refused", spectators},
	{"web", Stranger, "/ws opened, through webwire's handshake, then a frame that isn't an envelope", webFlood},
}

// env is what a flood has to work with.
type env struct {
	at    peer.AddrInfo // the host's game
	web   string        // its web entry's base URL ("" for none)
	rg    *seat
	cfg   Config
	addrs []net.IP     // the strangers' addresses, the flood's own
	open  atomic.Int64 // the slowloris's half-open connections, open now
}

// tally is what a flood offered and how the host answered it.
type tally struct {
	sent    int            // frames, streams, connections or opens tried
	refused int            // refused for the right reason
	wrong   []string       // refused for another (a few)
	held    int            // got in and stayed: spectators placed, half-open connections the host still had at the end
	by      map[string]int // every outcome, counted
	err     error          // the flood could not run
}

func newTally() *tally { return &tally{by: map[string]int{}} }

func (t *tally) note(outcome string) {
	t.by[outcome]++
}

func (t *tally) misread(s string) {
	if len(t.wrong) < 3 {
		t.wrong = append(t.wrong, s)
	}
}

// safe is a tally many goroutines add to.
type safe struct {
	mu sync.Mutex
	t  *tally
}

func (s *safe) add(f func(t *tally)) {
	s.mu.Lock()
	f(s.t)
	s.mu.Unlock()
}

// tick is how often a flood writes its next batch.
const tick = 5 * time.Millisecond

// ---- the seated rogue's floods ----

// seat is the rogue at the table: a player on a host of its own, at an
// address of its own, playing its seat between floods (rogue.Play).
type seat struct {
	*rogue.Rogue
	h  host.Host
	at peer.AddrInfo
}

// hello is the rogue's. It answers the deal's toss by the book
// (rogue.Rogue), like every 2.0 seat.
var hello = protocol.Hello{Version: protocol.Current, Nick: "rogue", Nonce: make([]byte, protocol.NonceSize)}

func (s *seat) connect(ctx context.Context) error {
	return s.Connect(ctx, s.h, s.at, node.ProtocolID, hello)
}

// seated is a flood of the rogue's frames of kind (rogue.Frame's) on its
// seat's stream, offered at cfg.Rate a second. The host reads them no
// faster than the connection's budget; what is still queued at the end is
// dropped with the stream, and the rogue takes its seat back.
func seated(kind string) func(context.Context, *env) (flood, error) {
	return func(_ context.Context, e *env) (flood, error) {
		rg := e.rg
		if kind == "replay" && rg.LastMove() == nil {
			// Nothing of its own to replay yet: a heartbeat, then.
			if err := rg.Write("", rg.Sealed(protocol.Heartbeat{})); err != nil {
				return nil, err
			}
		}
		return func(ctx context.Context) *tally { return seatedFlood(ctx, e, kind) }, nil
	}
}

func seatedFlood(ctx context.Context, e *env, kind string) *tally {
	t := newTally()
	rg := e.rg
	before, _ := rg.Counts()
	cache := map[string][]byte{}
	perTick := max(1, int(e.cfg.Rate*tick.Seconds()))
	done := make(chan error, 1)
	go func() {
		next := time.Now()
		for ctx.Err() == nil {
			err := rg.Writes(func(write func(string, rogue.Maker) error) error {
				for range perTick {
					if err := write(kind, rg.Cached(cache, kind)); err != nil {
						return err
					}
					t.sent++
				}
				return nil
			})
			if err != nil {
				done <- err
				return
			}
			next = next.Add(tick)
			time.Sleep(time.Until(next))
		}
		done <- nil
	}()
	<-ctx.Done()
	// The write may be held by the host's budget: the reset frees it.
	lost := rg.Lost()
	rg.Reset()
	if err := <-done; err != nil && ctx.Err() == nil {
		t.err = err
	}
	<-lost
	after, wrong := rg.Counts()
	t.refused = after[kind] - before[kind]
	t.wrong = wrong[kind]
	t.by["refused rightly"] = t.refused
	t.by["unread when the stream was reset"] = t.sent - t.refused - len(t.wrong)
	if err := rejoin(e); err != nil && t.err == nil {
		t.err = fmt.Errorf("the rogue could not take its seat back: %w", err)
	}
	return t
}

// rejoin takes the rogue's seat back after its stream ended. Its address
// opens the game's stream once a second after a burst of ten
// (guard.StreamsPerAddr): past the burst, it waits its turn.
func rejoin(e *env) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		err := e.rg.connect(ctx)
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// ---- strangers ----

// nodes are strangers' libp2p nodes, n at each of the flood's addresses,
// as any program on the LAN can run: each listens there and dials from
// there (on a LAN the routes would pick the interface's first address for
// them all).
type nodes struct {
	hosts []host.Host
	keys  []crypto.PrivKey
}

func newNodes(ctx context.Context, e *env, n int) (*nodes, error) {
	ns := &nodes{}
	for _, a := range e.addrs {
		for range n {
			k, _, err := crypto.GenerateEd25519Key(rand.Reader)
			if err != nil {
				ns.close()
				return nil, err
			}
			h, err := node.NewHost(ctx, node.HostConfig{Key: k, Listen: []ma.Multiaddr{ma.StringCast(fmt.Sprintf("/ip4/%s/tcp/0", a))}, DialFrom: a})
			if err != nil {
				ns.close()
				return nil, err
			}
			ns.hosts, ns.keys = append(ns.hosts, h), append(ns.keys, k)
		}
	}
	return ns, nil
}

func (ns *nodes) close() {
	for _, h := range ns.hosts {
		h.Close()
	}
}

// againNow has h dial p again at once after a refused dial, without
// libp2p's backoff: a flooder doesn't back off.
func againNow(h host.Host, p peer.ID) {
	if sw, ok := h.Network().(*swarm.Swarm); ok {
		sw.Backoff().Clear(p)
	}
}

// strangers runs each(ctx, i, s) in n goroutines until ctx ends and waits
// for them; each goroutine's attempts are at least gap apart.
func strangers(ctx context.Context, n int, gap time.Duration, each func(ctx context.Context, i int, s *safe)) *tally {
	s := &safe{t: newTally()}
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			for ctx.Err() == nil {
				next := time.Now().Add(gap)
				each(ctx, i, s)
				select {
				case <-ctx.Done():
				case <-time.After(time.Until(next)):
				}
			}
		})
	}
	wg.Wait()
	return s.t
}

// oversize: strangers, two at each address, open the game's stream and
// send a frame's length over the limit, and nothing else. The host refuses
// it from the length (one signed refusal) and hangs up; past an address's
// budget of stream opens (guard.StreamsPerAddr) it resets the stream
// unread.
func oversize(ctx context.Context, e *env) (flood, error) {
	ns, err := newNodes(ctx, e, 2)
	if err != nil {
		return nil, err
	}
	at := e.at
	return func(ctx context.Context) *tally {
		defer ns.close()
		return strangers(ctx, len(ns.hosts), 10*time.Millisecond, func(ctx context.Context, i int, s *safe) {
			st, done := openGame(ctx, ns.hosts[i], at, s)
			if st == nil {
				return
			}
			defer done()
			var n [binary.MaxVarintLen64]byte
			_, werr := st.Write(n[:binary.PutUvarint(n[:], protocol.MaxSize+1)])
			m, rerr := readRefusal(bufio.NewReader(st))
			tallyAnswer(ctx, s, m, rerr, werr, rogue.RefusedRightly(rogue.Oversize, m), "refused: over the size limit")
		})
	}, nil
}

// FirstState is a State body of about size bytes whose Steps array claims
// as many steps as it has bytes left and holds none (issue 21's item 8):
// a decoder that believed the header made 150 bytes of Go values for
// each byte, ten megabytes for a frame.
func FirstState(size int) []byte {
	const head = 9 // [Term, No, Data, Steps: array32 header
	b := make([]byte, size)
	copy(b, []byte{0x95, 0x01, 0x00, 0xc0, 0xdd})
	binary.BigEndian.PutUint32(b[5:head], uint32(size-head))
	for i := head; i < size; i++ {
		b[i] = 0xc0
	}
	return b
}

// firstState: strangers, two at each address, open the game's stream and
// send a signed 64 KiB State (FirstState) as their first frame, for the
// table's term, with no hello. The host answers "Say hello first." and
// hangs up; past an address's budget of stream opens it resets the stream
// unread. What it must not do is decode the body first.
func firstState(ctx context.Context, e *env) (flood, error) {
	ns, err := newNodes(ctx, e, 2)
	if err != nil {
		return nil, err
	}
	body := FirstState(protocol.MaxSize - 256)
	at := e.at
	return func(ctx context.Context) *tally {
		defer ns.close()
		return strangers(ctx, len(ns.hosts), 10*time.Millisecond, func(ctx context.Context, i int, s *safe) {
			raw, _ := ns.keys[i].Raw()
			st, done := openGame(ctx, ns.hosts[i], at, s)
			if st == nil {
				return
			}
			defer done()
			frame, err := rogue.SealRaw(ed25519.PrivateKey(raw), protocol.TableID{}, 1, uint64(time.Now().UnixNano()), protocol.TypeState, body)
			var werr error
			if err == nil {
				w := bufio.NewWriter(st)
				var n [binary.MaxVarintLen64]byte
				w.Write(n[:binary.PutUvarint(n[:], uint64(len(frame)))])
				w.Write(frame)
				werr = w.Flush()
			}
			m, rerr := readRefusal(bufio.NewReader(st))
			tallyAnswer(ctx, s, m, rerr, werr, strings.Contains(m.Message, "Say hello first"), "refused: say hello first")
		})
	}, nil
}

// tallyAnswer tallies a stranger's frame by the host's answer: m read
// (rerr nil) and rightly a refusal, noted as why; another answer; the
// stream reset unread (on the write, werr, or the read); or no answer,
// noted while the flood still runs.
func tallyAnswer(ctx context.Context, s *safe, m protocol.Refusal, rerr, werr error, rightly bool, why string) {
	s.add(func(t *tally) {
		t.sent++
		switch {
		case rerr == nil && rightly:
			t.refused++
			t.note(why)
		case rerr == nil:
			t.misread(m.Code + ": " + m.Message)
		case cmp.Or(resetUnread(rerr), resetUnread(werr)) != "":
			t.refused++
			t.note(cmp.Or(resetUnread(rerr), resetUnread(werr)))
		case ctx.Err() == nil:
			t.note("no answer: " + short(rerr))
		}
	})
}

// readRefusal reads the host's first frame, a refusal.
func readRefusal(br *bufio.Reader) (protocol.Refusal, error) {
	b, err := rogue.ReadFrame(br)
	if err != nil {
		return protocol.Refusal{}, err
	}
	m, _, err := rogue.Split(b)
	if err != nil {
		return protocol.Refusal{}, err
	}
	r, ok := m.(protocol.Refusal)
	if !ok {
		return protocol.Refusal{}, fmt.Errorf("a %s, not a refusal", m.Type())
	}
	return r, nil
}

// resetUnread says why the host reset a stream before reading a byte of
// it, "" if it didn't: the address opened streams too fast, of any
// protocol (guard.StreamsInPerAddr, before the protocol is negotiated) or
// the game's (guard.StreamsPerAddr, at the game's handler).
func resetUnread(err error) string {
	var se *network.StreamError
	switch {
	case !errors.As(err, &se):
		return ""
	case se.ErrorCode == network.StreamResourceLimitExceeded:
		return "reset as it opened: too many streams from the address"
	case se.ErrorCode == network.StreamRateLimited:
		return "reset at the game's door: too many game streams from the address"
	}
	return ""
}

// short is an error in a few words, for counting outcomes.
func short(err error) string {
	s := err.Error()
	if i := strings.LastIndex(s, ": "); i >= 0 {
		s = s[i+2:]
	}
	if len(s) > 60 {
		s = s[:60]
	}
	return s
}

// connectFlood: a stranger at each address connects (TCP, the security
// handshake, the muxer) and hangs up, again and again. Past an address's
// burst the host turns a connection away before the handshake
// (node/guard/budget.go: ConnRate, ConnsPerAddr).
func connectFlood(ctx context.Context, e *env) (flood, error) {
	ns, err := newNodes(ctx, e, 1)
	if err != nil {
		return nil, err
	}
	at := e.at
	return func(ctx context.Context) *tally {
		defer ns.close()
		return strangers(ctx, len(ns.hosts), 20*time.Millisecond, func(ctx context.Context, i int, s *safe) {
			h := ns.hosts[i]
			againNow(h, at.ID)
			cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			err := h.Connect(cctx, at)
			cancel()
			h.Network().ClosePeer(at.ID)
			if ctx.Err() != nil {
				return
			}
			s.add(func(t *tally) {
				t.sent++
				if err != nil {
					t.refused++
					t.note("turned away")
				} else {
					t.note("connected")
				}
			})
		})
	}, nil
}

// slowloris: strangers hold TCP connections open without finishing the
// handshake, a byte a second, twice as many an address as the host lets
// one address hold (guard.ConnsPerAddr); each is opened again as soon as
// the host closes it (guard.HandshakeTimeout).
func slowloris(_ context.Context, e *env) (flood, error) {
	target := ""
	for _, a := range e.at.Addrs {
		if na, err := manet.ToNetAddr(a); err == nil {
			target = na.String()
			break
		}
	}
	if target == "" {
		return nil, errors.New("the host has no TCP address")
	}
	per := 2 * guard.ConnsPerAddr
	addrs := e.addrs
	return func(ctx context.Context) *tally {
		t := strangers(ctx, per*len(addrs), 50*time.Millisecond, func(ctx context.Context, i int, s *safe) {
			d := net.Dialer{LocalAddr: &net.TCPAddr{IP: addrs[i/per]}, Timeout: 5 * time.Second}
			c, err := d.DialContext(ctx, "tcp", target)
			if err != nil {
				if ctx.Err() == nil {
					s.add(func(t *tally) { t.sent++; t.note("not connected: " + short(err)) })
				}
				return
			}
			defer c.Close()
			e.open.Add(1)
			opened := time.Now()
			closed := make(chan struct{})
			go func() { io.Copy(io.Discard, c); close(closed) }()
			byHost := false
		trickle:
			for {
				select {
				case <-ctx.Done():
					break trickle
				case <-closed:
					byHost = true
					break trickle
				case <-time.After(time.Second):
					c.Write([]byte{0x13}) // multistream's length, a byte at a time
				}
			}
			e.open.Add(-1)
			held := time.Since(opened)
			s.add(func(t *tally) {
				t.sent++
				switch {
				case byHost && held < 500*time.Millisecond:
					t.refused++
					t.note("closed by the host at once")
				case byHost:
					t.refused++
					t.note("closed by the host mid-handshake")
				default:
					t.held++
					t.note("still open at the end")
				}
			})
		})
		return t
	}, nil
}

// spectators: fresh identities, twice as many as the table takes
// (node.MaxWatchers) where the addresses hold them (guard.ConnsPerAddr) and
// at least two at each address, ask to watch; those
// refused ask again, those given a place keep it and read what the host
// sends them, until the host hangs up on them (then they ask again). Held
// is the most that held a place at once, as they saw it.
func spectators(ctx context.Context, e *env) (flood, error) {
	per := min(max(2, (2*node.MaxWatchers+len(e.addrs)-1)/len(e.addrs)), guard.ConnsPerAddr)
	ns, err := newNodes(ctx, e, per)
	if err != nil {
		return nil, err
	}
	at := e.at
	return func(ctx context.Context) *tally {
		defer ns.close()
		var mu sync.Mutex
		placed, most := 0, 0
		t := strangers(ctx, len(ns.hosts), 100*time.Millisecond, func(ctx context.Context, i int, s *safe) {
			h := ns.hosts[i]
			againNow(h, at.ID)
			cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			r, err := node.Dial(cctx, h, ns.keys[i], at, fmt.Sprintf("w%d", i), "", true, nil)
			cancel()
			if err == nil && ctx.Err() != nil {
				// Placed as the flood ended, in a place one of its own left:
				// not a place the host gave the flood.
				r.Close()
				return
			}
			if err == nil {
				mu.Lock()
				placed++
				most = max(most, placed)
				mu.Unlock()
				s.add(func(t *tally) { t.sent++; t.note("given a place") })
				gone := lostHost(h, at.ID)
				defer gone.stop()
				go func() {
					for range r.Updates() {
					}
				}()
				// Kept until the flood ends, or until the host drops it
				// (a spectator slow to answer, on a loaded machine): then
				// its place is the host's to give again, and it asks anew.
				select {
				case <-ctx.Done():
				case <-gone.c:
					s.add(func(t *tally) { t.note("lost its place: the host hung up") })
				}
				r.Close()
				mu.Lock()
				placed--
				mu.Unlock()
				return
			}
			if ctx.Err() != nil {
				return
			}
			var ref *gamewire.Refused
			s.add(func(t *tally) {
				t.sent++
				switch {
				case errors.As(err, &ref) && ref.Msg == protocol.Sentence(node.ErrNoRoom):
					t.refused++
					t.note("refused: the table has all the spectators it can take")
				case errors.As(err, &ref):
					t.misread(ref.Code + ": " + ref.Msg)
				case resetUnread(err) != "":
					t.refused++
					t.note(resetUnread(err))
				default:
					t.refused++ // the host's connection limits, before a word
					t.note("turned away: " + short(err))
				}
			})
		})
		t.held = most
		return t
	}, nil
}

// hungUp's c is closed when a node's last connection to a peer closes.
type hungUp struct {
	c    chan struct{}
	n    network.Network
	bund *network.NotifyBundle
}

// lostHost watches h's connections to p: a place p gave h lasts as long
// as they do.
func lostHost(h host.Host, p peer.ID) *hungUp {
	g := &hungUp{c: make(chan struct{}), n: h.Network()}
	var once sync.Once
	check := func(n network.Network) {
		if n.Connectedness(p) != network.Connected {
			once.Do(func() { close(g.c) })
		}
	}
	g.bund = &network.NotifyBundle{DisconnectedF: func(n network.Network, c network.Conn) {
		if c.RemotePeer() == p {
			check(n)
		}
	}}
	g.n.Notify(g.bund)
	check(g.n) // gone before it was watched
	return g
}

func (g *hungUp) stop() { g.n.StopNotify(g.bund) }

// closedUnread says the entry closed the connection without a word
// (node.WebDialsPerAddr).
func closedUnread(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		strings.Contains(err.Error(), "server closed idle connection") // net/http's word for it

}

// The web entry's refusals at the door (node/web.go).
var doorTexts = []string{
	"Too many connections from your address: wait a moment.",
	"Too many connections from your address at once.",
	"This table has all the connections it can take.",
}

// webFlood: strangers, two at each address, open /ws, run webwire's
// handshake with a fresh key each time, and send a frame that isn't an
// envelope; past an address's budget the door refuses the open (429)
// before the handshake, and past its budget of connections it closes one
// as it accepts it, before reading the request (node.WebDialsPerAddr).
func webFlood(_ context.Context, e *env) (flood, error) {
	if e.web == "" {
		return nil, errors.New("the host has no web entry")
	}
	u := "ws" + strings.TrimPrefix(e.web, "http") + "/ws"
	const per = 2
	var clients []*http.Client
	for _, a := range e.addrs {
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: a}, Timeout: 5 * time.Second}
		c := &http.Client{Transport: &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true}}
		for range per {
			clients = append(clients, c)
		}
	}
	return func(ctx context.Context) *tally {
		return strangers(ctx, len(clients), 20*time.Millisecond, func(ctx context.Context, i int, s *safe) {
			cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			ws, resp, err := websocket.Dial(cctx, u, &websocket.DialOptions{HTTPClient: clients[i]})
			if err != nil {
				if ctx.Err() == nil {
					s.add(func(t *tally) { doorAnswer(t, resp, err) })
				}
				return
			}
			defer ws.CloseNow()
			webGarbage(ctx, cctx, ws, s)
		})
	}, nil
}

// doorAnswer counts a /ws dial the web door didn't let through: answered
// 429 for the address (as it should), closed as accepted, or not opened.
func doorAnswer(t *tally, resp *http.Response, err error) {
	text := ""
	if resp != nil && resp.Body != nil {
		b, _ := io.ReadAll(resp.Body)
		text = strings.TrimSpace(string(b))
	}
	t.sent++
	switch {
	case resp != nil && resp.StatusCode == http.StatusTooManyRequests && slices.Contains(doorTexts, text):
		t.refused++
		t.note("refused at the door: " + text)
	case resp != nil:
		t.misread(fmt.Sprintf("%d %s", resp.StatusCode, text))
	case closedUnread(err):
		t.refused++
		t.note("closed as accepted: too many connections from the address")
	default:
		t.note("not opened: " + short(err))
	}
}

// webGarbage is a stranger through the door: the webwire handshake with a
// fresh key, then a frame that isn't an envelope, which must be refused
// for it. ctx is the flood's, cctx this attempt's.
func webGarbage(ctx, cctx context.Context, ws *websocket.Conn, s *safe) {
	_, key, _ := ed25519.GenerateKey(rand.Reader)
	conn, err := webwire.Dial(cctx, coderws.New(ws), key, nil)
	if err != nil {
		if ctx.Err() == nil {
			s.add(func(t *tally) { t.sent++; t.note("handshake failed: " + short(err)) })
		}
		return
	}
	defer conn.Reset()
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	garbage := []byte{0x92, 0xff, 0x00}
	w := bufio.NewWriter(conn)
	var n [binary.MaxVarintLen64]byte
	w.Write(n[:binary.PutUvarint(n[:], uint64(len(garbage)))])
	w.Write(garbage)
	werr := w.Flush()
	m, rerr := readRefusal(bufio.NewReader(conn))
	if ctx.Err() != nil && rerr != nil {
		return
	}
	s.add(func(t *tally) {
		t.sent++
		switch {
		case werr == nil && rerr == nil && rogue.RefusedRightly("garbage", m):
			t.refused++
			t.note("refused after the handshake: not an envelope")
		case rerr == nil:
			t.misread(m.Code + ": " + m.Message)
		default:
			t.note("no answer: " + short(rerr))
		}
	})
}

// openGame connects stranger h to the host at and opens a game stream,
// with five seconds for all of it; a stream that doesn't open is tallied
// as sent and noted. done resets the stream and frees the timer.
func openGame(ctx context.Context, h host.Host, at peer.AddrInfo, s *safe) (st network.Stream, done func()) {
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	againNow(h, at.ID)
	h.Connect(cctx, at)
	st, err := h.NewStream(cctx, at.ID, node.ProtocolID)
	if err != nil {
		cancel()
		if ctx.Err() == nil {
			s.add(func(t *tally) { t.sent++; t.note("stream not opened: " + short(err)) })
		}
		return nil, nil
	}
	st.SetDeadline(time.Now().Add(5 * time.Second))
	return st, func() { st.Reset(); cancel() }
}
