package node

import (
	"bufio"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"path/filepath"
	"reflect"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/protocol"
)

// maxFrame bounds what is read from a stream before anything is parsed.
const maxFrame = protocol.MaxSize

// writeFrame writes one length-prefixed envelope (gamewire.WriteFrame).
func writeFrame(w *bufio.Writer, b []byte) error { return gamewire.WriteFrame(w, b) }

var errFrameTooBig = gamewire.ErrFrameTooBig

// readFrame reads one length-prefixed envelope (gamewire.ReadFrame): an
// oversize length is refused before its bytes are read.
func readFrame(r *bufio.Reader) ([]byte, error) { return gamewire.ReadFrame(r) }

// Server puts a Table on the network: it answers joiners on the game's
// stream protocol, applies their moves in arrival order and sends each seat
// what it may see, signed.
type Server struct {
	h      host.Host
	signer *protocol.Signer
	table  *Table    // nil while a new host rebuilds the game (rec)
	rec    *recovery // set on a host elected mid-game
	ready  chan struct{}
	tid    protocol.TableID
	code   string
	term   atomic.Uint64
	replay protocol.Replay
	timing Timing // its table's, or the elected node's

	mu      sync.Mutex
	conns   map[*srvConn]bool
	lims    serverLimits       // limits.go
	web     map[string]webSeat // by peer ID: phones, and player nodes' web URLs (web.go)
	selfWeb string             // this node's web base URL, "" without one

	// Refused counts envelopes refused for being forged, replayed, stale or
	// malformed; tests and the bench read it.
	Refused atomic.Int64
	// Dropped counts messages to a peer that could not be sealed (over the
	// size limit) and were left out; the connection's updates go on.
	Dropped atomic.Int64

	failSend func(*srvConn, protocol.Message) error // tests: a send that fails before it is sealed

	revealed chan struct{} // a reveal went out whole on one connection (awaitReveals)
}

// RevealFlush is the longest a host that is closing waits for the reveal
// of a game it ended to reach its players.
const RevealFlush = time.Second

// conns0 is how many connections the server has now.
func (s *Server) conns0() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

// awaitReveals waits until n connections have been sent the reveal whole,
// or max has passed.
func (s *Server) awaitReveals(n int, max time.Duration) {
	t := time.NewTimer(max)
	defer t.Stop()
	for ; n > 0; n-- {
		select {
		case <-s.revealed:
		case <-t.C:
			return
		}
	}
}

// Serve starts serving t on h, signing with key (h's own identity key).
func Serve(h host.Host, key crypto.PrivKey, t *Table) (*Server, error) {
	if err := namesOK(t); err != nil {
		return nil, err
	}
	signer, err := newSigner(key)
	if err != nil {
		return nil, err
	}
	s := &Server{h: h, signer: signer, table: t, tid: t.wireID(), code: t.set.Code, conns: map[*srvConn]bool{}, revealed: make(chan struct{}, 64),
		ready: make(chan struct{}), timing: t.set.Timing}
	close(s.ready)
	s.term.Store(1)
	var listen []string
	for _, a := range h.Addrs() {
		listen = append(listen, a.String())
	}
	t.do(func() { t.hostPeer, t.listen = h.ID().String(), listen; t.signWith(key) })
	h.SetStreamHandler(ProtocolID, s.handler())
	return s, nil
}

// addrsOf is where a player's node can be reached: what it told us it
// listens on, then the address its connection came from.
func (s *Server) addrsOf(id peer.ID) []string {
	var out []string
	seen := map[string]bool{}
	add := func(a ma.Multiaddr) {
		// What a peer told us through identify is its to choose: only
		// short TCP addresses, and a few (seatAddrs).
		if str := a.String(); len(out) < seatAddrs && len(str) <= maxSeatAddr && isTCP(a) && !seen[str] {
			seen[str] = true
			out = append(out, str)
		}
	}
	for _, a := range s.h.Peerstore().Addrs(id) {
		add(a)
	}
	for _, c := range s.h.Network().ConnsToPeer(id) {
		add(c.RemoteMultiaddr())
	}
	return out
}

func (s *Server) selfID() string { return s.h.ID().String() }

// Close stops answering and drops every connection.
func (s *Server) Close() {
	s.h.RemoveStreamHandler(ProtocolID)
	s.mu.Lock()
	for c := range s.conns {
		c.st.Reset()
	}
	s.mu.Unlock()
}

// Addrs are the addresses a player can join by hand.
func (s *Server) Addrs() []string { return JoinAddrs(s.h) }

// link is one player's connection to the host: a libp2p stream, or a
// phone's webwire channel (web.go). The host serves both the same way.
type link interface {
	io.ReadWriter
	Close() error
	Reset() error // ends the link at once, unsent bytes and all
	SetReadDeadline(time.Time) error
	SetWriteDeadline(time.Time) error
	RemotePeer() peer.ID
	Source() netip.Addr // as sourceOf counts it
}

// p2pLink is a libp2p stream as a link.
type p2pLink struct{ network.Stream }

func (l p2pLink) RemotePeer() peer.ID { return l.Conn().RemotePeer() }
func (l p2pLink) Source() netip.Addr  { return sourceOf(l.Stream) }

type srvConn struct {
	s    *Server
	st   link
	web  bool // a phone, come in over the web entry: it never hosts
	r    *bufio.Reader
	wmu  sync.Mutex
	w    *bufio.Writer
	peer peer.ID
	seat int
	sess *LocalSession
	last TableState
	sent bool

	lim     *frameLimit // how fast its frames are read (limits.go)
	joining bool        // before a seat or a place: the first refusal ends it
}

