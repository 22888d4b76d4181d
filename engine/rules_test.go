package engine_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bullshit-game/bullshit/engine"
)

// The rules contract, R1–R17 of ../shared/RULES.md, one test a rule.

// std3 is a standard table of three: seat 0 plays first, aces.
func std3(t testing.TB) *engine.Game {
	return table(t, engine.Standard(), 0,
		"AS AC 2D 3H 4S 5C KD",
		"2C 2H 7D 8S 9C 10H",
		"3C 3D JD QS KC KH")
}

func TestR1_Seats(t *testing.T) {
	// A table has 2 to 10 seats; anything else is refused as a bad command.
	for _, tc := range []struct {
		seats int
		code  engine.Code
	}{
		{-1, engine.CodeBadCommand},
		{0, engine.CodeBadCommand},
		{1, engine.CodeBadCommand},
		{2, ""}, {3, ""}, {4, ""}, {5, ""}, {6, ""}, {7, ""}, {8, ""}, {9, ""}, {10, ""},
		{11, engine.CodeBadCommand},
		{64, engine.CodeBadCommand},
	} {
		_, _, err := engine.New(engine.Config{Rules: engine.Standard(), Seats: tc.seats, Seed: 3})
		if engine.CodeOf(err) != tc.code {
			t.Errorf("%d seats: got %v, want %q", tc.seats, err, tc.code)
		}
		if tc.code != "" && !errors.Is(err, engine.ErrBadCommand) {
			t.Errorf("%d seats: not ErrBadCommand", tc.seats)
		}
	}

	// Seats are numbered 0…n-1: anything outside is a bad seat, for every move.
	rows(t, std3, []row{
		{name: "seat n", script: []string{"3 play AS => bad_seat"}},
		{name: "seat -1", script: []string{"-1 play AS => bad_seat"}},
		{name: "call from seat 9", script: []string{"0 play AS", "9 call 1 => bad_seat"}},
		{name: "pass from seat -2", script: []string{"0 play AS", "-2 pass 1 => bad_seat"}},
		{name: "first seat out of range", check: func(t *testing.T, s *script) {
			_, _, err := engine.New(engine.Config{Rules: engine.Standard(), Seats: 3, First: ptr(3)})
			check(t, "code", engine.CodeOf(err), engine.CodeBadSeat)
		}},
	})

	// Numbers are turn order: 0, 1, …, n-1, then 0 again.
	t.Run("turn order", func(t *testing.T) {
		for n := 2; n <= 10; n++ {
			g, _ := dealt(t, engine.Standard(), n, uint64(n))
			start := g.Turn()
			for i := 0; i < 2*n; i++ {
				check(t, "turn", g.Turn(), (start+i)%n)
				s := g.Turn()
				if _, err := g.Play(g.Now(), s, g.State().Hands[s][:1], 0, engine.NoRank); err != nil {
					t.Fatal(err)
				}
				g.Tick(g.Now() + sec(6))
			}
		}
	})
}

