package node

// The player's role: a host seats us, we read what it sends (keeping
// what the audit and a rebuild need), answer it, and say we are here. All
// of it on run.

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/journal"
	"github.com/bullshit-game/bullshit/node/record"
	"github.com/bullshit-game/bullshit/node/shamir"
	"github.com/bullshit-game/bullshit/node/table"
	"github.com/bullshit-game/bullshit/protocol"
)

// runPlayer is the player's loop: the host's envelopes, our heartbeat, and
// calls. A spectator whose host went silent stays a player, with a walk
// that dials it again (redial).
func (r *Remote) runPlayer() {
	beat := time.NewTicker(r.timing.Heartbeat)
	defer beat.Stop()
	for r.role == rolePlayer {
		select {
		case f := <-r.in:
			f()
		case m := <-r.fromHost:
			r.take(m)
		case <-beat.C:
			if r.link != nil {
				r.send(protocol.Heartbeat{})
			}
		}
	}
}

// follow makes l, on which a host seated us, our link to the table: we are
// its player.
func (r *Remote) follow(l *hostLink) {
	r.link, r.info = l, l.to
	defer r.partyLink(l)
	if r.links == 0 {
		// First seated at a table past term 1 (this program started
		// again after it crashed while hosting): we know no host of the
		// earlier terms. The one key we can vouch for is our own: the
		// old host's person, back, checks the backlog's steps it signed
		// itself; anyone else's fail as an unknown host's would.
		for t := uint64(1); t < l.hostTerm; t++ {
			if r.chain.KeyOf(t) == nil {
				r.chain.Host(t, wireID(r.h.ID()))
			}
		}
		// So the deal we find in play may be ours too: the audit takes
		// it as ours when its term-1 steps verify under our key.
		r.dealt.ours = l.hostTerm > 1
	}
	r.links++
	r.seat, r.tid = l.seated.Seat, l.seated.Table
	r.seatNo.Store(int64(r.seat))
	r.heard = time.Now()
	if l.term > r.term && l.hostTerm >= l.term {
		r.term = l.hostTerm // the new host's, after an election
	}
	if r.term >= r.yielded {
		r.yielded = 0
	}
	r.become(rolePlayer)
	r.h.SetStreamHandler(ProtocolID, r.standby)
	// Our host's connection is never one the connection manager
	// trims for a crowd of strangers.
	r.h.ConnManager().Protect(l.to.ID, "bullshit/host")
	go r.readHost(l)
}

// take is what readHost read on link m.link. What a link we no longer
// follow read is nothing to us.
func (r *Remote) take(m hostMsg) {
	if m.link != r.link {
		return
	}
	if m.env == nil {
		r.lost()
		return
	}
	r.heard = time.Now()
	switch msg := m.env.Msg.(type) {
	case protocol.Lobby:
		r.takeLobby(m.env, &msg)
	case protocol.Update:
		r.show(r.takeUpdate(m.env, msg))
	case protocol.BlindDeal:
		// Its log follows: the two go to our party together, which
		// tells from the log whether this node took part before.
		r.keepLog(true, nil)
		r.blindDeal = &msg
	case protocol.BlindLog:
		r.keepLog(false, m.raw)
		part := &table.BlindPart{First: msg.First, Log: msg.Inputs, Now: time.Duration(msg.NowNS), Deal: r.blindDeal}
		r.blindDeal = nil
		r.show(table.Update{Table: r.table, Blind: part})
	case protocol.Toss:
		r.answerToss(msg)
	case protocol.Audit:
		if u, ok := r.audit(msg); ok {
			r.show(u)
		}
	case protocol.Refusal:
		u := table.Update{Table: r.table, View: r.view, Refusal: engRefusal(msg)}
		if r.party == nil {
			r.box.Put(u)
		} else {
			r.party.Refused(msg.Ref, u)
		}
	case protocol.Heartbeat:
	}
}

