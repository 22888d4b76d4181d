package node

// The host's side of the game's stream: Server answers joiners, and one
// srvConn per player (or phone, web.go) reads its moves and pumps its
// updates. An elected host's Server waits on a rebuild (restore.go).

import (
	"bufio"
	"crypto/rand"
	"errors"
	"io"
	"net/netip"
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
	"github.com/bullshit-game/bullshit/node/guard"
	"github.com/bullshit-game/bullshit/node/lan"
	"github.com/bullshit-game/bullshit/node/table"
	"github.com/bullshit-game/bullshit/protocol"
)

// Server puts a Table on the network: it answers joiners on the game's
// stream protocol, applies their moves in arrival order and sends each seat
// what it may see, signed.
//
// Who owns what. The Server owns no goroutine of its own; libp2p's (or the
// web door's) goroutine for each stream runs handle, which makes one
// srvConn and, once it is seated, a reader (handle's loop), a pump and a
// heartbeat for it (see srvConn). Between them:
//
//   - set by Serve or newServer before the stream handler is set, never
//     changed: h, sealer, rec, ready, tid, code, timing; any goroutine
//     reads them;
//   - term and replay are safe for any goroutine (an atomic; Replay locks
//     itself); term goes up when an elected host takes over;
//   - under mu: table (nil while a new host rebuilds the game, rec; set
//     once when it is rebuilt, read through tbl), conns, lims, web and
//     selfWeb, which every connection's goroutines share;
//   - the counters (Refused, Dropped) and revealed are for any goroutine.
//
// The Table itself is its own actor (node/table): the Server only calls
// its methods, which run on the table's goroutine.
type Server struct {
	h      host.Host
	sealer sealer        // seals every envelope the server sends (a *protocol.Signer)
	table  *table.Table  // under mu; nil while a new host rebuilds the game (rec)
	rec    *recovery     // set on a host elected mid-game
	ready  chan struct{} // closed once the table is there to serve
	tid    protocol.TableID
	code   string
	term   atomic.Uint64
	replay protocol.Replay
	timing table.Timing // its table's, or the elected node's

	mu      sync.Mutex
	conns   map[*srvConn]bool
	lims    serverLimits       // gates.go
	web     map[string]webSeat // by peer ID: phones, and player nodes' web URLs (web.go)
	selfWeb string             // this node's web base URL, "" without one

	// Refused counts envelopes refused for being forged, replayed, stale or
	// malformed; tests and the bench read it.
	Refused atomic.Int64
	// Dropped counts messages to a peer that could not be sealed (over the
	// size limit) and were left out; the connection's updates go on.
	Dropped atomic.Int64

	revealed chan struct{} // a reveal went out whole on one connection (awaitReveals)
}

