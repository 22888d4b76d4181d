package engine

import (
	"math/rand/v2"
	"slices"
	"time"
)

// A blind game is Bullshit at a table where no node, the host included,
// sees a card its seat would not see at a real table (issue 24). The deck
// is shuffled and dealt as ciphertexts nobody can read alone; the host
// runs Blind over what is public — whose turn, the counts, the claims, the
// windows, which physical card went where — and every card's identity
// that the rules need comes in as a proven input: the cards a call, a
// doubt or a believe turned up (Open), V9's four laid face up (Quads),
// V10's opening of the first card (Holder), a timed-out hand-over's cards,
// chosen by the giver's own node (Pick). The proofs themselves are the
// caller's (protocol/mental): Blind takes an opening as vouched for, checks
// it against the rules and what it knows, and never guesses one. A seat's
// own node holds its cards' identities in a SeatSide, which makes the
// decisions that need them.
//
// Blind and Game embed one table: the same rules, the same events, the
// same views. At the end every identity is revealed (Reveal) and the game
// becomes a clear Config and journal that Replay and Audit play in the
// clear: the same game, move for move.

// A Handle is one physical card of a blind table: its position in the
// shuffled deck, 0 … Total-1. It is public; its identity is not.
type Handle uint16

// Opened is a handle with the identity an opening proved.
type Opened struct {
	Handle Handle `json:"handle"`
	Card   Card   `json:"card"`
}

// BlindConfig is what a blind game is a function of, besides its commands
// and its openings: the seed picks the dealer (and V10's random first seat
// and rank) as it does for a clear game; the deck's order is the shuffle's.
type BlindConfig struct {
	Rules Rules
	Seats int
	Seed  uint64
}

// A BlindCommand is a seat's move at a blind table, as Command with the
// cards named by handle: Handles for play and give, Open for quads (the
// four laid face up, with their identities).
type BlindCommand struct {
	Move    Move     `json:"move"`
	Seat    int      `json:"seat"`
	Handles []Handle `json:"handles,omitempty"`
	Open    []Opened `json:"open,omitempty"`
	Claim   int      `json:"claim,omitempty"`
	Rank    Rank     `json:"rank"`
	No      int      `json:"no,omitempty"`
}

// A BlindEvent is an Event of a blind table. Its Cards are only cards
// turned up for everyone (reveal, quads, leave); where an Event would
// carry a seat's own cards (hand, mine, handed) or the end's every card
// (over), Handles and Hands name them by handle, and the seat's SeatSide,
// or Reveal's deck at the end, gives them faces (SeatSide.Event,
// BlindEvent.Clear). Handles also says which cards went down in a play,
// which moved where a pile moved (take, leave) and which a reveal turned
// up: which physical card went where is public at a real table.
type BlindEvent struct {
	Event
	Handles []Handle
	Hands   [][]Handle // over: every hand
}

// A BlindStep is a blind game's journal line, as Step.
type BlindStep struct {
	At  time.Duration `json:"at"`
	Cmd *BlindCommand `json:"cmd,omitempty"`
}

// The refusals only a blind table makes.
const (
	CodeWaiting    Code = "waiting"     // a proven input is due first
	CodeBadOpening Code = "bad_opening" // an opening that isn't the cards asked for
)

var (
	ErrWaiting    = refuse(CodeWaiting, "Wait: the table is waiting for cards to be turned up.")
	ErrBadOpening = refuse(CodeBadOpening, "Those aren't the cards that were to be turned up.")
)

// What a blind game waits for before anything else may happen.
type waitKind uint8

const (
	waitNone   waitKind = iota
	waitHolder          // V10: seat, in deal order, to show the first card or say it has none
	waitOpen            // the last play's cards, turned up by seat's move
	waitPick            // a timed-out hand-over: seat's node names the cards
)

type blindWait struct {
	kind  waitKind
	seat  int
	move  Move // waitOpen: call, doubt or believe
	step  int  // waitOpen: that move's place in the journal
	asked int  // waitHolder: seats that said they have none
}