func (c *srvConn) send(m protocol.Message) error {
	// Sealed under the write lock: sequence numbers must reach each peer in
	// order, or it drops the late one as a replay.
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if f := c.s.failSend; f != nil {
		if err := f(c, m); err != nil {
			return err
		}
	}
	b, _, err := c.s.signer.Seal(c.s.tid, c.s.term.Load(), m)
	if err != nil {
		return err
	}
	c.st.SetWriteDeadline(time.Now().Add(c.s.timing.DeadAfter))
	return writeFrame(c.w, b)
}

func (c *srvConn) refuse(code, msg string, ref uint64) {
	c.s.Refused.Add(1)
	c.send(protocol.Refusal{Code: code, Message: msg, Ref: ref})
}

// read returns the next verified message; refusals of bad envelopes are
// sent from here and reading goes on.
func (c *srvConn) read() (*protocol.Envelope, error) {
	for {
		c.st.SetReadDeadline(time.Now().Add(c.s.timing.DeadAfter))
		b, err := c.lim.read(c.r, c.st, c.s.timing.DeadAfter)
		if err != nil {
			if errors.Is(err, errFrameTooBig) {
				c.refuse(protocol.CodeBadCommand, "That message is over the size limit.", 0)
			}
			return nil, err
		}
		// The table, the term, the number and the type are checked on the
		// header, before the signature and the body cost anything.
		var ref uint64
		env, err := protocol.OpenChecked(b, wireID(c.peer), func(h *protocol.Header) error { ref = h.Seq; return c.admit(h) })
		if err == nil {
			err = c.s.replay.Check(env.Sender, env.Term, env.Seq)
		}
		if err != nil {
			var no *refusal
			if errors.As(err, &no) {
				c.refuse(no.code, no.msg, ref)
			} else {
				c.refuse(protocol.CodeBadCommand, "Refused: "+err.Error(), ref)
			}
			if c.joining {
				return nil, err
			}
			continue
		}
		return env, nil
	}
}

func (s *Server) handle(st network.Stream) { s.serve(p2pLink{st}, bufio.NewReader(st), nil) }

// serve runs one player's connection; first is its hello when a standby
// node already read it (an election).
func (s *Server) serve(st link, br *bufio.Reader, first *protocol.Envelope) {
	_, web := st.(*webLink)
	c := &srvConn{s: s, st: st, r: br, w: bufio.NewWriter(st), peer: st.RemotePeer(), seat: -1,
		lim: newFrameLimit(), joining: true, web: web}
	s.mu.Lock()
	s.conns[c] = true
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.conns, c)
		s.mu.Unlock()
		st.Close()
	}()
	if err := c.join(first); err != nil {
		return
	}
	defer c.unplaced()
	defer c.sess.Close()
	done := make(chan struct{})
	defer close(done)
	go c.pump(done)
	go c.heartbeat(done)
	for {
		env, err := c.read()
		if err != nil {
			return
		}
		switch m := env.Msg.(type) {
		case protocol.Heartbeat:
		case protocol.Leave:
			return
		case protocol.NonceCommit:
			c.nonce(env.Seq, m.Round, &m.Hash, nil)
		case protocol.NonceReveal:
			c.nonce(env.Seq, m.Round, nil, &m.Nonce)
		default:
			cmd, seat, ok := engMove(m)
			if !ok {
				c.refuse(protocol.CodeBadCommand, "A player can't send that message.", env.Seq)
				continue
			}
			if c.seat < 0 {
				c.refuse(protocol.CodeNotAllowed, "You're watching: spectators don't move.", env.Seq)
				continue
			}
			if seat != c.seat {
				c.refuse(protocol.CodeBadSeat, "You can only move for your own seat, "+strconv.Itoa(c.seat)+".", env.Seq)
				continue
			}
			if err := s.tbl().Move(c.seat, cmd); err != nil {
				var ref *engine.Refusal
				if errors.As(err, &ref) {
					c.refuse(string(ref.Code), ref.Msg, env.Seq)
				} else {
					c.refuse(protocol.CodeBadCommand, err.Error(), env.Seq)
				}
			}
		}
	}
}

// nonce passes a seat's part of the deal's toss to the table; a refusal
// goes back with the message's sequence number.
func (c *srvConn) nonce(seq uint64, round [32]byte, hash *[32]byte, nonce *[NonceSize]byte) {
	if c.seat < 0 {
		c.refuse(protocol.CodeNotAllowed, "You're watching: spectators don't take part in the deal.", seq)
		return
	}
	switch err := c.s.tbl().Nonce(c.seat, round, hash, nonce); {
	case errors.Is(err, ErrNonceMismatch):
		c.refuse(protocol.CodeBadCommand, err.Error(), seq)
	case err != nil:
		c.refuse(protocol.CodeNotAllowed, err.Error(), seq)
	}
}

