package webclient

// A fake host for the browser client's tests: the node's wire (webwire,
// frames, signed envelopes) in front of a plain engine game, seat 0 the
// phone and seat 1 played by the host itself (it passes every call and
// puts down its first card). It can lie: rewrite a backlog, reveal another
// seed, refuse as a node that doesn't host, ask for the phone's state as a
// newly elected host.

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/webwire"
	"github.com/bullshit-game/bullshit/node/webwire/coderws"
	"github.com/bullshit-game/bullshit/protocol"
)

type fakeHost struct {
	t      *testing.T
	key    ed25519.PrivateKey
	id     protocol.PeerID
	signer *protocol.Signer
	srv    *httptest.Server
	tid    protocol.TableID

	mu       sync.Mutex
	code     string           // a join code to ask for
	lie      bool             // seat the joiner with a wrong confirmation, as an impostor would
	refuse   string           // refuse every joiner with this code
	old      protocol.Version // speak this other major: refuse every joiner in an envelope of its
	askState bool             // ask for the joiner's state first, as a new host
	term     uint64
	settings protocol.Settings
	phone    protocol.Player
	players  []protocol.Player // seat 1 and on; seat 0 is the phone's
	seed     uint64
	salt     [gamewire.SaltSize]byte
	revealed uint64 // the seed the reveal names (a cheat when not seed)
	g        *engine.Game
	cfg      engine.Config
	now      time.Duration
	steps    []engine.Step
	sent     []engine.Event // what seat 0 was sent
	joins    int
	conn     *hostConn
	states   chan protocol.State
	// backlog, when set, is what the host says it sent on a rejoin.
	backlog func([]engine.Event) []engine.Event
	// shown, when set, is what the host shows the phone live instead of
	// the events it records as sent: a lie told once, and denied later.
	shown func([]engine.Event) []engine.Event
	// chain signs each step sent, as a host of protocol 1.5 on does; the
	// step numbered forge (from 0) goes with a forged signature. head is
	// the chain's hash so far.
	chain bool
	forge int
	head  [32]byte
	// nonces and commits are the deal's toss with the phone.
	nonces  [][gamewire.NonceSize]byte
	commits [][32]byte
}

type hostConn struct {
	c   *webwire.Conn
	r   *bufio.Reader
	wmu sync.Mutex
	w   *bufio.Writer
}

func newFakeHost(t *testing.T, seed uint64) *fakeHost {
	if runtime.GOOS == "js" {
		// Under node the client dials through JavaScript's WebSocket, which
		// neither exists in node 20 nor reaches Go's in-process network.
		t.Skip("the fake host is reached over a real WebSocket: native only")
	}
	_, key, _ := ed25519.GenerateKey(rand.Reader)
	signer, err := protocol.NewSigner(key, 1)
	if err != nil {
		t.Fatal(err)
	}
	id := signer.ID()
	h := &fakeHost{t: t, key: key, id: id, signer: signer, term: 1, seed: seed, revealed: seed,
		tid: protocol.TableID{1, 2, 3, 4, 5, 6, 7, 8}, states: make(chan protocol.State, 4),
		settings: gamewire.WireSettings(gamewire.Settings{Name: "Kitchen", Rules: engine.Standard(), Seats: 2, Reveal: 50 * time.Millisecond}),
		players:  []protocol.Player{{Seat: 1, Nick: "Ben", Bot: "medium", Connected: true}}}
	rand.Read(h.salt[:])
	h.srv = httptest.NewServer(http.HandlerFunc(h.serveWS))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *fakeHost) addr() string { return h.srv.URL }

