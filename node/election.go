package node

// When the host vanishes (its laptop lid closed), the player nodes elect a
// new one and the game goes on from the same play.
//
// Who: the person seats' nodes, sorted by peer ID, the old host left out.
// Every node that loses the host walks that list from the lowest: the
// first that answers hosts, and a node that finds itself first takes
// over. A node reached by a rejoin for the next term before it noticed the
// loss takes over too. The term goes up by one; envelopes of an older term
// are refused (protocol.Replay), so the old host, should it come back,
// can't be obeyed again: nobody dials it, and what it sends is stale. Two
// nodes that take over the same term at once (one could not reach the
// other in time) heal: the one later in line yields (newhost.go).
//
// What: the new host knows the public journal (every step, its hidden cards
// left out; a journal a player relays counts only if the old host's
// signed chain covers it, node/table's chain.go) and one share of each hidden part and of the seed
// (node/table's journalshare.go), at a threshold of every player node but the old
// host's. It asks each player that rejoins for its shares; with every
// other player's it rebuilds the exact journal, checks the seed against
// the commitment published before the deal, replays the game, restarts an
// open window's clock (engine.MoveResume), seats the bots with their
// memories replayed, and seats the players. A player node that vanished
// with the host holds a share nobody else has: the new host waits
// Timing.RebuildWait for it to come back (a dropped link; a program that
// restarted has no shares), then gives hosting up, and every player goes
// back to trying the old host, which may return from its journal. With only
// one player node left there is nobody to rebuild with, and nothing to
// rebuild alone: it waits for the old host.
//
// Here: the candidate's role (runCandidate and its walk, failover), a
// spectator's walk back to its host (redial), and what answers a player
// who rejoins us (standby) and makes us the host (takeover).

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/table"
	"github.com/bullshit-game/bullshit/protocol"
)

// codeHostAlive is a standby node's answer to a rejoin while it still
// hears the host: no election.
const codeHostAlive = "host_alive"

// runCandidate is the candidate's loop: our host is gone, and a walk of
// the line (failover) looks for the next, which may be us. The walk tells
// run through calls: a host seated us (arrive), we take over (takeover),
// or the host refused us.
func (r *Remote) runCandidate() {
	r.startWalk(r.failover)
	for r.role == roleCandidate {
		select {
		case f := <-r.in:
			f()
		case m := <-r.fromHost:
			r.take(m) // of a link we lost: nothing
		}
	}
}

// A walk is a goroutine that tries hosts for run in some order (failover,
// redial, lookAhead), from a copy of the table made when it started. It
// tells run what it found through do, and run heeds only the walk under
// way: one it has moved on from is cancelled, and what it still says is
// dropped.
type walk struct {
	ctx    context.Context
	cancel context.CancelFunc
	line   line
}

// line is what a walk knows of the table.
type line struct {
	old    peer.AddrInfo // the host we lost, or follow
	tid    protocol.TableID
	term   uint64      // our term when the walk started
	cands  []candidate // who may host after old, lowest peer ID first
	phones int         // how many phones hold shares
	seats  []table.SeatInfo
}

// startWalk starts f as the walk under way (on run), ending the last.
func (r *Remote) startWalk(f func(*walk)) {
	r.endWalk()
	ctx, cancel := context.WithCancel(r.ctx)
	w := &walk{ctx: ctx, cancel: cancel, line: line{old: r.info, tid: r.tid, term: r.term,
		cands: candidates(r.table.Seats, r.info.ID), phones: r.phones(), seats: r.table.Seats}}
	r.walk = w
	go f(w)
}

// endWalk ends the walk under way (on run).
func (r *Remote) endWalk() {
	if r.walk != nil {
		r.walk.cancel()
		r.walk = nil
	}
}

// arrive is a walk's join: a host seated us on l. A walk run has moved on
// from gets nothing, and its link is dropped.
func (r *Remote) arrive(w *walk, l *hostLink, note string) {
	took := false
	r.do(func() {
		if took = w == r.walk; took {
			r.follow(l)
			r.notice(note)
		}
	})
	if !took {
		l.st.Reset()
	}
}

