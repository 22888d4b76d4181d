package mentaltable

import (
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/protocol"
	"github.com/bullshit-game/bullshit/protocol/mental"
)

// OpenBound is how long the host waits for a party to turn its called
// play up before the other parties turn it up through the recovery: its
// node answers by itself, so nobody is kept waiting on a person.
const OpenBound = 1500 * time.Millisecond

// Out is what a step of the host's makes: what it asks of the parties
// next, the game's events, and a false opening it caught (refused, its
// party named, and the play turned up through the recovery instead). What
// it took goes into its log, which is what every node is sent.
type Out struct {
	Asks   []Ask
	Events []engine.BlindEvent
	Caught error
	done   *ask            // the ask the message completed
	shown  []engine.Opened // the cards it turned up for everyone
}

func (o *Out) ask(a Ask) { o.Asks = append(o.Asks, a) }

// A Host is the table's host at a blind table: it runs engine.Blind and
// its clock over what is public, relays every party's message after
// checking it against its record, and asks the parties for what the game
// needs (an opening, a handover, a recovery). It holds no secret: what it
// knows of a card is what everyone was shown.
type Host struct {
	rec *record
	B   *engine.Blind
	// Bound is how long an opening may take (OpenBound by default).
	Bound    time.Duration
	playedBy map[engine.Handle]int
	playNo   map[engine.Handle]int
	pending  []engine.BlindEvent // the deal's, until the hands are learned
	started  bool
	calling  *ask // the called play's opening, while it is due; then the first part of its recovery
	// turning is every part of the called play's recovery: the others'
	// recovery shares of its player's own cards, and each card it took
	// turned up by the party it was dealt to (recover).
	turning []*ask
	forfeit bool // the called play's opening was false: it goes against its player (R10b)
	due     time.Duration
	deck    []engine.Card // every card, at the end
	deckErr error         // or why the deck isn't every card once: a shuffler named
	log     []Input
	// Late is every party whose opening didn't come in time, Caught
	// every false opening, naming its party: the recovery turned each
	// play up instead.
	Late   []int
	Caught []error
}

func newHost(t *Public, b *engine.Blind, pending []engine.BlindEvent, strict bool) *Host {
	rec := newRecord(t, strict)
	h := &Host{rec: rec, B: b, Bound: OpenBound, playedBy: map[engine.Handle]int{}, playNo: map[engine.Handle]int{},
		pending: pending}
	rec.first = h.checkFirst
	return h
}

// checkFirst is the engine's check of V10's first card (Blind.Holder),
// made before the host's record shows the card and ends the ask: a card
// the engine would refuse after that left the record no longer waiting
// for the answer the engine still waits for.
func (h *Host) checkFirst(seat int, o engine.Opened) error {
	if !slices.Contains(h.B.Hand(seat), o.Handle) {
		return fmt.Errorf("%w: card %d isn't in seat %d's hand", ErrNotHeld, o.Handle, seat)
	}
	if first := h.B.View(-1).Rules.First.Card; o.Card != first {
		return fmt.Errorf("%w: %s isn't the %s that plays first", ErrWrongCards, o.Card, first)
	}
	return nil
}

// Waiting is the parties the table waits for.
func (h *Host) Waiting() []int { return h.rec.Waiting() }

