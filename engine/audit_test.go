package engine

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Helpers here are prefixed with audit: this package's other tests are
// someone else's, and names must not collide.

// auditPlay plays a random legal game to its end: random cards, claims,
// calls, let-gos, hand-overs and time jumps that let windows run out. It
// returns the steps and the events as the live game announced them (batch
// 0 is the deal), so a test compares the audit's replay with a real run.
func auditPlay(tb testing.TB, cfg Config, rng *rand.Rand) (*Game, []Step, [][]Event) {
	tb.Helper()
	g, deal, err := New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	batches := [][]Event{deal}
	var steps []Step
	var now time.Duration
	for tries := 0; !g.Over() && tries < 50000; tries++ {
		now += time.Duration(rng.IntN(1500)) * time.Millisecond
		events := g.Tick(now)
		var cmd *Command
		for k := 0; k < 8 && cmd == nil; k++ {
			c := auditMove(g, rng)
			if more, err := g.Apply(now, c); err == nil {
				cmd = &c
				events = append(events, more...)
			}
		}
		if cmd == nil && len(events) == 0 {
			continue
		}
		steps = append(steps, Step{At: now, Cmd: cmd})
		batches = append(batches, events)
	}
	if !g.Over() {
		tb.Fatalf("a random game of %s did not end", cfg.Rules.Preset)
	}
	return g, steps, batches
}

// auditMove is a random command that is legal more often than not.
func auditMove(g *Game, rng *rand.Rand) Command {
	r := g.Rules()
	pub := g.View(-1)
	switch {
	case g.Phase() == PhaseCall && (!r.Rapid || rng.IntN(3) > 0):
		w := pub.Window
		if w == nil || len(w.Callers) == 0 {
			return Command{}
		}
		s := w.Callers[rng.IntN(len(w.Callers))]
		if rng.IntN(3) == 0 {
			return Command{Move: MoveCall, Seat: s, No: w.No, Rank: NoRank}
		}
		return Command{Move: MovePass, Seat: s, No: w.No, Rank: NoRank}
	case g.Phase() == PhaseGive && pub.Give != nil:
		hand := g.View(pub.Give.From).Hand
		return Command{Move: MoveGive, Seat: pub.Give.From, Cards: []Card{hand[rng.IntN(len(hand))]}, Rank: NoRank}
	}
	s := g.Turn()
	v := g.View(s)
	if r.Doubt && v.Round != nil && v.No > 0 && rng.IntN(2) == 0 {
		return Command{Move: []Move{MoveDoubt, MoveBelieve, MoveSkip}[rng.IntN(3)], Seat: s, Rank: NoRank}
	}
	hand := v.Hand
	if len(hand) == 0 {
		return Command{}
	}
	if r.Quads && rng.IntN(3) == 0 {
		for i := 0; i+3 < len(hand); i++ {
			if hand[i] != Joker && hand[i].Rank() == hand[i+3].Rank() {
				return Command{Move: MoveQuads, Seat: s, Cards: slices.Clone(hand[i : i+4]), Rank: NoRank}
			}
		}
	}
	k := 1 + rng.IntN(min(v.Cap, len(hand)))
	claim := 0
	if r.Sneak > 0 && rng.IntN(3) == 0 && len(hand) > k {
		claim = k
		k += 1 + rng.IntN(min(r.Sneak, len(hand)-k))
	}
	if r.CountLies && rng.IntN(3) == 0 {
		claim = 1 + rng.IntN(v.Cap)
	}
	idx := rng.Perm(len(hand))[:k]
	cards := make([]Card, k)
	for i, j := range idx {
		cards[i] = hand[j]
	}
	rank := v.Rank
	switch {
	case len(v.Ranks) > 0:
		rank = v.Ranks[rng.IntN(len(v.Ranks))]
	case rank == NoRank:
		rank = Rank(rng.IntN(NumRanks))
	}
	return Command{Move: MovePlay, Seat: s, Cards: cards, Claim: claim, Rank: rank}
}

