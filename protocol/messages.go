package protocol

import (
	"reflect"
	"strconv"
)

// A Message is one of the types in the catalog below. Decode and Open return
// them as values (protocol.Play, never *protocol.Play); Encode and Seal take
// either.
type Message interface {
	Type() Type
}

// Type numbers a message on the wire. Numbers are never reused; a minor
// version may add new ones.
type Type uint8

// The catalog, grouped by who sends what.
const (
	// Joining a table: joiner ↔ host.
	TypeHello     Type = 1
	TypeChallenge Type = 2
	TypeSeated    Type = 3
	TypeLobby     Type = 4
	// 5 was Start (1.x), which nobody sent.
	TypeLeave Type = 6

	// Moves: seat → host.
	TypePlay    Type = 16
	TypeCall    Type = 17
	TypePass    Type = 18
	TypeGive    Type = 19
	TypeQuads   Type = 20
	TypeDoubt   Type = 21
	TypeBelieve Type = 22
	TypeSkip    Type = 23

	// The host's answers: host → seats.
	TypeUpdate  Type = 32
	TypeRefusal Type = 33

	// Liveness, election and hand-over: any peer → any peer.
	// 49 (HostGone), 50 (Vote), 51 (NewHost), 52 (Share) and 64 (Commit)
	// were 1.x's, which nobody sent.
	TypeHeartbeat    Type = 48
	TypeStateRequest Type = 53
	TypeState        Type = 54

	// Fair play: host → all.
	TypeAudit Type = 65

	// The deal's coin toss: host → seat, then seat → host.
	TypeToss        Type = 66
	TypeNonceCommit Type = 67
	TypeNonceReveal Type = 68
)

// Card is a card on the wire: rank*4 + suit, rank 0…12 = A, 2, …, 10, J, Q,
// K and suit 0…3 = C, D, H, S; Joker (52) is "JK". Slices of cards travel as
// msgpack bin, one byte a card.
type Card = uint8

// Joker is the wire value of "JK".
const Joker Card = 52

// NoRank stands for "no rank" wherever a rank (int8, 0…12) is expected.
const NoRank int8 = -1

// ---- Joining a table ----

// Hello asks the host for a seat. On a private table the host answers with a
// Challenge and the joiner sends Hello again with its Share and Proof set
// (pake.go: the join code proved by CPace).
type Hello struct {
	Version Version // the joiner's protocol version (the envelope has it too)
	Nick    string
	Watch   bool // join as a spectator
	// Proof is the joiner's key confirmation (Pake.Confirm), in the second
	// hello.
	Proof []byte
	// WebAddr is the joiner node's web base URL (http://192.168.1.20:8080),
	// "" for none and for a phone: the Lobby passes it on, so that phones
	// find the next host.
	WebAddr string
	// Nonce is the joiner's NonceSize random bytes for the exchange, sent
	// in every hello (the joiner can't know whether the table is private).
	Nonce []byte
	Share []byte // the joiner's CPace share, in the second hello
}

// Challenge opens a private table's join code exchange.
type Challenge struct {
	Nonce []byte // the host's NonceSize random bytes, drawn by the node
	// Share is the host's CPace share; a joiner refuses a challenge
	// without one.
	Share []byte
}

// Seated tells a joiner where it sits. A refused joiner gets a Refusal
// (CodeTableFull, CodeStarted, CodeVersion, CodeBadCode) instead.
type Seated struct {
	Seat  int    // -1 for a spectator
	Nick  string // as the host will show it (made unique)
	Table TableID
	// Proof is the host's key confirmation on a private table: the joiner
	// knows the host had the code, and is no impostor's table.
	Proof []byte
}

