package webclient

import (
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/record"
	"github.com/bullshit-game/bullshit/protocol"
)

func nowNano() int64 { return time.Now().UnixNano() }

// kept is what this player keeps of the game, its own and nobody
// else's: its record of every event it was shown, for the audit
// (node/record, the terminal's too); the host's journal as it may know it
// and its shares of the hidden parts, for a new host.
type kept struct {
	record.Record
	// journal is the hosts' chain as far as it verifies (gamewire's code,
	// the terminal player's too).
	journal gamewire.Journal
	shares  map[int]protocol.StepShare
	saved   saved // persist.go
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

// auditResult is the end-of-game check as this client made it.
type auditResult = record.Result

// take applies one message from the host, and returns our answers to it
// if it takes any (the deal's toss, a blind table's deck).
func (c *Client) take(env *protocol.Envelope) []protocol.Message {
	replies, chain := c.apply(env)
	if chain != nil {
		c.mu.Lock()
		chain()
		c.mu.Unlock()
	}
	return replies
}

// apply applies one message from the host but for the check of an
// update's new journal steps, which it returns, to be called with mu held
// before the next message is applied (nil when there is none); and our
// answers, if the message takes any (the deal's toss, a blind table's
// deck). Called by run's goroutine.
func (c *Client) apply(env *protocol.Envelope) (replies []protocol.Message, chain func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	switch m := env.Msg.(type) {
	case protocol.Toss:
		reply := c.toss.Answer(m, c.seat, c.dealt.commit)
		// Written before the answer goes, deferred or not: a reload must
		// find the nonce it commits to.
		c.save()
		if reply == nil {
			return nil, nil
		}
		return []protocol.Message{reply}, nil
	case protocol.BlindDeal:
		return c.blindDeal(m), nil
	case protocol.BlindLog:
		return c.blindLog(&m, 0, len(m.Inputs), now), nil
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
		if c.blind != nil && c.blind.quiet[m.Ref] {
			// An answer of our deck's the host took already (sent again
			// after a reload): nobody's move.
			delete(c.blind.quiet, m.Ref)
			c.blind.again++
			break
		}
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
	if c.blind != nil {
		if c.lobby.Blind {
			// At a blind table the host's update is its notice alone (a
			// view it carries is the host's, which has no card): the
			// view and the events are our Player's.
			if n := protocol.Clean(m.Notice, protocol.MaxText); n != "" && n != c.notice {
				c.tellNews(n)
			}
			return nil
		}
		c.blind = nil // a clear game (its Lobby came first): the blind one is over
	}
	c.restoreOnce(true)
	c.at = now
	c.closes = time.Time{}
	if m.DeadlineMS > 0 {
		c.closes = now.Add(time.Duration(m.DeadlineMS-m.AtMS) * time.Millisecond)
	}
	before := 0 // our hand before this update, for the counts we know
	if c.view != nil {
		before = len(c.view.Hand)
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
		c.rec.Backlog(c.lobby.Commit, evs, rolled > 0)
		c.rec.shares = nil
	case c.rec.Shown(c.lobby.Commit, evs):
		// A new game at the same seats: who hosted each term stays known.
		c.rec.shares, c.rec.saved, c.rec.dealtBy = nil, saved{}, dealt{}
		c.restored = 0
		c.rec.journal.Reset(env.Table, c.lobby.Commit)
		c.sheet = nil
		c.news = nil
		c.tell(evs[record.DealAt(evs):], now, before)
	default:
		c.tell(evs, now, before)
	}
	if c.view != nil {
		c.pile.Check(c.view, m.Backlog)
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

// auditPart gathers the host's reveal and, once whole, checks the game:
// the commitment, then the replay against our own record. Called with mu
// held.
func (c *Client) auditPart(m protocol.Audit) {
	g, ok := c.rec.Part(m)
	if !ok {
		return
	}
	tt, rerun := c.toss.Spent(c.lobby.Nonces), c.toss.Rerun
	c.toss = record.Toss{}
	tt.Players = c.mustMix()
	if c.seat < 0 && c.watched.round == c.lobby.Commit && c.watched.round != ([32]byte{}) {
		tt.Round, tt.Commits = c.watched.round, c.watched.commits
	}
	res := c.rec.Audit(g, record.Check{Commit: c.lobby.Commit, Rules: c.set.Rules, Seats: len(c.lobby.Players), Seat: c.seat,
		Toss: tt, Rerun: rerun, Journal: &c.rec.journal, Names: gamewire.PlayerNames(c.lobby.Players, len(c.lobby.Players))})
	c.sheet = &res
	if len(g.Salt) != gamewire.SaltSize {
		return
	}
	c.addNews(record.News(res, "in this browser"))
}
