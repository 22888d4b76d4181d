package node

// A new host's rebuild of the table: the players' journals and shares
// gathered (recovery), the journal rebuilt and replayed, the table restored
// and played on. restoreTable is shared with Device.Resume.

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/shamir"
	"github.com/bullshit-game/bullshit/node/table"
	"github.com/bullshit-game/bullshit/protocol"
)

// recovery gathers the players' journals and shares for a new host. It
// runs on the rejoiners' goroutines (contribute), under its own lock, and
// touches nothing of the Remote's: what it needs of it is a copy (heir).
type recovery struct {
	heir   heir
	srv    *Server
	table  table.TableState
	commit [32]byte

	term   uint64                       // the term we host
	hosts  map[uint64]ed25519.PublicKey // who hosted each term before ours, as we saw it
	legacy bool                         // the old host kept no chain: journals are taken unsigned
	ownLen int                          // how many steps our own journal had

	mu       sync.Mutex
	journals [][]protocol.Step // every journal that verified, our own first
	from     []protocol.PeerID // whose each of journals is
	refused  []string          // whose journals didn't, and why
	shares   map[int][]shamir.Share
	asked    map[*srvConn]bool        // asked for their state, no answer yet: connected, not answering
	gave     map[protocol.PeerID]bool // who answered with their state
	done     chan struct{}            // closed once rebuilt: the Remote's host loop seats us
	rolled   int                      // how many steps of our own journal the rebuild rolled back, set before done
	err      error
	blind    *blindRec // a blind game's take-over (blindtakeover.go): no journal and no share is gathered
}

// heir is what a new host's rebuild needs of its Remote, copied on the
// Remote's goroutine when it takes over.
type heir struct {
	tid    protocol.TableID
	nick   string
	code   string
	self   peer.ID
	key    crypto.PrivKey
	timing table.Timing
	bots   table.BotMaker
	fall   func(*engine.View) (engine.Command, bool)
	gone   peer.ID      // the host we lost
	dealer string       // the peer ID of the host that dealt the game
	say    func(string) // a notice on our screen, from any goroutine
}

// nameOf is the name of the seat whose node is id, as the table we
// rebuild knows it.
func (rc *recovery) nameOf(id protocol.PeerID) string {
	for _, s := range rc.table.Seats {
		if s.Peer == peer.ID(id).String() {
			return protocol.Clean(s.Name, protocol.MaxText)
		}
	}
	return peer.ID(id).ShortString()
}

// ErrNotSeated is a peer that holds no seat at a table being rebuilt:
// its record of the game and its shares play no part in the rebuild.
var ErrNotSeated = errors.New("it holds no seat at this table")

// notSeatedRefusal is the refusal a peer with no seat gets while the table
// is rebuilt: nothing it sends is asked for, nor taken.
const notSeatedRefusal = "The table is being rebuilt from its seated players' records, and you hold no seat at it: watch again once it is rebuilt."