func (h *fakeHost) serveWS(w http.ResponseWriter, r *http.Request) {
	ws, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	ctx := r.Context()
	wc, err := webwire.Accept(ctx, coderws.New(ws), h.key)
	if err != nil {
		return
	}
	defer wc.Close()
	phone, err := protocol.NewPeerID(wc.Peer())
	if err != nil {
		return
	}
	hc := &hostConn{c: wc, r: bufio.NewReader(wc), w: bufio.NewWriter(wc)}
	// read is the next message, nil for one refused (the wrong term).
	read := func() (protocol.Message, error) {
		b, err := gamewire.ReadFrame(hc.r)
		if err != nil {
			return nil, err
		}
		env, err := protocol.Open(b, phone)
		if err != nil {
			return nil, err
		}
		h.mu.Lock()
		defer h.mu.Unlock()
		if env.Term != h.term {
			h.sendLocked(hc, protocol.Refusal{Code: protocol.CodeBadCommand, Message: "wrong term"})
			return nil, nil
		}
		return env.Msg, nil
	}
	msg := func() protocol.Message { m, _ := read(); return m }
	hello, ok := msg().(protocol.Hello)
	if !ok {
		return
	}
	h.mu.Lock()
	code, refuse, ask, lie := h.code, h.refuse, h.askState, h.lie
	h.mu.Unlock()
	if h.old != 0 {
		// As a host of another major answers an envelope it can't open.
		b, _, _ := h.signer.SealRefusal(h.old, h.tid, h.term, protocol.Refusal{Code: protocol.CodeBadCommand, Message: "Refused"})
		gamewire.WriteFrame(hc.w, b)
		return
	}
	if refuse != "" {
		h.send(hc, protocol.Refusal{Code: refuse, Message: "Not hosting that table."})
		return
	}
	var confirm []byte
	if code != "" {
		nonce, secret := make([]byte, protocol.NonceSize), make([]byte, protocol.SecretSize)
		rand.Read(nonce)
		rand.Read(secret)
		px, err := protocol.NewPake(protocol.Hosting, code, protocol.PakeContext{Joiner: string(phone), Host: string(h.id),
			Table: h.tid, JoinerNonce: hello.Nonce, HostNonce: nonce}, secret)
		if err != nil {
			h.send(hc, protocol.Refusal{Code: protocol.CodeVersion, Message: "This table needs a newer version of the game."})
			return
		}
		h.send(hc, protocol.Challenge{Nonce: nonce, Share: px.Share()})
		again, ok := msg().(protocol.Hello)
		if !ok || px.Meet(again.Share) != nil || !px.Check(again.Proof) {
			h.send(hc, protocol.Refusal{Code: protocol.CodeBadCode, Message: "That join code is wrong."})
			return
		}
		confirm = px.Confirm()
		if lie {
			confirm[0] ^= 1
		}
	}
	if ask {
		h.send(hc, protocol.StateRequest{})
		st, ok := msg().(protocol.State)
		if !ok {
			return
		}
		h.states <- st
	}
	h.mu.Lock()
	h.conn = hc
	h.joins++
	h.phone = protocol.Player{Seat: 0, Nick: hello.Nick, Peer: phone, Connected: true, Web: true}
	h.sendLocked(hc, protocol.Seated{Seat: 0, Nick: hello.Nick, Table: h.tid, Proof: confirm})
	if h.g == nil {
		// The deal's toss with the phone, as a host of 1.4 on runs it:
		// a deal without its nonce doesn't verify.
		h.mu.Unlock()
		nonces, ok := h.toss(hc, msg)
		h.mu.Lock()
		if !ok {
			h.mu.Unlock()
			return
		}
		h.nonces = nonces
		h.settings.Seats = 1 + len(h.players)
		h.cfg = engine.Config{Rules: gamewire.Rules(h.settings), Seats: h.settings.Seats, Seed: gamewire.DealSeed(h.seed, h.salt, nonces)}
		g, evs, err := engine.New(h.cfg)
		if err != nil {
			h.mu.Unlock()
			h.t.Error(err)
			return
		}
		h.g = g
		h.sendLocked(hc, h.lobby())
		h.changed(evs, false)
		h.bot()
	} else {
		h.sendLocked(hc, h.lobby())
		evs := slices.Clone(h.sent)
		if h.backlog != nil {
			evs = h.backlog(evs)
		}
		h.sendLocked(hc, protocol.Update{View: gamewire.WireView(ptr(h.g.View(0))), Events: wireEvents(evs), Backlog: true})
	}
	h.mu.Unlock()
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-time.After(HeartbeatEvery):
			}
			h.send(hc, protocol.Heartbeat{})
		}
	}()
	for {
		m, err := read()
		if err != nil {
			return
		}
		if _, ok := m.(protocol.Heartbeat); ok {
			continue
		}
		cmd, seat, ok := gamewire.EngMove(m)
		if !ok || seat != 0 {
			continue
		}
		cmd.Seat = 0
		h.apply(cmd)
	}
}

