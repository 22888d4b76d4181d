package mentaltable

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"slices"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/bot"
	"github.com/bullshit-game/bullshit/protocol"
	"github.com/bullshit-game/bullshit/protocol/mental"
)

// Public is the table's public record. Every node keeps its own, built
// from the same messages in the same order (record).
type Public struct {
	Ctx     []byte // the game: every share's and seal's context
	Table   []byte // the table, for the key contexts
	CB      *mental.Codebook
	Keys    []mental.PublicKey
	Joint   mental.PublicKey
	Initial mental.Deck
	Steps   []mental.ShuffleStep
	Deck    mental.Deck // the last shuffle's: handle h is Deck[h]
	Holder  []int       // seat → the party that plays it
	Dealt   []int       // handle → the party it was dealt to
	Commits []mental.RecoveryCommit
}

// KeyCtx is what party i's key proof is bound to: the table, the game and
// (at a real table) its peer ID.
func (t *Public) KeyCtx(i int) []byte {
	return fmt.Appendf(nil, "%s / %s / party %d", t.Table, t.Ctx, i)
}

// newPublic is a node's record before any message: the codebook, the
// initial deck, who plays each seat and which party each handle is dealt
// to (the blind engine's deal, public: every node computes it).
func newPublic(cb *mental.Codebook, table, game []byte, holder []int, hands [][]engine.Handle) *Public {
	t := &Public{Ctx: game, Table: table, CB: cb, Initial: cb.Deck(), Holder: slices.Clone(holder)}
	t.Dealt = make([]int, cb.Len())
	for s, hs := range hands {
		for _, h := range hs {
			t.Dealt[h] = holder[s]
		}
	}
	return t
}

// A Watcher is what a node with no secret holds, the host or a spectator:
// a copy of the host (the host itself for the host), its record.
type Watcher struct {
	h   *Host
	rec *record
}

// Known is every identity the watcher saw proved.
func (w *Watcher) Known() map[engine.Handle]mental.Face {
	out := map[engine.Handle]mental.Face{}
	for h, f := range w.rec.known {
		out[h] = f
	}
	return out
}

// Decryptable is every card the shares it saw turn up.
func (w *Watcher) Decryptable() map[engine.Handle]mental.Face {
	out := map[engine.Handle]mental.Face{}
	for h := range w.rec.T.Deck {
		use, err := w.rec.sharesOf(engine.Handle(h))
		if err != nil {
			continue
		}
		if f, err := w.rec.T.CB.Reveal(&w.rec.T.Deck[h], use); err == nil {
			out[engine.Handle(h)] = f
		}
	}
	return out
}

// Config is a mental table: its rules and seats, which party plays each
// seat (nil: party i plays seat i), and where each party's randomness
// comes from (crypto/rand at a real table; seeded in tests).
type Config struct {
	Rules  engine.Rules
	Seats  int
	Seed   uint64 // the engine's seed (dealer, V10's random start) and the bots'
	Holder []int
	Rand   func(party int) io.Reader
	Table  []byte
	Game   []byte
	// Tamper is the Driver's Tamper from the start (the keys and the
	// recovery split are sent inside New).
	Tamper func(m any)
}

// Driver is a blind table in one process: the Host, a Node per party, a
// spectator, and the wire between them, which carries every message
// through the protocol's encoding in the order the host relays it.
type Driver struct {
	T         *Public // the host's record
	H         *Host
	Nodes     []*Node
	Parties   []*Party
	Host      *Watcher
	Spectator *Watcher
	B         *engine.Blind
	// Tamper, if set, sees every party's message (a pointer to it) before
	// the host gets it and may change it: the dishonest parties of the
	// tests.
	Tamper func(m any)
	// Silent, if set, is asked of each party's answer to an ask; true
	// drops it (a node that doesn't open, say).
	Silent func(party int, m protocol.Message) bool
	// OnEvents, if set, sees the blind engine's events of each step
	// (after the handovers they call for).
	OnEvents func([]engine.BlindEvent)
	// Record is the harness's account of what happened that a reader
	// would not guess: departures, successors, what they learned.
	Record []string
	// BeforeHost, if set, runs before the host takes each party's
	// message: the failover tests' moment.
	BeforeHost func() error
	// Caught is every message the host refused while the table went on
	// (a false opening, turned up through the recovery instead).
	Caught []error
	// Received is every event each seat was shown, [0] a spectator's, for
	// the audit.
	Received [][]engine.Event
	// Wire is how many messages crossed the wire, and their bytes.
	Wire, WireBytes int
	// Clock, if set, times each node's and the host's work on the wire:
	// Cost[i] is party i's node's, HostCost the host's (the benchmarks').
	Clock    func() time.Duration
	Cost     []time.Duration
	HostCost time.Duration

	relayed int // the host's inputs given to the nodes
	table   *Table
	rules   engine.Rules
	rng     *rand.Rand
	now     time.Duration
	actions int
	events  []engine.BlindEvent // shown once the wire is quiet
	over    []engine.BlindEvent // the over event, cleared at the end
	picks   []Ask
}