// auditReceived is what seat was delivered of batches: deep copies, so a
// test may doctor them as a lying host would.
func auditReceived(batches [][]Event, seat int) []Event {
	var out []Event
	for _, b := range batches {
		for _, e := range b {
			if !auditVisible(&e, seat) {
				continue
			}
			e.Cards = slices.Clone(e.Cards)
			e.Hands = slices.Clone(e.Hands)
			for i := range e.Hands {
				e.Hands[i] = slices.Clone(e.Hands[i])
			}
			out = append(out, e)
		}
	}
	return out
}

func auditConfig(preset string, seats int, seed uint64) Config {
	r, ok := Preset(preset)
	if !ok {
		// Every variant the presets leave off, at once.
		r = Standard()
		r.Preset, r.Rapid, r.Quads, r.Places, r.Jokers, r.CCW = preset, true, true, true, 2, true
		r.Sequence, r.NextOnly = SeqNear, true
	}
	return Config{Rules: r, Seats: seats, Seed: seed}
}

// auditGameWith plays seeded games until one has an event of type typ in
// seat's received events, and returns it with the index of that event.
func auditGameWith(t *testing.T, preset string, seat int, typ EventType) (Config, []Step, [][]Event, []Event, int) {
	t.Helper()
	for seed := uint64(1); seed < 200; seed++ {
		cfg := auditConfig(preset, 4, seed)
		_, steps, batches := auditPlay(t, cfg, rand.New(rand.NewPCG(seed, 7)))
		got := auditReceived(batches, seat)
		for i := range got {
			if got[i].Type == typ {
				return cfg, steps, batches, got, i
			}
		}
	}
	t.Fatalf("no %s game with a %q event for seat %d", preset, typ, seat)
	return Config{}, nil, nil, nil, 0
}

func auditWant(t *testing.T, problems []string, want string) {
	t.Helper()
	if !slices.ContainsFunc(problems, func(p string) bool { return strings.Contains(p, want) }) {
		t.Fatalf("the audit did not say %q; it said:\n%s", want, strings.Join(problems, "\n"))
	}
}

// An honest host's game verifies for every seat and for a spectator, under
// every preset and a few seat counts.
func TestAuditHonestGameVerifies(t *testing.T) {
	seen := map[EventType]bool{}
	for _, preset := range append(slices.Clone(Presets), "everything") {
		for _, seats := range []int{3, 4, 7} {
			for seed := uint64(1); seed <= 3; seed++ {
				cfg := auditConfig(preset, seats, seed*1000+uint64(seats))
				_, steps, batches := auditPlay(t, cfg, rand.New(rand.NewPCG(seed, uint64(seats))))
				for _, b := range batches {
					for _, e := range b {
						seen[e.Type] = true
					}
				}
				for seat := -1; seat < seats; seat++ {
					if p := Audit(cfg, steps, seat, auditReceived(batches, seat)); p != nil {
						t.Fatalf("%s, %d seats, seed %d, seat %d: an honest game failed:\n%s",
							preset, seats, cfg.Seed, seat, strings.Join(p, "\n"))
					}
				}
			}
		}
	}
	// The games must have shown the audit every kind of event.
	for _, typ := range []EventType{"deal", "hand", "quads", "play", "mine", "pass", "call", "stand", "reveal", "take",
		"give", "handed", "doubt", "believe", "skip", "leave", "round", "out", "win", "over"} {
		if !seen[typ] {
			t.Errorf("no game had a %q event", typ)
		}
	}
}

// A host that tells the table a lie was the truth (or the reverse) is
// caught by every seat that saw the reveal.
func TestAuditCatchesFalseVerdict(t *testing.T) {
	cfg, steps, _, got, i := auditGameWith(t, "standard", 1, "reveal")
	got[i].Truth = !got[i].Truth
	p := Audit(cfg, steps, 1, got)
	auditWant(t, p, "you were told seat "+strconv.Itoa(got[i].Seat)+"'s claim was "+auditTruth(got[i].Truth)+", the replay finds it "+auditTruth(!got[i].Truth)+".")
	if !strings.HasPrefix(p[0], "play "+strconv.Itoa(got[i].No)+": ") {
		t.Errorf("the difference is not placed at play %d: %q", got[i].No, p[0])
	}
}

