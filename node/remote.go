package node

// The player's side of a table hosted by another node: Remote, an actor
// like the host's Table. One goroutine owns it; its role says what it is
// to the table, and each role is a loop (player.go, election.go,
// newhost.go), the way hashicorp/raft runs its follower, candidate and
// leader.

import (
	"context"
	"crypto/ed25519"
	"errors"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/journal"
	"github.com/bullshit-game/bullshit/node/lan"
	"github.com/bullshit-game/bullshit/node/record"
	"github.com/bullshit-game/bullshit/node/shamir"
	"github.com/bullshit-game/bullshit/node/table"
	"github.com/bullshit-game/bullshit/protocol"
)

// Remote is a seat's session on a table hosted by another node. It
// reconnects by itself when the link drops and gets its seat back; when the
// host is gone for good it walks the line of candidates for the next one,
// and hosts the table itself when it is first in line.
//
// Who owns what. One goroutine, run, owns every field under "Owned by run"
// and alone writes to the host's stream. It runs the loop of its role:
//
//	rolePlayer     runPlayer     seated at a host (or on the way): its envelopes, our heartbeats
//	roleCandidate  runCandidate  the host is gone: a walk of the line finds the next, maybe us
//	roleHost       runHost       we took over: the table rebuilds, then our own seat at it
//
// Every other goroutine owns nothing here and reaches run by message:
//
//   - the caller's: Send, Control, SaveTo, UseBots and Close go through
//     do; Seat, Hosting and Saved read what run published (atomics);
//   - readHost, one per link: each envelope the host sends, then the
//     link's loss (fromHost);
//   - a walk, one at a time (election.go: a candidate's failover, a
//     spectator's redial; newhost.go: a new host's look ahead in line):
//     its join attempts (join.go) ask run for our state, and the walk
//     hands run the link that seats us, or has run take over (do);
//   - standby, libp2p's goroutine for a player who rejoins us: it asks
//     run whether we host (do), then serves the player on our Server;
//   - the Server's and the Table's own goroutines (server.go, table.go,
//     restore.go), which run reaches through the Server and our seat.
type Remote struct {
	// Set by dial (webAddr and web by its setup) before run starts, never
	// changed: any goroutine reads them.
	h        host.Host
	key      crypto.PrivKey
	signer   *protocol.Signer
	nick     string
	code     string
	watch    bool
	timing   table.Timing
	webAddr  string                // our node's web URL, told the host so that phones find us (web.go)
	web      *Web                  // where a table we take over seats phones
	advertis func() lan.Advertiser // how a table we take over is put on the lan.LAN (nil: no discovery)
	box      *table.Mailbox        // our screen's
	party    *table.Party          // in front of box: our node's side of a blind game (node/table: party.go)
	replay   protocol.Replay       // the hosts' envelopes seen: locked inside
	ctx      context.Context       // ends at Close, and with it every walk and join
	cancel   context.CancelFunc

	// OnFrame, if set before Dial returns, sees every frame received (the
	// wire-secrecy test reads them), on the goroutine that reads it.
	OnFrame func([]byte)

	// How the others reach run.
	in       chan func()   // do
	fromHost chan hostMsg  // readHost
	done     chan struct{} // closed when run has returned

	// Published by run for any goroutine.
	plink   partyLinkOf // where our party's messages go (partySend)
	seatNo  atomic.Int64
	hosting atomic.Bool
	saved   atomic.Pointer[savedGame]

	// Owned by run.
	role    role
	walk    *walk         // the walk under way, nil if none
	link    *hostLink     // our stream to the host, nil while we have none
	links   int           // how many times a host seated us
	info    peer.AddrInfo // the host we follow, or last followed
	oldHost peer.ID       // the host we lost
	seat    int
	tid     protocol.TableID
	term    uint64
	yielded uint64 // a term we gave up hosting to a host ahead of us in line (newhost.go)
	table   table.TableState
	view    engine.View
	heard   time.Time            // when the host was last heard
	rec     record.Record        // every event we were sent and the host's reveal, for the audit (node/record)
	chain   gamewire.Journal     // the host's journal as we may know it, as far as its chain verifies
	shares  map[int]shamir.Share // our shares of its hidden parts
	toss    record.Toss          // our part in the deal's toss, for the audit
	watched struct {             // a spectator's record of the nonce commitments, as first published with the deal
		round   [32]byte
		commits [][32]byte
	}
	dealt struct { // who dealt the deal we saw: its host's seed is its part of the toss (gamewire.MustMix)
		commit [32]byte
		host   string
		// ours: this program started again after it crashed while
		// hosting (first seated past term 1): the deal in play may be
		// its own, as the audit finds when its term-1 steps verify under
		// our key (follow, and the audit in player.go).
		ours bool
	}
	logTail   [][]byte            // the host's last BlindLog envelopes, as they came (blindtakeover.go)
	blindDeal *protocol.BlindDeal // a blind game's terms, till its log comes
	saveDir   string
	// tossFile is where the toss is kept (Setup.Keep), "" for nowhere;
	// kept is the one found there at the start, for the deal it names.
	tossFile string
	kept     *keptToss
	server   *Server             // the table we host, in roleHost
	local    *table.LocalSession // our seat at it, once rebuilt
	advert   *Hosted             // its advert on the lan.LAN, once rebuilt
	rolled   int                 // steps of our journal its rebuild rolled back, for our audit's note
	bots     table.BotMaker      // for the bot seats of a table we take over
	fall     func(*engine.View) (engine.Command, bool)
}