// Player is one seat at the table, human or bot.
type Player struct {
	Seat      int
	Nick      string
	Peer      PeerID   // empty for a bot
	Bot       string   // "level/style" for a bot seat, empty for a human
	Connected bool     // a person whose link is up (bots always are)
	Covered   bool     // a bot plays for a person who is away
	Addrs     []string // where the player's node listens, for an election
	// Web is a seat whose player came in through a node's web entry (a
	// phone's browser): it never hosts, and no election picks it.
	Web bool
	// WebAddr is the player node's web base URL ("http://192.168.1.20:8080"),
	// where a phone goes when the host vanishes; "" for none.
	WebAddr string
	// MadeFor is how many of a person's own moves this game the host made
	// for them (a bot covering them while away, or their turn clock):
	// what decides whether their game is rated. A new host carries it on.
	MadeFor int
	// RunBy, at a blind table (2.2), is the nickname of the person whose
	// node runs this bot seat: that node knows the seat's cards.
	RunBy string `protocol:"optional"`
}

// Settings are a table's settings as the host announces them: its rules,
// field for field, and every duration in milliseconds, the unit in the
// name (2.0). A private table's join code is never sent.
type Settings struct {
	Name        string
	Rules       Rules
	Seats       int    // seats in all, humans and bots
	RevealMS    int64  // the pause on a reveal
	TurnClockMS int64  // a turn's clock; 0 for none
	GraceMS     int64  // how long a person may be away before a bot covers their seat
	BotPace     string // the bots' think times: "brisk", "relaxed" or "fast"
}

// Rules are the engine's rules (engine.Rules) field for field: the rules
// keys of REFEREE.md, typed. A host elected later plays by the same.
type Rules struct {
	Preset       string // the preset they started from, for display
	Sequence     uint8  // R5, V1, V2, V4: up, down, free, near, near-strict
	Start        int8   // V3: the first rank asked for
	Cap          int    // V5: the most cards in a claim; 0 for 4 a deck
	CCW          bool   // V6
	Jokers       int    // V7: jokers a deck
	Places       bool   // V8
	Quads        bool   // V9
	First        First  // V10
	NextOnly     bool   // V11: only the next seat may call
	CountLies    bool   // V12
	Rapid        bool   // V13
	Sneak        int    // V14: extra cards a play may slip under its claim
	Rough        bool   // V14: rough hand and pile counts
	CallWindowMS int64  // R8: the call window
	Decks        int    // R2: 0 picks by seats
	Doubt        bool   // V15: I Doubt It rounds
}

// First picks the seat that plays first (R4, V10): the holder of Card,
// a random seat and rank, or else the dealer's left.
type First struct {
	Holder bool
	Card   Card
	Random bool
}

// Lobby is the table before (and while) a game: the host sends it to
// everyone whenever a setting or a seat changes.
type Lobby struct {
	Settings Settings
	Players  []Player
	Phase    string   // waiting, playing, over
	Host     string   // the host's nickname
	You      int      // the recipient's seat, -1 for a spectator
	Commit   [32]byte // the host's commitment to the deal's seed, zero before the deal
	// Evening is the table's running score across its games: it
	// rides here so that a host elected after this one carries it on.
	Evening *Evening
	// Nonces are the players' nonces the deal's seed mixed, one a
	// seat, zero for a seat whose nonce it didn't (a bot, the host's own,
	// a player who didn't reveal in time); empty when it mixed none. They
	// ride here so that a host elected later deals the same cards.
	Nonces [][32]byte
	// Commits are the players' commitments to those nonces as the toss
	// relayed them before the reveal, one a seat, zero for a seat
	// that sent none: a spectator, who takes no part in the toss, checks
	// the nonces against them at the end.
	Commits [][32]byte
	// Paused is a game the host has paused: its clocks stand still
	// and it takes no move until the host goes on. A host elected later
	// starts unpaused.
	Paused bool
	// Blind is a game dealt blind (2.2): the host sends the seats no
	// view and no event, only its log (BlindLog), and sees no card.
	Blind bool `protocol:"optional"`
}

// Evening is a table's running score across the games at the same seats.
type Evening struct {
	Games int
	Last  [32]byte // the commitment of the last game counted
	Lines []EveningLine
}

