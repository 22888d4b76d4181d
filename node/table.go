package node

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/journal"
	"github.com/bullshit-game/bullshit/node/shamir"
	"github.com/bullshit-game/bullshit/protocol"
)

// Player is a bot in a seat: it observes what its seat may see and decides
// from its view alone. engine/bot's players satisfy it.
type Player interface {
	Observe(e *engine.Event)
	Act(v *engine.View) (cmd engine.Command, think time.Duration, ok bool)
}

// blocking is a bot whose Act waits on another program (exec: bots).
type blocking interface{ Blocking() bool }

// retrier is a bot that may try again after a refusal (engine/bot.Retrier).
type retrier interface {
	Retry(v *engine.View, refusal error) (engine.Command, bool)
}

// BotMaker makes the bot named name for a seat (a level, a style, or
// exec:PATH).
type BotMaker func(name string, seat int, seed uint64) (Player, error)

// Settings are what a host chooses for its table.
type Settings struct {
	Name      string
	Rules     engine.Rules
	Seats     int
	Bots      []string      // the bots that fill seats no person takes, in order
	Pace      string        // bots' think times: "brisk" or "relaxed"
	Timing    Timing        // the reveal pause, and the table's server's timeouts
	TurnClock time.Duration // 0: a person's turn waits for them
	Grace     time.Duration // how long a person may be gone before a bot covers
	Code      string        // join code; empty for an open table
	Seed      uint64        // 0: drawn from crypto/rand at the deal
}

func (s *Settings) defaults() {
	if s.Seats == 0 {
		s.Seats = 4
	}
	if s.Rules.Window == 0 {
		s.Rules = engine.Standard()
	}
	s.Timing = s.Timing.or(DefaultTiming())
	if s.Grace == 0 {
		s.Grace = 30 * time.Second
	}
	if s.Pace == "" {
		s.Pace = "brisk"
	}
	if s.Name == "" {
		s.Name = "Table"
	}
}

// Table is a hosted table: the authoritative engine, its only clock, and
// the bots that fill seats. Every change runs on one goroutine, in arrival
// order; people and bots reach it through Sessions.
type Table struct {
	ID   string
	tid  protocol.TableID
	host string // the host's nickname

	set     Settings
	makeBot BotMaker
	fall    func(*engine.View) (engine.Command, bool)

	in   chan func()
	quit chan struct{}
	once sync.Once

	// Owned by the run goroutine.
	game  *engine.Game
	start time.Time
	phase TablePhase
	seats []*seat
	specs map[*mailbox]string // spectators, by the name each joined with ("" none)
	timer *time.Timer
	pause time.Duration // no play until then: the reveal
	// held is a game the host paused (Pause): the table's time stands at
	// heldAt from heldSince on, no timer runs and no move is taken.
	held      bool
	heldAt    time.Duration
	heldSince time.Time
	seed      uint64
	log       []Entry
	notice    string
	salt      [gamewire.SaltSize]byte
	commit    [32]byte
	sent      [][]engine.Event // every event each seat was sent: its audit and its backlog
	jpath     string
	jour      *journal.Journal
	shares    map[int][]shamir.Share     // each hidden step's shares, one a seat (X = seat+1); -1 the seed's
	cursor    []int                      // how much of the journal each seat has been sent
	term      uint64                     // the host term: 1, more after elections
	hostPeer  string                     // the hosting node's peer ID, for the seat it sits at
	dealtBy   string                     // the peer ID of the host that dealt this game (another, after a failover)
	chain     hostChain                  // the journal's signed chain (chain.go)
	webURL    string                     // where phones open this table (web.go), "" if nowhere
	listen    []string                   // where the host listens, for a restart from the journal
	waiting   map[int]bool               // seats whose move the reveal pause refused
	evening   Evening                    // the running score of the games at these seats (evening.go)
	nonces    [][gamewire.NonceSize]byte // the players' nonces this game's deal mixed (toss.go)
	commits   [][32]byte                 // their commitments, as the toss relayed them: a spectator checks the nonces against them
	pub       []engine.Event             // every public event of this game: a spectator's backlog and audit
	early     bool                       // the host ended this game before it finished
	reveal    bool                       // the next delivery carries the reveal though no event came with it (an early end)
	toss      *toss                      // a deal waiting on the players' nonces
	tossWait  *time.Timer
	plays     atomic.Int64 // the last play's number, for heartbeats off the table goroutine
	startNS   atomic.Int64 // the deal's wall clock, likewise

	// OnChange, if set, is told of every accepted command (the journal and
	// the network hook in here). It runs on the table goroutine.
	OnChange func(Entry)
	// OnPhase, if set, is told when the table's phase or seats change (for
	// the lobby's advert).
	OnPhase func(TableInfoLite)
}

// Entry is one accepted command or tick with its time: the journal line.
type Entry = engine.Step

// TableInfoLite is what an advert needs to know of a table.
type TableInfoLite struct {
	Taken, Seats int
	Phase        TablePhase
}

type seat struct {
	name    string
	owner   string // who may sit here: a peer ID, "local"; "" while free
	botName string
	bot     Player // the seat's bot, or the bot covering an away person
	covered bool
	madeFor int    // the person's own moves made for them this game (SeatInfo.MadeFor)
	was     string // a bot's seat that was this person's (a host lost in an election): theirs again if they come back
	tosses  bool   // the person's node takes part in the deal's toss (protocol 1.4)
	box     *mailbox
	away    time.Duration // when the person left; -1 while connected; 0 until they rejoin a table rebuilt by an election
	decided string        // the situation the bot last decided on
	act     *time.Timer
	clock   *time.Timer // the turn clock or the grace period
}

// ErrTableFull and friends are join refusals.
var (
	ErrTableFull = errors.New("This table is full.")
	ErrStarted   = errors.New("This game has started: you can watch it.")
	ErrClosed    = errors.New("The table has closed.")
)