func TestR2_Decks(t *testing.T) {
	// One 52-card deck for up to 6 seats, two (104) for 7 or more; every
	// card as many times as there are decks; only ranks matter.
	for n := 2; n <= 10; n++ {
		g, _ := dealt(t, engine.Standard(), n, 7)
		decks := 1
		if n >= 7 {
			decks = 2
		}
		st := g.State()
		var all []engine.Card
		for _, h := range st.Hands {
			all = append(all, h...)
		}
		check(t, "cards at "+itoa(n), len(all), 52*decks)
		check(t, "total", st.Total, 52*decks)
		counts := map[engine.Card]int{}
		for _, c := range all {
			counts[c]++
		}
		check(t, "distinct cards", len(counts), 52)
		for c, k := range counts {
			if k != decks {
				t.Errorf("%d seats: %s %d times, want %d", n, c, k, decks)
			}
		}
	}

	// The decks key overrides the count by seats.
	for _, tc := range []struct{ decks, seats, cards int }{
		{0, 4, 52}, {1, 8, 52}, {2, 3, 104}, {3, 5, 156}, {2, 2, 104},
	} {
		g, _ := dealt(t, rules(t, "standard", "decks", tc.decks), tc.seats, 1)
		check(t, "decks key "+itoa(tc.decks), g.State().Total, tc.cards)
	}

	// Custom hands: each card at most as many times as the decks hold it;
	// two decks hold identical cards.
	for _, tc := range []struct {
		name  string
		seats int
		r     engine.Rules
		hands []string
		code  engine.Code
	}{
		{"AS twice at 6 seats", 6, engine.Standard(), []string{"AS", "AS", "2C", "3C", "4C", "5C"}, engine.CodeBadCard},
		{"AS twice at 7 seats", 7, engine.Standard(), []string{"AS", "AS", "2C", "3C", "4C", "5C", "6C"}, ""},
		{"AS twice in one hand at 7 seats", 7, engine.Standard(), []string{"AS AS", "KS", "2C", "3C", "4C", "5C", "6C"}, ""},
		{"AS three times at 7 seats", 7, engine.Standard(), []string{"AS AS", "AS", "2C", "3C", "4C", "5C", "6C"}, engine.CodeBadCard},
		{"AS twice with decks 2", 3, rules(t, "standard", "decks", 2), []string{"AS", "AS", "2C"}, ""},
		{"AS three times with decks 3", 2, rules(t, "standard", "decks", 3), []string{"AS AS", "AS"}, ""},
	} {
		hs := make([][]engine.Card, len(tc.hands))
		for i, h := range tc.hands {
			hs[i] = cards(h)
		}
		_, _, err := engine.New(engine.Config{Rules: tc.r, Seats: tc.seats, Hands: hs})
		if engine.CodeOf(err) != tc.code {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.code)
		}
	}

	// Suits never matter: an ace of any suit is an ace, so a call on
	// "2 aces" of different suits finds the truth.
	s := run(t, std3(t), "0 play AS AC", "1 call 1")
	check(t, "truth with mixed suits", s.must("reveal").Truth, true)
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestR3_Deal(t *testing.T) {
	// Every card is dealt one at a time from the seat that plays first, in
	// turn order: the seats nearest after it get the odd cards.
	for n := 2; n <= 10; n++ {
		for _, seed := range []uint64{1, 2, 99} {
			g, ev := dealt(t, engine.Standard(), n, seed)
			first := g.Turn()
			total := g.State().Total
			for i := 0; i < n; i++ {
				s := (first + i) % n
				want := total / n
				if i < total%n {
					want++
				}
				if g.HandSize(s) != want {
					t.Errorf("%d seats seed %d: seat %d (offset %d from first) holds %d, want %d", n, seed, s, i, g.HandSize(s), want)
				}
			}
			// The deal announces the public sizes, and each hand to its seat only.
			check(t, "deal event", ev[0].Type, "deal")
			for s := 0; s < n; s++ {
				e := ev[1+s]
				if e.Type != "hand" || !reflect.DeepEqual(e.To, []int{s}) || len(e.Cards) != g.HandSize(s) {
					t.Errorf("%d seats: event %d is %+v, want seat %d's hand to it alone", n, 1+s, e, s)
				}
				if ev[0].Counts[s] != engine.Exact(g.HandSize(s)) {
					t.Errorf("deal counts %v", ev[0].Counts)
				}
			}
		}
	}

	// The deal is a pure function of the seed: the same seed, the same
	// hands; another seed, another deal.
	for _, n := range []int{2, 4, 7, 10} {
		a, _ := dealt(t, engine.Standard(), n, 42)
		b, _ := dealt(t, engine.Standard(), n, 42)
		c, _ := dealt(t, engine.Standard(), n, 43)
		if !reflect.DeepEqual(a.State(), b.State()) {
			t.Errorf("%d seats: seed 42 dealt twice differs", n)
		}
		if reflect.DeepEqual(a.State().Hands, c.State().Hands) {
			t.Errorf("%d seats: seeds 42 and 43 dealt the same", n)
		}
	}

	// Hands may differ by one card: never by more.
	g, _ := dealt(t, engine.Standard(), 5, 5)
	lo, hi := 99, 0
	for s := 0; s < 5; s++ {
		lo, hi = min(lo, g.HandSize(s)), max(hi, g.HandSize(s))
	}
	check(t, "spread", hi-lo, 1)

	// Custom hands replace the deal, sorted, with the sizes they have.
	g = table(t, engine.Standard(), 1, "KS 2C AS", "5H", "JD QD")
	check(t, "custom hand 0", hand(g, 0), "AS 2C KS")
	check(t, "custom sizes", g.HandSize(1)+g.HandSize(2), 3)
	check(t, "custom total", g.State().Total, 6)
}

func TestR4_FirstPlayer(t *testing.T) {
	// The seat to the dealer's left plays first, aces; the dealer comes
	// from the seed.
	dealers := map[int]bool{}
	for seed := uint64(0); seed < 40; seed++ {
		for _, n := range []int{2, 3, 4, 6, 8, 10} {
			g, ev := dealt(t, engine.Standard(), n, seed)
			d := g.Dealer()
			if n == 6 {
				dealers[d] = true
			}
			check(t, "first", g.Turn(), (d+1)%n)
			check(t, "deal event dealer", ev[0].Seat, d)
			check(t, "deal event first", ev[0].Target, (d+1)%n)
			check(t, "first rank", g.View(0).Rank, rank("A"))
			check(t, "deal event rank", ev[0].Rank, rank("A"))
		}
	}
	if len(dealers) < 4 {
		t.Errorf("the dealer hardly depends on the seed: %v", dealers)
	}

	// Counter-clockwise, the dealer's left is the seat before it in numbers.
	for seed := uint64(0); seed < 10; seed++ {
		g, _ := dealt(t, rules(t, "standard", "direction", "ccw"), 5, seed)
		check(t, "ccw first", g.Turn(), (g.Dealer()+4)%5)
	}

	// Config.First (the referee's first) picks the seat; the rank is still aces.
	for f := 0; f < 4; f++ {
		g, _, err := engine.New(engine.Config{Rules: engine.Standard(), Seats: 4, Seed: 9, First: ptr(f)})
		if err != nil {
			t.Fatal(err)
		}
		check(t, "chosen first", g.Turn(), f)
		check(t, "chosen first rank", g.View(f).Rank, rank("A"))
		check(t, "chosen first gets the odd cards", g.HandSize(f), 13)
	}
}

