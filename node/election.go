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
// with the host holds a share nobody else has: the game waits (Timing.RebuildWait)
// for it to come back, then for the old host (its journal). With only one
// player node left there is nobody to rebuild with, and nothing to rebuild
// alone: it waits for the old host.

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
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
	r.mu.Lock()
	if r.closed.Load() || r.watch || r.server != nil {
		r.mu.Unlock()
		if !r.closed.Load() && r.server == nil {
			r.reconnect()
		}
		return
	}
	if r.view.Phase == engine.PhaseOver || r.table.Phase == PhaseOver {
		// The game is over (or the host ended it, and revealed it): a
		// host that leaves now owes us nothing more.
		r.mu.Unlock()
		r.notice("The host has left the finished game.")
		r.Close()
		return
	}
	oldInfo := r.info
	old := r.info.ID
	r.mu.Unlock()
	said := ""
	say := func(text string) {
		if text != said {
			said = text
			r.notice(text)
		}
	}
	for !r.closed.Load() {
		// The host itself first: a dropped link often comes straight back,
		// and a player whose own link failed must not start an election.
		r.mu.Lock()
		r.info, r.elect = oldInfo, 0
		r.mu.Unlock()
		ctx, cancel := context.WithTimeout(r.ctx, r.timing.HostRetry)
		err := r.connect(ctx)
		cancel()
		if err == nil {
			r.notice("Reconnected.")
			return
		}
		var ref *ErrRefused
		if errors.As(err, &ref) {
			r.notice("The host refused us: " + ref.Msg)
			r.Close()
			return
		}
		r.mu.Lock()
		if r.server != nil { // elected meanwhile, by a rejoin
			r.mu.Unlock()
			return
		}
		cands := r.candidates(old)
		// Phones hold shares too: a player node and a phone can rebuild
		// the table, the node hosting.
		phones := r.phones()
		if len(cands)+phones >= 2 {
			r.elect = r.term + 1
		}
		r.mu.Unlock()
		if len(cands)+phones < 2 {
			say("The host is gone and you're the only player left: waiting for it to come back.")
			r.pause()
			continue
		}
		for _, c := range cands {
			if r.closed.Load() {
				return
			}
			if c.id == r.h.ID() {
				if r.reachesAnother(cands, phones) && r.takeover() != nil {
					return
				}
				break // nobody in reach: the fault is ours
			}
			r.mu.Lock()
			if r.server != nil {
				r.mu.Unlock()
				return
			}
			r.info = peer.AddrInfo{ID: c.id, Addrs: c.addrs}
			r.mu.Unlock()
			err := r.connectOnce(r.timing.DeadAfter)
			if err != nil && !errors.As(err, &ref) && !r.closed.Load() {
				// Two nodes that dial each other at the same moment can
				// both fail (each takes the client's side of the same TCP
				// connection): one more try before passing a candidate
				// over, or the next in line hosts too.
				select {
				case <-r.ctx.Done():
				case <-time.After(200 * time.Millisecond):
				}
				err = r.connectOnce(r.timing.DeadAfter)
			}
			if err == nil {
				r.notice(fmt.Sprintf("Host left; %s is now hosting.", r.nameOf(c.id)))
				return
			}
			if errors.As(err, &ref) && ref.Code == codeHostAlive {
				break // the others still hear the host: the fault is our link
			}
			if r.h.Network().Connectedness(c.id) == network.Connected {
				// Ahead of us in line and alive, only not ready for us
				// yet (rebuilding, or taking over this very moment):
				// passing it over would make a second host. Ask it again.
				break
			}
		}
		r.mu.Lock()
		done := r.server != nil
		r.mu.Unlock()
		if done {
			return
		}
		say("Lost the table: trying to get back…")
		r.pause()
	}
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
	rec := &recovery{r: r, table: r.table, commit: r.table.Commit, shares: map[int][]Share{}, done: make(chan struct{}),
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
	web := r.web
	r.server = srv
	r.term, r.elect = term, 0
	if r.st != nil {
		r.st.Reset()
		r.st = nil
	}
	r.gen++ // the old host's read loop is done with
	r.mu.Unlock()
	r.h.SetStreamHandler(ProtocolID, srv.handle)
	if web != nil {
		web.hosting(srv) // the phones rejoin through our own /ws
	}
	r.notice("The host left: you are hosting now. Rebuilding the table with the other players…")
	go func() {
		select {
		case <-rec.done:
		case <-time.After(r.timing.RebuildWait):
			if !srv.isReady() {
				// Nobody came: give hosting up and wait for the old host.
				r.mu.Lock()
				r.server = nil
				r.chain.Forget(r.term) // whoever hosts this term next, it isn't us
				r.term--
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
	}()
	return srv
}

// recovery gathers the players' journals and shares for a new host.
type recovery struct {
	r      *Remote
	srv    *Server
	table  TableState
	commit [32]byte

	term   uint64                       // the term we host
	hosts  map[uint64]ed25519.PublicKey // who hosted each term before ours, as we saw it
	legacy bool                         // the old host kept no chain: journals are taken unsigned
	ownLen int                          // how many steps our own journal had

	mu       sync.Mutex
	journals [][]protocol.Step // every journal that verified, our own first
	refused  []string          // whose journals didn't, and why
	shares   map[int][]Share
	done     chan struct{}
	err      error
}

// keyOf is the key of the host of an earlier term.
func (rc *recovery) keyOf(term uint64) ed25519.PublicKey {
	if term >= rc.term {
		return nil
	}
	return rc.hosts[term]
}

// add takes a player's journal and shares. A journal is kept only when
// every step of it is one the host of its term signed, in a chain from the
// deal's commitment: with a forged or doctored step, or a tail nobody
// signed, the whole journal is refused (its shares are still taken: they
// are checked against the commitment and the seals when combined).
func (rc *recovery) add(from protocol.PeerID, journal []protocol.Step, shares map[int]Share) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	var err error
	switch {
	case rc.legacy && !gamewire.Signed(journal):
	case !gamewire.Signed(journal) && len(journal) > 0:
		err = gamewire.ErrChainUnsigned
	default:
		_, err = gamewire.VerifyChain(rc.r.tid, rc.commit, journal, rc.keyOf)
	}
	if err != nil {
		rc.refused = append(rc.refused, fmt.Sprintf("%s: %v", peer.ID(from).ShortString(), err))
	} else {
		rc.journals = append(rc.journals, append([]protocol.Step(nil), journal...))
	}
	for step, sh := range shares {
		dup := false
		for _, have := range rc.shares[step] {
			if have.X == sh.X {
				dup = true
			}
		}
		if !dup {
			rc.shares[step] = append(rc.shares[step], sh)
		}
	}
}

func (s *Server) tbl() *Table {
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

// contribute asks a rejoining player for its journal and shares, and waits
// until the table is rebuilt.
func (c *srvConn) contribute() error {
	rc := c.s.rec
	if err := c.send(protocol.StateRequest{Term: c.s.term.Load()}); err != nil {
		return err
	}
	var st protocol.State
	for {
		env, err := c.read()
		if err != nil {
			return err
		}
		if m, ok := env.Msg.(protocol.State); ok {
			st = m
			break
		}
	}
	shares := map[int]Share{}
	for _, sh := range engShares(st.Shares) {
		shares[sh.Step] = sh.Share
	}
	rc.add(wireID(c.peer), st.Steps, shares)
	rc.try()
	select {
	case <-c.s.ready:
		return nil
	case <-time.After(c.s.timing.RebuildWait):
		return errors.New("not rebuilt")
	}
}

// try rebuilds the game once every hidden part has its shares: from the
// longest journal that verified and rebuilds whole, or, when that one
// doesn't replay, from the next (a bad journal never stalls the table).
func (rc *recovery) try() {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if rc.srv.isReady() {
		return
	}
	seed, salt, err := RecoverSeed(rc.commit, rc.shares[-1]...)
	if err != nil {
		return
	}
	type cand struct {
		steps []engine.Step
		links []Link
		whole bool
	}
	var cands []cand
	for _, j := range rc.journals {
		steps, links := rc.rebuild(j, seed, salt)
		cands = append(cands, cand{steps, links, len(steps) == len(j)})
	}
	// A journal whose every hidden part rebuilds first: a longer one
	// whose last step some player never got (nor its shares) is cut back
	// to its last signed step.
	sort.SliceStable(cands, func(a, b int) bool {
		if cands[a].whole != cands[b].whole {
			return cands[a].whole
		}
		return len(cands[a].steps) > len(cands[b].steps)
	})
	var t *Table
	var rolled int
	for _, c := range cands {
		ts := rc.table
		cfg := engine.Config{Rules: ts.Rules, Seats: len(ts.Seats), Seed: seed}
		t, err = restore(rc.r, ts, cfg, salt, rc.commit, c.steps, c.links, rc.srv.term.Load())
		if err == nil {
			rolled = max(rc.ownLen-len(c.steps), 0)
			break
		}
		rc.err = err
		t = nil
	}
	if t == nil {
		return
	}
	if u := rc.srv.selfWeb; u != "" {
		t.do(func() { t.webURL = u })
	}
	rc.srv.mu.Lock()
	rc.srv.table = t
	rc.srv.mu.Unlock()
	close(rc.srv.ready)
	close(rc.done)
	// Our own seat, at the table we now host.
	r := rc.r
	_, sess, err := t.Sit("local", r.nick)
	if err != nil {
		return
	}
	r.mu.Lock()
	r.local = sess
	r.mu.Unlock()
	go func() {
		for u := range sess.Updates() {
			if u.Backlog {
				// What we were sent before, as the rebuilt table knows it:
				// for the audit, not to be shown or learnt again.
				r.mu.Lock()
				r.takeBacklog(u.Events, rolled > 0)
				r.chain.Rolled += rolled
				rolled = 0
				r.mu.Unlock()
				u.Events = nil
			} else if i := dealAt(u.Events); i >= 0 {
				r.mu.Lock()
				r.got = append([]engine.Event(nil), u.Events[i:]...)
				r.mu.Unlock()
			} else if len(u.Events) > 0 {
				r.mu.Lock()
				r.got = append(r.got, u.Events...)
				r.mu.Unlock()
			}
			r.box.put(u)
		}
	}()
}

// rebuild is a journal with its hidden cards combined from the shares and
// checked against their seals, as far as it rebuilds, and cut back to its
// last signed step (a new host chains its own term on from there).
func (rc *recovery) rebuild(journal []protocol.Step, seed uint64, salt [SaltSize]byte) ([]engine.Step, []Link) {
	pub := engPubSteps(journal)
	steps := make([]engine.Step, 0, len(pub))
	links := make([]Link, 0, len(pub))
	signedAt := 0
	for i, p := range pub {
		st := p.Step
		if p.Hidden > 0 {
			b, err := Combine(rc.shares[i])
			if err != nil || len(b) != p.Hidden {
				break // a journal's tail we can't rebuild yet
			}
			c := *st.Cmd
			c.Cards = make([]engine.Card, len(b))
			for j, x := range b {
				c.Cards[j] = engine.Card(x)
			}
			if p.Link.Seal != nil && !bytes.Equal(p.Link.Seal, gamewire.SealCards(seed, salt, i, c.Cards)) {
				break // the shares don't give the cards the host sealed
			}
			st.Cmd = &c
		}
		steps = append(steps, st)
		links = append(links, p.Link)
		if p.Link.Sig != nil || p.Link.Term == 0 {
			signedAt = len(steps)
		}
	}
	return steps[:signedAt], links[:signedAt]
}

// restore builds the table of a new host from the rebuilt journal.
func restore(r *Remote, ts TableState, cfg engine.Config, salt [SaltSize]byte, commit [32]byte, steps []engine.Step, links []Link, term uint64) (*Table, error) {
	r.mu.Lock()
	bots, fall, key := r.bots, r.fall, r.key
	gone := r.oldHost
	r.mu.Unlock()
	// No fixed seed: the next game's (N on the result sheet) is drawn at
	// its deal. This game's seed is revealed at its end, and a next seed
	// worked out from it would be known to every player.
	tm := r.timing
	if ts.Reveal > 0 {
		tm.Reveal = ts.Reveal
	}
	set := Settings{Name: ts.Name, Rules: ts.Rules, Seats: len(ts.Seats), Timing: tm, TurnClock: ts.TurnClock,
		Code: r.code}
	notice := fmt.Sprintf("Host left; %s is now hosting.", r.nick)
	// The old host's own seat, if it had one, is a bot's from now on, in
	// this game and the next: its player is the one who left, and a seat
	// kept for them would hold up every game dealt after.
	seats := append([]SeatInfo(nil), ts.Seats...)
	for i, s := range seats {
		if gone != "" && s.Peer == gone.String() && s.Bot == "" {
			seats[i] = SeatInfo{Name: s.Name, Bot: "medium", Connected: true}
			notice += fmt.Sprintf(" A bot plays for %s.", s.Name)
		}
	}
	return restoreTable(set, ts.ID, r.tid, r.nick, r.h.ID().String(), seats, cfg, salt, ts.Nonces, commit, steps, links, term, bots, fall,
		notice, nil, ts.Evening, key)
}

// restoreTable builds a playing table from a whole journal: after an
// election, or when a host restarts from its journal file. cfg.Seed is the
// host's seed, the one commit bound (the shares rebuild it); the engine
// replays from it mixed with nonces, the players' (toss.go), which every
// player holds from the lobby. evening is the table's running score as the
// players had it: a new host carries it on.
func restoreTable(set Settings, id string, tid protocol.TableID, host, hostPeer string, seats []SeatInfo,
	cfg engine.Config, salt [SaltSize]byte, nonces [][NonceSize]byte, commit [32]byte, steps []engine.Step, links []Link, term uint64,
	bots BotMaker, fall func(*engine.View) (engine.Command, bool), notice string, jour *Journal, evening Evening,
	key crypto.PrivKey) (*Table, error) {
	if len(nonces) != 0 && len(nonces) != len(seats) {
		return nil, fmt.Errorf("the journal's nonces are %d for %d seats", len(nonces), len(seats))
	}
	dealt := cfg
	dealt.Seed = DealSeed(cfg.Seed, salt, nonces)
	g, evs, err := engine.Replay(dealt, steps)
	if err != nil {
		return nil, fmt.Errorf("the journal doesn't replay: %w", err)
	}
	set.defaults()
	t := &Table{ID: id, tid: tid, host: host, set: set, makeBot: bots, fall: fall,
		in: make(chan func(), 64), quit: make(chan struct{}), phase: PhasePlaying, specs: map[*mailbox]bool{},
		game: g, seed: cfg.Seed, salt: salt, nonces: mixed(nonces), commit: commit, term: term, hostPeer: hostPeer, jour: jour,
		evening: evening.Clone()}
	if jour != nil {
		t.jpath = jour.Path()
	}
	var last time.Duration
	for _, st := range steps {
		last = max(last, st.At)
	}
	t.start = time.Now().Add(-last)
	t.log = append([]engine.Step(nil), steps...)
	// The chain as the steps' hosts signed it (links, from a verified
	// journal); a step with no link (a journal file's) is of our term,
	// and we sign it when we send it.
	t.signWith(key)
	for i, st := range t.log {
		var l Link
		if i < len(links) {
			l = links[i]
		}
		if l.Term == 0 {
			l.Term = term
		}
		t.chainAdd(i, st, l.Term, l.Sig)
	}
	t.cursor = make([]int, len(seats))
	t.sent = make([][]engine.Event, len(seats))
	if t.seats, err = restoreSeats(seats, hostPeer, bots, cfg.Seed); err != nil {
		return nil, err
	}
	// Every hidden part shared anew among the players of this term (the
	// threshold counts them, so the seats come first).
	t.shares = map[int][]Share{}
	if sh, err := SplitSeed(cfg.Seed, salt, len(seats), t.threshold(), nil); err == nil {
		t.shares[-1] = sh
	}
	for i, st := range t.log {
		t.split(i, st)
	}
	t.resent(evs)
	go t.run()
	return t, t.do(func() { t.playOn(notice) })
}

// restoreSeats seats a table rebuilt from a journal: its people (the new
// host's own seat is "local") away until they rejoin, its bots seated with
// the seeds the dealing host gave them.
func restoreSeats(seats []SeatInfo, hostPeer string, bots BotMaker, seed uint64) ([]*seat, error) {
	out := make([]*seat, len(seats))
	for i, si := range seats {
		s := &seat{name: si.Name, away: -1}
		if si.Peer != "" && si.Bot == "" {
			s.owner = si.Peer
			s.away = 0 // until they rejoin this host
			if si.Peer == hostPeer {
				s.owner, s.away = "local", -1
			}
		} else {
			s.botName = si.Bot
			if s.botName == "" {
				s.botName = "medium"
			}
			b, err := bots(s.botName, i, botSeed(seed, i))
			if err != nil {
				return nil, err
			}
			s.bot = b
		}
		out[i] = s
	}
	return out, nil
}

// resent is what every seat of a rebuilt table was sent, as an honest host
// sent it; the bots remember the game they watched.
func (t *Table) resent(evs [][]engine.Event) {
	for _, batch := range evs {
		for _, e := range batch {
			for i, s := range t.seats {
				if e.VisibleTo(i) {
					t.sent[i] = append(t.sent[i], e)
					if s.bot != nil {
						ev := e
						s.bot.Observe(&ev)
					}
				}
			}
		}
	}
}

// playOn starts a rebuilt table's clocks, on its goroutine: a person not
// back within the grace period is covered by a bot, and an open window (or
// hand-over) gets its whole time again.
func (t *Table) playOn(notice string) {
	for i, s := range t.seats {
		if s.owner != "" && s.owner != "local" {
			seatNo := i
			s.clock = t.after(t.set.Grace, func() { t.cover(seatNo) })
		}
	}
	now := t.now()
	var events []engine.Event
	if t.game.Over() {
		t.phase = PhaseOver
		t.tally() // if the old host went before it could
	} else if ph := t.game.Phase(); ph == engine.PhaseCall || ph == engine.PhaseGive {
		c := engine.Command{Move: engine.MoveResume, Seat: -1, Rank: engine.NoRank}
		if ev, err := t.game.Apply(now, c); err == nil {
			t.record(Entry{At: now, Cmd: &c})
			events = ev
		}
	}
	t.notice = notice
	if t.phase == PhasePlaying {
		t.changed(events)
	}
}
