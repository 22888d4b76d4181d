package node

// The new host's role: we took over a term (election.go), the table
// rebuilds from the players' shares (restore.go), and our own seat at it
// is our player's. Should a node ahead of us in line host the same term
// (two took over at once: one could not reach the other in time), we
// yield to it, and the split heals: neither could rebuild without the
// other's shares.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/shamir"
	"github.com/bullshit-game/bullshit/node/table"
	"github.com/bullshit-game/bullshit/protocol"
)

// runHost is the new host's loop: the table rebuilds, or RebuildWait runs
// out and we give hosting up; meanwhile a walk looks ahead of us in line
// (lookAhead). Rebuilt, our seat's updates are our player's.
func (r *Remote) runHost() {
	srv := r.server
	rebuilt := srv.rec.done
	wait := time.NewTimer(r.timing.RebuildWait)
	defer wait.Stop()
	// Who the rebuild waits for is said a quarter of the way to Stall;
	// at Stall, a table some player holds up deals a new game (stall).
	tell := time.NewTimer(r.timing.Stall / 4)
	defer tell.Stop()
	stall := time.NewTimer(r.timing.Stall)
	defer stall.Stop()
	r.startWalk(r.lookAhead)
	// A blind game goes on from the longest log the parties back by
	// then gave us (blindtakeover.go).
	var blind <-chan time.Time
	if srv.rec.blind != nil {
		bt := time.NewTimer(r.blindWait())
		defer bt.Stop()
		blind = bt.C
	}
	var own <-chan table.Update
	for r.role == roleHost {
		select {
		case f := <-r.in:
			f()
		case m := <-r.fromHost:
			r.take(m) // of the link we left: nothing
		case <-blind:
			srv.rec.tryBlind(true)
		case <-rebuilt:
			rebuilt = nil
			wait.Stop()
			r.endWalk()
			own = r.sitOwn(srv)
			r.advert = advertiseTaken(r.advertis, srv, r.table, r.nick, r.code != "")
		case u, ok := <-own:
			if !ok {
				own = nil
				continue
			}
			r.followOwn(u)
		case <-tell.C:
			if who, _, _ := srv.rec.awaited(); len(who) > 0 && !srv.isReady() {
				r.notice(fmt.Sprintf("Waiting for the shares of the hidden cards of %s, to rebuild the table; a new game is dealt in %s without them.",
					strings.Join(who, " and "), (r.timing.Stall - r.timing.Stall/4).Round(time.Second)))
			}
		case <-stall.C:
			r.stall(srv)
		case <-wait.C:
			if !srv.isReady() {
				note := "No other player came back to rebuild the table: waiting for the host."
				if who, _, _ := srv.rec.awaited(); len(who) > 0 {
					note = fmt.Sprintf("No other player came back to rebuild the table (waiting for %s): waiting for the host.", strings.Join(who, " and "))
				}
				r.abdicate(note)
			}
		}
	}
}

// stall is the rebuild Timing.Stall after it began: if a seated player
// connected to us still holds back its shares, the table deals a new game
// rather than wait for ever (recovery.redeal), a bot in the seat of each
// player who gave none. Shares missing only with players not connected
// (a program that died took its shares with it) wait on, as before, for
// the old host back from its journal (RebuildWait, abdicate): nothing of
// the game is lost that way.
func (r *Remote) stall(srv *Server) {
	who, stalled, holding := srv.rec.awaited()
	if srv.isReady() || !holding {
		return
	}
	why := fmt.Sprintf("The game couldn't be rebuilt: no share of the hidden cards from %s in %s. A new game is dealt, the evening's score kept; a bot takes their seat.",
		strings.Join(who, " and "), r.timing.Stall.Round(time.Second))
	if ok, err := srv.rec.redeal(why, stalled); err != nil {
		r.notice("The new game couldn't be dealt: " + err.Error())
	} else if ok {
		r.notice(why)
	}
}