// role is what a Remote is to its table; run switches on it.
type role int

const (
	rolePlayer    role = iota // a host seats us, or we are on our way to one
	roleCandidate             // our host is gone: we look for the next one
	roleHost                  // we host the table of a new term
	roleClosed                // we left
)

// savedGame is where the game was saved at its end, or why it could not be.
type savedGame struct {
	path string
	err  error
}

// errLeft is a call to a session that has closed.
var errLeft = errors.New("the table session is closed")

// Dial joins the table hosted at info: a seat (or a spectator's place when
// watch), proving the join code when the table asks.
func Dial(ctx context.Context, h host.Host, key crypto.PrivKey, info peer.AddrInfo, nick, code string, watch bool, onFrame func([]byte)) (*Remote, error) {
	return DialWith(ctx, h, key, info, nick, code, watch, onFrame, Setup{})
}

// Setup is what a seat's node is given before its session starts. A host
// sends a game under way the moment it seats a node, so the first update
// must find it all in place: given after Dial returns, a player started
// again mid-game could take its game up before it was told where its deck
// secret is, follow it as a watcher, and leave the table waiting on its
// seat for good (a loaded machine did, in CI).
type Setup struct {
	// Bots and Fall make the bots of the seats the node plays for the
	// table (a blind deal's on its node) and should it host after an
	// election, and their always-legal move.
	Bots table.BotMaker
	Fall func(*engine.View) (engine.Command, bool)
	// Keep is the profile's directory (it must exist; this node alone
	// reads it): the seat keeps its part of each deal's toss there
	// (toss.json) and its deck secret of each blind game (deck.json), so
	// that a node started again mid-game is the same seat and party.
	// "" keeps nothing.
	Keep string
	// Save is where each game is saved at its end for `bullshit verify`
	// (SaveTo); "" saves none.
	Save string
}

// DialWith is Dial with what the seat's node is given before it starts.
func DialWith(ctx context.Context, h host.Host, key crypto.PrivKey, info peer.AddrInfo, nick, code string, watch bool, onFrame func([]byte), s Setup) (*Remote, error) {
	return dial(ctx, h, key, info, nick, code, watch, onFrame, table.DefaultTiming(), s, nil)
}