// toss runs the deal's toss with the phone in seat 0: its nonces, one a
// seat, or false if the phone didn't play its part.
func (h *fakeHost) toss(hc *hostConn, msg func() protocol.Message) ([][gamewire.NonceSize]byte, bool) {
	round := gamewire.Commit(h.seed, h.salt)
	next := func() protocol.Message {
		for {
			m := msg()
			if _, beat := m.(protocol.Heartbeat); !beat {
				return m
			}
		}
	}
	h.send(hc, protocol.Toss{Round: round})
	c, ok := next().(protocol.NonceCommit)
	if !ok || c.Round != round {
		return nil, false
	}
	commits := make([][32]byte, 1+len(h.players))
	nonces := make([][gamewire.NonceSize]byte, len(commits))
	commits[0] = c.Hash
	for i, p := range h.players {
		// The other player nodes' parts, honest.
		if p.Peer != "" && p.Bot == "" {
			rand.Read(nonces[i+1][:])
			commits[i+1] = gamewire.NonceHash(round, i+1, nonces[i+1])
		}
	}
	h.send(hc, protocol.Toss{Round: round, Commits: commits})
	r, ok := next().(protocol.NonceReveal)
	if !ok || !gamewire.CheckNonce(c.Hash, round, 0, r.Nonce) {
		return nil, false
	}
	h.mu.Lock()
	h.commits = commits
	h.mu.Unlock()
	nonces[0] = r.Nonce
	return nonces, true
}

func ptr[T any](v T) *T { return &v }

func wireEvents(evs []engine.Event) []protocol.Event {
	out := make([]protocol.Event, len(evs))
	for i := range evs {
		out[i] = gamewire.WireEvent(&evs[i])
	}
	return out
}

func (h *fakeHost) lobby() protocol.Lobby {
	phase := "playing"
	if h.g != nil && h.g.Over() {
		phase = "over"
	}
	return protocol.Lobby{Settings: h.settings, Players: append([]protocol.Player{h.phone}, h.players...), Phase: phase, Host: "Ben", You: 0,
		Commit: gamewire.Commit(h.seed, h.salt), Nonces: h.nonces, Commits: h.commits}
}

func (h *fakeHost) send(hc *hostConn, m protocol.Message) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.sendLocked(hc, m)
}

func (h *fakeHost) sendLocked(hc *hostConn, m protocol.Message) {
	hc.wmu.Lock()
	defer hc.wmu.Unlock()
	b, _, err := h.signer.Seal(h.tid, h.term, m)
	if err != nil {
		h.t.Error(err)
		return
	}
	gamewire.WriteFrame(hc.w, b)
}

// apply applies a move of the phone's, then plays seat 1 until the phone
// has something to do again.
func (h *fakeHost) apply(cmd engine.Command) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.applyLocked(cmd)
}

func (h *fakeHost) applyLocked(cmd engine.Command) {
	h.now += time.Millisecond
	evs, err := h.g.Apply(h.now, cmd)
	if err != nil {
		if hc := h.conn; hc != nil {
			h.sendLocked(hc, protocol.Refusal{Code: protocol.CodeBadCommand, Message: err.Error()})
		}
		return
	}
	h.steps = append(h.steps, engine.Step{At: h.now, Cmd: &cmd})
	h.changed(evs, true)
	h.bot()
}

func (h *fakeHost) bot() {
	// Every seat but the phone's lets every play go and puts down its
	// first card.
	for seat := 1; seat < h.cfg.Seats && !h.g.Over(); seat++ {
		v := h.g.View(seat)
		switch {
		case v.Phase == engine.PhaseCall && v.Window != nil && slices.Contains(v.Window.Callers, seat):
			h.applyLocked(engine.Command{Move: engine.MovePass, Seat: seat, No: v.Window.No, Rank: engine.NoRank})
			return
		case v.Phase == engine.PhasePlay && v.Turn == seat:
			h.applyLocked(engine.Command{Move: engine.MovePlay, Seat: seat, Cards: v.Hand[:1], Rank: engine.NoRank})
			return
		}
	}
}

