package node

import (
	"errors"
	"fmt"

	"github.com/bullshit-game/bullshit/node/guard"
	"github.com/bullshit-game/bullshit/node/table"
	"github.com/bullshit-game/bullshit/protocol"
	"github.com/libp2p/go-libp2p/core/network"
)

// The server's gates: what a Server keeps for its limits (node/guard's
// limiters and counts), what an envelope's header must pass before its
// signature is checked (admit), and how a connection ships what it sends.

// serverLimits is what a Server keeps for its limits, made on first use (a
// server an election makes has none to begin with).
type serverLimits struct {
	codes    *guard.CodeGuard
	watchers *guard.Watchers
	watching int // spectators placed
}

// MaxWatchers is how many spectators a hosted table takes. Each costs the
// host a signed update at every step, so past this they are refused.
const MaxWatchers = 16

// ErrNoRoom refuses a spectator past MaxWatchers.
var ErrNoRoom = protocol.Refuse(protocol.CodeTableFull, "no room for a spectator", fmt.Sprintf("This table has all the spectators it can take (%d).", MaxWatchers))

// watch gives the joiner a spectator's place, if the table has room.
func (c *srvConn) watch(nick string, v protocol.Version) (*table.LocalSession, error) {
	c.s.mu.Lock()
	if c.s.lims.watching >= MaxWatchers {
		c.s.mu.Unlock()
		return nil, ErrNoRoom
	}
	c.s.lims.watching++
	c.s.mu.Unlock()
	var sess *table.LocalSession
	var err error
	if !c.web && v >= protocol.Blind {
		sess, err = c.s.tbl().WatchAsNode(protocol.Clean(nick, protocol.MaxNick))
	} else {
		sess, err = c.s.tbl().WatchAs(protocol.Clean(nick, protocol.MaxNick))
	}
	if err != nil {
		c.unwatch()
	}
	return sess, err
}

func (c *srvConn) unwatch() {
	c.s.mu.Lock()
	c.s.lims.watching--
	c.s.mu.Unlock()
}

func (s *Server) codes() *guard.CodeGuard {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lims.codes == nil {
		s.lims.codes = guard.NewCodeGuard()
	}
	return s.lims.codes
}

func (s *Server) watchers() *guard.Watchers {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lims.watchers == nil {
		s.lims.watchers = guard.NewWatchers()
	}
	return s.lims.watchers
}

// handler is the game's stream handler, behind the rate at which one
// address may open the stream (StreamsPerAddr).
func (s *Server) handler() network.StreamHandler {
	return guard.StreamLimiter().Limit(s.handle)
}

// A seat's addresses in a Lobby (for an election) are a few short ones:
// with MaxNick names, ten seats of them stay far under the frame limit.
const (
	seatAddrs   = 4
	maxSeatAddr = 64 // bytes of a multiaddr's text: /ip6/…/tcp/65535 is 50
)

// refusal is a check's answer that the peer is told as it is.
type refusal struct{ code, msg string }

func (r *refusal) Error() string { return r.msg }

// playerTypes are the messages a host takes from a player's connection;
// State only while it joins a table being rebuilt.
var playerTypes = map[protocol.Type]bool{
	protocol.TypeHello: true, protocol.TypeLeave: true, protocol.TypeHeartbeat: true, protocol.TypeState: true,
	protocol.TypePlay: true, protocol.TypeCall: true, protocol.TypePass: true, protocol.TypeGive: true,
	protocol.TypeQuads: true, protocol.TypeDoubt: true, protocol.TypeBelieve: true, protocol.TypeSkip: true,
	protocol.TypeNonceCommit: true, protocol.TypeNonceReveal: true,
	// A party's part at a blind table (node/table: blind.go).
	protocol.TypeDeckKey: true, protocol.TypeDeckSplit: true, protocol.TypeDeckShuffle: true, protocol.TypeDeckDeal: true,
	protocol.TypeDeckOpen: true, protocol.TypeDeckHandover: true, protocol.TypeDeckRecover: true, protocol.TypeDeckPool: true,
	protocol.TypeDeckPublish: true, protocol.TypeBlindMove: true,
}

