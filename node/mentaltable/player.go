package mentaltable

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/protocol"
	"github.com/bullshit-game/bullshit/protocol/mental"
)

// A Player is one player node's side of a blind game at a networked
// table, whatever runs it (a terminal's node, the phone's page): its
// party (Node), the host's log read in order (LogReader), what each of
// its seats was shown, and at the end its audit. It is not safe for
// concurrent use: its caller serialises the host's messages and its
// person's moves.
type Player struct {
	Deal    protocol.BlindDeal
	node    *Node // nil for a node that takes no part (Watching)
	h       *Host // the node's copy of the host
	reader  *LogReader
	next    int                 // how many of the host's inputs it has taken
	wire    []protocol.LogInput // each as it came: what a new host goes on from (Wire), and what a backlog is held to
	got     map[int][]engine.Event
	over    []Shown
	picked  map[int]int
	failed  error
	result  *Result
	watched []Shown   // a watcher's copy's public events, not yet taken
	own     []int     // the seats it was dealt: what its audit covers
	adopted []int     // seats it took over from a party that left, not yet told
	keep    keeping   // for a restart (restore.go)
	terms   Terms     // as made: what a roll back to a new host's log remakes it with (rollTo)
	rand    io.Reader // likewise
}

// ErrWatching is a move from a node that takes no part in the game.
var ErrWatching = errors.New("mentaltable: this node takes no part in this game's deal: it watches")

// Terms is what a player node knows of its table before a blind deal:
// checked against the deal's terms, so that a host can't deal another
// table's game, or from a seed it didn't commit to.
type Terms struct {
	Me     protocol.PeerID
	Table  protocol.TableID
	Rules  engine.Rules
	Seats  int
	Commit [32]byte                   // the host's commitment to its part of the toss
	Nonces [][gamewire.NonceSize]byte // the players' nonces the toss mixed
	// Watch is a node that lost its part in a game under way (restarted
	// without it): it follows the game with no secret, as a spectator.
	Watch bool
}

// NewPlayer is the node's side of the blind game d dealt at the table of
// terms, its deck secret drawn from rand (crypto/rand at a real table),
// and its first messages (its deck key) for the host. A node that takes no
// part in the deal (left out of it) watches: it follows the game on its
// copy of the host, with no secret and no card (Watching).
func NewPlayer(d protocol.BlindDeal, terms Terms, rand io.Reader) (*Player, []protocol.Message, error) {
	me := slices.Index(d.Parties, terms.Me)
	if len(d.Salt) != gamewire.SaltSize {
		return nil, nil, errors.New("mentaltable: the deal's salt is malformed")
	}
	var salt [gamewire.SaltSize]byte
	copy(salt[:], d.Salt)
	if gamewire.Commit(d.HostSeed, salt) != terms.Commit {
		return nil, nil, errors.New("mentaltable: the host's seed isn't the one it committed to")
	}
	if gamewire.DealSeed(d.HostSeed, salt, terms.Nonces) != d.Seed {
		return nil, nil, errors.New("mentaltable: the deal's seed doesn't mix the toss's nonces")
	}
	if len(d.Holder) != terms.Seats || len(d.Bots) != terms.Seats {
		return nil, nil, fmt.Errorf("mentaltable: the deal names %d seats of %d", len(d.Holder), terms.Seats)
	}
	t := &Table{Rules: terms.Rules, Seats: terms.Seats, Seed: d.Seed, Holder: slices.Clone(d.Holder),
		Table: []byte(terms.Table.String()), Game: slices.Clone(d.Game)}
	if err := t.Check(); err != nil {
		return nil, nil, err
	}
	if t.Parties() != len(d.Parties) {
		return nil, nil, fmt.Errorf("mentaltable: the deal names %d parties for %d", len(d.Parties), t.Parties())
	}
	p := &Player{Deal: d, reader: NewLogReader(terms.Table, d.Parties), got: map[int][]engine.Event{}, picked: map[int]int{},
		terms: terms, rand: rand}
	if me < 0 || terms.Watch {
		h, err := t.host(false)
		if err != nil {
			return nil, nil, err
		}
		p.h = h
		return p, nil, nil
	}
	n, err := NewNode(t, me, rand, nil)
	if err != nil {
		return nil, nil, err
	}
	ms, err := n.Start()
	if err != nil {
		return nil, nil, err
	}
	p.node, p.h = n, n.h
	p.own = n.Seats()
	return p, ms, nil
}