// Blind is a game over hidden cards. Its methods are not safe for
// concurrent use: the host serialises commands and openings.
type Blind struct {
	table
	hands [][]Handle // each sorted by handle
	pile  []Handle   // bottom first
	by    []int      // by[i] played pile[i]
	gone  []Handle   // out of the game (V9, V15)
	lastH []Handle   // the last play's cards, as placed
	left  int        // the dealer's left: V10 asks from there
	seed  uint64
	wait  blindWait
	// shown is every identity an opening proved, for everyone: turned-up
	// plays, quads, the first card. Nothing else here names a card.
	shown   map[Handle]Card
	journal []BlindStep
	tags    []blindTag // the handles of the events not yet flushed
	deck    []Card     // every identity, once Reveal has it
	ended   bool       // the host ended the game before its end (End)
}

// ErrEnded refuses a move of a game the host ended early.
var ErrEnded = refuse(CodeGameOver, "The host ended the game.")

// End is the host ending the game before its end: no move, opening or
// pick is taken after it, and Reveal gives the game so far, for an audit
// of the plays made.
func (b *Blind) End() { b.ended = true }

// Ended reports whether the host ended the game before its end.
func (b *Blind) Ended() bool { return b.ended }

type blindTag struct {
	at      int
	handles []Handle
	hands   [][]Handle
}

// NewBlind deals a blind game: handle i, the deck's i-th card, goes to the
// seats one at a time from the first to be dealt, as New deals a shuffled
// deck. It returns the deal's events, or none while V10 waits for the
// holder of the first card (Holder).
func NewBlind(cfg BlindConfig) (*Blind, []BlindEvent, error) {
	r := cfg.Rules
	if err := r.Check(cfg.Seats); err != nil {
		return nil, nil, err
	}
	n := cfg.Seats
	b := &Blind{table: newTable(r, n), shown: map[Handle]Card{}, seed: cfg.Seed}
	rng := rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15))
	b.dealer = rng.IntN(n)
	b.left = b.next(b.dealer)
	first := b.left
	if r.First.Random {
		first = rng.IntN(n)
		b.start = Rank(rng.IntN(NumRanks))
	}
	b.total = b.decks * (52 + r.Jokers)
	b.hands = make([][]Handle, n)
	for s := range b.hands {
		b.hands[s] = make([]Handle, 0, b.total)
	}
	for i, s := 0, first; i < b.total; i, s = i+1, b.next(s) {
		b.hands[s] = append(b.hands[s], Handle(i))
	}
	b.first, b.turn = first, first
	b.pile = make([]Handle, 0, b.total)
	b.by = make([]int, 0, b.total)
	b.order()
	if r.First.Holder {
		b.wait = blindWait{kind: waitHolder, seat: b.left}
		return b, nil, nil
	}
	b.emitDeal()
	return b, b.flushBlind(), nil
}

func (b *Blind) emitDeal() {
	sizes := make([]Count, b.n)
	for s, h := range b.hands {
		sizes[s] = Seen(len(h), false, b.rules.Rough)
	}
	b.emit(Event{Type: EventDeal, Seat: b.dealer, Target: b.first, Rank: b.required(), Counts: sizes})
	for s, h := range b.hands {
		b.emitTagged(Event{Type: EventHand, To: b.only(s), Seat: s}, h)
	}
}

// emitTagged emits e with the handles it names.
func (b *Blind) emitTagged(e Event, hs []Handle) {
	b.emit(e)
	b.tag(hs)
}

// tag names the handles of the event just emitted.
func (b *Blind) tag(hs []Handle) {
	b.tags = append(b.tags, blindTag{at: len(b.events) - 1, handles: append([]Handle(nil), hs...)})
}

func (b *Blind) flushBlind() []BlindEvent {
	ev := b.flush()
	if ev == nil {
		b.tags = b.tags[:0]
		return nil
	}
	out := make([]BlindEvent, len(ev))
	for i, e := range ev {
		out[i].Event = e
	}
	for _, t := range b.tags {
		out[t.at].Handles, out[t.at].Hands = t.handles, t.hands
	}
	b.tags = b.tags[:0]
	return out
}

// Asked is the seat V10 waits on to show the first card or say it holds
// none, and whether it waits at all.
func (b *Blind) Asked() (int, bool) { return b.wait.seat, b.wait.kind == waitHolder }

