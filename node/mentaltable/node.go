package mentaltable

import (
	"fmt"
	"maps"
	"slices"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/bot"
	"github.com/bullshit-game/bullshit/protocol"
	"github.com/bullshit-game/bullshit/protocol/mental"
)

// A Node is one player node's side of a blind table: its Party (its deck
// secret, what it proved, the SeatSide and bot of each seat it plays) and
// its own copy of the public record. It takes every message the host
// relays (Take) and every ask (Ask), checks each against its record, and
// answers with the messages its party owes: its key, its split, its turn
// at the shuffle, its deal, an opening, a handover, a recovery share. It
// answers an ask only when its own record says the answer is due: a host
// can't make it turn up a card it never played, or hand over one that
// isn't owed.
type Node struct {
	*Party
	rec *record
	// mine is every card a seat of this party put face down or handed
	// over, by handle: the cards the table may ask it to open or hand.
	mine map[engine.Handle]bool
	// plays is each play of this party's seats: its handles, by number.
	plays map[int][]engine.Handle
	// table is every play on the table, as everyone saw it go down: its
	// party and handles, by number. A recovery is only of those.
	table map[int]tablePlay
	last  int // the newest play: the only one a call turns up
	// answered is the asks the node answered before they came: quads.
	answered map[askKey]bool
	rules    engine.Rules
	// hands is each seat's dealt hand, for V10's first card.
	hands [][]engine.Handle
	// taken is, for each seat of this party's that took cards, the
	// handles still to be shown to it (a handover on its way).
	taken map[int][]engine.Handle
}

type tablePlay struct {
	party   int
	handles []engine.Handle
}

// askKey names an ask the node answered ahead of it.
type askKey struct {
	what      uint8
	party, no int
}

func (p *Party) node(rec *record, rules engine.Rules, hands [][]engine.Handle) *Node {
	return &Node{Party: p, rec: rec, mine: map[engine.Handle]bool{}, plays: map[int][]engine.Handle{}, table: map[int]tablePlay{},
		answered: map[askKey]bool{}, rules: rules, hands: hands, taken: map[int][]engine.Handle{}}
}

// Start is the node's first message: its deck key and proof.
func (n *Node) Start() ([]protocol.Message, error) {
	m, err := n.keyMsg()
	if err != nil {
		return nil, err
	}
	return []protocol.Message{m}, nil
}

// Take takes a message the host relayed from party from: it checks it
// against the node's record and answers what it makes due.
func (n *Node) Take(from int, m protocol.Message) ([]protocol.Message, error) {
	if n.gone {
		return nil, nil
	}
	a, shown, err := n.rec.take(from, m)
	if err != nil {
		return nil, err
	}
	switch m := m.(type) {
	case protocol.DeckKey:
		if n.rec.keysDone() {
			return n.splitMsg()
		}
	case protocol.DeckSplit:
		if from != n.Index {
			if err := n.takeSub(from, &m); err != nil {
				return nil, err
			}
		}
		return n.shuffleTurn()
	case protocol.DeckShuffle:
		if n.rec.shuffled() {
			n.reset()
			d, err := n.deal()
			if err != nil {
				return nil, err
			}
			return []protocol.Message{d}, nil
		}
		return n.shuffleTurn()
	case protocol.DeckDeal:
		if from != n.Index {
			if err := n.take(&m); err != nil {
				return nil, err
			}
		}
		if n.rec.dealDone() {
			return nil, n.learnHands()
		}
	case protocol.DeckOpen, protocol.DeckRecover:
		n.seePublic(shown)
	case protocol.DeckHandover:
		return nil, n.takeHandover(&m)
	case protocol.DeckPool:
		if m.To == n.Index {
			if err := n.takePool(&m); err != nil {
				return nil, err
			}
			if a != nil {
				return nil, n.rebuild(m.Dealer)
			}
		}
	}
	return nil, nil
}

