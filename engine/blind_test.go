package engine_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/bot"
	"github.com/bullshit-game/bullshit/engine/enginetest"
)

// blindGames is how many seeded random games the blind property runs: a
// clear game and a blind one driven by the same moves.
const blindGames = 2000

// A twin is one game played twice: in the clear, as the referee plays it,
// and blind, the host holding handles only, each seat's node (SeatSide)
// its own cards. The harness plays the cryptography: it holds the deck and
// hands a seat an identity only where the seat would see the card at a
// real table (its deal, a pile it takes, a card handed to it, a card
// turned up for all). The bots decide from the clear game's views and
// events, or from the seat sides' (seatSide), which must be the same.
type twin struct {
	tb       testing.TB
	rng      *rand.Rand
	rules    engine.Rules
	deck     []engine.Card
	c        *engine.Game
	b        *engine.Blind
	sides    []*engine.SeatSide
	bots     []bot.Player
	seatSide bool
	now      time.Duration
	steps    []engine.Step    // the clear journal
	got      [][]engine.Event // what each seat was shown, [0] a spectator
	where    string
	actions  int
	refusals int // bent commands both games refused
}

// shuffled is the table's deck in a random order: the shuffle no node saw.
func shuffled(r engine.Rules, seats int, rng *rand.Rand) []engine.Card {
	var d []engine.Card
	for range r.DecksFor(seats) {
		for c := engine.Card(0); c < engine.Joker; c++ {
			d = append(d, c)
		}
		for range r.Jokers {
			d = append(d, engine.Joker)
		}
	}
	rng.Shuffle(len(d), func(i, j int) { d[i], d[j] = d[j], d[i] })
	return d
}

func opened(deck []engine.Card, hs []engine.Handle) []engine.Opened {
	out := make([]engine.Opened, len(hs))
	for i, h := range hs {
		out[i] = engine.Opened{Handle: h}
		if int(h) < len(deck) {
			out[i].Card = deck[h]
		}
	}
	return out
}

// newTwin deals game seed at seats under r; nil when the rules refuse the
// table (both engines must agree on that).
func newTwin(tb testing.TB, r engine.Rules, seats int, seed uint64, seatSide bool) *twin {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 24))
	b, bev, berr := engine.NewBlind(engine.BlindConfig{Rules: r, Seats: seats, Seed: seed})
	deck := shuffled(r, seats, rng)
	c, cev, cerr := engine.New(engine.Config{Rules: r, Seats: seats, Seed: seed, Deck: deck})
	if (berr == nil) != (cerr == nil) || engine.CodeOf(berr) != engine.CodeOf(cerr) {
		tb.Fatalf("the rules are refused differently: clear %v, blind %v", cerr, berr)
	}
	if cerr != nil {
		return nil
	}
	tw := &twin{tb: tb, rng: rng, rules: r, deck: deck, c: c, b: b, seatSide: seatSide, got: make([][]engine.Event, seats+1), where: "the deal"}
	for s := range seats {
		tw.sides = append(tw.sides, engine.NewSeatSide(s, opened(deck, b.Hand(s))...))
		p, err := bot.New(bot.Names[rng.IntN(len(bot.Names))], s, rng.Uint64())
		if err != nil {
			tb.Fatal(err)
		}
		tw.bots = append(tw.bots, p)
	}
	for {
		s, ok := b.Asked()
		if !ok {
			break
		}
		op := tw.sides[s].Holder(r, b.Hand(s))
		ev, err := b.Holder(s, op)
		if err != nil {
			tb.Fatalf("seat %d's answer to V10 %v was refused: %v", s, op, err)
		}
		for _, side := range tw.sides {
			side.Learn(op...) // shown to the table
		}
		bev = append(bev, ev...)
	}
	tw.compare(cev, bev)
	return tw
}

func (tw *twin) fatalf(format string, args ...any) {
	tw.tb.Helper()
	tw.tb.Fatalf("%s (rules %v, %d seats, action %d, %s): %s", tw.where, tw.rules.Map(), tw.c.Seats(), tw.actions,
		map[bool]string{true: "seat-side bots", false: "clear-side bots"}[tw.seatSide], fmt.Sprintf(format, args...))
}

