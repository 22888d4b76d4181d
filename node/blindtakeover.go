package node

// A blind game's failover (node/table: blind.go). The new host needs
// nothing hidden: every party's node holds the host's log, and runs its
// own copy of the host on it, so the new host's table is its own record
// of the game. What it waits for, briefly, is the other parties' last
// envelopes of the log from the host that vanished: a node the old host
// reached last with its final inputs has taken more of the game than the
// new host may have, and the table goes on from the longest log, each of
// its inputs signed by the host that took it, so that no node's game runs
// ahead of the table's. The old host's own party is then taken over by
// the new host's node: the others rebuild its secret for it, and a bot
// here plays its seat for the rest of the game.

import (
	"fmt"
	"slices"
	"time"

	"github.com/bullshit-game/bullshit/node/shamir"
	"github.com/bullshit-game/bullshit/node/table"
	"github.com/bullshit-game/bullshit/protocol"
)

// blindTail is the most of the host's last BlindLog envelopes a node
// keeps (and gives a new host, State.Logs), in bytes: a State must fit
// protocol.MaxSize.
const blindTail = 56 << 10

// keepLog keeps a BlindLog envelope of our host's as it came (on run),
// the newest blindTail bytes of them; a new game's terms start afresh.
func (r *Remote) keepLog(deal bool, raw []byte) {
	if deal {
		r.logTail = nil
		return
	}
	r.logTail = append(r.logTail, raw)
	size := 0
	for i := len(r.logTail) - 1; i >= 0; i-- {
		if size += len(r.logTail[i]); size > blindTail && i < len(r.logTail)-1 {
			r.logTail = slices.Clone(r.logTail[i+1:])
			return
		}
	}
}

// blindRec is a blind game's take-over while the other parties come back
// to us with their last envelopes of the log (recovery.blind).
type blindRec struct {
	snap    table.Snapshot
	set     table.Settings
	self    protocol.PeerID
	oldHost protocol.PeerID // whose envelopes extend our log
	expect  map[protocol.PeerID]bool
	back    int  // parties that came back to us with their logs
	forced  bool // the wait for them all is over (tryBlind)
	logs    [][]byte
	build   func(log []protocol.LogInput) (*table.Table, error)
}

// blindTakeover takes a blind game in play over (on run), hosting term:
// the table is this node's own record of the game, gone on from the
// longest log among the parties that come back within DeadAfter (those
// that come later are held to it); nobody's shares are waited for. The
// old host's party is taken over by ours. nil when the game in play
// isn't blind, or this node took no part in it.
func (r *Remote) blindTakeover(signer *protocol.Signer, term uint64) *Server {
	r.party.Sync() // the old host's last words (heed) taken first
	snap, ok := r.party.Snapshot()
	if !ok || !r.table.Blind {
		return nil
	}
	ts := r.table
	tm := r.timing
	if ts.Reveal > 0 {
		tm.Reveal = ts.Reveal
	}
	set := table.Settings{Name: ts.Name, Rules: ts.Rules, Seats: len(ts.Seats), Timing: tm, TurnClock: ts.TurnClock, Grace: ts.Grace, Pace: ts.Pace,
		Code: r.code}
	gone := ""
	if r.oldHost != "" {
		gone = r.oldHost.String()
	}
	self := wireID(r.h.ID())
	br := &blindRec{snap: snap, set: set, self: self, oldHost: wireID(r.oldHost), expect: map[protocol.PeerID]bool{}}
	for _, id := range snap.Deal.Parties {
		if id != self && id.String() != gone {
			br.expect[id] = true
		}
	}
	notice := fmt.Sprintf("Host left; %s is now hosting.", r.nick)
	tid, nick, hostPeer, bots, fall, key := r.tid, r.nick, r.h.ID().String(), r.bots, r.fall, edKeyOrNil(r.key)
	br.build = func(log []protocol.LogInput) (*table.Table, error) {
		return table.ResumeBlind(set, ts.ID, tid, nick, hostPeer, ts.Seats, ts.Nonces, ts.Commit, snap.Deal, log, gone, term,
			bots, fall, notice, ts.Evening, key)
	}
	rec := &recovery{table: ts, commit: ts.Commit, shares: map[int][]shamir.Share{}, done: make(chan struct{}),
		asked: map[*srvConn]bool{}, gave: map[protocol.PeerID]bool{}, term: term, blind: br,
		heir: heir{tid: r.tid, self: r.h.ID(), gone: r.oldHost, say: func(text string) { go r.do(func() { r.notice(text) }) }}}
	srv := r.newServer(signer, term, rec)
	r.server, r.term = srv, term
	r.hosting.Store(true)
	r.h.SetStreamHandler(ProtocolID, srv.handler())
	if r.web != nil {
		r.web.hosting(srv)
	}
	r.notice("The host left: you are hosting now.")
	r.become(roleHost)
	rec.tryBlind(false)
	return srv
}