func (n *Node) splitMsg() ([]protocol.Message, error) {
	rs, err := mental.Split(n.rand, &n.x, n.Index, n.rec.n, mental.DefaultThreshold(n.rec.n))
	if err != nil {
		return nil, err
	}
	m := protocol.DeckSplit{From: n.Index, Sealed: make([][]byte, n.rec.n)}
	m.Commit, _ = rs.Commit.MarshalBinary()
	for j := range n.rec.n {
		if j == n.Index {
			continue
		}
		b, _ := rs.Subs[j].MarshalBinary()
		s, err := mental.Seal(n.rand, &n.t.Keys[j], n.t.Ctx, b)
		if err != nil {
			return nil, err
		}
		m.Sealed[j], _ = s.MarshalBinary()
	}
	return []protocol.Message{m}, nil
}

// takeSub opens the sub-share of dealer's secret sealed to this party
// and checks it against the dealer's commitments.
func (n *Node) takeSub(dealer int, m *protocol.DeckSplit) error {
	var s mental.Sealed
	if err := s.UnmarshalBinary(m.Sealed[n.Index]); err != nil {
		return fault(dealer, err, "sub-share for party %d", n.Index)
	}
	plain, err := s.Open(&n.x, n.t.Ctx)
	if err != nil {
		return fault(dealer, err, "sub-share for party %d", n.Index)
	}
	var sub mental.SubShare
	if err := sub.UnmarshalBinary(plain); err != nil {
		return fault(dealer, err, "sub-share for party %d", n.Index)
	}
	if err := n.t.Commits[dealer].VerifySub(dealer, &sub); err != nil {
		return err
	}
	n.subs[dealer] = sub
	return nil
}

// shuffleTurn is the node's shuffle, when its turn has come.
func (n *Node) shuffleTurn() ([]protocol.Message, error) {
	if !n.rec.splitDone() || n.rec.shuffled() || n.rec.shuffler() != n.Index {
		return nil, nil
	}
	in := n.t.Initial
	if k := len(n.t.Steps); k > 0 {
		st, err := n.rec.step(k - 1)
		if err != nil {
			return nil, err
		}
		in = st.Out
	}
	m, err := n.shuffle(in)
	if err != nil {
		return nil, err
	}
	return []protocol.Message{m}, nil
}

func (n *Node) reset() {
	total := len(n.t.Deck)
	n.shares, n.has = make([][]mental.Share, total), make([][]bool, total)
	for h := range total {
		n.shares[h], n.has[h] = make([]mental.Share, n.rec.n), make([]bool, n.rec.n)
	}
}

// learnHands turns up the party's hands from the deal and gives each of
// its seats its SeatSide.
func (n *Node) learnHands() error {
	if err := n.learn(); err != nil {
		return err
	}
	for _, s := range n.seats {
		var own []engine.Opened
		for _, h := range n.hands[s] {
			own = append(own, engine.Opened{Handle: h, Card: engine.Card(n.known[h].Card)})
		}
		n.sides[s] = engine.NewSeatSide(s, own...)
	}
	return nil
}

// seePublic learns cards the record turned up for everyone.
func (n *Node) seePublic(shown []engine.Opened) {
	for _, o := range shown {
		n.known[o.Handle] = n.rec.known[o.Handle]
		for i := range n.rec.n {
			if sh, ok, _ := n.rec.share(o.Handle, i); ok {
				n.put(o.Handle, i, sh)
			}
		}
		for _, s := range n.seats {
			n.sides[s].Learn(o)
		}
	}
}

func (n *Node) takeHandover(m *protocol.DeckHandover) error {
	to := m.To
	if to != n.Index {
		if _, ok := n.rebuilt[to]; !ok {
			return nil
		}
	}
	h := engine.Handle(m.Handle)
	if err := n.receive(m, to, []engine.Handle{h}, nil); err != nil {
		return err
	}
	n.showTaken()
	return nil
}