// seatView is what seat sees, as its bot is given it.
func (tw *twin) seatView(s int) *engine.View {
	if !tw.seatSide {
		v := tw.c.View(s)
		return &v
	}
	v := tw.b.View(s)
	if err := tw.sides[s].View(&v, tw.b.Hand(s), tw.b.LastPlay()); err != nil {
		tw.fatalf("seat %d's view: %v", s, err)
	}
	return &v
}

// compare holds the blind step's events against the clear step's, seat by
// seat, delivers them, and then the views, and checks the blind host
// still holds no card that wasn't turned up.
func (tw *twin) compare(cev []engine.Event, bev []engine.BlindEvent) {
	tw.tb.Helper()
	n := tw.c.Seats()
	seatEv := make([][]engine.Event, n+1)
	for i := range bev {
		e := &bev[i]
		// The cryptography's private openings: a pile to its taker, a
		// handed card to its receiver.
		switch e.Type {
		case engine.EventTake:
			tw.sides[e.Seat].Learn(opened(tw.deck, e.Handles)...)
		case engine.EventHanded:
			tw.sides[e.Target].Learn(opened(tw.deck, e.Handles)...)
		}
		for s := -1; s < n; s++ {
			if !e.VisibleTo(s) {
				continue
			}
			var x engine.Event
			switch {
			case e.Type == engine.EventOver:
				x = e.Clear(tw.deck) // every card is shown at the end
			case s < 0:
				x = e.Event
			default:
				var err error
				if x, err = tw.sides[s].Event(e); err != nil {
					tw.fatalf("seat %d can't read %s: %v", s, e.Type, err)
				}
			}
			seatEv[s+1] = append(seatEv[s+1], x)
		}
	}
	for s := -1; s < n; s++ {
		var want []engine.Event
		for _, e := range cev {
			if e.VisibleTo(s) {
				want = append(want, e)
			}
		}
		got := seatEv[s+1]
		if !reflect.DeepEqual(want, got) {
			tw.fatalf("seat %d was shown\n  blind %+v\n  clear %+v", s, got, want)
		}
		tw.got[s+1] = append(tw.got[s+1], got...)
		if s >= 0 {
			for i := range got {
				if tw.seatSide {
					tw.bots[s].Observe(&got[i])
				} else {
					tw.bots[s].Observe(&want[i])
				}
			}
		}
	}
	if tw.c.Over() != tw.b.Over() {
		tw.fatalf("clear over %v, blind over %v", tw.c.Over(), tw.b.Over())
	}
	if tw.c.Over() {
		tw.reveal()
	} else {
		tw.secret()
	}
	for s := -1; s < n; s++ {
		cv := tw.c.View(s)
		bv := tw.b.View(s)
		if s >= 0 {
			if err := tw.sides[s].View(&bv, tw.b.Hand(s), tw.b.LastPlay()); err != nil {
				tw.fatalf("seat %d's view: %v", s, err)
			}
		}
		if !reflect.DeepEqual(cv, bv) {
			tw.fatalf("seat %d's view differs:\n  blind %+v\n  clear %+v", s, bv, cv)
		}
	}
}

// secret checks R15/R16 on the blind host: every card its state holds
// anywhere is one an opening turned up for everyone.
func (tw *twin) secret() {
	tw.tb.Helper()
	shown := map[engine.Card]bool{}
	for _, o := range tw.b.Shown() {
		shown[o.Card] = true
	}
	for _, f := range blindCards(tw.b, false) {
		if shown[f.card] {
			continue
		}
		for _, f := range blindCards(tw.b, true) {
			if !shown[f.card] {
				tw.fatalf("the blind host holds %s at %s, a card no opening turned up (shown %v)", f.card, f.path, tw.b.Shown())
			}
		}
	}
}

