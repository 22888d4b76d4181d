package table

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
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
	// Blind asks for blind games (blind.go): the host sees no card but
	// its own seat's, where every person's node can take part.
	Blind bool
}

func (s *Settings) defaults() {
	if s.Seats == 0 {
		s.Seats = 4
	}
	if s.Rules.Window == 0 {
		s.Rules = engine.Standard()
	}
	s.Timing = s.Timing.Or(DefaultTiming())
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
// the bots that fill seats. Every change runs on one goroutine (run), in
// arrival order; people and bots reach it through Sessions, node through
// Do.
//
// Who owns what: the fields are grouped by what they belong to, as
// embedded structs so that every method reads them as before.
//   - tableID and tableRules are set when the table is made (NewTable,
//     RestoreTable) and by the node that serves it (Served, Reseat,
//     SetWeb, SetDealer, through Do); tableRules never changes after.
//   - actor is the goroutine's plumbing: in carries every call to run.
//   - the rest (seating, dealing, tableClock, tableRecord) is owned by the
//     run goroutine: read or written only there (Do runs a function
//     there), but for the atomics, which heartbeats read from elsewhere.
type Table struct {
	tableID
	tableRules
	actor
	seating
	dealing
	tableClock
	tableRecord

	plays   atomic.Int64 // the last play's number, for heartbeats off the table goroutine
	startNS atomic.Int64 // the deal's wall clock, likewise

	// OnPhase, if set, is told when the table's phase or seats change (for
	// the lobby's advert). It runs on the table goroutine.
	OnPhase func(TableInfoLite)
	// OnLog, if set, sees each input a blind table's host logs, as the
	// nodes are sent it (the failover tests' moment). It runs on the
	// table goroutine and must not wait on the table.
	OnLog func(protocol.LogInput)
}

// tableID is which table this is and who hosts it.
type tableID struct {
	ID       string
	tid      protocol.TableID
	host     string   // the host's nickname
	term     uint64   // the host term: 1, more after elections
	hostPeer string   // the hosting node's peer ID, for the seat it sits at
	dealtBy  string   // the peer ID of the host that dealt this game (another, after a failover)
	WebURL   string   // where phones open this table (node's web.go), "" if nowhere
	listen   []string // where the host listens, for a restart from the journal
}

// tableRules is what the host chose and what fills a seat.
type tableRules struct {
	Set     Settings
	makeBot BotMaker
	fall    func(*engine.View) (engine.Command, bool)
}

// actor is the table goroutine's plumbing.
type actor struct {
	in   chan func()
	quit chan struct{}
	once sync.Once
}

// seating is who sits and who watches.
type seating struct {
	Seats []*seat
	specs map[*Mailbox]string // spectators, by the name each joined with ("" none)
	// specNodes are the spectators whose node follows a blind game on
	// the host's log (WatchAsNode), as a party's does.
	specNodes map[*Mailbox]bool
	waiting   map[int]bool // seats whose move the reveal pause refused
}

// dealing is the game in play and the deal it came from: the engine, the
// seed and salt the commitment binds, the players' toss (toss.go).
type dealing struct {
	Game        *engine.Game
	Phase       TablePhase
	Seed        uint64
	salt        [gamewire.SaltSize]byte
	Commit      [32]byte
	Nonces      [][gamewire.NonceSize]byte // the players' nonces this game's deal mixed (toss.go)
	commits     [][32]byte                 // their commitments, as the toss relayed them: a spectator checks the nonces against them
	toss        *toss                      // a deal waiting on the players' nonces
	ownParty    *Party                     // the host's own node's party (its seat's)
	localSigner *protocol.Signer           // the host's own party's envelopes at a blind table
	blindTry    int                        // how many times this game was dealt again blind (blind.go)
	blind       *blindGame                 // the blind game in play, if the game is one (blind.go); Game is nil then
	tossWait    *time.Timer
	early       bool // the host ended this game before it finished
	reveal      bool // the next delivery carries the reveal though no event came with it (an early end)
}

// tableClock is the host's clock: the table's time is time since start,
// standing still while the host holds the game.
type tableClock struct {
	start      time.Time
	timer      *time.Timer
	PausedTill time.Duration // no play until then: the reveal
	// held is a game the host paused (Pause): the table's time stands at
	// heldAt from heldSince on, no timer runs and no move is taken.
	held      bool
	heldAt    time.Duration
	heldSince time.Time
}

// tableRecord is what the table has said and kept: the journal (on disk
// and as each seat was sent it, chain.go, journalshare.go), the events,
// the evening's score.
type tableRecord struct {
	Log     []Entry
	notice  string
	sent    [][]engine.Event // every event each seat was sent: its audit and its backlog
	pub     []engine.Event   // every public event of this game: a spectator's backlog and audit
	jpath   string
	jour    *journal.Journal
	shares  map[int][]shamir.Share // each hidden step's shares, one a seat (X = seat+1); -1 the seed's
	cursor  []int                  // how much of the journal each seat has been sent
	Chain   hostChain              // the journal's signed chain (chain.go)
	evening Evening                // the running score of the games at these seats (evening.go)
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
	Owner   string // who may sit here: a peer ID, "local"; "" while free
	BotName string
	bot     Player // the seat's bot, or the bot covering an away person
	Covered bool
	madeFor int    // the person's own moves made for them this game (SeatInfo.MadeFor)
	was     string // a bot's seat that was this person's (a host lost in an election): theirs again if they come back
	tosses  bool   // the person's node takes part in the deal's toss (protocol 1.4)
	blind   bool   // the person's node can be a party of a blind deal (protocol 2.2)
	phone   bool   // a phone's page: a party that runs no bot (blind.go)
	sitOut  bool   // left out of this game's blind deal (it stalled it, or cheated at it): a bot plays the seat
	box     *Mailbox
	away    time.Duration // when the person left; -1 while connected; 0 until they rejoin a table rebuilt by an election
	decided string        // the situation the bot last decided on
	act     *time.Timer
	clock   *time.Timer // the turn clock or the grace period
	gone    *time.Timer // a blind table's take-over of an away person's seat (blindCover)
}

// ErrTableFull and friends are join refusals.
var (
	ErrTableFull = protocol.Refuse(protocol.CodeTableFull, "table full", "This table is full.")
	ErrStarted   = protocol.Refuse(protocol.CodeStarted, "game started", "This game has started: you can watch it.")
	ErrClosed    = protocol.Refuse("", "table closed", "The table has closed.")
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
	t := &Table{tableID: tableID{ID: hex.EncodeToString(id[:]), tid: id, host: host},
		tableRules: tableRules{Set: set, makeBot: makeBot, fall: fallback},
		actor:      actor{in: make(chan func(), 64), quit: make(chan struct{})},
		seating:    seating{specs: map[*Mailbox]string{}, specNodes: map[*Mailbox]bool{}}, dealing: dealing{Phase: PhaseWaiting}}
	t.Seats = make([]*seat, set.Seats)
	for i := range t.Seats {
		t.Seats[i] = &seat{away: -1}
	}
	// Bots take the seats from the back; people fill from the front.
	for i, name := range set.Bots {
		s := set.Seats - 1 - i
		if s < 0 {
			break
		}
		t.Seats[s].BotName = name
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
			for _, s := range t.Seats {
				if s.box != nil {
					s.box.Close()
				}
			}
			for m := range t.specs {
				m.Close()
			}
			return
		}
	}
}

