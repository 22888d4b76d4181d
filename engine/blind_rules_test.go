package engine_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/bullshit-game/bullshit/engine"
)

// The blind engine's own rules: the proven inputs it takes, and the
// dishonest ones it refuses with a specific error, changing nothing.

// A bt is a blind table with the deck its harness holds.
type bt struct {
	t     *testing.T
	b     *engine.Blind
	deck  []engine.Card
	sides []*engine.SeatSide
}

// blindTable deals a blind game of r at seats, seeded seed, its deck
// arranged so that seat s's first handles are give[s]'s cards (cards
// names, as "AS AC").
func blindTable(t *testing.T, r engine.Rules, seats int, seed uint64, give map[int]string) *bt {
	t.Helper()
	b, _, err := engine.NewBlind(engine.BlindConfig{Rules: r, Seats: seats, Seed: seed})
	if err != nil {
		t.Fatalf("NewBlind: %v", err)
	}
	deck := shuffled(r, seats, rand.New(rand.NewPCG(seed, 1)))
	for s, names := range give {
		hand := b.Hand(s)
		for k, c := range cards(names) {
			j := slices.Index(deck, c)
			if j < 0 {
				t.Fatalf("no %s in the deck", c)
			}
			deck[j], deck[hand[k]] = deck[hand[k]], deck[j]
		}
	}
	x := &bt{t: t, b: b, deck: deck}
	for s := range seats {
		x.sides = append(x.sides, engine.NewSeatSide(s, opened(deck, b.Hand(s))...))
	}
	return x
}

// handles are seat's handles of the cards named, as its node names them.
func (x *bt) handles(seat int, names string) []engine.Handle {
	x.t.Helper()
	c, err := x.sides[seat].Command(engine.Command{Move: engine.MovePlay, Seat: seat, Cards: cards(names)}, x.b.Hand(seat))
	if err != nil {
		x.t.Fatalf("seat %d: %v", seat, err)
	}
	return c.Handles
}

// must applies c and fails on a refusal.
func (x *bt) must(c engine.BlindCommand) []engine.BlindEvent {
	x.t.Helper()
	ev, err := x.b.Apply(x.b.Now(), c)
	if err != nil {
		x.t.Fatalf("%+v: %v", c, err)
	}
	return ev
}

// open turns up what the game waits to see, honestly.
func (x *bt) open() []engine.BlindEvent {
	x.t.Helper()
	hs, ok := x.b.Opening()
	if !ok {
		x.t.Fatalf("nothing to turn up")
	}
	ev, err := x.b.Open(opened(x.deck, hs))
	if err != nil {
		x.t.Fatalf("open: %v", err)
	}
	return ev
}

// snapshot is everything the blind game shows, for "changes nothing".
func snapshot(b *engine.Blind) string {
	var sb strings.Builder
	for s := -1; s < b.Seats(); s++ {
		j, _ := json.Marshal(b.View(s))
		sb.Write(j)
	}
	for s := range b.Seats() {
		fmt.Fprint(&sb, b.Hand(s))
	}
	pile, by := b.Pile()
	hs, opening := b.Opening()
	seat, k, picking := b.Picking()
	asked, asking := b.Asked()
	d, due := b.Deadline()
	fmt.Fprint(&sb, pile, by, b.LastPlay(), b.Shown(), b.Journal(), hs, opening, seat, k, picking, asked, asking, d, due, b.Now())
	return sb.String()
}

// refused checks that err is want and that the game did not change.
func refused(t *testing.T, b *engine.Blind, before string, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("got %v, want %v", err, want)
	}
	if after := snapshot(b); after != before {
		t.Fatalf("a refused input changed the game:\n  before %s\n  after  %s", before, after)
	}
}