// admit is the check on an envelope's header, before its signature is
// verified or its body decoded: everything a host refuses without needing
// to know the envelope is genuine. It records nothing.
func (c *srvConn) admit(h *protocol.Header) error {
	// A joiner who dialled an address may not know the table's ID yet.
	if h.Table != c.s.tid && !(c.sess == nil && h.Table == (protocol.TableID{})) {
		return &refusal{protocol.CodeBadCommand, "That message is for another table."}
	}
	// Only an elected host raises the term: a player's envelope must carry
	// the table's current one, or anyone could fence everyone else out.
	if t := c.s.term.Load(); h.Term != t {
		return &refusal{protocol.CodeBadCommand, fmt.Sprintf("Refused: term %d, the table is at term %d.", h.Term, t)}
	}
	if err := c.s.replay.Peek(h.Sender, h.Term, h.Seq); err != nil {
		return err
	}
	switch {
	case !h.Type.Known():
		return &protocol.DecodeError{Kind: protocol.ErrUnknownType, Type: h.Type}
	case !c.greeted && h.Type != protocol.TypeHello:
		// A stranger's first frame costs a hello's decoding at most.
		return &refusal{protocol.CodeBadCommand, "Say hello first."}
	case !playerTypes[h.Type], h.Type == protocol.TypeState && !c.joining:
		return &refusal{protocol.CodeBadCommand, "A player can't send that message."}
	}
	return nil
}

// ship sends one message of a connection's updates. One that can't be
// sealed (over the size limit: the host's bounds should make it
// impossible) goes without what can be left out, counted in Dropped: a
// lobby without the seats' addresses (they are for an election), an update
// with its view and notice but not its events and journal (the player's
// audit will say what it missed); the updates go on. One that can't be
// written ends the connection, reset, so the player notices and reconnects
// for its backlog. The updates never stop in silence. It says whether to
// go on.
func (c *srvConn) ship(m protocol.Message) bool {
	err := c.send(m)
	if errors.Is(err, protocol.ErrTooBig) {
		switch m := m.(type) {
		case protocol.Lobby:
			m.Players = append([]protocol.Player(nil), m.Players...)
			for i := range m.Players {
				m.Players[i].Addrs = nil
			}
			c.s.Dropped.Add(1)
			err = c.send(m)
		case protocol.Update:
			m.Events, m.Steps, m.Shares = nil, nil, nil
			c.s.Dropped.Add(1)
			err = c.send(m)
		}
	}
	switch {
	case err == nil:
		return true
	case errors.Is(err, protocol.ErrTooBig):
		c.s.Dropped.Add(1)
		return true
	}
	c.st.Reset()
	return false
}

// placed is a joiner seated or watching: its frames are read under a
// player's budget or the spectators' shared one, and a seated player's
// connection is one the connection manager never trims.
func (c *srvConn) placed() {
	c.joining = false
	if c.seat < 0 {
		c.lim.Shared = c.s.watchers()
	}
	if c.web {
		return // no libp2p connection to keep
	}
	if c.seat < 0 {
		c.s.h.ConnManager().TagPeer(c.peer, c.tag(), 10)
		return
	}
	c.s.h.ConnManager().Protect(c.peer, c.tag())
}

func (c *srvConn) unplaced() {
	if c.seat < 0 {
		c.unwatch()
	}
	if c.web {
		return
	}
	if c.seat < 0 {
		c.s.h.ConnManager().UntagPeer(c.peer, c.tag())
		return
	}
	c.s.h.ConnManager().Unprotect(c.peer, c.tag())
}

// tag is this connection's own, so that a seat's new connection and its
// old one don't undo each other.
func (c *srvConn) tag() string { return fmt.Sprintf("bullshit/%p", c) }