// join runs the hello exchange: version, join code, a seat or a spectator's
// place.
func (c *srvConn) join(first *protocol.Envelope) error {
	env := first
	var err error
	if env == nil {
		if env, err = c.read(); err != nil {
			return err
		}
	}
	hello, ok := env.Msg.(protocol.Hello)
	if !ok {
		c.refuse(protocol.CodeBadCommand, "Say hello first.", env.Seq)
		return errors.New("no hello")
	}
	if !hello.Version.Compatible() {
		c.refuse(protocol.CodeVersion, fmt.Sprintf("This table runs protocol %s; you have %s: update the game.",
			protocol.Current, hello.Version), env.Seq)
		return errors.New("version")
	}
	// Everything a peer sends that others will see is bounded where it
	// enters: refused with the reason, before anything changes.
	if err := protocol.CheckNick(hello.Nick); err != nil {
		c.refuse(protocol.CodeBadName, err.Error(), env.Seq)
		return err
	}
	var confirm []byte
	if c.s.code != "" {
		if confirm, err = c.proveCode(hello, env); err != nil {
			return err
		}
	}
	if c.s.rec != nil && !c.s.isReady() {
		// A host elected mid-game rebuilds the table from the players'
		// shares before it can seat anyone.
		if err := c.contribute(); err != nil {
			c.refuse(protocol.CodeNotAllowed, "The table is being rebuilt; try again in a moment.", env.Seq)
			return err
		}
	}
	// A phone is known by its link, never by what it says; a player
	// node's web address is passed on to the phones, checked.
	if c.web {
		c.s.noteWeb(c.peer.String(), true, "")
	} else if a := webAddrOK(hello.WebAddr); a != "" {
		c.s.noteWeb(c.peer.String(), false, a)
	}
	if hello.Watch {
		c.sess, err = c.watch()
	} else {
		sit := c.s.tbl().Sit
		if hello.Version >= protocol.MakeVersion(1, 4) {
			sit = c.s.tbl().SitTossing // it answers the deal's toss
		}
		c.seat, c.sess, err = sit(c.peer.String(), hello.Nick)
	}
	switch {
	case errors.Is(err, ErrTableFull), errors.Is(err, ErrNoRoom):
		c.refuse(protocol.CodeTableFull, err.Error(), env.Seq)
		return err
	case errors.Is(err, ErrStarted):
		c.refuse(protocol.CodeStarted, err.Error(), env.Seq)
		return err
	case err != nil:
		c.refuse(protocol.CodeBadCommand, err.Error(), env.Seq)
		return err
	}
	c.placed()
	return c.send(protocol.Seated{Seat: c.seat, Nick: hello.Nick, Table: c.s.tid, Proof: confirm})
}

// proveCode runs the join code exchange (protocol.Pake) with a joiner
// whose hello was env, and returns the host's confirmation for Seated. A
// wrong code is learnt only from the joiner's confirmation failing: one
// guess per run, counted per address and for the table, not per peer ID,
// since identities are free (limits.go has the arithmetic).
func (c *srvConn) proveCode(hello protocol.Hello, env *protocol.Envelope) ([]byte, error) {
	if len(hello.Nonce) < protocol.NonceSize {
		// A 1.1 joiner would prove the code in a way that gives it away.
		c.refuse(protocol.CodeVersion, "This table needs a newer version of the game to join with a code: update bullshit.", env.Seq)
		return nil, errors.New("joiner without the code exchange")
	}
	src := c.st.Source()
	if why := c.s.codes().blocked(src); why != "" {
		c.refuse(protocol.CodeBadCode, why, env.Seq)
		return nil, errors.New("rate limited")
	}
	nonce, secret := make([]byte, protocol.NonceSize), make([]byte, protocol.SecretSize)
	rand.Read(nonce)
	rand.Read(secret)
	px, err := protocol.NewPake(protocol.Hosting, c.s.code, protocol.PakeContext{Joiner: string(c.peer), Host: string(c.s.h.ID()),
		Table: c.s.tid, JoinerNonce: hello.Nonce, HostNonce: nonce}, secret)
	if err != nil {
		return nil, err
	}
	if err := c.send(protocol.Challenge{Nonce: nonce, Share: px.Share()}); err != nil {
		return nil, err
	}
	if env, err = c.read(); err != nil {
		return nil, err
	}
	answer, _ := env.Msg.(protocol.Hello)
	if px.Meet(answer.Share) != nil || !px.Check(answer.Proof) {
		c.s.codes().missed(src)
		c.refuse(protocol.CodeBadCode, "That join code is wrong.", env.Seq)
		return nil, errors.New("bad code")
	}
	return px.Confirm(), nil
}

// pump sends the seat everything the table delivers to it.
func (c *srvConn) pump(done chan struct{}) {
	for {
		select {
		case <-done:
			return
		case u, ok := <-c.sess.Updates():
			if !ok {
				c.st.Reset()
				return
			}
			if u.Refusal != nil {
				continue // answered with the move's sequence number in handle
			}
			if u.Toss != nil {
				if !c.ship(protocol.Toss{Round: u.Toss.Round, Commits: u.Toss.Commits}) {
					return
				}
				continue
			}
			if !c.sent || !reflect.DeepEqual(u.Table, c.last) {
				c.last, c.sent = u.Table, true
				ts := u.Table
				ts.Seats = append([]SeatInfo(nil), ts.Seats...)
				for i, si := range ts.Seats {
					if id, err := peer.Decode(si.Peer); err == nil {
						ws := c.s.webOf(si.Peer)
						ts.Seats[i].Web, ts.Seats[i].WebAddr = ws.phone, ws.addr
						if !ws.phone {
							ts.Seats[i].Addrs = c.s.addrsOf(id)
						}
					}
				}
				if !c.ship(wireLobby(&ts)) {
					return
				}
			}
			if !c.ship(wireUpdate(&u)) {
				return
			}
			if u.Reveal != nil {
				for _, a := range wireAudit(u.Reveal) {
					if !c.ship(a) {
						return
					}
				}
				select {
				case c.s.revealed <- struct{}{}:
				default:
				}
			}
		}
	}
}