// sneakCaught is a twist game at the hand-over: seat p sneaked 2S under a
// claim of one ace, seat c called it and hands p a card.
func sneakCaught(t *testing.T) (x *bt, p, c int) {
	t.Helper()
	r := rules(t, "twist")
	b, _, _ := engine.NewBlind(engine.BlindConfig{Rules: r, Seats: 3, Seed: 5})
	p = b.Turn()
	c = (p + 1) % 3
	x = blindTable(t, r, 3, 5, map[int]string{p: "AS 2S", c: "KH KD"})
	x.must(engine.BlindCommand{Move: engine.MovePlay, Seat: p, Handles: x.handles(p, "AS 2S"), Claim: 1, Rank: 0})
	x.must(engine.BlindCommand{Move: engine.MoveCall, Seat: c, No: 1})
	ev := x.open()
	if ev[0].Type != engine.EventReveal || ev[0].Truth || ev[0].Sneaked != 1 {
		t.Fatalf("the sneak wasn't caught: %+v", ev[0])
	}
	if x.b.Phase() != engine.PhaseGive {
		t.Fatalf("phase %v, want give", x.b.Phase())
	}
	return x, p, c
}

// R10: a call's verdict is read from the opened cards, and the opening must
// be the called play's cards, each once.
func TestR10_BlindOpeningNotThePlays(t *testing.T) {
	r := rules(t, "standard")
	b, _, _ := engine.NewBlind(engine.BlindConfig{Rules: r, Seats: 4, Seed: 3})
	p := b.Turn()
	c := (p + 1) % 4
	x := blindTable(t, r, 4, 3, map[int]string{p: "AS KD"})
	x.must(engine.BlindCommand{Move: engine.MovePlay, Seat: p, Handles: x.handles(p, "AS KD"), Rank: 0})
	x.must(engine.BlindCommand{Move: engine.MoveCall, Seat: c, No: 1})
	play, _ := x.b.Opening()
	other := x.b.Hand(c)[0]
	before := snapshot(x.b)
	for _, bad := range []struct {
		name string
		open []engine.Opened
	}{
		{"a card of another hand", []engine.Opened{{Handle: play[0], Card: x.deck[play[0]]}, {Handle: other, Card: x.deck[other]}}},
		{"one card twice", []engine.Opened{{Handle: play[0], Card: x.deck[play[0]]}, {Handle: play[0], Card: x.deck[play[0]]}}},
		{"too few", []engine.Opened{{Handle: play[0], Card: x.deck[play[0]]}}},
		{"too many", append(opened(x.deck, play), engine.Opened{Handle: other, Card: x.deck[other]})},
	} {
		_, err := x.b.Open(bad.open)
		t.Run(bad.name, func(t *testing.T) { refused(t, x.b, before, err, engine.ErrBadOpening) })
	}
	// While the play waits to be turned up nothing else happens, and the
	// clock stands still.
	_, err := x.b.Apply(x.b.Now(), engine.BlindCommand{Move: engine.MovePass, Seat: (c + 1) % 4, No: 1})
	refused(t, x.b, before, err, engine.ErrWaiting)
	if ev := x.b.Tick(x.b.Now() + r.Window*10); ev != nil {
		t.Fatalf("a tick while waiting fired %v", ev)
	}
	refused(t, x.b, before, nil, nil)
	// The honest opening, in any order: the verdict is the cards'.
	ev, err := x.b.Open([]engine.Opened{{Handle: play[1], Card: x.deck[play[1]]}, {Handle: play[0], Card: x.deck[play[0]]}})
	if err != nil {
		t.Fatal(err)
	}
	rv := ev[0]
	if rv.Type != engine.EventReveal || rv.Truth || str(rv.Cards) != "AS KD" || !slices.Equal(rv.Handles, play) {
		t.Fatalf("reveal %+v, want AS KD a lie, handles %v", rv, play)
	}
	if ev[1].Type != engine.EventTake || ev[1].Seat != p || !slices.Equal(ev[1].Handles, play) {
		t.Fatalf("take %+v: the player takes the pile", ev[1])
	}
}