// EveningLine is one player's line of the evening.
type EveningLine struct {
	Key    string // "peer:ID" for a person, "bot:SEAT:NAME" for a bot, "seat:SEAT"
	Name   string
	Bot    string
	Games  int
	Wins   int
	Halves int   // points, in halves
	Places []int // the places of the last games, oldest first
}

// Leave says the sender leaves the table.
type Leave struct{}

// ---- Moves ----
//
// Every move names the play it is about (No) so the host can refuse a move
// made on a stale view, and the seat it is for (the host checks it against
// the sender). A move carries Sig, the seat's own
// signature of what the table sees of it (node/gamewire: movesig.go); the
// host checks it and keeps it in its journal as the seat's word.

// Play puts Cards face down. No is the number of the last play the player
// saw (kept in the journal: the seat's signature names it).
type Play struct {
	No    int
	Seat  int
	Cards []Card
	Claim int    // cards claimed; 0 means as many as placed
	Rank  int8   // the rank claimed (V1, V4, V15); NoRank for the required one
	Sig   []byte // the seat's signature of the move
}

// Call calls "Bullshit!" on play No.
type Call struct {
	No   int
	Seat int
	Sig  []byte // the seat's signature of the move
}

// Pass lets play No go.
type Pass struct {
	No   int
	Seat int
	Sig  []byte // the seat's signature of the move
}

// Give hands a card over after catching a sneak (V14).
type Give struct {
	No    int
	Seat  int
	Cards []Card
	Sig   []byte // the seat's signature of the move
}

// Quads lays a true four of a kind out of the game (V9).
type Quads struct {
	No    int
	Seat  int
	Cards []Card
	Sig   []byte // the seat's signature of the move
}

// Doubt doubts play No (V15).
type Doubt struct {
	No   int
	Seat int
	Sig  []byte // the seat's signature of the move
}

// Believe believes play No (V15).
type Believe struct {
	No   int
	Seat int
	Sig  []byte // the seat's signature of the move
}

// Skip skips after play No (V15).
type Skip struct {
	No   int
	Seat int
	Sig  []byte // the seat's signature of the move
}

// ---- The host's answers ----

// Update is what one seat (or spectator) learns from one step of the game:
// the events it may see, in order, and its view afterwards. The host decides
// the audience; nothing here says who else got what.
type Update struct {
	Events     []Event
	View       *View  // nil when only events changed
	Notice     string // table news: "Host left; Ada is now hosting"
	AtMS       int64  // the host's clock when sent, since the deal
	DeadlineMS int64  // when the open window or hand-over closes; 0 for none
	Backlog    bool   // Events are every event sent so far (after a reconnection), for the audit
	// The host's journal, as this seat may know it: every step since the
	// last update, its hidden cards left out, and this seat's threshold
	// shares of them, so that the players together can rebuild the table
	// if the host vanishes (node: election.go).
	Steps  []Step
	Shares []StepShare
}

// StepShare is one seat's Shamir share of a secret of the host's: the
// hidden cards of step Step, or, for Step -1, the deal's seed and salt. K
// is the threshold, every player node but the host's.
type StepShare struct {
	Step int
	X    uint8
	Y    []byte
	K    uint8
}

// Count is a hand or pile size: exact when Hi == Lo, a range when Hi > Lo,
// and "Lo or more" when Hi == -1 (V14's rough counts).
type Count struct {
	Lo int16
	Hi int16
}