// NewTable opens a table in its waiting room. host is the nickname shown
// in the lobby.
func NewTable(set Settings, host string, makeBot BotMaker, fallback func(*engine.View) (engine.Command, bool)) (*Table, error) {
	set.defaults()
	if err := set.Rules.Check(set.Seats); err != nil {
		return nil, err
	}
	var id protocol.TableID
	rand.Read(id[:])
	t := &Table{ID: hex.EncodeToString(id[:]), tid: id, host: host, set: set, makeBot: makeBot, fall: fallback,
		in: make(chan func(), 64), quit: make(chan struct{}), phase: PhaseWaiting, specs: map[*mailbox]string{}}
	t.seats = make([]*seat, set.Seats)
	for i := range t.seats {
		t.seats[i] = &seat{away: -1}
	}
	// Bots take the seats from the back; people fill from the front.
	for i, name := range set.Bots {
		s := set.Seats - 1 - i
		if s < 0 {
			break
		}
		t.seats[s].botName = name
	}
	go t.run()
	return t, nil
}

func (t *Table) run() {
	for {
		select {
		case f := <-t.in:
			f()
		case <-t.quit:
			t.stopTimers()
			for _, s := range t.seats {
				if s.box != nil {
					s.box.close()
				}
			}
			for m := range t.specs {
				m.close()
			}
			return
		}
	}
}

// do runs f on the table goroutine and waits for it.
func (t *Table) do(f func()) error {
	done := make(chan struct{})
	select {
	case t.in <- func() { f(); close(done) }:
	case <-t.quit:
		return ErrClosed
	}
	select {
	case <-done:
		return nil
	case <-t.quit:
		return ErrClosed
	}
}

// post runs f on the table goroutine without waiting (timers use it).
func (t *Table) post(f func()) {
	go func() {
		select {
		case t.in <- f:
		case <-t.quit:
		}
	}()
}

// after runs f on the table goroutine once d has passed.
func (t *Table) after(d time.Duration, f func()) *time.Timer {
	return time.AfterFunc(max(d, 0), func() { t.post(f) })
}

// Close ends the table.
func (t *Table) Close() { t.once.Do(func() { close(t.quit) }) }

func (t *Table) now() time.Duration {
	if t.start.IsZero() {
		return 0
	}
	if t.held {
		return t.heldAt
	}
	return time.Since(t.start)
}

// Sit seats owner (or gives it back its seat) and returns the seat number,
// with a session on it. A full or started table refuses newcomers.
func (t *Table) Sit(owner, name string) (int, *LocalSession, error) {
	return t.sit(owner, name, false)
}

// SitTossing is Sit for a player whose node takes part in the deal's toss
// (toss.go): it will answer the host's Toss.
func (t *Table) SitTossing(owner, name string) (int, *LocalSession, error) {
	return t.sit(owner, name, true)
}

func (t *Table) sit(owner, name string, tosses bool) (int, *LocalSession, error) {
	var seatNo int
	var box *mailbox
	var err error
	derr := t.do(func() {
		seatNo = -1
		for i, s := range t.seats {
			if s.owner == owner {
				seatNo = i
				break
			}
		}
		// A player back at its seat under another name renames itself
		// (the phone's page does so in the waiting room): the new name
		// must read as no one else's, as a newcomer's must.
		if seatNo >= 0 && name != t.seats[seatNo].name {
			if err = checkNickAmong(name, t.namesBut(seatNo, owner)); err != nil {
				return
			}
		}
		if seatNo < 0 {
			// A host the others lost, back (restarted, same key): the
			// bot that took its seat at the election gives it back.
			for i, s := range t.seats {
				if s.was != "" && s.was == owner && s.owner == "" {
					seatNo = i
					s.botName, s.bot, s.decided, s.was = "", nil, "", ""
					t.notice = fmt.Sprintf("%s is back.", name)
					break
				}
			}
		}
		if seatNo < 0 {
			if t.phase != PhaseWaiting {
				err = ErrStarted
				return
			}
			for i, s := range t.seats {
				if s.owner == "" && s.botName == "" {
					seatNo = i
					break
				}
			}
			if seatNo < 0 {
				err = ErrTableFull
				return
			}
			// A newcomer's name must read as no one's at the table (a seat
			// taken back keeps the name it had).
			if err = checkNickAmong(name, t.namesBut(seatNo, owner)); err != nil {
				return
			}
		}
		s := t.seats[seatNo]
		s.owner, s.name, s.tosses = owner, name, tosses
		if s.box != nil {
			s.box.close()
		}
		s.box = newMailbox()
		box = s.box
		if s.away > 0 && t.phase != PhaseWaiting {
			t.notice = fmt.Sprintf("%s is back.", name)
		}
		s.away = -1
		if s.covered {
			s.covered, s.bot = false, nil
			s.decided = ""
		}
		if s.clock != nil {
			s.clock.Stop()
		}
		t.phaseChanged()
		t.backlog(seatNo)
		t.deliver(nil, "")
	})
	if derr != nil {
		return -1, nil, derr
	}
	if err != nil {
		return -1, nil, err
	}
	return seatNo, &LocalSession{t: t, seat: seatNo, box: box}, nil
}

// namesBut are the names at the table but seat no's, for a newcomer who
// would sit there: the people's, and the host's own (it may not have sat
// yet); the bots' too, except for the host's own player, whose name was
// chosen before its bots were.
func (t *Table) namesBut(no int, owner string) []string {
	var out []string
	for i, s := range t.seats {
		switch {
		case i == no:
		case s.owner != "":
			out = append(out, s.name)
		case s.botName != "" && owner != "local":
			out = append(out, s.botName)
		}
	}
	if owner != "local" && t.host != "" {
		out = append(out, t.host)
	}
	return out
}

// Watch opens a spectator's session.
func (t *Table) Watch() (*LocalSession, error) { return t.WatchAs("") }

// WatchAs opens a spectator's session for name (as its node said it,
// checked): the host's waiting room shows who watches.
func (t *Table) WatchAs(name string) (*LocalSession, error) {
	box := newMailbox()
	if err := t.do(func() {
		t.specs[box] = name
		t.specBacklog(box)
		t.sendSpec(box, nil, nil, nil)
		t.toHost()
	}); err != nil {
		return nil, err
	}
	return &LocalSession{t: t, seat: -1, box: box}, nil
}

