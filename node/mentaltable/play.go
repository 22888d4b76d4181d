package mentaltable

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/bot"
	"github.com/bullshit-game/bullshit/protocol/mental"
)

func opened(hs []engine.Handle, os []mental.Opening) []engine.Opened {
	out := make([]engine.Opened, len(hs))
	for k, h := range hs {
		out[k] = engine.Opened{Handle: h, Card: engine.Card(os[k].Face.Card)}
	}
	return out
}

// open has party p turn the cards hs up for everyone: the host checks the
// opening (want: the cards asked for), then every other party and the
// spectator check it too, and learn the cards.
func (d *Driver) open(p *Party, hs, want []engine.Handle) ([]mental.Opening, error) {
	m, err := p.open(hs)
	if err != nil {
		return nil, err
	}
	d.send(&m)
	os, err := checkOpen(d.T, &m, want)
	if err != nil {
		return nil, err
	}
	for _, q := range d.Parties {
		if q.gone {
			continue
		}
		qos, err := checkOpen(d.T, &m, want)
		if err != nil {
			return nil, err
		}
		q.see(m.Handles, qos)
	}
	for _, w := range []*Watcher{d.Host, d.Spectator} {
		for k, h := range m.Handles {
			w.known[h] = os[k].Face
			w.shares[h] = slices.Clone(os[k].Shares)
		}
	}
	// In the order hs asked for.
	out := make([]mental.Opening, len(hs))
	for k, h := range hs {
		out[k] = os[slices.Index(m.Handles, h)]
	}
	return out, nil
}

// deliver carries out the private handovers the events call for (a pile
// to its taker, a V14 hand-over), then shows each seat its events through
// its party's SeatSide, and its bot.
func (d *Driver) deliver(ev []engine.BlindEvent) error {
	for i := range ev {
		e := &ev[i]
		switch e.Type {
		case engine.EventMine:
			for _, h := range e.Handles {
				d.playedBy[h] = e.Seat
			}
		case engine.EventTake:
			byParty := map[int][]engine.Handle{}
			for _, h := range e.Handles {
				if _, shown := d.Host.known[h]; shown {
					continue
				}
				from := d.T.Holder[d.playedBy[h]]
				if from != d.T.Holder[e.Seat] {
					byParty[from] = append(byParty[from], h)
				}
			}
			if err := d.handOver(byParty, e.Seat, e.Handles); err != nil {
				return err
			}
		case engine.EventHanded:
			from := d.T.Holder[e.Seat]
			byParty := map[int][]engine.Handle{}
			if from != d.T.Holder[e.Target] {
				byParty[from] = e.Handles
			}
			if err := d.handOver(byParty, e.Target, e.Handles); err != nil {
				return err
			}
		}
		for s := -1; s < len(d.T.Holder); s++ {
			if !e.VisibleTo(s) {
				continue
			}
			if e.Type == engine.EventOver {
				d.over = append(d.over, *e)
				d.Received[s+1] = append(d.Received[s+1], engine.Event{Type: engine.EventOver}) // cleared at the end
				continue
			}
			if s < 0 {
				d.Received[0] = append(d.Received[0], e.Event)
				continue
			}
			p := d.Parties[d.T.Holder[s]]
			x, err := p.sides[s].Event(e)
			if err != nil {
				return fmt.Errorf("mentaltable: seat %d (party %d) can't read its %s: %w", s, p.Index, e.Type, err)
			}
			d.Received[s+1] = append(d.Received[s+1], x)
			p.bots[s].Observe(&x)
		}
	}
	if d.OnEvents != nil && len(ev) > 0 {
		d.OnEvents(ev)
	}
	return nil
}

// handOver has each party of byParty seal its cards to seat to's party,
// which checks each against what it was to be handed; then seat to's
// SeatSide learns all of cards (its party knows them now, or knew them).
func (d *Driver) handOver(byParty map[int][]engine.Handle, to int, cards []engine.Handle) error {
	q := d.Parties[d.T.Holder[to]]
	for _, f := range slices.Sorted(maps.Keys(byParty)) {
		want := byParty[f]
		for _, h := range want {
			m, err := d.Parties[f].hand(h, q.Index)
			if err != nil {
				return err
			}
			d.send(&m)
			d.sealed = append(d.sealed, m)
			if err := q.receive(&m, q.Index, want, []int{to}); err != nil {
				return err
			}
		}
	}
	for _, h := range cards {
		f, ok := q.known[h]
		if !ok {
			return fmt.Errorf("mentaltable: party %d was never shown card %d of seat %d's", q.Index, h, to)
		}
		q.sides[to].Learn(engine.Opened{Handle: h, Card: engine.Card(f.Card)})
	}
	return nil
}

