package mentaltable

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/bot"
	"github.com/bullshit-game/bullshit/protocol"
	"github.com/bullshit-game/bullshit/protocol/mental"
)

// The refusals of the table itself, beside the mental package's; each
// comes wrapped in a *mental.Fault naming the party.
var (
	ErrNotHeld     = errors.New("mentaltable: handover of a card the party was not to hand over")
	ErrWrongCards  = errors.New("mentaltable: opening of other cards than the ones asked for")
	ErrNotExpected = errors.New("mentaltable: message out of turn")
	ErrDeck        = errors.New("mentaltable: the deck does not decrypt to every card once")
	// ErrDealing refuses a move before every seat knows its hand.
	ErrDealing = &engine.Refusal{Code: engine.CodeWaiting, Msg: "Wait: the cards are still being dealt."}
)

func fault(party int, err error, format string, args ...any) error {
	if format != "" {
		err = fmt.Errorf("%w ("+format+")", append([]any{err}, args...)...)
	}
	return &mental.Fault{Party: party, Err: err}
}

// A Party is one player node: its deck secret, the seats it plays, and
// every share and card identity it has checked.
type Party struct {
	Index int
	seats []int
	x     mental.Secret
	rand  io.Reader
	t     *Public
	rec   *record // the party's node's record
	shuf  mental.ShuffleOpening
	// shares[h][i] is party i's share of handle h, if has[h][i].
	shares [][]mental.Share
	has    [][]bool
	known  map[engine.Handle]mental.Face
	sides  map[int]*engine.SeatSide
	bots   map[int]bot.Player
	subs   map[int]mental.SubShare // by dealer: the sub-shares it holds
	pooled map[int][]mental.SubShare
	// rebuilt is the secrets of departed parties it rebuilt (Leave).
	rebuilt map[int]mental.Secret
	gone    bool
	kept    []byte // its shuffle step, made once: taken again after a restart, never drawn anew (restore.go)
}

// Seats is the seats the party plays.
func (p *Party) Seats() []int { return slices.Clone(p.seats) }

// Known is every card identity the party has proved, by handle.
func (p *Party) Known() map[engine.Handle]mental.Face {
	out := make(map[engine.Handle]mental.Face, len(p.known))
	for h, f := range p.known {
		out[h] = f
	}
	return out
}

// Decryptable is every card the party could turn up from what it holds:
// the shares it was sent or saw, its own share, and those of the secrets
// it rebuilt. It is the cryptography's account of Known: the two must be
// the same.
func (p *Party) Decryptable() (map[engine.Handle]mental.Face, error) {
	out := map[engine.Handle]mental.Face{}
	for h := range p.t.Deck {
		ct := &p.t.Deck[h]
		var use []mental.Share
		for i := range p.t.Keys {
			switch {
			case p.has[h][i]:
				use = append(use, p.shares[h][i])
			case i != p.Index && (p.rec.has[h][i] || p.rec.raw[h][i] != nil):
				sh, _, err := p.rec.share(engine.Handle(h), i)
				if err != nil {
					return nil, err
				}
				use = append(use, sh)
			case i == p.Index:
				sh, err := mental.DecryptShare(p.rand, &p.x, ct, p.t.Ctx)
				if err != nil {
					return nil, err
				}
				use = append(use, sh)
			default:
				if x, ok := p.rebuilt[i]; ok {
					sh, err := mental.DecryptShare(p.rand, &x, ct, p.t.Ctx)
					if err != nil {
						return nil, err
					}
					use = append(use, sh)
				}
			}
		}
		if f, err := p.t.CB.Reveal(ct, use); err == nil {
			out[engine.Handle(h)] = f
		}
	}
	return out, nil
}

func (p *Party) keyMsg() (protocol.DeckKey, error) {
	pf, err := mental.ProveKey(p.rand, &p.x, p.t.KeyCtx(p.Index))
	if err != nil {
		return protocol.DeckKey{}, err
	}
	k := p.x.Public()
	kb, _ := k.MarshalBinary()
	pb, _ := pf.MarshalBinary()
	return protocol.DeckKey{From: p.Index, Key: kb, Proof: pb}, nil
}

