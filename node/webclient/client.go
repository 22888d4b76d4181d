package webclient

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/assist"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/record"
	"github.com/bullshit-game/bullshit/node/webwire"
	"github.com/bullshit-game/bullshit/protocol"
)

// The node's timing, which the host holds a player to: heartbeats every
// HeartbeatEvery, a side silent for DeadAfter is gone, a new host may
// take RebuildWait to seat us while it gathers everyone's shares.
var (
	HeartbeatEvery = 500 * time.Millisecond
	DeadAfter      = 2 * time.Second
	RebuildWait    = 30 * time.Second
	// FollowMin and FollowMax bound the backoff between rounds of trying
	// the table's nodes after the host vanished.
	FollowMin = 250 * time.Millisecond
	FollowMax = 4 * time.Second
)

// CodeNotHost is a node's refusal of a phone at a table it doesn't host
// (it is a player there, or knows nothing of it): try the next node.
const CodeNotHost = "not-host"

// Config is how to join.
type Config struct {
	Key  ed25519.PrivateKey // the player's identity: kept by the page, so a reload is the same player
	Nick string
	Code string // the table's join code, "" for none
	// CodeTable is the table Code was for, as Client.Table gave it after
	// it proved the code ("" when not known): a node at the same address
	// that seats us at another table without a code is the host's new
	// table (ErrNewTable), not a node passing itself off as ours.
	CodeTable string
	Watch     bool   // a spectator's place instead of a seat
	Addr      string // the web base URL of the node to join: "http://192.168.1.20:8080"

	// OnChange, if set, is called (from the client's goroutine) after
	// every change; State says what changed. It must not block.
	OnChange func()
	// Sort is how the hand is laid out: assist.SortCalling by default.
	Soonest bool
	// Store, if set, keeps the record across a reload (persist.go): the
	// client writes it there after each message that changed it, or, with
	// DeferSave, when Save is called.
	Store Store
	// DeferSave leaves the record's writes after an update to Save: the
	// page calls it once it has drawn the change, so that the write (the
	// whole record copied, summed and handed to the storage: 0.3–1 ms in
	// a browser, more on a busy phone) is not between the host's message
	// and the screen. The toss's answer is written before it is sent,
	// deferred or not.
	DeferSave bool
	// CheckLater, if set, is called between handing a change to the page
	// (OnChange) and checking the signatures on the journal steps the
	// update brought (the host's on the chain and the seat's on its move,
	// two ed25519 checks a step: about 1 ms in a browser), and returns
	// when they may run. The page returns in a later turn of its event
	// loop, after it drew the change, so the checks are not between the
	// host's message and the screen. They run before the next message is
	// applied, and what they find is flagged for the audit as before.
	CheckLater func()
	// Signer, if set, numbers this client's messages (it must be Key's):
	// a client that joins again while another of the same key is at the
	// table (a rename) shares that one's, so the host, which refuses a
	// number it has seen from the key, takes both clients' messages.
	Signer *protocol.Signer
}

// ErrOldHost is a private table whose host proves join codes the 1.1
// way, which would give the code away to anyone listening: not answered.
var ErrOldHost = gamewire.ErrOldHost

// ErrImpostor is a node that seated us without proving it knew the join
// code: not the table whose code we typed.
var ErrImpostor = errors.New("that table did not prove it knows the join code: it may be an impostor")

// ErrNewTable is the node we had a code for seating us at another table
// that asks for none: its host opened a new, open table. We don't sit
// there unasked: the player joins it afresh.
var ErrNewTable = errors.New("the host has opened a new table since, with no join code: tap Sit down to join it")