// Holder is V10's first player from the holder's opening: the seat asked
// (Asked) shows one card it holds that is the rules' first card, or, with
// none, says so. The first seat in deal order from the dealer's left to
// show it plays first; when every seat has said none, the dealer's left
// does, as New decides. A seat that held it and said none is caught when
// the game is replayed in the clear (Reveal, Audit).
func (b *Blind) Holder(seat int, open []Opened) ([]BlindEvent, error) {
	if b.ended {
		return nil, ErrEnded
	}
	if b.wait.kind != waitHolder {
		return nil, refuse(CodeNoWindow, "Nobody is asked for the first card now.")
	}
	if seat != b.wait.seat {
		return nil, refusef(CodeNotYourTurn, "Seat %d shows the first card or says it has none first.", b.wait.seat)
	}
	switch len(open) {
	case 0:
		b.wait.asked++
		b.wait.seat = b.next(seat)
		if b.wait.asked < b.n {
			return nil, nil
		}
		seat = b.left
	case 1:
		o := open[0]
		if !slices.Contains(b.hands[seat], o.Handle) {
			return nil, refuse(CodeNotInHand, "That card isn't in your hand.")
		}
		if o.Card != b.rules.First.Card {
			return nil, refusef(CodeBadOpening, "That's %s, not the %s that plays first.", o.Card, b.rules.First.Card)
		}
		b.shown[o.Handle] = o.Card
	default:
		return nil, refuse(CodeBadCount, "Show one card: the one that plays first.")
	}
	b.wait = blindWait{}
	b.first, b.turn = seat, seat
	b.emitDeal()
	return b.flushBlind(), nil
}

// Apply applies a seat's command at time now, as Game.Apply. A call, a
// doubt or a believe leaves the game waiting for the play's cards (Open).
func (b *Blind) Apply(now time.Duration, c BlindCommand) ([]BlindEvent, error) {
	if b.ended {
		return nil, ErrEnded
	}
	var err error
	switch c.Move {
	case MovePlay:
		err = b.play(now, c.Seat, c.Handles, c.Claim, c.Rank)
	case MoveCall:
		err = b.call(now, c.Seat, c.No)
	case MovePass:
		if err = b.ready(c.Seat); err == nil {
			err = b.pass(b, now, c.Seat, c.No)
		}
	case MoveGive:
		err = b.hand(now, c.Seat, c.Handles)
	case MoveQuads:
		err = b.quads(now, c.Seat, c.Open)
	case MoveDoubt, MoveBelieve, MoveSkip:
		err = b.judge(now, c.Move, c.Seat, c.No)
	case MoveResume:
		if b.wait.kind != waitNone && b.phase != PhaseOver {
			err = ErrWaiting
		} else {
			err = b.resume(now)
		}
	default:
		err = refuse(CodeBadCommand, "That isn't a move.")
	}
	if err != nil {
		b.events = b.events[:0]
		b.tags = b.tags[:0]
		return nil, err
	}
	c.Handles = slices.Clone(c.Handles)
	c.Open = slices.Clone(c.Open)
	if c.Move != MoveQuads {
		// Only quads come opened: a card another command carries is
		// no opening, and the journal (which the host keeps) holds none.
		c.Open = nil
	}
	b.journal = append(b.journal, BlindStep{At: now, Cmd: &c})
	if b.wait.kind == waitOpen {
		b.wait.step = len(b.journal) - 1
	}
	return b.flushBlind(), nil
}

// ready is checkSeat, and nothing waited for.
func (b *Blind) ready(seat int) error {
	if err := b.checkSeat(seat); err != nil {
		return err
	}
	if b.wait.kind != waitNone {
		return b.waiting()
	}
	return nil
}

func (b *Blind) waiting() error {
	switch b.wait.kind {
	case waitHolder:
		return refusef(CodeWaiting, "Wait: seat %d is to show the first card or say it has none.", b.wait.seat)
	case waitOpen:
		return refusef(CodeWaiting, "Wait: play %d is being turned up.", b.last.no)
	case waitPick:
		return refusef(CodeWaiting, "Wait: seat %d's cards are being handed over.", b.wait.seat)
	}
	return nil
}

// checkHandles is checkCards for handles: each a card of this deck, none
// named twice.
func (b *Blind) checkHandles(hs []Handle) error {
	for i, h := range hs {
		if int(h) >= b.total {
			return refuse(CodeBadCard, "That isn't a card.")
		}
		if slices.Contains(hs[:i], h) {
			return refuse(CodeNotInHand, "You named one card twice.")
		}
	}
	return nil
}

// holds reports whether seat holds every handle of hs (checkHandles'd).
func (b *Blind) holds(seat int, hs []Handle) bool {
	for _, h := range hs {
		if _, ok := slices.BinarySearch(b.hands[seat], h); !ok {
			return false
		}
	}
	return true
}