// Adopted is the seats the node took over from a party that left (it
// rebuilt the party's secret, so knows their cards), since the last call:
// its caller plays them from now on.
func (p *Player) Adopted() []int {
	out := p.adopted
	p.adopted = nil
	return out
}

// ErrDiverged is a host's log that isn't the one this node took: a new
// host whose record of the last moments before a failover ended short of
// this node's, and went on otherwise.
var ErrDiverged = errors.New("mentaltable: the host's log differs from this node's")

// sameInput reports whether two log inputs are the same input.
func sameInput(a, b *protocol.LogInput) bool {
	if a.What != b.What || a.AtNS != b.AtNS || a.Gone != b.Gone || a.To != b.To || string(a.Env) != string(b.Env) || (a.Move == nil) != (b.Move == nil) {
		return false
	}
	if a.Move == nil {
		return true
	}
	x, y := *a.Move, *b.Move
	return x.No == y.No && x.Seat == y.Seat && x.Move == y.Move && slices.Equal(x.Handles, y.Handles) && x.Claim == y.Claim &&
		x.Rank == y.Rank && x.Pick == y.Pick && x.Quads == nil && y.Quads == nil
}

// Due is every message the table still waits for from this node (its
// set-up's, an answer to an ask), to send again after a reconnection or a
// failover: one that did arrive is refused as not due, and changes
// nothing.
func (p *Player) Due() ([]protocol.Message, error) {
	if p.node == nil || p.failed != nil || p.Replaying() {
		return nil, nil
	}
	due, err := p.node.Due()
	if err != nil {
		return nil, err
	}
	return p.sending(due), p.failed
}

// Wire is every input of the host's log the node took, as it came: a
// node that takes the table over goes on from it.
func (p *Player) Wire() []protocol.LogInput { return slices.Clone(p.wire) }

// WireFrom is Wire from input i on.
func (p *Player) WireFrom(i int) []protocol.LogInput { return slices.Clone(p.wire[i:]) }

// Watching reports whether the node takes no part in the deal: it
// follows the game as a spectator does.
func (p *Player) Watching() bool { return p.node == nil }

// Game names the blind game (its deal's Game).
func (p *Player) Game() string { return string(p.Deal.Game) }

// Party is the node's party, -1 when it takes no part.
func (p *Player) Party() int {
	if p.node == nil {
		return -1
	}
	return p.node.Index
}

// Seats is the seats the node plays now.
func (p *Player) Seats() []int {
	if p.node == nil {
		return nil
	}
	return p.node.Seats()
}

// Host is the node's copy of the host: the game as every node runs it.
func (p *Player) Host() *Host { return p.h }

// Failed is why the node took no more of the host's log, nil if it does.
func (p *Player) Failed() error { return p.failed }

// Taken is how many of the host's inputs the node has taken.
func (p *Player) Taken() int { return p.next }