// Client is one browser player at one table.
type Client struct {
	cfg    Config
	signer *protocol.Signer
	me     protocol.PeerID
	replay protocol.Replay
	ctx    context.Context
	cancel context.CancelFunc
	closed atomic.Bool
	done   chan struct{} // closed when run returns

	mu       sync.Mutex
	link     *link           // the link to the host, nil while following
	addr     string          // the web address of the node we're at
	host     protocol.PeerID // who hosts
	first    protocol.PeerID // who hosted when we joined
	tid      protocol.TableID
	term     uint64
	seat     int
	status   string // joining, seated, following, closed
	lobby    protocol.Lobby
	set      gamewire.Settings // the lobby's settings, checked
	view     *engine.View
	at       time.Time // when the last update came
	closes   time.Time // when the open window or hand-over closes, on our clock; zero for none
	rec      kept
	tried    bool        // a saved record was looked for (persist.go)
	unsaved  bool        // the record changed since it was last written to Store
	restored int         // events of the record that came back from the store
	toss     record.Toss // our part in the deal's toss
	news     []string
	notice   string
	refusal  string
	reveal   []string
	revealT  time.Time // when the reveal panel goes
	soonest  bool
	sheet    *auditResult
	pile     assist.Pile // the counts this seat knows exactly (V14), as the terminal's
	watched  watched     // a spectator's record of the nonce commitments (record.go)
	dealt    dealt       // who dealt the deal we saw (record.go)
	blind    *blind      // our party in the blind game in play, nil at a clear table (blind.go)
}

// link is one connection to a node.
type link struct {
	c    stream
	r    *bufio.Reader
	wmu  sync.Mutex
	w    *bufio.Writer
	host protocol.PeerID
	gone chan struct{}
	once sync.Once
}

// stream is what a link needs of webwire's channel.
type stream interface {
	Read([]byte) (int, error)
	Write([]byte) (int, error)
	Close() error
	SetReadDeadline(time.Time) error
	SetWriteDeadline(time.Time) error
}

func (l *link) close() {
	l.once.Do(func() {
		close(l.gone)
		l.c.Close()
	})
}

// Signer is what numbers the client's messages, for Config.Signer.
func (c *Client) Signer() *protocol.Signer { return c.signer }

// Join joins the table at cfg.Addr and plays on from there until Close.
// A refusal comes back as a *gamewire.Refused.
func Join(ctx context.Context, cfg Config) (*Client, error) {
	if len(cfg.Key) != ed25519.PrivateKeySize {
		return nil, errors.New("webclient: no key")
	}
	signer := cfg.Signer
	if want, err := protocol.PeerIDOf(cfg.Key); err != nil || signer == nil || signer.ID() != want {
		if signer, err = protocol.NewSigner(cfg.Key, uint64(nowNano())); err != nil {
			return nil, err
		}
	}
	me := signer.ID()
	c := &Client{cfg: cfg, signer: signer, me: me, seat: -1, term: 1, status: "joining", addr: cfg.Addr,
		soonest: cfg.Soonest, done: make(chan struct{})}
	// The journal's steps are taken with c.mu held: the seats' keys are
	// read from the lobby as it stands then.
	c.rec.journal.SeatKey = func(seat int) ed25519.PublicKey { return gamewire.PlayerKey(c.lobby.Players, seat) }
	c.ctx, c.cancel = context.WithCancel(context.Background())
	// The table's term: 1 at a table that never changed hosts; after an
	// election the node refuses term 1 and names its own, which we take
	// (a page opened on the new host knows no term, and a Watch or a
	// Sit down there must not be refused for it).
	l, err := c.join(ctx, cfg.Addr, 1, nil)
	var ref *gamewire.Refused
	if errors.As(err, &ref) && ref.Term > 1 && ref.Code != CodeNotHost && ref.Code != protocol.CodeVersion {
		l, err = c.join(ctx, cfg.Addr, ref.Term, nil)
	}
	if err != nil {
		c.cancel()
		close(c.done)
		return nil, err
	}
	c.mu.Lock()
	c.first = l.host
	c.mu.Unlock()
	go c.run(l)
	return c, nil
}