// showTaken shows each seat that took cards those its party knows now.
func (n *Node) showTaken() {
	for s, hs := range n.taken {
		left := hs[:0]
		for _, h := range hs {
			if f, ok := n.known[h]; ok {
				n.sides[s].Learn(engine.Opened{Handle: h, Card: engine.Card(f.Card)})
			} else {
				left = append(left, h)
			}
		}
		if len(left) == 0 {
			delete(n.taken, s)
		} else {
			n.taken[s] = left
		}
	}
}

// Pending is how many cards the node's seats took and still wait to be
// handed.
func (n *Node) Pending() int {
	k := 0
	for _, hs := range n.taken {
		k += len(hs)
	}
	return k
}

func (n *Node) takePool(m *protocol.DeckPool) error {
	var sealed mental.Sealed
	if err := sealed.UnmarshalBinary(m.Sealed); err != nil {
		return fault(m.From, err, "sub-share of party %d's secret", m.Dealer)
	}
	plain, err := sealed.Open(&n.x, n.t.Ctx)
	if err != nil {
		return fault(m.From, err, "sub-share of party %d's secret", m.Dealer)
	}
	var got mental.SubShare
	if err := got.UnmarshalBinary(plain); err != nil {
		return fault(m.From, err, "sub-share of party %d's secret", m.Dealer)
	}
	n.pooled[m.Dealer] = append(n.pooled[m.Dealer], got)
	return nil
}

// rebuild is taking over from party gone: its secret from the pooled
// sub-shares and this party's own, then every card it held and every
// handover ever sealed to it; its seats are this party's from now on,
// played by a bot.
func (n *Node) rebuild(gone int) error {
	subs := append([]mental.SubShare{n.subs[gone]}, n.pooled[gone]...)
	x, err := mental.Recover(gone, &n.t.Keys[gone], &n.t.Commits[gone], subs)
	if err != nil {
		return err
	}
	n.rebuilt[gone] = x
	for h := range n.t.Deck {
		sh, err := mental.DecryptShare(n.rand, &x, &n.t.Deck[h], n.t.Ctx)
		if err != nil {
			return err
		}
		n.put(engine.Handle(h), gone, sh)
	}
	for h := range n.t.Deck {
		if _, ok := n.known[engine.Handle(h)]; ok {
			continue
		}
		for i := range n.rec.n {
			if sh, ok, _ := n.rec.share(engine.Handle(h), i); ok && !n.has[h][i] {
				n.put(engine.Handle(h), i, sh)
			}
		}
		if slices.Contains(n.has[h], false) {
			continue
		}
		f, err := n.t.CB.Reveal(&n.t.Deck[h], n.shares[h])
		if err != nil {
			return fault(gone, err, "card %d under its rebuilt secret", h)
		}
		n.known[engine.Handle(h)] = f
	}
	for i := range n.rec.sealed {
		m := &n.rec.sealed[i]
		if m.To == gone {
			if err := n.receive(m, gone, []engine.Handle{engine.Handle(m.Handle)}, nil); err != nil {
				return err
			}
		}
	}
	return nil
}

// adopt plays seat s from now on with b (the seat of a departed party).
func (n *Node) adopt(s int, b bot.Player) {
	n.seats = append(n.seats, s)
	slices.Sort(n.seats)
	n.sides[s] = engine.NewSeatSide(s)
	n.bots[s] = b
	for h, f := range n.known {
		n.sides[s].Learn(engine.Opened{Handle: h, Card: engine.Card(f.Card)})
	}
}