// View is what one seat sees (R15), as in REFEREE.md. Times are ms since the
// game started.
type View struct {
	Seat   int    // -1 for a spectator
	Phase  string // play, call, give, over
	Turn   int
	Rank   int8   // the rank the next play must claim; NoRank when free
	Ranks  []int8 // the ranks allowed under a near sequence (V4)
	No     int    // the last play, 0 before any
	Hand   []Card
	Hands  []Count
	Pile   Count
	Last   *Last
	Window *Window
	NowMS  int64
	Winner int   // -1 for none
	Places []int // at the end, each seat's place
	Give   *Owed
	Round  *Round // V15
	Out    int    // cards out of the game (V9, V15)
	Stats  []Stats
	Placed []int  // each seat's place once out (V8, V15), 0 while in
	Seen   []Card // cards out of the game that were shown face up
	Cap    int    // the most cards a claim may hold
	Final  *Final // every card, once the game is over
}

// Final is every card at the end of the game, when all may be shown.
type Final struct {
	Hands [][]Card
	Pile  []Card
	Gone  []Card
}

// Last is the last play as a seat sees it.
type Last struct {
	Seat   int
	Rank   int8
	Claim  int
	No     int
	Out    bool   // the play emptied the hand
	Cards  []Card // only when turned up, or the viewer's own play
	Sizes  Sizes
	Shown  bool // a call turned it up
	Caller int  // who called it, -1 for nobody
}

// Sizes are the sizes around a play.
type Sizes struct {
	HandBefore Count
	HandAfter  Count
	PileBefore Count
	PileAfter  Count
}

// Window is an open call window.
type Window struct {
	No       int
	ClosesMS int64
	Passed   []int // seats that let it go
	Callers  []int // seats that may still call
}

// Owed is a pending hand-over after a caught sneak (V14).
type Owed struct {
	From     int
	To       int
	Count    int
	ClosesMS int64
}

// Round is the current V15 round.
type Round struct {
	Rank    int8
	Cards   Count
	Starter int
	Skips   int
}

// Stats are one seat's running figures.
type Stats struct {
	Calls   int
	Right   int
	Lies    int // lies of this seat's that were caught
	Caught  int // sneaks of this seat's that were caught
	Sneaks  int // -1 when unknown to the viewer
	Pickups int
}

// Event is one thing that happened, as the engine reports it (REFEREE.md's
// events without "to"). Fields a type does not use are zero.
type Event struct {
	Type    string // deal, play, call, reveal, take, stand, give, win, over …
	Seat    int
	Target  int
	No      int
	Rank    int8
	Claim   int
	Out     bool
	Truth   bool
	Sneaked int
	Count   Count
	Cards   []Card
	Places  []int
	Auto    bool     // a hand-over the clock chose
	Place   int      // out: the place taken
	Sizes   Sizes    // play: the hand and pile before and after
	Counts  []Count  // deal: every hand's size
	Hands   [][]Card // over: every hand
}

// Refusal is the host's "no", to a move or to a join. Ref is the sequence
// number of the refused message.
type Refusal struct {
	Code    string // one of the Code… constants
	Message string // a sentence a player can read
	Ref     uint64
}

// Refusal codes: the engine's (REFEREE.md's, and the blind game's two) and
// the host's own for joining.
const (
	CodeBadCommand    = "bad_command"
	CodeBadCard       = "bad_card"
	CodeBadSeat       = "bad_seat"
	CodeNotYourTurn   = "not_your_turn"
	CodeNotInHand     = "not_in_hand"
	CodeBadCount      = "bad_count"
	CodeBadRank       = "bad_rank"
	CodeNoWindow      = "no_window"
	CodeTooLate       = "too_late"
	CodeOwnPlay       = "own_play"
	CodeAlreadyPassed = "already_passed"
	CodeNotAllowed    = "not_allowed"
	CodeGameOver      = "game_over"

	// The game over hidden cards' two (engine.Blind; not in REFEREE.md,
	// whose engine sees every card): a proven input is due first, and an
	// opening that isn't the cards asked for.
	CodeWaiting    = "waiting"
	CodeBadOpening = "bad_opening"

	CodeTableFull = "table_full"
	CodeStarted   = "started"
	CodeVersion   = "version"
	CodeBadCode   = "bad_code"
	CodeBadName   = "bad_name" // a nickname or name out of bounds (CheckNick), or one alike a name at the table
	CodeNotHost   = "not-host" // a node's web entry, asked for a table it doesn't host
)