// run is the client's life: play on a link until it drops, then follow
// the table to the next, until Close.
func (c *Client) run(l *link) {
	defer close(c.done)
	for l != nil {
		c.play(l)
		if c.closed.Load() {
			return
		}
		l = c.follow()
	}
}

// Table is the table's ID, in hex: what Config.CodeTable takes.
func (c *Client) Table() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return hex.EncodeToString(c.tid[:])
}

// Close leaves the table.
func (c *Client) Close() error {
	if c.closed.Swap(true) {
		return nil
	}
	c.send(protocol.Leave{})
	c.mu.Lock()
	l := c.link
	c.status = "closed"
	c.mu.Unlock()
	if l != nil {
		l.close()
	}
	c.cancel()
	<-c.done
	c.changed()
	return nil
}

// wsURL is a node's web address as its /ws endpoint. A node's address is
// a scheme, a host and port, and at most a path (the page's origin, or a
// Lobby's web address, which the host checked): net/url would cost the
// page 20 kB of its download to do this.
func wsURL(addr string) (string, error) {
	scheme, rest, ok := strings.Cut(addr, "://")
	switch strings.ToLower(scheme) {
	case "http", "ws":
		scheme = "ws"
	case "https", "wss":
		scheme = "wss"
	default:
		ok = false
	}
	if !ok || rest == "" || rest[0] == '/' || strings.ContainsAny(rest, "?#\\") ||
		strings.ContainsFunc(rest, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return "", fmt.Errorf("webclient: %q is not a web address", addr)
	}
	return scheme + "://" + strings.TrimSuffix(rest, "/") + "/ws", nil
}

// open dials addr and runs the channel's handshake, with a host ok
// accepts (any when ok is nil).
func (c *Client) open(ctx context.Context, addr string, ok func(protocol.PeerID) bool) (*link, error) {
	u, err := wsURL(addr)
	if err != nil {
		return nil, err
	}
	ws, err := dial(ctx, u)
	if err != nil {
		return nil, err
	}
	wc, err := webwire.Dial(ctx, ws, c.cfg.Key, nil)
	if err != nil {
		ws.CloseNow()
		return nil, err
	}
	host, err := protocol.NewPeerID(wc.Peer())
	if err != nil {
		wc.Close()
		return nil, err
	}
	if ok != nil && !ok(host) {
		wc.Close()
		return nil, errors.New("webclient: that node is not one of the table's")
	}
	return &link{c: wc, r: bufio.NewReader(wc), w: bufio.NewWriter(wc), host: host, gone: make(chan struct{})}, nil
}

// join dials addr, runs the channel's handshake, and says hello for term
// until seated. ok, if set, says which hosts to accept.
func (c *Client) join(ctx context.Context, addr string, term uint64, ok func(protocol.PeerID) bool) (*link, error) {
	l, err := c.open(ctx, addr, ok)
	if err != nil {
		return nil, err
	}
	host := l.host
	fail := func(err error) (*link, error) { l.close(); return nil, err }
	c.mu.Lock()
	tid := c.tid
	c.mu.Unlock()
	hello := protocol.Hello{Version: protocol.Current, Nick: c.cfg.Nick, Watch: c.cfg.Watch, Nonce: make([]byte, protocol.NonceSize)}
	rand.Read(hello.Nonce)
	if err := c.sendOn(l, tid, term, hello); err != nil {
		return fail(err)
	}
	var px *protocol.Pake // the join code exchange, once the host asked for it
	wait := DeadAfter
	if dl, ok := ctx.Deadline(); ok {
		wait = max(wait, time.Until(dl))
	}
	for {
		l.c.SetReadDeadline(time.Now().Add(wait))
		env, err := c.read(l)
		if err != nil {
			return fail(err)
		}
		switch m := env.Msg.(type) {
		case protocol.Challenge:
			if px, err = gamewire.AnswerChallenge(c.cfg.Code, hello, env, string(c.me), string(host)); err != nil {
				return fail(err)
			}
			hello.Share, hello.Proof = px.Share(), px.Confirm()
			if err := c.sendOn(l, tid, term, hello); err != nil {
				return fail(err)
			}
		case protocol.Refusal:
			return fail(gamewire.RefusedBy(env, m))
		case protocol.StateRequest:
			// A new host rebuilding the table: our journal and shares,
			// then its whole rebuild to seat us.
			if err := c.sendOn(l, tid, term, c.stateMsg()); err != nil {
				return fail(err)
			}
			wait = RebuildWait + DeadAfter
		case protocol.Seated:
			// A table we have a code for proves it knows it.
			if c.cfg.Code != "" && (px == nil || !px.Check(m.Proof)) {
				if px == nil && c.cfg.CodeTable != "" && c.cfg.CodeTable != hex.EncodeToString(m.Table[:]) {
					return fail(ErrNewTable)
				}
				return fail(ErrImpostor)
			}
			l.c.SetReadDeadline(time.Time{})
			c.mu.Lock()
			c.link, c.host, c.addr = l, host, addr
			c.seat, c.tid, c.term = m.Seat, m.Table, env.Term
			c.status = "seated"
			c.mu.Unlock()
			return l, nil
		}
	}
}

