package webclient

import (
	"fmt"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/protocol"
)

func nowNano() int64 { return time.Now().UnixNano() }

// record is what this player keeps of the game, its own and nobody
// else's: every event it was shown, in order, for the audit; the host's
// journal as it may know it and its shares of the hidden parts, for a new
// host; the reveal as it arrives.
type record struct {
	got []engine.Event
	// rewrote, when not "", is how a host's backlog disagreed with what
	// we were shown: the audit fails with it.
	rewrote string
	// journal is the hosts' chain as far as it verifies (gamewire's code,
	// the terminal player's too).
	journal gamewire.Journal
	shares  map[int]protocol.StepShare
	parts   []protocol.Audit
	// deal is the commitment of the deal the record is of, as the lobby
	// gave it when the deal came: what a saved record is keyed by.
	deal  [32]byte
	saved saved // persist.go
	// dealtBy is, in a record taken back from the store, who dealt its
	// deal as the saving client saw it (Client.dealt): a page moved to a
	// new host's address, or reloaded there, first sees the deal from the
	// new host, which did not deal it.
	dealtBy dealt
}

// watched is a spectator's record of the players' nonce commitments, as
// the host first published them with the deal (Lobby.Commits): a later
// Lobby can't change it. A player has its own toss record instead.
type watched struct {
	round   [32]byte
	commits [][32]byte
}

// dealt is the host that first showed us a deal (its commitment): its
// seed is its part of the toss, so its seat owes no nonce
// (gamewire.MustMix). A new host after a failover shows the same deal.
type dealt struct {
	commit [32]byte
	host   protocol.PeerID
}

// mustMix is gamewire.MustMix of the lobby's seats as this client checks
// them.
func (c *Client) mustMix() []string {
	ts := make([]gamewire.TossSeat, len(c.lobby.Players))
	for i, p := range c.lobby.Players {
		ts[i] = gamewire.TossSeat{Name: protocol.Clean(p.Nick, protocol.MaxText), Peer: string(p.Peer), Bot: p.Bot != ""}
	}
	return gamewire.MustMix(ts, string(c.dealt.host), c.seat)
}

// newGame starts the record of a new game at the same seats.
func (r *record) newGame() {
	j := r.journal // who hosted each term stays known
	*r = record{journal: j}
}

// backlog takes a host's "everything you were sent" after a rejoin. It may
// only extend our record: the events we missed while away come after what
// we saw. One that says we were shown something else is kept as a problem
// for the audit, and our record stays as it was.
// rolled says the chain verified a new host's rollback of steps it never
// got: the events past what we share with its backlog are replaced.
func (r *record) backlog(evs []engine.Event, rolled bool) {
	if rolled {
		r.got = append([]engine.Event(nil), evs...)
		return
	}
	n := min(len(evs), len(r.got))
	for i := 0; i < n; i++ {
		if !sameEvent(r.got[i], evs[i]) {
			if r.rewrote == "" {
				r.rewrote = fmt.Sprintf("after a reconnection the host's record of what this phone was shown differs at event %d (%s, where the phone saw %s).",
					i+1, evs[i].Type, r.got[i].Type)
			}
			return
		}
	}
	if len(evs) < len(r.got) {
		if r.rewrote == "" {
			r.rewrote = fmt.Sprintf("after a reconnection the host's record of what this phone was shown stops at event %d; the phone saw %d.",
				len(evs), len(r.got))
		}
		return
	}
	r.got = append(r.got, evs[len(r.got):]...)
}

func sameEvent(a, b engine.Event) bool {
	// The audit's own comparison is the judge; this only asks whether two
	// records are one story, so the wire's fields are compared as sent.
	return fmt.Sprint(gamewire.WireEvent(&a)) == fmt.Sprint(gamewire.WireEvent(&b))
}

// auditResult is the end-of-game check as this client made it.
type auditResult struct {
	Verified bool
	Problems []string
	Notes    []string // no fault of the host's: a nonce that came too late
	Early    bool     // the revealed game stops before its end: the host ended it early
	Plays    int      // the revealed game's plays
}