// seated reports whether id is the node of a person's seat at the table
// we rebuild: only such a node's record and shares count.
func (rc *recovery) seated(id protocol.PeerID) bool {
	for _, s := range rc.table.Seats {
		if s.Peer != "" && s.Bot == "" && s.Peer == peer.ID(id).String() {
			return true
		}
	}
	return false
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
// are checked against the commitment and the seals when combined), and
// add says why.
func (rc *recovery) add(from protocol.PeerID, journal []protocol.Step, shares map[int]shamir.Share) error {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if from != wireID(rc.heir.self) && !rc.seated(from) {
		return ErrNotSeated
	}
	var err error
	switch {
	case rc.legacy && !gamewire.Signed(journal):
	case !gamewire.Signed(journal) && len(journal) > 0:
		err = gamewire.ErrChainUnsigned
	default:
		_, err = gamewire.VerifyChain(rc.heir.tid, rc.commit, journal, rc.keyOf)
	}
	if err == nil {
		// A move in a seat's name that its person didn't sign, but says
		// they did, is made up: the whole journal goes.
		err = gamewire.CheckMarks(rc.heir.tid, rc.commit, journal, 0,
			func(seat int) ed25519.PublicKey { return table.SeatPubKey(rc.table.Seats, seat) })
	}
	if err != nil {
		rc.refused = append(rc.refused, fmt.Sprintf("%s: %v", peer.ID(from).ShortString(), err))
	} else {
		rc.journals = append(rc.journals, append([]protocol.Step(nil), journal...))
		rc.from = append(rc.from, from)
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
	return err
}

// contribute asks a rejoining player for its journal and shares, and waits
// until the table is rebuilt.
func (c *srvConn) contribute() error {
	rc := c.s.rec
	if err := c.send(protocol.StateRequest{}); err != nil {
		return err
	}
	rc.waitOn(c, true)
	defer rc.waitOn(c, false)
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
	rc.mu.Lock()
	rc.gave[wireID(c.peer)] = true
	rc.mu.Unlock()
	if rc.blind != nil {
		rc.addBlind(wireID(c.peer), st.Logs)
		rc.tryBlind(false)
		select {
		case <-c.s.ready:
			return nil
		case <-time.After(c.s.timing.RebuildWait):
			return errors.New("not rebuilt")
		}
	}
	shares := map[int]shamir.Share{}
	for _, sh := range engShares(st.Shares) {
		shares[sh.Step] = sh.Share
	}
	if err := rc.add(wireID(c.peer), st.Steps, shares); err != nil {
		// Said on the new host's screen: a player sent a history its
		// hosts never signed (a forged or doctored move), and it plays
		// no part in the rebuild.
		rc.heir.say(fmt.Sprintf("Refused %s's record of the game: %v.", rc.nameOf(wireID(c.peer)), err))
	}
	rc.try()
	select {
	case <-c.s.ready:
		return nil
	case <-time.After(c.s.timing.RebuildWait):
		return errors.New("not rebuilt")
	}
}

// waitOn notes c as asked for its state and not answering yet (on), or no
// longer (off: it answered, or its link ended).
func (rc *recovery) waitOn(c *srvConn, on bool) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if on {
		rc.asked[c] = true
	} else {
		delete(rc.asked, c)
	}
}

// awaited is who the rebuild waits for, as a player reads it: each seated
// player who hasn't given their shares, and whether their node is
// connected ("Ben (connected, not answering)", "Cleo (not connected)"), in
// seat order; and whether one of them holds the rebuild up: connected,
// asked, and not answering.
func (rc *recovery) awaited() (who []string, stalled []protocol.PeerID, holding bool) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	connected := map[protocol.PeerID]bool{}
	for c := range rc.asked {
		connected[wireID(c.peer)] = true
	}
	for _, s := range rc.table.Seats {
		id, err := peer.Decode(s.Peer)
		if s.Peer == "" || s.Bot != "" || err != nil || id == rc.heir.self || id == rc.heir.gone || rc.gave[wireID(id)] {
			continue
		}
		name := protocol.Clean(s.Name, protocol.MaxText)
		stalled = append(stalled, wireID(id))
		if connected[wireID(id)] {
			holding = true
			who = append(who, name+" (connected, not answering)")
		} else {
			who = append(who, name+" (not connected)")
		}
	}
	return who, stalled, holding
}

// redeal gives the rebuild up, Timing.Stall after it began, when a seated
// player connected to us holds back their shares: the game so far can't
// be rebuilt without them, and the table would wait for ever. It
// deals a new game instead, at the same seats and with the evening's
// score, a bot in each seat whose player gave no shares; their waiting
// links are let go with the reason. why is the table's notice. It reports
// false when the table rebuilt meanwhile.
func (rc *recovery) redeal(why string, stalled []protocol.PeerID) (bool, error) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if rc.srv.isReady() {
		return false, nil
	}
	hr, ts := rc.heir, rc.table
	tm := hr.timing
	if ts.Reveal > 0 {
		tm.Reveal = ts.Reveal
	}
	set := table.Settings{Name: ts.Name, Rules: ts.Rules, Seats: len(ts.Seats), Timing: tm, TurnClock: ts.TurnClock, Grace: ts.Grace, Pace: ts.Pace,
		Code: hr.code}
	t, err := table.NewTable(set, hr.nick, hr.bots, hr.fall)
	if err != nil {
		return false, err
	}
	out := map[string]bool{hr.gone.String(): true}
	for _, id := range stalled {
		out[peer.ID(id).String()] = true
	}
	returning, err := t.Reseat(ts.ID, hr.tid, rc.srv.term.Load(), hr.self.String(), ts.Evening, rc.srv.selfWeb, edKeyOrNil(hr.key), ts.Seats, out, why)
	if err != nil {
		return false, err
	}
	for c := range rc.asked {
		if out[c.peer.String()] {
			c.refuse(protocol.CodeNotAllowed, why, 0)
			c.st.Close()
		}
	}
	rc.srv.mu.Lock()
	rc.srv.table = t
	rc.srv.mu.Unlock()
	close(rc.srv.ready)
	close(rc.done)
	go table.DealOnceBack(t, returning, 2*hr.timing.Toss, why)
	return true, nil
}