// reveal ends the game: every identity is given, the blind journal becomes
// a clear one, and the clear game replays and audits from it.
func (tw *twin) reveal() {
	tw.tb.Helper()
	cfg, steps, err := tw.b.Reveal(tw.deck)
	if err != nil {
		tw.fatalf("reveal: %v", err)
	}
	if !reflect.DeepEqual(steps, tw.steps) {
		tw.fatalf("the blind journal, turned up, is not the clear one:\n  blind %v\n  clear %v", steps, tw.steps)
	}
	g, _, err := engine.Replay(cfg, steps)
	if err != nil {
		tw.fatalf("the clear replay: %v", err)
	}
	if !reflect.DeepEqual(g.State(), tw.c.State()) {
		tw.fatalf("the clear replay ends elsewhere than the game")
	}
	for s := -1; s < tw.c.Seats(); s++ {
		if bad := engine.Audit(cfg, steps, s, tw.got[s+1]); bad != nil {
			tw.fatalf("seat %d's audit: %v", s, bad)
		}
	}
}

// act is seat s's bot's move now, or a fallback.
func (tw *twin) act(s int) (engine.Command, time.Duration, bool) {
	v := tw.seatView(s)
	cmd, think, ok := tw.bots[s].Act(v)
	return cmd, max(think, time.Millisecond), ok
}

// step moves the game on by one action: a bot's move or a tick.
func (tw *twin) step() {
	tw.actions++
	c := tw.c
	switch c.Phase() {
	case engine.PhasePlay:
		s := c.Turn()
		cmd, think, ok := tw.act(s)
		if !ok {
			if cmd, ok = bot.Fallback(tw.seatView(s)); !ok {
				tw.fatalf("seat %d has a turn and no move", s)
			}
		}
		tw.now += think
		tw.do(cmd)
	case engine.PhaseCall:
		closes, _ := c.Deadline()
		v := c.View(-1)
		askers := append([]int(nil), v.Window.Callers...)
		if tw.rules.Rapid && !slices.Contains(askers, c.Turn()) {
			askers = append(askers, c.Turn())
		}
		var best engine.Command
		bestAt, found := time.Duration(0), false
		for _, s := range askers {
			cmd, think, ok := tw.act(s)
			if ok && (!found || think < bestAt) {
				best, bestAt, found = cmd, think, true
			}
		}
		if !found || tw.rng.IntN(8) == 0 || tw.now+bestAt >= closes {
			tw.tick(closes + time.Duration(tw.rng.IntN(3))*time.Millisecond)
			return
		}
		tw.now += bestAt
		tw.do(best)
	case engine.PhaseGive:
		closes, _ := c.Deadline()
		v := c.View(-1)
		cmd, think, ok := tw.act(v.Give.From)
		if !ok || tw.rng.IntN(3) == 0 || tw.now+think >= closes {
			tw.tick(closes + time.Duration(tw.rng.IntN(500))*time.Millisecond) // the caller's time runs out
			return
		}
		tw.now += think
		tw.do(cmd)
	}
}

// do applies a seat's command to both games at tw.now; the blind one is
// given the command by handle and, where it asks, the opening. Now and
// then it first tries the command bent out of shape (another claim, rank,
// play number, move or seat): what the clear game refuses, the blind one
// must refuse with the same sentence, changing nothing; what it takes is
// played.
func (tw *twin) do(cmd engine.Command) {
	tw.tb.Helper()
	if tw.rng.IntN(12) == 0 {
		bent := tw.bend(cmd)
		if tw.refusedAlike(bent) {
			return
		}
	}
	tw.where = fmt.Sprintf("play %d, %s by seat %d", tw.c.Plays(), cmd.Move, cmd.Seat)
	at := tw.now
	cev, err := tw.c.Apply(at, cmd)
	if err != nil {
		tw.fatalf("the clear game refused a bot's %+v: %v", cmd, err)
	}
	tw.steps = append(tw.steps, engine.Step{At: at, Cmd: &cmd})
	bc, err := tw.sides[cmd.Seat].Command(cmd, tw.b.Hand(cmd.Seat))
	if err != nil {
		tw.fatalf("seat %d's node can't name %+v: %v", cmd.Seat, cmd, err)
	}
	bev, err := tw.b.Apply(at, bc)
	if err != nil {
		tw.fatalf("the blind game refused %+v: %v", bc, err)
	}
	if hs, ok := tw.b.Opening(); ok {
		more, err := tw.b.Open(opened(tw.deck, hs))
		if err != nil {
			tw.fatalf("the opening of %v was refused: %v", hs, err)
		}
		bev = append(bev, more...)
	}
	tw.compare(cev, bev)
}