// Log takes the host's log from input first on (an input already taken,
// after a reconnection, is skipped), and returns what the node sends in
// answer and what its seats were shown. An input the node refuses is the
// host's fault: the node takes nothing more of this game (Failed).
func (p *Player) Log(first int, log []protocol.LogInput) (send []protocol.Message, shown []Shown, err error) {
	if p.failed != nil {
		return nil, nil, p.failed
	}
	if len(log) == 0 && first == p.next {
		p.parts(first, nil) // the host's log ends here: it sends an empty part after the whole log
	}
	for k, li := range log {
		switch at := first + k; {
		case at < p.next:
			// Taken already (a backlog after a reconnection, or a new
			// host's after a failover): it must be the input taken, up
			// to the node's last answer at least. After it, the inputs
			// from there were a host's that failed, sent to this node
			// alone: it goes on from the new host's log (rollTo).
			if sameInput(&li, &p.wire[at]) {
				break
			}
			if p.node == nil || at < p.keep.ackAt {
				p.failed = fmt.Errorf("%w: input %d of the host's log isn't the one this node took", ErrDiverged, at)
				break
			}
			var q *Player
			if q, p.failed = p.rollTo(at); p.failed == nil {
				*p = *q
				ms, sh, err := p.Log(at, log[k:])
				return append(send, ms...), sh, err
			}
		case at > p.next:
			p.failed = fmt.Errorf("mentaltable: the host's log skips from input %d to %d", p.next, at)
		default:
			if p.parts(at, &li); p.failed != nil {
				break
			}
			var in Input
			if in, p.failed = p.reader.Input(p.h, li); p.failed == nil {
				var ms []protocol.Message
				if ms, p.failed = p.input(in); p.failed == nil {
					p.next++
					p.wire = append(p.wire, li)
					send = append(send, ms...)
					if p.node != nil {
						p.adopted = append(p.adopted, p.node.Adopted()...)
					}
					p.keep.took(at, &li)
				}
			}
		}
		if p.failed != nil {
			break
		}
	}
	if rogueParty != nil {
		send = rogueParty(p, send)
	}
	for _, sh := range p.shownNow() {
		if sh.Blind.Type == engine.EventOver {
			p.over = append(p.over, sh) // shown once every card is known (Finish)
			continue
		}
		p.got[sh.Seat] = append(p.got[sh.Seat], sh.Event)
		shown = append(shown, sh)
	}
	send = p.sending(send)
	if len(send) > 0 {
		p.keep.ackAt = p.next
	}
	return send, shown, p.failed
}

// rogueParty, set only in a test build (rogueparty.go, tag rogueparty),
// is a dishonest party doctoring what its node sends; nil in the game.
var rogueParty func(p *Player, send []protocol.Message) []protocol.Message

// input takes one input into the node's copy of the host: a party's
// node answers what it makes due; a watcher's copy only follows.
func (p *Player) input(in Input) ([]protocol.Message, error) {
	if p.node != nil {
		return p.node.Input(in)
	}
	out, err := p.h.Input(in)
	if err != nil {
		return nil, err
	}
	for _, e := range out.Events {
		if e.VisibleTo(-1) {
			p.watched = append(p.watched, Shown{Seat: -1, Event: e.Event, Blind: e})
		}
	}
	return nil, nil
}

// shownNow is what the node's seats (a watcher: seat -1) were shown
// since the last call.
func (p *Player) shownNow() []Shown {
	if p.node != nil {
		return p.node.Shown()
	}
	out := p.watched
	p.watched = nil
	return out
}

// View is seat s's view as the node completes it: its own cards where it
// plays the seat and the deal is done; the host's (no card) otherwise.
func (p *Player) View(s int) (engine.View, error) {
	h := p.h
	v := h.B.View(s)
	if p.node == nil || s < 0 || s >= len(h.rec.T.Holder) || h.Holder(s) != p.node.Index || !p.node.Dealt() {
		return v, nil
	}
	hand := h.B.Hand(s)
	if coming := p.node.taken[s]; len(coming) > 0 {
		// Cards on their way to the seat (a pile it took, handed over
		// card by card by each earlier player's node): the hand shows
		// the ones that came, Arriving counts the rest.
		hand = slices.DeleteFunc(hand, func(x engine.Handle) bool { return slices.Contains(coming, x) })
	}
	err := p.node.View(s, &v, hand, h.B.LastPlay())
	return v, err
}

// Arriving is how many cards seat s took that its node is still to be
// handed.
func (p *Player) Arriving(s int) int {
	if p.node == nil {
		return 0
	}
	return len(p.node.taken[s])
}

// Deadline is when the open window or hand-over closes, on the host's
// clock.
func (p *Player) Deadline() (time.Duration, bool) { return p.h.B.Deadline() }

// Dealt reports whether the deal is done.
func (p *Player) Dealt() bool { return p.h.Dealt() }