func TestR5_RequiredRank(t *testing.T) {
	// Ranks advance one step every play, whatever a call decides, and go
	// round from K to A: play i (from 0) must claim rank i mod 13.
	g := table(t, engine.Standard(), 0,
		"AS AC AD AH 2S 2C 2D 2H 3S 3C 3D 3H 4S 4C 4D 4H 5S 5C",
		"6S 6C 6D 6H 7S 7C 7D 7H 8S 8C 8D 8H 9S 9C 9D 9H 10S 10C",
		"JS JC JD JH QS QC QD QH KS KC KD KH 10D 10H 5D 5H")
	now := sec(0)
	for i := 0; i < 30 && !g.Over(); i++ {
		want := engine.Rank(i % 13)
		seat := g.Turn()
		v := g.View(seat)
		if v.Rank != want {
			t.Fatalf("play %d: view rank %s, want %s", i+1, v.Rank, want)
		}
		ev, err := g.Play(now, seat, g.State().Hands[seat][:1], 0, engine.NoRank)
		if err != nil {
			t.Fatal(err)
		}
		check(t, "claimed", ev[0].Rank, want)
		// A play of another rank than the one required is refused.
		other := engine.Rank((i + 2) % 13)
		switch i % 3 {
		case 0: // called: the pile changes hands; the sequence doesn't care
			if _, err := g.Call(now, (seat+1)%3, i+1); err != nil {
				t.Fatal(err)
			}
		case 1: // let go by all
			g.Pass(now, (seat+1)%3, i+1)
			g.Pass(now, (seat+2)%3, i+1)
		case 2: // timed out
			now += sec(6)
			g.Tick(now)
		}
		if g.Over() {
			break
		}
		s := g.Turn()
		if _, err := g.Play(now, s, g.State().Hands[s][:1], 0, other); !errors.Is(err, engine.ErrBadRank) {
			t.Fatalf("play %d claiming %s: %v, want bad_rank", i+2, other, err)
		}
		// Naming the required rank explicitly is the same as leaving it out.
	}
	if g.Plays() < 14 {
		t.Fatalf("only %d plays: the sequence wasn't seen to wrap", g.Plays())
	}

	// The required rank may be named explicitly.
	run(t, std3(t), "0 play AS rank=A", "1 pass 1", "2 pass 1", "1 play 2C rank=2")
}

func TestR6_Play(t *testing.T) {
	rows(t, std3, []row{
		// One to four cards from the hand, face down, claimed as the rank.
		{name: "one card", script: []string{"0 play AS"}, check: played(0, 1)},
		{name: "two cards", script: []string{"0 play AS AC"}, check: played(0, 2)},
		{name: "three cards", script: []string{"0 play AS AC 2D"}, check: played(0, 3)},
		{name: "four cards", script: []string{"0 play AS AC 2D 3H"}, check: played(0, 4)},
		{name: "claim given equal to the count", script: []string{"0 play AS AC claim=2"}, check: played(0, 2)},

		// Zero cards, more than the cap, or a claim other than the count.
		{name: "zero cards", script: []string{"0 play => bad_count"}},
		{name: "five cards", script: []string{"0 play AS AC 2D 3H 4S => bad_count"}},
		{name: "claim less than placed", script: []string{"0 play AS AC claim=1 => bad_count"}},
		{name: "claim more than placed", script: []string{"0 play AS claim=2 => bad_count"}},
		{name: "claim zero", script: []string{"0 play AS claim=-1 => bad_count"}},

		// Cards not held, duplicates, things that aren't cards.
		{name: "card not held", script: []string{"0 play KH => not_in_hand"}},
		{name: "one held one not", script: []string{"0 play AS 2C => not_in_hand"}},
		{name: "duplicate card", script: []string{"0 play AS AS => not_in_hand"}},
		{name: "not a card", script: []string{"0 play card=53 => bad_card"}},
		{name: "not a card among cards", script: []string{"0 play AS card=200 => bad_card"}},

		// Out of turn, or while a window is open.
		{name: "out of turn", script: []string{"1 play 2C => not_your_turn"}},
		{name: "third seat out of turn", script: []string{"2 play 3C => not_your_turn"}},
		{name: "next seat during the window", script: []string{"0 play AS", "1 play 2C => not_your_turn"}},
		{name: "player again during the window", script: []string{"0 play AS", "0 play AC => not_your_turn"}},
		{name: "next seat after the window", script: []string{"0 play AS", "tick 6", "1 play 2C"}},

		// A seat holding cards can't pass: there is nothing to let go.
		{name: "no pass before any play", script: []string{"0 pass 0 => no_window"}},
		{name: "no pass on its own turn", script: []string{"0 play AS", "tick 6", "1 pass 1 => too_late"}},
		{name: "no unknown move", script: []string{"0 fold => bad_command"}},
	})
}

// played checks that seat put n cards on the pile, claimed as n.
func played(seat, n int) func(t *testing.T, s *script) {
	return func(t *testing.T, s *script) {
		e := s.must("play")
		check(t, "claim", e.Claim, n)
		check(t, "seat", e.Seat, seat)
		check(t, "no", e.No, 1)
		check(t, "pile", s.g.PileSize(), n)
		check(t, "hand", s.g.HandSize(seat), 7-n)
		mine := s.must("mine")
		if !reflect.DeepEqual(mine.To, []int{seat}) || len(mine.Cards) != n {
			t.Errorf("mine event %+v", mine)
		}
		check(t, "phase", s.g.Phase(), engine.PhaseCall)
	}
}