// take applies one message from the host, and returns our answer to it if
// it takes one (the deal's toss).
func (c *Client) take(env *protocol.Envelope) protocol.Message {
	reply, chain := c.apply(env)
	if chain != nil {
		c.mu.Lock()
		chain()
		c.mu.Unlock()
	}
	return reply
}

// apply applies one message from the host but for the check of an
// update's new journal steps, which it returns, to be called with mu held
// before the next message is applied (nil when there is none); and our
// answer, if the message takes one (the deal's toss). Called by run's
// goroutine.
func (c *Client) apply(env *protocol.Envelope) (reply protocol.Message, chain func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	switch m := env.Msg.(type) {
	case protocol.Toss:
		reply = c.answerToss(m)
		// Written before the answer goes, deferred or not: a reload must
		// find the nonce it commits to.
		c.save()
		return reply, nil
	case protocol.Lobby:
		c.takeLobby(m)
		if m.Commit != ([32]byte{}) && m.Commit != c.dealt.commit {
			c.dealt = dealt{commit: m.Commit, host: env.Sender}
		}
	case protocol.Update:
		chain = c.takeUpdate(env, m, now)
	case protocol.Audit:
		c.auditPart(m)
	case protocol.Refusal:
		c.refusal = protocol.Clean(m.Message, protocol.MaxText)
		c.addNews(c.refusal)
	}
	return nil, chain
}

// takeLobby is the host's word on the table (c.mu held).
func (c *Client) takeLobby(m protocol.Lobby) {
	c.lobby = m
	if len(m.Commits) > 0 && m.Commit != c.watched.round {
		c.watched = watched{round: m.Commit, commits: m.Commits}
	}
	c.set = gamewire.EngSettings(m.Settings)
	if m.You != c.seat && m.You >= -1 {
		c.seat = m.You
	}
	c.restoreOnce(false)
}

// takeUpdate is an update from the host (c.mu held): its view, news and
// events for the screen and the record, its shares; chain, if not nil,
// checks its journal steps, after the page drew.
func (c *Client) takeUpdate(env *protocol.Envelope, m protocol.Update, now time.Time) (chain func()) {
	c.restoreOnce(true)
	c.at = now
	c.closes = time.Time{}
	if m.DeadlineMS > 0 {
		c.closes = now.Add(time.Duration(m.DeadlineMS-m.AtMS) * time.Millisecond)
	}
	if m.View != nil {
		v := gamewire.EngView(m.View, c.set.Rules)
		c.view = &v
	}
	if n := protocol.Clean(m.Notice, protocol.MaxText); n != "" && n != c.notice {
		c.notice = n
		c.addNews(n)
	}
	evs := make([]engine.Event, 0, len(m.Events))
	for _, e := range m.Events {
		evs = append(evs, c.evOf(e))
	}
	switch {
	case m.Backlog:
		rolled := c.rec.journal.Take(env.Table, c.lobby.Commit, env.Sender, env.Term, m.Steps, true)
		c.rec.backlog(evs, rolled > 0)
		c.rec.shares = nil
	case dealAt(evs) >= 0:
		c.rec.newGame()
		c.rec.deal = c.lobby.Commit
		c.restored = 0
		c.rec.journal.Reset(env.Table, c.lobby.Commit)
		c.sheet = nil
		c.rec.got = append(c.rec.got, evs[dealAt(evs):]...)
		c.news = nil
		c.tell(evs[dealAt(evs):], now)
	default:
		c.rec.got = append(c.rec.got, evs...)
		c.tell(evs, now)
	}
	if !m.Backlog {
		// The steps' signatures (the host's on the chain, the seat's
		// on its move: two ed25519 checks each) are the audit's
		// evidence, and nothing drawn depends on them: what they find
		// is flagged for the audit, now or after the page drew. An
		// update with none is taken now (its sender is still noted
		// as its term's host).
		tid, commit, sender, term := env.Table, c.lobby.Commit, env.Sender, env.Term
		chain = func() { c.rec.journal.Take(tid, commit, sender, term, m.Steps, false) }
		if len(m.Steps) == 0 {
			chain()
			chain = nil
		}
	}
	if c.rec.shares == nil {
		c.rec.shares = map[int]protocol.StepShare{}
	}
	for _, sh := range m.Shares {
		if sh.K == 0 {
			sh.K = 2 // a 1.0 host's, always threshold 2
		}
		c.rec.shares[sh.Step] = sh
	}
	c.unsaved = true
	return chain
}