// changed sends seat 0 what changed: a step of the journal with a share
// of its hidden cards when step says so.
func (h *fakeHost) changed(evs []engine.Event, step bool) {
	var mine []engine.Event
	for _, e := range evs {
		if e.VisibleTo(0) {
			mine = append(mine, e)
		}
	}
	h.sent = append(h.sent, mine...)
	live := mine
	if h.shown != nil {
		live = h.shown(slices.Clone(mine))
	}
	u := protocol.Update{View: gamewire.WireView(ptr(h.g.View(0))), Events: wireEvents(live), AtMS: h.now.Milliseconds()}
	if d, ok := h.g.Deadline(); ok {
		u.DeadlineMS = d.Milliseconds()
	}
	if step {
		i := len(h.steps) - 1
		st := wireStep(h.steps[i])
		if len(st.Cards) > 0 {
			st.Hidden = len(st.Cards)
			st.Cards = nil
			u.Shares = []protocol.StepShare{{Step: i, X: 1, Y: []byte{byte(i)}, K: 2}}
		}
		if h.chain {
			if i == 0 {
				h.head = h.lobby().Commit
			}
			st.Term = h.term
			h.head = gamewire.ChainNext(h.head, st)
			st.Sig = gamewire.SignStep(h.key, h.tid, h.term, i, h.head)
			if i == h.forge {
				st.Sig[0] ^= 1
			}
		}
		u.Steps = []protocol.Step{st}
	}
	if hc := h.conn; hc != nil {
		h.sendLocked(hc, u)
		if h.g.Over() {
			h.sendLocked(hc, h.lobby())
			steps := make([]protocol.Step, len(h.steps))
			for i, s := range h.steps {
				steps[i] = wireStep(s)
			}
			h.sendLocked(hc, protocol.Audit{Seed: h.revealed, Salt: h.salt[:], Steps: steps, Part: 0, Parts: 1})
		}
	}
}

func wireStep(s engine.Step) protocol.Step {
	w := protocol.Step{AtNS: int64(s.At), Tick: s.Cmd == nil, Rank: protocol.NoRank}
	if c := s.Cmd; c != nil {
		w.Move, w.Seat, w.Cards, w.Claim, w.Rank, w.No = uint8(c.Move), c.Seat, gamewire.WireCards(c.Cards), c.Claim, int8(c.Rank), c.No
	}
	return w
}

// drop cuts the phone's link, as a host that vanished or a Wi-Fi blip.
func (h *fakeHost) drop() {
	h.mu.Lock()
	hc := h.conn
	h.conn = nil
	h.mu.Unlock()
	if hc != nil {
		hc.c.Close()
	}
}

// watch returns a channel that hears every change of a client's state.
func watch() (chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	return ch, func() {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// waitFor waits until ok holds of c's state; the time limit only keeps a
// broken client from hanging the test.
func waitFor(t *testing.T, c *Client, ch chan struct{}, what string, ok func(State) bool) State {
	t.Helper()
	limit := time.After(20 * time.Second)
	for {
		s := c.State()
		if ok(s) {
			return s
		}
		select {
		case <-ch:
		case <-time.After(50 * time.Millisecond):
		case <-limit:
			t.Fatalf("never got %s; state: %+v", what, s)
		}
	}
}

func newKey(t *testing.T) ed25519.PrivateKey {
	_, k, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// playOut plays the phone's side to the end: its first card on its turn,
// a pass on every window.
func playOut(t *testing.T, c *Client, ch chan struct{}) State {
	t.Helper()
	for {
		s := waitFor(t, c, ch, "a move or the end", func(s State) bool {
			return s.Moves.Play || s.Moves.Call || (s.Sheet != nil && s.Sheet.Checked)
		})
		switch {
		case s.Sheet != nil && s.Sheet.Checked:
			return s
		case s.Moves.Play:
			m := Move{Kind: "play", Cards: []int{s.Hand[0].ID}, Rank: -1}
			if s.Moves.Choose {
				m.Rank = s.Moves.Ranks[0].Rank
			}
			if err := c.Do(m); err != nil {
				t.Fatal(err)
			}
		case s.Moves.Call:
			if err := c.Do(Move{Kind: "pass"}); err != nil {
				t.Fatal(err)
			}
		}
		waitFor(t, c, ch, "the host's answer", func(n State) bool {
			return n.Play != s.Play || n.Moves.Call != s.Moves.Call || n.Moves.Play != s.Moves.Play || n.Refusal != ""
		})
		if r := c.State().Refusal; r != "" {
			t.Fatalf("refused: %s", r)
		}
	}
}

func join(t *testing.T, addr, code string, key ed25519.PrivateKey) (*Client, chan struct{}) {
	t.Helper()
	ch, note := watch()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := Join(ctx, Config{Key: key, Nick: "Ada", Code: code, Addr: addr, OnChange: note})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, ch
}

func (h *fakeHost) joinCount() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.joins
}
