package table

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/mentaltable"
	"github.com/bullshit-game/bullshit/protocol"
)

// A Party is a player node's side of a blind table (blind.go): it stands
// between what the host sends the node's seat and the person's screen.
// At a clear table it passes every update on as it came. At a blind one
// the host sends no view and no event, only the table around the game
// and its log: the Party runs its own copy of the host on the log
// (mentaltable.Node), answers what the game asks of its node (its key,
// its turn at the shuffle, its shares, an opening, a hand-over, at the end
// its secret) by itself, plays the seats of the bots the table gave it,
// and shows its person the view and events of their seat with its own
// cards, which only this node knows. At the end it checks every shuffle
// and replays the game against what its seats were shown (the audit).
//
// Who owns what: one goroutine, run, owns everything but the fields set
// at NewParty; every method posts to it.
type Party struct {
	screen  *Mailbox                               // what the person's screen gets
	id      func() protocol.PeerID                 // the node's
	send    func(protocol.Message) (uint64, error) // seals and sends to the host, and says under which number
	makeBot BotMaker
	fall    func(*engine.View) (engine.Command, bool)

	mu    sync.Mutex
	queue []func()
	wake  chan struct{}
	done  chan struct{}
	once  sync.Once

	// Owned by run.
	table  TableState
	seat   int
	g      *partyGame
	closed bool
}

// partyGame is one blind game as the party plays it.
type partyGame struct {
	deal   protocol.BlindDeal
	mt     *mentaltable.Table
	node   *mentaltable.Node
	reader *mentaltable.LogReader
	next   int           // how many of the host's inputs it has taken
	now    time.Duration // the host's clock when it sent the last of them
	bots   map[int]*partyBot
	got    map[int][]engine.Event // what each of its seats was shown, for the audit
	over   []mentaltable.Shown    // the end, shown once every card is known
	picked map[int]int            // a pick sent for a seat's hand-over, by the play it was for
	hold   time.Time              // the reveal's pause: a new play waits till then
	failed error                  // the host's log didn't check: nothing more is taken from it
	audit  *AuditResult
	// pending are the numbers of the moves sent for bot seats, not yet
	// answered: a refusal of one has the bot play its fallback.
	pending map[uint64]int
}

// partyBot is a bot the party runs for one of its seats.
type partyBot struct {
	p       Player
	decided string
	timer   *time.Timer
	refused bool
}

// NewParty is the party of the node id names, in front of screen; send
// seals a message for the host and sends it, saying the envelope's number
// (an error may be the host's refusal, at a table in this process).
func NewParty(id func() protocol.PeerID, screen *Mailbox, send func(protocol.Message) (uint64, error), makeBot BotMaker,
	fall func(*engine.View) (engine.Command, bool)) *Party {
	p := &Party{screen: screen, id: id, send: send, makeBot: makeBot, fall: fall, seat: -1,
		wake: make(chan struct{}, 1), done: make(chan struct{})}
	go p.run()
	return p
}

func (p *Party) run() {
	for {
		p.mu.Lock()
		q := p.queue
		p.queue = nil
		p.mu.Unlock()
		for _, f := range q {
			f()
		}
		if len(q) > 0 {
			continue
		}
		select {
		case <-p.wake:
		case <-p.done:
			p.stopBots()
			return
		}
	}
}

