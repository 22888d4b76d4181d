package engine_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/enginetest"
)

// propertyGames is how many seeded random games the properties run over.
const propertyGames = 10000

// kinds are the rule sets the random games are drawn from: every preset,
// and rules objects with random keys.
var kinds = enginetest.Kinds

// randomGame draws game number i's config: seats 2–10, a kind in turn, now
// and then custom hands and a chosen first seat. ok is false when the
// draw is a table the rules refuse (the twist at two, sneaking in doubt
// mode, an unknown key): that refusal is checked and the draw skipped.
func randomGame(t testing.TB, i int, rng *rand.Rand) (cfg engine.Config, kind string, ok bool) {
	kind = kinds[i%len(kinds)]
	seats := 2 + rng.IntN(9)
	var r engine.Rules
	if kind == "random" {
		obj := randomRules(rng)
		var err error
		if r, err = engine.ParseRules(obj); err != nil {
			if engine.CodeOf(err) != engine.CodeBadCommand {
				t.Fatalf("rules %v: %v", obj, err)
			}
			return cfg, kind, false
		}
	} else {
		r, _ = engine.Preset(kind)
	}
	cfg = engine.Config{Rules: r, Seats: seats, Seed: rng.Uint64()}
	if rng.IntN(10) == 0 {
		cfg.First = ptr(rng.IntN(seats))
	}
	if rng.IntN(10) == 0 {
		// Custom hands: a part of the decks, shuffled, 1 to 12 cards a seat.
		all := make([]engine.Card, 0, 156)
		for d := 0; d < r.DecksFor(seats); d++ {
			for c := engine.Card(0); c < engine.Joker; c++ {
				all = append(all, c)
			}
			for j := 0; j < r.Jokers; j++ {
				all = append(all, engine.Joker)
			}
		}
		rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
		cfg.Hands = make([][]engine.Card, seats)
		for s := range cfg.Hands {
			k := 1 + rng.IntN(min(12, len(all)/seats))
			cfg.Hands[s], all = all[:k:k], all[k:]
		}
	}
	if err := r.Check(seats); err != nil {
		if engine.CodeOf(err) != engine.CodeBadCommand {
			t.Fatalf("check: %v", err)
		}
		if _, _, err := engine.New(cfg); engine.CodeOf(err) != engine.CodeBadCommand {
			t.Fatalf("New took a table Check refuses: %v", err)
		}
		return cfg, kind, false
	}
	return cfg, kind, true
}

// maxSteps bounds a random game's actions; the safety net (R14) ends most
// games well before.
const maxSteps = 6000