func TestR7_Bluff(t *testing.T) {
	rows(t, std3, []row{
		// Any cards may be claimed as the rank.
		{name: "kings claimed as aces", script: []string{"0 play KD 5C"}, check: func(t *testing.T, s *script) {
			check(t, "rank claimed", s.must("play").Rank, rank("A"))
		}},
		// Seat 1 holds no 3 and must still play when 3s are due: no pass.
		{name: "forced bluff", script: []string{"0 play AS", "tick 6", "1 play 2C", "tick 12", "2 play 3C", "tick 18", "0 play 4S", "tick 24",
			"1 play 9C"}, check: func(t *testing.T, s *script) {
			check(t, "claimed", s.must("play").Rank, rank("5"))
		}},
		{name: "a seat without the rank has no other move", script: []string{"0 play AS", "tick 6", "1 pass 1 => too_late", "1 skip => not_allowed"}},
		// A caught bluff takes the pile.
		{name: "bluff caught", script: []string{"0 play KD", "2 call 1"}, check: func(t *testing.T, s *script) {
			check(t, "truth", s.must("reveal").Truth, false)
			check(t, "taker", s.must("take").Seat, 0)
		}},
	})
}

func TestR8_CallWindow(t *testing.T) {
	rows(t, std3, []row{
		// After a play a window opens for everyone else, for 6 seconds.
		{name: "window opens", script: []string{"@1 0 play AS"}, check: func(t *testing.T, s *script) {
			v := s.g.View(2)
			check(t, "phase", v.Phase, engine.PhaseCall)
			if v.Window == nil {
				t.Fatal("no window in the view")
			}
			check(t, "window no", v.Window.No, 1)
			check(t, "closes", v.Window.Closes, engine.Seconds(sec(7)))
			if !reflect.DeepEqual(v.Window.Callers, []int{1, 2}) {
				t.Errorf("callers %v", v.Window.Callers)
			}
			d, ok := s.g.Deadline()
			check(t, "deadline", d, sec(7))
			check(t, "deadline set", ok, true)
		}},
		// It closes when every other seat lets it go: the play stands.
		{name: "all let go", script: []string{"0 play AS", "1 pass 1", "2 pass 1"}, check: func(t *testing.T, s *script) {
			e := s.must("stand")
			check(t, "stand no", e.No, 1)
			check(t, "phase", s.g.Phase(), engine.PhasePlay)
			check(t, "turn", s.g.Turn(), 1)
			_, ok := s.g.Deadline()
			check(t, "deadline after", ok, false)
		}},
		{name: "one let go keeps it open", script: []string{"0 play AS", "2 pass 1"}, check: func(t *testing.T, s *script) {
			s.mustNot("stand")
			check(t, "phase", s.g.Phase(), engine.PhaseCall)
			check(t, "passed", reflect.DeepEqual(s.g.View(1).Window.Passed, []int{2}), true)
		}},
		// Letting go is final.
		{name: "call after letting go", script: []string{"0 play AS", "1 pass 1", "1 call 1 => already_passed"}},
		{name: "let go twice", script: []string{"0 play AS", "1 pass 1", "1 pass 1 => already_passed"}},
		// It closes when its clock runs out, and not a moment before.
		{name: "clock not yet out", script: []string{"0 play AS", "tick 5.999"}, check: func(t *testing.T, s *script) {
			s.mustNot("stand")
			run(t, s.g, "@5.999 1 call 1")
		}},
		{name: "clock out", script: []string{"0 play AS", "tick 6"}, check: func(t *testing.T, s *script) {
			s.must("stand")
			check(t, "turn", s.g.Turn(), 1)
			check(t, "now", s.g.Now(), sec(6))
		}},
		{name: "clock long out", script: []string{"0 play AS", "tick 100", "1 call 1 => too_late"}},
		{name: "tick fires windows in order", script: []string{"@2 0 play AS", "tick 8", "@8 1 play 2C", "tick 30"}, check: func(t *testing.T, s *script) {
			s.must("stand")
			check(t, "now", s.g.Now(), sec(30))
		}},
		// While a window is open nobody plays.
		{name: "no play in the window", script: []string{"0 play AS", "1 play 2C => not_your_turn", "2 play 3C => not_your_turn"}},
		// The play stands unrevealed: nobody else sees its cards.
		{name: "stands unrevealed", script: []string{"0 play AS KD", "tick 6"}, check: func(t *testing.T, s *script) {
			for seat := 1; seat < 3; seat++ {
				if v := s.g.View(seat); v.Last == nil || v.Last.Cards != nil || v.Last.Shown {
					t.Errorf("seat %d sees %+v", seat, v.Last)
				}
			}
			if v := s.g.View(0); !reflect.DeepEqual(v.Last.Cards, cards("AS KD")) {
				t.Errorf("the player sees %v", v.Last.Cards)
			}
			for _, e := range s.all {
				if e.Type == "mine" && !reflect.DeepEqual(e.To, []int{0}) {
					t.Errorf("mine event to %v", e.To)
				}
				if e.Public() && len(e.Cards) > 0 && e.Type != "hand" {
					t.Errorf("public event %s shows cards", e.Type)
				}
			}
		}},
	})

	// The window's length is a rule (window: 1 to 60 seconds).
	for _, w := range []float64{1, 4, 2.5, 60} {
		g := table(t, rules(t, "standard", "window", w), 0, "AS", "2C", "3C")
		s := run(t, g, "@1 0 play AS")
		d, _ := s.g.Deadline()
		check(t, "window", d, sec(1+w))
		s.do("tick " + ftoa(1+w-0.001))
		s.mustNot("stand")
		s.do("tick " + ftoa(1+w))
		s.must("stand")
	}
}

func ftoa(x float64) string { b, _ := json.Marshal(x); return string(b) }