// A host that hands the pile to the wrong seat is caught.
func TestAuditCatchesPileToWrongSeat(t *testing.T) {
	cfg, steps, _, got, i := auditGameWith(t, "standard", -1, "take")
	was := got[i].Seat
	got[i].Seat = (was + 1) % cfg.Seats
	p := Audit(cfg, steps, -1, got)
	auditWant(t, p, "you were told seat "+strconv.Itoa(got[i].Seat)+" took the pile, the replay gives it to seat "+strconv.Itoa(was)+".")
}

// A host that deals from another seed than the one it committed to is
// caught at the first event: the seat's own hand.
func TestAuditCatchesRedeal(t *testing.T) {
	cfg := auditConfig("standard", 4, 42)
	_, steps, batches := auditPlay(t, cfg, rand.New(rand.NewPCG(42, 1)))
	got := auditReceived(batches, 2)
	other := cfg
	other.Seed = 43
	_, deal, err := New(other)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range deal {
		if e.Type == "hand" && e.Seat == 2 {
			got[1].Cards = e.Cards
		}
	}
	p := Audit(cfg, steps, 2, got)
	auditWant(t, p, "the deal: your dealt hand differs from the committed deal: you were dealt ")

	// The whole game run from the other seed, revealed as the committed
	// one: its moves don't fit the committed deal.
	_, steps2, batches2 := auditPlay(t, other, rand.New(rand.NewPCG(43, 1)))
	p = Audit(cfg, steps2, 2, auditReceived(batches2, 2))
	if p == nil {
		t.Fatal("a game dealt from another seed verified")
	}
	auditWant(t, p, "the deal: your dealt hand differs from the committed deal")
}

// A host that turns up other cards than were played is caught, and so is
// one whose log changes a card of a play after the fact.
func TestAuditCatchesChangedCard(t *testing.T) {
	t.Run("reveal", func(t *testing.T) {
		cfg, steps, _, got, i := auditGameWith(t, "standard", 0, "reveal")
		was := slices.Clone(got[i].Cards)
		got[i].Cards[0] = (got[i].Cards[0] + 1) % Joker
		p := Audit(cfg, steps, 0, got)
		want := "play " + strconv.Itoa(got[i].No) + ": you were shown a reveal of " + auditCards(got[i].Cards) +
			", the replay turned up " + auditCards(was) + "."
		if p[0] != want {
			t.Fatalf("got %q\nwant %q", p[0], want)
		}
	})
	t.Run("log", func(t *testing.T) {
		cfg := auditConfig("standard", 4, 9)
		_, steps, batches := auditPlay(t, cfg, rand.New(rand.NewPCG(9, 9)))
		// Seat 1's third play: swap a placed card for one it kept.
		plays := 0
		for i, s := range steps {
			if s.Cmd == nil || s.Cmd.Move != MovePlay || s.Cmd.Seat != 1 {
				continue
			}
			if plays++; plays < 3 {
				continue
			}
			g, _, err := Replay(cfg, steps[:i])
			if err != nil {
				t.Fatal(err)
			}
			kept := auditMinus(g.State().Hands[1], s.Cmd.Cards)
			if len(kept) == 0 {
				continue
			}
			doctored := slices.Clone(steps)
			c := *s.Cmd
			c.Cards = slices.Clone(c.Cards)
			c.Cards[0] = kept[0]
			doctored[i].Cmd = &c
			p := Audit(cfg, doctored, 1, auditReceived(batches, 1))
			auditWant(t, p, ": your own play was shown to you as "+auditCards(s.Cmd.Cards)+", the log says you placed "+auditCards(c.Cards)+".")
			return
		}
		t.Fatal("seat 1 never made a play with a card to spare")
	})
}

func auditMinus(hand, cards []Card) []Card {
	out := slices.Clone(hand)
	for _, c := range cards {
		if i := slices.Index(out, c); i >= 0 {
			out = slices.Delete(out, i, i+1)
		}
	}
	return out
}

