//go:build linux

package main

// A liar: a seated player that plays by the book at protocol 1.5 (its
// nonce in the deal's toss, heartbeats, the hosts' signed journal kept as
// gamewire keeps it, its shares) and lies where a player can. It is this
// test binary again (rogueEnv set to "history" or "shares"), started in a
// namespace of its own, speaking libp2p, protocol and gamewire directly.
//
//   - history (issue 13, attacks 1 and 2): its peer ID sorts after every
//     other player's (BS_E2E_AFTER), so no election ever picks it. When the host dies it rejoins the next in
//     line at term+1 at once, and answers the new host's state request
//     with its journal and one lie: a Call that another seat never made
//     (BS_E2E_LIE=call), or, signed with the old host's own key (a stolen
//     identity file), steps that don't replay (BS_E2E_LIE=unreplayable).
//     It says "window" when the host should die: a call window is open in
//     which the seat it forges (BS_E2E_LIE_SEAT) may still call, so that
//     the forged call is one the engine would take.
//   - shares (attack 3): it keeps every share it is sent and the host's
//     reveal, and prints them at the end; two of them are one person with
//     two seats.
//   - late (issue 21, item 1): an honest player whose node is slow: its
//     first nonce commitment goes out lateFor after the host asked, past
//     the toss's wait; every later part of the toss at once.
//   - stranger (issue 21, item 9): a spectator, no seat at the table. When
//     the host dies it goes to the next in line at term+1 and answers its
//     state request, if asked, with a record of its own: the journal it
//     watched and shares of the deal's seed it made up. It says "state"
//     when asked, "refused" with the words of a refusal.
//   - withhold (issue 21, item 2): when the host dies it rejoins the next
//     in line, as history does, and stays connected, heartbeats and all,
//     but never answers the new host's state request: it keeps its shares
//     of the hidden cards to itself.

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node"
	"github.com/bullshit-game/bullshit/node/gamewire"
	nodelan "github.com/bullshit-game/bullshit/node/lan"
	roguepeer "github.com/bullshit-game/bullshit/node/rogue"
	"github.com/bullshit-game/bullshit/protocol"
)

const (
	lieEnv      = "BS_E2E_LIE"      // history: "call" or "unreplayable"
	lieSeatEnv  = "BS_E2E_LIE_SEAT" // history: the seat whose call it forges
	lieKeyEnv   = "BS_E2E_HOST_DIR" // history, unreplayable: the old host's config directory (its identity key)
	lieNickEnv  = "BS_E2E_NICK"     // its nickname
	lieAfterEnv = "BS_E2E_AFTER"    // history: a peer ID (hex) its own must sort after
)

// liar is the liar's state. Frames go out through send, numbered in the
// order they go.
type liar struct {
	mode, lie string
	forge     int // the seat whose call it forges
	key       ed25519.PrivateKey
	id        protocol.PeerID
	nick      string
	h         host.Host
	say       func(string, map[string]any)

	wmu  sync.Mutex
	w    *bufio.Writer
	seq  uint64
	term uint64

	mu     sync.Mutex
	hostID peer.ID
	tid    protocol.TableID
	seat   int
	lobby  protocol.Lobby
	view   *protocol.View
	chain  gamewire.Journal
	shares map[int]protocol.StepShare
	toss   struct {
		round    [32]byte
		nonce    [gamewire.NonceSize]byte
		revealed bool
	}
	reveal   []protocol.Audit
	over     *protocol.Event
	windowed bool // it has said "window"
	told     bool // it has told its lie
	wasLate  bool // late: its first commitment went out late
	changed  chan struct{}
}