// evOf is an event from the host as our record keeps it: the wire leaves
// out whom a private event was for.
func (c *Client) evOf(e protocol.Event) engine.Event {
	ev := gamewire.EngEvent(e)
	switch ev.Type {
	case engine.EventHand, engine.EventMine:
		ev.To = []int{c.seat}
	case engine.EventHanded:
		ev.To = []int{ev.Seat, ev.Target}
	}
	return ev
}

// restoreOnce takes back a saved record (persist.go) at the first lobby
// that names the deal, or at the first update whatever it names: before
// the host's backlog, which may then only extend it. Called with mu held.
func (c *Client) restoreOnce(final bool) {
	if c.tried || (!final && c.lobby.Commit == [32]byte{}) {
		return
	}
	c.tried = true
	c.restore()
}

// dealAt is where a new game's deal is among events, or -1.
func dealAt(evs []engine.Event) int {
	for i := range evs {
		if evs[i].Type == engine.EventDeal {
			return i
		}
	}
	return -1
}

// auditPart gathers the host's reveal and, once whole, checks the game:
// the commitment, then the replay against our own record. Called with mu
// held.
func (c *Client) auditPart(m protocol.Audit) {
	r := &c.rec
	if m.Parts < 1 || m.Part != len(r.parts) || m.Parts > 1000 {
		r.parts = nil
		return
	}
	r.parts = append(r.parts, m)
	if len(r.parts) < m.Parts {
		return
	}
	var steps []engine.Step
	for _, p := range r.parts {
		steps = append(steps, gamewire.EngSteps(p.Steps)...)
	}
	r.parts = nil
	res := &auditResult{}
	if len(m.Salt) != gamewire.SaltSize {
		c.toss = toss{}
		res.Problems = []string{"the host revealed a salt of the wrong size."}
		c.sheet = res
		return
	}
	var salt [gamewire.SaltSize]byte
	copy(salt[:], m.Salt)
	cfg := engine.Config{Rules: c.set.Rules, Seats: len(c.lobby.Players), Seed: m.Seed}
	tt, rerun := c.tossRecord()
	tt.Players = c.mustMix()
	if c.seat < 0 && c.watched.round == c.lobby.Commit && c.watched.round != ([32]byte{}) {
		tt.Round, tt.Commits = c.watched.round, c.watched.commits
	}
	res.Plays, res.Early = gamewire.Played(cfg, salt, tt.Nonces, steps)
	res.Early = !res.Early
	res.Problems, res.Notes = gamewire.Verify(c.lobby.Commit, salt, cfg, tt, steps, c.seat, r.got)
	if rerun {
		res.Problems = append(res.Problems, "the host asked for a new nonce after this phone had revealed one, and dealt from the second toss: it could have chosen between deals.")
	}
	if r.rewrote != "" {
		res.Problems = append([]string{r.rewrote}, res.Problems...)
	}
	res.Problems = append(append([]string(nil), r.journal.Doubt...), res.Problems...)
	if n := r.journal.RollNote(); n != "" {
		res.Notes = append(res.Notes, n)
	}
	res.Notes = append(res.Notes, gamewire.MarkNotes(r.journal.Steps, gamewire.PlayerNames(c.lobby.Players, len(c.lobby.Players)), c.seat)...)
	res.Verified = len(res.Problems) == 0
	c.sheet = res
	early := ""
	if res.Early {
		early = fmt.Sprintf("Ended early after %d plays. ", res.Plays)
	}
	if res.Verified {
		c.addNews(early + "Deal verified in this browser: the host's reveal replays to everything you were shown.")
	} else {
		c.addNews(early + "The deal did NOT verify in this browser: " + res.Problems[0])
	}
}