// Do runs f on the table goroutine and waits for it.
func (t *Table) Do(f func()) error {
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

func (t *Table) Now() time.Duration {
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
	return t.sit(owner, name, false, false, false, nil)
}

// SitTossing is Sit for a player whose node takes part in the deal's toss
// (toss.go): it will answer the host's Toss.
func (t *Table) SitTossing(owner, name string) (int, *LocalSession, error) {
	return t.sit(owner, name, true, false, false, nil)
}

// SitParty is SitTossing for a player whose node can also be a party of a
// blind deal (blind.go).
func (t *Table) SitParty(owner, name string) (int, *LocalSession, error) {
	return t.sit(owner, name, true, true, false, nil)
}

func (t *Table) sit(owner, name string, tosses, blind, phone bool, party *Party) (int, *LocalSession, error) {
	var seatNo int
	var box *Mailbox
	var err error
	derr := t.Do(func() {
		seatNo = -1
		for i, s := range t.Seats {
			if s.Owner == owner {
				seatNo = i
				break
			}
		}
		// A player back at its seat under another name renames itself
		// (the phone's page does so in the waiting room): the new name
		// must read as no one else's, as a newcomer's must.
		if seatNo >= 0 && name != t.Seats[seatNo].name {
			if err = CheckNickAmong(name, t.namesBut(seatNo, owner)); err != nil {
				return
			}
		}
		if seatNo < 0 {
			// A host the others lost, back (restarted, same key): the
			// bot that took its seat at the election gives it back.
			for i, s := range t.Seats {
				if s.was != "" && s.was == owner && s.Owner == "" {
					seatNo = i
					s.BotName, s.bot, s.decided, s.was = "", nil, "", ""
					t.notice = fmt.Sprintf("%s is back.", name)
					break
				}
			}
		}
		if seatNo < 0 {
			if t.Phase != PhaseWaiting {
				err = ErrStarted
				return
			}
			for i, s := range t.Seats {
				if s.Owner == "" && s.BotName == "" {
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
			if err = CheckNickAmong(name, t.namesBut(seatNo, owner)); err != nil {
				return
			}
		}
		s := t.Seats[seatNo]
		s.Owner, s.name, s.tosses, s.blind, s.phone = owner, name, tosses, blind, phone
		if s.box != nil {
			s.box.Close()
		}
		s.box = NewMailbox()
		box = s.box
		if s.away > 0 && t.Phase != PhaseWaiting {
			t.notice = fmt.Sprintf("%s is back.", name)
		}
		s.away = -1
		if s.Covered && !t.takenOver(seatNo) {
			s.Covered, s.bot = false, nil
			s.decided = ""
		}
		if s.clock != nil {
			s.clock.Stop()
		}
		if s.gone != nil {
			s.gone.Stop()
		}
		t.phaseChanged()
		t.backlog(seatNo)
		t.deliver(nil, "")
		t.redealDue()
	})
	if derr != nil {
		return -1, nil, derr
	}
	if err != nil {
		return -1, nil, err
	}
	l := &LocalSession{t: t, seat: seatNo, box: box}
	if owner == "local" {
		l.party = t.localParty(box, party)
		t.Do(func() { t.ownParty = l.party })
	}
	return seatNo, l, nil
}

// namesBut are the names at the table but seat no's, for a newcomer who
// would sit there: the people's, and the host's own (it may not have sat
// yet); the bots' too, except for the host's own player, whose name was
// chosen before its bots were.
func (t *Table) namesBut(no int, owner string) []string {
	var out []string
	for i, s := range t.Seats {
		switch {
		case i == no:
		case s.Owner != "":
			out = append(out, s.name)
		case s.BotName != "" && owner != "local":
			out = append(out, s.BotName)
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
func (t *Table) WatchAs(name string) (*LocalSession, error) { return t.watchAs(name, false) }

// WatchAsNode is WatchAs for a spectator whose node follows a blind game
// on the host's log (a laptop's of protocol 2.2: node/table's Party in
// watching mode), and so audits it at its end as the players do.
func (t *Table) WatchAsNode(name string) (*LocalSession, error) { return t.watchAs(name, true) }

func (t *Table) watchAs(name string, node bool) (*LocalSession, error) {
	box := NewMailbox()
	if err := t.Do(func() {
		t.specs[box] = name
		if node {
			t.specNodes[box] = true
		}
		if t.blind != nil && node {
			t.blindDeliver(nil, "") // the game from its start, with its terms
		} else {
			t.specBacklog(box)
			t.sendSpec(box, nil, nil, nil)
		}
		t.toHost()
	}); err != nil {
		return nil, err
	}
	return &LocalSession{t: t, seat: -1, box: box}, nil
}

// Leave marks a seat's person as gone; a bot covers after the grace period.
func (t *Table) Leave(seatNo int, box *Mailbox) {
	t.post(func() {
		if seatNo < 0 {
			delete(t.specs, box)
			box.Close()
			t.toHost()
			return
		}
		s := t.Seats[seatNo]
		if s.box != box {
			return // an older connection of a seat that came back
		}
		s.box.Close()
		s.box = nil
		if t.Phase == PhaseWaiting {
			s.Owner, s.name = "", ""
			t.phaseChanged()
			t.deliver(nil, "")
			return
		}
		s.away = t.Now()
		t.notice = fmt.Sprintf("%s is away; a bot takes the seat if they're not back in %s.", s.name, seconds(t.Set.Grace))
		if s.clock != nil {
			s.clock.Stop()
		}
		if t.held {
			t.deliver(nil, "") // the grace starts when the host goes on
			return
		}
		s.clock = t.after(t.Set.Grace, func() { t.cover(seatNo) })
		t.deliver(nil, "")
	})
}

// seconds says d for a player: "30 s", "1.5 s".
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s"
}

// cover hands an away person's seat to a bot until they return.
func (t *Table) cover(seatNo int) {
	s := t.Seats[seatNo]
	if s.box != nil || s.Covered || !t.inGame() || t.Phase != PhasePlaying {
		return
	}
	if t.blind != nil {
		t.blindCover(seatNo)
		return
	}
	if t.coverBot(seatNo) {
		t.changed(nil)
	}
}

// coverBot seats the bot that plays for an away person, and says so.
func (t *Table) coverBot(seatNo int) bool {
	s := t.Seats[seatNo]
	b, err := t.makeBot("medium", seatNo, t.Seed+uint64(seatNo)*7919+1)
	if err != nil {
		return false
	}
	// The bot learns the seat's hand from its view; its memory starts now.
	s.bot, s.Covered, s.decided = b, true, ""
	t.notice = fmt.Sprintf("A bot plays for %s until they're back.", s.name)
	return true
}

// Start deals. Seats no person took get bots.
func (t *Table) Start() error {
	var err error
	derr := t.Do(func() { err = t.deal() })
	if derr != nil {
		return derr
	}
	return err
}

func (t *Table) deal() error {
	if t.Phase == PhasePlaying {
		return protocol.Refuse("", "game already on", "The game is already on.")
	}
	if t.toss != nil {
		return protocol.Refuse("", "cards being dealt", "The cards are being dealt.")
	}
	t.blindTry = 0
	for _, s := range t.Seats {
		s.sitOut = false // a new game: every node takes part again
	}
	seed := t.Set.Seed
	if seed == 0 {
		var b [8]byte
		rand.Read(b[:])
		seed = binary.LittleEndian.Uint64(b[:])
	}
	if t.Phase == PhaseOver && t.Set.Seed != 0 {
		seed = t.Seed + 1 // a new game with the same seats
	}
	salt, err := NewSalt()
	if err != nil {
		return err
	}
	if err := t.Set.Rules.Check(t.Set.Seats); err != nil {
		return err
	}
	t.Seed = seed
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
	t.blind = nil
	if owners, holder, bots, why := t.blindSeats(); why == "" {
		return t.blindDeal(seed, salt, nonces, owners, holder, bots)
	} else if why != "not asked" {
		t.notice = "Dealt in the clear, the host seeing every card: " + why + "."
	}
	g, events, err := engine.New(engine.Config{Rules: t.Set.Rules, Seats: t.Set.Seats, Seed: gamewire.DealSeed(seed, salt, nonces)})
	if err != nil {
		return err
	}
	t.Seed, t.salt, t.Nonces = seed, salt, nonces
	t.Commit, t.dealtBy = gamewire.Commit(seed, t.salt), t.hostPeer
	t.sent = make([][]engine.Event, len(t.Seats))
	t.pub, t.early = nil, false
	t.cursor = make([]int, len(t.Seats))
	t.shares = map[int][]shamir.Share{}
	if sh, err := shamir.SplitSeed(seed, t.salt, len(t.Seats), t.threshold(), nil); err == nil {
		t.shares[-1] = sh
	}
	for i, s := range t.Seats {
		if s.Owner == "" && s.BotName == "" {
			s.BotName = "medium"
		}
		s.bot, s.Covered, s.decided, s.madeFor = nil, false, "", 0
		if s.Owner == "" {
			b, err := t.makeBot(s.BotName, i, botSeed(seed, i))
			if err != nil {
				return err
			}
			s.bot = b
			if s.name == "" {
				s.name = botLabel(s.BotName, i)
			}
		}
	}
	t.Game, t.start, t.Phase, t.PausedTill, t.Log, t.held = g, time.Now(), PhasePlaying, 0, nil, false
	t.chainReset()
	for i, s := range t.Seats {
		if s.Owner != "" && s.box == nil {
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
	names := make([]string, len(t.Seats))
	owners := make([]string, len(t.Seats))
	botNames := make([]string, len(t.Seats))
	for i, s := range t.Seats {
		names[i], owners[i] = s.name, s.Owner
		if s.Owner == "" {
			botNames[i] = s.BotName
		}
	}
	j, err := journal.CreateJournal(t.jpath, journal.JournalHeader{Table: t.ID, Name: t.Set.Name,
		Config: engine.Config{Rules: t.Set.Rules, Seats: t.Set.Seats, Seed: seed}, Seats: names, Salt: t.salt, Nonces: Mixed(t.Nonces), Started: t.start,
		Owners: owners, Bots: botNames, Listen: t.listen,
		Settings: journal.SettingsJSON{Reveal: t.Set.Timing.Reveal, TurnClock: t.Set.TurnClock, Pace: t.Set.Pace, Private: t.Set.Code != "",
			Grace: t.Set.Grace}})
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
	ErrNoPauseText = "There's no game in play to pause."
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
	derr := t.Do(func() {
		if !t.inGame() || t.Phase != PhasePlaying {
			err = protocol.Refuse("", "no game to pause", ErrNoPauseText)
			return
		}
		if !t.held {
			t.heldAt, t.held, t.heldSince = t.Now(), true, time.Now()
			t.stopTimers()
			for _, s := range t.Seats {
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
		if now := t.Now(); t.PausedTill > now {
			t.after(t.PausedTill-now, func() {
				if t.Phase == PhasePlaying && t.Now() >= t.PausedTill {
					t.pauseOver()
				}
			})
		}
		t.changed(nil)
		// An away person's grace goes on from where it stood.
		for i, s := range t.Seats {
			if s.Owner != "" && s.box == nil && !s.Covered && s.away >= 0 && t.Phase == PhasePlaying {
				no := i
				s.clock = t.after(t.Set.Grace-(t.Now()-s.away), func() { t.cover(no) })
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
	ErrNotPlaying = protocol.Refuse("", "no game in play", "There's no game in play to hand a seat over in.")
	ErrNoPerson   = protocol.Refuse("", "not a person's seat", "That seat isn't a player's: only a person's seat goes to a bot.")
)

// GiveToBot is the host handing seatNo's person to a bot, as if they were
// away past the grace period: an idle player no longer holds the table
// up. The person still sees the game and takes their seat back with their
// next move, or by coming back; the bot's moves count against their
// rating (SeatInfo.MadeFor).
func (t *Table) GiveToBot(seatNo int) error {
	var err error
	derr := t.Do(func() {
		switch {
		case !t.inGame() || t.Phase != PhasePlaying:
			err = ErrNotPlaying
		case seatNo < 0 || seatNo >= len(t.Seats):
			err = protocol.Refuse("", fmt.Sprintf("no seat %d", seatNo+1), fmt.Sprintf("There's no seat %d at this table.", seatNo+1))
		case t.Seats[seatNo].Owner == "" || t.Seats[seatNo].Owner == "local":
			err = ErrNoPerson
		case t.Seats[seatNo].Covered:
		case t.blind != nil:
			// The person's own node runs the bot (party.go): only it
			// knows the seat's cards.
			s := t.Seats[seatNo]
			s.Covered = true
			t.notice = fmt.Sprintf("The host gave %s's seat to a bot until they play again.", s.name)
			if s.phone {
				t.notice = fmt.Sprintf("The host plays %s's seat blind (a card a turn, face down) until they play again.", s.name)
			}
			t.blindChanged(nil)
		case !t.coverBot(seatNo):
			err = protocol.Refuse("", "no bot for the seat", "No bot could take the seat.")
		default:
			s := t.Seats[seatNo]
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
	err := t.Do(func() {
		if t.Phase != PhasePlaying {
			return
		}
		t.Phase, t.early, ended = PhaseOver, true, true
		t.stopTimers()
		t.phaseChanged()
		if bg := t.blind; bg != nil {
			// Every node publishes its secret: the plays so far are
			// revealed and audited, and the game can't go on.
			t.notice = "The host ended the game early."
			t.blindOut(bg.h.End(), nil)
			return
		}
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
	derr := t.Do(func() {
		cmd.Seat = seatNo
		if mark, err = t.markOf(seatNo, cmd, mark); err == nil {
			if seatNo >= 0 && seatNo < len(t.Seats) && t.Seats[seatNo].Covered && t.Seats[seatNo].box != nil {
				s := t.Seats[seatNo]
				// A person the host gave to a bot plays again: theirs.
				s.Covered, s.bot, s.decided = false, nil, ""
				t.notice = fmt.Sprintf("%s plays their own seat again.", s.name)
			}
			err = t.apply(seatNo, cmd, mark)
		}
		var ref *engine.Refusal
		if errors.As(err, &ref) && seatNo >= 0 && seatNo < len(t.Seats) && t.Seats[seatNo].box != nil {
			u := Update{Refusal: ref, Table: t.State(seatNo), At: t.Now()}
			if t.Game != nil {
				u.View = t.Game.View(seatNo)
				u.Deadline, _ = t.Game.Deadline()
			}
			t.Seats[seatNo].box.Put(u)
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
	if cmd.Move == engine.MoveResume || cmd.Move == engine.MoveForfeit {
		return errHostsMove
	}
	if t.blind != nil {
		return &engine.Refusal{Code: engine.CodeBadCommand, Msg: "This game is dealt blind: a move names its cards by handle, from the seat's own node."}
	}
	if t.Game == nil || t.Phase == PhaseWaiting {
		return &engine.Refusal{Code: engine.CodeNotYourTurn, Msg: "The game hasn't started."}
	}
	if t.Phase == PhaseOver {
		return engine.ErrGameOver
	}
	if t.held {
		return &engine.Refusal{Code: engine.CodeNotYourTurn, Msg: PausedText}
	}
	cmd.Seat = seatNo
	now := t.Now()
	ticked := t.Game.Tick(now)
	if len(ticked) > 0 {
		t.record(Entry{At: now}, nil)
	}
	if now < t.PausedTill && HeldByReveal(cmd.Move) {
		if len(ticked) > 0 {
			t.changed(ticked)
		}
		if t.waiting == nil {
			t.waiting = map[int]bool{}
		}
		t.waiting[seatNo] = true
		return &engine.Refusal{Code: engine.CodeNotYourTurn, Msg: "Wait: the cards are still being shown."}
	}
	events, err := t.Game.Apply(now, cmd)
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
	s := t.Seats[seatNo]
	count := s.Owner != "" && ownMoves[cmd.Move]
	if count {
		s.madeFor++
	}
	err := t.apply(seatNo, cmd, nil)
	if err != nil && count {
		s.madeFor--
	}
	return err
}

// errHostsMove refuses a seat's move that only the host makes: a resume
// of the clock after a takeover, a forfeit (R10b: a blind table's own
// record of a false opening makes it; at a clear table a seat could
// otherwise have another seat's play judged a lie).
var errHostsMove = &engine.Refusal{Code: engine.CodeBadCommand, Msg: "That move is the host's, not a seat's."}

// ownMoves are the moves a seat makes on its own turn.
var ownMoves = map[engine.Move]bool{engine.MovePlay: true, engine.MoveQuads: true, engine.MoveDoubt: true, engine.MoveBelieve: true, engine.MoveSkip: true}

// errBadMark refuses a move whose seat signature doesn't verify.
var errBadMark = &engine.Refusal{Code: engine.CodeBadCommand,
	Msg: "Your move's signature doesn't verify: the table keeps only moves signed by their seat."}

// markOf is the seat's signature of cmd to keep: mark, checked against
// the key of the seat's person; for the host's own seat, the host's.
func (t *Table) markOf(seatNo int, cmd engine.Command, mark []byte) ([]byte, error) {
	if seatNo < 0 || seatNo >= len(t.Seats) {
		return nil, nil // the engine refuses it
	}
	owner := t.Seats[seatNo].Owner
	if mark == nil {
		if owner == "local" && t.Chain.key != nil {
			return gamewire.Mark(t.Chain.key, t.tid, t.Commit, cmd), nil
		}
		return nil, nil
	}
	id, err := protocol.ParsePeerID(owner)
	if err != nil {
		return nil, errBadMark
	}
	pub, err := id.PublicKey()
	if err != nil || !gamewire.MarkOK(pub, t.tid, t.Commit, cmd, mark) {
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
	t.Log = append(t.Log, e)
	t.chainAdd(len(t.Log)-1, e, Link{Term: t.term, Mark: mark})
	t.split(len(t.Log)-1, e)
	if t.jour != nil {
		if err := t.jour.Append(e); err != nil {
			t.notice = "The journal could not be written: " + err.Error()
		}
	}
}

// pauseOver is the end of a reveal pause: the bots may move again, and a
// person whose move the pause refused hears the table is open.
func (t *Table) pauseOver() {
	t.schedule()
	if !t.inGame() {
		return
	}
	for seatNo := range t.waiting {
		if s := t.Seats[seatNo]; s.box != nil {
			u := Update{Table: t.State(seatNo), At: t.Now()}
			if t.blind == nil {
				u.View = t.gameView(seatNo) // a blind table's node makes its own
			}
			u.Deadline, _ = t.gameDeadline()
			s.box.Put(u)
		}
	}
	t.waiting = nil
}

// tick fires the engine's deadlines that are due.
func (t *Table) tick() {
	if t.blind != nil {
		t.blindTick()
		return
	}
	if t.Game == nil || t.Phase != PhasePlaying {
		return
	}
	now := t.Now()
	events := t.Game.Tick(now)
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
			t.PausedTill = t.Now() + t.Set.Timing.Reveal
			// When the cards have been shown, everyone hears the table is
			// open again: a move refused during the pause is made anew.
			t.after(t.Set.Timing.Reveal, func() {
				if t.Phase == PhasePlaying && t.Now() >= t.PausedTill {
					t.pauseOver()
				}
			})
		}
	}
	if t.Game.Over() && t.Phase == PhasePlaying {
		t.Phase = PhaseOver
		t.tally()
		t.phaseChanged()
	}
	if t.Game != nil {
		t.plays.Store(int64(t.Game.Plays()))
	}
	if !t.start.IsZero() {
		t.startNS.Store(t.start.UnixNano())
	}
	t.deliver(events, "")
	if rogueLook != nil {
		rogueLook(t)
	}
	if t.Phase != PhasePlaying {
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
	if d, ok := t.Game.Deadline(); ok {
		wait := d - t.Now()
		t.timer = t.after(wait, t.tick)
	}
	t.schedule()
}

// schedule lets every bot (and the turn clock) look at the new state.
func (t *Table) schedule() {
	now := t.Now()
	for i, s := range t.Seats {
		if s.bot == nil {
			t.personClock(i, s)
			continue
		}
		v := t.Game.View(i)
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
		think = Paced(think, t.Set.Pace)
		if HeldByReveal(cmd.Move) {
			think = max(think, t.PausedTill-now)
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
	s := t.Seats[seatNo]
	return t.Phase == PhasePlaying && !t.held && s.decided == key && s.bot == b
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
	v := t.Game.View(seatNo)
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
	t.Seats[seatNo].decided = ""
	t.fallback(seatNo, "")
}

// fallback plays the always-legal move for seatNo, saying notice with it.
func (t *Table) fallback(seatNo int, notice string) {
	if t.blind != nil {
		t.blindFallback(seatNo, notice)
		return
	}
	if t.fall == nil || t.held {
		return
	}
	v := t.Game.View(seatNo)
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
	if t.blind != nil && ((s.Owner != "" && (s.box == nil || s.phone) && s.Covered) || (s.Owner == "" && t.botAway(i))) {
		t.awayClock(i, s)
		return
	}
	if t.Set.TurnClock <= 0 || s.box == nil {
		return
	}
	v := t.gameView(i)
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
	s.clock = t.after(t.Set.TurnClock+max(t.PausedTill-t.Now(), 0), func() {
		if t.Phase == PhasePlaying && s.decided == key {
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
	for _, s := range t.Seats {
		if s.act != nil {
			s.act.Stop()
		}
		if s.clock != nil {
			s.clock.Stop()
		}
	}
}

// State is the table around the game, as every session sees it.
func (t *Table) State(you int) TableState {
	ts := TableState{ID: t.ID, Name: t.Set.Name, Preset: t.Set.Rules.Preset, Rules: t.Set.Rules, You: you,
		Host: t.host, Words: hostWords(t.hostPeer), Phase: t.Phase, Reveal: t.Set.Timing.Reveal, TurnClock: t.Set.TurnClock, Commit: t.Commit,
		Grace: t.Set.Grace, Pace: t.Set.Pace,
		Evening: t.evening.Clone(), Web: t.WebURL, Nonces: Mixed(t.Nonces),
		Commits: append([][32]byte(nil), t.commits...), Paused: t.held, Blind: t.blind != nil}
	if t.commits == nil {
		ts.Commits = nil
	}
	if you >= 0 && you < len(t.Seats) && t.Seats[you].Owner == "local" {
		// The host's own screen: the code it chose, and who watches.
		ts.Code = t.Set.Code
		for _, n := range t.specs {
			ts.Watchers = append(ts.Watchers, n)
		}
		slices.Sort(ts.Watchers)
	}
	ts.Seats = make([]SeatInfo, len(t.Seats))
	for i, s := range t.Seats {
		name := s.name
		if name == "" && s.BotName != "" {
			name = botLabel(s.BotName, i)
		}
		bot := ""
		if s.Owner == "" {
			bot = s.BotName
		}
		ts.Seats[i] = SeatInfo{Name: name, Bot: bot, Connected: s.box != nil || s.Owner == "", Covered: s.Covered, MadeFor: s.madeFor, RunBy: t.runBy(i)}
		if s.Owner != "local" {
			ts.Seats[i].Peer = s.Owner
		} else {
			ts.Seats[i].Peer = t.hostPeer
		}
	}
	return ts
}

// toHost gives the host's own seat the table as it is now (a spectator
// came or went: its waiting room lists them), with no news.
func (t *Table) toHost() {
	for i, s := range t.Seats {
		if s.Owner == "local" && s.box != nil {
			u := Update{Table: t.State(i), At: t.Now()}
			if t.Game != nil {
				u.View = t.Game.View(i)
				u.Deadline, _ = t.Game.Deadline()
			}
			s.box.Put(u)
		}
	}
}

// deliver sends every seat and spectator what it may see of events.
func (t *Table) deliver(events []engine.Event, notice string) {
	if t.blind != nil {
		t.blindDeliver(nil, notice)
		return
	}
	if notice == "" {
		notice = t.notice
	}
	t.notice = ""
	var deadline time.Duration
	if t.Game != nil {
		deadline, _ = t.Game.Deadline()
	}
	now := t.Now()
	var reveal *Reveal
	if t.Phase == PhaseOver && t.Game != nil && (len(events) > 0 || t.reveal) {
		reveal = t.revealed()
	}
	t.reveal = false
	for i := range events {
		if events[i].Public() {
			t.pub = append(t.pub, events[i])
		}
	}
	for i, s := range t.Seats {
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
		u := Update{Events: mine, Table: t.State(i), Notice: notice, At: now, Deadline: deadline}
		if t.Game != nil {
			u.View = t.Game.View(i)
		}
		if reveal != nil {
			u.Reveal = reveal
			u.Audit = t.audit(i, reveal)
		}
		u.Journal, u.Shares = t.journalFor(i)
		s.box.Put(u)
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
	g := journal.SavedGame{Table: t.Set.Name, Seat: seat, Config: r.Config, Salt: r.Salt,
		Commitment: t.Commit, Toss: journal.Toss{Nonces: r.Nonces}, Steps: r.Steps, Events: got}
	if seat < 0 && t.commits != nil {
		g.Toss.Round, g.Toss.Commits = t.Commit, t.commits
	}
	if seat >= 0 && seat < len(r.Nonces) && r.Nonces[seat] != ([gamewire.NonceSize]byte{}) {
		// This seat's part of the toss, as the host took it: the seat
		// itself (a player whose node tosses) checks its own.
		g.Toss.Round, g.Toss.Mine, g.Toss.Revealed = t.Commit, r.Nonces[seat], true
	}
	g.Toss.Players = MustMix(t.State(seat).Seats, t.dealtBy, -1)
	return AuditOf(g)
}

// revealed is the deal's reveal, once the game is over.
func (t *Table) revealed() *Reveal {
	return &Reveal{Config: engine.Config{Rules: t.Set.Rules, Seats: t.Set.Seats, Seed: t.Seed}, Salt: t.salt,
		Nonces: Mixed(t.Nonces), Steps: append([]engine.Step(nil), t.Log...)}
}

// backlog sends a returning seat every event it was sent before, for its
// audit; one back after the game ended is sent the reveal with it, and
// audits the game as the others did.
func (t *Table) backlog(seat int) {
	if t.blind != nil {
		t.blind.sent[seat] = 0 // the next delivery sends the deal and the whole log
		return
	}
	s := t.Seats[seat]
	if s.box == nil || t.sent == nil {
		return
	}
	u := Update{Events: append([]engine.Event(nil), t.sent[seat]...), Table: t.State(seat), Backlog: true, At: t.Now()}
	if t.cursor != nil {
		t.cursor[seat] = 0
	}
	u.Journal, u.Shares = t.journalFor(seat)
	if t.Game != nil {
		u.View = t.Game.View(seat)
	}
	s.box.Put(u)
	if t.Phase == PhaseOver && t.Game != nil {
		r := t.revealed()
		s.box.Put(Update{Table: t.State(seat), View: u.View, At: u.At, Reveal: r, Audit: t.audit(seat, r)})
	}
}

// sendSpec sends a spectator the public part of events, and at the end the
// reveal with audit, the audit a remote spectator would make of it (read
// only: every spectator's update shares it).
func (t *Table) sendSpec(m *Mailbox, events []engine.Event, reveal *Reveal, audit *AuditResult) {
	var pub []engine.Event
	for _, e := range events {
		if e.Public() {
			pub = append(pub, e)
		}
	}
	u := Update{Events: pub, Table: t.State(-1), At: t.Now()}
	if t.inGame() {
		u.View = t.gameView(-1)
		u.Deadline, _ = t.gameDeadline()
	}
	if reveal != nil {
		u.Reveal, u.Audit = reveal, audit
	}
	m.Put(u)
}

// specBacklog sends a spectator who comes in after the deal every public
// event so far, so that its audit at the end has the whole public record
// to hold the replay against.
func (t *Table) specBacklog(m *Mailbox) {
	if !t.inGame() || len(t.pub) == 0 {
		return
	}
	m.Put(Update{Events: append([]engine.Event(nil), t.pub...), Table: t.State(-1), Backlog: true, At: t.Now(), View: t.gameView(-1)})
}

// inGame reports whether a game was dealt: a clear one or a blind one.
func (t *Table) inGame() bool { return t.Game != nil || t.blind != nil }

// gameView is what seat may see of the game in play: at a blind table,
// the host's view, with no card of any seat's.
func (t *Table) gameView(seat int) engine.View {
	if t.blind != nil {
		return t.blind.h.B.View(seat)
	}
	return t.Game.View(seat)
}

// gameDeadline is when the open window or hand-over closes.
func (t *Table) gameDeadline() (time.Duration, bool) {
	if t.blind != nil {
		return t.blind.h.B.Deadline()
	}
	return t.Game.Deadline()
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

// FillAbout fills in what the join page shows of the table (node's web.go),
// About but the host's words and the code, the server's; false once closed.
func (t *Table) FillAbout(a *About) bool {
	return t != nil && t.Do(func() {
		a.Name, a.Host, a.Preset, a.Seats, a.Phase = t.Set.Name, t.host, t.Set.Rules.Preset, len(t.Seats), string(t.Phase)
		if a.Preset == "" {
			a.Preset = "custom"
		}
		for _, s := range t.Seats {
			if s.Owner != "" || s.BotName != "" {
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
	for _, s := range t.Seats {
		if s.Owner != "" || s.BotName != "" {
			taken++
		}
	}
	t.OnPhase(TableInfoLite{Taken: taken, Seats: len(t.Seats), Phase: t.Phase})
}

// LocalSession is a seat's session on a table in this process. The host's
// own seat has its node's Party in front of it (party.go): at a blind
// table the host's screen is its party's, as every node's is.
type LocalSession struct {
	t     *Table
	seat  int
	box   *Mailbox
	party *Party
	once  sync.Once
}

// Seat is the session's seat, -1 for a spectator.
func (l *LocalSession) Seat() int { return l.seat }

// Updates delivers what the seat may see.
func (l *LocalSession) Updates() <-chan Update {
	if l.party != nil {
		return l.party.screen.Out
	}
	return l.box.Out
}

// Send submits a move; a refusal comes back as an Update.
func (l *LocalSession) Send(cmd engine.Command) error {
	if l.seat < 0 {
		return errors.New("a spectator can't move")
	}
	if l.party != nil && l.party.Blind() {
		cmd.Seat = l.seat
		return l.party.Move(cmd)
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

// Party is the node's party in front of the host's own seat (nil for a
// session of another seat's, served over the network).
func (l *LocalSession) Party() *Party { return l.party }

// KeepDeckIn has the host's own seat keep its deck secret of each blind
// game in dir (a profile's directory, as deck.json), as a player's node
// does: the host's person, their program started again after it died,
// sits back in their seat as the same party.
func (l *LocalSession) KeepDeckIn(dir string) {
	if l.party != nil {
		l.party.SetKeep(filepath.Join(dir, "deck.json"))
	}
}

// Close leaves the table.
func (l *LocalSession) Close() error {
	l.once.Do(func() {
		l.t.Leave(l.seat, l.box)
		if l.party != nil {
			l.party.Close()
		}
	})
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

func (t *Table) WireID() protocol.TableID { return t.tid }

// Keep journals the table to path from the next deal: every accepted step,
// fsynced (see Journal).
func (t *Table) Keep(path string) error {
	return t.Do(func() { t.jpath = path })
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

// Config is the table's settings, as NewTable completed them (they never
// change after).
func (t *Table) Config() Settings { return t.Set }

// CheckNames refuses a table whose name, code or host's nickname a peer
// could not be shown.
func (t *Table) CheckNames() error {
	if err := protocol.CheckTableName(t.Set.Name); err != nil {
		return err
	}
	if err := protocol.CheckCode(t.Set.Code); err != nil {
		return err
	}
	return protocol.CheckNick(t.host)
}

// Served tells the table who serves it: the hosting node's peer ID, the
// addresses it listens on, and the key its chain is signed with.
func (t *Table) Served(hostPeer string, listen []string, key ed25519.PrivateKey) {
	t.Do(func() { t.hostPeer, t.listen = hostPeer, listen; t.signWith(key) })
}
