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
// can't be obeyed again: nobody dials it, and what it sends is stale.
//
// What: the new host knows the public journal (every step, its hidden cards
// left out; a journal a player relays counts only if the old host's
// signed chain covers it, chain.go) and one share of each hidden part and of the seed
// (journalshare.go), at a threshold of every player node but the old
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

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/protocol"
)

// codeHostAlive is a standby node's answer to a rejoin while it still
// hears the host: no election.
const codeHostAlive = "host_alive"

// Hosting reports whether this seat won an election and hosts the table.
func (r *Remote) Hosting() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.server != nil
}

// UseBots gives a remote seat what it needs to host, should it be elected:
// the bots for the bot seats and the fallback move.
func (r *Remote) UseBots(b BotMaker, fall func(*engine.View) (engine.Command, bool)) {
	r.mu.Lock()
	r.bots, r.fall = b, fall
	r.mu.Unlock()
}

type candidate struct {
	id    peer.ID
	addrs []ma.Multiaddr
}

// candidates are the person seats' nodes that may host next, lowest peer
// ID first, the old host left out. A seat shown away is kept in line: each
// player saw the table's last word on who was connected at its own moment
// (a dying host may tell one player "Ada is away" and not another), so
// leaving those out gave two players two different lines and two hosts. A
// candidate really gone costs a failed dial before the next in line.
func (r *Remote) candidates(old peer.ID) []candidate {
	var out []candidate
	for _, s := range r.table.Seats {
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

// phones is how many seats are phones' (r.mu held).
func (r *Remote) phones() int {
	n := 0
	for _, s := range r.table.Seats {
		if s.Web && s.Bot == "" && s.Peer != "" {
			n++
		}
	}
	return n
}

// failover runs when the host went silent. It tries the host, then the
// candidates, lowest peer ID first, and takes over itself only when it is
// first in line and can reach another player: a player cut off from
// everyone (its own Wi-Fi dropped) keeps trying instead, and gets its seat
// back when its link heals.
func (r *Remote) failover() {
	oldInfo, ok := r.failoverStart()
	if !ok {
		return
	}
	old := oldInfo.ID
	said := ""
	say := func(text string) {
		if text != said {
			said = text
			r.notice(text)
		}
	}
	missed := map[peer.ID]int{} // candidates not reached at all, by round
	for !r.closed.Load() {
		if r.retryHost(oldInfo) {
			return
		}
		cands, phones, done := r.lineUp(old)
		if done {
			return
		}
		if len(cands)+phones < 2 {
			say("The host is gone and you're the only player left: waiting for it to come back.")
			r.pause()
			continue
		}
		if r.walkLine(cands, phones, missed) {
			return
		}
		r.mu.Lock()
		done = r.server != nil
		r.mu.Unlock()
		if done {
			return
		}
		say("Lost the table: trying to get back…")
		r.pause()
	}
}

// failoverStart is the host we lost, or false when there is no election to
// run: we are closed, a spectator (who only reconnects) or the host, or
// the game is over.
func (r *Remote) failoverStart() (peer.AddrInfo, bool) {
	r.mu.Lock()
	if r.closed.Load() || r.watch || r.server != nil {
		r.mu.Unlock()
		if !r.closed.Load() && r.server == nil {
			r.reconnect()
		}
		return peer.AddrInfo{}, false
	}
	if r.view.Phase == engine.PhaseOver || r.table.Phase == PhaseOver {
		// The game is over (or the host ended it, and revealed it): a
		// host that leaves now owes us nothing more.
		r.mu.Unlock()
		r.notice("The host has left the finished game.")
		r.Close()
		return peer.AddrInfo{}, false
	}
	oldInfo := r.info
	r.mu.Unlock()
	return oldInfo, true
}

// retryHost tries the host itself first: a dropped link often comes
// straight back, and a player whose own link failed must not start an
// election. It reports whether the failover is over (back, or refused).
func (r *Remote) retryHost(oldInfo peer.AddrInfo) bool {
	r.mu.Lock()
	r.info, r.elect = oldInfo, 0
	r.mu.Unlock()
	ctx, cancel := context.WithTimeout(r.ctx, r.timing.HostRetry)
	err := r.connect(ctx)
	cancel()
	if err == nil {
		r.notice("Reconnected.")
		return true
	}
	var ref *ErrRefused
	if errors.As(err, &ref) {
		r.notice("The host refused us: " + ref.Msg)
		r.Close()
		return true
	}
	return false
}

// lineUp is who may host after old, and how many phones hold shares;
// with two of them or more an election for the next term begins. done
// reports that a rejoin elected us meanwhile.
func (r *Remote) lineUp(old peer.ID) (cands []candidate, phones int, done bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.server != nil { // elected meanwhile, by a rejoin
		return nil, 0, true
	}
	cands = r.candidates(old)
	// Phones hold shares too: a player node and a phone can rebuild
	// the table, the node hosting.
	phones = r.phones()
	if len(cands)+phones >= 2 {
		r.elect = r.term + 1
	}
	return cands, phones, false
}

// walkLine tries the candidates in order until one seats us, or we are
// first in line and take over. It reports whether the failover is over;
// false is another round.
func (r *Remote) walkLine(cands []candidate, phones int, missed map[peer.ID]int) bool {
	var ref *ErrRefused
	for _, c := range cands {
		if r.closed.Load() {
			return true
		}
		if c.id == r.h.ID() {
			if r.reachesAnother(cands, phones) && r.takeover() != nil {
				return true
			}
			return false // nobody in reach: the fault is ours
		}
		r.mu.Lock()
		if r.server != nil {
			r.mu.Unlock()
			return true
		}
		r.info = peer.AddrInfo{ID: c.id, Addrs: c.addrs}
		r.mu.Unlock()
		err := r.connectTwice()
		if err == nil {
			r.notice(fmt.Sprintf("Host left; %s is now hosting.", r.nameOf(c.id)))
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
		// seconds there). Passing over a live one makes a second host
		// that never heals, so a candidate is passed over only when it
		// has missed a second round too.
		if missed[c.id]++; missed[c.id] < 2 {
			return false
		}
	}
	return false
}

// connectTwice tries the candidate in r.info, and once more on a failure
// other than a refusal: two nodes that dial each other at the same moment
// can both fail (each takes the client's side of the same TCP
// connection), and passing a candidate over makes the next in line host
// too.
func (r *Remote) connectTwice() error {
	var ref *ErrRefused
	err := r.connectOnce(r.timing.DeadAfter)
	if err != nil && !errors.As(err, &ref) && !r.closed.Load() {
		select {
		case <-r.ctx.Done():
		case <-time.After(200 * time.Millisecond):
		}
		err = r.connectOnce(r.timing.DeadAfter)
	}
	return err
}

// connectOnce tries the node in r.info, for at most d.
func (r *Remote) connectOnce(d time.Duration) error {
	ctx, cancel := context.WithTimeout(r.ctx, d)
	defer cancel()
	return r.connect(ctx)
}

// pause waits a little between rounds of trying.
func (r *Remote) pause() {
	select {
	case <-r.ctx.Done():
	case <-time.After(500 * time.Millisecond):
	}
}

// reachesAnother reports whether any other candidate answers at all. With
// none but phones, it can't tell: the phones come to us (they dial), and a
// table none of them rebuilds within RebuildWait is given up.
func (r *Remote) reachesAnother(cands []candidate, phones int) bool {
	if len(cands) == 1 && phones > 0 {
		return true
	}
	for _, c := range cands {
		if c.id == r.h.ID() {
			continue
		}
		ctx, cancel := context.WithTimeout(r.ctx, r.timing.HostRetry)
		err := r.h.Connect(ctx, peer.AddrInfo{ID: c.id, Addrs: c.addrs})
		cancel()
		if err == nil {
			return true
		}
	}
	return false
}

func (r *Remote) nameOf(id peer.ID) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.table.Seats {
		if s.Peer == id.String() {
			return s.Name
		}
	}
	return "another player"
}

func (r *Remote) notice(text string) {
	r.mu.Lock()
	u := Update{Table: r.table, View: r.view, Notice: text}
	r.mu.Unlock()
	r.box.put(u)
}

// stateMsg is our part for a new host: the journal we hold and our shares.
func (r *Remote) stateMsg(term uint64) protocol.State {
	r.mu.Lock()
	defer r.mu.Unlock()
	st := protocol.State{Term: term, No: r.view.No}
	st.Steps = append([]protocol.Step(nil), r.chain.Steps...)
	if stateHook != nil {
		stateHook(r, &st)
	}
	for step, sh := range r.shares {
		st.Shares = append(st.Shares, protocol.StepShare{Step: step, X: sh.X, Y: sh.Y, K: sh.K})
	}
	return st
}

// stateHook, in tests, rewrites a player's state for a new host (r.mu is
// held): a player who lies about the game.
var stateHook func(r *Remote, st *protocol.State)

// standby answers a player who rejoins us for the next term: the host is
// gone and we are first in line.
func (r *Remote) standby(st network.Stream) {
	br := bufio.NewReader(st)
	st.SetReadDeadline(time.Now().Add(r.timing.DeadAfter))
	b, err := readFrame(br)
	if err != nil {
		st.Reset()
		return
	}
	env, err := protocol.Open(b, wireID(st.Conn().RemotePeer()))
	if err != nil {
		st.Reset()
		return
	}
	_, hello := env.Msg.(protocol.Hello)
	r.mu.Lock()
	term := r.term + 1
	if r.server != nil {
		// We took over a moment ago and this rejoin came in before our
		// stream handler changed: it is for the term we host.
		term = r.term
	}
	ok := hello && env.Table == r.tid && env.Term == term && r.isPlayer(env.Sender) && !r.closed.Load()
	if ok && r.server == nil && !r.hostLost && time.Since(r.heard) < 2*r.timing.Heartbeat+r.timing.Heartbeat/2 {
		// We still hear the host: the rejoiner lost only its own link.
		r.mu.Unlock()
		if sg, err := newSigner(r.key); err == nil {
			if b, _, err := sg.Seal(r.tid, r.term, protocol.Refusal{Code: codeHostAlive, Message: "The host is still here.", Ref: env.Seq}); err == nil {
				w := bufio.NewWriter(st)
				writeFrame(w, b)
			}
		}
		st.Close()
		return
	}
	if ok && r.server == nil && r.elect == 0 {
		r.elect = r.term + 1
	}
	r.mu.Unlock()
	if !ok {
		st.Reset()
		return
	}
	srv := r.takeover()
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

func (r *Remote) isPlayer(id protocol.PeerID) bool {
	for _, s := range r.table.Seats {
		if s.Peer == id.String() && s.Bot == "" {
			return true
		}
	}
	return false
}

// takeover makes this node the host of the next term. It is idempotent.
func (r *Remote) takeover() *Server {
	r.mu.Lock()
	if r.server != nil {
		defer r.mu.Unlock()
		return r.server
	}
	if r.bots == nil {
		r.mu.Unlock()
		r.notice("The host is gone, and this player can't host: waiting for it to come back.")
		return nil
	}
	term := r.elect
	if term == 0 {
		term = r.term + 1
	}
	signer, err := newSigner(r.key)
	if err != nil {
		r.mu.Unlock()
		return nil
	}
	rec := r.newRecovery(term)
	srv := r.newServer(signer, term, rec)
	web := r.web
	r.server = srv
	r.term, r.elect = term, 0
	if r.st != nil {
		r.st.Reset()
		r.st = nil
	}
	r.gen++ // the old host's read loop is done with
	r.mu.Unlock()
	r.h.SetStreamHandler(ProtocolID, srv.handler()) // behind StreamsPerAddr, as the first host's
	if web != nil {
		web.hosting(srv) // the phones rejoin through our own /ws
	}
	r.notice("The host left: you are hosting now. Rebuilding the table with the other players…")
	go r.awaitRebuild(srv, rec, web)
	return srv
}

// newRecovery is the rebuild of the game for the term we take over,
// started with our own journal and shares. r.mu is held.
func (r *Remote) newRecovery(term uint64) *recovery {
	rec := &recovery{r: r, table: r.table, commit: r.table.Commit, tid: r.tid, shares: map[int][]Share{}, done: make(chan struct{}),
		term: term, hosts: r.chain.Hosts(term)}
	if r.oldHost != "" {
		if _, ok := rec.hosts[term-1]; !ok {
			if pub, err := wireID(r.oldHost).PublicKey(); err == nil {
				rec.hosts[term-1] = pub
			}
		}
	}
	r.chain.Host(term, wireID(r.h.ID()))
	// A table whose host kept no chain (an older version) is rebuilt as
	// before; once our own journal is signed, an unsigned one is refused.
	rec.legacy = len(r.chain.Steps) > 0 && !gamewire.Signed(r.chain.Steps)
	rec.ownLen = len(r.chain.Steps)
	rec.add(wireID(r.h.ID()), r.chain.Steps, r.shares)
	return rec
}

// newServer is the server of the term we take over, not ready until rec
// has rebuilt the table. r.mu is held.
func (r *Remote) newServer(signer *protocol.Signer, term uint64, rec *recovery) *Server {
	srv := &Server{h: r.h, signer: signer, tid: r.tid, code: r.code, conns: map[*srvConn]bool{}, revealed: make(chan struct{}, 64), rec: rec,
		ready: make(chan struct{}), timing: r.timing}
	srv.term.Store(term)
	rec.srv = srv
	// The phones stay phones, and every node's web address is known,
	// before they rejoin.
	srv.web = map[string]webSeat{}
	for _, si := range r.table.Seats {
		if si.Peer != "" && si.Bot == "" && (si.Web || si.WebAddr != "") {
			srv.web[si.Peer] = webSeat{phone: si.Web, addr: si.WebAddr}
		}
	}
	srv.selfWeb = r.webAddr
	return srv
}

// awaitRebuild gives hosting up when no other player came back to rebuild
// the table within RebuildWait, and waits for the old host again.
func (r *Remote) awaitRebuild(srv *Server, rec *recovery, web *Web) {
	select {
	case <-rec.done:
	case <-time.After(r.timing.RebuildWait):
		if !srv.isReady() {
			// Nobody came: give hosting up and wait for the old host.
			r.mu.Lock()
			r.server = nil
			r.chain.Forget(r.term) // whoever hosts this term next, it isn't us
			r.term--
			// The next failover starts from the host we lost, which
			// may come back from its journal, not from the candidate
			// we last tried (that one may be gone with it).
			r.info = r.lostAt
			r.mu.Unlock()
			srv.Close()
			if web != nil {
				web.unhost(srv)
			}
			r.h.SetStreamHandler(ProtocolID, r.standby)
			r.notice("No other player came back to rebuild the table: waiting for the host.")
			go r.failover()
		}
	case <-r.ctx.Done():
	}
}