// addBlind takes a party's last envelopes of the old host's log.
func (rc *recovery) addBlind(from protocol.PeerID, logs [][]byte) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	delete(rc.blind.expect, from)
	rc.blind.logs = append(rc.blind.logs, logs...)
	rc.blind.back++
}

// tryBlind builds the blind table once every party expected gave its
// last envelopes of the log, or at once when force (DeadAfter passed):
// from our log, gone on as far as the envelopes signed by the old host
// reach. A longer log that doesn't replay is dropped for ours.
func (rc *recovery) tryBlind(force bool) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	br := rc.blind
	if br == nil || rc.srv.isReady() {
		return
	}
	br.forced = br.forced || force // DeadAfter passed: the next one back is enough
	if !br.forced && len(br.expect) > 0 {
		return
	}
	if len(br.expect) > 0 && br.back == 0 {
		// Not one of the other parties came back to us: more likely our
		// own link is down than everyone's (their phones dial the old
		// host). We wait for them, or for the old host back (lookAhead),
		// till RebuildWait gives hosting up.
		return
	}
	log := extendLog(br.snap.Log, br.logs, br.oldHost, rc.heir.tid)
	t, err := br.build(log)
	if err != nil && len(log) > len(br.snap.Log) {
		t, err = br.build(br.snap.Log)
	}
	if err != nil {
		rc.err = err
		rc.heir.say("The blind game couldn't be taken over: " + protocol.Sentence(err))
		return
	}
	if u := rc.srv.selfWeb; u != "" {
		t.SetWeb(u)
	}
	rc.srv.mu.Lock()
	rc.srv.table = t
	rc.srv.mu.Unlock()
	close(rc.srv.ready)
	close(rc.done)
}

// extendLog is log gone on with the inputs of the BlindLog envelopes in
// envs that host signed for table tid, as far as they follow on from it.
func extendLog(log []protocol.LogInput, envs [][]byte, host protocol.PeerID, tid protocol.TableID) []protocol.LogInput {
	var parts []protocol.BlindLog
	for _, b := range envs {
		env, err := protocol.OpenRelayed(b)
		if err != nil || env.Sender != host || env.Table != tid {
			continue
		}
		if m, ok := env.Msg.(protocol.BlindLog); ok && m.First >= 0 {
			parts = append(parts, m)
		}
	}
	out := slices.Clone(log)
	for grew := true; grew; {
		grew = false
		for _, m := range parts {
			if m.First <= len(out) && len(out) < m.First+len(m.Inputs) {
				out = append(out, m.Inputs[len(out)-m.First:]...)
				grew = true
			}
		}
	}
	return out
}

// blindWait is how long a blind take-over waits for the other parties'
// envelopes before it goes on from what it has.
func (r *Remote) blindWait() time.Duration { return r.timing.DeadAfter + r.timing.HostRetry }