func (p *Party) shuffle(in mental.Deck) (protocol.DeckShuffle, error) {
	st, o, err := mental.Shuffle(p.rand, &p.t.Joint, in, p.t.Ctx)
	if err != nil {
		return protocol.DeckShuffle{}, err
	}
	p.shuf = o
	b, _ := st.MarshalBinary()
	return protocol.DeckShuffle{From: p.Index, Step: b}, nil
}

// dealt reports whether h was dealt to the party.
func (p *Party) dealt(h engine.Handle) bool { return p.t.Dealt[h] == p.Index }

func (p *Party) deal() (protocol.DeckDeal, error) {
	d := protocol.DeckDeal{From: p.Index, Shares: make([][]byte, len(p.t.Deck))}
	for h := range p.t.Deck {
		if p.dealt(engine.Handle(h)) {
			continue
		}
		sh, err := mental.DecryptShare(p.rand, &p.x, &p.t.Deck[h], p.t.Ctx)
		if err != nil {
			return protocol.DeckDeal{}, err
		}
		p.put(engine.Handle(h), p.Index, sh)
		d.Shares[h], _ = sh.MarshalBinary()
	}
	return d, nil
}

func (p *Party) put(h engine.Handle, i int, sh mental.Share) {
	p.shares[h][i], p.has[h][i] = sh, true
}

// take reads party d.From's deal: every share decodes, and where it is of
// a card this party holds it is checked (Learn, in learn); the others are
// kept as seen. A share of a card of From's own is refused, and a deal
// refused changes nothing.
func (p *Party) take(d *protocol.DeckDeal) error {
	if err := checkDeal(p.t, d.From, d); err != nil {
		return err
	}
	// The shares of the party's own cards, decoded: the rest stay in
	// the record as they came until a party needs one. A deal any of
	// whose shares doesn't decode changes nothing.
	var hs []engine.Handle
	var got []mental.Share
	for h, b := range d.Shares {
		if !p.dealt(engine.Handle(h)) {
			continue
		}
		var sh mental.Share
		if err := sh.UnmarshalBinary(b); err != nil {
			return fault(d.From, err, "share of card %d", h)
		}
		hs, got = append(hs, engine.Handle(h)), append(got, sh)
	}
	for k, h := range hs {
		p.put(h, d.From, got[k])
	}
	return nil
}

// learn turns up the party's own hand(s) from the shares it was dealt,
// checking each (a wrong one names its sender).
func (p *Party) learn() error {
	var hs []engine.Handle
	var cts []mental.Ciphertext
	var sh [][]mental.Share
	for h := range p.t.Deck {
		if !p.dealt(engine.Handle(h)) {
			continue
		}
		hs = append(hs, engine.Handle(h))
		cts = append(cts, p.t.Deck[h])
		sh = append(sh, p.shares[h])
	}
	faces, all, err := mental.Learn(p.rand, p.t.CB, p.t.Keys, p.Index, &p.x, cts, sh, p.t.Ctx)
	if err != nil {
		return err
	}
	for k, h := range hs {
		for i := range all[k] {
			p.put(h, i, all[k][i])
		}
		p.known[h] = faces[k]
	}
	return nil
}

// opening is the party's proof of h: its face and every share.
func (p *Party) opening(h engine.Handle) (mental.Opening, bool) {
	f, ok := p.known[h]
	if !ok {
		return mental.Opening{}, false
	}
	return mental.Opening{Face: f, Shares: slices.Clone(p.shares[h])}, true
}

func (p *Party) open(hs []engine.Handle) (protocol.DeckOpen, error) {
	o := protocol.DeckOpen{From: p.Index, Handles: wireHandles(hs)}
	for _, h := range hs {
		op, ok := p.opening(h)
		if !ok {
			return protocol.DeckOpen{}, fmt.Errorf("party %d can't open card %d: it never saw it", p.Index, h)
		}
		b, _ := op.MarshalBinary()
		o.Openings = append(o.Openings, b)
	}
	return o, nil
}

// checkOpen verifies an opening of want by its sender against the deck:
// the handles asked for, each proved. It returns the faces.
func checkOpen(t *Public, o *protocol.DeckOpen, want []engine.Handle) ([]mental.Opening, error) {
	return checkOpenKnown(t, nil, o, want)
}