// take removes hs from seat's hand, which holds them.
func (b *Blind) take(seat int, hs []Handle) {
	h := b.hands[seat]
	for _, x := range hs {
		if i, ok := slices.BinarySearch(h, x); ok {
			h = slices.Delete(h, i, i+1)
		}
	}
	b.hands[seat] = h
}

func (b *Blind) add(seat int, hs []Handle) {
	b.hands[seat] = append(b.hands[seat], hs...)
	slices.Sort(b.hands[seat])
}

func (b *Blind) play(now time.Duration, seat int, hs []Handle, claim int, rank Rank) error {
	if err := b.ready(seat); err != nil {
		return err
	}
	if err := b.checkHandles(hs); err != nil {
		return err
	}
	over, err := b.checkTurn(seat)
	if err != nil {
		return err
	}
	if !b.holds(seat, hs) {
		return refuse(CodeNotInHand, "You don't hold those cards.")
	}
	k := len(hs)
	c := b.claims()
	claim, rank, err = c.Claim(k, claim, rank)
	if err != nil {
		return err
	}
	b.touch(now)
	if over {
		b.stand(b)
	}
	rough := b.rules.Rough
	sizes := Sizes{HandBefore: Seen(len(b.hands[seat]), false, rough), PileBefore: Seen(len(b.pile), true, rough)}
	b.take(seat, hs)
	b.pile = append(b.pile, hs...)
	for range hs {
		b.by = append(b.by, seat)
	}
	left := len(b.hands[seat])
	sizes.HandAfter = Seen(left, false, rough)
	sizes.PileAfter = Seen(len(b.pile), true, rough)
	b.played(seat, k, claim, rank, nil, sizes, left)
	b.tag(hs) // which physical cards went down is public; what they are is not
	b.lastH = append(b.lastH[:0], hs...)
	b.emitTagged(Event{Type: EventMine, To: b.only(seat), Seat: seat, No: b.plays}, hs)
	b.afterPlay(b, seat, rank)
	return nil
}

func (b *Blind) call(now time.Duration, seat, no int) error {
	if err := b.ready(seat); err != nil {
		return err
	}
	if err := b.windowCheck(now, seat, no, "call"); err != nil {
		return err
	}
	b.called(now, seat)
	b.wait = blindWait{kind: waitOpen, seat: seat, move: MoveCall}
	return nil
}

func (b *Blind) judge(now time.Duration, m Move, seat, no int) error {
	if err := b.ready(seat); err != nil {
		return err
	}
	if err := b.checkJudge(m, seat, no); err != nil {
		return err
	}
	if m == MoveSkip {
		b.skip(b, now, seat)
		return nil
	}
	b.judged(now, m, seat)
	b.wait = blindWait{kind: waitOpen, seat: seat, move: m}
	return nil
}

// Opening is the handles the game waits to see turned up, in the order
// they were placed: the last play's, after a call, a doubt or a believe.
func (b *Blind) Opening() ([]Handle, bool) {
	if b.wait.kind != waitOpen {
		return nil, false
	}
	return slices.Clone(b.lastH), true
}

// Open is the called, doubted or believed play turned up: the identity of
// each of its cards, proven. The verdict is read from them (R10, V7, V12,
// V14) and the rules go on as at a clear table. An opening of other cards
// than the play's, or of a card twice, is refused and changes nothing.
func (b *Blind) Open(open []Opened) ([]BlindEvent, error) {
	if b.ended {
		return nil, ErrEnded
	}
	if b.wait.kind != waitOpen {
		return nil, refuse(CodeNoWindow, "No play is being turned up.")
	}
	cards, err := b.opening(b.lastH, open)
	if err != nil {
		return nil, err
	}
	for i, h := range b.lastH {
		b.shown[h] = cards[i]
	}
	b.last.cards = append(b.last.cards[:0], cards...)
	p := &b.last
	w := b.wait
	truth := b.verdict(Truth(cards, p.claim, p.rank, p.sneaked), w.move)
	b.wait = blindWait{}
	switch w.move {
	case MoveCall:
		b.settle(b, w.seat, truth)
	case MoveDoubt:
		b.settleDoubt(b, w.seat, truth)
	case MoveBelieve:
		b.settleBelieve(b, w.seat, truth)
	}
	if n := len(b.events); n > 0 && b.events[0].Type == EventReveal {
		b.tags = append(b.tags, blindTag{at: 0, handles: slices.Clone(b.lastH)})
		slices.SortStableFunc(b.tags, func(x, y blindTag) int { return x.at - y.at })
	}
	return b.flushBlind(), nil
}

