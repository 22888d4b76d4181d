package mentaltable

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/bot"
	"github.com/bullshit-game/bullshit/protocol"
	"github.com/bullshit-game/bullshit/protocol/mental"
)

func opened(hs []engine.Handle, os []mental.Opening) []engine.Opened {
	out := make([]engine.Opened, len(hs))
	for k, h := range hs {
		out[k] = engine.Opened{Handle: h, Card: engine.Card(os[k].Face.Card)}
	}
	return out
}

// show gives each seat the events its node showed it since the last
// step (once the handovers they call for have crossed the wire).
func (d *Driver) show() error {
	for _, nd := range d.Nodes {
		for _, sh := range nd.Shown() {
			d.seen(sh)
		}
		if nd.gone {
			continue
		}
		if k := nd.Pending(); k > 0 || len(nd.queue) > 0 {
			return fmt.Errorf("mentaltable: party %d still waits for %d cards it took", nd.Index, k)
		}
	}
	ev := d.events
	d.events = nil
	if d.OnEvents != nil && len(ev) > 0 {
		d.OnEvents(ev)
	}
	return nil
}

// Over reports whether the game is over.
func (d *Driver) Over() bool { return d.B.Over() }

// Actions is how many actions Step has taken.
func (d *Driver) Actions() int { return d.actions }

func (d *Driver) view(s int) (*engine.View, error) {
	v := d.B.View(s)
	if err := d.Nodes[d.T.Holder[s]].View(s, &v, d.B.Hand(s), d.B.LastPlay()); err != nil {
		return nil, err
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
	if due, ok := d.H.Deadline(); ok && d.H.calling != nil && d.H.calling.What == AskOpen {
		return d.tick(due) // an opening that doesn't come
	}
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

// do plays a seat's command by handle through its node and the host;
// quads go with their opening, and a call's, a doubt's or a believe's
// play is asked of its player's node.
func (d *Driver) do(cmd engine.Command) error {
	nd := d.Nodes[d.T.Holder[cmd.Seat]]
	bc, quads, err := nd.Command(cmd, d.B.Hand(cmd.Seat))
	if err != nil {
		return err
	}
	if quads != nil {
		if quads, err = d.sendOpen(quads); err != nil {
			return err
		}
	}
	out, err := d.H.Apply(d.now, bc, quads)
	if err != nil {
		return err
	}
	return d.step(out)
}

// sendOpen carries a quads opening over the wire with its command.
func (d *Driver) sendOpen(o *protocol.DeckOpen) (*protocol.DeckOpen, error) {
	m, err := d.send(*o)
	if err != nil {
		return nil, err
	}
	sent := m.(protocol.DeckOpen)
	return &sent, nil
}

// step takes what a host step says and pumps the wire quiet.
func (d *Driver) step(out Out) error {
	d.took(out)
	if err := d.pump(nil); err != nil {
		return err
	}
	return d.pick()
}

// pick answers a timed-out hand-over's ask: the giver's node names its
// seat's least useful cards.
func (d *Driver) pick() error {
	for len(d.picks) > 0 {
		a := d.picks[0]
		d.picks = d.picks[1:]
		v, err := d.view(a.Seat)
		if err != nil {
			return err
		}
		hs, err := d.Nodes[a.Party].Pick(a.Seat, v, d.B.Hand(a.Seat), a.Count)
		if err != nil {
			return err
		}
		out, err := d.H.Pick(a.Seat, hs)
		if err != nil {
			return err
		}
		if err := d.step(out); err != nil {
			return err
		}
	}
	return nil
}

func (d *Driver) tick(at time.Duration) error {
	d.now = max(d.now, at)
	return d.step(d.H.Tick(at))
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
	g, q := d.Nodes[gone], d.Nodes[successor]
	g.gone = true
	moved := slices.Clone(g.seats)
	if err := d.step(d.H.Leave(gone, successor)); err != nil {
		return err
	}
	if _, ok := q.rebuilt[gone]; !ok {
		return fmt.Errorf("mentaltable: party %d didn't rebuild party %d's secret (waiting for %v)", successor, gone, d.H.Waiting())
	}
	q.Adopted() // the seats are told here, each with its bot
	for _, s := range moved {
		b, err := d.newBot(s)
		if err != nil {
			return err
		}
		if slices.Contains(q.seats, s) {
			q.bots[s] = b
			for h, f := range q.known {
				q.sides[s].Learn(engine.Opened{Handle: h, Card: engine.Card(f.Card)})
			}
			continue
		}
		q.adopt(s, b)
	}
	var from []int
	for j, p := range d.Parties {
		if j != gone && j != successor && !p.gone {
			from = append(from, j)
		}
	}
	d.Record = append(d.Record, fmt.Sprintf("after action %d party %d left for good; party %d rebuilt its secret from the sub-shares of parties %v and its own, "+
		"plays seat(s) %v with a bot from now on, and so knows every card those seats saw (%d cards known); party %d's shuffle can't be opened at the end",
		d.actions, gone, successor, from, moved, len(q.known), gone))
	return nil
}

// Finish ends the game: every party publishes its secret and its shuffle's
// opening (a departed one's secret by its successor), each is checked,
// every shuffle is checked, every card is decrypted, and the blind game
// is revealed and audited for every seat and a spectator.
func (d *Driver) Finish() (engine.Config, []engine.Step, error) {
	if !d.Over() {
		return engine.Config{}, nil, fmt.Errorf("mentaltable: the game isn't over")
	}
	out, err := d.H.Finish()
	if err != nil {
		return engine.Config{}, nil, err
	}
	if err := d.step(out); err != nil {
		return engine.Config{}, nil, err
	}
	cfg, steps, deck, err := d.H.Reveal()
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