func runLiar(mode string, say func(string, map[string]any)) error {
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	info, err := nodelan.ParseAddr(os.Getenv(rogueAddrEnv))
	if err != nil {
		return err
	}
	l := &liar{mode: mode, lie: os.Getenv(lieEnv), forge: -1, say: say, seat: -1, nick: os.Getenv(lieNickEnv),
		changed: make(chan struct{}, 1), seq: uint64(time.Now().UnixNano()), term: 1, shares: map[int]protocol.StepShare{}}
	if l.nick == "" {
		l.nick = "liar"
	}
	fmt.Sscan(os.Getenv(lieSeatEnv), &l.forge)
	after, _ := hex.DecodeString(os.Getenv(lieAfterEnv))
	if l.key, err = keyAfter(peer.ID(after)); err != nil {
		return err
	}
	l.id, _ = protocol.PeerIDOf(l.key)
	hk, err := crypto.UnmarshalEd25519PrivateKey(l.key)
	if err != nil {
		return err
	}
	ifcs, err := nodelan.LAN("")
	if err != nil {
		return err
	}
	if l.h, err = node.NewHost(ctx, node.HostConfig{Key: hk, Ifaces: ifcs[:1]}); err != nil {
		return err
	}
	defer l.h.Close()
	lost, err := l.join(ctx, info, nil)
	if err != nil {
		return fmt.Errorf("joining: %w", err)
	}
	say("seated", map[string]any{"seat": l.seat, "peer": peer.ID(l.id).String()})
	go l.play(ctx)
	go roguepeer.Heartbeats(ctx, l.send)
	for {
		select {
		case <-ctx.Done():
			return errors.New("the game did not end")
		case <-lost:
			if l.isOver() {
				break
			}
			switch mode {
			case "history":
				if lost, err = l.rejoin(ctx); err != nil {
					return err
				}
				continue
			case "withhold":
				return l.withhold(ctx)
			case "stranger":
				return l.intrude(ctx)
			}
			return errors.New("lost the host")
		case <-time.After(100 * time.Millisecond):
			if !l.isOver() {
				continue
			}
		}
		// The end, and (shares) the host's reveal after it.
		for end := time.Now().Add(5 * time.Second); mode == "shares" && !l.revealed() && time.Now().Before(end); {
			time.Sleep(50 * time.Millisecond)
		}
		l.end()
		time.Sleep(300 * time.Millisecond)
		return nil
	}
}

// lied says whether the liar has told its lie.
func (l *liar) lied() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.told
}

// revealed says whether the host's reveal came whole.
func (l *liar) revealed() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.reveal) > 0 && len(l.reveal) == l.reveal[0].Parts
}

// keyAfter is a fresh key whose peer ID sorts after after's: with the
// highest of the other players', no election picks it.
func keyAfter(after peer.ID) (ed25519.PrivateKey, error) {
	for {
		_, key, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			return nil, err
		}
		if id, err := protocol.PeerIDOf(key); err != nil || peer.ID(id) > after {
			return key, err
		}
	}
}

func (l *liar) isOver() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.over != nil
}

// send seals m at the liar's term and writes it.
func (l *liar) send(m protocol.Message) error {
	l.mu.Lock()
	tid := l.tid
	l.mu.Unlock()
	l.wmu.Lock()
	defer l.wmu.Unlock()
	if l.w == nil {
		return errors.New("not connected")
	}
	l.seq++
	b, err := protocol.Seal(l.key, tid, l.term, l.seq, m)
	if err != nil {
		return err
	}
	if err := gamewire.WriteFrame(l.w, b); err != nil {
		return err
	}
	return l.w.Flush()
}