// bend is cmd with one field changed at random.
func (tw *twin) bend(cmd engine.Command) engine.Command {
	moves := []engine.Move{engine.MovePlay, engine.MoveCall, engine.MovePass, engine.MoveGive, engine.MoveQuads,
		engine.MoveDoubt, engine.MoveBelieve, engine.MoveSkip, engine.MoveResume, 99}
	switch tw.rng.IntN(5) {
	case 0:
		cmd.Claim = tw.rng.IntN(tw.c.Cap() + 5)
	case 1:
		cmd.Rank = engine.Rank(tw.rng.IntN(15) - 1)
	case 2:
		cmd.No = tw.c.Plays() + tw.rng.IntN(4) - 2
	case 3:
		cmd.Move = moves[tw.rng.IntN(len(moves))]
	case 4:
		cmd.Seat = tw.rng.IntN(tw.c.Seats()+2) - 1
		cmd.Cards = nil
	}
	return cmd
}

// refusedAlike tries cmd on both games: false when the clear game would
// take it (it is then not tried: the bot's own move is played instead).
func (tw *twin) refusedAlike(cmd engine.Command) bool {
	tw.tb.Helper()
	tw.where = fmt.Sprintf("play %d, a bent %+v", tw.c.Plays(), cmd)
	probe := tw.c.Clone()
	if _, err := probe.Apply(tw.now, cmd); err == nil {
		return false
	}
	_, cerr := tw.c.Apply(tw.now, cmd)
	bc := engine.BlindCommand{Move: cmd.Move, Seat: cmd.Seat, Claim: cmd.Claim, Rank: cmd.Rank, No: cmd.No}
	if len(cmd.Cards) > 0 {
		var err error
		if bc, err = tw.sides[cmd.Seat].Command(cmd, tw.b.Hand(cmd.Seat)); err != nil {
			tw.fatalf("seat %d's node can't name its own cards %v: %v", cmd.Seat, cmd.Cards, err)
		}
	}
	before := snapshot(tw.b)
	_, berr := tw.b.Apply(tw.now, bc)
	if berr == nil || berr.Error() != cerr.Error() || engine.CodeOf(berr) != engine.CodeOf(cerr) {
		tw.fatalf("refused differently: clear %q (%s), blind %v", cerr, engine.CodeOf(cerr), berr)
	}
	if snapshot(tw.b) != before {
		tw.fatalf("the blind game changed on a refused %+v", bc)
	}
	tw.refusals++
	return true
}

// tick moves both clocks to at; a hand-over that runs out is picked by
// the giver's own node.
func (tw *twin) tick(at time.Duration) {
	tw.tb.Helper()
	tw.where = fmt.Sprintf("play %d, tick at %v", tw.c.Plays(), at)
	tw.now = max(tw.now, at)
	cev := tw.c.Tick(at)
	tw.steps = append(tw.steps, engine.Step{At: at})
	bev := tw.b.Tick(at)
	if s, k, ok := tw.b.Picking(); ok {
		v := tw.b.View(s)
		if err := tw.sides[s].View(&v, tw.b.Hand(s), tw.b.LastPlay()); err != nil {
			tw.fatalf("seat %d's view: %v", s, err)
		}
		hs, err := tw.sides[s].Pick(&v, tw.b.Hand(s), k)
		if err != nil {
			tw.fatalf("seat %d's node can't pick: %v", s, err)
		}
		more, err := tw.b.Pick(s, hs)
		if err != nil {
			tw.fatalf("seat %d's pick %v was refused: %v", s, hs, err)
		}
		bev = append(bev, more...)
	}
	tw.compare(cev, bev)
}