// Waiting is the parties the table waits for, by the node's record.
func (p *Player) Waiting() []int { return p.h.Waiting() }

// Move is a clear command of a seat the node plays, as it goes to the
// host: its cards named by handle, quads opened.
func (p *Player) Move(cmd engine.Command) (protocol.BlindMove, error) {
	if p.failed != nil {
		return protocol.BlindMove{}, p.failed
	}
	if p.node == nil {
		return protocol.BlindMove{}, ErrWatching
	}
	h := p.h
	if cmd.Seat < 0 || cmd.Seat >= len(h.rec.T.Holder) || h.Holder(cmd.Seat) != p.node.Index {
		return protocol.BlindMove{}, fmt.Errorf("mentaltable: party %d doesn't play seat %d", p.node.Index, cmd.Seat)
	}
	bc, quads, err := p.node.Command(cmd, h.B.Hand(cmd.Seat))
	if err != nil {
		return protocol.BlindMove{}, err
	}
	return WireMove(bc, quads), nil
}

// Pick is the node's pick for a timed-out hand-over of one of its seats,
// once for each (the giver's least useful cards: only its node knows
// them); false when none is due.
func (p *Player) Pick() (protocol.BlindMove, bool) {
	h := p.h
	s, _, ok := h.B.Picking()
	if p.failed != nil || p.node == nil || !ok || h.Holder(s) != p.node.Index || p.picked[s] == h.B.Plays()+1 {
		return protocol.BlindMove{}, false
	}
	hs, ok, err := p.node.Picked(s)
	if err != nil || !ok {
		return protocol.BlindMove{}, false
	}
	p.picked[s] = h.B.Plays() + 1
	return protocol.BlindMove{No: h.B.Plays(), Seat: s, Move: uint8(engine.MoveGive), Handles: wireHandles(hs), Rank: protocol.NoRank, Pick: true}, true
}

// Result is the end of a blind game as a node checks it: the clear game
// (every shuffle checked, every card decrypted), the end each of its
// seats is shown, and its audit.
type Result struct {
	Config   engine.Config
	Steps    []engine.Step
	Deck     []engine.Card
	Over     []Shown // each seat's end, its cards named
	Problems []string
	Notes    []string
	Plays    int
}

// Verified reports whether the audit found nothing wrong.
func (r *Result) Verified() bool { return len(r.Problems) == 0 }

// Finish is the game's end once every secret is in: the node checks
// every shuffle, decrypts every card, and replays the game against what
// each of its seats was shown (engine.Audit). It is nil until then, and
// made once; name says whose node a party is, for the notes.
func (p *Player) Finish(name func(party int) string) *Result {
	h := p.h
	if p.result != nil || p.failed != nil || !h.Revealed() {
		return nil
	}
	cfg, steps, deck, err := h.Reveal()
	r := &Result{Config: cfg, Steps: steps, Deck: deck, Plays: h.B.Plays()}
	if err != nil {
		r.Problems = append(r.Problems, ShuffleCheat(err, name))
	}
	for _, sh := range p.over {
		sh.Event = sh.Blind.Event // no card named: a deck that isn't every card once names none
		if deck != nil {
			sh.Event = sh.Blind.Clear(deck)
		}
		p.got[sh.Seat] = append(p.got[sh.Seat], sh.Event)
		r.Over = append(r.Over, sh)
	}
	if err == nil {
		// The seats it was dealt: one it took over later it saw only
		// from then on, which a replay can't hold to the whole game.
		seats := p.own
		if p.node == nil {
			seats = []int{-1}
		}
		for _, s := range seats {
			for _, bad := range engine.Audit(cfg, steps, s, p.got[s]) {
				r.Problems = append(r.Problems, fmt.Sprintf("seat %d: %s", s+1, bad))
			}
		}
	}
	if p.keep.rolled {
		r.Notes = append(r.Notes, "A host that failed took inputs this node saw last; none of its answers hung on them.")
	}
	for _, i := range h.Late {
		r.Notes = append(r.Notes, fmt.Sprintf("%s's node didn't turn its called play up in time: the others turned it up.", name(i)))
	}
	for _, c := range h.Caught {
		if i, ok := mental.Blame(c); ok {
			r.Notes = append(r.Notes, fmt.Sprintf("%s's node turned a play up falsely (%s): caught, and the play went against its player.", name(i), Said(c)))
		}
	}
	p.result = r
	return r
}

