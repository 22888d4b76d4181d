package node

// Joining a host: one attempt to be seated (our hello, the join code
// exchange, our part of a rebuild when a new host asks), and the reader of
// the link it gives. A join runs on the goroutine that makes it (Dial's
// caller, or a walk) and touches nothing run owns: it asks run for our
// state when a new host wants it, and hands the link to run.

import (
	"bufio"
	"context"
	"crypto/rand"
	"errors"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"

	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/protocol"
)

// ErrOldHost is a private table whose host proves join codes the 1.1
// way, which would give the code away to anyone listening: not answered.
var ErrOldHost = gamewire.ErrOldHost

// ErrImpostor is a table that seated us without proving it knew the join
// code: not the table whose code we typed.
var ErrImpostor = errors.New("that table did not prove it knows the join code: it may be an impostor using the same name")

// aim is what a join attempt is for.
type aim struct {
	to   peer.AddrInfo
	tid  protocol.TableID // zero before a host first seated us
	term uint64           // the term our envelopes carry: the next one to join a new host
	back bool             // to the host we lost: past libp2p's dial backoff
	look bool             // a new host's look ahead in line: stop at the first sign the node hosts (errHosts)
}

// errHosts is a look's find: the node asked for our state, so it hosts
// term.
type errHosts struct{ term uint64 }

func (e *errHosts) Error() string { return "that node hosts the table" }

// hostLink is a stream to a host that seated us.
type hostLink struct {
	wmu      sync.Mutex // the writes: run's, and our party's (partySend), each sealed and written under it, in number order
	to       peer.AddrInfo
	st       network.Stream
	br       *bufio.Reader
	w        *bufio.Writer
	term     uint64 // the term our hello was for
	hostTerm uint64 // the term of the host's Seated
	seated   protocol.Seated
}

func (l *hostLink) send(s *protocol.Signer, tid protocol.TableID, term uint64, m protocol.Message, d time.Duration) error {
	_, err := l.sendSeq(s, tid, term, m, d)
	return err
}

// sendSeq is send, saying the envelope's number (a refusal names it).
func (l *hostLink) sendSeq(s *protocol.Signer, tid protocol.TableID, term uint64, m protocol.Message, d time.Duration) (uint64, error) {
	l.wmu.Lock()
	defer l.wmu.Unlock()
	b, seq, err := s.Seal(tid, term, m)
	if err != nil {
		return 0, err
	}
	l.st.SetWriteDeadline(time.Now().Add(d))
	return seq, gamewire.WriteFrame(l.w, b)
}

// hostMsg is what readHost hands run: an envelope from the host on link,
// or, with env nil, the link's loss.
type hostMsg struct {
	link *hostLink
	env  *protocol.Envelope
	raw  []byte // the envelope as it came (a blind table's log is kept so)
}

// join asks the node a.to to seat us, until it does or ctx ends.
func (r *Remote) join(ctx context.Context, a aim) (*hostLink, error) {
	if a.back {
		// Back to the host we lost (whose connection we closed): past
		// libp2p's dial backoff, which the dials that failed while the
		// link was down set, so the host is reached as soon as the link
		// is. Not by network.WithForceDirectDial: a forced dial still in
		// libp2p's dial worker when the host closes dereferences the
		// closed swarm's missing transport (go-libp2p v0.52,
		// Swarm.nonProxyAddr) and takes the program down.
		if sw, ok := r.h.Network().(*swarm.Swarm); ok {
			sw.Backoff().Clear(a.to.ID)
		}
	}
	if err := r.h.Connect(ctx, a.to); err != nil {
		return nil, err
	}
	st, err := r.h.NewStream(ctx, a.to.ID, ProtocolID)
	if err != nil {
		return nil, err
	}
	l := &hostLink{to: a.to, st: st, br: bufio.NewReader(st), w: bufio.NewWriter(st), term: a.term}
	if err := r.hello(l, a); err != nil {
		st.Reset()
		return nil, err
	}
	return l, nil
}

// hello is the exchange on l until the host seats us.
func (r *Remote) hello(l *hostLink, a aim) error {
	send := func(m protocol.Message) error { return l.send(r.signer, a.tid, a.term, m, r.timing.DeadAfter) }
	hello := protocol.Hello{Version: protocol.Current, Nick: r.nick, Watch: r.watch, WebAddr: r.webAddr, Nonce: make([]byte, protocol.NonceSize)}
	rand.Read(hello.Nonce)
	if err := send(hello); err != nil {
		return err
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
		l.st.SetReadDeadline(time.Now().Add(wait))
		env, _, err := r.readEnv(l.br, a.to.ID, &attempt)
		if err != nil {
			return err
		}
		switch m := env.Msg.(type) {
		case protocol.Challenge:
			if px, err = gamewire.AnswerChallenge(r.code, hello, env, string(r.h.ID()), string(a.to.ID)); err != nil {
				return err
			}
			hello.Share, hello.Proof = px.Share(), px.Confirm()
			if err := send(hello); err != nil {
				return err
			}
		case protocol.Refusal:
			return gamewire.RefusedBy(env, m)
		case protocol.StateRequest:
			if a.look {
				return &errHosts{term: env.Term}
			}
			var st protocol.State
			if !r.do(func() { st = r.stateMsg() }) {
				return errLeft
			}
			if err := send(st); err != nil {
				return err
			}
			// A new host seats us once every player's shares are in:
			// give it the whole rebuild, or we would pass it over for
			// the next in line and the table would split in two.
			wait = r.timing.RebuildWait + r.timing.DeadAfter
		case protocol.Seated:
			// A table we have a code for proves it knows it: one that
			// asked for none, or can't, is not the table we meant.
			if r.code != "" && (px == nil || !px.Check(m.Proof)) {
				return ErrImpostor
			}
			if err := r.replay.Check(env.Sender, env.Term, env.Seq); err != nil {
				return err // a host of a term we have left behind
			}
			l.seated, l.hostTerm = m, env.Term
			return nil
		}
	}
}

// readEnv is the next envelope from the node from that is neither a
// replay nor of a term we have left behind: anything else is skipped.
// attempt, before that node seats us, keeps its numbers apart from our
// host's; nil once seated.
func (r *Remote) readEnv(br *bufio.Reader, from peer.ID, attempt *protocol.Replay) (*protocol.Envelope, []byte, error) {
	for {
		b, err := gamewire.ReadFrame(br)
		if err != nil {
			return nil, nil, err
		}
		if r.OnFrame != nil {
			r.OnFrame(b)
		}
		env, err := protocol.Open(b, wireID(from))
		var other *protocol.VersionError
		if attempt != nil && errors.As(err, &other) {
			return nil, nil, gamewire.RefusedVersion(other)
		}
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
		return env, b, nil
	}
}

// readHost reads the host on l until the link fails, and hands run each
// envelope, then the loss.
func (r *Remote) readHost(l *hostLink) {
	for {
		l.st.SetReadDeadline(time.Now().Add(r.timing.DeadAfter))
		env, raw, err := r.readEnv(l.br, l.to.ID, nil)
		if err != nil {
			l.st.Reset()
		}
		select {
		case r.fromHost <- hostMsg{l, env, raw}:
		case <-r.done:
			return
		}
		if err != nil {
			return
		}
	}
}