// ---- Liveness, election and hand-over ----
//
// The envelope carries the sender's current term. Term inside these bodies
// is the term the message is about, which during an election is the next
// one.

// Heartbeat says its sender is alive; the host's says its last play and
// its clock (a player's is zero).
type Heartbeat struct {
	No    int
	NowMS int64 // since the game started
}

// StateRequest asks a peer for what it holds of the game, for the host
// of the envelope's term.
type StateRequest struct{}

// State answers a StateRequest, in the envelope of the term it was asked
// for.
type State struct {
	Steps  []Step      // the public journal the sender holds
	Shares []StepShare // the sender's shares of the hidden parts
	// Logs, at a blind table (2.2), are the last BlindLog envelopes the
	// sender took from the host that vanished, as they came (signed by
	// it): a new host whose own record ends sooner goes on from the
	// longest, so that no node's game runs ahead of the table's.
	Logs [][]byte `protocol:"optional"`
}

// ---- Fair play ----

// Audit reveals, at the end, what the Lobby's Commit bound (the host's
// commitment to the deal's seed: gamewire.Commit) and every card that stayed
// face down, so every peer can replay the game and check the host.
type Audit struct {
	Seed   uint64
	Salt   []byte
	Hidden []Hidden
	Steps  []Step // every accepted command with its time, cards and all
	Part   int    // this message's part, from 0: a long game's log comes in parts
	Parts  int
}

// Toss asks a seated player for its part of the deal's seed. Round
// is the host's Commit to its own seed, made before it asks. Without
// Commits it asks for a commitment to a fresh nonce (NonceCommit); with
// them (every seat's, zero for a seat that sent none in time, the
// recipient's among them) it asks for the nonce itself (NonceReveal).
type Toss struct {
	Round   [32]byte
	Commits [][32]byte
}

// NonceCommit is a seat's commitment to its nonce for the toss Round:
// gamewire.NonceHash(Round, seat, nonce).
type NonceCommit struct {
	Round [32]byte
	Hash  [32]byte
}

// NonceReveal is a seat's nonce, sent once it has seen every commitment.
// The host refuses one that doesn't match the seat's commitment.
type NonceReveal struct {
	Round [32]byte
	Nonce [32]byte
}

// Step is one accepted command (or, with Tick, the clock moving) at AtNS
// nanoseconds since the deal: a line of the host's journal. It keeps the
// engine's clock to the nanosecond, as the signed chain and a replay do.
type Step struct {
	AtNS   int64
	Tick   bool
	Move   uint8
	Seat   int
	Cards  []Card
	Claim  int
	Rank   int8
	No     int
	Hidden int // in a public journal: how many cards were left out
	// The host's signed chain (node/gamewire:
	// chain.go). Term is the host term that recorded the step, Seal a
	// commitment to its hidden cards (none when it hides none), and Sig,
	// when set, the signature of that term's host over the chain's hash
	// at this step, which vouches for every step before it too.
	Term uint64
	Seal []byte
	Sig  []byte
	// Mark is the seat's own signature of its move, as the host got it
	// (node/gamewire: movesig.go); none on a tick, a bot's
	// move, or one the host made for an away or timed-out person.
	Mark []byte
}

// Hidden are the face-down cards of play No.
type Hidden struct {
	No    int
	Cards []Card
}