// Leave marks a seat's person as gone; a bot covers after the grace period.
func (t *Table) Leave(seatNo int, box *mailbox) {
	t.post(func() {
		if seatNo < 0 {
			delete(t.specs, box)
			box.close()
			t.toHost()
			return
		}
		s := t.seats[seatNo]
		if s.box != box {
			return // an older connection of a seat that came back
		}
		s.box.close()
		s.box = nil
		if t.phase == PhaseWaiting {
			s.owner, s.name = "", ""
			t.phaseChanged()
			t.deliver(nil, "")
			return
		}
		s.away = t.now()
		t.notice = fmt.Sprintf("%s is away; a bot takes the seat if they're not back in %s.", s.name, seconds(t.set.Grace))
		if s.clock != nil {
			s.clock.Stop()
		}
		if t.held {
			t.deliver(nil, "") // the grace starts when the host goes on
			return
		}
		s.clock = t.after(t.set.Grace, func() { t.cover(seatNo) })
		t.deliver(nil, "")
	})
}

// seconds says d for a player: "30 s", "1.5 s".
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s"
}

// cover hands an away person's seat to a bot until they return.
func (t *Table) cover(seatNo int) {
	s := t.seats[seatNo]
	if s.box != nil || s.covered || t.game == nil || t.phase != PhasePlaying {
		return
	}
	if t.coverBot(seatNo) {
		t.changed(nil)
	}
}

// coverBot seats the bot that plays for an away person, and says so.
func (t *Table) coverBot(seatNo int) bool {
	s := t.seats[seatNo]
	b, err := t.makeBot("medium", seatNo, t.seed+uint64(seatNo)*7919+1)
	if err != nil {
		return false
	}
	// The bot learns the seat's hand from its view; its memory starts now.
	s.bot, s.covered, s.decided = b, true, ""
	t.notice = fmt.Sprintf("A bot plays for %s until they're back.", s.name)
	return true
}

// Start deals. Seats no person took get bots.
func (t *Table) Start() error {
	var err error
	derr := t.do(func() { err = t.deal() })
	if derr != nil {
		return derr
	}
	return err
}

func (t *Table) deal() error {
	if t.phase == PhasePlaying {
		return errors.New("The game is already on.")
	}
	if t.toss != nil {
		return errors.New("The cards are being dealt.")
	}
	seed := t.set.Seed
	if seed == 0 {
		var b [8]byte
		rand.Read(b[:])
		seed = binary.LittleEndian.Uint64(b[:])
	}
	if t.phase == PhaseOver && t.set.Seed != 0 {
		seed = t.seed + 1 // a new game with the same seats
	}
	salt, err := NewSalt()
	if err != nil {
		return err
	}
	if err := t.set.Rules.Check(t.set.Seats); err != nil {
		return err
	}
	t.seed = seed
	if rogueDeal != nil && rogueDeal(t, seed, salt) {
		return nil
	}
	if t.startToss(seed, salt, 1) {
		return nil // dealToss deals
	}
	t.commits = nil
	return t.dealFrom(seed, salt, nil)
}

// dealFrom deals from the host's seed and salt mixed with the players'
// nonces (DealSeed).
func (t *Table) dealFrom(seed uint64, salt [gamewire.SaltSize]byte, nonces [][gamewire.NonceSize]byte) error {
	g, events, err := engine.New(engine.Config{Rules: t.set.Rules, Seats: t.set.Seats, Seed: gamewire.DealSeed(seed, salt, nonces)})
	if err != nil {
		return err
	}
	t.seed, t.salt, t.nonces = seed, salt, nonces
	t.commit, t.dealtBy = gamewire.Commit(seed, t.salt), t.hostPeer
	t.sent = make([][]engine.Event, len(t.seats))
	t.pub, t.early = nil, false
	t.cursor = make([]int, len(t.seats))
	t.shares = map[int][]shamir.Share{}
	if sh, err := shamir.SplitSeed(seed, t.salt, len(t.seats), t.threshold(), nil); err == nil {
		t.shares[-1] = sh
	}
	for i, s := range t.seats {
		if s.owner == "" && s.botName == "" {
			s.botName = "medium"
		}
		s.bot, s.covered, s.decided, s.madeFor = nil, false, "", 0
		if s.owner == "" {
			b, err := t.makeBot(s.botName, i, botSeed(seed, i))
			if err != nil {
				return err
			}
			s.bot = b
			if s.name == "" {
				s.name = botLabel(s.botName, i)
			}
		}
	}
	t.game, t.start, t.phase, t.pause, t.log, t.held = g, time.Now(), PhasePlaying, 0, nil, false
	t.chainReset()
	for i, s := range t.seats {
		if s.owner != "" && s.box == nil {
			// Still away from the last game: a bot plays for them from
			// the deal, or the new game would wait on their turn.
			t.coverBot(i)
		}
	}
	if t.jpath != "" {
		if err := t.newJournal(seed); err != nil {
			return err
		}
	}
	t.phaseChanged()
	t.changed(events)
	return nil
}

// botSeed is the seed of the bot in seat i of a game dealt from seed. The
// host that deals and a node that takes the table over (restoreTable) must
// agree on it, or the same seat's bot plays a different game after a
// failover.
func botSeed(seed uint64, i int) uint64 { return seed ^ uint64(i+1)*0x9e3779b97f4a7c15 }

// newJournal starts the journal of the game just dealt from seed.
func (t *Table) newJournal(seed uint64) error {
	if t.jour != nil {
		t.jour.Close()
	}
	names := make([]string, len(t.seats))
	owners := make([]string, len(t.seats))
	botNames := make([]string, len(t.seats))
	for i, s := range t.seats {
		names[i], owners[i] = s.name, s.owner
		if s.owner == "" {
			botNames[i] = s.botName
		}
	}
	j, err := journal.CreateJournal(t.jpath, journal.JournalHeader{Table: t.ID, Name: t.set.Name,
		Config: engine.Config{Rules: t.set.Rules, Seats: t.set.Seats, Seed: seed}, Seats: names, Salt: t.salt, Nonces: mixed(t.nonces), Started: t.start,
		Owners: owners, Bots: botNames, Listen: t.listen,
		Settings: journal.SettingsJSON{Reveal: t.set.Timing.Reveal, TurnClock: t.set.TurnClock, Pace: t.set.Pace, Private: t.set.Code != "",
			Grace: t.set.Grace}})
	if err != nil {
		return err
	}
	t.jour = j
	return nil
}

