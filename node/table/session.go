package table

import (
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/journal"
	"github.com/bullshit-game/bullshit/node/shamir"
)

// A Session is one seat's (or a spectator's) line to a table: what a screen
// or a headless bot needs. The table may be on this machine (Local) or
// across the LAN; the session looks the same either way.
type Session interface {
	// Updates delivers what the seat may see, in order. It is closed when
	// the session ends.
	Updates() <-chan Update
	// Send submits a move for this session's seat. The answer (accepted or
	// refused) comes back as an Update.
	Send(cmd engine.Command) error
	// Control asks the host for a table action (start, end early, a new
	// game with the same seats); only the host's own session may.
	Control(action string) error
	// Close leaves the table.
	Close() error
}

// Update is one delivery to a seat: its view after something happened, the
// events it may see that caused it, and table-level news.
type Update struct {
	View    engine.View
	Events  []engine.Event
	Table   TableState
	Refusal *engine.Refusal // a move of ours was refused
	Notice  string          // short news: "Host left; Ada is now hosting"
	Audit   *AuditResult    // at the end: the fairness audit
	// At is the host clock's time of this update; Deadline (zero if none)
	// is when the open window or hand-over closes, on the same clock.
	At       time.Duration
	Deadline time.Duration
	// Backlog, when set, is every event the seat was sent so far (after a
	// reconnection): for the audit, not to be shown again.
	Backlog bool
	// Reveal is the host's end-of-game reveal (the seed, the salt and every
	// step), which a remote seat audits; screens ignore it.
	Reveal *Reveal
	// Journal is the host's journal as this seat may know it, since the
	// last update, with this seat's shares of what it may not: what lets
	// two players rebuild the table if the host vanishes. Screens ignore it.
	Journal []PubStep
	Shares  []StepShare
	// Toss, when set, is the host asking this seat for its part of the
	// deal's toss (toss.go): nothing else in the update counts. A node
	// answers it; screens ignore it.
	Toss *TossAsk
	// Blind, at a blind table (blind.go), is the host's log for the
	// seat's node, which makes the seat's View and Events itself
	// (party.go): the host sends none. Screens never see it.
	Blind *BlindPart
	// Dealing, at a blind table, is what the deal is doing while the
	// nodes shuffle and the seat's hand isn't known yet ("Shuffling…",
	// and whom it waits for); Arriving is how many cards the seat took
	// that are still on their way to it, handed over card by card.
	Dealing  string
	Arriving int
}

// PubStep is a journal step as a seat may know it: a play's or a
// hand-over's cards are left out (Hidden says how many).
type PubStep struct {
	engine.Step
	Hidden int
	Link   Link // its place in the host's signed chain (chain.go)
}

// StepShare is a seat's threshold share of step Step's hidden cards, or
// for Step -1 of the deal's seed and salt.
type StepShare struct {
	Step  int
	Share shamir.Share
}

// Reveal is what a host shows at the end so every seat can replay the game:
// the seed and salt its commitment bound, and every step with its cards.
type Reveal struct {
	Config engine.Config // Seed is the host's, the one its commitment bound
	Salt   [gamewire.SaltSize]byte
	Nonces [][gamewire.NonceSize]byte // the players' nonces the deal mixed (toss.go)
	Steps  []engine.Step
}

// Dealt is the config the engine dealt from: Config with the seed mixed
// with the players' nonces.
func (r *Reveal) Dealt() engine.Config {
	c := r.Config
	c.Seed = gamewire.DealSeed(c.Seed, r.Salt, r.Nonces)
	return c
}

// TableState is the table around the game: who sits where.
type TableState struct {
	ID   string
	Name string
	// Code and Watchers are for the host's own screen alone (never on
	// the wire): the join code it chose, and the names its spectators
	// joined with ("" for one that gave none).
	Code      string
	Watchers  []string
	Preset    string
	Rules     engine.Rules
	Seats     []SeatInfo
	You       int    // this session's seat, -1 for a spectator
	Host      string // the host's nickname
	Words     string // the host's key as three words (protocol.Fingerprint), as lobbies show the table
	Phase     TablePhase
	Reveal    time.Duration
	TurnClock time.Duration // 0: off
	Grace     time.Duration // how long a person may be away before a bot covers; 0: the default
	Pace      string        // the bots' think times ("brisk", "relaxed"); "": the default
	Addr      string        // an address to join by hand, for the lobby and waiting room
	Web       string        // where phones open this table (http://192.168.1.20:8080), "" if nowhere
	Commit    [32]byte      // the host's commitment to the deal's seed, published before the deal
	Evening   Evening       // the running score of the games at these seats (evening.go)
	// Nonces are the players' nonces the deal mixed, one a seat (zero: none
	// from that seat); nil when it mixed none.
	Nonces [][gamewire.NonceSize]byte
	// Commits are the players' commitments to those nonces, as the toss
	// relayed them before the reveal; nil when there was no toss.
	Commits [][32]byte
	// Paused is a game the host paused (Table.Pause): no clock runs and
	// no move is taken until it goes on.
	Paused bool
	// Blind is a game dealt blind (blind.go): the host sees no card, and
	// each node makes its seat's view itself (party.go).
	Blind bool
}

// SeatInfo is one seat as the table shows it.
type SeatInfo struct {
	Name      string
	Bot       string // level or style, "" for a person
	Connected bool
	Covered   bool     // a bot plays for a person who is away
	Peer      string   // the person's node (a peer ID), "" for a bot
	Addrs     []string // where that node listens, for an election
	Web       bool     // a phone's seat (node's web.go): never a host
	WebAddr   string   // the node's web base URL, where phones go next
	// MadeFor counts the person's own moves (plays, quads, judgements)
	// the host made for them this game: a covering bot's or the clock's.
	MadeFor int
	// RunBy, at a blind table, is the person whose node runs this seat's
	// bot: that node knows the seat's cards.
	RunBy string
}

// AuditResult is the end-of-game check that the deal was not rigged.
type AuditResult struct {
	Verified bool
	Problems []string
	Notes    []string // what the audit saw that is no fault of the host's: a nonce that came too late
	// Early is a game the host ended before it finished, as the replay of
	// its reveal says: the audit is of the Plays so far.
	Early bool
	Plays int
}

// String is the audit in a line: "deal verified", "ended early after 12
// plays; deal verified", or the first thing that didn't match.
func (a *AuditResult) String() string {
	return gamewire.Summary(a.Verified, a.Early, a.Plays, a.Problems)
}

// AuditOf audits a game as g's seat saw it (seat -1: a spectator).
func AuditOf(g journal.SavedGame) *AuditResult {
	problems, notes := journal.Verify(g)
	plays, over := gamewire.Played(g.Config, g.Salt, g.Toss.Nonces, g.Steps)
	return &AuditResult{Verified: len(problems) == 0, Problems: problems, Notes: notes, Early: !over, Plays: plays}
}

// TablePhase is where a table is: its waiting room, a game on, or a game
// over (advertised as playing: its seats are still taken). The values are
// the words the advert and the wire carry.
type TablePhase string

const (
	PhaseWaiting TablePhase = "waiting"
	PhasePlaying TablePhase = "playing"
	PhaseOver    TablePhase = "over"
)
