package table

// The host's side of the journal's signed chain (node/gamewire/chain.go
// says what is hashed and signed, and keeps a player's side for both the
// terminal and the phone): every step gets a link, its term and the seal
// of its hidden cards, and the last step of each batch a seat is sent
// carries the host's signature, which vouches for every step before it.

import (
	"crypto/ed25519"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/protocol"
)

// Link is a journal step's place in its host's chain.
type Link struct {
	Term uint64 // the host term that recorded the step; 0 from a host older than the chain
	Seal []byte // the commitment to its hidden cards, nil when it hides none
	Sig  []byte // the term host's signature over the chain's hash here; nil when a later one vouches for it
	Mark []byte // the seat's own signature of its move (gamewire: movesig.go); nil for the host's moves
}

// hostChain is a table's chain: a link and a hash per step of its log.
type hostChain struct {
	key    ed25519.PrivateKey // nil: nothing is signed (a table nobody joins over the network)
	Links  []Link
	hashes [][32]byte
}

// chainReset starts the chain of a new deal.
func (t *Table) chainReset() {
	t.Chain.Links, t.Chain.hashes = nil, nil
}

// chainAdd links step i (the log's last) into the chain: recorded in
// l.Term, with its host's signature when it came signed from an earlier
// host, and its seat's when the seat signed the move.
func (t *Table) chainAdd(i int, s engine.Step, l Link) {
	p := Public(s)
	p.Link = Link{Term: max(l.Term, 1), Sig: l.Sig, Mark: l.Mark} // a table that was never elected is term 1's
	if h := hiddenCards(s); len(h) > 0 {
		p.Link.Seal = gamewire.SealCards(t.Seed, t.salt, i, h)
	}
	prev := t.Commit
	if i > 0 {
		prev = t.Chain.hashes[i-1]
	}
	t.Chain.Links = append(t.Chain.Links, p.Link)
	t.Chain.hashes = append(t.Chain.hashes, gamewire.ChainNext(prev, WireStep(p)))
}

// link is step i's link to send, signed when sign (the last of a batch)
// and the step is of our own term; an earlier host's as it signed it.
func (t *Table) link(i int, sign bool) Link {
	if i < 0 || i >= len(t.Chain.Links) {
		return Link{}
	}
	l := t.Chain.Links[i]
	if l.Term != max(t.term, 1) {
		return l
	}
	if !sign {
		l.Sig = nil
		return l
	}
	if l.Sig == nil && t.Chain.key != nil {
		l.Sig = gamewire.SignStep(t.Chain.key, t.WireID(), l.Term, i, t.Chain.hashes[i])
		t.Chain.Links[i].Sig = l.Sig
	}
	return l
}

// signWith makes the table sign its journal's chain with key, its node's
// (nil: it doesn't sign).
func (t *Table) signWith(key ed25519.PrivateKey) {
	if key != nil {
		t.Chain.key = key
	}
}

// SeatPubKey is the key of the person at seat of seats, nil for a bot's seat
// or a peer ID that names no key: what a seat's Mark is checked against.
func SeatPubKey(seats []SeatInfo, seat int) ed25519.PublicKey {
	if seat < 0 || seat >= len(seats) || seats[seat].Bot != "" || seats[seat].Peer == "" {
		return nil
	}
	id, err := protocol.ParsePeerID(seats[seat].Peer)
	if err != nil {
		return nil
	}
	pub, err := id.PublicKey()
	if err != nil {
		return nil
	}
	return pub
}

// MarkNames names the people of seats, "" for a bot's seat, for the
// audit's words on the moves the host made in their name.
func MarkNames(seats []SeatInfo) []string {
	out := make([]string, len(seats))
	for i, s := range seats {
		if s.Bot == "" && s.Peer != "" {
			out[i] = s.Name
		}
	}
	return out
}

// WireStep is a journal's step as it travels, its link included.
func WireStep(p PubStep) protocol.Step {
	w := protocol.Step{AtNS: int64(p.At), Tick: p.Cmd == nil, Rank: protocol.NoRank, Hidden: p.Hidden,
		Term: p.Link.Term, Seal: p.Link.Seal, Sig: p.Link.Sig, Mark: p.Link.Mark}
	if c := p.Cmd; c != nil {
		w.Move, w.Seat, w.Cards, w.Claim, w.Rank, w.No = uint8(c.Move), c.Seat, gamewire.WireCards(c.Cards), c.Claim, int8(c.Rank), c.No
	}
	return w
}