// A Table is what every node of a blind table agrees on before the first
// message: the rules and seats, the engine's seed (the toss's), which
// party plays each seat, and the table's and the game's names, which
// every proof and seal is bound to.
type Table struct {
	Rules  engine.Rules
	Seats  int
	Seed   uint64
	Holder []int // seat → party; nil: party i plays seat i
	Table  []byte
	Game   []byte
	cb     *mental.Codebook
	hands  [][]engine.Handle
}

// Check fills in what follows from the table (the deal by handle, the
// codebook) and refuses a table that can't be played.
func (t *Table) Check() error {
	if err := t.Rules.Check(t.Seats); err != nil {
		return err
	}
	if t.Holder == nil {
		t.Holder = make([]int, t.Seats)
		for s := range t.Holder {
			t.Holder[s] = s
		}
	}
	if len(t.Holder) != t.Seats {
		return fmt.Errorf("mentaltable: %d holders for %d seats", len(t.Holder), t.Seats)
	}
	n := slices.Max(t.Holder) + 1
	if n < 2 {
		return fmt.Errorf("mentaltable: a table of %d party", n)
	}
	for i := range n {
		if !slices.Contains(t.Holder, i) {
			return fmt.Errorf("mentaltable: party %d plays no seat", i)
		}
	}
	cb, err := mental.NewCodebook(t.Rules.DecksFor(t.Seats), t.Rules.Jokers)
	if err != nil {
		return err
	}
	b, _, err := engine.NewBlind(engine.BlindConfig{Rules: t.Rules, Seats: t.Seats, Seed: t.Seed})
	if err != nil {
		return err
	}
	t.cb, t.hands = cb, make([][]engine.Handle, t.Seats)
	for s := range t.hands {
		t.hands[s] = b.Hand(s)
	}
	return nil
}

// Parties is how many parties the table has.
func (t *Table) Parties() int { return slices.Max(t.Holder) + 1 }

func (t *Table) public() *Public { return newPublic(t.cb, t.Table, t.Game, t.Holder, t.hands) }

// NewHost is the host of table t (checked).
func NewHost(t *Table) (*Host, error) {
	if t.cb == nil {
		return nil, fmt.Errorf("mentaltable: an unchecked table")
	}
	return t.host(true)
}

// host is a host of t: strict, the table's own, checks every share as it
// comes; a node's copy checks the shares it uses.
func (t *Table) host(strict bool) (*Host, error) {
	b, ev, err := engine.NewBlind(engine.BlindConfig{Rules: t.Rules, Seats: t.Seats, Seed: t.Seed})
	if err != nil {
		return nil, err
	}
	return newHost(t.public(), b, ev, strict), nil
}

// NewSpectator is a copy of the host of table t with no secret: what a
// spectator holds. It takes the host's inputs (Input).
func NewSpectator(t *Table) (*Watcher, error) {
	h, err := t.host(false)
	if err != nil {
		return nil, err
	}
	return &Watcher{h, h.rec}, nil
}

// NewNode is party i of table t: a fresh deck secret from rand (which it
// keeps for every draw of the game), and the bot of each of its seats
// from bots (nil: seats played by people, whose commands come in as
// Command's).
func NewNode(t *Table, i int, rand io.Reader, bots func(seat int) (bot.Player, error)) (*Node, error) {
	if t.cb == nil {
		return nil, fmt.Errorf("mentaltable: an unchecked table")
	}
	if i < 0 || i >= t.Parties() {
		return nil, fmt.Errorf("mentaltable: party %d of %d", i, t.Parties())
	}
	x, err := mental.NewSecret(rand)
	if err != nil {
		return nil, err
	}
	h, err := t.host(false)
	if err != nil {
		return nil, err
	}
	rec := h.rec
	p := &Party{Index: i, x: x, rand: rand, t: rec.T, rec: rec, known: map[engine.Handle]mental.Face{}, sides: map[int]*engine.SeatSide{},
		bots: map[int]bot.Player{}, subs: map[int]mental.SubShare{}, pooled: map[int][]mental.SubShare{}, rebuilt: map[int]mental.Secret{}}
	for s, h := range t.Holder {
		if h != i {
			continue
		}
		p.seats = append(p.seats, s)
		if bots != nil {
			b, err := bots(s)
			if err != nil {
				return nil, err
			}
			p.bots[s] = b
		}
	}
	return p.node(h, t.Rules, t.hands), nil
}