// dial is DialWith with the device's timing, and setup run on the session
// before it starts (the device's web side).
func dial(ctx context.Context, h host.Host, key crypto.PrivKey, info peer.AddrInfo, nick, code string, watch bool,
	onFrame func([]byte), tm table.Timing, s Setup, setup func(*Remote)) (*Remote, error) {
	signer, err := newSigner(key)
	if err != nil {
		return nil, err
	}
	r := &Remote{h: h, key: key, signer: signer, info: info, nick: nick, code: code, watch: watch, box: table.NewMailbox(), seat: -1,
		term: 1, OnFrame: onFrame, timing: tm.Or(table.DefaultTiming()),
		in: make(chan func()), fromHost: make(chan hostMsg, 16), done: make(chan struct{})}
	r.seatNo.Store(-1)
	r.party = table.NewParty(func() protocol.PeerID { return wireID(h.ID()) }, r.box, r.partySend, nil, nil)
	// The chain's steps are taken on run: the seats are read as the
	// table names them then.
	r.chain.SeatKey = func(seat int) ed25519.PublicKey { return table.SeatPubKey(r.table.Seats, seat) }
	r.ready(s)
	if setup != nil {
		setup(r)
	}
	r.ctx, r.cancel = context.WithCancel(context.Background())
	go r.run()
	l, err := r.join(ctx, aim{to: info, term: 1})
	// A table that changed hosts is past term 1: its host refuses that
	// and names its own, which we join with (the old host's person back
	// after a crash, anyone who finds the table in the lobby).
	var ref *gamewire.Refused
	if errors.As(err, &ref) && ref.Term > 1 && ref.Code != protocol.CodeVersion {
		l, err = r.join(ctx, aim{to: info, term: ref.Term})
	}
	if err != nil {
		r.Close()
		return nil, err
	}
	if !r.do(func() { r.follow(l) }) {
		l.st.Reset()
		return nil, errLeft
	}
	return r, nil
}

// run owns the Remote until it closes: the loop of each role in turn.
func (r *Remote) run() {
	defer close(r.done)
	for {
		switch r.role {
		case rolePlayer:
			r.runPlayer()
		case roleCandidate:
			r.runCandidate()
		case roleHost:
			r.runHost()
		case roleClosed:
			return
		}
	}
}

// become changes our role (on run): the walk of the old one ends, and
// run's next loop is the new one's.
func (r *Remote) become(ro role) {
	r.endWalk()
	r.role = ro
}

// do runs f on run and waits for it; false when the Remote has closed and
// f never ran. run never calls it.
func (r *Remote) do(f func()) bool {
	ran := make(chan struct{})
	select {
	case r.in <- func() { f(); close(ran) }:
		<-ran
		return true
	case <-r.done:
		return false
	}
}

// SaveTo sets where the game is saved at its end, for `bullshit verify`:
// in dir (which must exist), as game-DATE-TIME-seatN.json (N counted from
// 1) or game-DATE-TIME-watcher.json. Setup.Save sets it before the
// session starts.
func (r *Remote) SaveTo(dir string) {
	r.do(func() { r.saveDir = dir })
	r.partySave(dir)
}

func (r *Remote) partySave(dir string) {
	if r.party != nil && dir != "" { // no --save: a blind game is saved nowhere (it went to the working directory)
		r.party.SetSave(func(g journal.SavedGame) string { return r.saveIn(dir, g) })
	}
}

// ready gives a session that hasn't started (run isn't running) what s
// sets: its party's requests go in its queue ahead of any update.
func (r *Remote) ready(s Setup) {
	if s.Bots != nil {
		r.bots, r.fall = s.Bots, s.Fall
		r.party.SetBots(s.Bots, s.Fall)
	}
	if s.Keep != "" {
		r.tossFile, r.kept = keptTossIn(s.Keep)
		r.party.SetKeep(filepath.Join(s.Keep, "deck.json"))
	}
	if s.Save != "" {
		r.saveDir = s.Save
		r.partySave(s.Save)
	}
}

// Saved is where the game was saved at its end, or why it could not be;
// "" and nil before then.
func (r *Remote) Saved() (string, error) {
	if s := r.saved.Load(); s != nil {
		return s.path, s.err
	}
	return "", nil
}

// Seat is our seat, -1 for a spectator.
func (r *Remote) Seat() int { return int(r.seatNo.Load()) }

// Hosting reports whether this seat won an election and hosts the table.
func (r *Remote) Hosting() bool { return r.hosting.Load() }

// UseBots gives a remote seat what it needs to host, should it be elected:
// the bots for the bot seats and the fallback move. A node that may be
// sent a blind game under way as it sits (one started again) is given
// them in Setup instead: its party makes the bots of its seats as it
// takes the game up.
func (r *Remote) UseBots(b table.BotMaker, fall func(*engine.View) (engine.Command, bool)) {
	r.do(func() { r.bots, r.fall = b, fall })
	if r.party != nil {
		r.party.SetBots(b, fall)
	}
}