// V14: the caller hands over a card by handle; one it doesn't hold is
// refused.
func TestV14_BlindGiveNotHeld(t *testing.T) {
	x, p, c := sneakCaught(t)
	before := snapshot(x.b)
	_, err := x.b.Apply(x.b.Now(), engine.BlindCommand{Move: engine.MoveGive, Seat: c, Handles: []engine.Handle{x.b.Hand(p)[0]}})
	refused(t, x.b, before, err, engine.ErrNotInHand)
	_, err = x.b.Apply(x.b.Now(), engine.BlindCommand{Move: engine.MoveGive, Seat: c, Handles: []engine.Handle{engine.Handle(x.b.Total())}})
	refused(t, x.b, before, err, engine.ErrBadCard)
	_, err = x.b.Apply(x.b.Now(), engine.BlindCommand{Move: engine.MoveGive, Seat: c, Handles: x.handles(c, "KH KD")})
	refused(t, x.b, before, err, engine.ErrBadCount)
	// The one it holds goes over, to those two only.
	kh := x.handles(c, "KH")
	ev := x.must(engine.BlindCommand{Move: engine.MoveGive, Seat: c, Handles: kh})
	if ev[1].Type != engine.EventHanded || !slices.Equal(ev[1].Handles, kh) || ev[1].Cards != nil || !slices.Equal(ev[1].To, []int{c, p}) {
		t.Fatalf("handed %+v", ev[1])
	}
	if !slices.Contains(x.b.Hand(p), kh[0]) || slices.Contains(x.b.Hand(c), kh[0]) {
		t.Fatalf("the card didn't change hands")
	}
}

// V14: a timed-out hand-over's least useful card is the giver's node's
// pick; one not in its hand, the wrong number or another seat's pick is
// refused.
func TestV14_BlindPickNotHeld(t *testing.T) {
	x, p, c := sneakCaught(t)
	x.b.Tick(x.b.Now() + engine.GiveTime)
	seat, k, ok := x.b.Picking()
	if !ok || seat != c || k != 1 {
		t.Fatalf("picking %d %d %v, want seat %d to pick 1", seat, k, ok, c)
	}
	before := snapshot(x.b)
	_, err := x.b.Pick(c, []engine.Handle{x.b.Hand(p)[0]})
	refused(t, x.b, before, err, engine.ErrNotInHand)
	_, err = x.b.Pick(p, x.b.Hand(p)[:1])
	refused(t, x.b, before, err, engine.ErrNotYourTurn)
	_, err = x.b.Pick(c, x.b.Hand(c)[:2])
	refused(t, x.b, before, err, engine.ErrBadCount)
	_, err = x.b.Apply(x.b.Now(), engine.BlindCommand{Move: engine.MoveGive, Seat: c, Handles: x.b.Hand(c)[:1]})
	refused(t, x.b, before, err, engine.ErrWaiting)
	// The node's pick is the clear engine's: View.LeastUseful.
	v := x.b.View(c)
	if err := x.sides[c].View(&v, x.b.Hand(c), x.b.LastPlay()); err != nil {
		t.Fatal(err)
	}
	hs, err := x.sides[c].Pick(&v, x.b.Hand(c), k)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := x.b.Pick(c, hs)
	if err != nil {
		t.Fatal(err)
	}
	if ev[0].Type != engine.EventGive || !ev[0].Auto {
		t.Fatalf("give %+v, want auto", ev[0])
	}
}