// New sets the table up: the host, the nodes and their bots. Nothing
// crosses the wire until Shuffle.
func New(cfg Config) (*Driver, error) {
	t := &Table{Rules: cfg.Rules, Seats: cfg.Seats, Seed: cfg.Seed, Holder: cfg.Holder, Table: cfg.Table, Game: cfg.Game}
	if err := t.Check(); err != nil {
		return nil, err
	}
	d := &Driver{table: t, rules: cfg.Rules, rng: rand.New(rand.NewPCG(cfg.Seed, 25)),
		Received: make([][]engine.Event, cfg.Seats+1), Tamper: cfg.Tamper}
	h, err := NewHost(t)
	if err != nil {
		return nil, err
	}
	d.H, d.T, d.B = h, h.rec.T, h.B
	d.Host = &Watcher{h, h.rec}
	if d.Spectator, err = NewSpectator(t); err != nil {
		return nil, err
	}
	// Every seat's bot, in seat order, on its party's side.
	bots := make([]bot.Player, cfg.Seats)
	for s := range bots {
		if bots[s], err = d.newBot(s); err != nil {
			return nil, err
		}
	}
	for i := range t.Parties() {
		nd, err := NewNode(t, i, cfg.Rand(i), func(s int) (bot.Player, error) { return bots[s], nil })
		if err != nil {
			return nil, err
		}
		d.Nodes = append(d.Nodes, nd)
		d.Parties = append(d.Parties, nd.Party)
	}
	return d, nil
}

func (d *Driver) newBot(seat int) (bot.Player, error) {
	return bot.New(bot.Names[d.rng.IntN(len(bot.Names))], seat, d.rng.Uint64())
}

func (d *Driver) clock() time.Duration {
	if d.Clock == nil {
		return 0
	}
	return d.Clock()
}

func (d *Driver) cost(party int, since time.Duration) {
	if d.Clock == nil {
		return
	}
	if d.Cost == nil {
		d.Cost = make([]time.Duration, len(d.Nodes))
	}
	d.Cost[party] += d.Clock() - since
}

// Failover replaces the host by a new one built from its log alone, as a
// node taking the table over does: the record and the game replayed, no
// secret and no hidden card relayed. Messages on their way go to the new
// host.
func (d *Driver) Failover() error {
	h, err := Replay(d.table, d.H.Log())
	if err != nil {
		return err
	}
	h.Bound = d.H.Bound
	d.H, d.B, d.T, d.Host = h, h.B, h.rec.T, &Watcher{h, h.rec}
	return nil
}

// A wire is a party's message on its way to the host.
type wire struct {
	from int
	msg  protocol.Message
}

func (d *Driver) queue(q []wire, from int, ms []protocol.Message) []wire {
	for _, m := range ms {
		if d.Silent != nil && d.Silent(from, m) {
			continue
		}
		q = append(q, wire{from, m})
	}
	return q
}

// send is the wire: the one place a cheat can bend a message. The
// message crosses as the protocol encodes it.
func (d *Driver) send(m protocol.Message) (protocol.Message, error) {
	if d.Tamper != nil {
		p := reflect.New(reflect.TypeOf(m))
		p.Elem().Set(reflect.ValueOf(m))
		d.Tamper(p.Interface())
		m = p.Elem().Interface().(protocol.Message)
	}
	b, err := protocol.Encode(m)
	if err != nil {
		return nil, err
	}
	d.Wire++
	d.WireBytes += len(b)
	return protocol.Decode(m.Type(), b)
}