func (c *srvConn) heartbeat(done chan struct{}) {
	t := time.NewTicker(c.s.timing.Heartbeat)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			if c.send(protocol.Heartbeat{No: c.s.tbl().Plays(), Now: ms(c.s.tbl().Clock())}) != nil {
				c.st.Reset()
				return
			}
		}
	}
}

func wireUpdate(u *Update) protocol.Update {
	w := protocol.Update{View: wireView(&u.View), Notice: u.Notice, At: ms(u.At), Deadline: ms(u.Deadline), Backlog: u.Backlog}
	for i := range u.Events {
		w.Events = append(w.Events, wireEvent(&u.Events[i]))
	}
	for _, p := range u.Journal {
		w.Steps = append(w.Steps, wireStep(p))
	}
	for _, sh := range u.Shares {
		w.Shares = append(w.Shares, protocol.StepShare{Step: sh.Step, X: sh.Share.X, Y: sh.Share.Y, K: sh.Share.K})
	}
	return w
}

func wireStep(p PubStep) protocol.Step {
	w := protocol.Step{At: int64(p.At), Tick: p.Cmd == nil, Rank: protocol.NoRank, Hidden: p.Hidden,
		Term: p.Link.Term, Seal: p.Link.Seal, Sig: p.Link.Sig}
	if c := p.Cmd; c != nil {
		w.Move, w.Seat, w.Cards, w.Claim, w.Rank, w.No = uint8(c.Move), c.Seat, wireCards(c.Cards), c.Claim, int8(c.Rank), c.No
	}
	return w
}

func engPubSteps(ws []protocol.Step) []PubStep {
	out := make([]PubStep, len(ws))
	for i, st := range engSteps(ws) {
		out[i] = PubStep{Step: st, Hidden: ws[i].Hidden, Link: Link{Term: ws[i].Term, Seal: ws[i].Seal, Sig: ws[i].Sig}}
	}
	return out
}

func engShares(ws []protocol.StepShare) []StepShare {
	out := make([]StepShare, len(ws))
	for i, w := range ws {
		k := w.K
		if k == 0 {
			k = 2 // a 1.0 peer's, always threshold 2
		}
		out[i] = StepShare{Step: w.Step, Share: Share{X: w.X, K: k, Y: w.Y}}
	}
	return out
}

func wireLobby(t *TableState) protocol.Lobby {
	rules := map[string]string{}
	for k, v := range t.Rules.Map() {
		if k != "preset" {
			rules[k] = fmt.Sprint(v)
		}
	}
	// rules holds "window" too, in seconds, for 1.1 peers; 1.2 reads
	// CallWindow.
	l := protocol.Lobby{Settings: protocol.Settings{Name: t.Name, Preset: t.Preset, Rules: rules, Seats: len(t.Seats),
		Reveal: int(t.Reveal.Milliseconds()), Clock: int(t.TurnClock / time.Second), CallWindow: t.Rules.Window.Milliseconds()},
		Started: t.Phase != PhaseWaiting, Phase: string(t.Phase), Host: t.Host, You: t.You, Commit: t.Commit, Evening: wireEvening(t.Evening),
		Nonces: t.Nonces, Commits: t.Commits}
	for i, s := range t.Seats {
		p := protocol.Player{Seat: i, Nick: s.Name, Bot: s.Bot, Connected: s.Connected, Covered: s.Covered, Addrs: s.Addrs,
			Web: s.Web, WebAddr: s.WebAddr}
		if id, err := protocol.ParsePeerID(s.Peer); err == nil {
			p.Peer = id
		}
		l.Players = append(l.Players, p)
	}
	return l
}

// auditPart is how many steps go in one Audit message, well under MaxSize.
const auditPart = 1500

// wireAudit is the host's reveal, in parts.
func wireAudit(r *Reveal) []protocol.Audit {
	steps := make([]protocol.Step, len(r.Steps))
	for i, st := range r.Steps {
		w := protocol.Step{At: int64(st.At), Tick: st.Cmd == nil, Rank: protocol.NoRank}
		if c := st.Cmd; c != nil {
			w.Move, w.Seat, w.Cards, w.Claim, w.Rank, w.No = uint8(c.Move), c.Seat, wireCards(c.Cards), c.Claim, int8(c.Rank), c.No
		}
		steps[i] = w
	}
	parts := max(1, (len(steps)+auditPart-1)/auditPart)
	out := make([]protocol.Audit, parts)
	for p := range out {
		lo, hi := p*auditPart, min(len(steps), (p+1)*auditPart)
		out[p] = protocol.Audit{Seed: r.Config.Seed, Salt: r.Salt[:], Steps: steps[lo:hi], Part: p, Parts: parts}
	}
	return out
}

func engSteps(ws []protocol.Step) []engine.Step { return gamewire.EngSteps(ws) }