// lost is our link dropping: tell the screen, and find a host again. A
// spectator is in no line: it waits for its host. A finished game's host
// owes us nothing more.
func (r *Remote) lost() {
	r.dropLink()
	r.notice("Lost the host: reconnecting…")
	switch {
	case r.watch:
		r.startWalk(r.redial)
	case r.view.Phase == engine.PhaseOver || r.table.Phase == table.PhaseOver:
		// The game is over (or the host ended it, and revealed it).
		r.notice("The host has left the finished game.")
		r.stop()
	default:
		r.become(roleCandidate)
	}
}

// heed takes what readHost read of our link and has handed over but we
// have not taken yet: the host's last words count (our journal and shares
// from its last update) though we stop listening to it now. The link's
// loss is left: we are dropping it.
func (r *Remote) heed() {
	for r.link != nil {
		select {
		case m := <-r.fromHost:
			if m.env != nil {
				r.take(m)
			}
		default:
			return
		}
	}
}

// dropLink lets the host we followed go: it is the host we lost.
func (r *Remote) dropLink() {
	if r.link == nil {
		return
	}
	r.link.st.Reset()
	r.link = nil
	r.partyLink(nil)
	r.oldHost = r.info.ID
}

// takeLobby is the host's word on the table.
func (r *Remote) takeLobby(env *protocol.Envelope, m *protocol.Lobby) {
	t := engLobby(m)
	t.ID = r.tid.String() // the table the host seated us at: the Lobby doesn't repeat it
	t.Words = protocol.Fingerprint(string(env.Sender))
	for _, si := range t.Seats {
		if si.Peer == r.info.ID.String() {
			t.Web = si.WebAddr // where phones join the table: its host
		}
	}
	r.table = t
	if t.Commit != ([32]byte{}) && t.Commit != r.dealt.commit {
		// The first host to show us a deal is the one that dealt it
		// (a new host after a failover shows the same commitment).
		r.dealt.commit, r.dealt.host = t.Commit, peer.ID(env.Sender).String()
	}
	if t.Commits != nil && t.Commit != r.watched.round {
		// The first the host showed us for this deal is the one it
		// is held to: a later Lobby can't change our record.
		r.watched.round, r.watched.commits = t.Commit, t.Commits
	}
}

// takeUpdate is an update from the host, as it is shown: its events go
// into our record for the audit, its steps into our journal and its
// shares into ours.
func (r *Remote) takeUpdate(env *protocol.Envelope, m protocol.Update) table.Update {
	u := table.Update{Table: r.table, Notice: protocol.Clean(m.Notice, protocol.MaxText), At: gamewire.FromMS(m.AtMS), Deadline: gamewire.FromMS(m.DeadlineMS)}
	if m.View != nil {
		r.view = gamewire.EngView(m.View, r.table.Rules)
	}
	u.View = r.view
	for _, e := range m.Events {
		ev := gamewire.EngEvent(e)
		switch ev.Type {
		case engine.EventHand, engine.EventMine:
			ev.To = []int{r.seat}
		case engine.EventHanded:
			ev.To = []int{ev.Seat, ev.Target}
		}
		u.Events = append(u.Events, ev)
	}
	if m.Backlog {
		// It may add what we missed, never rewrite what we were
		// sent, short of a new host's signed rollback (node/record).
		rolled := r.chain.Take(r.tid, r.table.Commit, env.Sender, env.Term, m.Steps, true)
		r.rec.Backlog(r.table.Commit, u.Events, rolled > 0)
		u.Events = nil
		u.Backlog = true
		r.shares = nil // shares anew, of the whole journal
	} else {
		if r.rec.Shown(r.table.Commit, u.Events) {
			// A new game at the same seats: the audit and the
			// journal are of this game alone.
			r.shares = nil
			r.chain.Reset(r.tid, r.table.Commit)
		}
		r.chain.Take(r.tid, r.table.Commit, env.Sender, env.Term, m.Steps, false)
	}
	if r.shares == nil {
		r.shares = map[int]shamir.Share{}
	}
	for _, sh := range engShares(m.Shares) {
		r.shares[sh.Step] = sh.Share
	}
	return u
}