func TestR9_FirstCallWins(t *testing.T) {
	rows(t, std3, []row{
		// Only the first call counts; a later one is too late.
		{name: "second call", script: []string{"0 play AS", "1 call 1", "2 call 1 => too_late"}},
		{name: "same caller twice", script: []string{"0 play AS", "1 call 1", "1 call 1 => too_late"}},
		{name: "let go after a call", script: []string{"0 play AS", "2 call 1", "1 pass 1 => too_late"}},
		// A play settled by the clock or by everyone letting it go.
		{name: "call after time out", script: []string{"0 play AS", "tick 6", "1 call 1 => too_late"}},
		{name: "let go after time out", script: []string{"0 play AS", "tick 6", "2 pass 1 => too_late"}},
		{name: "call at the closing instant", script: []string{"0 play AS", "@6 1 call 1 => too_late"}},
		{name: "call after all let go", script: []string{"0 play AS", "1 pass 1", "2 pass 1", "2 call 1 => too_late"}},
		// Never one's own play, open or settled (settled is too late first).
		{name: "call own play", script: []string{"0 play AS", "0 call 1 => own_play"}},
		{name: "let go own play", script: []string{"0 play AS", "0 pass 1 => own_play"}},
		{name: "own settled play", script: []string{"0 play AS", "tick 6", "0 call 1 => too_late"}},
		// Only the most recent play can be called.
		{name: "older play", script: []string{"0 play AS", "tick 6", "1 play 2C", "2 call 1 => too_late"}},
		{name: "most recent play", script: []string{"0 play AS", "tick 6", "1 play 2C", "2 call 2"}},
		// Plays that don't exist, or no play at all.
		{name: "before any play", script: []string{"1 call 1 => no_window"}},
		{name: "play zero", script: []string{"0 play AS", "1 call 0 => no_window"}},
		{name: "future play", script: []string{"0 play AS", "1 call 2 => no_window"}},
		{name: "negative play", script: []string{"0 play AS", "1 pass -4 => no_window"}},
	})
}

func TestR10_Reveal(t *testing.T) {
	// A pile of three plays: AS (seat 0, stood), 2C 2H (seat 1, stood), then
	// seat 2 claims 3s.
	setup := []string{"0 play AS", "tick 6", "1 play 2C 2H", "tick 12"}
	rows(t, std3, []row{
		// The truth: the caller takes the whole pile, revealed cards included.
		{name: "truth", script: append(setup, "2 play 3C 3D", "0 call 3"), check: func(t *testing.T, s *script) {
			r := s.must("reveal")
			check(t, "truth", r.Truth, true)
			check(t, "revealed", str(r.Cards), "3C 3D")
			check(t, "taker", s.must("take").Seat, 0)
			check(t, "took", s.must("take").Count, engine.Exact(5))
			check(t, "caller's hand", hand(s.g, 0), "AC AS 2C 2D 2H 3C 3D 3H 4S 5C KD")
			check(t, "pile", s.g.PileSize(), 0)
		}},
		// A lie: the player takes it.
		{name: "lie", script: append(setup, "2 play JD QS", "1 call 3"), check: func(t *testing.T, s *script) {
			check(t, "truth", s.must("reveal").Truth, false)
			check(t, "taker", s.must("take").Seat, 2)
			check(t, "player's hand", hand(s.g, 2), "AS 2C 2H 3C 3D JD QS KC KH")
			check(t, "pile", s.g.PileSize(), 0)
		}},
		// One card off is enough to make it a lie.
		{name: "one card off", script: append(setup, "2 play 3C 3D KC", "1 call 3"), check: func(t *testing.T, s *script) {
			check(t, "truth", s.must("reveal").Truth, false)
		}},
		// Only the called play is turned up, to everyone; the rest never.
		{name: "only the play", script: append(setup, "2 play JD", "0 call 3"), check: func(t *testing.T, s *script) {
			r := s.must("reveal")
			if !r.Public() || str(r.Cards) != "JD" {
				t.Errorf("reveal %+v", r)
			}
			for _, e := range s.events {
				if e.Public() {
					for _, c := range e.Cards {
						if c != cards("JD")[0] {
							t.Errorf("%s event shows %s from under the play", e.Type, c)
						}
					}
				}
			}
			v := s.g.View(1)
			check(t, "seat 1 sees", str(v.Last.Cards), "JD")
			check(t, "shown", v.Last.Shown, true)
			check(t, "caller", *v.Last.Caller, 0)
			// The taker's hand grew by the pile; others see only the count.
			check(t, "seat 1 sees seat 2's size", v.Hands[2], engine.Exact(9))
		}},
	})
}

func TestR11_NextTurn(t *testing.T) {
	rows(t, std3, []row{
		// The seat after the player, whoever called and whoever took the pile.
		{name: "next seat calls, is wrong, takes the pile, still plays", script: []string{"0 play AS", "1 call 1"}, check: turnIs(1)},
		{name: "next seat calls, is right, still plays", script: []string{"0 play KD", "1 call 1"}, check: turnIs(1)},
		{name: "far seat calls and takes the pile", script: []string{"0 play AS", "2 call 1"}, check: turnIs(1)},
		{name: "far seat calls a lie", script: []string{"0 play 5C", "2 call 1"}, check: turnIs(1)},
		{name: "no call", script: []string{"0 play AS", "tick 6"}, check: turnIs(1)},
		{name: "last seat round to the first", script: []string{"0 play AS", "tick 6", "1 play 2C", "tick 12", "2 play 3C", "0 call 3"}, check: turnIs(0)},
		{name: "player who took the pile is not skipped back in", script: []string{"0 play AS", "tick 6", "1 play 8S", "2 call 2", "1 play 2C => not_your_turn"}, check: turnIs(2)},
	})
}