// try rebuilds the game once every hidden part has its shares: from the
// longest journal that verified and rebuilds whole, or, when that one
// doesn't replay, from the next (a bad journal never stalls the table).
func (rc *recovery) try() {
	var said []string // notices, given once rc.mu is let go
	defer func() {
		for _, n := range said {
			rc.heir.say(n)
		}
	}()
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if rc.srv.isReady() {
		return
	}
	seed, salt, err := shamir.RecoverSeed(rc.commit, rc.shares[-1]...)
	if err != nil {
		return
	}
	t, rolled, bad := rc.replayBest(seed, salt)
	if t == nil {
		return
	}
	for _, b := range bad {
		// Signed by its hosts, and still not a game the engine
		// replays: dropped, and the table goes on from the next.
		said = append(said, fmt.Sprintf("Refused %s's record of the game, and rebuilt it from another player's: %v", rc.nameOf(b.from), b.err))
	}
	if u := rc.srv.selfWeb; u != "" {
		t.SetWeb(u)
	}
	if d := rc.heir.dealer; d != "" {
		t.SetDealer(d)
	}
	rc.srv.mu.Lock()
	rc.srv.table = t
	rc.srv.mu.Unlock()
	rc.rolled = rolled
	close(rc.srv.ready)
	close(rc.done)
}

// badJournal is a journal that verified but didn't replay: whose, and why.
type badJournal struct {
	from protocol.PeerID
	err  error
}

// replayBest is the table replayed from the best journal that replays,
// how many steps of our own journal it rolled back, and the journals
// tried before it that didn't replay; a nil table when none does (rc.err
// says why). rc.mu is held.
func (rc *recovery) replayBest(seed uint64, salt [gamewire.SaltSize]byte) (*table.Table, int, []badJournal) {
	type cand struct {
		from  protocol.PeerID
		steps []engine.Step
		links []table.Link
		whole bool
	}
	var cands []cand
	for i, j := range rc.journals {
		steps, links := rc.rebuild(j, seed, salt)
		cands = append(cands, cand{rc.from[i], steps, links, len(steps) == len(j)})
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
	var bad []badJournal
	for _, c := range cands {
		ts := rc.table
		cfg := engine.Config{Rules: ts.Rules, Seats: len(ts.Seats), Seed: seed}
		t, err := restore(rc.heir, ts, cfg, salt, rc.commit, c.steps, c.links, rc.srv.term.Load())
		if err == nil {
			return t, max(rc.ownLen-len(c.steps), 0), bad
		}
		rc.err = err
		bad = append(bad, badJournal{c.from, err})
	}
	return nil, 0, bad
}

// rebuild is a journal with its hidden cards combined from the shares and
// checked against their seals, as far as it rebuilds, and cut back to its
// last signed step (a new host chains its own term on from there).
func (rc *recovery) rebuild(journal []protocol.Step, seed uint64, salt [gamewire.SaltSize]byte) ([]engine.Step, []table.Link) {
	pub := engPubSteps(journal)
	steps := make([]engine.Step, 0, len(pub))
	links := make([]table.Link, 0, len(pub))
	signedAt := 0
	for i, p := range pub {
		st := p.Step
		if p.Hidden > 0 {
			b, err := shamir.Combine(rc.shares[i])
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
func restore(hr heir, ts table.TableState, cfg engine.Config, salt [gamewire.SaltSize]byte, commit [32]byte, steps []engine.Step, links []table.Link, term uint64) (*table.Table, error) {
	// No fixed seed: the next game's (N on the result sheet) is drawn at
	// its deal. This game's seed is revealed at its end, and a next seed
	// worked out from it would be known to every player.
	tm := hr.timing
	if ts.Reveal > 0 {
		tm.Reveal = ts.Reveal
	}
	set := table.Settings{Name: ts.Name, Rules: ts.Rules, Seats: len(ts.Seats), Timing: tm, TurnClock: ts.TurnClock, Grace: ts.Grace, Pace: ts.Pace,
		Code: hr.code}
	notice := fmt.Sprintf("Host left; %s is now hosting.", hr.nick)
	// The old host's own seat, if it had one, is a bot's from now on, in
	// this game and the next: its player is the one who left, and a seat
	// kept for them would hold up every game dealt after (and count them
	// in the shares' threshold while they are gone). The seat remembers
	// them (Peer on a bot's seat): should they come back, restarted with
	// the same key, they take it back from the bot (Table.sit).
	seats := append([]table.SeatInfo(nil), ts.Seats...)
	for i, s := range seats {
		if hr.gone != "" && s.Peer == hr.gone.String() && s.Bot == "" {
			seats[i] = table.SeatInfo{Name: s.Name, Bot: "medium", Connected: true, Peer: s.Peer}
			notice += fmt.Sprintf(" A bot plays for %s.", s.Name)
		}
	}
	return table.RestoreTable(set, ts.ID, hr.tid, hr.nick, hr.self.String(), seats, cfg, salt, ts.Nonces, commit, steps, links, term, hr.bots, hr.fall,
		notice, nil, ts.Evening, edKeyOrNil(hr.key))
}