// join takes a seat at the node in info (the host, or the next in line at
// the liar's term), answering a state request with state; lost is closed
// when the link ends.
func (l *liar) join(ctx context.Context, info peer.AddrInfo, state func(term uint64) (protocol.State, bool)) (chan struct{}, error) {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := l.h.Connect(cctx, info); err != nil {
		return nil, err
	}
	st, err := l.h.NewStream(cctx, info.ID, node.ProtocolID)
	if err != nil {
		return nil, err
	}
	br := bufio.NewReader(st)
	l.wmu.Lock()
	l.w = bufio.NewWriter(st)
	l.wmu.Unlock()
	fail := func(err error) (chan struct{}, error) { st.Reset(); return nil, err }
	nonce := make([]byte, protocol.NonceSize)
	rand.Read(nonce)
	if err := l.send(protocol.Hello{Version: protocol.Current, Nick: l.nick, Nonce: nonce, Watch: l.mode == "stranger"}); err != nil {
		return fail(err)
	}
	// A new host seats no one before every share is in: the whole
	// rebuild, as an honest player gives it.
	st.SetReadDeadline(time.Now().Add(40 * time.Second))
	for {
		b, err := gamewire.ReadFrame(br)
		if err != nil {
			return fail(err)
		}
		env, err := protocol.Open(b, protocol.PeerID(info.ID))
		if err != nil {
			return fail(fmt.Errorf("the host's answer: %w", err))
		}
		switch m := env.Msg.(type) {
		case protocol.Refusal:
			return fail(&gamewire.Refused{Code: m.Code, Msg: m.Message})
		case protocol.StateRequest:
			if state == nil {
				return fail(errors.New("asked for a state on the first join"))
			}
			// The withholder sends none.
			if st, ok := state(env.Term); ok {
				if err := l.send(st); err != nil {
					return fail(err)
				}
			}
		case protocol.Seated:
			st.SetReadDeadline(time.Time{})
			l.mu.Lock()
			l.hostID, l.tid, l.seat = info.ID, m.Table, m.Seat
			l.mu.Unlock()
			lost := make(chan struct{})
			go l.read(st, br, lost)
			return lost, nil
		}
	}
}

// read takes in what the host sends, as a player's node does.
func (l *liar) read(st network.Stream, br *bufio.Reader, lost chan struct{}) {
	defer close(lost)
	defer st.Reset()
	for {
		st.SetReadDeadline(time.Now().Add(3 * time.Second))
		b, err := gamewire.ReadFrame(br)
		if err != nil {
			return
		}
		l.mu.Lock()
		from := l.hostID
		l.mu.Unlock()
		env, err := protocol.Open(b, protocol.PeerID(from))
		if err != nil {
			continue
		}
		var reply protocol.Message
		switch m := env.Msg.(type) {
		case protocol.Lobby:
			l.mu.Lock()
			l.lobby = m
			l.mu.Unlock()
		case protocol.Update:
			l.takeUpdate(env, m)
		case protocol.Toss:
			reply = l.answerToss(m)
			if _, first := reply.(protocol.NonceCommit); first && l.mode == "late" && !l.wasLate {
				l.wasLate = true
				go func(m protocol.Message) {
					l.say("late", map[string]any{"for": lateFor.Milliseconds()})
					time.Sleep(lateFor)
					l.send(m)
				}(reply)
				reply = nil
			}
		case protocol.Audit:
			l.mu.Lock()
			l.reveal = append(l.reveal, m)
			l.mu.Unlock()
		case protocol.Refusal:
			l.say("refused", map[string]any{"code": m.Code, "message": m.Message})
		}
		if reply != nil {
			l.send(reply)
		}
	}
}

// takeUpdate keeps an update as node.Remote does: the view, the journal as
// far as the hosts' chain vouches for it, the shares.
func (l *liar) takeUpdate(env *protocol.Envelope, m protocol.Update) {
	l.mu.Lock()
	if m.View != nil {
		l.view = m.View
	}
	dealt := false
	for i := range m.Events {
		switch m.Events[i].Type {
		case "over":
			l.over = &m.Events[i]
		case "deal":
			dealt = true
		}
	}
	switch {
	case m.Backlog:
		l.chain.Take(l.tid, l.lobby.Commit, env.Sender, env.Term, m.Steps, true)
		l.shares = map[int]protocol.StepShare{} // shares anew, of the whole journal
	case dealt:
		l.chain.Reset(l.tid, l.lobby.Commit)
		l.shares = map[int]protocol.StepShare{}
		fallthrough
	default:
		l.chain.Take(l.tid, l.lobby.Commit, env.Sender, env.Term, m.Steps, false)
	}
	for _, sh := range m.Shares {
		l.shares[sh.Step] = sh
	}
	v := l.view
	say := l.mode == "history" && !l.windowed && v != nil && v.No >= 3 && l.over == nil &&
		(l.lie != "call" || roguepeer.Callable(v, l.forge))
	if say {
		l.windowed = true
	}
	l.mu.Unlock()
	if say {
		l.say("window", map[string]any{"no": v.No, "journal": len(l.chain.Steps)})
	}
	select {
	case l.changed <- struct{}{}:
	default:
	}
}