func turnIs(seat int) func(t *testing.T, s *script) {
	return func(t *testing.T, s *script) {
		t.Helper()
		check(t, "turn", s.g.Turn(), seat)
		check(t, "phase", s.g.Phase(), engine.PhasePlay)
		check(t, "view turn", s.g.View((seat+1)%s.g.Seats()).Turn, seat)
	}
}

func TestR12_GoingOut(t *testing.T) {
	out := func(t testing.TB) *engine.Game {
		return table(t, engine.Standard(), 0, "AS AC", "2C KS", "3C QS")
	}
	rows(t, out, []row{
		// The play that empties a hand opens a window like any other.
		{name: "last cards are open to a call", script: []string{"0 play AS AC"}, check: func(t *testing.T, s *script) {
			check(t, "out flag", s.must("play").Out, true)
			check(t, "phase", s.g.Phase(), engine.PhaseCall)
			check(t, "winner", s.g.Winner(), -1)
			s.mustNot("win")
			if v := s.g.View(1); v.Winner != nil || !v.Last.Out {
				t.Errorf("view during the window: winner %v last %+v", v.Winner, v.Last)
			}
		}},
		// It wins when the window closes with no call…
		{name: "no call wins", script: []string{"0 play AS AC", "tick 6"}, check: wins(0)},
		{name: "all let go wins", script: []string{"0 play AS AC", "1 pass 1", "2 pass 1"}, check: wins(0)},
		// …or with a call that finds it true.
		{name: "true call wins", script: []string{"0 play AS AC", "2 call 1"}, check: wins(0)},
	})
	liar := func(t testing.TB) *engine.Game {
		return table(t, engine.Standard(), 0, "AS KC", "2C KS", "3C QS")
	}
	rows(t, liar, []row{
		// A call that finds a lie hands it the pile, and the game goes on.
		{name: "caught lie plays on", script: []string{"0 play AS KC", "2 call 1"}, check: func(t *testing.T, s *script) {
			check(t, "over", s.g.Over(), false)
			check(t, "winner", s.g.Winner(), -1)
			s.mustNot("win")
			check(t, "taker", s.must("take").Seat, 0)
			check(t, "hand", s.g.HandSize(0), 2)
			check(t, "turn", s.g.Turn(), 1)
			if v := s.g.View(2); v.Winner != nil || v.Phase != engine.PhasePlay {
				t.Errorf("view %+v", v)
			}
		}},
		{name: "caught by the next seat plays on", script: []string{"0 play AS KC", "1 call 1", "1 play 2C"}, check: func(t *testing.T, s *script) {
			check(t, "over", s.g.Over(), false)
		}},
		// A true last play with a late call still wins.
		{name: "late call on a winning play", script: []string{"0 play AS", "tick 6", "1 play 2C", "tick 12", "2 play 3C", "tick 18", "0 play KC", "tick 24",
			"1 call 4 => game_over"}},
	})
}

func wins(seat int) func(t *testing.T, s *script) {
	return func(t *testing.T, s *script) {
		t.Helper()
		check(t, "win event", s.must("win").Seat, seat)
		check(t, "over event", s.must("over").Seat, seat)
		check(t, "winner", s.g.Winner(), seat)
		check(t, "over", s.g.Over(), true)
		check(t, "place", s.g.Places()[seat], 1)
	}
}

func TestR13_End(t *testing.T) {
	four := func(t testing.TB) *engine.Game {
		return table(t, engine.Standard(), 0, "AS", "2C 2D 9S", "3C 3D 9H", "4C 4D 4H 4S 9D")
	}
	rows(t, four, []row{
		// The first winner ends it; the rest are placed by cards left, ties sharing.
		{name: "places with a tie", script: []string{"0 play AS", "tick 6"}, check: func(t *testing.T, s *script) {
			check(t, "places", ints(s.g.Places()), "1 2 2 4")
			o := s.must("over")
			check(t, "over places", ints(o.Places), "1 2 2 4")
			check(t, "over winner", o.Seat, 0)
			v := s.g.View(3)
			check(t, "view places", ints(v.Places), "1 2 2 4")
			check(t, "view phase", v.Phase, engine.PhaseOver)
			if v.Winner == nil || *v.Winner != 0 {
				t.Errorf("view winner %v", v.Winner)
			}
		}},
		// Nothing more happens after the end.
		{name: "game over", script: []string{"0 play AS", "tick 6", "1 play 2C => game_over", "2 call 1 => game_over",
			"1 pass 1 => game_over", "9 play 2C => game_over", "1 give 2C => game_over", "1 quads 2C => game_over", "1 doubt => game_over"}},
		{name: "tick after the end", script: []string{"0 play AS", "1 pass 1", "2 pass 1", "3 pass 1", "tick 60"}, check: func(t *testing.T, s *script) {
			check(t, "events", len(s.events), 0)
		}},
	})
	// Places without ties, and ties across more seats.
	for _, tc := range []struct {
		hands []string
		want  string
	}{
		{[]string{"AS", "2C", "3C 3D", "4C 4D 4H"}, "1 2 3 4"},
		{[]string{"AS", "2C 2D", "3C 3D", "4C 4D"}, "1 2 2 2"},
		{[]string{"AS", "2C 2D 2H", "3C", "4C 4D 4H"}, "1 3 2 3"},
	} {
		g := table(t, engine.Standard(), 0, tc.hands...)
		run(t, g, "0 play AS", "tick 6")
		check(t, "places "+strings.Join(tc.hands, "|"), ints(g.Places()), tc.want)
	}
}