// TestProperties plays seeded random games across 2–10 seats and every
// preset and random rules, mixing legal and illegal commands and ticks,
// and checks at every step that cards are conserved (R17), that a refused
// command changes nothing, and that replaying the log gives the same
// events and the same final state.
func TestProperties(t *testing.T) {
	games := propertyGames
	if testing.Short() {
		games /= 10
	}
	seed := uint64(2026)
	// A soak: BULLSHIT_GAMES=100000 BULLSHIT_SEED=7 go test -run TestProperties ./engine/
	if n, err := strconv.Atoi(os.Getenv("BULLSHIT_GAMES")); err == nil && n > 0 {
		games = n
	}
	if n, err := strconv.ParseUint(os.Getenv("BULLSHIT_SEED"), 10, 64); err == nil {
		seed = n
	}
	// The checks clone the game before every command: collect less often.
	defer debug.SetGCPercent(debug.SetGCPercent(800))
	rng := rand.New(rand.NewPCG(seed, 17))
	type tally struct{ games, over, net, steps, refused int }
	by := map[string]*tally{}
	seatsSeen := map[int]int{}
	codes := map[engine.Code]int{}
	skipped := 0
	for i, played := 0, 0; played < games; i++ {
		cfg, kind, ok := randomGame(t, i, rng)
		if !ok {
			skipped++
			continue
		}
		played++
		tl := by[kind]
		if tl == nil {
			tl = &tally{}
			by[kind] = tl
		}
		tl.games++
		seatsSeen[cfg.Seats]++
		g, deal, err := engine.New(cfg)
		if err != nil {
			t.Fatalf("game %d (%s): New: %v", i, kind, err)
		}
		d := &driver{rng: rand.New(rand.NewPCG(cfg.Seed, uint64(i))), g: g, junk: 120}
		var log []action
		events := [][]engine.Event{deal}
		for step := 0; step < maxSteps && !g.Over(); step++ {
			a := d.next()
			var before *engine.Game
			if !a.Tick {
				before = g.Clone()
			}
			ev, err := apply(g, a)
			log = append(log, a)
			events = append(events, ev)
			tl.steps++
			where := func() string {
				// The last few steps, to see how it came to this.
				var b strings.Builder
				for j := max(0, len(log)-12); j < len(log); j++ {
					fmt.Fprintf(&b, "\n  %v -> %s", log[j], evs(events[j+1]))
				}
				return fmt.Sprintf("game %d (%s, %d seats, seed %d, rules %v) step %d %v%s", i, kind, cfg.Seats, cfg.Seed, cfg.Rules.Map(), step, a, b.String())
			}
			if err != nil {
				tl.refused++
				code := engine.CodeOf(err)
				codes[code]++
				if code == "" {
					t.Fatalf("%s: refused with a non-refusal %v", where(), err)
				}
				if ev != nil {
					t.Fatalf("%s: refused (%v) with events", where(), err)
				}
				if after := g.Clone(); !reflect.DeepEqual(before, after) {
					t.Fatalf("%s: refused (%v) but changed the game", where(), err)
				}
			}
			if msg := invariants(g); msg != "" {
				t.Fatalf("%s: %s", where(), msg)
			}
			if step%7 == 0 {
				if msg := views(g); msg != "" {
					t.Fatalf("%s: %s", where(), msg)
				}
			}
			if err == nil {
				if msg := semantics(g, deal[0].Rank, a, ev); msg != "" {
					t.Fatalf("%s: %s", where(), msg)
				}
			}
		}
		if g.Over() {
			// Nothing moves a game that is over.
			for k := 0; k < 3; k++ {
				before := g.Clone()
				c := d.random()
				_, err := g.Apply(d.now, c)
				want := engine.CodeGameOver
				if c.Move < engine.MovePlay || c.Move > engine.MoveSkip {
					want = engine.CodeBadCommand
				}
				codes[engine.CodeOf(err)]++
				if engine.CodeOf(err) != want || !reflect.DeepEqual(before, g.Clone()) {
					t.Fatalf("game %d over: %+v gave %v, want %s and no change", i, c, err, want)
				}
				log = append(log, action{At: d.now, Cmd: c})
				events = append(events, nil)
			}
			tl.over++
			if g.Plays() == engine.MaxPlays {
				tl.net++
			}
			if msg := ended(g); msg != "" {
				t.Fatalf("game %d (%s): %s", i, kind, msg)
			}
		}
		// The same seed and commands give the same game.
		r, deal2, err := engine.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(deal2, events[0]) {
			t.Fatalf("game %d: the deal differs on replay", i)
		}
		for j, a := range log {
			ev, _ := apply(r, a)
			if !reflect.DeepEqual(ev, events[j+1]) {
				t.Fatalf("game %d step %d %v: events differ on replay:\n%s\n%s", i, j, a, evs(ev), evs(events[j+1]))
			}
		}
		if !reflect.DeepEqual(r.State(), g.State()) {
			t.Fatalf("game %d: final state differs on replay", i)
		}
	}
	total := tally{}
	for _, k := range kinds {
		tl := by[k]
		if tl == nil {
			t.Fatalf("no %s games", k)
		}
		t.Logf("%-8s %5d games, %5d over (%d by the safety net), %7d steps, %6d refused", k, tl.games, tl.over, tl.net, tl.steps, tl.refused)
		total.games += tl.games
		total.steps += tl.steps
		total.refused += tl.refused
		total.over += tl.over
	}
	t.Logf("%d random games (%d draws skipped as refused tables), %d over, %d steps, %d refused; seats %v; codes %v",
		total.games, skipped, total.over, total.steps, total.refused, seatsSeen, codes)
	for n := 2; n <= 10; n++ {
		if seatsSeen[n] == 0 {
			t.Errorf("no game at %d seats", n)
		}
	}
	// The refusals the driver provokes should span the codes a move can get.
	for _, c := range []engine.Code{engine.CodeBadCommand, engine.CodeGameOver, engine.CodeBadSeat, engine.CodeBadCard, engine.CodeNotYourTurn,
		engine.CodeNotInHand, engine.CodeBadCount, engine.CodeBadRank, engine.CodeNoWindow, engine.CodeTooLate, engine.CodeOwnPlay,
		engine.CodeNotAllowed} {
		if codes[c] == 0 && !testing.Short() {
			t.Errorf("no %s refusal in %d games", c, total.games)
		}
	}
}