// Events is every event seat s was shown, in order (the end's once it is
// known): what its audit holds the game against.
func (p *Player) Events(s int) []engine.Event { return slices.Clone(p.got[s]) }

// Knowledge is what a node knows of the cards, three ways: Decryptable,
// every card the cryptography lets it turn up from all it holds (its
// secret, every share it was sent or saw relayed, the secrets it rebuilt);
// Public, every card turned up for everyone; Seen, what each of its seats
// was shown by the game's rules. At an honest table Decryptable is Public
// and the Seen of its seats, nothing more: a test that dumps a node holds
// it to that.
type Knowledge struct {
	Decryptable map[engine.Handle]engine.Card
	Public      map[engine.Handle]engine.Card
	Seen        map[int]map[engine.Handle]engine.Card
}

// Knowledge is the node's knowledge of the cards now.
func (p *Player) Knowledge() (Knowledge, error) {
	k := Knowledge{Decryptable: map[engine.Handle]engine.Card{}, Public: map[engine.Handle]engine.Card{}, Seen: map[int]map[engine.Handle]engine.Card{}}
	for h, f := range p.h.rec.known {
		k.Public[h] = engine.Card(f.Card)
	}
	if p.node == nil {
		w := &Watcher{p.h, p.h.rec}
		for h, f := range w.Decryptable() {
			k.Decryptable[h] = engine.Card(f.Card)
		}
		return k, nil
	}
	d, err := p.node.Decryptable()
	if err != nil {
		return k, err
	}
	for h, f := range d {
		k.Decryptable[h] = engine.Card(f.Card)
	}
	for s, sd := range p.node.sides {
		seen := map[engine.Handle]engine.Card{}
		for h := range engine.Handle(len(p.h.rec.T.Deck)) {
			if c, ok := sd.Card(h); ok {
				seen[h] = c
			}
		}
		k.Seen[s] = seen
	}
	return k, nil
}

// Pooled is every card the nodes of ps can turn up together, pooling all
// they hold (their secrets, every share they were sent or saw): what one
// person holding several seats (two phones) can read. At an honest table
// it is what their seats were shown and what was turned up for everyone,
// unless they are every party but one.
func Pooled(ps ...*Player) (map[engine.Handle]engine.Card, error) {
	out := map[engine.Handle]engine.Card{}
	if len(ps) == 0 || ps[0].node == nil {
		return out, nil
	}
	t := ps[0].node.t
	for h := range t.Deck {
		ct := &t.Deck[h]
		var use []mental.Share
		for i := range t.Keys {
			var got *mental.Share
			for _, p := range ps {
				n := p.node
				if n == nil {
					continue
				}
				switch {
				case n.has[h][i]:
					sh := n.shares[h][i]
					got = &sh
				case i == n.Index:
					sh, err := mental.DecryptShare(n.rand, &n.x, ct, t.Ctx)
					if err != nil {
						return nil, err
					}
					got = &sh
				case n.rec.has[h][i] || n.rec.raw[h][i] != nil:
					sh, _, err := n.rec.share(engine.Handle(h), i)
					if err != nil {
						return nil, err
					}
					got = &sh
				default:
					if x, ok := n.rebuilt[i]; ok {
						sh, err := mental.DecryptShare(n.rand, &x, ct, t.Ctx)
						if err != nil {
							return nil, err
						}
						got = &sh
					}
				}
				if got != nil {
					break
				}
			}
			if got != nil {
				use = append(use, *got)
			}
		}
		if f, err := t.CB.Reveal(ct, use); err == nil {
			out[engine.Handle(h)] = engine.Card(f.Card)
		}
	}
	return out, nil
}