func ints(xs []int) string {
	var b strings.Builder
	for i, x := range xs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strings.TrimSpace(ftoa(float64(x))))
	}
	return b.String()
}

// loop plays lies that are always called, so nobody ever goes out: each
// play goes back to its player's hand. It stops after n plays are settled
// or the game ends.
func loop(t testing.TB, g *engine.Game, n int) {
	t.Helper()
	now := g.Now()
	for i := 0; i < n && !g.Over(); i++ {
		seat := g.Turn()
		req := g.View(seat).Rank
		h := g.State().Hands[seat]
		var lie engine.Card
		for _, c := range h {
			if c.Rank() != req {
				lie = c
				break
			}
		}
		if _, err := g.Play(now, seat, []engine.Card{lie}, 0, engine.NoRank); err != nil {
			t.Fatalf("play %d: %v", g.Plays()+1, err)
		}
		if g.Plays() >= engine.MaxPlays {
			return // the caller settles the last one
		}
		caller := (seat + 1) % g.Seats()
		for g.IsOut(caller) {
			caller = (caller + 1) % g.Seats()
		}
		if _, err := g.Call(now, caller, g.Plays()); err != nil {
			t.Fatalf("call %d: %v", g.Plays(), err)
		}
		now += sec(1)
		g.Tick(now)
	}
}

func TestR14_SafetyNet(t *testing.T) {
	// Two seats that only lie and always get caught never run out: the game
	// ends when its 500th play is settled, placed by cards left.
	netTable := func(t testing.TB) *engine.Game {
		return table(t, engine.Standard(), 0, "KS QS 5C", "KH QH")
	}
	rows(t, netTable, []row{
		// Up to play 499 the game goes on.
		{name: "499 plays", check: func(t *testing.T, s *script) {
			loop(t, s.g, 499)
			check(t, "plays", s.g.Plays(), 499)
			check(t, "over", s.g.Over(), false)
		}},
		// Play 500 is open to a call like any other…
		{name: "500th play open", check: func(t *testing.T, s *script) {
			loop(t, s.g, 500)
			check(t, "plays", s.g.Plays(), 500)
			check(t, "over", s.g.Over(), false)
			check(t, "phase", s.g.Phase(), engine.PhaseCall)
		}},
		// …and ends the game when settled: fewest cards wins.
		{name: "500th settled by the clock", check: func(t *testing.T, s *script) {
			loop(t, s.g, 500)
			s.do("tick 10000")
			s.must("stand")
			o := s.must("over")
			check(t, "over", s.g.Over(), true)
			// Seat 1 played the 500th card and kept it off its hand: 1 card
			// against seat 0's 3.
			check(t, "places", ints(s.g.Places()), "2 1")
			check(t, "winner", o.Seat, 1)
			check(t, "winner", s.g.Winner(), 1)
			check(t, "plays", s.g.Plays(), 500)
		}},
		{name: "500th settled by a call", check: func(t *testing.T, s *script) {
			loop(t, s.g, 500)
			ev, err := s.g.Call(s.g.Now(), 0, 500)
			if err != nil {
				t.Fatal(err)
			}
			s.events = ev
			s.must("take")
			s.must("over")
			// The lie went back to seat 1: 2 cards against 3.
			check(t, "places", ints(s.g.Places()), "2 1")
			check(t, "winner", s.g.Winner(), 1)
		}},
		{name: "500th settled by letting it go", check: func(t *testing.T, s *script) {
			loop(t, s.g, 500)
			if _, err := s.g.Pass(s.g.Now(), 0, 500); err != nil {
				t.Fatal(err)
			}
			check(t, "over", s.g.Over(), true)
		}},
		{name: "no 501st play", check: func(t *testing.T, s *script) {
			loop(t, s.g, 500)
			s.do("tick 10000", "0 play KS => game_over")
		}},
	})

	// With first place shared there is no winner.
	tie := table(t, engine.Standard(), 0, "KS QS", "KH QH")
	loop(t, tie, 500)
	if _, err := tie.Call(tie.Now(), 0, 500); err != nil {
		t.Fatal(err)
	}
	check(t, "tied places", ints(tie.Places()), "1 1")
	check(t, "no winner", tie.Winner(), -1)
	o := tie.View(0)
	if o.Winner != nil {
		t.Errorf("view winner %v, want null", *o.Winner)
	}
	j, _ := json.Marshal(o)
	if !strings.Contains(string(j), `"winner":null`) {
		t.Errorf("view json %s", j)
	}

	// With places (V8) the first out keeps the win; the rest are placed after it.
	placed := table(t, rules(t, "standard", "places", true), 0, "AS", "KH QH 5C", "KS QS")
	run(t, placed, "0 play AS", "tick 6")
	loop(t, placed, 499)
	check(t, "plays", placed.Plays(), 500)
	if _, err := placed.Call(placed.Now(), 2, 500); err != nil {
		t.Fatal(err)
	}
	check(t, "over with places", placed.Over(), true)
	check(t, "first out wins", placed.Winner(), 0)
	check(t, "places after it", ints(placed.Places()), "1 3 2")

	// Under V13 nobody may play over the 500th play's window.
	rapid := table(t, rules(t, "standard", "rapid", true), 0, "KS QS 5C", "KH QH")
	loop(t, rapid, 500)
	s := run(t, rapid, "@10000 1 play KH => not_your_turn", "@10000 0 play KS => not_your_turn")
	s.do("tick 20000")
	s.must("over")
}