// Over reports whether the game is over.
func (d *Driver) Over() bool { return d.B.Over() }

// Actions is how many actions Step has taken.
func (d *Driver) Actions() int { return d.actions }

func (d *Driver) view(s int) (*engine.View, error) {
	v := d.B.View(s)
	p := d.Parties[d.T.Holder[s]]
	if err := p.sides[s].View(&v, d.B.Hand(s), d.B.LastPlay()); err != nil {
		return nil, fmt.Errorf("mentaltable: seat %d's view on party %d: %w", s, p.Index, err)
	}
	return &v, nil
}

func (d *Driver) act(s int) (engine.Command, time.Duration, bool, error) {
	v, err := d.view(s)
	if err != nil {
		return engine.Command{}, 0, false, err
	}
	cmd, think, ok := d.Parties[d.T.Holder[s]].bots[s].Act(v)
	return cmd, max(think, time.Millisecond), ok, nil
}

// Step moves the game on by one action: a seat's bot's move, or the clock.
func (d *Driver) Step() error {
	d.actions++
	b := d.B
	switch b.Phase() {
	case engine.PhasePlay:
		s := b.Turn()
		cmd, think, ok, err := d.act(s)
		if err != nil {
			return err
		}
		if !ok {
			v, _ := d.view(s)
			if cmd, ok = bot.Fallback(v); !ok {
				return fmt.Errorf("mentaltable: seat %d has a turn and no move", s)
			}
		}
		d.now += think
		return d.do(cmd)
	case engine.PhaseCall:
		closes, _ := b.Deadline()
		v := b.View(-1)
		askers := append([]int(nil), v.Window.Callers...)
		if d.rules.Rapid && !slices.Contains(askers, b.Turn()) {
			askers = append(askers, b.Turn())
		}
		var best engine.Command
		bestAt, found := time.Duration(0), false
		for _, s := range askers {
			cmd, think, ok, err := d.act(s)
			if err != nil {
				return err
			}
			if ok && (!found || think < bestAt) {
				best, bestAt, found = cmd, think, true
			}
		}
		if !found || d.rng.IntN(8) == 0 || d.now+bestAt >= closes {
			return d.tick(closes + time.Duration(d.rng.IntN(3))*time.Millisecond)
		}
		d.now += bestAt
		return d.do(best)
	case engine.PhaseGive:
		closes, _ := b.Deadline()
		v := b.View(-1)
		cmd, think, ok, err := d.act(v.Give.From)
		if err != nil {
			return err
		}
		if !ok || d.rng.IntN(3) == 0 || d.now+think >= closes {
			return d.tick(closes + time.Duration(d.rng.IntN(500))*time.Millisecond)
		}
		d.now += think
		return d.do(cmd)
	}
	return fmt.Errorf("mentaltable: no move in phase %v", b.Phase())
}

// do plays a seat's command by handle; quads are opened first, and a
// call's, a doubt's or a believe's play is opened by its player's party.
func (d *Driver) do(cmd engine.Command) error {
	s := cmd.Seat
	p := d.Parties[d.T.Holder[s]]
	bc, err := p.sides[s].Command(cmd, d.B.Hand(s))
	if err != nil {
		return fmt.Errorf("mentaltable: seat %d's party can't name %+v: %w", s, cmd, err)
	}
	if len(bc.Open) > 0 {
		hs := make([]engine.Handle, len(bc.Open))
		for k, o := range bc.Open {
			hs[k] = o.Handle
		}
		os, err := d.open(p, hs, hs)
		if err != nil {
			return err
		}
		bc.Open = opened(hs, os)
	}
	ev, err := d.B.Apply(d.now, bc)
	if err != nil {
		return fmt.Errorf("mentaltable: the host refused seat %d's %+v: %w", s, bc, err)
	}
	if hs, ok := d.B.Opening(); ok {
		player := d.Parties[d.T.Holder[d.playedBy[hs[0]]]]
		os, err := d.open(player, hs, hs)
		if err != nil {
			return err
		}
		more, err := d.B.Open(opened(hs, os))
		if err != nil {
			return fmt.Errorf("mentaltable: the host refused the opening of %v: %w", hs, err)
		}
		ev = append(ev, more...)
	}
	return d.deliver(ev)
}