// V9: four of a kind is laid face up: the four opened cards must be one
// rank, no joker, and in the seat's hand.
func TestV9_BlindQuadsDiffer(t *testing.T) {
	r := rules(t, "standard", "quads", true, "jokers", 2.0)
	b, _, _ := engine.NewBlind(engine.BlindConfig{Rules: r, Seats: 4, Seed: 9})
	s := b.Turn()
	x := blindTable(t, r, 4, 9, map[int]string{s: "7C 7D 7H 7S 8C JK"})
	seven := x.handles(s, "7C 7D 7H 7S")
	mixed := x.handles(s, "7C 7D 7H 8C")
	before := snapshot(x.b)
	quads := func(open []engine.Opened) error {
		_, err := x.b.Apply(x.b.Now(), engine.BlindCommand{Move: engine.MoveQuads, Seat: s, Open: open})
		return err
	}
	// The four opened cards differ.
	refused(t, x.b, before, quads(opened(x.deck, mixed)), engine.ErrBadRank)
	// A joker doesn't make four of a kind.
	refused(t, x.b, before, quads(opened(x.deck, x.handles(s, "7C 7D 7H JK"))), engine.ErrBadRank)
	// Cards the seat doesn't hold.
	theirs := opened(x.deck, x.b.Hand((s + 1) % 4)[:4])
	refused(t, x.b, before, quads(theirs), engine.ErrNotInHand)
	// Three cards.
	refused(t, x.b, before, quads(opened(x.deck, seven[:3])), engine.ErrBadCount)
	// The four sevens leave the game face up, turned up for all.
	if err := quads(opened(x.deck, seven)); err != nil {
		t.Fatal(err)
	}
	v := x.b.View(-1)
	if v.Gone != 4 || str(v.Seen) != "7C 7D 7H 7S" {
		t.Fatalf("gone %d seen %v", v.Gone, v.Seen)
	}
}

// V10: the first player is the first seat in deal order from the dealer's
// left to open the named card; an opening of another card, of a card not
// held or out of turn is refused; with nobody holding it the dealer's left
// plays first; and a holder that says none is caught by the clear replay.
func TestV10_BlindHolder(t *testing.T) {
	r := rules(t, "cheat") // holder:AS
	b, _, _ := engine.NewBlind(engine.BlindConfig{Rules: r, Seats: 4, Seed: 2})
	left, ok := b.Asked()
	if !ok {
		t.Fatal("V10 doesn't ask for the first card")
	}
	holder := (left + 2) % 4
	x := blindTable(t, r, 4, 2, map[int]string{left: "KS", holder: "AS"})
	before := snapshot(x.b)
	_, err := x.b.Holder((left+1)%4, nil)
	refused(t, x.b, before, err, engine.ErrNotYourTurn)
	_, err = x.b.Holder(left, opened(x.deck, x.handles(left, "KS")))
	refused(t, x.b, before, err, engine.ErrBadOpening)
	_, err = x.b.Holder(left, opened(x.deck, x.b.Hand(holder)[:1]))
	refused(t, x.b, before, err, engine.ErrNotInHand)
	_, err = x.b.Apply(0, engine.BlindCommand{Move: engine.MovePlay, Seat: left, Handles: x.b.Hand(left)[:1]})
	refused(t, x.b, before, err, engine.ErrWaiting)

	// Honest answers: left and the next say none, the holder shows it.
	var ev []engine.BlindEvent
	for s := left; ; s = (s + 1) % 4 {
		op := x.sides[s].Holder(r, x.b.Hand(s))
		if ev, err = x.b.Holder(s, op); err != nil {
			t.Fatal(err)
		}
		if op != nil {
			break
		}
	}
	if ev[0].Type != engine.EventDeal || ev[0].Target != holder || x.b.Turn() != holder {
		t.Fatalf("deal %+v, want seat %d first", ev[0], holder)
	}
	// The clear game deals the same.
	g, cev, err := engine.New(engine.Config{Rules: r, Seats: 4, Seed: 2, Deck: x.deck})
	if err != nil || g.Turn() != holder || !reflect.DeepEqual(cev[0], ev[0].Event) {
		t.Fatalf("clear deal %+v (%v), blind %+v", cev[0], err, ev[0].Event)
	}

	// The holder lies, saying none: the dealer's left plays first, and
	// the clear replay of the revealed deck tells every seat its deal
	// was not the committed one.
	y := blindTable(t, r, 4, 2, map[int]string{left: "KS", holder: "AS"})
	for s := left; ; s = (s + 1) % 4 {
		if ev, err = y.b.Holder(s, nil); err != nil {
			t.Fatal(err)
		}
		if ev != nil {
			break
		}
	}
	if y.b.Turn() != left {
		t.Fatalf("with nobody showing it seat %d plays first, want the dealer's left %d", y.b.Turn(), left)
	}
	cfg := engine.Config{Rules: r, Seats: 4, Seed: 2, Deck: y.deck}
	for s := range 4 {
		var shown []engine.Event
		for i := range ev {
			if ev[i].VisibleTo(s) {
				e, err := y.sides[s].Event(&ev[i])
				if err != nil {
					t.Fatal(err)
				}
				shown = append(shown, e)
			}
		}
		bad := engine.Audit(cfg, nil, s, shown)
		if len(bad) == 0 || !strings.Contains(strings.Join(bad, " "), fmt.Sprintf("seat %d to play first", holder)) {
			t.Fatalf("seat %d's audit of a holder's lie: %v", s, bad)
		}
	}
}