// Updates delivers what our seat may see.
func (r *Remote) Updates() <-chan table.Update { return r.box.Out }

// Send sends a move for our seat, signed as our seat's (gamewire:
// movesig.go); the host's answer comes as an Update.
func (r *Remote) Send(cmd engine.Command) error {
	if r.party != nil && r.party.Blind() {
		// Named by handle by our party, which sends it through run.
		cmd.Seat = r.Seat()
		return r.party.Move(cmd)
	}
	err := errLeft
	r.do(func() { err = r.move(cmd) })
	return err
}

// partyLinkOf is our link to the host as our party sends on it: set by
// run, read by the party's goroutine, which never waits on run (run may
// wait on it: a new host's takeover reads the party's record).
type partyLinkOf struct {
	mu   sync.Mutex
	l    *hostLink
	tid  protocol.TableID
	term uint64
	// keep, set by a test, is a message of ours it says never to send
	// (a node that is there but keeps back what only it can give).
	keep func(protocol.Message) bool
}

// partyLink is where our party's messages go from now on (on run): l, at
// our table and term, or nowhere.
func (r *Remote) partyLink(l *hostLink) {
	r.plink.mu.Lock()
	defer r.plink.mu.Unlock()
	r.plink.l, r.plink.tid, r.plink.term = l, r.tid, r.term
}

// partySend is a message of our party's for the host (on the party's
// goroutine, never on run): sealed and sent on our link, its number said.
func (r *Remote) partySend(m protocol.Message) (uint64, error) {
	r.plink.mu.Lock()
	l, tid, term, keep := r.plink.l, r.plink.tid, r.plink.term, r.plink.keep
	r.plink.mu.Unlock()
	if keep != nil && keep(m) {
		return 0, nil
	}
	if l == nil {
		return 0, errors.New("not connected to the host")
	}
	return l.sendSeq(r.signer, tid, term, m, r.timing.DeadAfter)
}

// move is a move for our seat (on run): to the table we host, once it is
// rebuilt, or to our host.
func (r *Remote) move(cmd engine.Command) error {
	if r.local != nil {
		return r.local.Send(cmd)
	}
	m := gamewire.WireMove(cmd, r.seat)
	if m == nil {
		return errors.New("not a move")
	}
	key, err := edKey(r.key)
	if err != nil {
		return err
	}
	return r.send(gamewire.SignedMove(key, r.tid, r.table.Commit, m))
}

// Control is a table action, which only the host may take. A player that
// took over hosting after an election passes it to the table it now hosts:
// its screen is the host's now (N on the result sheet deals again).
func (r *Remote) Control(action string) error {
	err := errors.New(hostOnly(action))
	r.do(func() {
		if r.local != nil {
			err = r.local.Control(action)
		}
	})
	return err
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
	r.do(r.stop)
	<-r.done
	return nil
}

// stop leaves the table (on run): a goodbye to our host, the table we host
// closed, every walk and join ended.
func (r *Remote) stop() {
	if r.link != nil {
		r.send(protocol.Leave{})
		r.link.st.Close()
		r.link = nil
		r.partyLink(nil)
	}
	if r.local != nil {
		r.local.Close()
	}
	r.advert.unadvertise()
	if srv := r.server; srv != nil {
		if r.web != nil {
			r.web.unhost(srv)
		}
		srv.Close()
		if t := srv.tbl(); t != nil {
			t.Close()
		}
	}
	r.cancel()
	if r.party != nil {
		r.party.Close()
	} else {
		r.box.Close()
	}
	r.become(roleClosed)
}

// send seals m for the host we follow and writes it on our link (on run).
func (r *Remote) send(m protocol.Message) error {
	if r.link == nil {
		return errors.New("not connected to the host")
	}
	return r.link.send(r.signer, r.tid, r.term, m, r.timing.DeadAfter)
}

// notice tells our screen text, with the table as we last knew it (on run).
func (r *Remote) notice(text string) {
	r.show(table.Update{Table: r.table, View: r.view, Notice: text})
}

// show puts u on our screen, through our party (which, at a blind table,
// makes our seat's view itself); a Remote made without one (a test's
// replay of a stream) puts it on the screen as it is.
func (r *Remote) show(u table.Update) {
	if r.party == nil {
		r.box.Put(u)
		return
	}
	r.party.Put(u)
}
