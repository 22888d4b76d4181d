package mentaltable

import (
	"fmt"
	"slices"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/bot"
	"github.com/bullshit-game/bullshit/protocol"
	"github.com/bullshit-game/bullshit/protocol/mental"
)

// A Node is one player node's side of a blind table: its Party (its deck
// secret, what it proved, the SeatSide and bot of each seat it plays) and
// its own copy of the host, which takes every input of the host's log as
// the host did (Input): every party's message, every move, every tick. It
// checks each as the host must, so the host can't slip in what the rules
// or the cryptography refuse; it knows from its own copy what the game
// needs next, and answers that (its key, its split, its turn at the
// shuffle, its deal, an opening, a handover, a recovery share, at the end
// its secret) and nothing else: no ask comes over the wire, so a host
// can't ask a node to turn up a card the game doesn't turn up, or to
// publish its secret before the game is over.
type Node struct {
	*Party
	h     *Host
	rec   *record // the copy's record
	rules engine.Rules
	// hands is each seat's dealt hand, for V10's first card.
	hands [][]engine.Handle
	// taken is, for each seat of this party's that took cards, the
	// handles still to be shown to it (a handover on its way).
	taken map[int][]engine.Handle
	// queue is the events of this node's seats not yet shown (a card
	// handed to a seat is shown once its handover is in), shown those
	// ready to read.
	queue []engine.BlindEvent
	shown []Shown
	// heldFor[g] is a departed party g's sub-shares, opened by this party
	// as its successor: it gives recovery shares in g's place.
	heldFor map[int][]heldSub
	// adopted is the seats taken over from a departed party, not yet
	// told the caller (Adopted).
	adopted []int
}

type heldSub struct {
	dealer int
	sub    mental.SubShare
}

// Shown is an event as one seat of the node's saw it, and the blind event
// it came from (an over event's cards are only known at the end).
type Shown struct {
	Seat  int
	Event engine.Event
	Blind engine.BlindEvent
}

func (p *Party) node(h *Host, rules engine.Rules, hands [][]engine.Handle) *Node {
	return &Node{Party: p, h: h, rec: h.rec, rules: rules, hands: hands, taken: map[int][]engine.Handle{}, heldFor: map[int][]heldSub{}}
}

// Start is the node's first message: its deck key and proof.
func (n *Node) Start() ([]protocol.Message, error) {
	m, err := n.keyMsg()
	if err != nil {
		return nil, err
	}
	return []protocol.Message{m}, nil
}

// Input takes the next input of the host's log into the node's copy of
// the host, and answers what it makes due of this party. An input the
// copy refuses is the host's fault (it took what it must not): the error
// says so, and the node takes nothing more from that host.
func (n *Node) Input(in Input) ([]protocol.Message, error) {
	if n.gone {
		return nil, nil
	}
	out, err := n.h.Input(in)
	if err != nil {
		return nil, fmt.Errorf("mentaltable: party %d's copy of the host refuses its input: %w", n.Index, err)
	}
	var send []protocol.Message
	switch in.What {
	case InputMsg:
		if send, err = n.take(in.From, in.Msg, out.done, out.shown); err != nil {
			return nil, err
		}
	case InputMove:
		n.seePublic(out.shown) // quads, turned up with their move
	}
	n.queue = append(n.queue, out.Events...)
	for _, a := range out.Asks {
		if !n.pending(a) {
			continue
		}
		ms, err := n.answer(a)
		if err != nil {
			return nil, err
		}
		send = append(send, ms...)
	}
	return send, n.show()
}

// pending reports whether the copy still waits on a: an ask the host's
// own step already answered (quads, opened with their move) is not.
func (n *Node) pending(a Ask) bool {
	for _, x := range n.rec.asks {
		if x.What == a.What && x.Party == a.Party && x.No == a.No && x.To == a.To && x.Seat == a.Seat {
			return x.waiting[n.Index] || (n.standsFor(x.Party) && x.waiting[x.Party])
		}
	}
	return false
}

// standsFor reports whether this node answers for party g: g left, and
// this node rebuilt its secret and took its seats over.
func (n *Node) standsFor(g int) bool {
	_, ok := n.rebuilt[g]
	return ok && g != n.Index
}

// mine reports whether an ask of party g's is this node's to answer.
func (n *Node) mine(g int) bool { return g == n.Index || n.standsFor(g) }