func (p *Party) post(f func()) {
	p.mu.Lock()
	p.queue = append(p.queue, f)
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// do runs f on the party's goroutine and waits for it.
func (p *Party) do(f func()) bool {
	ran := make(chan struct{})
	p.post(func() { f(); close(ran) })
	select {
	case <-ran:
		return true
	case <-p.done:
		return false
	}
}

// Close ends the party; its screen is closed too.
func (p *Party) Close() {
	p.once.Do(func() {
		close(p.done)
		p.screen.Close()
	})
}

// Blind reports whether a blind game is on at the party.
func (p *Party) Blind() bool {
	on := false
	p.do(func() { on = p.g != nil })
	return on
}

// Put is an update from the host for the node's seat.
func (p *Party) Put(u Update) { p.post(func() { p.take(u) }) }

// Refused is the host refusing the envelope numbered seq, u the refusal
// as the screen is shown it (a move of a bot seat's plays its fallback
// instead).
func (p *Party) Refused(seq uint64, u Update) {
	p.post(func() {
		if g := p.g; g != nil {
			if s, ok := g.pending[seq]; ok {
				delete(g.pending, seq)
				if b := g.bots[s]; b != nil {
					b.refused, b.decided = true, ""
					p.schedule()
					return
				}
			}
		}
		p.take(u)
	})
}

// SetBots is how the node makes a bot for a seat the table gives it, and
// the always-legal move a refused bot plays instead.
func (p *Party) SetBots(makeBot BotMaker, fall func(*engine.View) (engine.Command, bool)) {
	p.post(func() { p.makeBot, p.fall = makeBot, fall })
}

// Move is the person's move: at a blind table its cards are named by
// handle here, and quads opened, before it goes.
func (p *Party) Move(cmd engine.Command) error {
	var err error
	if !p.do(func() { err = p.move(cmd, false) }) {
		return errors.New("the table session is closed")
	}
	return err
}

// move sends seat cmd.Seat's move by handle; bot says a bot's.
func (p *Party) move(cmd engine.Command, bot bool) error {
	g := p.g
	if g == nil || g.node == nil {
		return errors.New("no blind game in play")
	}
	if g.failed != nil {
		return g.failed
	}
	bc, quads, err := g.node.Command(cmd, g.node.Copy().B.Hand(cmd.Seat))
	if err != nil {
		var ref *engine.Refusal
		if errors.As(err, &ref) {
			p.take(Update{Table: p.table, Refusal: ref})
			return nil
		}
		return err
	}
	m := mentaltable.WireMove(bc, quads)
	seq, err := p.send(m)
	var ref *engine.Refusal
	switch {
	case err == nil && bot:
		g.pending[seq] = cmd.Seat
	case errors.As(err, &ref) && !bot:
		// The host in this process refused it at once.
		p.take(Update{Table: p.table, Refusal: ref})
		return nil
	}
	return err
}

// take is one update from the host (on run).
func (p *Party) take(u Update) {
	if p.closed {
		return
	}
	p.table, p.seat = u.Table, u.Table.You
	if u.Blind == nil {
		if p.g != nil && !u.Table.Blind {
			// A clear game, or the waiting room: the blind one is done.
			p.stopBots()
			p.g = nil
		}
		if p.g == nil {
			p.screen.Put(u)
			return
		}
		p.show(u, nil)
		return
	}
	b := u.Blind
	if b.Deal != nil && (p.g == nil || string(p.g.deal.Game) != string(b.Deal.Game)) {
		p.stopBots()
		p.g = nil
		if err := p.start(*b.Deal); err != nil {
			u.Notice = "This blind game can't be played here: " + err.Error()
			p.screen.Put(u)
			return
		}
	}
	g := p.g
	if g == nil {
		return
	}
	g.now = b.Now
	var shown []engine.Event
	if g.failed == nil {
		for k, li := range b.Log {
			if b.First+k < g.next {
				continue // seen: a backlog after a reconnection
			}
			if b.First+k > g.next {
				g.failed = fmt.Errorf("the host's log skips from input %d to %d", g.next, b.First+k)
				break
			}
			if err := p.input(li); err != nil {
				g.failed = err
				break
			}
		}
		shown = p.shown()
	}
	if g.failed != nil && u.Notice == "" {
		u.Notice = "The host's record of this game doesn't check, so this node takes no more of it: " + protocol.Sentence(g.failed)
	}
	p.show(u, shown)
	p.pick()
	p.finish()
	p.schedule()
}

// start is a new blind game: the deal's terms checked against what the
// host committed to, the node's party made, its key sent.
func (p *Party) start(d protocol.BlindDeal) error {
	me := slices.Index(d.Parties, p.id())
	if me < 0 {
		return errors.New("this node takes no part in the deal")
	}
	if len(d.Salt) != gamewire.SaltSize {
		return errors.New("the deal's salt is malformed")
	}
	var salt [gamewire.SaltSize]byte
	copy(salt[:], d.Salt)
	if c := gamewire.Commit(d.HostSeed, salt); c != p.table.Commit {
		return errors.New("the host's seed isn't the one it committed to")
	}
	if gamewire.DealSeed(d.HostSeed, salt, p.table.Nonces) != d.Seed {
		return errors.New("the deal's seed doesn't mix the toss's nonces")
	}
	if len(d.Holder) != len(p.table.Seats) || len(d.Bots) != len(d.Holder) {
		return fmt.Errorf("the deal names %d seats of %d", len(d.Holder), len(p.table.Seats))
	}
	mt := &mentaltable.Table{Rules: p.table.Rules, Seats: len(d.Holder), Seed: d.Seed, Holder: slices.Clone(d.Holder),
		Table: []byte(p.table.ID), Game: slices.Clone(d.Game)}
	if err := mt.Check(); err != nil {
		return err
	}
	if mt.Parties() != len(d.Parties) {
		return fmt.Errorf("the deal names %d parties for %d", len(d.Parties), mt.Parties())
	}
	node, err := mentaltable.NewNode(mt, me, rand.Reader, nil)
	if err != nil {
		return err
	}
	tid, err := tableIDOf(p.table.ID)
	if err != nil {
		return err
	}
	g := &partyGame{deal: d, mt: mt, node: node, reader: mentaltable.NewLogReader(tid, d.Parties), bots: map[int]*partyBot{},
		got: map[int][]engine.Event{}, picked: map[int]int{}, pending: map[uint64]int{}}
	for s, name := range d.Bots {
		if d.Holder[s] != me || name == "" {
			continue
		}
		b, err := p.makeBot(name, s, botSeed(d.Seed, s))
		if err != nil {
			return err
		}
		g.bots[s] = &partyBot{p: b}
	}
	p.g = g
	ms, err := node.Start()
	if err != nil {
		return err
	}
	return p.sendAll(ms)
}

// input takes one input of the host's log into the node's copy of the
// host, and sends what it makes due of this node.
func (p *Party) input(li protocol.LogInput) error {
	g := p.g
	in, err := g.reader.Input(g.node.Copy(), li)
	if err != nil {
		return err
	}
	ms, err := g.node.Input(in)
	if err != nil {
		return err
	}
	g.next++
	return p.sendAll(ms)
}

func (p *Party) sendAll(ms []protocol.Message) error {
	for _, m := range ms {
		if _, err := p.send(m); err != nil {
			return err
		}
	}
	return nil
}

// shown is what the node's seats were shown since the last input: each
// bot sees its own, the audit keeps them all, the person's seat's go to
// the screen. The end waits for every card (finish).
func (p *Party) shown() []engine.Event {
	g := p.g
	var out []engine.Event
	for _, sh := range g.node.Shown() {
		if sh.Blind.Type == engine.EventOver {
			g.over = append(g.over, sh)
			continue
		}
		g.got[sh.Seat] = append(g.got[sh.Seat], sh.Event)
		if b := g.bots[sh.Seat]; b != nil {
			e := sh.Event
			b.p.Observe(&e)
		}
		if sh.Event.Type == engine.EventReveal && sh.Seat == p.seatShown() {
			g.hold = time.Now().Add(p.table.RevealPause())
		}
		if sh.Seat == p.seat {
			out = append(out, sh.Event)
		}
	}
	return out
}

// seatShown is the seat whose events mark the reveal's pause: the
// person's, or the first the node plays.
func (p *Party) seatShown() int {
	if p.seat >= 0 {
		return p.seat
	}
	if s := p.g.node.Seats(); len(s) > 0 {
		return s[0]
	}
	return -1
}

// view is seat s's view as its node completes it.
func (p *Party) view(s int) (engine.View, error) {
	h := p.g.node.Copy()
	v := h.B.View(s)
	if s < 0 || h.Holder(s) != p.g.node.Index || !p.g.node.Dealt() {
		return v, nil // a seat it doesn't play, or the deal still under way
	}
	err := p.g.node.View(s, &v, h.B.Hand(s), h.B.LastPlay())
	return v, err
}

// show puts u on the screen with the seat's view and events.
func (p *Party) show(u Update, events []engine.Event) {
	g := p.g
	u.Blind, u.Events, u.At = nil, events, g.now
	if v, err := p.view(p.seat); err == nil {
		u.View = v
	} else if u.Notice == "" {
		u.Notice = "Your cards can't be shown: " + err.Error()
	}
	u.Deadline, _ = g.node.Copy().B.Deadline()
	if g.audit != nil && u.Audit == nil && len(events) > 0 {
		u.Audit = g.audit
	}
	p.screen.Put(u)
}

// pick names the cards of a timed-out hand-over of a seat of this node's.
func (p *Party) pick() {
	g := p.g
	if g.failed != nil {
		return
	}
	h := g.node.Copy()
	s, _, ok := h.B.Picking()
	if !ok || h.Holder(s) != g.node.Index || g.picked[s] == h.B.Plays()+1 {
		return
	}
	hs, ok, err := g.node.Picked(s)
	if err != nil || !ok {
		return
	}
	g.picked[s] = h.B.Plays() + 1
	m := protocol.BlindMove{No: h.B.Plays(), Seat: s, Move: uint8(engine.MoveGive), Rank: protocol.NoRank, Pick: true}
	for _, x := range hs {
		m.Handles = append(m.Handles, uint16(x))
	}
	p.send(m)
}

// finish is the end, once every secret is in: every card known, the game
// revealed, the end shown and each seat's record audited.
func (p *Party) finish() {
	g := p.g
	h := g.node.Copy()
	if g.audit != nil || g.failed != nil || !h.Revealed() {
		return
	}
	cfg, steps, deck, err := h.Reveal()
	res := &AuditResult{Verified: err == nil}
	if err != nil {
		res.Problems = append(res.Problems, protocol.Sentence(err))
	}
	for _, sh := range g.over {
		e := sh.Blind.Clear(deck)
		g.got[sh.Seat] = append(g.got[sh.Seat], e)
		if b := g.bots[sh.Seat]; b != nil {
			b.p.Observe(&e)
		}
	}
	if err == nil {
		for _, s := range g.node.Seats() {
			for _, bad := range engine.Audit(cfg, steps, s, g.got[s]) {
				res.Problems = append(res.Problems, fmt.Sprintf("seat %d: %s", s+1, bad))
			}
		}
		res.Verified = len(res.Problems) == 0
		res.Plays = h.B.Plays()
	}
	for _, i := range h.Late {
		res.Notes = append(res.Notes, fmt.Sprintf("%s's node didn't turn its called play up in time: the others turned it up.", p.partyName(i)))
	}
	for _, c := range h.Caught {
		res.Notes = append(res.Notes, "A false opening was caught: "+protocol.Sentence(c))
	}
	g.audit = res
	var over []engine.Event
	for _, sh := range g.over {
		if sh.Seat == p.seat {
			over = append(over, sh.Blind.Clear(deck))
		}
	}
	u := Update{Table: p.table, Audit: res, Events: over}
	if err == nil {
		u.Reveal = &Reveal{Config: cfg, Steps: steps}
	}
	p.show(u, over)
}

// partyName says whose node party i is: the person's name of its first
// seat that isn't a bot's.
func (p *Party) partyName(i int) string {
	g := p.g
	for s, h := range g.deal.Holder {
		if h == i && g.deal.Bots[s] == "" && s < len(p.table.Seats) {
			return p.table.Seats[s].Name
		}
	}
	return fmt.Sprintf("party %d", i+1)
}

// schedule lets each bot of the node's seats look at the game: a new
// situation is decided on, and the move goes when its think time is up.
// A person's own seat is played by a bot when the host gave it to one
// (Covered).
func (p *Party) schedule() {
	g := p.g
	if g == nil || g.failed != nil {
		return
	}
	h := g.node.Copy()
	if p.seat >= 0 && p.seat < len(p.table.Seats) && h.Holder(p.seat) == g.node.Index {
		cover := p.table.Seats[p.seat].Covered
		if b, ok := g.bots[p.seat]; cover && !ok {
			if bp, err := p.makeBot("medium", p.seat, botSeed(g.deal.Seed, p.seat)+1); err == nil {
				g.bots[p.seat] = &partyBot{p: bp}
				for _, e := range g.got[p.seat] {
					bp.Observe(&e)
				}
			}
		} else if !cover && ok && g.deal.Bots[p.seat] == "" {
			b.stop()
			delete(g.bots, p.seat)
		}
	}
	if p.table.Paused || h.B.Over() || p.table.Phase == PhaseOver {
		p.stopBots()
		return
	}
	for _, s := range slices.Sorted(maps.Keys(g.bots)) {
		b := g.bots[s]
		v, err := p.view(s)
		if err != nil {
			continue
		}
		key := v.Situation()
		if key == b.decided {
			continue
		}
		b.decided = key
		b.stop()
		var cmd engine.Command
		var think time.Duration
		ok := false
		if b.refused && p.fall != nil {
			cmd, ok = p.fall(&v)
			b.refused = false
		} else {
			cmd, think, ok = b.p.Act(&v)
		}
		if !ok {
			continue
		}
		think = Paced(think, p.table.Pace)
		if HeldByReveal(cmd.Move) {
			think = max(think, time.Until(g.hold))
		}
		seat := s
		cmd.Seat = seat
		b.timer = time.AfterFunc(think, func() {
			p.post(func() {
				if p.g == g && g.bots[seat] == b && b.decided == key && !p.table.Paused {
					var ref *engine.Refusal
					if err := p.move(cmd, true); errors.As(err, &ref) {
						b.refused, b.decided = true, ""
						p.schedule()
					} else if err != nil {
						b.decided = ""
					}
				}
			})
		})
	}
}

func (b *partyBot) stop() {
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
}

func (p *Party) stopBots() {
	if p.g == nil {
		return
	}
	for _, b := range p.g.bots {
		b.stop()
		b.decided = ""
	}
}

// tableIDOf is a table's ID as TableState carries it (hex).
func tableIDOf(id string) (protocol.TableID, error) {
	var t protocol.TableID
	b, err := hex.DecodeString(id)
	if err != nil || len(b) != len(t) {
		return t, fmt.Errorf("a table ID %q", id)
	}
	copy(t[:], b)
	return t, nil
}