// audit gathers the host's reveal and, once whole, checks the game: the
// commitment, then the replay against every event we were sent.
func (r *Remote) audit(m protocol.Audit) (table.Update, bool) {
	g, ok := r.rec.Part(m)
	if !ok {
		return table.Update{}, false
	}
	tt := r.ownToss()
	r.toss, r.kept = record.Toss{}, nil // this game's toss is spent
	toss := tt.Spent(r.table.Nonces)
	if r.seat < 0 && r.watched.round == r.table.Commit && r.watched.round != ([32]byte{}) {
		// A spectator has no nonce of its own, but holds the host to the
		// commitments it published with the deal.
		toss.Round, toss.Commits = r.watched.round, r.watched.commits
	}
	self := r.seat
	dealer := r.dealt.host
	if r.dealt.ours && len(r.chain.Steps) > 0 && r.chain.Steps[0].Term == 1 && len(r.chain.Doubt) == 0 {
		// The old host's person, back after a crash: the game's first
		// steps verified under our own key as term 1's host, so this
		// deal was ours, and its seed our part of the toss. (A host that
		// seats us past term 1 with no step of term 1 proves nothing.)
		dealer = r.h.ID().String()
	}
	if r.local != nil || dealer == r.h.ID().String() {
		// The new host's own seat, after a failover (its nonce is in the
		// old host's deal), or the old host's, back: its seed was its part.
		self = -1
	}
	toss.Players = table.MustMix(r.table.Seats, dealer, self)
	res := r.rec.Audit(g, record.Check{Commit: r.table.Commit, Rules: r.table.Rules, Seats: len(r.table.Seats), Seat: r.seat,
		Toss: toss, Rerun: tt.Rerun, Journal: &r.chain, Names: table.MarkNames(r.table.Seats)})
	u := table.Update{Table: r.table, View: r.view, Audit: &table.AuditResult{Verified: res.Verified, Problems: res.Problems, Notes: res.Notes, Early: res.Early, Plays: res.Plays}}
	if len(g.Salt) != gamewire.SaltSize {
		return u, true
	}
	sg := journal.SavedGame{Table: r.table.Name, Seat: r.seat, Salt: res.Salt, Commitment: r.table.Commit, Steps: g.Steps,
		Events: append([]engine.Event(nil), r.rec.Got...), Toss: toss,
		Config: engine.Config{Rules: r.table.Rules, Seats: len(r.table.Seats), Seed: g.Seed}}
	u.Reveal = &table.Reveal{Config: sg.Config, Salt: res.Salt, Nonces: toss.Nonces, Steps: g.Steps} // for the sheet's highlights
	if r.saveDir != "" {
		u.Notice = r.save(sg)
	}
	return u, true
}

// save writes the game for `bullshit verify` and publishes where (Saved);
// its sentence is for the screen.
func (r *Remote) save(g journal.SavedGame) string { return r.saveIn(r.saveDir, g) }

// saveIn is save into dir (any goroutine: a blind game's is saved by our
// party, which has its reveal).
func (r *Remote) saveIn(dir string, g journal.SavedGame) string {
	who := fmt.Sprintf("seat%d", g.Seat+1)
	if g.Seat < 0 {
		who = "watcher"
	}
	path := filepath.Join(dir, fmt.Sprintf("game-%s-%s.json", time.Now().Format("20060102-150405"), who))
	if err := journal.SaveGame(path, g); err != nil {
		r.saved.Store(&savedGame{err: err})
		return "The game could not be saved: " + err.Error()
	}
	r.saved.Store(&savedGame{path: path})
	return "Saved for `bullshit verify`: " + path
}