// checkOpenKnown is checkOpen where the cards of known were turned up for
// everyone before: such a card's opening must claim the face it was, and
// its shares are not checked. They can't all be: a card turned up through
// the recovery has, in its silent party's place, a share that carries no
// proof of that party (mental.CombineRecovery), and the node that plays it
// again (it took the pile) holds nothing better.
func checkOpenKnown(t *Public, known map[engine.Handle]mental.Face, o *protocol.DeckOpen, want []engine.Handle) ([]mental.Opening, error) {
	if len(o.Handles) != len(want) || len(o.Openings) != len(want) {
		return nil, fault(o.From, ErrWrongCards, "%d cards for %d", len(o.Openings), len(want))
	}
	for _, h := range o.Handles {
		if !slices.Contains(want, engine.Handle(h)) || int(h) >= len(t.Deck) {
			return nil, fault(o.From, ErrWrongCards, "card %d", h)
		}
	}
	for k, h := range o.Handles {
		if slices.Contains(o.Handles[:k], h) {
			return nil, fault(o.From, ErrWrongCards, "card %d twice", h)
		}
	}
	os := make([]mental.Opening, len(o.Openings))
	var check []int // the openings whose shares prove them
	for k, b := range o.Openings {
		if err := os[k].UnmarshalBinary(b); err != nil {
			return nil, fault(o.From, err, "opening %d", k)
		}
		f, seen := known[engine.Handle(o.Handles[k])]
		switch {
		case !seen:
			check = append(check, k)
		case os[k].Face != f:
			return nil, fault(o.From, mental.ErrFalseOpening, "claims %s, was turned up as %s", os[k].Face.Name(), f.Name())
		}
	}
	cts := make([]mental.Ciphertext, len(check))
	proved := make([]mental.Opening, len(check))
	for i, k := range check {
		cts[i], proved[i] = t.Deck[o.Handles[k]], os[k]
	}
	if err := mental.VerifyOpenings(t.CB, t.Keys, o.From, cts, proved, t.Ctx); err != nil {
		return nil, err
	}
	return os, nil
}

// hand seals the party's proof of h to party to.
func (p *Party) hand(h engine.Handle, to int) (protocol.DeckHandover, error) {
	op, ok := p.opening(h)
	if !ok {
		return protocol.DeckHandover{}, fmt.Errorf("party %d can't hand card %d over: it never saw it", p.Index, h)
	}
	s, err := mental.SealOpening(p.rand, &p.t.Keys[to], p.t.Ctx, &op)
	if err != nil {
		return protocol.DeckHandover{}, err
	}
	b, _ := s.MarshalBinary()
	return protocol.DeckHandover{From: p.Index, To: to, Handle: uint16(h), Sealed: b}, nil
}

// receive opens a handover sealed to this party (or to a departed party
// whose secret it rebuilt, as to), checks it against the card the public
// record says From was to hand it (want), and learns the card.
func (p *Party) receive(m *protocol.DeckHandover, to int, want []engine.Handle, seats []int) error {
	h := engine.Handle(m.Handle)
	if !slices.Contains(want, h) || int(h) >= len(p.t.Deck) {
		return fault(m.From, ErrNotHeld, "card %d", m.Handle)
	}
	x := &p.x
	if to != p.Index {
		r := p.rebuilt[to]
		x = &r
	}
	var s mental.Sealed
	if err := s.UnmarshalBinary(m.Sealed); err != nil {
		return fault(m.From, err, "handover of card %d", m.Handle)
	}
	o, err := s.OpenOpening(x, p.t.Ctx)
	if err != nil {
		return fault(m.From, err, "handover of card %d", m.Handle)
	}
	if err := o.Verify(p.t.CB, p.t.Keys, m.From, &p.t.Deck[h], p.t.Ctx); err != nil {
		return err
	}
	p.known[h] = o.Face
	for i := range o.Shares {
		p.put(h, i, o.Shares[i])
	}
	for _, st := range seats {
		if sd, ok := p.sides[st]; ok {
			sd.Learn(engine.Opened{Handle: h, Card: engine.Card(o.Face.Card)})
		}
	}
	return nil
}
