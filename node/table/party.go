package table

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/journal"
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
// Who owns what: one goroutine, run, owns everything but snap; every
// method posts to it, and run waits on nothing but the host's send (a
// table in this process, or a link's write): the node's own goroutines
// (a Remote's, a Table's) may wait on the party, never the other way.
type Party struct {
	screen   *Mailbox                               // what the person's screen gets
	id       func() protocol.PeerID                 // the node's
	send     func(protocol.Message) (uint64, error) // seals and sends to the host, and says under which number
	makeBot  BotMaker
	fall     func(*engine.View) (engine.Command, bool)
	save     func(journal.SavedGame) string // a game's end, for `bullshit verify`
	keepPath string                         // where the deck secret is kept (SetKeep), "" nowhere

	mu    sync.Mutex
	queue []func()
	wake  chan struct{}
	done  chan struct{}
	once  sync.Once

	// snap is what a node taking the table over needs of the game in
	// play (Snapshot), kept by run for any goroutine to read without
	// waiting on run.
	snapMu sync.Mutex
	snap   Snapshot

	// Owned by run.
	table  TableState
	seat   int
	g      *partyGame
	closed bool
}

// partyGame is one blind game as the party plays it: the node's side
// (mentaltable.Player), the bots it runs, and what its screen was shown.
type partyGame struct {
	pl      *mentaltable.Player
	now     time.Duration // the host's clock when it sent the last of its log
	bots    map[int]*partyBot
	hold    time.Time // the reveal's pause: a new play waits till then
	started time.Time // when the deal began, on this node's clock
	result  *mentaltable.Result
	// pending are the numbers of the moves sent for bot seats, not yet
	// answered: a refusal of one has the bot play its fallback.
	pending map[uint64]int
	// deck are the numbers of its deck messages: a refusal of one is the
	// node's business, not its person's.
	deck map[uint64]bool
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

// do runs f on the party's goroutine and waits for it. It reports false,
// f not run, if the party closed first: f is then never run, even if the
// party's goroutine comes to it later (f writes what the caller reads,
// and the caller has stopped waiting).
func (p *Party) do(f func()) bool {
	ran := make(chan struct{})
	var mu sync.Mutex
	dropped := false
	p.post(func() {
		mu.Lock()
		defer mu.Unlock()
		if !dropped {
			f()
			close(ran)
		}
	})
	select {
	case <-ran:
		return true
	case <-p.done:
		mu.Lock()
		defer mu.Unlock()
		select {
		case <-ran:
			return true // it ran as the party closed
		default:
			dropped = true
			return false
		}
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
			if g.deck[seq] {
				delete(g.deck, seq)
				return // a deck message sent again that had arrived: nothing to show
			}
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

// SetSend is where the party's messages go from now on: its node took
// the table over, and sends them to the table it hosts.
func (p *Party) SetSend(send func(protocol.Message) (uint64, error)) {
	p.post(func() { p.send = send })
}

// Snapshot is the blind game in play as this node took part in it: the
// deal's terms and the host's log as the node took it, whether it plays
// a part (not only watching) and its log checked.
type Snapshot struct {
	Deal  protocol.BlindDeal
	Log   []protocol.LogInput
	Party bool
}

// Knowledge is the node's knowledge of the cards of the blind game in
// play (mentaltable.Player.Knowledge); false if none.
func (p *Party) Knowledge() (mentaltable.Knowledge, bool, error) {
	var k mentaltable.Knowledge
	var ok bool
	var err error
	p.do(func() {
		if p.g != nil {
			k, err = p.g.pl.Knowledge()
			ok = true
		}
	})
	return k, ok, err
}

// Sync waits until the party has taken everything put to it so far.
func (p *Party) Sync() { p.do(func() {}) }

// Snapshot is the blind game in play as the node took it; false if none
// (or the node only watches it, or stopped taking its log). It never
// waits on the party's goroutine.
func (p *Party) Snapshot() (Snapshot, bool) {
	p.snapMu.Lock()
	defer p.snapMu.Unlock()
	if !p.snap.Party {
		return Snapshot{}, false
	}
	s := p.snap
	s.Log = slices.Clone(s.Log)
	return s, true
}

// keepSnapshot brings Snapshot up to the game in play (on run).
func (p *Party) keepSnapshot() {
	p.snapMu.Lock()
	defer p.snapMu.Unlock()
	g := p.g
	if g == nil || g.pl.Watching() || g.pl.Failed() != nil {
		p.snap = Snapshot{}
		return
	}
	if string(p.snap.Deal.Game) != g.pl.Game() {
		p.snap = Snapshot{Deal: g.pl.Deal, Party: true}
	}
	if n := g.pl.Taken(); n > len(p.snap.Log) {
		p.snap.Log = append(p.snap.Log, g.pl.WireFrom(len(p.snap.Log))...)
	}
}

// SetSave has the party save each blind game it ends for `bullshit
// verify` (with save, which says where, for the screen).
func (p *Party) SetSave(save func(journal.SavedGame) string) {
	p.post(func() { p.save = save })
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
	if g == nil {
		return errors.New("no blind game in play")
	}
	m, err := g.pl.Move(cmd)
	if err != nil {
		var ref *engine.Refusal
		if errors.As(err, &ref) && !bot {
			p.take(Update{Table: p.table, Refusal: ref})
			return nil
		}
		return err
	}
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
			p.keepSnapshot()
		}
		if p.g == nil {
			p.screen.Put(u)
			return
		}
		p.show(u, nil)
		return
	}
	b := u.Blind
	resumed := b.Deal != nil && p.g != nil && p.g.pl.Game() == string(b.Deal.Game)
	if b.Deal != nil && (p.g == nil || p.g.pl.Game() != string(b.Deal.Game)) {
		p.stopBots()
		p.g = nil
		// A game already under way, in which this node took part (the
		// log that comes with its terms holds its messages): it started
		// again, and plays on as the same party if it kept its secret
		// (start), else follows the game with none.
		lost, err := p.start(*b.Deal, b.First == 0 && mentaltable.TookPart(b.Log, p.id()))
		if err != nil {
			u.Notice = "This blind game can't be played here: " + protocol.Sentence(err)
			u.Blind = nil
			p.screen.Put(u)
			return
		}
		if lost != "" && u.Notice == "" {
			u.Notice = lost
		}
	}
	g := p.g
	if g == nil {
		return
	}
	g.now = b.Now
	failed := g.pl.Failed()
	send, shown, err := g.pl.Log(b.First, b.Log)
	if len(b.Log) > 0 {
		p.keepDeck() // the log it took is in what it keeps
	}
	if err == nil && b.Deal != nil && g.pl.Taken() > 0 {
		// The host sent the game from its start: a reconnection, or a
		// new host's. What we sent that may have been lost with the
		// link goes again (what did arrive is refused as not due), and
		// the screen hears it is back at the table (a backlog: a move
		// it made may never have arrived, and is made again).
		var due []protocol.Message
		if due, err = g.pl.Due(); err == nil {
			send = append(send, due...)
		}
		if resumed {
			back := u
			back.Backlog, back.Notice = true, ""
			p.show(back, nil)
			for _, b := range g.bots {
				b.stop()
				b.decided = "" // its move may have been lost with the link too
			}
		}
	}
	if err == nil {
		// A message that can't go (the link is down) is sent again with
		// what is due once the node is back (Due): no fault of the log's.
		p.sendAll(send)
	}
	for _, s := range g.pl.Adopted() {
		// A seat of a party that left, whose secret this node rebuilt:
		// a bot here plays it from now on.
		if p.makeBot != nil {
			if b, berr := p.makeBot("medium", s, botSeed(g.pl.Deal.Seed, s)+2); berr == nil {
				g.bots[s] = &partyBot{p: b}
			}
		}
	}
	if err != nil && failed == nil && u.Notice == "" {
		u.Notice = "The host's record of this game doesn't check, so this node takes no more of it: " + protocol.Sentence(err)
	}
	p.keepSnapshot()
	p.show(u, p.shown(shown))
	if m, ok := g.pl.Pick(); ok {
		p.send(m)
	}
	p.finish()
	p.schedule()
}

// start is a new blind game: the deal's terms checked against what the
// host committed to, the node's party made, its key sent.
// A node that took part in it and can't be its party again (it kept no
// secret, or another game's) follows it as a watcher: lost says so, for
// the screen, which would otherwise show a seat that never moves.
func (p *Party) start(d protocol.BlindDeal, watch bool) (lost string, err error) {
	tid, err := tableIDOf(p.table.ID)
	if err != nil {
		return "", err
	}
	terms := mentaltable.Terms{Me: p.id(), Table: tid, Rules: p.table.Rules, Seats: len(p.table.Seats),
		Commit: p.table.Commit, Nonces: p.table.Nonces}
	var pl *mentaltable.Player
	var ms []protocol.Message
	if kept := p.keptDeck(d.Game); kept != nil {
		// This node played this game before it started again: the same
		// party, which the host's log (sent from its start) replays.
		if pl, err = mentaltable.Restore(d, terms, kept, rand.Reader); err == nil {
			ms, _, err = pl.Log(0, nil)
		}
		if err != nil {
			// The secret kept isn't this game's party's.
			lost = fmt.Sprintf(lostSecret, protocol.Sentence(err))
			pl, watch = nil, true
		}
	} else if watch && p.seat >= 0 {
		lost = fmt.Sprintf(lostSecret, "This node kept no deck secret for it.")
	}
	if pl == nil {
		terms.Watch = watch
		if pl, ms, err = mentaltable.NewPlayer(d, terms, rand.Reader); err != nil {
			return "", err
		}
	}
	g := &partyGame{pl: pl, bots: map[int]*partyBot{}, pending: map[uint64]int{}, deck: map[uint64]bool{}, started: time.Now()}
	for s, name := range d.Bots {
		if d.Holder[s] != pl.Party() || name == "" || p.makeBot == nil {
			continue
		}
		b, err := p.makeBot(name, s, botSeed(d.Seed, s))
		if err != nil {
			return "", err
		}
		g.bots[s] = &partyBot{p: b}
	}
	p.g = g
	return lost, p.sendAll(ms)
}

// lostSecret is what the screen of a node that can't be its party again
// says, with why.
const lostSecret = "This node played this blind game before it started again, and can't play its seat now: %s It follows the game without its cards."

// SetKeep has the party keep its deck secret in the file path (a
// profile's, read by this node alone), so that a node started again
// mid-game plays on as the same party (mentaltable.Restore).
func (p *Party) SetKeep(path string) { p.post(func() { p.keepPath = path }) }

// keptFile is a blind game's deck secret as a node keeps it on disk.
type keptFile struct {
	Table string `json:"table"`
	Seat  int    `json:"seat"`
	Game  []byte `json:"game"`
	Kept  []byte `json:"kept"`
}

// keepDeck writes the deck secret of the game in play where SetKeep said,
// before what it makes due is sent: a key or a shuffle sent and not kept
// couldn't be answered for after a restart.
func (p *Party) keepDeck() {
	g := p.g
	if p.keepPath == "" || g == nil || g.pl.Watching() {
		return
	}
	b, err := json.Marshal(keptFile{Table: p.table.ID, Seat: p.seat, Game: g.pl.Deal.Game, Kept: g.pl.Keep()})
	if err != nil {
		return
	}
	tmp := p.keepPath + ".new"
	if os.WriteFile(tmp, b, 0o600) == nil {
		os.Rename(tmp, p.keepPath)
	}
}

// keptDeck is the deck secret this node kept for game at this table and
// seat, nil if none.
func (p *Party) keptDeck(game []byte) []byte {
	if p.keepPath == "" {
		return nil
	}
	b, err := os.ReadFile(p.keepPath)
	var k keptFile
	if err != nil || json.Unmarshal(b, &k) != nil || k.Table != p.table.ID || k.Seat != p.seat || string(k.Game) != string(game) {
		return nil
	}
	return k.Kept
}

func (p *Party) sendAll(ms []protocol.Message) error {
	if len(ms) > 0 {
		p.keepDeck()
	}
	for _, m := range ms {
		seq, err := p.send(m)
		if err != nil {
			var ref *engine.Refusal
			if errors.As(err, &ref) {
				continue // the host in this process refused it: not due (a resend)
			}
			return err
		}
		if p.g != nil {
			p.g.deck[seq] = true
		}
	}
	return nil
}

// shown is what the node's seats were shown: each bot sees its own, the
// person's seat's go to the screen, a reveal marks the pause before the
// next play.
func (p *Party) shown(shown []mentaltable.Shown) []engine.Event {
	g := p.g
	var out []engine.Event
	for _, sh := range shown {
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
	if s := p.g.pl.Seats(); len(s) > 0 {
		return s[0]
	}
	return -1
}

// view is seat s's view as its node completes it.
func (p *Party) view(s int) (engine.View, error) { return p.g.pl.View(s) }

// show puts u on the screen with the seat's view and events.
func (p *Party) show(u Update, events []engine.Event) {
	g := p.g
	u.Blind, u.Events, u.At = nil, events, g.now
	if v, err := p.view(p.seat); err == nil {
		u.View = v
	} else if u.Notice == "" {
		u.Notice = "Your cards can't be shown: " + err.Error()
	}
	u.Deadline, _ = g.pl.Deadline()
	if !g.pl.Dealt() {
		u.Dealing = "Shuffling…"
		if w := g.pl.Waiting(); len(w) > 0 && time.Since(g.started) > time.Second {
			var names []string
			for _, i := range w {
				names = append(names, p.partyName(i)+"'s")
			}
			u.Dealing += " waiting for " + strings.Join(names, " and ") + " node"
		}
	}
	if p.seat >= 0 {
		u.Arriving = g.pl.Arriving(p.seat)
	}
	p.screen.Put(u)
}

// finish is the end, once every secret is in: the node has checked
// every shuffle and replayed the game against what its seats were shown;
// the end goes to the bots, and to the screen with the audit.
func (p *Party) finish() {
	g := p.g
	r := g.pl.Finish(p.partyName)
	if r == nil {
		return
	}
	g.result = r
	var over []engine.Event
	for _, sh := range r.Over {
		if b := g.bots[sh.Seat]; b != nil {
			e := sh.Event
			b.p.Observe(&e)
		}
		if sh.Seat == p.seat {
			over = append(over, sh.Event)
		}
	}
	ended := g.pl.Host().B.Ended()
	res := &AuditResult{Verified: r.Verified(), Problems: r.Problems, Notes: r.Notes, Plays: r.Plays, Early: ended}
	u := Update{Table: p.table, Audit: res}
	if r.Config.Deck != nil {
		// The game revealed, as a clear table's reveal: the host's part
		// of the toss and the deck the shuffle left.
		cfg := r.Config
		cfg.Seed = g.pl.Deal.HostSeed
		var salt [gamewire.SaltSize]byte
		copy(salt[:], g.pl.Deal.Salt)
		u.Reveal = &Reveal{Config: cfg, Salt: salt, Nonces: p.table.Nonces, Steps: r.Steps}
		if p.save != nil && cfg.Deck != nil {
			u.Notice = p.save(journal.SavedGame{Table: p.table.Name, Seat: p.seat, Config: cfg, Salt: salt, Commitment: p.table.Commit,
				Toss: journal.Toss{Nonces: p.table.Nonces}, Steps: r.Steps, Events: g.pl.Events(p.seat)})
		}
	}
	p.show(u, over)
}

// partyName says whose node party i is: the person's name of its first
// seat that isn't a bot's.
func (p *Party) partyName(i int) string {
	d := p.g.pl.Deal
	for s, h := range d.Holder {
		if h == i && d.Bots[s] == "" && s < len(p.table.Seats) {
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
	if g == nil || g.pl.Failed() != nil {
		return
	}
	h := g.pl.Host()
	if p.seat >= 0 && p.seat < len(p.table.Seats) && h.Holder(p.seat) == g.pl.Party() {
		cover := p.table.Seats[p.seat].Covered
		if b, ok := g.bots[p.seat]; cover && !ok && p.makeBot != nil {
			if bp, err := p.makeBot("medium", p.seat, botSeed(g.pl.Deal.Seed, p.seat)+1); err == nil {
				g.bots[p.seat] = &partyBot{p: bp}
				for _, e := range g.pl.Events(p.seat) {
					bp.Observe(&e)
				}
			}
		} else if !cover && ok && g.pl.Deal.Bots[p.seat] == "" {
			b.stop()
			delete(g.bots, p.seat)
		}
	}
	if p.table.Paused || h.B.Over() || p.table.Phase == PhaseOver || !g.pl.Dealt() {
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

// Pooled is what the nodes of ps can turn up together, pooling everything
// they hold (mentaltable.Pooled), and what they may know: what their seats
// were shown, and what was turned up for everyone. It is the test of one
// person holding several seats.
func Pooled(ps ...*Party) (pooled, legit map[engine.Handle]engine.Card, err error) {
	legit = map[engine.Handle]engine.Card{}
	var pls []*mentaltable.Player
	var hold func(i int)
	hold = func(i int) {
		if i == len(ps) {
			if pooled, err = mentaltable.Pooled(pls...); err != nil {
				return
			}
			for _, pl := range pls {
				k, kerr := pl.Knowledge()
				if kerr != nil {
					err = kerr
					return
				}
				maps.Copy(legit, k.Public)
				for _, seen := range k.Seen {
					maps.Copy(legit, seen)
				}
			}
			return
		}
		ps[i].do(func() {
			if ps[i].g != nil {
				pls = append(pls, ps[i].g.pl)
			}
			hold(i + 1)
		})
	}
	hold(0)
	return pooled, legit, err
}

// HandNow is seat s's hand as the node's party shows it now, nil if it
// doesn't play it.
func (p *Party) HandNow(s int) []engine.Card {
	var hand []engine.Card
	p.do(func() {
		if p.g != nil {
			if v, err := p.g.pl.View(s); err == nil {
				hand = v.Hand
			}
		}
	})
	return hand
}