func (Hello) Type() Type        { return TypeHello }
func (Challenge) Type() Type    { return TypeChallenge }
func (Seated) Type() Type       { return TypeSeated }
func (Lobby) Type() Type        { return TypeLobby }
func (Leave) Type() Type        { return TypeLeave }
func (Play) Type() Type         { return TypePlay }
func (Call) Type() Type         { return TypeCall }
func (Pass) Type() Type         { return TypePass }
func (Give) Type() Type         { return TypeGive }
func (Quads) Type() Type        { return TypeQuads }
func (Doubt) Type() Type        { return TypeDoubt }
func (Believe) Type() Type      { return TypeBelieve }
func (Skip) Type() Type         { return TypeSkip }
func (Update) Type() Type       { return TypeUpdate }
func (Refusal) Type() Type      { return TypeRefusal }
func (Heartbeat) Type() Type    { return TypeHeartbeat }
func (StateRequest) Type() Type { return TypeStateRequest }
func (State) Type() Type        { return TypeState }
func (Audit) Type() Type        { return TypeAudit }
func (Toss) Type() Type         { return TypeToss }
func (NonceCommit) Type() Type  { return TypeNonceCommit }
func (NonceReveal) Type() Type  { return TypeNonceReveal }

// A Move is a seat's move message. It carries the seat's own
// signature of the move (Sig; node/gamewire: movesig.go).
type Move interface {
	Message
	MoveSig() []byte
	// WithSig is the move carrying sig.
	WithSig(sig []byte) Move
}

func (m Play) MoveSig() []byte    { return m.Sig }
func (m Call) MoveSig() []byte    { return m.Sig }
func (m Pass) MoveSig() []byte    { return m.Sig }
func (m Give) MoveSig() []byte    { return m.Sig }
func (m Quads) MoveSig() []byte   { return m.Sig }
func (m Doubt) MoveSig() []byte   { return m.Sig }
func (m Believe) MoveSig() []byte { return m.Sig }
func (m Skip) MoveSig() []byte    { return m.Sig }

func (m Play) WithSig(sig []byte) Move    { m.Sig = sig; return m }
func (m Call) WithSig(sig []byte) Move    { m.Sig = sig; return m }
func (m Pass) WithSig(sig []byte) Move    { m.Sig = sig; return m }
func (m Give) WithSig(sig []byte) Move    { m.Sig = sig; return m }
func (m Quads) WithSig(sig []byte) Move   { m.Sig = sig; return m }
func (m Doubt) WithSig(sig []byte) Move   { m.Sig = sig; return m }
func (m Believe) WithSig(sig []byte) Move { m.Sig = sig; return m }
func (m Skip) WithSig(sig []byte) Move    { m.Sig = sig; return m }

// catalog maps each type to its Go type and compiled schema. It is filled
// once at init and only read after.
var catalog [256]*entry

type entry struct {
	name string
	typ  reflect.Type
	s    *schema
}

func init() {
	for _, m := range []Message{
		Hello{}, Challenge{}, Seated{}, Lobby{}, Leave{},
		Play{}, Call{}, Pass{}, Give{}, Quads{}, Doubt{}, Believe{}, Skip{},
		Update{}, Refusal{},
		Heartbeat{}, StateRequest{}, State{},
		Audit{},
		Toss{}, NonceCommit{}, NonceReveal{},
		DeckKey{}, DeckSplit{}, DeckShuffle{}, DeckDeal{}, DeckOpen{}, DeckHandover{}, DeckRecover{}, DeckPool{}, DeckPublish{},
		BlindDeal{}, BlindLog{}, BlindMove{},
	} {
		t := reflect.TypeOf(m)
		if catalog[m.Type()] != nil {
			panic("protocol: type number used twice: " + t.Name())
		}
		catalog[m.Type()] = &entry{name: t.Name(), typ: t, s: compile(t)}
	}
}

// Types lists every type in the catalog, in number order.
func Types() []Type {
	var ts []Type
	for i, e := range catalog {
		if e != nil {
			ts = append(ts, Type(i))
		}
	}
	return ts
}

// Known says whether t is in this version's catalog.
func (t Type) Known() bool { return catalog[t] != nil }

func (t Type) String() string {
	if e := catalog[t]; e != nil {
		return e.name
	}
	return "Type(" + strconv.Itoa(int(t)) + ")"
}