// read returns the next message from the link's host; anything else
// (another sender, a replay, bytes that don't verify) is ignored.
func (c *Client) read(l *link) (*protocol.Envelope, error) {
	for {
		b, err := gamewire.ReadFrame(l.r)
		if err != nil {
			return nil, err
		}
		env, err := protocol.Open(b, l.host)
		var other *protocol.VersionError
		if errors.As(err, &other) {
			return nil, gamewire.RefusedVersion(other)
		}
		if err != nil {
			continue
		}
		if err := c.replay.Check(env.Sender, env.Term, env.Seq); err != nil {
			continue
		}
		return env, nil
	}
}

func (c *Client) sendOn(l *link, tid protocol.TableID, term uint64, m protocol.Message) error {
	_, err := c.sendSeq(l, tid, term, m)
	return err
}

// sendSeq is sendOn, saying the number the message went under.
func (c *Client) sendSeq(l *link, tid protocol.TableID, term uint64, m protocol.Message) (uint64, error) {
	l.wmu.Lock()
	defer l.wmu.Unlock()
	b, seq, err := c.signer.Seal(tid, term, m)
	if err != nil {
		return 0, err
	}
	l.c.SetWriteDeadline(time.Now().Add(DeadAfter))
	return seq, gamewire.WriteFrame(l.w, b)
}

// send sends m to the host on the current link.
func (c *Client) send(m protocol.Message) error {
	c.mu.Lock()
	l, tid, term := c.link, c.tid, c.term
	c.mu.Unlock()
	if l == nil {
		return protocol.Refuse("", "not connected to the table", "Not connected to the table: reconnecting…")
	}
	return c.sendOn(l, tid, term, m)
}

// play reads the host's messages until the link drops.
func (c *Client) play(l *link) {
	go c.heartbeat(l)
	c.changed()
	for {
		l.c.SetReadDeadline(time.Now().Add(DeadAfter))
		env, err := c.read(l)
		if err != nil {
			l.close()
			return
		}
		if m, ok := env.Msg.(protocol.BlindLog); ok {
			c.playLog(l, env, &m)
			continue
		}
		replies, chain := c.apply(env)
		if !c.cfg.DeferSave {
			c.Save()
		}
		c.answer(l, env, replies)
		c.changed()
		if chain != nil {
			if f := c.cfg.CheckLater; f != nil {
				f()
			}
			c.mu.Lock()
			chain()
			c.mu.Unlock()
		}
	}
}

func (c *Client) heartbeat(l *link) {
	t := time.NewTicker(HeartbeatEvery)
	defer t.Stop()
	for {
		select {
		case <-l.gone:
			return
		case <-t.C:
			c.mu.Lock()
			tid, term := c.tid, c.term
			c.mu.Unlock()
			if c.sendOn(l, tid, term, protocol.Heartbeat{}) != nil {
				l.close()
				return
			}
		}
	}
}