// invariants are what must hold after every step of any game.
func invariants(g *engine.Game) string {
	if !g.Conserved() {
		return "cards not conserved (R17)"
	}
	if g.Plays() > engine.MaxPlays {
		return fmt.Sprintf("%d plays, past the safety net (R14)", g.Plays())
	}
	_, timed := g.Deadline()
	switch g.Phase() {
	case engine.PhaseCall, engine.PhaseGive:
		if !timed {
			return "a window or hand-over with no deadline"
		}
	default:
		if timed {
			return "a deadline with nothing open"
		}
	}
	in := 0
	for s := 0; s < g.Seats(); s++ {
		switch {
		case !g.IsOut(s):
			in++
		case g.HandSize(s) != 0:
			return fmt.Sprintf("seat %d is out holding %d cards", s, g.HandSize(s))
		}
	}
	if g.Over() {
		return ""
	}
	if in < 2 {
		return fmt.Sprintf("the game goes on with %d seats in", in)
	}
	if g.Rules().Doubt {
		// A round with a rank has cards on the table; one starting has none.
		if named := g.View(-1).Rank != engine.NoRank; named != (g.PileSize() > 0) {
			return fmt.Sprintf("round rank named %v with %d cards on the table", named, g.PileSize())
		}
	}
	turn := g.Turn()
	if turn < 0 || turn >= g.Seats() {
		return fmt.Sprintf("turn %d", turn)
	}
	if g.IsOut(turn) {
		return fmt.Sprintf("turn %d is a seat that is out", turn)
	}
	if g.Phase() == engine.PhasePlay && g.HandSize(turn) == 0 {
		return fmt.Sprintf("seat %d must play with no cards", turn)
	}
	if g.Winner() >= 0 && !g.Rules().Places {
		return "a winner while the game goes on without places"
	}
	return ""
}

// views checks that every seat's view tells the truth it may see (R15):
// its own hand, every hand's size and the pile's, exact or rough.
func views(g *engine.Game) string {
	rough := g.Rules().Rough && !g.Over()
	for s := -1; s < g.Seats(); s++ {
		v := g.View(s)
		if s >= 0 && !reflect.DeepEqual(v.Hand, g.Hand(s)) && (len(v.Hand) > 0 || g.HandSize(s) > 0) {
			return fmt.Sprintf("seat %d's view holds %v, its hand %v", s, v.Hand, g.Hand(s))
		}
		for t := range g.Seats() {
			if want := engine.Seen(g.HandSize(t), false, rough && t != s); v.Hands[t] != want {
				return fmt.Sprintf("seat %d sees seat %d's %d cards as %v, want %v", s, t, g.HandSize(t), v.Hands[t], want)
			}
		}
		if want := engine.Seen(g.PileSize(), true, rough); v.Pile != want {
			return fmt.Sprintf("seat %d sees the pile of %d as %v", s, g.PileSize(), v.Pile)
		}
		if v.Phase != g.Phase() || v.Turn != g.Turn() || v.No != g.Plays() {
			return fmt.Sprintf("seat %d's view: phase %v turn %d no %d", s, v.Phase, v.Turn, v.No)
		}
	}
	return ""
}