// Forfeit is the play being turned up going against its player (R10b):
// its node turned it up falsely, so whatever its cards (which Open still
// takes, turned up by the others) the call or the doubt finds a lie, the
// believe the truth. The journal holds it just before the move that
// turned the play up, as the clear game replays it (MoveForfeit).
func (b *Blind) Forfeit() error {
	if b.ended {
		return ErrEnded
	}
	if b.wait.kind != waitOpen {
		return refuse(CodeNoWindow, "No play is being turned up.")
	}
	l := &b.last
	if l.forfeit {
		return nil
	}
	l.forfeit = true
	at := b.wait.step
	c := BlindCommand{Move: MoveForfeit, Seat: l.seat, No: l.no, Rank: NoRank}
	// Inserted by hand: slices.Insert's instance is 5 kB of a phone's page.
	b.journal = append(b.journal, BlindStep{})
	copy(b.journal[at+1:], b.journal[at:])
	b.journal[at] = BlindStep{At: b.journal[at+1].At, Cmd: &c}
	b.wait.step++
	return nil
}

// opening matches open to want, handle for handle, and returns the cards
// in want's order.
func (b *Blind) opening(want []Handle, open []Opened) ([]Card, error) {
	if len(open) != len(want) {
		return nil, refusef(CodeBadOpening, "Turn up the play's %d card(s), not %d.", len(want), len(open))
	}
	cards := make([]Card, len(want))
	done := make([]bool, len(want))
	for _, o := range open {
		i := slices.Index(want, o.Handle)
		if i < 0 {
			return nil, refusef(CodeBadOpening, "Card %d isn't one of the play's: turn up the play's own cards.", o.Handle)
		}
		if done[i] {
			return nil, refusef(CodeBadOpening, "Card %d is turned up twice.", o.Handle)
		}
		if !o.Card.Valid() {
			return nil, refuse(CodeBadCard, "That isn't a card.")
		}
		cards[i], done[i] = o.Card, true
	}
	return cards, nil
}

func (b *Blind) hand(now time.Duration, seat int, hs []Handle) error {
	if err := b.ready(seat); err != nil {
		return err
	}
	if err := b.checkHandles(hs); err != nil {
		return err
	}
	if err := b.checkGive(now, seat, len(hs), b.holds(seat, hs)); err != nil {
		return err
	}
	b.touch(now)
	b.transfer(hs, false)
	return nil
}

func (b *Blind) transfer(hs []Handle, auto bool) {
	from, to := b.give.from, b.give.to
	b.take(from, hs)
	b.add(to, hs)
	b.gave(len(hs), auto)
	b.emitTagged(Event{Type: EventHanded, To: []int{from, to}, Seat: from, Target: to}, hs)
	b.gaveOver(b)
}

// Picking is the seat whose node names the cards of a timed-out hand-over
// (Pick) and how many, and whether one is due.
func (b *Blind) Picking() (seat, n int, ok bool) {
	if b.wait.kind != waitPick {
		return 0, 0, false
	}
	return b.wait.seat, b.give.n, true
}

// Pick is a timed-out hand-over (V14): the caller's own node names the
// cards its seat would be asked for last (View.LeastUseful), which the
// host can't know. Cards the seat doesn't hold, or too many, are refused;
// a pick that holds but isn't the least useful is caught in the clear
// replay, where the engine picks them itself.
func (b *Blind) Pick(seat int, hs []Handle) ([]BlindEvent, error) {
	if b.ended {
		return nil, ErrEnded
	}
	if b.wait.kind != waitPick {
		return nil, refuse(CodeNoWindow, "No hand-over is due.")
	}
	if seat != b.wait.seat {
		return nil, refusef(CodeNotYourTurn, "Seat %d's node names the cards it hands over.", b.wait.seat)
	}
	if err := b.checkHandles(hs); err != nil {
		return nil, err
	}
	if len(hs) != b.give.n {
		return nil, refusef(CodeBadCount, "Hand over exactly %d card(s).", b.give.n)
	}
	if !b.holds(seat, hs) {
		return nil, refuse(CodeNotInHand, "That card isn't in your hand: the least useful card is one you hold.")
	}
	b.wait = blindWait{}
	b.transfer(hs, true)
	return b.flushBlind(), nil
}