var botNames = []string{"Ada", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jun"}

func botLabel(level string, i int) string {
	return botNames[i%len(botNames)]
}

// Control is a host action: "start", "end" (end the game early), "again"
// (a new game with the same seats) or "bot N" (a bot plays seat N, from
// 1, for its person until they move again or come back).
func (t *Table) Control(action string) error {
	switch action {
	case "start", "again":
		return t.Start()
	case "end":
		_, err := t.EndEarly()
		return err
	case "pause":
		_, err := t.Pause()
		return err
	}
	if n, ok := strings.CutPrefix(action, "bot "); ok {
		seat, err := strconv.Atoi(n)
		if err != nil {
			return fmt.Errorf("no seat %q", n)
		}
		return t.GiveToBot(seat - 1)
	}
	return fmt.Errorf("no table action %q", action)
}

// Sentences of a pause: the refusal of a move during one, the host's
// when there is no game to pause, and the news of each.
const (
	PausedText     = "Paused by the host: no move until the host goes on."
	errNoPauseText = "There's no game in play to pause."
	NewsPaused     = "Paused by the host."
	NewsGoesOn     = "The host goes on: the game is back."
)

// Pause pauses the game in play, or goes on with it when it is paused,
// and says which it is now. While paused the table's time stands still:
// the call window, the hand-over, the reveal, the turn clock, the grace
// before a bot covers an away person and the bots all wait, every seat's
// move is refused with PausedText, and every screen hears the table is
// paused (TableState.Paused). Going on, each has the time it had left; a
// bot thinks again. A host elected later starts unpaused.
func (t *Table) Pause() (bool, error) {
	var paused bool
	var err error
	derr := t.do(func() {
		if t.game == nil || t.phase != PhasePlaying {
			err = errors.New(errNoPauseText)
			return
		}
		if !t.held {
			t.heldAt, t.held, t.heldSince = t.now(), true, time.Now()
			t.stopTimers()
			for _, s := range t.seats {
				s.act, s.clock, s.decided = nil, nil, "" // a decision in flight no longer stands
			}
			t.notice = NewsPaused
			t.deliver(nil, "")
			paused = true
			return
		}
		t.start = t.start.Add(time.Since(t.heldSince))
		t.held = false
		t.notice = NewsGoesOn
		if now := t.now(); t.pause > now {
			t.after(t.pause-now, func() {
				if t.phase == PhasePlaying && t.now() >= t.pause {
					t.pauseOver()
				}
			})
		}
		t.changed(nil)
		// An away person's grace goes on from where it stood.
		for i, s := range t.seats {
			if s.owner != "" && s.box == nil && !s.covered && s.away >= 0 && t.phase == PhasePlaying {
				no := i
				s.clock = t.after(t.set.Grace-(t.now()-s.away), func() { t.cover(no) })
			}
		}
	})
	if derr != nil {
		return false, derr
	}
	return paused, err
}

// Refusals of GiveToBot, sentences for the host.
var (
	errNotPlaying = errors.New("There's no game in play to hand a seat over in.")
	errNoPerson   = errors.New("That seat isn't a player's: only a person's seat goes to a bot.")
)

// GiveToBot is the host handing seatNo's person to a bot, as if they were
// away past the grace period: an idle player no longer holds the table
// up. The person still sees the game and takes their seat back with their
// next move, or by coming back; the bot's moves count against their
// rating (SeatInfo.MadeFor).
func (t *Table) GiveToBot(seatNo int) error {
	var err error
	derr := t.do(func() {
		switch {
		case t.game == nil || t.phase != PhasePlaying:
			err = errNotPlaying
		case seatNo < 0 || seatNo >= len(t.seats):
			err = fmt.Errorf("There's no seat %d at this table.", seatNo+1)
		case t.seats[seatNo].owner == "" || t.seats[seatNo].owner == "local":
			err = errNoPerson
		case t.seats[seatNo].covered:
		case !t.coverBot(seatNo):
			err = errors.New("No bot could take the seat.")
		default:
			s := t.seats[seatNo]
			t.notice = fmt.Sprintf("The host gave %s's seat to a bot until they play again.", s.name)
			t.changed(nil)
		}
	})
	if derr != nil {
		return derr
	}
	return err
}

// EndEarly ends the game in play, if one is, and says whether it did.
// Every seat and spectator still gets the reveal of the deal and audits
// the plays so far: a host can't end a game to hide what it did.
func (t *Table) EndEarly() (bool, error) {
	ended := false
	err := t.do(func() {
		if t.phase != PhasePlaying {
			return
		}
		t.phase, t.early, ended = PhaseOver, true, true
		t.stopTimers()
		t.phaseChanged()
		t.reveal = true
		t.deliver(nil, "The host ended the game early.")
	})
	return ended, err
}

// Move applies a seat's command, as it arrives. A refusal goes back to the
// seat's session; nothing changes.
func (t *Table) Move(seatNo int, cmd engine.Command) error { return t.MoveMarked(seatNo, cmd, nil) }

// MoveMarked is a seat's move with its person's own signature of it
// (gamewire.Mark, by the seat's peer key), kept in the journal as the
// seat's word. A mark that doesn't verify refuses the move. Without one,
// the move of the host's own seat is marked with the host's key.
func (t *Table) MoveMarked(seatNo int, cmd engine.Command, mark []byte) error {
	var err error
	derr := t.do(func() {
		cmd.Seat = seatNo
		if mark, err = t.markOf(seatNo, cmd, mark); err == nil {
			if seatNo >= 0 && seatNo < len(t.seats) && t.seats[seatNo].covered && t.seats[seatNo].box != nil {
				s := t.seats[seatNo]
				// A person the host gave to a bot plays again: theirs.
				s.covered, s.bot, s.decided = false, nil, ""
				t.notice = fmt.Sprintf("%s plays their own seat again.", s.name)
			}
			err = t.apply(seatNo, cmd, mark)
		}
		var ref *engine.Refusal
		if errors.As(err, &ref) && seatNo >= 0 && seatNo < len(t.seats) && t.seats[seatNo].box != nil {
			u := Update{Refusal: ref, Table: t.state(seatNo), At: t.now()}
			if t.game != nil {
				u.View = t.game.View(seatNo)
				u.Deadline, _ = t.game.Deadline()
			}
			t.seats[seatNo].box.put(u)
		}
	})
	if derr != nil {
		return derr
	}
	return err
}

// apply applies a seat's move, mark its seat's signature of it (checked),
// nil for a bot's or the host's fallback.
func (t *Table) apply(seatNo int, cmd engine.Command, mark []byte) error {
	if t.game == nil || t.phase == PhaseWaiting {
		return &engine.Refusal{Code: engine.CodeNotYourTurn, Msg: "The game hasn't started."}
	}
	if t.phase == PhaseOver {
		return engine.ErrGameOver
	}
	if t.held {
		return &engine.Refusal{Code: engine.CodeNotYourTurn, Msg: PausedText}
	}
	cmd.Seat = seatNo
	now := t.now()
	ticked := t.game.Tick(now)
	if len(ticked) > 0 {
		t.record(Entry{At: now}, nil)
	}
	if now < t.pause && HeldByReveal(cmd.Move) {
		if len(ticked) > 0 {
			t.changed(ticked)
		}
		if t.waiting == nil {
			t.waiting = map[int]bool{}
		}
		t.waiting[seatNo] = true
		return &engine.Refusal{Code: engine.CodeNotYourTurn, Msg: "Wait: the cards are still being shown."}
	}
	events, err := t.game.Apply(now, cmd)
	if err != nil {
		if len(ticked) > 0 {
			t.changed(ticked)
		}
		return err
	}
	c := cmd
	t.record(Entry{At: now, Cmd: &c}, mark)
	t.changed(append(ticked, events...))
	return nil
}

// applyFor applies a move the table made for seatNo (its bot's, or the
// fallback), counting it against a person's rating if it is one of their
// own moves (a let-go in a call window is not: a covering bot makes one
// every play).
func (t *Table) applyFor(seatNo int, cmd engine.Command) error {
	// Counted before the move is applied, so the state it sends says it.
	s := t.seats[seatNo]
	count := s.owner != "" && ownMoves[cmd.Move]
	if count {
		s.madeFor++
	}
	err := t.apply(seatNo, cmd, nil)
	if err != nil && count {
		s.madeFor--
	}
	return err
}

// ownMoves are the moves a seat makes on its own turn.
var ownMoves = map[engine.Move]bool{engine.MovePlay: true, engine.MoveQuads: true, engine.MoveDoubt: true, engine.MoveBelieve: true, engine.MoveSkip: true}

// errBadMark refuses a move whose seat signature doesn't verify.
var errBadMark = &engine.Refusal{Code: engine.CodeBadCommand,
	Msg: "Your move's signature doesn't verify: the table keeps only moves signed by their seat."}

// markOf is the seat's signature of cmd to keep: mark, checked against
// the key of the seat's person; for the host's own seat, the host's.
func (t *Table) markOf(seatNo int, cmd engine.Command, mark []byte) ([]byte, error) {
	if seatNo < 0 || seatNo >= len(t.seats) {
		return nil, nil // the engine refuses it
	}
	owner := t.seats[seatNo].owner
	if mark == nil {
		if owner == "local" && t.chain.key != nil {
			return gamewire.Mark(t.chain.key, t.tid, t.commit, cmd), nil
		}
		return nil, nil
	}
	id, err := protocol.ParsePeerID(owner)
	if err != nil {
		return nil, errBadMark
	}
	pub, err := id.PublicKey()
	if err != nil || !gamewire.MarkOK(pub, t.tid, t.commit, cmd, mark) {
		return nil, errBadMark
	}
	return mark, nil
}

// HeldByReveal says whether the table refuses move m during the reveal
// pause ("Wait: the cards are still being shown."): the moves that start
// the next play. A call, a pass or a hand-over is never held.
func HeldByReveal(m engine.Move) bool {
	switch m {
	case engine.MovePlay, engine.MoveQuads, engine.MoveDoubt, engine.MoveBelieve, engine.MoveSkip:
		return true
	}
	return false
}

func (t *Table) record(e Entry, mark []byte) {
	t.log = append(t.log, e)
	t.chainAdd(len(t.log)-1, e, Link{Term: t.term, Mark: mark})
	t.split(len(t.log)-1, e)
	if t.jour != nil {
		if err := t.jour.Append(e); err != nil {
			t.notice = "The journal could not be written: " + err.Error()
		}
	}
	if t.OnChange != nil {
		t.OnChange(e)
	}
}

// pauseOver is the end of a reveal pause: the bots may move again, and a
// person whose move the pause refused hears the table is open.
func (t *Table) pauseOver() {
	t.schedule()
	if t.game == nil {
		return
	}
	for seatNo := range t.waiting {
		if s := t.seats[seatNo]; s.box != nil {
			u := Update{Table: t.state(seatNo), At: t.now(), View: t.game.View(seatNo)}
			u.Deadline, _ = t.game.Deadline()
			s.box.put(u)
		}
	}
	t.waiting = nil
}

// tick fires the engine's deadlines that are due.
func (t *Table) tick() {
	if t.game == nil || t.phase != PhasePlaying {
		return
	}
	now := t.now()
	events := t.game.Tick(now)
	if len(events) > 0 {
		t.record(Entry{At: now}, nil)
	}
	t.changed(events)
}

// changed is the heart of the table: after any change, every seat gets what
// it may see, bots decide, and the clocks are set.
func (t *Table) changed(events []engine.Event) {
	for _, e := range events {
		if e.Type == engine.EventReveal {
			t.pause = t.now() + t.set.Timing.Reveal
			// When the cards have been shown, everyone hears the table is
			// open again: a move refused during the pause is made anew.
			t.after(t.set.Timing.Reveal, func() {
				if t.phase == PhasePlaying && t.now() >= t.pause {
					t.pauseOver()
				}
			})
		}
	}
	if t.game.Over() && t.phase == PhasePlaying {
		t.phase = PhaseOver
		t.tally()
		t.phaseChanged()
	}
	if t.game != nil {
		t.plays.Store(int64(t.game.Plays()))
	}
	if !t.start.IsZero() {
		t.startNS.Store(t.start.UnixNano())
	}
	t.deliver(events, "")
	if t.phase != PhasePlaying {
		t.stopTimers()
		return
	}
	if t.held {
		return // no clock runs, no bot thinks, until the host goes on
	}
	// The engine's own deadline: a window or a hand-over closing.
	if t.timer != nil {
		t.timer.Stop()
	}
	if d, ok := t.game.Deadline(); ok {
		wait := d - t.now()
		t.timer = t.after(wait, t.tick)
	}
	t.schedule()
}

// schedule lets every bot (and the turn clock) look at the new state.
func (t *Table) schedule() {
	now := t.now()
	for i, s := range t.seats {
		if s.bot == nil {
			t.personClock(i, s)
			continue
		}
		v := t.game.View(i)
		key := v.Situation()
		if key == s.decided {
			continue
		}
		s.decided = key
		if s.act != nil {
			s.act.Stop()
			s.act = nil
		}
		b, seatNo := s.bot, i
		if blocks(b) {
			// An external program answers in its own time: ask it off the
			// table goroutine, and act on the answer only if the situation
			// still stands.
			go func() {
				if cmd, _, ok := b.Act(&v); ok {
					t.post(func() { t.botMove(seatNo, b, key, cmd) })
				}
			}()
			continue
		}
		cmd, think, ok := b.Act(&v)
		if !ok {
			continue
		}
		think = Paced(think, t.set.Pace)
		if HeldByReveal(cmd.Move) {
			think = max(think, t.pause-now)
		}
		s.act = t.after(think, func() { t.botMove(seatNo, b, key, cmd) })
	}
}

func blocks(b Player) bool {
	bl, ok := b.(blocking)
	return ok && bl.Blocking()
}

// stands says whether bot b's decision on situation key for seatNo still
// holds: the game on, the seat in the same situation, the same bot in it.
func (t *Table) stands(seatNo int, b Player, key string) bool {
	s := t.seats[seatNo]
	return t.phase == PhasePlaying && !t.held && s.decided == key && s.bot == b
}

// botMove makes bot b's move for seatNo if its decision still stands. A
// refused move gets the bot's one retry, if it can try again (an exec:
// bot, as REFEREE.md promises; asked off the table goroutine if it
// blocks), then the fallback move.
func (t *Table) botMove(seatNo int, b Player, key string, cmd engine.Command) {
	if !t.stands(seatNo, b, key) {
		return
	}
	err := t.applyFor(seatNo, cmd)
	if err == nil {
		return
	}
	rt, ok := b.(retrier)
	if !ok {
		t.botFallback(seatNo)
		return
	}
	v := t.game.View(seatNo)
	if !blocks(b) {
		again, ok := rt.Retry(&v, err)
		if !ok || t.applyFor(seatNo, again) != nil {
			t.botFallback(seatNo)
		}
		return
	}
	go func() {
		again, ok := rt.Retry(&v, err)
		t.post(func() {
			if t.stands(seatNo, b, key) && (!ok || t.applyFor(seatNo, again) != nil) {
				t.botFallback(seatNo)
			}
		})
	}()
}

// botFallback plays the always-legal move for a bot whose own was refused;
// if that is refused too, the bot decides again at the next change.
func (t *Table) botFallback(seatNo int) {
	t.seats[seatNo].decided = ""
	t.fallback(seatNo, "")
}

// fallback plays the always-legal move for seatNo, saying notice with it.
func (t *Table) fallback(seatNo int, notice string) {
	if t.fall == nil || t.held {
		return
	}
	v := t.game.View(seatNo)
	if fb, ok := t.fall(&v); ok {
		if notice != "" {
			t.notice = notice
		}
		t.applyFor(seatNo, fb)
	}
}

// personClock runs the optional turn clock, and keeps an away person's
// turn from blocking the table past the grace period.
func (t *Table) personClock(i int, s *seat) {
	if t.set.TurnClock <= 0 || s.box == nil {
		return
	}
	v := t.game.View(i)
	key := v.Situation()
	if key == s.decided {
		return
	}
	s.decided = key
	if s.clock != nil {
		s.clock.Stop()
		s.clock = nil
	}
	mine := (v.Phase == engine.PhasePlay && v.Turn == i) || (v.Phase == engine.PhaseGive && v.Give != nil && v.Give.From == i)
	if !mine {
		return
	}
	s.clock = t.after(t.set.TurnClock+max(t.pause-t.now(), 0), func() {
		if t.phase == PhasePlaying && s.decided == key {
			t.fallback(i, fmt.Sprintf("%s's clock ran out: the fallback move was played.", s.name))
		}
	})
}

func (t *Table) stopTimers() {
	if t.timer != nil {
		t.timer.Stop()
	}
	if t.tossWait != nil {
		t.tossWait.Stop()
	}
	for _, s := range t.seats {
		if s.act != nil {
			s.act.Stop()
		}
		if s.clock != nil {
			s.clock.Stop()
		}
	}
}

// state is the table around the game, as every session sees it.
func (t *Table) state(you int) TableState {
	ts := TableState{ID: t.ID, Name: t.set.Name, Preset: t.set.Rules.Preset, Rules: t.set.Rules, You: you,
		Host: t.host, Words: hostWords(t.hostPeer), Phase: t.phase, Reveal: t.set.Timing.Reveal, TurnClock: t.set.TurnClock, Commit: t.commit,
		Grace: t.set.Grace, Pace: t.set.Pace,
		Evening: t.evening.Clone(), Web: t.webURL, Nonces: mixed(t.nonces),
		Commits: append([][32]byte(nil), t.commits...), Paused: t.held}
	if t.commits == nil {
		ts.Commits = nil
	}
	if you >= 0 && you < len(t.seats) && t.seats[you].owner == "local" {
		// The host's own screen: the code it chose, and who watches.
		ts.Code = t.set.Code
		for _, n := range t.specs {
			ts.Watchers = append(ts.Watchers, n)
		}
		slices.Sort(ts.Watchers)
	}
	ts.Seats = make([]SeatInfo, len(t.seats))
	for i, s := range t.seats {
		name := s.name
		if name == "" && s.botName != "" {
			name = botLabel(s.botName, i)
		}
		bot := ""
		if s.owner == "" {
			bot = s.botName
		}
		ts.Seats[i] = SeatInfo{Name: name, Bot: bot, Connected: s.box != nil || s.owner == "", Covered: s.covered, MadeFor: s.madeFor}
		if s.owner != "local" {
			ts.Seats[i].Peer = s.owner
		} else {
			ts.Seats[i].Peer = t.hostPeer
		}
	}
	return ts
}

// toHost gives the host's own seat the table as it is now (a spectator
// came or went: its waiting room lists them), with no news.
func (t *Table) toHost() {
	for i, s := range t.seats {
		if s.owner == "local" && s.box != nil {
			u := Update{Table: t.state(i), At: t.now()}
			if t.game != nil {
				u.View = t.game.View(i)
				u.Deadline, _ = t.game.Deadline()
			}
			s.box.put(u)
		}
	}
}

// deliver sends every seat and spectator what it may see of events.
func (t *Table) deliver(events []engine.Event, notice string) {
	if notice == "" {
		notice = t.notice
	}
	t.notice = ""
	var deadline time.Duration
	if t.game != nil {
		deadline, _ = t.game.Deadline()
	}
	now := t.now()
	var reveal *Reveal
	if t.phase == PhaseOver && t.game != nil && (len(events) > 0 || t.reveal) {
		reveal = t.revealed()
	}
	t.reveal = false
	for i := range events {
		if events[i].Public() {
			t.pub = append(t.pub, events[i])
		}
	}
	for i, s := range t.seats {
		var mine []engine.Event
		for j := range events {
			if events[j].VisibleTo(i) {
				mine = append(mine, events[j])
			}
		}
		if t.sent != nil {
			t.sent[i] = append(t.sent[i], mine...)
		}
		if s.bot != nil {
			for j := range mine {
				s.bot.Observe(&mine[j])
			}
		}
		if s.box == nil {
			continue
		}
		u := Update{Events: mine, Table: t.state(i), Notice: notice, At: now, Deadline: deadline}
		if t.game != nil {
			u.View = t.game.View(i)
		}
		if reveal != nil {
			u.Reveal = reveal
			u.Audit = t.audit(i, reveal)
		}
		u.Journal, u.Shares = t.journalFor(i)
		s.box.put(u)
	}
	// Every spectator's audit is the same (seat -1, the public record):
	// run it once, not once a spectator.
	var specAudit *AuditResult
	if reveal != nil && len(t.specs) > 0 {
		specAudit = t.audit(-1, reveal)
	}
	for m := range t.specs {
		t.sendSpec(m, events, reveal, specAudit)
	}
}

// audit is the fairness audit of what seat was sent, as a remote seat would
// run it on the host's reveal.
func (t *Table) audit(seat int, r *Reveal) *AuditResult {
	var got []engine.Event
	if seat >= 0 && seat < len(t.sent) {
		got = t.sent[seat]
	}
	if seat < 0 {
		got = t.pub
	}
	g := journal.SavedGame{Table: t.set.Name, Seat: seat, Config: r.Config, Salt: r.Salt,
		Commitment: t.commit, Toss: journal.Toss{Nonces: r.Nonces}, Steps: r.Steps, Events: got}
	if seat < 0 && t.commits != nil {
		g.Toss.Round, g.Toss.Commits = t.commit, t.commits
	}
	if seat >= 0 && seat < len(r.Nonces) && r.Nonces[seat] != ([gamewire.NonceSize]byte{}) {
		// This seat's part of the toss, as the host took it: the seat
		// itself (a player whose node tosses) checks its own.
		g.Toss.Round, g.Toss.Mine, g.Toss.Revealed = t.commit, r.Nonces[seat], true
	}
	g.Toss.Players = mustMix(t.state(seat).Seats, t.dealtBy, -1)
	return auditOf(g)
}

// revealed is the deal's reveal, once the game is over.
func (t *Table) revealed() *Reveal {
	return &Reveal{Config: engine.Config{Rules: t.set.Rules, Seats: t.set.Seats, Seed: t.seed}, Salt: t.salt,
		Nonces: mixed(t.nonces), Steps: append([]engine.Step(nil), t.log...)}
}

// backlog sends a returning seat every event it was sent before, for its
// audit; one back after the game ended is sent the reveal with it, and
// audits the game as the others did.
func (t *Table) backlog(seat int) {
	s := t.seats[seat]
	if s.box == nil || t.sent == nil {
		return
	}
	u := Update{Events: append([]engine.Event(nil), t.sent[seat]...), Table: t.state(seat), Backlog: true, At: t.now()}
	if t.cursor != nil {
		t.cursor[seat] = 0
	}
	u.Journal, u.Shares = t.journalFor(seat)
	if t.game != nil {
		u.View = t.game.View(seat)
	}
	s.box.put(u)
	if t.phase == PhaseOver && t.game != nil {
		r := t.revealed()
		s.box.put(Update{Table: t.state(seat), View: u.View, At: u.At, Reveal: r, Audit: t.audit(seat, r)})
	}
}

// sendSpec sends a spectator the public part of events, and at the end the
// reveal with audit, the audit a remote spectator would make of it (read
// only: every spectator's update shares it).
func (t *Table) sendSpec(m *mailbox, events []engine.Event, reveal *Reveal, audit *AuditResult) {
	var pub []engine.Event
	for _, e := range events {
		if e.Public() {
			pub = append(pub, e)
		}
	}
	u := Update{Events: pub, Table: t.state(-1), At: t.now()}
	if t.game != nil {
		u.View = t.game.View(-1)
		u.Deadline, _ = t.game.Deadline()
	}
	if reveal != nil {
		u.Reveal, u.Audit = reveal, audit
	}
	m.put(u)
}

// specBacklog sends a spectator who comes in after the deal every public
// event so far, so that its audit at the end has the whole public record
// to hold the replay against.
func (t *Table) specBacklog(m *mailbox) {
	if t.game == nil || len(t.pub) == 0 {
		return
	}
	m.put(Update{Events: append([]engine.Event(nil), t.pub...), Table: t.state(-1), Backlog: true, At: t.now(), View: t.game.View(-1)})
}

// About is what the join page shows of the table before anyone sits, as
// /table answers it (JSON): which table this is.
type About struct {
	Name   string `json:"name"`
	Host   string `json:"host"`   // the host player's nickname
	Words  string `json:"words"`  // the host's key as three words, as every lobby shows them
	Preset string `json:"preset"` // the rules' preset, "custom" for rules of its own
	Seats  int    `json:"seats"`
	Taken  int    `json:"taken"` // by people and bots
	Phase  string `json:"phase"` // waiting, playing, over
	Code   bool   `json:"code"`  // joining takes a code (never the code)
}

// about fills in what the join page shows of the table (web.go's About,
// but the host's words and the code, the server's); false once closed.
func (t *Table) about(a *About) bool {
	return t != nil && t.do(func() {
		a.Name, a.Host, a.Preset, a.Seats, a.Phase = t.set.Name, t.host, t.set.Rules.Preset, len(t.seats), string(t.phase)
		if a.Preset == "" {
			a.Preset = "custom"
		}
		for _, s := range t.seats {
			if s.owner != "" || s.botName != "" {
				a.Taken++
			}
		}
	}) == nil
}

func (t *Table) phaseChanged() {
	if t.OnPhase == nil {
		return
	}
	taken := 0
	for _, s := range t.seats {
		if s.owner != "" || s.botName != "" {
			taken++
		}
	}
	t.OnPhase(TableInfoLite{Taken: taken, Seats: len(t.seats), Phase: t.phase})
}

// LocalSession is a seat's session on a table in this process.
type LocalSession struct {
	t    *Table
	seat int
	box  *mailbox
	once sync.Once
}

// Seat is the session's seat, -1 for a spectator.
func (l *LocalSession) Seat() int { return l.seat }

// Updates delivers what the seat may see.
func (l *LocalSession) Updates() <-chan Update { return l.box.out }

// Send submits a move; a refusal comes back as an Update.
func (l *LocalSession) Send(cmd engine.Command) error {
	if l.seat < 0 {
		return errors.New("a spectator can't move")
	}
	err := l.t.Move(l.seat, cmd)
	var ref *engine.Refusal
	if errors.As(err, &ref) {
		return nil // the refusal came back as an Update
	}
	return err
}

// Control is a host action.
func (l *LocalSession) Control(action string) error { return l.t.Control(action) }

// Close leaves the table.
func (l *LocalSession) Close() error {
	l.once.Do(func() { l.t.Leave(l.seat, l.box) })
	return nil
}

// Local opens a table on this machine alone: name in seat 0, bots in the
// rest, dealt at once. It is the game with no network at all.
func Local(set Settings, name string, makeBot BotMaker, fallback func(*engine.View) (engine.Command, bool)) (*Table, *LocalSession, error) {
	set.defaults()
	if len(set.Bots) == 0 {
		for i := 1; i < set.Seats; i++ {
			set.Bots = append(set.Bots, "medium")
		}
	}
	t, err := NewTable(set, name, makeBot, fallback)
	if err != nil {
		return nil, nil, err
	}
	_, sess, err := t.Sit("local", name)
	if err != nil {
		t.Close()
		return nil, nil, err
	}
	if err := t.Start(); err != nil {
		t.Close()
		return nil, nil, err
	}
	return t, sess, nil
}

func (t *Table) wireID() protocol.TableID { return t.tid }

// Keep journals the table to path from the next deal: every accepted step,
// fsynced (see Journal).
func (t *Table) Keep(path string) error {
	return t.do(func() { t.jpath = path })
}

// Plays is the number of the last play. It doesn't wait on the table.
func (t *Table) Plays() int { return int(t.plays.Load()) }

// Clock is the table's clock: time since the deal. It doesn't wait on the
// table.
func (t *Table) Clock() time.Duration {
	ns := t.startNS.Load()
	if ns == 0 {
		return 0
	}
	return time.Since(time.Unix(0, ns))
}

// Paced scales a bot's think time by the table's pace: "relaxed" is easier
// to follow, "fast" is for scripts and tests, "brisk" is as the bot says.
func Paced(think time.Duration, pace string) time.Duration {
	switch pace {
	case "relaxed":
		return think * 3 / 2
	case "fast":
		return think / 10
	}
	return think
}

// hostWords is the fingerprint of the hosting node's peer ID (text), ""
// before the table is served.
func hostWords(id string) string {
	pid, err := protocol.ParsePeerID(id)
	if err != nil {
		return ""
	}
	return protocol.Fingerprint(string(pid))
}

// settings is the table's settings, as NewTable completed them (they never
// change after).
func (t *Table) settings() Settings { return t.set }

// checkNames refuses a table whose name, code or host's nickname a peer
// could not be shown.
func (t *Table) checkNames() error {
	if err := protocol.CheckTableName(t.set.Name); err != nil {
		return err
	}
	if err := protocol.CheckCode(t.set.Code); err != nil {
		return err
	}
	return protocol.CheckNick(t.host)
}

// served tells the table who serves it: the hosting node's peer ID, the
// addresses it listens on, and the key its chain is signed with.
func (t *Table) served(hostPeer string, listen []string, key ed25519.PrivateKey) {
	t.do(func() { t.hostPeer, t.listen = hostPeer, listen; t.signWith(key) })
}