// refusedBy is a walk's refusal from our host: we leave.
func (r *Remote) refusedBy(w *walk, ref *gamewire.Refused) {
	r.do(func() {
		if w == r.walk {
			r.notice("The host refused us: " + ref.Msg)
			r.stop()
		}
	})
}

// say is a walk's news for our screen, once for each change (said).
func (r *Remote) say(w *walk, said *string, text string) {
	if text == *said {
		return
	}
	*said = text
	r.do(func() {
		if w == r.walk {
			r.notice(text)
		}
	})
}

// takeoverFor is a walk's finding that we are first in line: whether we
// host now.
func (r *Remote) takeoverFor(w *walk) bool {
	ok := false
	r.do(func() { ok = w == r.walk && r.takeover() != nil })
	return ok
}

type candidate struct {
	id    peer.ID
	addrs []ma.Multiaddr
}

func (c candidate) info() peer.AddrInfo { return peer.AddrInfo{ID: c.id, Addrs: c.addrs} }

// candidates are the person seats' nodes that may host next, lowest peer
// ID first, the old host left out. A seat shown away is kept in line: each
// player saw the table's last word on who was connected at its own moment
// (a dying host may tell one player "Ada is away" and not another), so
// leaving those out gave two players two different lines and two hosts. A
// candidate really gone costs a failed dial before the next in line.
func candidates(seats []table.SeatInfo, old peer.ID) []candidate {
	var out []candidate
	for _, s := range seats {
		id, err := peer.Decode(s.Peer)
		if err != nil || id == old || s.Bot != "" || s.Web {
			continue // a phone never hosts
		}
		c := candidate{id: id}
		for _, a := range s.Addrs {
			if m, err := ma.NewMultiaddr(a); err == nil {
				c.addrs = append(c.addrs, m)
			}
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

// phones is how many seats are phones'.
func (r *Remote) phones() int {
	n := 0
	for _, s := range r.table.Seats {
		if s.Web && s.Bot == "" && s.Peer != "" {
			n++
		}
	}
	return n
}

// failover is the candidate's walk. It tries the host, then the
// candidates, lowest peer ID first, and takes over itself only when it is
// first in line and can reach another player: a player cut off from
// everyone (its own Wi-Fi dropped) keeps trying instead, and gets its seat
// back when its link heals.
func (r *Remote) failover(w *walk) {
	// Dial afresh: after a link was down for seconds the old connection
	// still looks open, but its TCP retransmits on a backed-off timer, so
	// the host's answer to a join on it comes too late: the host seats us,
	// we give up, and the table hears us leave twice.
	r.h.Network().ClosePeer(w.line.old.ID)
	said := ""
	missed := map[peer.ID]int{} // candidates not reached at all, by round
	for w.ctx.Err() == nil {
		if r.retryHost(w) {
			return
		}
		// Phones hold shares too: a player node and a phone can rebuild
		// the table, the node hosting. With two of them or more an
		// election for the next term begins.
		if len(w.line.cands)+w.line.phones < 2 {
			r.say(w, &said, "The host is gone and you're the only player left: waiting for it to come back.")
			pause(w.ctx, 500*time.Millisecond)
			continue
		}
		if r.walkLine(w, missed) {
			return
		}
		r.say(w, &said, "Lost the table: trying to get back…")
		pause(w.ctx, 500*time.Millisecond)
	}
}

// retryHost tries the host itself first: a dropped link often comes
// straight back, and a player whose own link failed must not start an
// election. It reports whether the walk is over (back, or refused).
func (r *Remote) retryHost(w *walk) bool { return r.back(w, r.timing.HostRetry) }

// back is one try of the host we lost, for at most d. It reports whether
// the walk is over: the host seated us, or refused us.
func (r *Remote) back(w *walk, d time.Duration) bool {
	ctx, cancel := context.WithTimeout(w.ctx, d)
	l, err := r.join(ctx, aim{to: w.line.old, tid: w.line.tid, term: w.line.term, back: true})
	cancel()
	var ref *gamewire.Refused
	switch {
	case err == nil:
		r.arrive(w, l, "Reconnected.")
	case errors.As(err, &ref):
		r.refusedBy(w, ref)
	default:
		return w.ctx.Err() != nil
	}
	return true
}

// walkLine tries the candidates in order, for the next term, until one
// seats us, or we are first in line and take over. It reports whether the
// walk is over; false is another round.
func (r *Remote) walkLine(w *walk, missed map[peer.ID]int) bool {
	next := aim{tid: w.line.tid, term: w.line.term + 1}
	var ref *gamewire.Refused
	for _, c := range w.line.cands {
		if w.ctx.Err() != nil {
			return true
		}
		if c.id == r.h.ID() {
			// Nobody in reach: the fault is ours.
			if !r.reachesAnother(w) {
				return false
			}
			// Another is: our link is back, and the host may well be
			// too, its last try having started while the link was
			// down (a lost SYN is sent again after a second, past
			// HostRetry). Once more, then, before a second host.
			return r.retryHost(w) || r.takeoverFor(w)
		}
		next.to = c.info()
		l, err := r.joinTwice(w.ctx, next)
		if err == nil {
			r.arrive(w, l, fmt.Sprintf("Host left; %s is now hosting.", nameOf(w.line.seats, c.id)))
			return true
		}
		if errors.As(err, &ref) && ref.Code == codeHostAlive {
			return false // the others still hear the host: the fault is our link
		}
		if r.h.Network().Connectedness(c.id) == network.Connected {
			// Ahead of us in line and alive, only not ready for us
			// yet (rebuilding, or taking over this very moment):
			// passing it over would make a second host. Ask it again.
			return false
		}
		// Not reached at all: gone with the host, or only slow to
		// answer on a busy machine (a dial and a handshake can take
		// seconds there). Passing over a live one makes a second host,
		// so a candidate is passed over only when it has missed a
		// second round too (and should both host, newhost.go heals it).
		if missed[c.id]++; missed[c.id] < 2 {
			return false
		}
	}
	return false
}

// joinTwice is a join, once more on a failure other than a refusal: two
// nodes that dial each other at the same moment can both fail (each takes
// the client's side of the same TCP connection), and passing a candidate
// over makes the next in line host too.
func (r *Remote) joinTwice(ctx context.Context, a aim) (*hostLink, error) {
	once := func() (*hostLink, error) {
		ctx, cancel := context.WithTimeout(ctx, r.timing.DeadAfter)
		defer cancel()
		return r.join(ctx, a)
	}
	l, err := once()
	var ref *gamewire.Refused
	if err != nil && !errors.As(err, &ref) && ctx.Err() == nil {
		pause(ctx, 200*time.Millisecond)
		l, err = once()
	}
	return l, err
}

// pause waits d, or less when ctx ends.
func pause(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// reachesAnother reports whether any other candidate answers at all. With
// none but phones, it can't tell: the phones come to us (they dial), and a
// table none of them rebuilds within RebuildWait is given up.
func (r *Remote) reachesAnother(w *walk) bool {
	cands := w.line.cands
	if len(cands) == 1 && w.line.phones > 0 {
		return true
	}
	for _, c := range cands {
		if c.id == r.h.ID() {
			continue
		}
		ctx, cancel := context.WithTimeout(w.ctx, r.timing.HostRetry)
		err := r.h.Connect(ctx, c.info())
		cancel()
		if err == nil {
			return true
		}
	}
	return false
}

// redial is a spectator's walk: its host again, until it answers or
// refuses us.
func (r *Remote) redial(w *walk) {
	r.h.Network().ClosePeer(w.line.old.ID)
	for !r.back(w, 2*time.Second) {
		pause(w.ctx, 500*time.Millisecond)
	}
}

func nameOf(seats []table.SeatInfo, id peer.ID) string {
	for _, s := range seats {
		if s.Peer == id.String() {
			return s.Name
		}
	}
	return "another player"
}

// stateMsg is our part for a new host (on run): the journal we hold and
// our shares.
func (r *Remote) stateMsg() protocol.State {
	var st protocol.State
	st.Steps = append([]protocol.Step(nil), r.chain.Steps...)
	if r.table.Blind {
		st.Logs = slices.Clone(r.logTail)
	}
	if stateHook != nil {
		stateHook(r, &st)
	}
	for step, sh := range r.shares {
		st.Shares = append(st.Shares, protocol.StepShare{Step: step, X: sh.X, Y: sh.Y, K: sh.K})
	}
	return st
}

// stateHook, in tests, rewrites a player's state for a new host (on run):
// a player who lies about the game.
var stateHook func(r *Remote, st *protocol.State)

// standby answers a player who rejoins us for the next term: the host is
// gone and we are first in line. run says whether we host (rejoin); the
// player is then served on this goroutine.
func (r *Remote) standby(st network.Stream) {
	br := bufio.NewReader(st)
	st.SetReadDeadline(time.Now().Add(r.timing.DeadAfter))
	b, err := gamewire.ReadFrame(br)
	if err != nil {
		st.Reset()
		return
	}
	env, err := protocol.OpenChecked(b, wireID(st.Conn().RemotePeer()), func(h *protocol.Header) error {
		if h.Type != protocol.TypeHello {
			return errors.New("a rejoin opens with a hello") // nothing else is decoded
		}
		return nil
	})
	if err != nil {
		st.Reset()
		return
	}
	var (
		srv   *Server
		alive bool
		tid   protocol.TableID
		term  uint64
	)
	if !r.do(func() { srv, alive = r.rejoin(env); tid, term = r.tid, r.term }) {
		st.Reset()
		return
	}
	if alive {
		// We still hear the host: the rejoiner lost only its own link.
		if sg, err := newSigner(r.key); err == nil {
			if b, _, err := sg.Seal(tid, term, protocol.Refusal{Code: codeHostAlive, Message: "The host is still here.", Ref: env.Seq}); err == nil {
				gamewire.WriteFrame(bufio.NewWriter(st), b)
			}
		}
		st.Close()
		return
	}
	if srv == nil {
		st.Reset()
		return
	}
	if err := srv.replay.Check(env.Sender, env.Term, env.Seq); err != nil {
		st.Reset()
		return
	}
	st.SetReadDeadline(time.Time{})
	srv.serve(p2pLink{st}, br, env)
}

// rejoin is our answer to a player's rejoin in env (on run): the server of
// the term it asks for, which we host or take over for now; alive when we
// still hear our host. A term we yielded to a host ahead of us in line is
// not ours to take again: its player goes on to that host.
func (r *Remote) rejoin(env *protocol.Envelope) (srv *Server, alive bool) {
	_, hello := env.Msg.(protocol.Hello)
	if !hello || env.Table != r.tid || !r.isPlayer(env.Sender) {
		return nil, false
	}
	switch r.role {
	case roleHost:
		// We took over a moment ago and this rejoin came in before our
		// stream handler changed: it is for the term we host.
		if env.Term == r.term {
			return r.server, false
		}
	case rolePlayer, roleCandidate:
		switch {
		case env.Term != r.term+1 || env.Term <= r.yielded:
		case r.link != nil && time.Since(r.heard) < 2*r.timing.Heartbeat+r.timing.Heartbeat/2:
			return nil, true
		default:
			return r.takeover(), false
		}
	}
	return nil, false
}

func (r *Remote) isPlayer(id protocol.PeerID) bool {
	for _, s := range r.table.Seats {
		if s.Peer == id.String() && s.Bot == "" {
			return true
		}
	}
	return false
}

// takeover makes this node the host of the next term (on run): the host's
// role. It is idempotent.
func (r *Remote) takeover() *Server {
	if r.server != nil {
		return r.server
	}
	if r.bots == nil {
		r.notice("The host is gone, and this player can't host: waiting for it to come back.")
		return nil
	}
	signer, err := newSigner(r.key)
	if err != nil {
		return nil
	}
	r.heed()
	r.dropLink() // a host we no longer hear: the one gone
	term := r.term + 1
	if srv := r.blindTakeover(signer, term); srv != nil {
		return srv
	}
	rec := r.newRecovery(term)
	srv := r.newServer(signer, term, rec)
	r.server, r.term = srv, term
	r.hosting.Store(true)
	r.h.SetStreamHandler(ProtocolID, srv.handler()) // behind StreamsPerAddr, as the first host's
	if r.web != nil {
		r.web.hosting(srv) // the phones rejoin through our own /ws
	}
	r.notice("The host left: you are hosting now. Rebuilding the table with the other players…")
	r.become(roleHost)
	return srv
}