// Reveal takes the whole deck only at the end, and refuses one that
// contradicts an opening or isn't the table's.
func TestBlindReveal(t *testing.T) {
	r := rules(t, "standard")
	tw := newTwin(t, r, 3, 77, true)
	for !tw.c.Over() {
		if tw.b.Phase() != engine.PhaseOver {
			if _, _, err := tw.b.Reveal(tw.deck); !errors.Is(err, engine.ErrNotAllowed) {
				t.Fatalf("a reveal mid-game: %v", err)
			}
		}
		tw.step()
	}
	shown := tw.b.Shown()
	if len(shown) == 0 {
		t.Skip("no card was turned up in this game") // the seed is fixed: never
	}
	lie := slices.Clone(tw.deck)
	h := shown[0].Handle
	j := slices.IndexFunc(lie, func(c engine.Card) bool { return c != lie[h] })
	lie[h], lie[j] = lie[j], lie[h]
	if _, _, err := tw.b.Reveal(lie); !errors.Is(err, engine.ErrBadOpening) {
		t.Fatalf("a deck that contradicts an opening: %v", err)
	}
	if _, _, err := tw.b.Reveal(tw.deck[1:]); !errors.Is(err, engine.ErrBadCommand) {
		t.Fatalf("a short deck: %v", err)
	}
	dup := slices.Clone(tw.deck)
	dup[0] = dup[1]
	if _, _, err := tw.b.Reveal(dup); !errors.Is(err, engine.ErrBadCard) {
		t.Fatalf("a deck with a card twice: %v", err)
	}
}

// R15: the blind host's state can't even hold a hidden card: of all its
// types, a card fits only where what was turned up for all is kept (the
// table's turned-up cards, the openings, the journal's quads, the event
// buffer's public cards) and the deck Reveal takes at the end.
func TestR15_BlindStateHoldsNoHiddenCard(t *testing.T) {
	var paths []string
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type, path string)
	walk = func(t reflect.Type, path string) {
		if t == cardType {
			paths = append(paths, path)
			return
		}
		if t == rulesType || seen[t] {
			return
		}
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			walk(t.Elem(), path+"[]")
		case reflect.Map:
			walk(t.Key(), path+"{key}")
			walk(t.Elem(), path+"{value}")
		case reflect.Struct:
			seen[t] = true
			for i := range t.NumField() {
				walk(t.Field(i).Type, path+"."+t.Field(i).Name)
			}
			delete(seen, t)
		}
	}
	walk(reflect.TypeFor[engine.Blind](), "Blind")
	want := []string{
		"Blind.table.seen[]",           // cards out of the game that were turned up (V9, V15)
		"Blind.table.last.cards[]",     // the last play's cards, once opened
		"Blind.table.events[].Cards[]", // the public cards of events not yet flushed
		"Blind.table.events[].Hands[][]",
		"Blind.shown{value}",                // every opening
		"Blind.journal[].Cmd[].Open[].Card", // quads, opened face up
		"Blind.deck[]",                      // Reveal's, at the end
	}
	if !slices.Equal(paths, want) {
		t.Fatalf("a card fits in the blind state at\n  %s\nwant only\n  %s", strings.Join(paths, "\n  "), strings.Join(want, "\n  "))
	}
}