func (tw *twin) play() {
	for !tw.c.Over() {
		if tw.actions > 20000 {
			tw.fatalf("the game doesn't end")
		}
		tw.step()
	}
}

// A found card is a card value somewhere in the blind host's state.
type found struct {
	path string
	card engine.Card
}

var cardType = reflect.TypeFor[engine.Card]()

// The rules name V10's first card: a rule everyone knows, not a card of
// the deck. The walk passes them by.
var rulesType = reflect.TypeFor[engine.Rules]()

// blindCards walks the blind game's whole state, unexported fields and
// all, and lists every card value in it: the dump a host could serialise.
// paths names where each is (slow: only to explain a failure).
func blindCards(b *engine.Blind, paths bool) []found {
	var out []found
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		t := v.Type()
		if t == cardType {
			out = append(out, found{path, engine.Card(v.Uint())})
			return
		}
		if !holdsCard(t) || t == rulesType {
			return
		}
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem(), path)
			}
		case reflect.Struct:
			for i := range v.NumField() {
				if paths {
					walk(v.Field(i), path+"."+t.Field(i).Name)
				} else {
					walk(v.Field(i), "")
				}
			}
		case reflect.Slice, reflect.Array:
			for i := range v.Len() {
				if paths {
					walk(v.Index(i), fmt.Sprintf("%s[%d]", path, i))
				} else {
					walk(v.Index(i), "")
				}
			}
		case reflect.Map:
			it := v.MapRange()
			for it.Next() {
				walk(it.Key(), path+"{key}")
				walk(it.Value(), path+"{value}")
			}
		}
	}
	walk(reflect.ValueOf(b), "blind")
	return out
}

var cardTypes = map[reflect.Type]bool{}

// holdsCard reports whether a value of type t can hold a card.
func holdsCard(t reflect.Type) bool {
	if v, ok := cardTypes[t]; ok {
		return v
	}
	cardTypes[t] = true // a type that refers to itself: assume so meanwhile
	v := false
	switch t.Kind() {
	case reflect.Uint8:
		v = t == cardType
	case reflect.Pointer, reflect.Slice, reflect.Array:
		v = holdsCard(t.Elem())
	case reflect.Map:
		v = holdsCard(t.Key()) || holdsCard(t.Elem())
	case reflect.Interface:
		v = true
	case reflect.Struct:
		for i := range t.NumField() {
			v = v || holdsCard(t.Field(i).Type)
		}
	}
	cardTypes[t] = v
	return v
}

// TestBlindSameGame is the blind engine's property: over thousands of
// seeded games of every preset and random rules keys, at 2 to 10 seats, a
// blind game fed only what is public and the openings the rules need is
// the clear game, event for event and view for view at every step for
// every seat and a spectator; its host holds no card that wasn't turned
// up (R15, R16); and at the end its journal, every card revealed, is the
// clear journal, which replays to the same end and passes every seat's
// audit.
func TestBlindSameGame(t *testing.T) {
	games := blindGames
	if testing.Short() {
		games = 300
	}
	rng := rand.New(rand.NewPCG(24, 2))
	kinds := enginetest.Kinds
	played, perKind := 0, map[string]int{}
	stats := map[string]int{}
	for i := 0; played < games; i++ {
		kind := kinds[i%len(kinds)]
		r, ok := enginetest.Rules(kind, rng)
		if !ok {
			continue
		}
		tw := newTwin(t, r, 2+rng.IntN(9), rng.Uint64(), i%2 == 0)
		if tw == nil {
			continue
		}
		tw.play()
		played++
		perKind[kind]++
		stats["refused alike"] += tw.refusals
		for _, e := range tw.got[0] {
			stats[string(e.Type)]++
			if e.Type == engine.EventGive && e.Auto {
				stats["auto give"]++
			}
		}
	}
	t.Logf("%d games (%v); public events: %v", played, perKind, stats)
	for _, want := range []string{"reveal", "quads", "give", "auto give", "doubt", "believe", "leave", "out", "refused alike"} {
		if stats[want] == 0 {
			t.Errorf("no game had a %q: the property never tried it", want)
		}
	}
}