// newRecovery is the rebuild of the game for the term we take over,
// started with our own journal and shares.
func (r *Remote) newRecovery(term uint64) *recovery {
	rec := &recovery{table: r.table, commit: r.table.Commit, shares: map[int][]shamir.Share{}, done: make(chan struct{}),
		asked: map[*srvConn]bool{}, gave: map[protocol.PeerID]bool{},
		term: term, hosts: r.chain.Hosts(term),
		heir: heir{tid: r.tid, nick: r.nick, code: r.code, self: r.h.ID(), key: r.key, timing: r.timing, bots: r.bots, fall: r.fall, gone: r.oldHost, dealer: r.dealt.host,
			say: func(text string) { go r.do(func() { r.notice(text) }) }}}
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
// has rebuilt the table.
func (r *Remote) newServer(signer *protocol.Signer, term uint64, rec *recovery) *Server {
	srv := &Server{h: r.h, sealer: signer, tid: r.tid, code: r.code, conns: map[*srvConn]bool{}, revealed: make(chan struct{}, 64), rec: rec,
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

// sitOwn takes our own seat at the table srv rebuilt: its updates.
func (r *Remote) sitOwn(srv *Server) <-chan table.Update {
	if _, blind := r.party.Snapshot(); blind && r.table.Blind && srv.tbl() != nil {
		// A blind game we took over: our party plays on, in front of
		// our screen, its messages to our table now.
		_, sess, err := srv.tbl().SitLocalParty(r.nick, r.party)
		if err != nil {
			return nil
		}
		r.local = sess
		return nil
	}
	_, sess, err := srv.tbl().Sit("local", r.nick)
	if err != nil {
		return nil
	}
	r.local, r.rolled = sess, srv.rec.rolled
	return sess.Updates()
}

// followOwn passes an update of our own seat at the table we host on to
// our player, keeping our record for the audit.
func (r *Remote) followOwn(u table.Update) {
	if u.Backlog {
		// What we were sent before, as the rebuilt table knows it:
		// for the audit, not to be shown or learnt again.
		r.rec.Backlog(u.Table.Commit, u.Events, r.rolled > 0)
		r.chain.Rolled += r.rolled
		r.rolled = 0
		u.Events = nil
	} else {
		r.rec.Shown(u.Table.Commit, u.Events)
	}
	r.show(u)
}

// abdicate gives hosting up before the table rebuilt (on run): the term is
// the next host's again, and we are a candidate.
func (r *Remote) abdicate(note string) {
	srv := r.server
	r.server = nil
	r.hosting.Store(false)
	r.chain.Forget(r.term) // whoever hosts this term next, it isn't us
	r.term--
	srv.Close()
	if r.web != nil {
		r.web.unhost(srv)
	}
	r.h.SetStreamHandler(ProtocolID, r.standby)
	r.notice(note)
	r.become(roleCandidate)
}

// lookAhead is a new host's walk while the table rebuilds: each candidate
// ahead of us in line, in turn, asked to seat us for our term. One that
// asks for our state hosts it, or takes over at our asking (it had not
// noticed the loss yet): either way it is the rightful host, and we yield.
func (r *Remote) lookAhead(w *walk) {
	var ahead []candidate
	for _, c := range w.line.cands {
		if c.id < r.h.ID() {
			ahead = append(ahead, c)
		}
	}
	for w.ctx.Err() == nil {
		if r.oldBack(w) {
			return
		}
		for _, c := range ahead {
			l, err := r.joinTwice(w.ctx, aim{to: c.info(), tid: w.line.tid, term: w.line.term, look: true})
			var hosts *errHosts
			switch {
			case err == nil: // rebuilt without us: it is the table
				l.st.Reset()
				r.yieldTo(w, c, l.hostTerm)
				return
			case errors.As(err, &hosts):
				r.yieldTo(w, c, hosts.term)
				return
			}
		}
		pause(w.ctx, r.timing.HostRetry)
	}
}

// oldBack is lookAhead's try of the host we lost, at the term it hosted:
// a node whose own link was cut took over when it could not tell it was
// alone (the others holding shares are phones, which it can't dial: they
// dial it), while the old host and the phones played on. Once the link
// heals the old host seats it again, and it gives up hosting for its
// seat there, seconds after the heal rather than after RebuildWait. A
// host really gone costs a failed dial a round. It reports whether the
// walk is over.
func (r *Remote) oldBack(w *walk) bool {
	if w.line.old.ID == "" || w.line.term < 2 {
		return false
	}
	ctx, cancel := context.WithTimeout(w.ctx, r.timing.HostRetry)
	l, err := r.join(ctx, aim{to: w.line.old, tid: w.line.tid, term: w.line.term - 1, back: true})
	cancel()
	if err != nil {
		return false
	}
	took := false
	r.do(func() {
		if took = w == r.walk && r.role == roleHost && !r.server.isReady(); took {
			r.abdicate("The host is still there: back at its table.")
			r.follow(l)
			r.notice("Reconnected.")
		}
	})
	if !took {
		l.st.Reset()
	}
	return true
}

// yieldTo is lookAhead's find: c, ahead of us in line, hosts term. We give
// our own term up to it, and as a candidate join it, our shares with us
// (the walk goes from the start of the line); the players waiting on us
// follow, dropped, and walk the line too. A term we yielded is not ours to
// take again at a rejoin (rejoin).
func (r *Remote) yieldTo(w *walk, c candidate, term uint64) {
	r.do(func() {
		if w != r.walk || r.role != roleHost || r.server.isReady() || term < r.term {
			return
		}
		r.yielded = r.term
		r.abdicate(fmt.Sprintf("%s took over too, and is ahead in line: joining them.", nameOf(w.line.seats, c.id)))
	})
}