func (d *Driver) tick(at time.Duration) error {
	d.now = max(d.now, at)
	ev := d.B.Tick(at)
	if s, k, ok := d.B.Picking(); ok {
		v, err := d.view(s)
		if err != nil {
			return err
		}
		hs, err := d.Parties[d.T.Holder[s]].sides[s].Pick(v, d.B.Hand(s), k)
		if err != nil {
			return fmt.Errorf("mentaltable: seat %d's party can't pick: %w", s, err)
		}
		more, err := d.B.Pick(s, hs)
		if err != nil {
			return fmt.Errorf("mentaltable: the host refused seat %d's pick %v: %w", s, hs, err)
		}
		ev = append(ev, more...)
	}
	return d.deliver(ev)
}

// Play steps until the game is over (or limit actions).
func (d *Driver) Play(limit int) error {
	for !d.Over() {
		if d.actions >= limit {
			return fmt.Errorf("mentaltable: the game doesn't end in %d actions", limit)
		}
		if err := d.Step(); err != nil {
			return err
		}
	}
	return nil
}

// Leave is party gone leaving for good: every other party seals its
// sub-share of gone's secret to successor, which checks each, rebuilds the
// secret, opens every handover ever sealed to gone, and plays gone's seats
// with a bot from now on. The successor then knows every card those seats
// saw (and so the rest of their hands): the record says so.
func (d *Driver) Leave(gone, successor int) error {
	if gone == successor || d.Parties[gone].gone || d.Parties[successor].gone {
		return fmt.Errorf("mentaltable: party %d can't take over from party %d", successor, gone)
	}
	g, q := d.Parties[gone], d.Parties[successor]
	g.gone = true
	subs := []mental.SubShare{q.subs[gone]}
	var from []int
	for j, h := range d.Parties {
		if j == gone || j == successor || h.gone {
			continue
		}
		sub := h.subs[gone]
		b, _ := sub.MarshalBinary()
		s, err := mental.Seal(h.rand, &d.T.Keys[successor], d.T.Ctx, b)
		if err != nil {
			return err
		}
		m := Pool{From: j, To: successor, Dealer: gone}
		m.Sealed, _ = s.MarshalBinary()
		d.send(&m)
		var sealed mental.Sealed
		if err := sealed.UnmarshalBinary(m.Sealed); err != nil {
			return fault(j, err, "sub-share of party %d's secret", gone)
		}
		plain, err := sealed.Open(&q.x, d.T.Ctx)
		if err != nil {
			return fault(j, err, "sub-share of party %d's secret", gone)
		}
		var got mental.SubShare
		if err := got.UnmarshalBinary(plain); err != nil {
			return fault(j, err, "sub-share of party %d's secret", gone)
		}
		subs = append(subs, got)
		from = append(from, j)
	}
	x, err := mental.Recover(gone, &d.T.Keys[gone], &d.T.Commits[gone], subs)
	if err != nil {
		return err
	}
	q.rebuilt[gone] = x
	// gone's share of every card, and so every card gone's party held.
	for h := range d.T.Deck {
		sh, err := mental.DecryptShare(q.rand, &x, &d.T.Deck[h], d.T.Ctx)
		if err != nil {
			return err
		}
		q.put(engine.Handle(h), gone, sh)
	}
	for h := range d.T.Deck {
		if _, ok := q.known[engine.Handle(h)]; ok || !slices.Equal(q.has[h], allTrue(len(q.has[h]))) {
			continue
		}
		f, err := d.T.CB.Reveal(&d.T.Deck[h], q.shares[h])
		if err != nil {
			return fault(gone, err, "card %d under its rebuilt secret", h)
		}
		q.known[engine.Handle(h)] = f
	}
	moved := slices.Clone(g.seats)
	for _, s := range moved {
		d.T.Holder[s] = successor
		q.seats = append(q.seats, s)
		q.sides[s] = engine.NewSeatSide(s)
		b, err := bot.New(bot.Names[d.rng.IntN(len(bot.Names))], s, d.rng.Uint64())
		if err != nil {
			return err
		}
		q.bots[s] = b
	}
	for i := range d.sealed {
		m := &d.sealed[i]
		if m.To == gone {
			if err := q.receive(m, gone, []engine.Handle{m.Handle}, nil); err != nil {
				return err
			}
		}
	}
	for _, s := range q.seats {
		for h, f := range q.known {
			q.sides[s].Learn(engine.Opened{Handle: h, Card: engine.Card(f.Card)})
		}
	}
	slices.Sort(q.seats)
	d.Record = append(d.Record, fmt.Sprintf("after action %d party %d left for good; party %d rebuilt its secret from the sub-shares of parties %v and its own, "+
		"plays seat(s) %v with a bot from now on, and so knows every card those seats saw (%d cards known); party %d's shuffle can't be opened at the end",
		d.actions, gone, successor, from, moved, len(q.known), gone))
	return nil
}