// Take checks a party's message and, if it holds, relays it and moves the
// game on with what it proves.
func (h *Host) Take(from int, m protocol.Message) (Out, error) {
	a, shown, err := h.rec.take(from, m)
	if err != nil {
		if o, ok := m.(protocol.DeckOpen); ok && h.calling != nil && h.calling.What == AskOpen &&
			o.No == h.calling.No && from == h.calling.Party && blamed(err, from) {
			// A false opening of the called play: its node is named, and
			// the others turn the play up through the recovery.
			h.Caught = append(h.Caught, err)
			h.forfeit = true
			h.logged(Input{What: InputMsg, From: from, Msg: m})
			out := h.recover()
			out.Caught = err
			return out, nil
		}
		return Out{}, err
	}
	h.logged(Input{What: InputMsg, From: from, Msg: m})
	out := Out{done: a, shown: shown}
	if _, ok := m.(protocol.DeckDeal); ok && h.rec.dealDone() && !h.started {
		h.started = true
		out.Events = h.pending
		h.pending = nil
		h.follow(&out, out.Events)
		h.askFirst(&out)
		return out, nil
	}
	if a == nil {
		return out, nil
	}
	switch a.What {
	case AskFirst:
		ev, err := h.B.Holder(a.Seat, shown)
		if err != nil {
			return out, fmt.Errorf("mentaltable: seat %d's answer to V10: %w", a.Seat, err)
		}
		out.Events = append(out.Events, ev...)
		h.follow(&out, ev)
		h.askFirst(&out)
	case AskOpen, AskRecover, AskShow:
		if a != h.calling && !slices.Contains(h.turning, a) {
			return out, nil // quads, opened with the command
		}
		if slices.ContainsFunc(h.turning, func(x *ask) bool { return slices.Contains(h.rec.asks, x) }) {
			return out, nil // the rest of the play is still to come
		}
		ev, err := h.turnUp()
		if err != nil {
			return out, fmt.Errorf("mentaltable: the host refused the opening of %v: %w", a.Handles, err)
		}
		out.Events = append(out.Events, ev...)
		h.follow(&out, ev)
	case AskPublish:
		// Every secret is in and checked against its key: whatever the
		// deck turns out to be, the game is revealed. A shuffle that
		// doesn't check names its shuffler in every node's audit
		// (Reveal), rather than leaving the table waiting on a secret
		// refused for it.
		h.deck, h.deckErr = h.rec.deck()
	}
	return out, nil
}

// turnUp gives the engine the called play's cards, every one of them
// known to everyone now (its player's opening, or every part of the
// recovery), against the player if its opening was false.
func (h *Host) turnUp() ([]engine.BlindEvent, error) {
	h.calling, h.turning = nil, nil
	hs, _ := h.B.Opening()
	open := make([]engine.Opened, len(hs))
	for k, x := range hs {
		f, ok := h.rec.known[x]
		if !ok {
			return nil, fmt.Errorf("card %d of the play isn't turned up", x)
		}
		open[k] = engine.Opened{Handle: x, Card: engine.Card(f.Card)}
	}
	if h.forfeit {
		h.forfeit = false
		if err := h.B.Forfeit(); err != nil {
			return nil, err
		}
	}
	return h.B.Open(open)
}

// askFirst asks V10's next seat for the first card.
func (h *Host) askFirst(out *Out) {
	if s, ok := h.B.Asked(); ok {
		h.askAll(out, Ask{What: AskFirst, Party: h.rec.T.Holder[s], Seat: s})
	}
}

func (h *Host) askAll(out *Out, a Ask) {
	h.rec.ask(a)
	out.ask(a)
}

// follow reads the events for what the parties owe: the handles of each
// play, and the handovers a pile taken or a hand-over calls for.
func (h *Host) follow(out *Out, ev []engine.BlindEvent) {
	for i := range ev {
		e := &ev[i]
		switch e.Type {
		case engine.EventMine:
			for _, x := range e.Handles {
				h.playedBy[x], h.playNo[x] = e.Seat, e.No
			}
		case engine.EventTake:
			to := h.rec.T.Holder[e.Seat]
			byParty := map[int][]uint16{}
			for _, x := range e.Handles {
				if _, shown := h.rec.known[x]; shown {
					continue
				}
				if from := h.rec.T.Holder[h.playedBy[x]]; from != to {
					byParty[from] = append(byParty[from], uint16(x))
				}
			}
			for _, f := range sortedParties(byParty) {
				h.askAll(out, Ask{What: AskHand, Party: f, To: to, Seat: e.Seat, Handles: byParty[f]})
			}
		case engine.EventHanded:
			from, to := h.rec.T.Holder[e.Seat], h.rec.T.Holder[e.Target]
			if from != to {
				h.askAll(out, Ask{What: AskHand, Party: from, To: to, Seat: e.Target, Handles: wireHandles(e.Handles)})
			}
		}
	}
}