func (b *Blind) quads(now time.Duration, seat int, open []Opened) error {
	if err := b.ready(seat); err != nil {
		return err
	}
	hs := make([]Handle, len(open))
	cards := make([]Card, len(open))
	for i, o := range open {
		hs[i], cards[i] = o.Handle, o.Card
	}
	if err := b.checkHandles(hs); err != nil {
		return err
	}
	if err := checkCards(cards); err != nil {
		return err
	}
	if err := b.checkQuads(seat); err != nil {
		return err
	}
	if !b.holds(seat, hs) {
		return refuse(CodeNotInHand, "You don't hold those cards.")
	}
	r, err := quadOf(cards)
	if err != nil {
		return err
	}
	if !b.rules.Quads {
		return refuse(CodeNotAllowed, "This table doesn't lay out four of a kind.")
	}
	if len(b.hands[seat]) == 4 {
		return refuse(CodeNotAllowed, "Four of a kind can't empty your hand: play your last cards instead.")
	}
	b.touch(now)
	b.take(seat, hs)
	b.gone = append(b.gone, hs...)
	for i, h := range hs {
		b.shown[h] = cards[i]
	}
	b.laidQuads(seat, r, cards)
	b.tag(hs)
	return nil
}

// Deadline is as Game.Deadline; while the game waits for an opening or a
// pick, its clock stands still and nothing falls due.
func (b *Blind) Deadline() (time.Duration, bool) {
	if b.wait.kind != waitNone || b.ended {
		return 0, false
	}
	return b.deadline()
}

// Tick is Game.Tick. A hand-over that runs out waits for the giver's node
// to name the cards (Pick). While the game waits for a proven input its
// clock stands still: a tick then does nothing and is not a journal step.
func (b *Blind) Tick(now time.Duration) []BlindEvent {
	if b.wait.kind != waitNone || b.ended {
		return nil
	}
	now = b.runClock(now, func() bool {
		if b.phase == PhaseCall {
			b.stand(b)
		} else {
			b.wait = blindWait{kind: waitPick, seat: b.give.from}
		}
		return b.wait.kind == waitNone
	})
	b.journal = append(b.journal, BlindStep{At: now})
	return b.flushBlind()
}

// View is what seat may see of the blind table: a seat's view with no
// cards of its own (its SeatSide adds them), a spectator's view whole.
// Once Reveal has every identity it is the clear game's view.
func (b *Blind) View(seat int) View {
	var v View
	b.viewInto(b, seat, &v)
	return v
}

// ViewInto is View into v, reusing its slices.
func (b *Blind) ViewInto(seat int, v *View) { b.viewInto(b, seat, v) }

// Hand is the handles seat holds, sorted: public, as which physical cards
// are in which hand is at a real table.
func (b *Blind) Hand(seat int) []Handle { return slices.Clone(b.hands[seat]) }

// LastPlay is the handles of the last play, as placed.
func (b *Blind) LastPlay() []Handle { return slices.Clone(b.lastH) }

// Pile is the pile's handles bottom first, with the seat that played each.
func (b *Blind) Pile() ([]Handle, []int) { return slices.Clone(b.pile), slices.Clone(b.by) }

// HandSize is how many cards seat holds.
func (b *Blind) HandSize(seat int) int { return len(b.hands[seat]) }

// PileSize is how many cards are on the pile.
func (b *Blind) PileSize() int { return len(b.pile) }

// Total is how many cards the deck holds: the handles are 0 … Total-1.
func (b *Blind) Total() int { return b.total }

// Shown is every identity an opening proved so far.
func (b *Blind) Shown() []Opened {
	out := make([]Opened, 0, len(b.shown))
	for h, c := range b.shown {
		out = append(out, Opened{h, c})
	}
	slices.SortFunc(out, func(x, y Opened) int { return int(x.Handle) - int(y.Handle) })
	return out
}

// Journal is the game's steps so far.
func (b *Blind) Journal() []BlindStep { return slices.Clone(b.journal) }