func engLobby(l *protocol.Lobby) TableState {
	rules := gamewire.Rules(l.Settings)
	// The host's strings are shown as they are cleaned: a host (or whoever
	// was elected) is a peer like any other.
	t := TableState{Name: protocol.Clean(l.Settings.Name, protocol.MaxTableName), Preset: l.Settings.Preset, Rules: rules,
		You: l.You, Host: protocol.Clean(l.Host, protocol.MaxNick),
		Phase: TablePhase(l.Phase), Reveal: fromMS(int64(l.Settings.Reveal)), TurnClock: time.Duration(l.Settings.Clock) * time.Second,
		Commit: l.Commit, Evening: engEvening(l.Evening), Nonces: l.Nonces, Commits: l.Commits}
	if len(t.Nonces) == 0 {
		t.Nonces = nil
	}
	if len(t.Commits) == 0 {
		t.Commits = nil
	}
	for _, p := range l.Players {
		si := SeatInfo{Name: protocol.Clean(p.Nick, protocol.MaxNick), Bot: protocol.Clean(p.Bot, protocol.MaxNick),
			Connected: p.Connected, Covered: p.Covered, Addrs: p.Addrs, Web: p.Web, WebAddr: webAddrOK(p.WebAddr)}
		if p.Peer != "" {
			si.Peer = p.Peer.String()
		}
		t.Seats = append(t.Seats, si)
	}
	return t
}

// Remote is a seat's session on a table hosted by another node. It
// reconnects by itself when the link drops, and gets its seat back.
type Remote struct {
	h      host.Host
	key    crypto.PrivKey
	signer *protocol.Signer
	info   peer.AddrInfo
	nick   string
	code   string
	watch  bool
	timing Timing

	box    *mailbox
	replay protocol.Replay
	closed atomic.Bool
	ctx    context.Context
	cancel context.CancelFunc

	mu       sync.Mutex
	st       network.Stream
	w        *bufio.Writer
	seat     int
	tid      protocol.TableID
	term     uint64
	table    TableState
	view     engine.View
	gen      int
	heard    time.Time        // when the host was last heard
	hostLost bool             // our link to the host is down
	oldHost  peer.ID          // the host we lost
	got      []engine.Event   // every event we were sent, for the audit
	parts    []protocol.Audit // the host's reveal, as it arrives
	chain    gamewire.Journal // the host's journal as we may know it, as far as its chain verifies
	shares   map[int]Share    // our shares of its hidden parts
	toss     Toss             // our part in the deal's toss (toss.go), for the audit
	rerun    bool             // the host asked again after we had revealed a nonce it never dealt from
	watched  struct {         // a spectator's record of the nonce commitments, as first published with the deal
		round   [32]byte
		commits [][32]byte
	}

	saveDir string
	savedTo string // where the game was saved at its end
	saveErr error  // why it could not be

	// The election (election.go).
	elect  uint64        // the term being elected, 0 when none
	server *Server       // the table we host, after winning an election
	local  *LocalSession // our seat at it
	bots   BotMaker      // for the bot seats of a table we take over
	fall   func(*engine.View) (engine.Command, bool)

	// The web entry (web.go): our node's web URL, told the host so that
	// phones can find us, and where a table we take over seats phones.
	webAddr string
	web     *Web

	// OnFrame, if set before Dial returns, sees every frame received (the
	// wire-secrecy test reads them).
	OnFrame func([]byte)
}

// ErrOldHost is a private table whose host proves join codes the 1.1
// way, which would give the code away to anyone listening: not answered.
var ErrOldHost = errors.New("this table's host runs an older version of the game: it must update before anyone joins with a code")

// ErrImpostor is a table that seated us without proving it knew the join
// code: not the table whose code we typed.
var ErrImpostor = errors.New("that table did not prove it knows the join code: it may be an impostor using the same name")

// answerChallenge is the joiner's side of the join code exchange
// (protocol.Pake): its share and confirmation for the host's challenge in
// env. The table ID is the one the host's envelope names.
func answerChallenge(code string, hello protocol.Hello, env *protocol.Envelope, me, host string) (*protocol.Pake, error) {
	m := env.Msg.(protocol.Challenge)
	if len(m.Share) == 0 {
		return nil, ErrOldHost
	}
	secret := make([]byte, protocol.SecretSize)
	rand.Read(secret)
	px, err := protocol.NewPake(protocol.Joiner, code, protocol.PakeContext{Joiner: me, Host: host, Table: env.Table,
		JoinerNonce: hello.Nonce, HostNonce: m.Nonce}, secret)
	if err != nil {
		return nil, err
	}
	if err := px.Meet(m.Share); err != nil {
		return nil, err
	}
	return px, nil
}

// ErrRefused wraps a host's refusal to seat us.
type ErrRefused struct{ Code, Msg string }

func (e *ErrRefused) Error() string { return e.Msg }

// Dial joins the table hosted at info: a seat (or a spectator's place when
// watch), proving the join code when the table asks.
func Dial(ctx context.Context, h host.Host, key crypto.PrivKey, info peer.AddrInfo, nick, code string, watch bool, onFrame func([]byte)) (*Remote, error) {
	return dial(ctx, h, key, info, nick, code, watch, onFrame, DefaultTiming(), nil)
}

// dial is Dial with the device's timing, and setup run on the session
// before it connects (the device's web side).
func dial(ctx context.Context, h host.Host, key crypto.PrivKey, info peer.AddrInfo, nick, code string, watch bool,
	onFrame func([]byte), tm Timing, setup func(*Remote)) (*Remote, error) {
	signer, err := newSigner(key)
	if err != nil {
		return nil, err
	}
	r := &Remote{h: h, key: key, signer: signer, info: info, nick: nick, code: code, watch: watch, box: newMailbox(), seat: -1,
		term: 1, OnFrame: onFrame, timing: tm.or(DefaultTiming())}
	if setup != nil {
		setup(r)
	}
	r.ctx, r.cancel = context.WithCancel(context.Background())
	if err := r.connect(ctx); err != nil {
		r.box.close()
		r.cancel()
		return nil, err
	}
	return r, nil
}