// Apply is a seat's move at time now; quads come with their opening,
// which the host checks before the engine sees the move.
func (h *Host) Apply(now time.Duration, bc engine.BlindCommand, quads *protocol.DeckOpen) (Out, error) {
	var out Out
	if !h.started {
		// No seat knows its hand until the deal is done: a move before
		// then (a bot that saw a view with no cards) is too soon.
		return out, ErrDealing
	}
	if quads != nil {
		if len(bc.Open) != len(quads.Handles) {
			return out, fault(quads.From, ErrWrongCards, "quads of %d cards opened as %d", len(bc.Open), len(quads.Handles))
		}
		want := make([]engine.Handle, len(bc.Open))
		for k, o := range bc.Open {
			want[k] = o.Handle
		}
		os, err := h.rec.checkOpen(quads, want)
		if err != nil {
			return out, err
		}
		bc.Open = opened(handles(quads.Handles), os)
	}
	in := Input{What: InputMove, At: now, Cmd: bc, Quads: quads}
	ev, err := h.B.Apply(now, bc)
	if err != nil {
		return out, fmt.Errorf("mentaltable: the host refused seat %d's %+v: %w", bc.Seat, bc, err)
	}
	h.logged(in)
	if quads != nil {
		a := Ask{What: AskOpen, Party: quads.From, Handles: slices.Clone(quads.Handles)}
		h.askAll(&out, a)
		_, shown, err := h.rec.take(quads.From, *quads)
		if err != nil {
			return out, err
		}
		out.shown = shown
	}
	out.Events = ev
	h.follow(&out, ev)
	if hs, ok := h.B.Opening(); ok {
		a := Ask{What: AskOpen, Party: h.rec.T.Holder[h.playedBy[hs[0]]], No: h.playNo[hs[0]], Handles: wireHandles(hs)}
		h.askAll(&out, a)
		h.calling, h.due = h.rec.asks[len(h.rec.asks)-1], now+h.Bound
	}
	return out, nil
}

// Deadline is when the host must next look at its clock: the game's, or
// the bound of an opening that is due.
func (h *Host) Deadline() (time.Duration, bool) {
	if h.calling != nil && h.calling.What == AskOpen {
		return h.due, true
	}
	return h.B.Deadline()
}

// Tick is the clock at now: an opening past its bound is asked of the
// other parties through the recovery; otherwise the game's own clock.
func (h *Host) Tick(now time.Duration) Out {
	var out Out
	h.logged(Input{What: InputTick, At: now})
	if a := h.calling; a != nil {
		if now < h.due || a.What != AskOpen {
			return out
		}
		h.Late = append(h.Late, a.Party)
		return h.recover()
	}
	ev := h.B.Tick(now)
	out.Events = ev
	h.follow(&out, ev)
	if s, k, ok := h.B.Picking(); ok {
		h.askAll(&out, Ask{What: AskPick, Party: h.rec.T.Holder[s], Seat: s, Count: k})
	}
	return out
}

// recover gives up on the called play's opening: the other parties turn
// its cards up. The public record lacks one share of each: the share of
// the party it was dealt to, which sent none at the deal. For a card
// dealt to the play's player, every other party gives its recovery share
// of that player's secret; a card it took in a pile is turned up by the
// party it was dealt to, which knows it. (A card turned up before needs
// nothing.) The recovery has no bound: each node answers by itself.
func (h *Host) recover() Out {
	var out Out
	a := h.calling
	var own []uint16
	show := map[int][]uint16{}
	for _, x := range a.Handles {
		_, seen := h.rec.known[engine.Handle(x)]
		switch d := h.rec.T.Dealt[x]; {
		case seen:
		case d == a.Party:
			own = append(own, x)
		default:
			show[d] = append(show[d], x)
		}
	}
	if len(own) > 0 {
		h.askAll(&out, Ask{What: AskRecover, Party: a.Party, No: a.No, Handles: own})
		h.turning = append(h.turning, h.rec.asks[len(h.rec.asks)-1])
	}
	// The player's own opening is too late from now on (an AskRecover
	// ends it too).
	h.rec.drop(a)
	for _, d := range sortedParties(show) {
		h.askAll(&out, Ask{What: AskShow, Party: d, No: a.No, Handles: show[d]})
		h.turning = append(h.turning, h.rec.asks[len(h.rec.asks)-1])
	}
	if len(h.turning) == 0 {
		// Every card was turned up before: nothing to wait for.
		ev, err := h.turnUp()
		if err == nil {
			out.Events = ev
			h.follow(&out, ev)
		}
		return out
	}
	h.calling = h.turning[0]
	return out
}