// Reveal takes every identity at the end, deck[h] the card of handle h,
// and turns the blind game into the clear one: its Config (the deck dealt
// as the seed's shuffle would be) and its journal with every card named,
// for Replay and Audit. A deck that isn't the table's, or that contradicts
// an opening, is refused.
func (b *Blind) Reveal(deck []Card) (Config, []Step, error) {
	if b.phase != PhaseOver && !b.ended {
		return Config{}, nil, refuse(CodeNotAllowed, "Every card is shown only when the game is over.")
	}
	if err := sameDeck(deck, newDeck(b.decks, b.rules.Jokers)); err != nil {
		return Config{}, nil, err
	}
	for h, c := range b.shown {
		if deck[h] != c {
			return Config{}, nil, refusef(CodeBadOpening, "Card %d was turned up as %s, but the deck has %s there.", h, c, deck[h])
		}
	}
	b.deck = slices.Clone(deck)
	steps := make([]Step, len(b.journal))
	for i, s := range b.journal {
		steps[i].At = s.At
		if s.Cmd == nil {
			continue
		}
		c := s.Cmd
		cmd := Command{Move: c.Move, Seat: c.Seat, Claim: c.Claim, Rank: c.Rank, No: c.No}
		hs := c.Handles
		if c.Move == MoveQuads {
			hs = make([]Handle, len(c.Open))
			for j, o := range c.Open {
				hs[j] = o.Handle
			}
		}
		if len(hs) > 0 {
			cmd.Cards = b.faces(hs)
		}
		steps[i].Cmd = &cmd
	}
	return Config{Rules: b.rules, Seats: b.n, Seed: b.seed, Deck: slices.Clone(deck)}, steps, nil
}

func (b *Blind) faces(hs []Handle) []Card {
	out := make([]Card, len(hs))
	for i, h := range hs {
		out[i] = b.deck[h]
	}
	return out
}

// Clear is e with every card named from deck (deck[h] the card of handle
// h): the event the clear game announces.
func (e *BlindEvent) Clear(deck []Card) Event {
	c := e.Event
	switch e.Type {
	case EventHand:
		c.Cards = facesOf(deck, e.Handles)
		SortCards(c.Cards)
	case EventMine, EventHanded:
		c.Cards = facesOf(deck, e.Handles)
	case EventOver:
		c.Hands = make([][]Card, len(e.Hands))
		for s, h := range e.Hands {
			c.Hands[s] = append([]Card{}, facesOf(deck, h)...)
			SortCards(c.Hands[s])
		}
		c.Cards = append([]Card{}, facesOf(deck, e.Handles)...)
	}
	return c
}

func facesOf(deck []Card, hs []Handle) []Card {
	if hs == nil {
		return nil
	}
	out := make([]Card, len(hs))
	for i, h := range hs {
		if int(h) < len(deck) {
			out[i] = deck[h]
		}
	}
	return out
}

// The blind game's pieces are handles; a card's face is known only where
// an opening, or at the end Reveal, gave it.
func (b *Blind) size(seat int) int { return len(b.hands[seat]) }
func (b *Blind) pileSize() int     { return len(b.pile) }
func (b *Blind) goneSize() int     { return len(b.gone) }

func (b *Blind) takePile(seat int) {
	b.tag(b.pile)
	b.add(seat, b.pile)
	b.pile, b.by = b.pile[:0], b.by[:0]
}

func (b *Blind) leave() {
	b.tag(b.pile)
	b.gone = append(b.gone, b.pile...)
	b.pile, b.by = b.pile[:0], b.by[:0]
}

// over leaves the over event's cards to Reveal and names them by handle.
func (b *Blind) over() ([][]Card, []Card) {
	hands := make([][]Handle, b.n)
	for s, h := range b.hands {
		hands[s] = slices.Clone(h)
	}
	// The event is emitted right after: its tag is the next index.
	b.tags = append(b.tags, blindTag{at: len(b.events), handles: slices.Clone(b.pile), hands: hands})
	return nil, nil
}

func (b *Blind) handOf(seat int) []Card {
	if b.deck == nil {
		return nil
	}
	h := b.faces(b.hands[seat])
	SortCards(h)
	return h
}

func (b *Blind) playCards() []Card {
	if b.deck == nil || b.last.shown {
		return b.last.cards
	}
	return b.faces(b.lastH)
}

func (b *Blind) final() *Final {
	if b.deck == nil {
		return nil
	}
	f := &Final{Hands: make([][]Card, b.n), Pile: append([]Card{}, b.faces(b.pile)...), Gone: append([]Card{}, b.faces(b.gone)...)}
	for s := range b.hands {
		f.Hands[s] = append([]Card{}, b.handOf(s)...)
	}
	return f
}