// A log the rules refuse is reported at the step it breaks, with what
// differed before it.
func TestAuditRefusedStep(t *testing.T) {
	cfg := auditConfig("standard", 3, 5)
	_, steps, batches := auditPlay(t, cfg, rand.New(rand.NewPCG(5, 5)))
	doctored := slices.Clone(steps)
	for i, s := range doctored {
		if s.Cmd != nil && s.Cmd.Move == MovePlay {
			c := *s.Cmd
			c.Seat = (c.Seat + 1) % 3 // out of turn
			doctored[i].Cmd = &c
			p := Audit(cfg, doctored, 0, auditReceived(batches, 0))
			auditWant(t, p, "step "+strconv.Itoa(i)+", seat "+strconv.Itoa(c.Seat)+"'s play of ")
			auditWant(t, p, "breaks the rules")
			return
		}
	}
}

// A spectator checks the public events; a private one in its stream, or a
// doctored claim, is a difference.
func TestAuditSpectator(t *testing.T) {
	cfg := auditConfig("standard", 4, 77)
	_, steps, batches := auditPlay(t, cfg, rand.New(rand.NewPCG(77, 7)))
	got := auditReceived(batches, -1)
	for i := range got {
		if got[i].Type == "play" {
			got[i].Claim++
			break
		}
	}
	auditWant(t, Audit(cfg, steps, -1, got), "claiming")

	got = auditReceived(batches, -1)
	hand := auditReceived(batches[:1], 0)[1] // seat 0's private hand
	got = slices.Insert(got, 1, hand)
	p := Audit(cfg, steps, -1, got)
	auditWant(t, p, "the deal: you received seat 0 dealt ")
	if len(p) != 1 {
		t.Fatalf("one extra event made more than one difference:\n%s", strings.Join(p, "\n"))
	}
	got = slices.Delete(got, 3, 4)
	p = Audit(cfg, steps, -1, got)
	if len(p) != 2 || !strings.Contains(p[1], "you never received ") {
		t.Fatalf("an extra and a missing event:\n%s", strings.Join(p, "\n"))
	}
}

// Events missing at the end, or extra ones, are reported once, with a
// count; past AuditLimit differences only the number is given.
func TestAuditCountsAndLimits(t *testing.T) {
	cfg := auditConfig("standard", 4, 11)
	_, steps, batches := auditPlay(t, cfg, rand.New(rand.NewPCG(11, 1)))
	got := auditReceived(batches, 3)

	p := Audit(cfg, steps, 3, got[:len(got)-3])
	auditWant(t, p, "you never received ")
	auditWant(t, p, "nor the 2 event(s) after it that the replay announces to you.")

	p = Audit(cfg, steps, 3, append(slices.Clone(got), got[0], got[1]))
	auditWant(t, p, "after the end: you received a deal by seat ")
	auditWant(t, p, "and 1 more event(s)")

	doctored := slices.Clone(got)
	n := 0
	for i := range doctored {
		if doctored[i].Type == "play" && n < AuditLimit+4 {
			doctored[i].Claim += 2
			n++
		}
	}
	p = Audit(cfg, steps, 3, doctored)
	if len(p) != AuditLimit+1 || p[AuditLimit] != "… and 4 more difference(s)." {
		t.Fatalf("got %d lines:\n%s", len(p), strings.Join(p, "\n"))
	}
}

// The deal must be the seed's: a revealed game with fixed hands or a fixed
// first seat is flagged even when every event matches; a log that runs
// back in time is flagged.
func TestAuditDealLeftToTheSeed(t *testing.T) {
	cfg := auditConfig("standard", 3, 3)
	g, _, _ := New(cfg)
	cfg.Hands = g.State().Hands
	first := g.State().First
	cfg.First = &first
	_, steps, batches := auditPlay(t, cfg, rand.New(rand.NewPCG(3, 3)))
	p := Audit(cfg, steps, 0, auditReceived(batches, 0))
	auditWant(t, p, "deals fixed hands")
	auditWant(t, p, "names seat "+strconv.Itoa(first)+" to play first")

	cfg = auditConfig("standard", 3, 3)
	_, steps, batches = auditPlay(t, cfg, rand.New(rand.NewPCG(3, 3)))
	steps[4].At = steps[3].At - time.Millisecond
	auditWant(t, Audit(cfg, steps, 0, auditReceived(batches, 0)), "step 4 is dated ")

	if p := Audit(cfg, steps, 3, nil); len(p) != 1 || !strings.Contains(p[0], "seat 3 is not at this table") {
		t.Fatalf("seat out of range: %q", p)
	}
}

