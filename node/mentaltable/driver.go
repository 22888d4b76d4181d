package mentaltable

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/bot"
	"github.com/bullshit-game/bullshit/protocol/mental"
)

// Public is the table's public record, the same at every node: each
// checks the same messages in the same order (in one process it is kept
// once).
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

// A Watcher holds what is public and no secret: the host, the spectator.
// shares[h] is every share of h it saw broadcast.
type Watcher struct {
	t      *Public
	shares [][]mental.Share
	known  map[engine.Handle]mental.Face
}

func newWatcher(t *Public) *Watcher {
	return &Watcher{t: t, known: map[engine.Handle]mental.Face{}}
}

func (w *Watcher) put(h engine.Handle, sh ...mental.Share) {
	w.shares[h] = append(w.shares[h], sh...)
}

// Known is every identity the watcher saw proved.
func (w *Watcher) Known() map[engine.Handle]mental.Face {
	out := map[engine.Handle]mental.Face{}
	for h, f := range w.known {
		out[h] = f
	}
	return out
}

// Decryptable is every card the shares it saw turn up.
func (w *Watcher) Decryptable() map[engine.Handle]mental.Face {
	out := map[engine.Handle]mental.Face{}
	for h := range w.t.Deck {
		if f, err := w.t.CB.Reveal(&w.t.Deck[h], w.shares[h]); err == nil {
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

// Driver is the table in one process: the parties, the host running the
// blind engine, a spectator, and the wire between them.
type Driver struct {
	T         *Public
	Parties   []*Party
	Host      *Watcher
	Spectator *Watcher
	B         *engine.Blind
	// Tamper, if set, sees every message before it is delivered and may
	// change it: the dishonest parties of the tests.
	Tamper func(m any)
	// OnEvents, if set, sees the blind engine's events of each step
	// (after the handovers they call for).
	OnEvents func([]engine.BlindEvent)
	// Record is the harness's account of what happened that a reader
	// would not guess: departures, successors, what they learned.
	Record []string
	// Received is every event each seat was shown, [0] a spectator's, for
	// the audit.
	Received [][]engine.Event

	rules    engine.Rules
	rng      *rand.Rand
	now      time.Duration
	over     []engine.BlindEvent // the over event, cleared at the end
	playedBy map[engine.Handle]int
	sealed   []Handover // every handover, as broadcast
	actions  int
	pending  []engine.BlindEvent // the deal's, until the hands are learned
}

// New sets the table up: keys, proofs, the joint key, and each party's
// recovery split. It does not shuffle (Shuffle) or deal (Deal).
func New(cfg Config) (*Driver, error) {
	if err := cfg.Rules.Check(cfg.Seats); err != nil {
		return nil, err
	}
	holder := cfg.Holder
	if holder == nil {
		holder = make([]int, cfg.Seats)
		for s := range holder {
			holder[s] = s
		}
	}
	if len(holder) != cfg.Seats {
		return nil, fmt.Errorf("mentaltable: %d holders for %d seats", len(holder), cfg.Seats)
	}
	n := slices.Max(holder) + 1
	if n < 2 {
		return nil, fmt.Errorf("mentaltable: a table of %d party", n)
	}
	cb, err := mental.NewCodebook(cfg.Rules.DecksFor(cfg.Seats), cfg.Rules.Jokers)
	if err != nil {
		return nil, err
	}
	t := &Public{Ctx: cfg.Game, Table: cfg.Table, CB: cb, Holder: slices.Clone(holder)}
	d := &Driver{T: t, rules: cfg.Rules, rng: rand.New(rand.NewPCG(cfg.Seed, 25)), playedBy: map[engine.Handle]int{},
		Received: make([][]engine.Event, cfg.Seats+1), Tamper: cfg.Tamper}
	d.Host, d.Spectator = newWatcher(t), newWatcher(t)
	for i := range n {
		r := cfg.Rand(i)
		x, err := mental.NewSecret(r)
		if err != nil {
			return nil, err
		}
		p := &Party{Index: i, x: x, rand: r, t: t, known: map[engine.Handle]mental.Face{}, sides: map[int]*engine.SeatSide{},
			bots: map[int]bot.Player{}, subs: map[int]mental.SubShare{}, pooled: map[int][]mental.SubShare{}, rebuilt: map[int]mental.Secret{}}
		for s, h := range holder {
			if h == i {
				p.seats = append(p.seats, s)
			}
		}
		if len(p.seats) == 0 {
			return nil, fmt.Errorf("mentaltable: party %d plays no seat", i)
		}
		d.Parties = append(d.Parties, p)
	}
	// Every seat's bot, on its party's side.
	for s, h := range holder {
		b, err := bot.New(bot.Names[d.rng.IntN(len(bot.Names))], s, d.rng.Uint64())
		if err != nil {
			return nil, err
		}
		d.Parties[h].bots[s] = b
	}
	if err := d.keys(); err != nil {
		return nil, err
	}
	if err := d.recoverySplit(); err != nil {
		return nil, err
	}
	b, ev, err := engine.NewBlind(engine.BlindConfig{Rules: cfg.Rules, Seats: cfg.Seats, Seed: cfg.Seed})
	if err != nil {
		return nil, err
	}
	d.B, d.pending = b, ev
	return d, nil
}

func (d *Driver) send(m any) { // the wire: the one place a cheat can bend a message
	if d.Tamper != nil {
		d.Tamper(m)
	}
}

func (d *Driver) keys() error {
	n := len(d.Parties)
	keys := make([]mental.PublicKey, n)
	proofs := make([]mental.KeyProof, n)
	ctxs := make([][]byte, n)
	for i, p := range d.Parties {
		m, err := p.keyMsg()
		if err != nil {
			return err
		}
		d.send(&m)
		if err := keys[i].UnmarshalBinary(m.Key); err != nil {
			return fault(i, err, "deck key")
		}
		if err := proofs[i].UnmarshalBinary(m.Proof); err != nil {
			return fault(i, err, "key proof")
		}
		ctxs[i] = d.T.KeyCtx(i)
	}
	joint, err := mental.JointKey(keys, proofs, ctxs)
	if err != nil {
		return err
	}
	d.T.Keys, d.T.Joint = keys, joint
	return nil
}

// recoverySplit has each party split its secret among the others
// (threshold: every other party) and seal each its sub-share; each holder
// checks its own against the commitments.
func (d *Driver) recoverySplit() error {
	n := len(d.Parties)
	th := mental.DefaultThreshold(n)
	d.T.Commits = make([]mental.RecoveryCommit, n)
	for i, p := range d.Parties {
		rs, err := mental.Split(p.rand, &p.x, i, n, th)
		if err != nil {
			return err
		}
		m := SubShares{From: i, Sealed: make([][]byte, n)}
		m.Commit, _ = rs.Commit.MarshalBinary()
		for j := range n {
			if j == i {
				continue
			}
			b, _ := rs.Subs[j].MarshalBinary()
			s, err := mental.Seal(p.rand, &d.T.Keys[j], d.T.Ctx, b)
			if err != nil {
				return err
			}
			m.Sealed[j], _ = s.MarshalBinary()
		}
		d.send(&m)
		var rc mental.RecoveryCommit
		if err := rc.UnmarshalBinary(m.Commit); err != nil {
			return fault(i, err, "recovery commitments")
		}
		if err := rc.Check(i, &d.T.Keys[i], th); err != nil {
			return err
		}
		d.T.Commits[i] = rc
		for j, q := range d.Parties {
			if j == i {
				continue
			}
			var s mental.Sealed
			if err := s.UnmarshalBinary(m.Sealed[j]); err != nil {
				return fault(i, err, "sub-share for party %d", j)
			}
			plain, err := s.Open(&q.x, d.T.Ctx)
			if err != nil {
				return fault(i, err, "sub-share for party %d", j)
			}
			var sub mental.SubShare
			if err := sub.UnmarshalBinary(plain); err != nil {
				return fault(i, err, "sub-share for party %d", j)
			}
			if err := rc.VerifySub(i, &sub); err != nil {
				return err
			}
			q.subs[i] = sub
		}
	}
	return nil
}

// Shuffle has each party shuffle in turn; every step is checked when it
// arrives (CheckStep), the openings only at the end.
func (d *Driver) Shuffle() error {
	d.T.Initial = d.T.CB.Deck()
	in := d.T.Initial
	for i, p := range d.Parties {
		m, err := p.shuffle(in)
		if err != nil {
			return err
		}
		d.send(&m)
		var st mental.ShuffleStep
		if err := st.UnmarshalBinary(m.Step); err != nil {
			return fault(i, err, "shuffle")
		}
		if err := mental.CheckStep(i, in, &st); err != nil {
			return err
		}
		d.T.Steps = append(d.T.Steps, st)
		in = st.Out
	}
	d.T.Deck = in
	return nil
}

// Deal deals by handle: handle h goes to the seat the blind engine says,
// every party broadcasts its shares of the cards not its own, each party
// learns its hand(s), and V10's holder shows the first card.
func (d *Driver) Deal() error {
	total := d.B.Total()
	if total != len(d.T.Deck) {
		return fmt.Errorf("mentaltable: a deck of %d for a game of %d cards", len(d.T.Deck), total)
	}
	d.T.Dealt = make([]int, total)
	for s := range d.T.Holder {
		for _, h := range d.B.Hand(s) {
			d.T.Dealt[h] = d.T.Holder[s]
		}
	}
	n := len(d.Parties)
	for _, w := range []*Watcher{d.Host, d.Spectator} {
		w.shares = make([][]mental.Share, total)
	}
	for _, p := range d.Parties {
		p.shares = make([][]mental.Share, total)
		p.has = make([][]bool, total)
		for h := range total {
			p.shares[h], p.has[h] = make([]mental.Share, n), make([]bool, n)
		}
	}
	for _, p := range d.Parties {
		m, err := p.deal()
		if err != nil {
			return err
		}
		d.send(&m)
		for _, q := range d.Parties {
			if q != p {
				if err := q.take(&m); err != nil {
					return err
				}
			}
		}
		for _, w := range []*Watcher{d.Host, d.Spectator} {
			for h, b := range m.Shares {
				var sh mental.Share
				if b != nil && sh.UnmarshalBinary(b) == nil {
					w.put(engine.Handle(h), sh)
				}
			}
		}
	}
	for _, p := range d.Parties {
		if err := p.learn(); err != nil {
			if _, blamed := mental.Blame(err); !blamed && errors.Is(err, mental.ErrNotACard) {
				return d.void(p.Index, err)
			}
			return err
		}
		for _, s := range p.seats {
			var own []engine.Opened
			for _, h := range d.B.Hand(s) {
				own = append(own, engine.Opened{Handle: h, Card: engine.Card(p.known[h].Card)})
			}
			p.sides[s] = engine.NewSeatSide(s, own...)
		}
	}
	ev := d.pending
	d.pending = nil
	for {
		s, ok := d.B.Asked()
		if !ok {
			break
		}
		p := d.Parties[d.T.Holder[s]]
		op := p.sides[s].Holder(d.rules, d.B.Hand(s))
		var hs []engine.Handle
		for _, o := range op {
			hs = append(hs, o.Handle)
		}
		if len(hs) > 0 {
			os, err := d.open(p, hs, hs)
			if err != nil {
				return err
			}
			op = opened(hs, os)
		}
		more, err := d.B.Holder(s, op)
		if err != nil {
			return fmt.Errorf("mentaltable: seat %d's answer to V10: %w", s, err)
		}
		ev = append(ev, more...)
	}
	return d.deliver(ev)
}

// void is a card that turned up as no card (every share being right): a
// shuffler substituted it. The game is void; every party opens its
// shuffle now, and the check names the one that cheated.
func (d *Driver) void(who int, cause error) error {
	opens := make([]mental.ShuffleOpening, len(d.Parties))
	for i, p := range d.Parties {
		m := Publish{From: i}
		m.Shuffle, _ = p.shuf.MarshalBinary()
		d.send(&m)
		if err := opens[i].UnmarshalBinary(m.Shuffle); err != nil {
			return fault(i, err, "shuffle opening")
		}
	}
	if err := mental.CheckShuffles(&d.T.Joint, d.T.Initial, d.T.Steps, opens, d.T.Ctx); err != nil {
		return fmt.Errorf("mentaltable: party %d's hand: %v; the shuffles opened: %w", who, cause, err)
	}
	return fmt.Errorf("mentaltable: party %d's hand: %w, yet every shuffle checks", who, cause)
}