// sealer seals a message for the wire: a *protocol.Signer, whose sequence
// numbers every envelope the server sends takes in turn. (A test gives the
// server one that fails on the message it picks, to see a send that fails
// before it is sealed.)
type sealer interface {
	Seal(table protocol.TableID, term uint64, m protocol.Message) ([]byte, uint64, error)
	SealRefusal(v protocol.Version, table protocol.TableID, term uint64, m protocol.Refusal) ([]byte, uint64, error)
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
func Serve(h host.Host, key crypto.PrivKey, t *table.Table) (*Server, error) {
	if err := t.CheckNames(); err != nil {
		return nil, err
	}
	signer, err := newSigner(key)
	if err != nil {
		return nil, err
	}
	set := t.Config()
	s := &Server{h: h, sealer: signer, table: t, tid: t.WireID(), code: set.Code, conns: map[*srvConn]bool{}, revealed: make(chan struct{}, 64),
		ready: make(chan struct{}), timing: set.Timing}
	close(s.ready)
	s.term.Store(1)
	var listen []string
	for _, a := range h.Addrs() {
		listen = append(listen, a.String())
	}
	t.Served(h.ID().String(), listen, edKeyOrNil(key))
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
		if str := a.String(); len(out) < seatAddrs && len(str) <= maxSeatAddr && lan.IsTCP(a) && !seen[str] {
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
func (s *Server) Addrs() []string { return lan.JoinAddrs(s.h) }

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

func (l p2pLink) Source() netip.Addr { return guard.SourceOf(l.Stream) }

// srvConn is one player's (or phone's, or spectator's) connection to the
// Server.
//
// Who owns what. handle's goroutine (the stream's) makes it, runs the
// join (join, gates.go's admit) and then reads the player's envelopes
// until the link ends; it alone reads r, writes ver, seat, sess, joining
// and greeted (before the pump starts: the pump reads seat and sess
// after). pump, started once it is placed, alone writes last and sent.
// Everything written to the link goes through send, under wmu, from any
// of the three (the reader's refusals, the pump's updates, heartbeat's
// beats): the write lock keeps the sequence numbers in order. st, web,
// peer and lim are set before any of them runs.
type srvConn struct {
	s    *Server
	st   link
	web  bool // a phone, come in over the web entry: it never hosts
	r    *bufio.Reader
	wmu  sync.Mutex
	w    *bufio.Writer
	peer peer.ID
	seat int
	sess *table.LocalSession
	last table.TableState
	sent bool

	lim     *guard.FrameLimit // how fast its frames are read (node/guard)
	joining bool              // before a seat or a place: the first refusal ends it
	greeted bool              // its hello has come: before it, only a hello is decoded
}

func (c *srvConn) send(m protocol.Message) error {
	// Sealed under the write lock: sequence numbers must reach each peer in
	// order, or it drops the late one as a replay.
	c.wmu.Lock()
	defer c.wmu.Unlock()
	b, _, err := c.s.sealer.Seal(c.s.tid, c.s.term.Load(), m)
	if err != nil {
		return err
	}
	c.st.SetWriteDeadline(time.Now().Add(c.s.timing.DeadAfter))
	return gamewire.WriteFrame(c.w, b)
}

func (c *srvConn) refuse(code, msg string, ref uint64) {
	c.s.Refused.Add(1)
	c.send(protocol.Refusal{Code: code, Message: msg, Ref: ref})
}

// refuseVersion answers an envelope of another major (a 1.x joiner's) in
// an envelope of its sender's version, which it reads: the table needs
// this one (protocol.SealRefusal).
func (c *srvConn) refuseVersion(e *protocol.VersionError) {
	c.s.Refused.Add(1)
	c.wmu.Lock()
	defer c.wmu.Unlock()
	say := protocol.VersionRefusal(e.Peer)
	if c.web && e.Peer.Major() < protocol.Current.Major() {
		say += " Reload the page." // this node serves the newer one
	}
	b, _, err := c.s.sealer.SealRefusal(e.Peer, c.s.tid, c.s.term.Load(),
		protocol.Refusal{Code: protocol.CodeVersion, Message: say, Ref: e.Seq})
	if err != nil {
		return
	}
	c.st.SetWriteDeadline(time.Now().Add(c.s.timing.DeadAfter))
	gamewire.WriteFrame(c.w, b)
}

// read returns the next verified message; refusals of bad envelopes are
// sent from here and reading goes on.
func (c *srvConn) read() (*protocol.Envelope, error) {
	env, _, err := c.readRaw()
	return env, err
}

// readRaw is read, with the bytes the envelope came in (a party's at a
// blind table go into the host's log as they came).
func (c *srvConn) readRaw() (*protocol.Envelope, []byte, error) {
	for {
		c.st.SetReadDeadline(time.Now().Add(c.s.timing.DeadAfter))
		b, err := c.lim.ReadFrame(c.r, c.st, c.s.timing.DeadAfter)
		if err != nil {
			if errors.Is(err, gamewire.ErrFrameTooBig) {
				c.refuse(protocol.CodeBadCommand, "That message is over the size limit.", 0)
			}
			return nil, nil, err
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
			var other *protocol.VersionError
			if errors.As(err, &no) {
				c.refuse(no.code, no.msg, ref)
			} else if errors.As(err, &other) && other.Seq != 0 {
				// An envelope of another major, header and all: a
				// peer's, not garbage that begins like one.
				c.refuseVersion(other)
			} else {
				c.refuse(protocol.CodeBadCommand, "Refused: "+err.Error(), ref)
			}
			if c.joining {
				return nil, nil, err
			}
			continue
		}
		return env, b, nil
	}
}

func (s *Server) handle(st network.Stream) { s.serve(p2pLink{st}, bufio.NewReader(st), nil) }

// serve runs one player's connection; first is its hello when a standby
// node already read it (an election).
func (s *Server) serve(st link, br *bufio.Reader, first *protocol.Envelope) {
	_, web := st.(*webLink)
	c := &srvConn{s: s, st: st, r: br, w: bufio.NewWriter(st), peer: st.RemotePeer(), seat: -1,
		lim: guard.NewFrameLimit(), joining: true, web: web}
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
		env, raw, err := c.readRaw()
		if err != nil {
			return
		}
		switch m := env.Msg.(type) {
		case protocol.Heartbeat:
		case protocol.Leave:
			return
		case protocol.DeckKey, protocol.DeckSplit, protocol.DeckShuffle, protocol.DeckDeal, protocol.DeckOpen,
			protocol.DeckHandover, protocol.DeckRecover, protocol.DeckPool, protocol.DeckPublish, protocol.BlindMove:
			// A party's part at a blind table (node/table: blind.go): its
			// envelope goes into the host's log as it came.
			if err := s.tbl().PartyMsg(env, raw); err != nil {
				var ref *engine.Refusal
				if errors.As(err, &ref) {
					c.refuse(string(ref.Code), ref.Msg, env.Seq)
				} else {
					c.refuse(protocol.CodeNotAllowed, protocol.Sentence(err), env.Seq)
				}
			}
		case protocol.NonceCommit:
			c.nonce(env.Seq, m.Round, &m.Hash, nil)
		case protocol.NonceReveal:
			c.nonce(env.Seq, m.Round, nil, &m.Nonce)
		default:
			cmd, seat, ok := gamewire.EngMove(m)
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
			sig := gamewire.MoveSig(m)
			if sig == nil {
				c.refuse(protocol.CodeBadCommand, "Your move carries no signature of your seat: this table keeps only signed moves.", env.Seq)
				continue
			}
			if err := s.tbl().MoveMarked(c.seat, cmd, sig); err != nil {
				var ref *engine.Refusal
				if errors.As(err, &ref) {
					c.refuse(string(ref.Code), ref.Msg, env.Seq)
				} else {
					c.refuse(protocol.CodeBadCommand, protocol.Sentence(err), env.Seq)
				}
			}
		}
	}
}

// nonce passes a seat's part of the deal's toss to the table; a refusal
// goes back with the message's sequence number.
func (c *srvConn) nonce(seq uint64, round [32]byte, hash *[32]byte, nonce *[gamewire.NonceSize]byte) {
	if c.seat < 0 {
		c.refuse(protocol.CodeNotAllowed, "You're watching: spectators don't take part in the deal.", seq)
		return
	}
	switch err := c.s.tbl().Nonce(c.seat, round, hash, nonce); {
	case errors.Is(err, gamewire.ErrNonceMismatch):
		c.refuse(protocol.CodeBadCommand, err.Error(), seq)
	case err != nil:
		c.refuse(protocol.CodeNotAllowed, protocol.Sentence(err), seq)
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
	c.greeted = true
	if !hello.Version.Compatible() {
		c.refuse(protocol.CodeVersion, protocol.VersionRefusal(hello.Version), env.Seq)
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
	// A phone is through the web door here: from now on it counts among
	// the entry's established connections, not its newcomers (web.go).
	if l, ok := c.st.(*webLink); ok && l.admit != nil {
		if err := l.admit(); err != nil {
			if errors.Is(err, ErrWebFull) {
				c.refuse(protocol.CodeTableFull, protocol.Sentence(err), env.Seq)
			}
			return err
		}
	}
	if c.s.rec != nil && !c.s.isReady() {
		// A host elected mid-game rebuilds the table from the players'
		// shares before it can seat anyone; only a seated player's
		// record and shares count (a spectator, or a stranger, holds
		// none it should have).
		if !c.s.rec.seated(wireID(c.peer)) {
			c.refuse(protocol.CodeNotAllowed, notSeatedRefusal, env.Seq)
			return ErrNotSeated
		}
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
		c.sess, err = c.watch(hello.Nick, hello.Version)
	} else {
		// A player's node answers the deal's toss; one of 2.2 takes
		// part in a blind deal (node/table: blind.go), a phone's page
		// running no bot.
		switch {
		case hello.Version < protocol.Blind:
			c.seat, c.sess, err = c.s.tbl().SitTossing(c.peer.String(), hello.Nick)
		case c.web:
			c.seat, c.sess, err = c.s.tbl().SitPhone(c.peer.String(), hello.Nick)
		default:
			c.seat, c.sess, err = c.s.tbl().SitParty(c.peer.String(), hello.Nick)
		}
	}
	switch {
	case errors.Is(err, table.ErrTableFull), errors.Is(err, ErrNoRoom):
		c.refuse(protocol.CodeTableFull, protocol.Sentence(err), env.Seq)
		return err
	case errors.Is(err, table.ErrStarted):
		c.refuse(protocol.CodeStarted, protocol.Sentence(err), env.Seq)
		return err
	case errors.Is(err, protocol.ErrBadName):
		c.refuse(protocol.CodeBadName, err.Error(), env.Seq)
		return err
	case err != nil:
		c.refuse(protocol.CodeBadCommand, protocol.Sentence(err), env.Seq)
		return err
	}
	c.placed()
	return c.send(protocol.Seated{Seat: c.seat, Nick: hello.Nick, Table: c.s.tid, Proof: confirm})
}

// proveCode runs the join code exchange (protocol.Pake) with a joiner
// whose hello was env, and returns the host's confirmation for Seated. A
// wrong code is learnt only from the joiner's confirmation failing: one
// guess per run, counted per address and for the table when the answer
// comes, before it is checked, not per peer ID, since identities are free
// (node/guard's limits.go has the arithmetic).
func (c *srvConn) proveCode(hello protocol.Hello, env *protocol.Envelope) ([]byte, error) {
	if len(hello.Nonce) < protocol.NonceSize {
		// A 1.1 joiner would prove the code in a way that gives it away.
		c.refuse(protocol.CodeVersion, "This table needs a newer version of the game to join with a code: update bullshit.", env.Seq)
		return nil, errors.New("joiner without the code exchange")
	}
	// A spent count refuses the exchange before it costs anything; the
	// place is taken when the answer comes, before it is checked
	// (node/guard's limits.go).
	src, codes := c.st.Source(), c.s.codes()
	if why := codes.Blocked(src); why != "" {
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
	at, why := codes.Take(src)
	if why != "" {
		c.refuse(protocol.CodeBadCode, why, env.Seq)
		return nil, errors.New("rate limited")
	}
	answer, _ := env.Msg.(protocol.Hello)
	if px.Meet(answer.Share) != nil || !px.Check(answer.Proof) {
		c.refuse(protocol.CodeBadCode, "That join code is wrong.", env.Seq)
		return nil, errors.New("bad code")
	}
	codes.Give(src, at)
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
			if !c.deliver(u) {
				return
			}
		}
	}
}

// deliver ships one update from the table: the toss's ask, the table's
// lobby when it changed, the update, then the reveal in parts. It reports
// false when the link failed.
func (c *srvConn) deliver(u table.Update) bool {
	if u.Refusal != nil {
		return true // answered with the move's sequence number in handle
	}
	if u.Toss != nil {
		return c.ship(protocol.Toss{Round: u.Toss.Round, Commits: u.Toss.Commits})
	}
	if !c.sent || !reflect.DeepEqual(u.Table, c.last) {
		c.last, c.sent = u.Table, true
		ts := c.lobbyFor(u.Table)
		if !c.ship(wireLobby(&ts)) {
			return false
		}
	}
	if u.Blind != nil {
		return c.shipBlind(&u)
	}
	if !c.ship(wireUpdate(&u)) {
		return false
	}
	if u.Reveal == nil {
		return true
	}
	for _, a := range wireAudit(u.Reveal) {
		if !c.ship(a) {
			return false
		}
	}
	select {
	case c.s.revealed <- struct{}{}:
	default:
	}
	return true
}

// lobbyFor is the table's state as this connection is sent it: each
// person's seat with its web side, and a player node's addresses (for an
// election).
func (c *srvConn) lobbyFor(ts table.TableState) table.TableState {
	ts.Seats = append([]table.SeatInfo(nil), ts.Seats...)
	for i, si := range ts.Seats {
		id, err := peer.Decode(si.Peer)
		if err != nil {
			continue
		}
		ws := c.s.webOf(si.Peer)
		ts.Seats[i].Web, ts.Seats[i].WebAddr = ws.phone, ws.addr
		if !ws.phone {
			ts.Seats[i].Addrs = c.s.addrsOf(id)
		}
	}
	return ts
}

func (c *srvConn) heartbeat(done chan struct{}) {
	t := time.NewTicker(c.s.timing.Heartbeat)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			if c.send(protocol.Heartbeat{No: c.s.tbl().Plays(), NowMS: gamewire.MS(c.s.tbl().Clock())}) != nil {
				c.st.Reset()
				return
			}
		}
	}
}

func (s *Server) tbl() *table.Table {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.table
}

func (s *Server) isReady() bool {
	select {
	case <-s.ready:
		return true
	default:
		return false
	}
}

// blindPart is the most a BlindLog carries of the host's log, in bytes
// of its inputs' envelopes: well under MaxSize with its own.
const blindPart = 48 << 10

// shipBlind sends a party's node its part of a blind table's update: the
// notice, if any, in an Update of its own (no view: the node makes its
// seat's), then the deal's terms and the host's log in parts of under
// blindPart. The notice goes first: what the log brings may end the game
// (the node's audit, after which a headless player is gone), and a notice
// shipped after it reached the host's own screen only (the last secret's,
// naming a shuffler that cheated).
func (c *srvConn) shipBlind(u *table.Update) bool {
	b := u.Blind
	if u.Notice != "" && !c.ship(protocol.Update{Notice: u.Notice, AtMS: gamewire.MS(u.At)}) {
		return false
	}
	if b.Deal != nil && !c.ship(*b.Deal) {
		return false
	}
	now := int64(b.Now)
	for first, log := b.First, b.Log; len(log) > 0 || b.Deal != nil; {
		if len(log) == 0 {
			// The deal's terms come with the log, even none of it yet:
			// a node takes them together (Remote.take).
			if !c.ship(protocol.BlindLog{First: first, NowNS: now}) {
				return false
			}
			break
		}
		n, size := 0, 0
		for n < len(log) && (n == 0 || size+len(log[n].Env) < blindPart) {
			size += len(log[n].Env) + 64
			n++
		}
		if !c.ship(protocol.BlindLog{First: first, NowNS: now, Inputs: log[:n]}) {
			return false
		}
		first, log = first+n, log[n:]
	}
	if b.Deal != nil && len(b.Log) > 0 {
		// The whole log again (a node back, a new host's): a part of
		// none after it says where it ends. A node started again that
		// took more of a failed host's goes on from here
		// (mentaltable.Player.Log) instead of waiting for the rest.
		return c.ship(protocol.BlindLog{First: b.First + len(b.Log), NowNS: now})
	}
	return true
}