func blamed(err error, party int) bool {
	p, ok := mental.Blame(err)
	return ok && p == party
}

// Pick is a timed-out hand-over's cards, named by the giver's node.
func (h *Host) Pick(seat int, hs []engine.Handle) (Out, error) {
	var out Out
	ev, err := h.B.Pick(seat, hs)
	if err != nil {
		return out, fmt.Errorf("mentaltable: the host refused seat %d's pick %v: %w", seat, hs, err)
	}
	for _, a := range h.rec.asks {
		if a.What == AskPick && a.Seat == seat {
			h.rec.drop(a)
			break
		}
	}
	h.logged(Input{What: InputPick, Seat: seat, Picked: slices.Clone(hs)})
	out.Events = ev
	h.follow(&out, ev)
	return out, nil
}

// Leave is party gone leaving for good: the others pool their sub-shares
// of its secret to successor, which plays its seats from then on.
func (h *Host) Leave(gone, successor int) Out {
	var out Out
	h.logged(Input{What: InputLeave, Gone: gone, To: successor})
	h.askAll(&out, Ask{What: AskPool, Party: gone, To: successor})
	return out
}

// Finish asks every party for its secret, once the game is over: never
// before (a node's own copy of the host refuses a finish its game hasn't
// reached, so no host gets a secret by saying the game is over).
func (h *Host) Finish() (Out, error) {
	var out Out
	if !h.B.Over() {
		return out, fmt.Errorf("mentaltable: the game isn't over: no secret is published before the end")
	}
	h.logged(Input{What: InputFinish})
	h.askAll(&out, Ask{What: AskPublish})
	return out, nil
}

// End is the host ending the game before its end: no move is taken after
// it (every copy of the host's engine ends it too), and every party
// publishes its secret, so that the plays so far are revealed and
// audited. A host can't have the secrets and go on with the game.
func (h *Host) End() Out {
	var out Out
	h.logged(Input{What: InputEnd})
	h.B.End()
	h.calling, h.turning, h.forfeit = nil, nil, false
	h.askAll(&out, Ask{What: AskPublish})
	return out
}

// Reveal is the blind game made clear once every secret is in: the
// config and journal Replay and Audit read.
func (h *Host) Reveal() (engine.Config, []engine.Step, []engine.Card, error) {
	if h.deckErr != nil {
		return engine.Config{}, nil, nil, h.deckErr
	}
	if h.deck == nil {
		return engine.Config{}, nil, nil, fmt.Errorf("mentaltable: the secrets aren't all in (waiting for %v)", h.rec.Waiting())
	}
	cfg, steps, err := h.B.Reveal(h.deck)
	return cfg, steps, h.deck, err
}

// sortedParties are m's keys, parties, in order. (slices.Sorted of
// maps.Keys says the same, in some 4 kB more of a phone's page.)
func sortedParties[V any](m map[int]V) []int {
	ps := make([]int, 0, len(m))
	for p := range m {
		ps = append(ps, p)
	}
	sort.Ints(ps)
	return ps
}

// Owed reports whether handle x of seat's hand is still on its way, in
// h, to the node that plays the seat (a card of a pile it took, handed
// over card by card): that node can't read it yet, so no move made for
// the seat without it (an away person's, played blind) names it. A
// function, not a method: the page, which never calls it, is built
// without it (its exported methods are kept for reflection).
func Owed(h *Host, seat int, x engine.Handle) bool {
	for _, a := range h.rec.asks {
		if a.What == AskHand && a.Seat == seat && slices.Contains(a.Handles, uint16(x)) {
			return true
		}
	}
	return false
}