// pump carries messages to the host, and each input the host takes to
// every node's copy of it and the spectator's, with the nodes' answers,
// until the wire is quiet; then it shows each seat its events.
func (d *Driver) pump(q []wire) error {
	var err error
	if q, err = d.relay(q); err != nil {
		return err
	}
	for len(q) > 0 {
		w := q[0]
		q = q[1:]
		m, err := d.send(w.msg)
		if err != nil {
			return err
		}
		if d.BeforeHost != nil {
			if err := d.BeforeHost(); err != nil {
				return err
			}
		}
		t0 := d.clock()
		out, err := d.H.Take(w.from, m)
		d.HostCost += d.clock() - t0
		if err != nil {
			if _, blamed := mental.Blame(err); !blamed && errors.Is(err, mental.ErrNotACard) {
				return d.void(w.from, err)
			}
			return err
		}
		d.took(out)
		if q, err = d.relay(q); err != nil {
			return err
		}
	}
	return d.show()
}

// took keeps what a host step says beside its log: its events for
// OnEvents, a false opening it caught, a pick it needs.
func (d *Driver) took(out Out) {
	d.events = append(d.events, out.Events...)
	if out.Caught != nil {
		d.Caught = append(d.Caught, out.Caught)
	}
	for _, a := range out.Asks {
		if a.What == AskPick {
			d.picks = append(d.picks, a)
		}
	}
}

// relay gives every node's copy of the host (and the spectator's) the
// inputs the host took since the last relay, in order, and queues the
// nodes' answers.
func (d *Driver) relay(q []wire) ([]wire, error) {
	log := d.H.log
	for ; d.relayed < len(log); d.relayed++ {
		in := log[d.relayed]
		out, err := d.Spectator.h.Input(in)
		if err != nil {
			return q, fmt.Errorf("mentaltable: the spectator refused the host's input: %w", err)
		}
		for _, e := range out.Events {
			if e.VisibleTo(-1) {
				d.seen(Shown{Seat: -1, Event: e.Event, Blind: e})
			}
		}
		for _, nd := range d.Nodes {
			t0 := d.clock()
			ms, err := nd.Input(in)
			d.cost(nd.Index, t0)
			if err != nil {
				if _, blamed := mental.Blame(err); !blamed && errors.Is(err, mental.ErrNotACard) {
					return q, d.void(nd.Index, err)
				}
				return q, err
			}
			q = d.queue(q, nd.Index, ms)
		}
	}
	return q, nil
}

// seen records an event a seat was shown (an over event without its
// cards until the end).
func (d *Driver) seen(sh Shown) {
	if sh.Blind.Type == engine.EventOver {
		d.over = append(d.over, sh.Blind)
		sh.Event = engine.Event{Type: engine.EventOver}
	}
	d.Received[sh.Seat+1] = append(d.Received[sh.Seat+1], sh.Event)
}

// Shuffle starts the table: each node sends its key, and from there the
// recovery split, the shuffle in party order and the deal follow by
// themselves, each node answering what its record makes due, until every
// seat knows its hand and V10's first card is shown.
func (d *Driver) Shuffle() error {
	var q []wire
	for _, nd := range d.Nodes {
		t0 := d.clock()
		ms, err := nd.Start()
		d.cost(nd.Index, t0)
		if err != nil {
			return err
		}
		q = d.queue(q, nd.Index, ms)
	}
	if err := d.pump(q); err != nil {
		return err
	}
	if !d.H.rec.shuffled() {
		return fmt.Errorf("mentaltable: the shuffle waits for parties %v", d.H.Waiting())
	}
	return nil
}

// Deal reports whether every seat was dealt and V10's first card shown.
func (d *Driver) Deal() error {
	if !d.H.started {
		return fmt.Errorf("mentaltable: the deal waits for parties %v", d.H.Waiting())
	}
	return nil
}

// void is a card that turned up as no card (every share being right): a
// shuffler substituted it. The game is void; every party opens its
// shuffle now, and the check names the one that cheated.
func (d *Driver) void(who int, cause error) error {
	opens := make([]mental.ShuffleOpening, len(d.Parties))
	for i, p := range d.Parties {
		m := protocol.DeckPublish{From: i, Of: i}
		m.Shuffle, _ = p.shuf.MarshalBinary()
		sent, err := d.send(m)
		if err != nil {
			return err
		}
		if err := opens[i].UnmarshalBinary(sent.(protocol.DeckPublish).Shuffle); err != nil {
			return fault(i, err, "shuffle opening")
		}
	}
	if err := mental.CheckShuffles(&d.T.Joint, d.T.Initial, d.T.Steps, opens, d.T.Ctx); err != nil {
		return fmt.Errorf("mentaltable: party %d's hand: %v; the shuffles opened: %w", who, cause, err)
	}
	return fmt.Errorf("mentaltable: party %d's hand: %w, yet every shuffle checks", who, cause)
}