// answerToss is the liar's part in the deal's toss: honest, so that it is
// seated and dealt like anyone.
func (l *liar) answerToss(m protocol.Toss) protocol.Message {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case len(m.Commits) == 0 && m.Round != l.toss.round:
		l.toss.round, l.toss.revealed = m.Round, false
		rand.Read(l.toss.nonce[:])
		return protocol.NonceCommit{Round: m.Round, Hash: gamewire.NonceHash(m.Round, l.seat, l.toss.nonce)}
	case len(m.Commits) > 0 && m.Round == l.toss.round && !l.toss.revealed:
		l.toss.revealed = true
		return protocol.NonceReveal{Round: m.Round, Nonce: l.toss.nonce}
	}
	return nil
}

// lateFor is how late the late liar's first commitment is: past the
// host's Timing.Toss (3 s).
const lateFor = 4 * time.Second

// withhold is the withholder's failover: it joins the next in line at
// term+1 and, asked for its state, stays connected and says nothing more
// than heartbeats (a new host seats no one before the rebuild, so its
// stream is the one it asked on). It says "withholding" once asked, and
// "refused" with the new host's words when it is let go.
func (l *liar) withhold(ctx context.Context) error {
	next, err := l.nextInLine()
	if err != nil {
		return err
	}
	l.nextTerm()
	asked := make(chan struct{})
	var once sync.Once
	for end := time.Now().Add(90 * time.Second); time.Now().Before(end); {
		_, err := l.join(ctx, next, func(term uint64) (protocol.State, bool) {
			once.Do(func() { close(asked); l.say("withholding", map[string]any{"term": term}) })
			return protocol.State{}, false // none: it keeps its shares

		})
		var ref *gamewire.Refused
		switch {
		case errors.As(err, &ref):
			l.say("refused", map[string]any{"code": ref.Code, "message": ref.Msg})
			return nil
		case err == nil:
			l.say("rejoined", map[string]any{"seat": l.seat})
			return nil
		}
		select {
		case <-asked:
			return err // let go after it was asked: the new host gave up on it
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
	return errors.New("no new host asked the withholder for its state")
}

// intrude is the stranger's failover: a record pressed on the new host.
func (l *liar) intrude(ctx context.Context) error {
	next, err := l.nextInLine()
	if err != nil {
		return err
	}
	l.nextTerm()
	l.mu.Lock()
	journal := slices.Clone(l.chain.Steps)
	l.mu.Unlock()
	var shares []protocol.StepShare
	for x := range 5 {
		y := make([]byte, 40)
		rand.Read(y)
		shares = append(shares, protocol.StepShare{Step: -1, X: uint8(200 + x), Y: y, K: 2})
	}
	for end := time.Now().Add(90 * time.Second); time.Now().Before(end); {
		_, err := l.join(ctx, next, func(term uint64) (protocol.State, bool) {
			l.say("state", map[string]any{"term": term, "steps": len(journal), "shares": len(shares)})
			return protocol.State{Steps: journal, Shares: shares}, true
		})
		var ref *gamewire.Refused
		switch {
		case errors.As(err, &ref):
			l.say("refused", map[string]any{"code": ref.Code, "message": ref.Msg})
			if strings.Contains(ref.Msg, "no seat") {
				return nil
			}
			// The next in line hadn't taken over yet, or is busy: again.
		case err == nil:
			l.say("rejoined", map[string]any{"seat": l.seat})
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
	return errors.New("the next in line never answered the stranger")
}

// play plays its seat as the rogue does (rogue.Move), but for a liar in
// wait.
func (l *liar) play(ctx context.Context) {
	var tid protocol.TableID
	var commit [32]byte
	roguepeer.PlayLoop(ctx, l.changed, 500*time.Millisecond, func() protocol.Message {
		l.mu.Lock()
		v, seat := l.view, l.seat
		tid, commit = l.tid, l.lobby.Commit
		l.mu.Unlock()
		m := roguepeer.Move(v, seat)
		if _, pass := m.(protocol.Pass); pass && l.mode == "history" && !l.lied() {
			// A liar in wait lets no play go: its journal stays as
			// long as anyone's, and the window open.
			return nil
		}
		return m
	}, func(m protocol.Message) {
		// Signed as our seat's own, as any player's move is (1.6).
		l.send(gamewire.SignedMove(l.key, tid, commit, m))
	})
}

// rejoin is the liar's failover: straight to the next in line at term+1,
// with its lie for the state request.
func (l *liar) rejoin(ctx context.Context) (chan struct{}, error) {
	l.mu.Lock()
	old := l.hostID
	journal := slices.Clone(l.chain.Steps)
	v := l.view
	var shares []protocol.StepShare
	for _, sh := range l.shares {
		shares = append(shares, sh)
	}
	next := l.candidates(old)
	commit, tid := l.lobby.Commit, l.tid
	l.mu.Unlock()
	if len(journal) == 0 || v == nil || len(next) == 0 {
		return nil, fmt.Errorf("lost the host with nothing to lie about (%d steps, %d candidates)", len(journal), len(next))
	}
	if l.lie == "unreplayable" {
		// Cut back to before the liar's last hidden step: the host is
		// killed as the liar sees a play open, and may have died
		// sending it to the liar alone. A journal with cards nobody
		// else holds the shares of is tried after every whole one, so
		// the lie would never be tried at all (1 run in ~15 under
		// load; node's chain test's liar does the same).
		for i := len(journal) - 1; i > 0; i-- {
			if journal[i].Hidden > 0 {
				journal = journal[:i]
				break
			}
		}
	}
	lie, forged, err := l.forgery(journal, v, commit, tid)
	if err != nil {
		return nil, err
	}
	ws := []map[string]any{}
	for _, f := range forged {
		ws = append(ws, map[string]any{"at": f.AtNS, "tick": f.Tick, "move": f.Move, "seat": f.Seat, "no": f.No, "term": f.Term})
	}
	l.say("forged", map[string]any{"lie": l.lie, "journal": len(journal), "steps": ws, "callable": roguepeer.Callable(v, l.forge),
		"next": next[0].ID.String()})
	l.nextTerm()
	l.mu.Lock()
	l.told = true
	l.mu.Unlock()
	state := func(term uint64) (protocol.State, bool) {
		l.say("state", map[string]any{"term": term, "steps": len(lie)})
		return protocol.State{Steps: lie, Shares: shares}, true
	}
	for end := time.Now().Add(90 * time.Second); time.Now().Before(end); {
		lost, err := l.join(ctx, next[0], state)
		if err == nil {
			l.say("rejoined", map[string]any{"seat": l.seat, "host": next[0].ID.String()})
			return lost, nil
		}
		// The next in line may not have noticed yet ("the host is
		// still here"), or may be rebuilding: again, as a player would.
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
	return nil, errors.New("no new host seated the liar")
}

// candidates are the player nodes in line to host after old, as the
// last lobby gave them, first in line first. l.mu is held.
func (l *liar) candidates(old peer.ID) []peer.AddrInfo {
	var next []peer.AddrInfo
	for _, p := range l.lobby.Players {
		id := peer.ID(p.Peer)
		if p.Peer == "" || p.Bot != "" || p.Web || id == old || protocol.PeerID(id) == l.id {
			continue
		}
		info := peer.AddrInfo{ID: id}
		for _, a := range p.Addrs {
			if m, err := ma.NewMultiaddr(a); err == nil {
				info.Addrs = append(info.Addrs, m)
			}
		}
		next = append(next, info)
	}
	sort.Slice(next, func(i, j int) bool { return next[i].ID < next[j].ID })
	return next
}

// nextTerm moves the liar on to the next host's term, the one it speaks
// in to the host it fails over to.
func (l *liar) nextTerm() {
	l.wmu.Lock()
	l.term++
	l.wmu.Unlock()
}

// nextInLine is the first node in line after the host we lost.
func (l *liar) nextInLine() (peer.AddrInfo, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	next := l.candidates(l.hostID)
	if len(next) == 0 {
		return peer.AddrInfo{}, errors.New("lost the host with no one in line after it")
	}
	return next[0], nil
}

// forgery is the journal the liar gives the new host, and its forged
// steps.
func (l *liar) forgery(journal []protocol.Step, v *protocol.View, commit [32]byte, tid protocol.TableID) ([]protocol.Step, []protocol.Step, error) {
	last := journal[len(journal)-1]
	no := v.No
	if v.Window != nil {
		no = v.Window.No
	}
	call := protocol.Step{AtNS: last.AtNS + int64(time.Millisecond), Move: uint8(engine.MoveCall), Seat: l.forge,
		Rank: protocol.NoRank, No: no, Term: last.Term}
	switch l.lie {
	case "call":
		// One call seat forge never made, in the open window, and a
		// tick of the clock after it, so that the journal is longer
		// than an honest one that got a step more than the liar did
		// before the host died (the longest is tried first): no host
		// signed either.
		tick := protocol.Step{AtNS: call.AtNS + int64(time.Millisecond), Tick: true, Rank: protocol.NoRank, Term: last.Term}
		return append(journal, call, tick), []protocol.Step{call, tick}, nil
	case "unreplayable":
		// Calls on a play that never was, the last signed with the old
		// host's key: a journal the chain vouches for that no engine
		// replays. Several, so that it is the longest even should the
		// liar lag the new host by a batch.
		prof, err := node.LoadProfile(os.Getenv(lieKeyEnv))
		if err != nil {
			return nil, nil, err
		}
		raw, err := prof.Key.Raw()
		if err != nil {
			return nil, nil, err
		}
		call.No = 999
		var forged []protocol.Step
		for range 6 {
			journal = append(journal, call)
			forged = append(forged, call)
		}
		h := commit
		for _, w := range journal {
			h = gamewire.ChainNext(h, w)
		}
		i := len(journal) - 1
		journal[i].Sig = gamewire.SignStep(ed25519.PrivateKey(raw), tid, call.Term, i, h)
		return journal, forged, nil
	}
	return nil, nil, fmt.Errorf("no lie %q", l.lie)
}

// end says what the liar saw and held: the end, and for the shares mode
// every share and the host's reveal.
func (l *liar) end() {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := map[string]any{"places": l.over.Places, "commit": hex.EncodeToString(l.lobby.Commit[:])}
	if l.mode == "shares" {
		shares := map[string]any{}
		for i, sh := range l.shares {
			shares[fmt.Sprint(i)] = map[string]any{"x": sh.X, "k": sh.K, "y": hex.EncodeToString(sh.Y)}
		}
		out["shares"] = shares
		if len(l.reveal) > 0 {
			out["seed"] = fmt.Sprint(l.reveal[0].Seed)
			out["salt"] = hex.EncodeToString(l.reveal[0].Salt)
			hidden := map[string]any{}
			var steps []protocol.Step
			for _, p := range l.reveal {
				steps = append(steps, p.Steps...)
			}
			for i, w := range steps {
				if _, ok := l.shares[i]; ok {
					hidden[fmt.Sprint(i)] = hex.EncodeToString(w.Cards)
				}
			}
			out["cards"] = hidden
		}
	}
	l.say("over", out)
}