// take is a party's message the copy took: what it means for this party.
func (n *Node) take(from int, m protocol.Message, a *ask, shown []engine.Opened) ([]protocol.Message, error) {
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
			if err := n.Party.take(&m); err != nil {
				return nil, err
			}
		}
		if n.rec.dealDone() && len(n.sides) == 0 {
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
				return n.takeOver(m.Dealer)
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
	if n.kept != nil {
		return []protocol.Message{protocol.DeckShuffle{From: n.Index, Step: n.kept}}, nil
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
	// gone's sub-shares of every other party's secret, to answer a
	// recovery in its place.
	for dealer, sealed := range n.rec.sealedSubs {
		if dealer == gone || dealer == n.Index || sealed == nil {
			continue
		}
		var s mental.Sealed
		if err := s.UnmarshalBinary(sealed[gone]); err != nil {
			return fault(dealer, err, "sub-share for party %d", gone)
		}
		plain, err := s.Open(&x, n.t.Ctx)
		if err != nil {
			return fault(dealer, err, "sub-share for party %d", gone)
		}
		var sub mental.SubShare
		if err := sub.UnmarshalBinary(plain); err != nil {
			return fault(dealer, err, "sub-share for party %d", gone)
		}
		n.heldFor[gone] = append(n.heldFor[gone], heldSub{dealer, sub})
	}
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

// takeOver is this node succeeding party gone: its secret rebuilt, its
// seats played from now on (a bot of the caller's, which Adopted names),
// and what was still due of it answered in its place.
func (n *Node) takeOver(gone int) ([]protocol.Message, error) {
	if err := n.rebuild(gone); err != nil {
		return nil, err
	}
	for s, p := range n.rec.T.Holder {
		if p == n.Index && !slices.Contains(n.seats, s) {
			n.adopt(s, nil)
			n.adopted = append(n.adopted, s)
		}
	}
	var out []protocol.Message
	for _, x := range slices.Clone(n.rec.asks) {
		if !x.waiting[gone] {
			continue
		}
		var ms []protocol.Message
		var err error
		switch {
		case x.Party == gone && (x.What == AskOpen || x.What == AskFirst || x.What == AskHand || x.What == AskShow):
			ms, err = n.answer(x.Ask)
		case x.What == AskRecover:
			// gone was a holder of the silent party's secret: its
			// sub-share, opened with the secret rebuilt.
			var subs []mental.SubShare
			for _, hs := range n.heldFor[gone] {
				if hs.dealer == x.Party {
					subs = append(subs, hs.sub)
				}
			}
			ms, err = n.recoverWith(x.Ask, subs)
		case x.What == AskPublish:
			r := protocol.DeckPublish{No: x.No, From: n.Index, Of: gone}
			xg := n.rebuilt[gone]
			r.Secret, _ = xg.MarshalBinary()
			ms = []protocol.Message{r}
		}
		if err != nil {
			return nil, err
		}
		out = append(out, ms...)
	}
	return out, nil
}

// recoverWith is the recovery shares of a's cards from each of subs (the
// node's own sub-share of the silent party's secret, and those it holds
// for parties it took over from).
func (n *Node) recoverWith(a Ask, subs []mental.SubShare) ([]protocol.Message, error) {
	cts := make([]mental.Ciphertext, len(a.Handles))
	for k, h := range a.Handles {
		cts[k] = n.t.Deck[h]
	}
	var out []protocol.Message
	for _, sub := range subs {
		m := protocol.DeckRecover{No: a.No, From: n.Index, Dealer: a.Party, Handles: slices.Clone(a.Handles)}
		rss, err := mental.RecoverShares(n.rand, a.Party, &sub, cts, n.t.Ctx)
		if err != nil {
			return nil, err
		}
		for k := range rss {
			b, _ := rss[k].MarshalBinary()
			m.Shares = append(m.Shares, b)
		}
		out = append(out, m)
	}
	return out, nil
}

// Adopted is the seats this node took over from a party that left, since
// the last call: the caller plays them (a bot) from now on.
func (n *Node) Adopted() []int {
	out := n.adopted
	n.adopted = nil
	return out
}

// adopt plays seat s from now on with b (the seat of a departed party;
// nil: the caller plays it).
func (n *Node) adopt(s int, b bot.Player) {
	n.seats = append(n.seats, s)
	slices.Sort(n.seats)
	n.sides[s] = engine.NewSeatSide(s)
	if b != nil {
		n.bots[s] = b
	}
	for h, f := range n.known {
		n.sides[s].Learn(engine.Opened{Handle: h, Card: engine.Card(f.Card)})
	}
}

// answer is the node's part in an ask its copy of the host made.
func (n *Node) answer(a Ask) ([]protocol.Message, error) {
	switch a.What {
	case AskOpen, AskShow:
		if !n.mine(a.Party) {
			return nil, nil
		}
		o, err := n.open(handles(a.Handles))
		if err != nil {
			return nil, err
		}
		o.No = a.No
		return []protocol.Message{o}, nil
	case AskFirst:
		if !n.mine(a.Party) {
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
	case AskHand:
		if !n.mine(a.Party) {
			return nil, nil
		}
		var out []protocol.Message
		for _, h := range handles(a.Handles) {
			m, err := n.hand(h, a.To)
			if err != nil {
				return nil, err
			}
			m.No = a.No
			out = append(out, m)
		}
		return out, nil
	case AskRecover:
		if a.Party == n.Index || len(a.Handles) == 0 {
			return nil, nil
		}
		subs := []mental.SubShare{n.subs[a.Party]}
		for _, g := range sortedParties(n.heldFor) {
			for _, hs := range n.heldFor[g] {
				if hs.dealer == a.Party {
					subs = append(subs, hs.sub)
				}
			}
		}
		return n.recoverWith(a, subs)
	case AskPool:
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
	case AskPublish:
		m := protocol.DeckPublish{No: a.No, From: n.Index, Of: n.Index}
		m.Secret, _ = n.x.MarshalBinary()
		m.Shuffle, _ = n.shuf.MarshalBinary()
		out := []protocol.Message{m}
		for _, g := range sortedParties(n.rebuilt) {
			x := n.rebuilt[g]
			r := protocol.DeckPublish{No: a.No, From: n.Index, Of: g}
			r.Secret, _ = x.MarshalBinary()
			out = append(out, r)
		}
		return out, nil
	}
	return nil, nil
}

// show shows each of the node's seats the events its copy of the host
// made, in order, as far as it can: an event that names a card a seat
// is still to be handed waits for the handover.
func (n *Node) show() error {
	for len(n.queue) > 0 {
		e := &n.queue[0]
		var mine []int
		for _, s := range n.seats {
			if e.VisibleTo(s) {
				mine = append(mine, s)
			}
		}
		for _, s := range mine {
			if e.Type == engine.EventHanded && e.Target == s && !n.knows(e.Handles) {
				return nil
			}
		}
		for _, s := range mine {
			x, err := n.Event(s, e)
			if err != nil {
				return err
			}
			n.shown = append(n.shown, Shown{Seat: s, Event: x, Blind: *e})
		}
		n.queue = n.queue[1:]
	}
	return nil
}

func (n *Node) knows(hs []engine.Handle) bool {
	for _, h := range hs {
		if _, ok := n.known[h]; !ok {
			return false
		}
	}
	return true
}

// Shown is every event the node's seats were shown since the last call.
func (n *Node) Shown() []Shown {
	out := n.shown
	n.shown = nil
	return out
}

// Event is e as seat s of this node's sees it, and its bot sees it too.
// Cards it took are shown to it as they are handed. An over event's cards
// are known only at the end: the seat is shown the event without them.
func (n *Node) Event(s int, e *engine.BlindEvent) (engine.Event, error) {
	switch {
	case e.Type == engine.EventHanded && e.Target == s:
		n.taken[s] = append(n.taken[s], e.Handles...)
	case e.Type == engine.EventTake && e.Seat == s:
		n.taken[s] = append(n.taken[s], e.Handles...)
	case e.Type == engine.EventOver:
		return engine.Event{Type: engine.EventOver}, nil
	}
	n.showTaken()
	sd, ok := n.sides[s]
	if !ok {
		return engine.Event{}, fmt.Errorf("mentaltable: seat %d (party %d) was shown its %s before its hand", s, n.Index, e.Type)
	}
	x, err := sd.Event(e)
	if err != nil {
		return x, fmt.Errorf("mentaltable: seat %d (party %d) can't read its %s: %w", s, n.Index, e.Type, err)
	}
	if b, ok := n.bots[s]; ok {
		b.Observe(&x)
	}
	return x, nil
}

// Pick names seat's k least useful cards for a hand-over that ran out
// (v the seat's completed view, hand its handles).
func (n *Node) Pick(seat int, v *engine.View, hand []engine.Handle, k int) ([]engine.Handle, error) {
	hs, err := n.sides[seat].Pick(v, hand, k)
	if err != nil {
		return nil, fmt.Errorf("mentaltable: seat %d's party can't pick: %w", seat, err)
	}
	return hs, nil
}

// Command is seat s's clear command as the blind table takes it, with
// the opening of quads (which goes with the move).
func (n *Node) Command(cmd engine.Command, hand []engine.Handle) (engine.BlindCommand, *protocol.DeckOpen, error) {
	bc, err := n.sides[cmd.Seat].Command(cmd, hand)
	if err != nil {
		return bc, nil, fmt.Errorf("mentaltable: seat %d's party can't name %+v: %w", cmd.Seat, cmd, err)
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