// follow finds the table again after the link dropped: the node we were
// at, then every player node of the last Lobby that says where its web
// entry is, lowest peer ID first (the election's order, so the new host
// is likely the first asked), with backoff between rounds, until one
// seats us again. nil when the client closed or the game is over.
func (c *Client) follow() *link {
	c.mu.Lock()
	c.link = nil
	over := c.view != nil && c.view.Phase == engine.PhaseOver
	if over {
		c.status = "closed"
	} else {
		c.status = "following"
	}
	addrs, members := c.candidates()
	term := c.term
	c.mu.Unlock()
	if over {
		c.say("The host has left the finished game.")
		return nil
	}
	c.say("Lost the host: finding the table…")
	ok := func(id protocol.PeerID) bool { return members[id] }
	pause := FollowMin
	for !c.closed.Load() {
		for _, a := range addrs {
			// The term: the host's own (back after a blip), or the next
			// (elected); a refusal tells the node's, tried once more.
			for _, t := range []uint64{term, term + 1} {
				l, err := c.tryJoin(a, t, ok)
				var ref *gamewire.Refused
				if errors.As(err, &ref) && ref.Term > 0 && ref.Term != t && ref.Code != CodeNotHost {
					l, err = c.tryJoin(a, ref.Term, ok)
				}
				if err == nil {
					c.say("Back at the table.")
					return l
				}
				if c.closed.Load() {
					return nil
				}
				if errors.As(err, &ref) && ref.Code == protocol.CodeVersion {
					c.say(ref.Msg)
					return nil
				}
				if !errors.As(err, &ref) {
					break // nobody there: the next node
				}
			}
		}
		select {
		case <-c.ctx.Done():
			return nil
		case <-time.After(pause):
		}
		pause = min(pause*2, FollowMax)
	}
	return nil
}

func (c *Client) tryJoin(addr string, term uint64, ok func(protocol.PeerID) bool) (*link, error) {
	ctx, cancel := context.WithTimeout(c.ctx, DeadAfter)
	defer cancel()
	return c.join(ctx, addr, term, ok)
}

// candidates are where the table may be now (the node we were at first),
// and which hosts to believe: the first host, or a player node of the
// last Lobby. A phone's seat never hosts. Called with mu held.
func (c *Client) candidates() ([]string, map[protocol.PeerID]bool) {
	members := map[protocol.PeerID]bool{c.host: true, c.first: true}
	type cand struct {
		id   protocol.PeerID
		addr string
	}
	var cs []cand
	for _, p := range c.lobby.Players {
		if p.Peer == "" || p.Bot != "" || p.Web {
			continue
		}
		members[p.Peer] = true
		if p.WebAddr != "" {
			cs = append(cs, cand{p.Peer, p.WebAddr})
		}
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].id < cs[j].id })
	out := []string{c.addr}
	seen := map[string]bool{c.addr: true}
	for _, x := range cs {
		if !seen[x.addr] {
			seen[x.addr] = true
			out = append(out, x.addr)
		}
	}
	return out, members
}

// stateMsg is our part for a new host: the journal we hold and our shares.
func (c *Client) stateMsg() protocol.State {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := protocol.State{Steps: append([]protocol.Step(nil), c.rec.journal.Steps...)}
	for _, sh := range c.rec.shares {
		st.Shares = append(st.Shares, sh)
	}
	sort.Slice(st.Shares, func(i, j int) bool { return st.Shares[i].Step < st.Shares[j].Step })
	return st
}

// say puts a line in the news.
func (c *Client) say(text string) {
	c.mu.Lock()
	c.addNews(text)
	c.notice = text
	c.mu.Unlock()
	c.changed()
}

func (c *Client) changed() {
	if f := c.cfg.OnChange; f != nil {
		f()
	}
}