// ended checks a finished game's places and winner (R13, R14, V8).
func ended(g *engine.Game) string {
	if w := g.Winner(); w >= 0 && g.Plays() < engine.MaxPlays && g.HandSize(w) != 0 {
		return fmt.Sprintf("winner %d holds %d cards", w, g.HandSize(w))
	}
	p := g.Places()
	if len(p) != g.Seats() {
		return fmt.Sprintf("places %v", p)
	}
	ones := 0
	for s, x := range p {
		if x < 1 || x > g.Seats() {
			return fmt.Sprintf("place %d of seat %d", x, s)
		}
		if x == 1 {
			ones++
		}
	}
	if w := g.Winner(); w >= 0 && p[w] != 1 {
		return fmt.Sprintf("winner %d placed %d", w, p[w])
	}
	if g.Winner() < 0 && ones == 1 {
		return fmt.Sprintf("no winner with a sole first place: %v", p)
	}
	if _, err := json.Marshal(g.View(0)); err != nil {
		return err.Error()
	}
	return ""
}

// semantics checks what the rules say about the events of an accepted
// action and the position it leaves: who may see each event (R15), the
// rank each play had to claim (R5, V2, V3), that a reveal's verdict is
// what its cards say and that the loser takes the pile (R10, V7, V12,
// V14, V15), whose turn it is after a settled play (R11, V6, V8) and who
// may call (R8, V8, V11).
func semantics(g *engine.Game, start engine.Rank, a action, ev []engine.Event) string {
	rl := g.Rules()
	for i, e := range ev {
		private := e.Type == "hand" || e.Type == "mine" || e.Type == "handed"
		if private == e.Public() {
			return fmt.Sprintf("%s event to %v", e.Type, e.To)
		}
		switch e.Type {
		case "play":
			if e.Claim < 1 || e.Claim > g.Cap() || e.Cards != nil {
				return fmt.Sprintf("play event %+v", e)
			}
			if !rl.Doubt && (rl.Sequence == engine.SeqUp || rl.Sequence == engine.SeqDown) {
				step := (e.No - 1) % 13
				if rl.Sequence == engine.SeqDown {
					step = 13 - step
				}
				if want := engine.Rank((int(start) + step) % 13); e.Rank != want {
					return fmt.Sprintf("play %d claimed %s, the sequence says %s", e.No, e.Rank, want)
				}
			}
		case "reveal":
			truth := e.Sneaked == 0 && len(e.Cards) == e.Claim
			for _, c := range e.Cards {
				if !c.Matches(e.Rank) {
					truth = false
				}
			}
			if truth != e.Truth {
				return fmt.Sprintf("reveal %+v: the cards say truth=%v", e, truth)
			}
			if i == 0 {
				return "a reveal with no call before it"
			}
			judge := ev[i-1]
			var next engine.Event
			if i+1 < len(ev) {
				next = ev[i+1]
			}
			switch {
			case judge.Type == "believe" && e.Truth:
				if next.Type != "leave" {
					return fmt.Sprintf("a believed truth didn't leave the game: %s", evs(ev))
				}
			case judge.Type == "believe":
				if next.Type != "take" || next.Seat != judge.Seat {
					return fmt.Sprintf("a believed lie isn't the believer's: %s", evs(ev))
				}
			default: // call or doubt
				loser := judge.Seat
				if !e.Truth {
					loser = e.Seat
				}
				if next.Type != "take" || next.Seat != loser {
					return fmt.Sprintf("the pile went to the wrong seat: %s", evs(ev))
				}
			}
		}
	}
	if g.Over() || g.Plays() == 0 || rl.Doubt {
		return ""
	}
	v := g.View(-1)
	// The seat after s in turn order still in the game.
	after := func(s int) int {
		for range g.Seats() {
			if rl.CCW {
				s = (s + g.Seats() - 1) % g.Seats()
			} else {
				s = (s + 1) % g.Seats()
			}
			if !g.IsOut(s) {
				break
			}
		}
		return s
	}
	if want := after(v.Last.Seat); g.Turn() != want {
		return fmt.Sprintf("turn %d after seat %d's play, want %d (R11)", g.Turn(), v.Last.Seat, want)
	}
	if g.Phase() == engine.PhaseCall && len(v.Window.Passed) == 0 {
		var want []int
		for s := 0; s < g.Seats(); s++ {
			if s != v.Last.Seat && !g.IsOut(s) && (!rl.NextOnly || s == g.Turn()) {
				want = append(want, s)
			}
		}
		if !reflect.DeepEqual(v.Window.Callers, want) {
			return fmt.Sprintf("callers %v, want %v", v.Window.Callers, want)
		}
	}
	return ""
}