// The verdict check works from the log alone: a showdown that turns up
// other cards than were placed, judges them wrongly or sends the pile to
// the wrong seat is named even if the engine were to agree with itself.
func TestAuditVerdicts(t *testing.T) {
	ks, kh, h7 := NewCard(12, 3), NewCard(12, 2), NewCard(6, 2)
	steps := []Step{
		{Cmd: &Command{Move: MovePlay, Seat: 0, Cards: []Card{ks, h7}}},
		{Cmd: &Command{Move: MoveCall, Seat: 1, No: 1}},
	}
	batch := func(cards []Card, truth bool, taker int) [][]Event {
		return [][]Event{nil,
			{{Type: "play", Seat: 0, No: 1, Rank: 12, Claim: 2}},
			{{Type: "call", Seat: 1, Target: 0, No: 1},
				{Type: "reveal", Seat: 0, No: 1, Rank: 12, Claim: 2, Cards: cards, Truth: truth},
				{Type: "take", Seat: taker}}}
	}
	if p := auditVerdicts(steps, batch([]Card{ks, h7}, false, 0)); p != nil {
		t.Fatalf("a right verdict was flagged: %q", p)
	}
	p := auditVerdicts(steps, batch([]Card{ks, kh}, true, 1))
	auditWant(t, p, "play 1: the reveal turned up [KS KH], the log says seat 0 placed [KS 7H].")
	auditWant(t, p, "play 1: [KS 7H] for a claim of 2 × K was judged true; the rules make it a lie.")
	auditWant(t, p, "play 1: seat 1 took the pile, but the verdict gives it to seat 0.")
}

// A game the host ended while the last call's play was being turned up
// (a blind table waits on its player's node) verifies for a seat shown
// the call and nothing after it; a seat shown a verdict the replay
// doesn't give, or missing the call itself, is still caught.
func TestAuditEndedWhileTurningUp(t *testing.T) {
	for _, preset := range []string{"standard", "idoubtit"} {
		cfg := auditConfig(preset, 4, 77)
		_, steps, batches := auditPlay(t, cfg, rand.New(rand.NewPCG(7, 7)))
		// The last step that is a call, a doubt or a believe: the game
		// ends there, its play not yet turned up.
		i := len(steps) - 1
		for i >= 0 && (steps[i].Cmd == nil || (steps[i].Cmd.Move != MoveCall && steps[i].Cmd.Move != MoveDoubt && steps[i].Cmd.Move != MoveBelieve)) {
			i--
		}
		if i < 0 {
			t.Fatalf("%s: the game had no call, doubt or believe", preset)
		}
		cut, ok := auditCut(steps[:i+1], batches[:i+2])
		if !ok {
			t.Fatalf("%s: step %d (%s) is not cut", preset, i, auditCommand(steps[i].Cmd))
		}
		for seat := -1; seat < cfg.Seats; seat++ {
			got := auditReceived(cut, seat)
			if p := Audit(cfg, steps[:i+1], seat, got); p != nil {
				t.Fatalf("%s, seat %d: a game ended at a call not yet turned up failed:\n%s", preset, seat, strings.Join(p, "\n"))
			}
			if p := Audit(cfg, steps[:i+1], seat, got[:len(got)-1]); p == nil {
				t.Errorf("%s, seat %d: the call itself missing passed", preset, seat)
			}
			// Shown the verdict too, it must be the replay's.
			whole := auditReceived(batches[:i+2], seat)
			if p := Audit(cfg, steps[:i+1], seat, whole); p != nil {
				t.Fatalf("%s, seat %d: the game shown to the verdict failed:\n%s", preset, seat, strings.Join(p, "\n"))
			}
			k := slices.IndexFunc(whole[len(got):], func(e Event) bool { return e.Type == EventReveal })
			if k < 0 {
				t.Fatalf("%s, seat %d: no verdict after the call", preset, seat)
			}
			bad := slices.Clone(whole)
			bad[len(got)+k].Truth = !bad[len(got)+k].Truth
			if p := Audit(cfg, steps[:i+1], seat, bad); p == nil {
				t.Errorf("%s, seat %d: a false verdict after the call passed", preset, seat)
			}
		}
	}
}
