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
)

// A Player is one player node's side of a blind game at a networked
// table, whatever runs it (a terminal's node, the phone's page): its
// party (Node), the host's log read in order (LogReader), what each of
// its seats was shown, and at the end its audit. It is not safe for
// concurrent use: its caller serialises the host's messages and its
// person's moves.
type Player struct {
	Deal   protocol.BlindDeal
	node   *Node
	reader *LogReader
	next   int // how many of the host's inputs it has taken
	got    map[int][]engine.Event
	over   []Shown
	picked map[int]int
	failed error
	result *Result
	keep   keeping // for a restart (restore.go)
}

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
}

// ErrNotAParty is a blind deal this node takes no part in.
var ErrNotAParty = errors.New("mentaltable: this node takes no part in the deal")

// NewPlayer is the node's side of the blind game d dealt at the table of
// terms, its deck secret drawn from rand (crypto/rand at a real table),
// and its first messages (its deck key) for the host.
func NewPlayer(d protocol.BlindDeal, terms Terms, rand io.Reader) (*Player, []protocol.Message, error) {
	me := slices.Index(d.Parties, terms.Me)
	if me < 0 {
		return nil, nil, ErrNotAParty
	}
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
	n, err := NewNode(t, me, rand, nil)
	if err != nil {
		return nil, nil, err
	}
	ms, err := n.Start()
	if err != nil {
		return nil, nil, err
	}
	p := &Player{Deal: d, node: n, reader: NewLogReader(terms.Table, d.Parties), got: map[int][]engine.Event{}, picked: map[int]int{}}
	return p, ms, nil
}

// Game names the blind game (its deal's Game).
func (p *Player) Game() string { return string(p.Deal.Game) }

// Party is the node's party.
func (p *Player) Party() int { return p.node.Index }

// Seats is the seats the node plays now.
func (p *Player) Seats() []int { return p.node.Seats() }

// Host is the node's copy of the host: the game as every node runs it.
func (p *Player) Host() *Host { return p.node.h }

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
	for k, li := range log {
		switch at := first + k; {
		case at < p.next:
			continue
		case at > p.next:
			p.failed = fmt.Errorf("mentaltable: the host's log skips from input %d to %d", p.next, at)
		default:
			var in Input
			if in, p.failed = p.reader.Input(p.node.h, li); p.failed == nil {
				var ms []protocol.Message
				if ms, p.failed = p.node.Input(in); p.failed == nil {
					p.next++
					send = append(send, ms...)
					p.keep.took(at, &li)
					p.takeMark()
				}
			}
		}
		if p.failed != nil {
			break
		}
	}
	for _, sh := range p.node.Shown() {
		if sh.Blind.Type == engine.EventOver {
			p.over = append(p.over, sh) // shown once every card is known (Finish)
			continue
		}
		p.got[sh.Seat] = append(p.got[sh.Seat], sh.Event)
		shown = append(shown, sh)
	}
	send = p.sending(send)
	return send, shown, p.failed
}

// View is seat s's view as the node completes it: its own cards where it
// plays the seat and the deal is done; the host's (no card) otherwise.
func (p *Player) View(s int) (engine.View, error) {
	h := p.node.h
	v := h.B.View(s)
	if s < 0 || s >= len(h.rec.T.Holder) || h.Holder(s) != p.node.Index || !p.node.Dealt() {
		return v, nil
	}
	err := p.node.View(s, &v, h.B.Hand(s), h.B.LastPlay())
	return v, err
}

// Deadline is when the open window or hand-over closes, on the host's
// clock.
func (p *Player) Deadline() (time.Duration, bool) { return p.node.h.B.Deadline() }

// Dealt reports whether the node knows its seats' hands.
func (p *Player) Dealt() bool { return p.node.Dealt() }

// Waiting is the parties the table waits for, by the node's record.
func (p *Player) Waiting() []int { return p.node.Waiting() }

// Move is a clear command of a seat the node plays, as it goes to the
// host: its cards named by handle, quads opened.
func (p *Player) Move(cmd engine.Command) (protocol.BlindMove, error) {
	if p.failed != nil {
		return protocol.BlindMove{}, p.failed
	}
	h := p.node.h
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
	h := p.node.h
	s, _, ok := h.B.Picking()
	if p.failed != nil || !ok || h.Holder(s) != p.node.Index || p.picked[s] == h.B.Plays()+1 {
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
	h := p.node.h
	if p.result != nil || p.failed != nil || !h.Revealed() {
		return nil
	}
	cfg, steps, deck, err := h.Reveal()
	r := &Result{Config: cfg, Steps: steps, Deck: deck, Plays: h.B.Plays()}
	if err != nil {
		r.Problems = append(r.Problems, protocol.Sentence(err))
	}
	for _, sh := range p.over {
		sh.Event = sh.Blind.Clear(deck)
		p.got[sh.Seat] = append(p.got[sh.Seat], sh.Event)
		r.Over = append(r.Over, sh)
	}
	if err == nil {
		for _, s := range p.node.Seats() {
			for _, bad := range engine.Audit(cfg, steps, s, p.got[s]) {
				r.Problems = append(r.Problems, fmt.Sprintf("seat %d: %s", s+1, bad))
			}
		}
	}
	for _, i := range h.Late {
		r.Notes = append(r.Notes, fmt.Sprintf("%s's node didn't turn its called play up in time: the others turned it up.", name(i)))
	}
	for _, c := range h.Caught {
		r.Notes = append(r.Notes, "A false opening was caught: "+protocol.Sentence(c))
	}
	p.result = r
	return r
}

// Events is every event seat s was shown, in order (the end's once it is
// known): what its audit holds the game against.
func (p *Player) Events(s int) []engine.Event { return slices.Clone(p.got[s]) }