// SaveTo sets where the game is saved at its end, for `bullshit verify`:
// in dir (which must exist), as game-DATE-TIME-seatN.json (N counted from
// 1) or game-DATE-TIME-watcher.json.
func (r *Remote) SaveTo(dir string) {
	r.mu.Lock()
	r.saveDir = dir
	r.mu.Unlock()
}

// Saved is where the game was saved at its end, or why it could not be;
// "" and nil before then.
func (r *Remote) Saved() (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.savedTo, r.saveErr
}

// Seat is our seat, -1 for a spectator.
func (r *Remote) Seat() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.seat
}

func (r *Remote) connect(ctx context.Context) error {
	r.mu.Lock()
	back := r.oldHost != "" && r.info.ID == r.oldHost
	r.mu.Unlock()
	if back {
		// Back to the host we lost (whose connection lost() closed): past
		// libp2p's dial backoff, which the dials that failed while the
		// link was down set, so the host is reached as soon as the link is.
		ctx = network.WithForceDirectDial(ctx, "back to the host")
	}
	if err := r.h.Connect(ctx, r.info); err != nil {
		return err
	}
	st, err := r.h.NewStream(ctx, r.info.ID, ProtocolID)
	if err != nil {
		return err
	}
	br := bufio.NewReader(st)
	w := bufio.NewWriter(st)
	r.mu.Lock()
	r.st, r.w = st, w
	r.gen++
	gen := r.gen
	r.mu.Unlock()
	fail := func(err error) error { st.Reset(); return err }
	hello := protocol.Hello{Version: protocol.Current, Nick: r.nick, Seat: -1, Watch: r.watch, WebAddr: r.webAddr, Nonce: make([]byte, protocol.NonceSize)}
	rand.Read(hello.Nonce)
	if err := r.send(hello); err != nil {
		return fail(err)
	}
	var px *protocol.Pake // the join code exchange, once the host asked for it
	wait := r.timing.DeadAfter
	for {
		st.SetReadDeadline(time.Now().Add(wait))
		env, err := r.read(br)
		if err != nil {
			return fail(err)
		}
		switch m := env.Msg.(type) {
		case protocol.Challenge:
			if px, err = answerChallenge(r.code, hello, env, string(r.h.ID()), string(r.info.ID)); err != nil {
				return fail(err)
			}
			hello.Share, hello.Proof = px.Share(), px.Confirm()
			if err := r.send(hello); err != nil {
				return fail(err)
			}
		case protocol.Refusal:
			return fail(&ErrRefused{Code: m.Code, Msg: protocol.Clean(m.Message, protocol.MaxText)})
		case protocol.StateRequest:
			if err := r.send(r.stateMsg(m.Term)); err != nil {
				return fail(err)
			}
			// A new host seats us once every player's shares are in:
			// give it the whole rebuild, or we would pass it over for
			// the next in line and the table would split in two.
			wait = r.timing.RebuildWait + r.timing.DeadAfter
		case protocol.Seated:
			// A table we have a code for proves it knows it: one that
			// asked for none, or can't, is not the table we meant.
			if r.code != "" && (px == nil || !px.Check(m.Proof)) {
				return fail(ErrImpostor)
			}
			r.mu.Lock()
			r.seat, r.tid = m.Seat, m.Table
			r.hostLost, r.heard = false, time.Now()
			if r.elect != 0 && env.Term >= r.elect {
				r.term, r.elect = env.Term, 0
			}
			r.mu.Unlock()
			r.h.SetStreamHandler(ProtocolID, r.standby)
			// Our host's connection is never one the connection manager
			// trims for a crowd of strangers.
			r.h.ConnManager().Protect(r.info.ID, "bullshit/host")
			go r.readLoop(st, br, gen)
			go r.heartbeat(gen)
			return nil
		}
	}
}

func (r *Remote) read(br *bufio.Reader) (*protocol.Envelope, error) {
	for {
		b, err := readFrame(br)
		if err != nil {
			return nil, err
		}
		if r.OnFrame != nil {
			r.OnFrame(b)
		}
		env, err := protocol.Open(b, wireID(r.info.ID))
		if err != nil {
			continue // not the host's, or not for us: ignored
		}
		if err := r.replay.Check(env.Sender, env.Term, env.Seq); err != nil {
			continue
		}
		return env, nil
	}
}

func (r *Remote) send(m protocol.Message) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.st == nil {
		return errors.New("not connected to the host")
	}
	term := r.term
	if r.elect != 0 {
		term = r.elect // rejoining for the term being elected
	}
	b, _, err := r.signer.Seal(r.tid, term, m)
	if err != nil {
		return err
	}
	r.st.SetWriteDeadline(time.Now().Add(r.timing.DeadAfter))
	return writeFrame(r.w, b)
}