func allTrue(n int) []bool {
	out := make([]bool, n)
	for i := range out {
		out[i] = true
	}
	return out
}

// Finish ends the game: every party publishes its secret and its shuffle's
// opening (a departed one's secret by its successor), each is checked,
// every shuffle is checked, every card is decrypted, and the blind game
// is revealed and audited for every seat and a spectator.
func (d *Driver) Finish() (engine.Config, []engine.Step, error) {
	if !d.Over() {
		return engine.Config{}, nil, fmt.Errorf("mentaltable: the game isn't over")
	}
	n := len(d.Parties)
	secrets := make([]mental.Secret, n)
	opens := make([]mental.ShuffleOpening, n)
	missing := -1
	for i, p := range d.Parties {
		var m Publish
		if p.gone {
			missing = i
			for _, q := range d.Parties {
				if x, ok := q.rebuilt[i]; ok {
					m.From = q.Index
					m.Secret, _ = x.MarshalBinary()
				}
			}
		} else {
			m.From = i
			m.Secret, _ = p.x.MarshalBinary()
			m.Shuffle, _ = p.shuf.MarshalBinary()
		}
		d.send(&m)
		if err := secrets[i].UnmarshalBinary(m.Secret); err != nil {
			return engine.Config{}, nil, fault(m.From, err, "published secret of party %d", i)
		}
		if err := mental.CheckSecret(i, &secrets[i], &d.T.Keys[i]); err != nil {
			return engine.Config{}, nil, fault(m.From, err, "published secret of party %d", i)
		}
		if !p.gone {
			if err := opens[i].UnmarshalBinary(m.Shuffle); err != nil {
				return engine.Config{}, nil, fault(i, err, "shuffle opening")
			}
		}
	}
	if missing < 0 {
		if err := mental.CheckShuffles(&d.T.Joint, d.T.Initial, d.T.Steps, opens, d.T.Ctx); err != nil {
			return engine.Config{}, nil, err
		}
	} else {
		in := d.T.Initial
		for i := range d.T.Steps {
			if i != missing {
				if err := opens[i].Check(&d.T.Joint, in, &d.T.Steps[i], d.T.Ctx); err != nil {
					return engine.Config{}, nil, fault(i, err, "")
				}
			}
			in = d.T.Steps[i].Out
		}
	}
	deck := make([]engine.Card, len(d.T.Deck))
	seen := map[mental.Face]bool{}
	for h := range d.T.Deck {
		f, err := d.T.CB.Decrypt(&d.T.Deck[h], secrets)
		if err != nil || seen[f] {
			return engine.Config{}, nil, fmt.Errorf("%w: card %d is %v (%v)", ErrDeck, h, f, err)
		}
		seen[f] = true
		deck[h] = engine.Card(f.Card)
	}
	cfg, steps, err := d.B.Reveal(deck)
	if err != nil {
		return engine.Config{}, nil, err
	}
	k := 0
	for s := range d.Received {
		for i := range d.Received[s] {
			if d.Received[s][i].Type == engine.EventOver && k < len(d.over) {
				d.Received[s][i] = d.over[k].Clear(deck)
				k++
			}
		}
	}
	var bad []string
	for s := -1; s < cfg.Seats; s++ {
		for _, b := range engine.Audit(cfg, steps, s, d.Received[s+1]) {
			bad = append(bad, fmt.Sprintf("seat %d: %s", s, b))
		}
	}
	if bad != nil {
		return cfg, steps, fmt.Errorf("mentaltable: the audit fails: %s", strings.Join(bad, "; "))
	}
	return cfg, steps, nil
}