// A new host's resume gives an open window its whole time again (as
// Game's), is a journal step, and waits like any move while a play is
// being turned up.
func TestBlindResume(t *testing.T) {
	r := rules(t, "standard")
	b, _, _ := engine.NewBlind(engine.BlindConfig{Rules: r, Seats: 3, Seed: 4})
	p := b.Turn()
	x := blindTable(t, r, 3, 4, nil)
	x.must(engine.BlindCommand{Move: engine.MovePlay, Seat: p, Handles: x.b.Hand(p)[:1], Rank: 0})
	if _, err := x.b.Apply(sec(2), engine.BlindCommand{Move: engine.MoveResume}); err != nil {
		t.Fatal(err)
	}
	if d, ok := x.b.Deadline(); !ok || d != sec(2)+r.Window {
		t.Fatalf("deadline %v %v, want %v", d, ok, sec(2)+r.Window)
	}
	x.must(engine.BlindCommand{Move: engine.MoveCall, Seat: (p + 1) % 3, No: 1})
	before := snapshot(x.b)
	_, err := x.b.Apply(sec(3), engine.BlindCommand{Move: engine.MoveResume})
	refused(t, x.b, before, err, engine.ErrWaiting)
	x.open()
	j := x.b.Journal()
	if len(j) != 3 || j[1].Cmd.Move != engine.MoveResume || j[1].At != sec(2) {
		t.Fatalf("journal %+v", j)
	}
}