func (r *Remote) readLoop(st network.Stream, br *bufio.Reader, gen int) {
	for {
		st.SetReadDeadline(time.Now().Add(r.timing.DeadAfter))
		env, err := r.read(br)
		if err != nil {
			st.Reset()
			r.lost(gen)
			return
		}
		r.mu.Lock()
		r.heard = time.Now()
		r.mu.Unlock()
		switch m := env.Msg.(type) {
		case protocol.Lobby:
			t := engLobby(&m)
			t.Words = protocol.Fingerprint(string(env.Sender))
			r.mu.Lock()
			for _, si := range t.Seats {
				if si.Peer == r.info.ID.String() {
					t.Web = si.WebAddr // where phones join the table: its host
				}
			}
			r.table = t
			if t.Commits != nil && t.Commit != r.watched.round {
				// The first the host showed us for this deal is the one it
				// is held to: a later Lobby can't change our record.
				r.watched.round, r.watched.commits = t.Commit, t.Commits
			}
			r.mu.Unlock()
		case protocol.Update:
			r.mu.Lock()
			u := Update{Table: r.table, Notice: protocol.Clean(m.Notice, protocol.MaxText), At: fromMS(m.At), Deadline: fromMS(m.Deadline)}
			if m.View != nil {
				r.view = engView(m.View, r.table.Rules)
			}
			u.View = r.view
			r.mu.Unlock()
			for _, e := range m.Events {
				ev := engEvent(e)
				switch ev.Type {
				case engine.EventHand, engine.EventMine:
					ev.To = []int{r.seat}
				case engine.EventHanded:
					ev.To = []int{ev.Seat, ev.Target}
				}
				u.Events = append(u.Events, ev)
			}
			r.mu.Lock()
			if m.Backlog {
				// It may add what we missed, never rewrite what we were
				// sent, short of a new host's signed rollback.
				rolled := r.chain.Take(r.tid, r.table.Commit, env.Sender, env.Term, m.Steps, true)
				r.takeBacklog(u.Events, rolled > 0)
				u.Events = nil
				u.Backlog = true
				r.shares = nil // shares anew, of the whole journal
			} else {
				if i := dealAt(u.Events); i >= 0 {
					// A new game at the same seats: the audit and the
					// journal are of this game alone.
					r.got = append([]engine.Event(nil), u.Events[i:]...)
					r.shares, r.parts = nil, nil
					r.chain.Reset(r.tid, r.table.Commit)
				} else {
					r.got = append(r.got, u.Events...)
				}
				r.chain.Take(r.tid, r.table.Commit, env.Sender, env.Term, m.Steps, false)
			}
			if r.shares == nil {
				r.shares = map[int]Share{}
			}
			for _, sh := range engShares(m.Shares) {
				r.shares[sh.Step] = sh.Share
			}
			r.mu.Unlock()
			r.box.put(u)
		case protocol.Toss:
			r.answerToss(m)
		case protocol.Audit:
			if u, ok := r.audit(m); ok {
				r.box.put(u)
			}
		case protocol.Refusal:
			r.mu.Lock()
			u := Update{Table: r.table, View: r.view, Refusal: engRefusal(m)}
			r.mu.Unlock()
			r.box.put(u)
		case protocol.Heartbeat:
		}
	}
}

// takeBacklog is a host's backlog, every event it says we were sent: it
// becomes our record only when it extends the one we kept ourselves (the
// same events first); otherwise ours stands and the audit is told. A
// backlog of a new game (another deal) starts the record afresh, and so
// does a rollback the chain verified (rolled): a new host that never got
// the old host's last steps plays on from a signed start of our journal.
// r.mu is held.
func (r *Remote) takeBacklog(events []engine.Event, rolled bool) {
	switch {
	case sameEvents(r.got, events) || rolled:
		r.got = append([]engine.Event(nil), events...)
	case len(events) > 0 && events[0].Type == engine.EventDeal && (len(r.got) == 0 || !sameEvents(r.got[:1], events[:1])):
		r.got = append([]engine.Event(nil), events...)
	default:
		r.chain.Flag("the host's backlog rewrote events we had been sent")
	}
}

// sameEvents says whether got is a prefix of (or equal to) all, as the
// wire carries events.
func sameEvents(got, all []engine.Event) bool {
	if len(got) > len(all) {
		return false
	}
	for i := range got {
		if fmt.Sprint(wireEvent(&got[i])) != fmt.Sprint(wireEvent(&all[i])) {
			return false
		}
	}
	return true
}

// dealAt is where a new game's deal is among events, or -1.
func dealAt(events []engine.Event) int {
	for i := range events {
		if events[i].Type == engine.EventDeal {
			return i
		}
	}
	return -1
}