func TestR15_View(t *testing.T) {
	s := run(t, std3(t), "@1 0 play AS KD")
	// Seat 1 during play 1's window.
	v := s.g.View(1)
	check(t, "seat", v.Seat, 1)
	check(t, "hand", str(v.Hand), "2C 2H 7D 8S 9C 10H")
	check(t, "hands", counts(v.Hands), "5 6 6")
	check(t, "pile", v.Pile, engine.Exact(2))
	check(t, "turn", v.Turn, 1)
	check(t, "rank", v.Rank, rank("2"))
	check(t, "no", v.No, 1)
	check(t, "now", v.Now, engine.Seconds(sec(1)))
	if v.Last == nil || v.Last.Seat != 0 || v.Last.Claim != 2 || v.Last.Rank != rank("A") || v.Last.No != 1 || v.Last.Cards != nil {
		t.Errorf("last %+v", v.Last)
	}
	if v.Window == nil || v.Window.Closes != engine.Seconds(sec(7)) {
		t.Errorf("window %+v", v.Window)
	}
	for seat, st := range v.Stats {
		if seat != 1 && st.Sneaks != -1 {
			t.Errorf("seat %d's sneaks shown to seat 1: %+v", seat, st)
		}
	}

	// The JSON shape of REFEREE.md "A view".
	var m map[string]any
	j, _ := json.Marshal(v)
	if err := json.Unmarshal(j, &m); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{
		"seat": "1", "phase": `"call"`, "turn": "1", "rank": `"2"`, "no": "1",
		"hand": `["2C","2H","7D","8S","9C","10H"]`, "hands": "[5,6,6]", "pile": "2",
		"window": `{"callers":[1,2],"closes":7,"no":1,"passed":[]}`, "now": "1",
		"winner": "null", "places": "null",
	} {
		got, _ := json.Marshal(m[k])
		if _, ok := m[k]; !ok || string(got) != want {
			t.Errorf("view %q = %s, want %s (in %s)", k, got, want, j)
		}
	}
	last := m["last"].(map[string]any)
	for k, want := range map[string]any{"seat": 0.0, "rank": "A", "claim": 2.0, "no": 1.0, "out": false} {
		if last[k] != want {
			t.Errorf("last %q = %v, want %v", k, last[k], want)
		}
	}
	if _, ok := last["cards"]; ok {
		t.Errorf("last.cards shown to another seat: %s", j)
	}
	// The player sees its own play's cards.
	j0, _ := json.Marshal(s.g.View(0))
	if !strings.Contains(string(j0), `"cards":["AS","KD"]`) {
		t.Errorf("player's view lacks its cards: %s", j0)
	}
	// A spectator sees no hand at all.
	sp := s.g.View(-1)
	check(t, "spectator hand", len(sp.Hand), 0)
	if sp.Last.Cards != nil {
		t.Errorf("spectator sees the play")
	}
	// Before any play there is no last play and no window.
	v0 := std3(t).View(2)
	if v0.Last != nil || v0.Window != nil || v0.No != 0 {
		t.Errorf("fresh view %+v", v0)
	}
	// Once called, everyone sees the cards turned up.
	s.do("2 call 1")
	for seat := -1; seat < 3; seat++ {
		if v := s.g.View(seat); str(v.Last.Cards) != "AS KD" {
			t.Errorf("seat %d after the call sees %v", seat, v.Last.Cards)
		}
	}
	// Events go to those who may see them.
	for _, e := range s.all {
		switch e.Type {
		case "mine":
			check(t, "mine audience", reflect.DeepEqual(e.To, []int{0}), true)
		case "play", "call", "reveal", "take":
			check(t, e.Type+" public", e.Public(), true)
		}
		if e.VisibleTo(1) != (e.To == nil || slices.Contains(e.To, 1)) {
			t.Errorf("VisibleTo wrong for %+v", e)
		}
	}
	// When the game is over a view may show everything.
	over := run(t, table(t, engine.Standard(), 0, "AS", "2C 3C", "4C"), "0 play AS", "tick 6")
	fv := over.g.View(2)
	if fv.Final == nil || str(fv.Final.Hands[1]) != "2C 3C" {
		t.Errorf("final view %+v", fv.Final)
	}
}

func counts(cs []engine.Count) string {
	var b strings.Builder
	for i, c := range cs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(c.String())
	}
	return b.String()
}

func TestR17_Conserved(t *testing.T) {
	// Every card is conserved through plays, calls, pickups and the end.
	s := run(t, std3(t), "0 play AS AC", "1 call 1", "1 play 2C", "tick 6", "2 play KC KH", "0 call 3", "0 play KD", "tick 20")
	check(t, "conserved", s.g.Conserved(), true)
	// Cards out of the game count (V9, V15).
	q := run(t, table(t, rules(t, "standard", "quads", true), 0, "5C 5D 5H 5S AS", "2C"), "0 quads 5C 5D 5H 5S")
	check(t, "quads conserved", q.g.Conserved(), true)
	check(t, "gone", len(q.g.Gone()), 4)
	// Custom hands are what is conserved.
	g := table(t, engine.Standard(), 0, "AS", "2S", "KD")
	check(t, "custom", g.Conserved(), true)
	// The check can fail: a card lost is seen.
	g.Steal(2)
	check(t, "a stolen card", g.Conserved(), false)
}