// Ask takes a host's ask and answers it if it is this node's to answer.
func (n *Node) Ask(a protocol.DeckAsk) ([]protocol.Message, error) {
	if n.gone {
		return nil, nil
	}
	if err := n.rec.Ask(a); err != nil {
		return nil, err
	}
	key := askKey{a.What, a.Party, a.No}
	if n.answered[key] {
		delete(n.answered, key)
		return nil, nil // quads: opened with the command
	}
	switch a.What {
	case protocol.AskOpen:
		if a.Party != n.Index {
			return nil, nil
		}
		hs := handles(a.Handles)
		if a.No != n.last || !slices.Equal(n.plays[a.No], hs) {
			return nil, fmt.Errorf("mentaltable: party %d was asked to turn up %v as its play %d, which was %v (the newest play is %d): the host asks for cards it may not see",
				n.Index, hs, a.No, n.plays[a.No], n.last)
		}
		o, err := n.open(hs)
		if err != nil {
			return nil, err
		}
		o.No = a.No
		return []protocol.Message{o}, nil
	case protocol.AskFirst:
		if a.Party != n.Index || !slices.Contains(n.seats, a.Seat) {
			return nil, nil
		}
		o := protocol.DeckOpen{No: a.No, From: n.Index}
		if op := n.sides[a.Seat].Holder(n.rules, n.hands[a.Seat]); len(op) > 0 {
			var err error
			if o, err = n.open([]engine.Handle{op[0].Handle}); err != nil {
				return nil, err
			}
			o.No = a.No
		}
		return []protocol.Message{o}, nil
	case protocol.AskHand:
		if a.Party != n.Index {
			return nil, nil
		}
		var out []protocol.Message
		for _, h := range handles(a.Handles) {
			if !n.mine[h] {
				return nil, fmt.Errorf("mentaltable: party %d was asked to hand over card %d, which its seats never put down or gave: the host asks for cards it may not see", n.Index, h)
			}
			m, err := n.hand(h, a.To)
			if err != nil {
				return nil, err
			}
			m.No = a.No
			out = append(out, m)
		}
		return out, nil
	case protocol.AskRecover:
		if a.Party == n.Index {
			return nil, nil
		}
		sub, ok := n.subs[a.Party]
		if !ok {
			return nil, fmt.Errorf("mentaltable: party %d holds no sub-share of party %d's secret", n.Index, a.Party)
		}
		if p, ok := n.table[a.No]; a.No != n.last || !ok || p.party != a.Party || !slices.Equal(p.handles, handles(a.Handles)) {
			return nil, fmt.Errorf("mentaltable: party %d was asked to turn up %v of party %d's as play %d, which was %v of party %d's: the host asks for cards it may not see",
				n.Index, a.Handles, a.Party, a.No, p.handles, p.party)
		}
		m := protocol.DeckRecover{No: a.No, From: n.Index, Dealer: a.Party, Handles: slices.Clone(a.Handles)}
		for _, h := range a.Handles {
			rs, err := mental.RecoverShare(n.rand, &sub, &n.t.Deck[h], n.t.Ctx)
			if err != nil {
				return nil, err
			}
			b, _ := rs.MarshalBinary()
			m.Shares = append(m.Shares, b)
		}
		return []protocol.Message{m}, nil
	case protocol.AskPool:
		if a.Party == n.Index || a.To == n.Index {
			return nil, nil
		}
		sub := n.subs[a.Party]
		b, _ := sub.MarshalBinary()
		s, err := mental.Seal(n.rand, &n.t.Keys[a.To], n.t.Ctx, b)
		if err != nil {
			return nil, err
		}
		m := protocol.DeckPool{No: a.No, From: n.Index, To: a.To, Dealer: a.Party}
		m.Sealed, _ = s.MarshalBinary()
		return []protocol.Message{m}, nil
	case protocol.AskPublish:
		m := protocol.DeckPublish{No: a.No, From: n.Index, Of: n.Index}
		m.Secret, _ = n.x.MarshalBinary()
		m.Shuffle, _ = n.shuf.MarshalBinary()
		out := []protocol.Message{m}
		for _, g := range slices.Sorted(maps.Keys(n.rebuilt)) {
			x := n.rebuilt[g]
			r := protocol.DeckPublish{No: a.No, From: n.Index, Of: g}
			r.Secret, _ = x.MarshalBinary()
			out = append(out, r)
		}
		return out, nil
	}
	return nil, nil
}