// R10b: a play its player's node turned up falsely (a blind table's
// opening that proves other cards than it claims) goes against its
// player, whatever its cards, which the others still turn up: a call or
// a doubt finds a lie and the player takes the pile; a believe finds the
// truth, and the round's cards leave the game (a lie would have the
// believer take them, what the forger wanted). The clear game replays it
// (the forfeit is a host's step of the journal, just before the move that
// turned the play up) and the audit holds every seat to it.
func TestR10b_ForfeitGoesAgainstThePlayer(t *testing.T) {
	for _, c := range []struct {
		name, preset string
		play         string // the player's cards, claimed as that many aces
		move         engine.Move
		truth        bool // the verdict
		taker        int  // who takes the pile: 0 the player, 1 the next seat, -1 nobody
	}{
		{"a true play called", "standard", "AS", engine.MoveCall, false, 0},
		{"a lie called", "standard", "KD", engine.MoveCall, false, 0},
		{"a true play doubted", "doubt", "AS AD", engine.MoveDoubt, false, 0},
		{"a lie believed", "doubt", "KD", engine.MoveBelieve, true, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := rules(t, c.preset)
			const seats = 3
			b, deal, _ := engine.NewBlind(engine.BlindConfig{Rules: r, Seats: seats, Seed: 9})
			p := b.Turn()
			next := (p + 1) % seats
			x := blindTable(t, r, seats, 9, map[int]string{p: c.play})
			var public []engine.BlindEvent
			keep := func(ev []engine.BlindEvent) {
				for _, e := range ev {
					if e.VisibleTo(-1) {
						public = append(public, e)
					}
				}
			}
			keep(deal)
			hs := x.handles(p, c.play)
			keep(x.must(engine.BlindCommand{Move: engine.MovePlay, Seat: p, Handles: hs, Claim: len(hs), Rank: 0}))
			before := snapshot(x.b)
			if err := x.b.Forfeit(); !errors.Is(err, engine.ErrNoWindow) {
				t.Fatalf("a forfeit with nothing turned up: %v", err)
			}
			_, err := x.b.Apply(x.b.Now(), engine.BlindCommand{Move: engine.MoveForfeit, Seat: p, No: 1, Rank: engine.NoRank})
			refused(t, x.b, before, err, engine.ErrBadCommand) // no seat forfeits a play: the host's record does
			if c.move == engine.MoveCall {
				keep(x.must(engine.BlindCommand{Move: engine.MoveCall, Seat: next, No: 1}))
			} else {
				keep(x.must(engine.BlindCommand{Move: c.move, Seat: next}))
			}
			if err := x.b.Forfeit(); err != nil {
				t.Fatal(err)
			}
			ev := x.open()
			keep(ev)
			rv := ev[0]
			if rv.Type != engine.EventReveal || rv.Truth != c.truth || str(rv.Cards) != c.play {
				t.Fatalf("reveal %+v: want %s turned up, judged %v", rv, c.play, c.truth)
			}
			took := -1
			for _, e := range ev[1:] {
				if e.Type == engine.EventTake {
					took = e.Seat
				}
			}
			if want := map[int]int{0: p, 1: next, -1: -1}[c.taker]; took != want {
				t.Fatalf("seat %d took the pile; want %d (events %+v)", took, want, ev)
			}
			// The clear game: the forfeit replays, and every audit holds.
			x.b.End()
			cfg, steps, err := x.b.Reveal(x.deck)
			if err != nil {
				t.Fatal(err)
			}
			k := slices.IndexFunc(steps, func(s engine.Step) bool { return s.Cmd != nil && s.Cmd.Move == engine.MoveForfeit })
			if k < 0 || k+1 >= len(steps) || steps[k+1].Cmd == nil || steps[k+1].Cmd.Move != c.move || steps[k].Cmd.Seat != p || steps[k].Cmd.No != 1 {
				t.Fatalf("the clear journal doesn't forfeit play 1 just before the %s: %+v", c.move, steps)
			}
			var received []engine.Event
			for _, e := range public {
				received = append(received, e.Clear(x.deck))
			}
			if bad := engine.Audit(cfg, steps, -1, received); len(bad) > 0 {
				t.Fatalf("the clear replay doesn't hold: %q", bad)
			}
			// Without the forfeit the clear game judges the cards, and
			// the audit sees the verdict it was shown isn't theirs.
			plain := slices.Delete(slices.Clone(steps), k, k+1)
			if bad := engine.Audit(cfg, plain, -1, received); len(bad) == 0 && c.truth != engine.Truth(cards(c.play), len(hs), 0, 0) {
				t.Fatal("the audit holds a forfeited verdict without its forfeit")
			}
		})
	}
}

// R10b at a clear table's engine: only the last play, face down, can be
// forfeited (the replay of a blind journal is the only way a forfeit
// comes in); a forfeited call finds a lie.
func TestR10b_ForfeitClear(t *testing.T) {
	r := rules(t, "standard")
	g, _, err := engine.New(engine.Config{Rules: r, Seats: 3, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	p := g.Turn()
	hand := g.View(p).Hand
	if _, err := g.Apply(0, engine.Command{Move: engine.MoveForfeit, Seat: p, No: 1}); !errors.Is(err, engine.ErrBadCommand) {
		t.Fatalf("a forfeit before any play: %v", err)
	}
	if _, err := g.Play(0, p, hand[:1], 1, engine.NoRank); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []engine.Command{{Move: engine.MoveForfeit, Seat: (p + 1) % 3, No: 1}, {Move: engine.MoveForfeit, Seat: p, No: 2}} {
		if _, err := g.Apply(0, bad); !errors.Is(err, engine.ErrBadCommand) {
			t.Fatalf("%+v: %v", bad, err)
		}
	}
	if _, err := g.Apply(0, engine.Command{Move: engine.MoveForfeit, Seat: p, No: 1}); err != nil {
		t.Fatal(err)
	}
	ev, err := g.Call(0, (p+1)%3, 1)
	if err != nil {
		t.Fatal(err)
	}
	if ev[1].Type != engine.EventReveal || ev[1].Truth {
		t.Fatalf("a forfeited play called: %+v", ev)
	}
}
