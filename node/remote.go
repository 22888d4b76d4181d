package node

// The player's side of the game's stream: Remote dials the host, joins,
// reads and keeps what it was sent for the audit, and reconnects; when the
// host goes silent the election takes over (election.go).

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/protocol"
)

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
	lostAt   peer.AddrInfo    // where it was: a failover that gives up goes back to it
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
	// The chain's steps are taken with r.mu held: the seats are read as
	// the table names them then.
	r.chain.SeatKey = func(seat int) ed25519.PublicKey { return seatKey(r.table.Seats, seat) }
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

// connect joins the table at the node in r.info: our hello, the join
// code exchange and our part of a rebuild when the host asks, until it
// seats us.
func (r *Remote) connect(ctx context.Context) error {
	st, br, gen, err := r.open(ctx)
	if err != nil {
		return err
	}
	fail := func(err error) error { st.Reset(); return err }
	hello := protocol.Hello{Version: protocol.Current, Nick: r.nick, Seat: -1, Watch: r.watch, WebAddr: r.webAddr, Nonce: make([]byte, protocol.NonceSize)}
	rand.Read(hello.Nonce)
	if err := r.send(hello); err != nil {
		return fail(err)
	}
	var px *protocol.Pake // the join code exchange, once the host asked for it
	wait := r.timing.DeadAfter
	// Until it seats us, the node we dial is not our host: its envelopes
	// are checked against this attempt's numbers, and its term becomes
	// ours only with the seat. A new host that asked for our state and
	// then gave up (it never got every share) must not leave us deaf to
	// the old host coming back at its own term from its journal.
	var attempt protocol.Replay
	for {
		st.SetReadDeadline(time.Now().Add(wait))
		env, err := r.read(br, &attempt)
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
			if err := r.replay.Check(env.Sender, env.Term, env.Seq); err != nil {
				return fail(err) // a host of a term we have left behind
			}
			r.seated(env, m, st, br, gen)
			return nil
		}
	}
}

// open is a new stream to the node in r.info, made our link to the host
// as connection gen.
func (r *Remote) open(ctx context.Context) (network.Stream, *bufio.Reader, int, error) {
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
		return nil, nil, 0, err
	}
	st, err := r.h.NewStream(ctx, r.info.ID, ProtocolID)
	if err != nil {
		return nil, nil, 0, err
	}
	br := bufio.NewReader(st)
	w := bufio.NewWriter(st)
	r.mu.Lock()
	r.st, r.w = st, w
	r.gen++
	gen := r.gen
	r.mu.Unlock()
	return st, br, gen, nil
}

// seated takes the seat the host gave us on connection gen, and starts
// reading it and sending heartbeats.
func (r *Remote) seated(env *protocol.Envelope, m protocol.Seated, st network.Stream, br *bufio.Reader, gen int) {
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
}

// read is the next envelope from the node we dialled that is neither a
// replay nor of a term we have left behind. attempt, before that node
// seats us, keeps its numbers apart from our host's; nil once seated.
func (r *Remote) read(br *bufio.Reader, attempt *protocol.Replay) (*protocol.Envelope, error) {
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
		if attempt != nil {
			err = r.replay.Peek(env.Sender, env.Term, env.Seq)
			if err == nil {
				err = attempt.Check(env.Sender, env.Term, env.Seq)
			}
		} else {
			err = r.replay.Check(env.Sender, env.Term, env.Seq)
		}
		if err != nil {
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

// readLoop reads the host on the stream of connection gen until it fails,
// and hands each message to its part.
func (r *Remote) readLoop(st network.Stream, br *bufio.Reader, gen int) {
	for {
		st.SetReadDeadline(time.Now().Add(r.timing.DeadAfter))
		env, err := r.read(br, nil)
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
			r.takeLobby(env, &m)
		case protocol.Update:
			r.box.put(r.takeUpdate(env, m))
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

// takeLobby is the host's word on the table.
func (r *Remote) takeLobby(env *protocol.Envelope, m *protocol.Lobby) {
	t := engLobby(m)
	t.Words = protocol.Fingerprint(string(env.Sender))
	r.mu.Lock()
	defer r.mu.Unlock()
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
}

// takeUpdate is an update from the host, as it is shown: its events go
// into our record for the audit, its steps into our journal and its
// shares into ours.
func (r *Remote) takeUpdate(env *protocol.Envelope, m protocol.Update) Update {
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
	defer r.mu.Unlock()
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
	return u
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
	res.Notes = append(res.Notes, gamewire.MarkNotes(r.chain.Steps, markNames(r.table.Seats), r.seat)...)
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
	r.oldHost, r.lostAt = r.info.ID, r.info
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

// Send sends a move for our seat, signed as our seat's (gamewire:
// movesig.go); the host's answer comes as an Update.
func (r *Remote) Send(cmd engine.Command) error {
	r.mu.Lock()
	local, tid, commit, seat := r.local, r.tid, r.table.Commit, r.seat
	r.mu.Unlock()
	if local != nil {
		return local.Send(cmd)
	}
	m := wireMove(cmd, seat)
	if m == nil {
		return errors.New("not a move")
	}
	key, err := edKey(r.key)
	if err != nil {
		return err
	}
	return r.send(gamewire.SignedMove(key, tid, commit, m))
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