// Event is e as seat s of this node's sees it, and its bot sees it too.
// Its own plays and hand-overs are kept as the cards the table may ask
// it to open or hand; cards it took are shown to it as they are handed.
func (n *Node) Event(s int, e *engine.BlindEvent) (engine.Event, error) {
	switch e.Type {
	case engine.EventPlay:
		n.table[e.No] = tablePlay{n.t.Holder[e.Seat], slices.Clone(e.Handles)}
		n.last = max(n.last, e.No)
	case engine.EventMine:
		n.plays[e.No] = slices.Clone(e.Handles)
		for _, h := range e.Handles {
			n.mine[h] = true
		}
	case engine.EventHanded:
		if e.Seat == s {
			for _, h := range e.Handles {
				n.mine[h] = true
			}
		} else {
			n.taken[s] = append(n.taken[s], e.Handles...)
		}
	case engine.EventTake:
		if e.Seat == s {
			n.taken[s] = append(n.taken[s], e.Handles...)
			for _, h := range e.Handles {
				delete(n.mine, h)
			}
		}
	}
	n.showTaken()
	x, err := n.sides[s].Event(e)
	if err != nil {
		return x, fmt.Errorf("mentaltable: seat %d (party %d) can't read its %s: %w", s, n.Index, e.Type, err)
	}
	n.bots[s].Observe(&x)
	return x, nil
}

// giving marks cards this node's seat hands over (V14): the table asks
// for them next.
func (n *Node) giving(hs []engine.Handle) {
	for _, h := range hs {
		n.mine[h] = true
	}
}

// Pick names seat's k least useful cards for a hand-over that ran out
// (v the seat's completed view, hand its handles).
func (n *Node) Pick(seat int, v *engine.View, hand []engine.Handle, k int) ([]engine.Handle, error) {
	hs, err := n.sides[seat].Pick(v, hand, k)
	if err != nil {
		return nil, fmt.Errorf("mentaltable: seat %d's party can't pick: %w", seat, err)
	}
	n.giving(hs)
	return hs, nil
}

// Command is seat s's clear command as the blind table takes it, with
// the opening of quads (answered ahead of its ask).
func (n *Node) Command(cmd engine.Command, hand []engine.Handle) (engine.BlindCommand, *protocol.DeckOpen, error) {
	bc, err := n.sides[cmd.Seat].Command(cmd, hand)
	if err != nil {
		return bc, nil, fmt.Errorf("mentaltable: seat %d's party can't name %+v: %w", cmd.Seat, cmd, err)
	}
	if bc.Move == engine.MoveGive {
		n.giving(bc.Handles)
	}
	if len(bc.Open) == 0 {
		return bc, nil, nil
	}
	hs := make([]engine.Handle, len(bc.Open))
	for k, o := range bc.Open {
		hs[k] = o.Handle
	}
	o, err := n.open(hs)
	if err != nil {
		return bc, nil, err
	}
	n.answered[askKey{protocol.AskOpen, n.Index, 0}] = true
	return bc, &o, nil
}

// View completes seat s's blind view v (the host's, with no card) with
// the cards its party knows: its hand, and its own last play.
func (n *Node) View(s int, v *engine.View, hand, last []engine.Handle) error {
	sd, ok := n.sides[s]
	if !ok {
		return fmt.Errorf("mentaltable: party %d doesn't play seat %d", n.Index, s)
	}
	if err := sd.View(v, hand, last); err != nil {
		return fmt.Errorf("mentaltable: seat %d's view on party %d: %w", s, n.Index, err)
	}
	return nil
}

// Bot is the bot that plays seat s, if this node runs one.
func (n *Node) Bot(s int) (bot.Player, bool) {
	b, ok := n.bots[s]
	return b, ok
}

// Waiting is the parties the node's record says the table waits for.
func (n *Node) Waiting() []int { return n.rec.Waiting() }