// audit gathers the host's reveal and, once whole, checks the game: the
// commitment, then the replay against every event we were sent.
func (r *Remote) audit(m protocol.Audit) (Update, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if m.Parts < 1 || m.Part != len(r.parts) || m.Parts > 1000 {
		r.parts = nil
		return Update{}, false
	}
	r.parts = append(r.parts, m)
	if len(r.parts) < m.Parts {
		return Update{}, false
	}
	var steps []engine.Step
	for _, p := range r.parts {
		steps = append(steps, engSteps(p.Steps)...)
	}
	r.parts = nil
	var salt [SaltSize]byte
	copy(salt[:], m.Salt)
	g := SavedGame{Table: r.table.Name, Seat: r.seat, Salt: salt, Commitment: r.table.Commit, Steps: steps,
		Events: append([]engine.Event(nil), r.got...), Toss: r.tossRecord(),
		Config: engine.Config{Rules: r.table.Rules, Seats: len(r.table.Seats), Seed: m.Seed}}
	r.toss, r.rerun = Toss{}, false // this game's record is spent
	if len(m.Salt) != SaltSize {
		return Update{Table: r.table, View: r.view, Audit: &AuditResult{Problems: []string{"the host revealed a salt of the wrong size"}}}, true
	}
	if r.seat < 0 && r.watched.round == r.table.Commit && r.watched.round != ([32]byte{}) {
		// A spectator has no nonce of its own, but holds the host to the
		// commitments it published with the deal.
		g.Toss.Round, g.Toss.Commits = r.watched.round, r.watched.commits
	}
	res := auditOf(g)
	// The hosts' chain: what didn't verify of it fails the audit; a tail
	// the new host never got, rolled back, is a note.
	res.Problems = append(append([]string(nil), r.chain.Doubt...), res.Problems...)
	if n := r.chain.RollNote(); n != "" {
		res.Notes = append(res.Notes, n)
	}
	if r.rerun {
		res.Problems = append(res.Problems, rerunProblem)
	}
	res.Verified = len(res.Problems) == 0
	u := Update{Table: r.table, View: r.view, Audit: res,
		Reveal: &Reveal{Config: g.Config, Salt: salt, Nonces: g.Toss.Nonces, Steps: steps}} // for the sheet's highlights
	if r.saveDir != "" {
		who := fmt.Sprintf("seat%d", r.seat+1)
		if r.seat < 0 {
			who = "watcher"
		}
		path := filepath.Join(r.saveDir, fmt.Sprintf("game-%s-%s.json", time.Now().Format("20060102-150405"), who))
		if err := SaveGame(path, g); err != nil {
			r.saveErr = err
			u.Notice = "The game could not be saved: " + err.Error()
		} else {
			r.savedTo, r.saveErr = path, nil
			u.Notice = "Saved for `bullshit verify`: " + path
		}
	}
	return u, true
}

func (r *Remote) heartbeat(gen int) {
	t := time.NewTicker(r.timing.Heartbeat)
	defer t.Stop()
	for range t.C {
		r.mu.Lock()
		stale := r.gen != gen
		r.mu.Unlock()
		if stale || r.closed.Load() {
			return
		}
		r.send(protocol.Heartbeat{})
	}
}

// lost is the link dropping: tell the screen, and dial again until the host
// answers or the session is closed.
func (r *Remote) lost(gen int) {
	r.mu.Lock()
	if r.gen != gen || r.closed.Load() {
		r.mu.Unlock()
		return
	}
	r.st = nil
	r.hostLost = true
	r.oldHost = r.info.ID
	u := Update{Table: r.table, View: r.view, Notice: "Lost the host: reconnecting…"}
	old := r.oldHost
	r.mu.Unlock()
	r.box.put(u)
	go func() {
		// Dial afresh: after a link was down for seconds the old connection
		// still looks open, but its TCP retransmits on a backed-off timer,
		// so the host's answer to a join on it comes too late: the host
		// seats us, we give up, and the table hears us leave twice.
		r.h.Network().ClosePeer(old)
		r.failover()
	}()
}

// reconnect dials the host we had until it answers or the session closes:
// a table with one player node left waits for its host to come back.
func (r *Remote) reconnect() {
	go func() {
		for !r.closed.Load() {
			ctx, cancel := context.WithTimeout(r.ctx, 2*time.Second)
			err := r.connect(ctx)
			cancel()
			if err == nil {
				r.mu.Lock()
				u := Update{Table: r.table, View: r.view, Notice: "Reconnected."}
				r.mu.Unlock()
				r.box.put(u)
				return
			}
			var ref *ErrRefused
			if errors.As(err, &ref) {
				r.mu.Lock()
				u := Update{Table: r.table, View: r.view, Notice: "The host refused us: " + ref.Msg}
				r.mu.Unlock()
				r.box.put(u)
				r.Close()
				return
			}
			select {
			case <-r.ctx.Done():
				return
			case <-time.After(500 * time.Millisecond):
			}
		}
	}()
}

// Updates delivers what our seat may see.
func (r *Remote) Updates() <-chan Update { return r.box.out }

// Send sends a move for our seat; the host's answer comes as an Update.
func (r *Remote) Send(cmd engine.Command) error {
	r.mu.Lock()
	local := r.local
	r.mu.Unlock()
	if local != nil {
		return local.Send(cmd)
	}
	m := wireMove(cmd, r.Seat())
	if m == nil {
		return errors.New("not a move")
	}
	return r.send(m)
}

// Control is a table action, which only the host may take. A player that
// took over hosting after an election passes it to the table it now hosts:
// its screen is the host's now (N on the result sheet deals again).
func (r *Remote) Control(action string) error {
	r.mu.Lock()
	local := r.local
	r.mu.Unlock()
	if local != nil {
		return local.Control(action)
	}
	return errors.New(hostOnly(action))
}

// hostOnly is the sentence that refuses a table action to a player.
func hostOnly(action string) string {
	switch action {
	case "start":
		return "Only the host can start the game."
	case "again":
		return "Only the host can deal a new game."
	case "end":
		return "Only the host can end the game."
	}
	return "Only the host can do that."
}

// Close leaves the table.
func (r *Remote) Close() error {
	if r.closed.Swap(true) {
		return nil
	}
	r.send(protocol.Leave{Reason: "left"})
	r.mu.Lock()
	if r.st != nil {
		r.st.Close()
	}
	srv, local := r.server, r.local
	r.mu.Unlock()
	if local != nil {
		local.Close()
	}
	if srv != nil {
		if r.web != nil {
			r.web.unhost(srv)
		}
		srv.Close()
		if t := srv.tbl(); t != nil {
			t.Close()
		}
	}
	r.cancel()
	r.box.close()
	return nil
}
