package engine_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/bullshit-game/bullshit/engine"
)

// The variants V1–V15 of ../shared/RULES.md, one test each.

// sequence drives n plays that all stand and lists the rank each had to claim.
func sequence(t *testing.T, r engine.Rules, n int) string {
	t.Helper()
	g, _ := dealt(t, r, 4, 11)
	var out []string
	for i := 0; i < n; i++ {
		s := g.Turn()
		rk := g.View(s).Rank
		out = append(out, rk.String())
		if _, err := g.Play(g.Now(), s, g.State().Hands[s][:1], 0, engine.NoRank); err != nil {
			t.Fatalf("play %d: %v", i+1, err)
		}
		g.Tick(g.Now() + r.Window)
	}
	return strings.Join(out, " ")
}

func TestV1_FreeCall(t *testing.T) {
	free := func(t testing.TB) *engine.Game {
		return table(t, rules(t, "free"), 0, "AS AC 2D", "2C 2H 7D", "3C 3D JD")
	}
	rows(t, free, []row{
		// Any rank may be claimed, the same twice, any order.
		{name: "any rank", script: []string{"0 play AS rank=K", "tick 6", "1 play 2C rank=K", "tick 12", "2 play 3C rank=5", "tick 18", "0 play AC rank=A"}},
		// The rank isn't tracked: the view has none to require.
		{name: "no required rank", check: func(t *testing.T, s *script) {
			v := s.g.View(0)
			check(t, "rank", v.Rank, engine.NoRank)
			j, _ := json.Marshal(v)
			if !strings.Contains(string(j), `"rank":null`) {
				t.Errorf("view %s", j)
			}
		}},
		// The claim must still name a rank.
		{name: "rank missing", script: []string{"0 play AS => bad_rank"}},
		{name: "not a rank", script: []string{"0 play AS rank=Z => bad_rank"}},
		// A call checks the rank claimed.
		{name: "true claim", script: []string{"0 play AS AC rank=A", "2 call 1"}, check: func(t *testing.T, s *script) {
			check(t, "truth", s.must("reveal").Truth, true)
		}},
		{name: "false claim", script: []string{"0 play AS AC rank=2", "2 call 1"}, check: func(t *testing.T, s *script) {
			check(t, "truth", s.must("reveal").Truth, false)
		}},
	})
}

func TestV2_Descending(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    engine.Rules
		want string
	}{
		// From the start rank downwards, then A again after 2.
		{"down from A", rules(t, "standard", "sequence", "down"), "A K Q J 10 9 8 7 6 5 4 3 2 A K"},
		{"down from 3", rules(t, "standard", "sequence", "down", "start", "3"), "3 2 A K Q"},
		// Up, for comparison (R5).
		{"up", engine.Standard(), "A 2 3 4 5 6 7 8 9 10 J Q K A 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			check(t, "sequence", sequence(t, tc.r, len(strings.Fields(tc.want))), tc.want)
		})
	}
}

func TestV3_StartRank(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    engine.Rules
		want string
	}{
		// Another starting rank, and the sequence goes on from it.
		{"start 7", rules(t, "standard", "start", "7"), "7 8 9 10 J Q K A 2"},
		{"start K", rules(t, "standard", "start", "K"), "K A 2"},
		{"start 10", rules(t, "standard", "start", "10"), "10 J Q"},
		{"start J down", rules(t, "standard", "start", "J", "sequence", "down"), "J 10 9"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			check(t, "sequence", sequence(t, tc.r, len(strings.Fields(tc.want))), tc.want)
		})
	}
	// The deal announces the starting rank.
	_, ev := dealt(t, rules(t, "standard", "start", "Q"), 3, 1)
	check(t, "deal rank", ev[0].Rank, rank("Q"))
	// Not a rank.
	r := engine.Standard()
	for _, bad := range []any{"1", "T", "Z", "", 7.0} {
		if err := r.Set("start", bad); engine.CodeOf(err) != engine.CodeBadCommand {
			t.Errorf("start %v: %v", bad, err)
		}
	}
}

func TestV4_NearCall(t *testing.T) {
	near := func(seq string) func(t testing.TB) *engine.Game {
		return func(t testing.TB) *engine.Game {
			return table(t, rules(t, "standard", "sequence", seq), 0, "AS AC 2D 9H", "2C 2H 7D 9S", "3C 3D JD 9C")
		}
	}
	rows(t, near("near"), []row{
		// The first play may claim any rank.
		{name: "first play any rank", script: []string{"0 play AS rank=9"}},
		{name: "first play needs a rank", script: []string{"0 play AS => bad_rank"}},
		// Then the previous rank, or one above or below, round the ends.
		{name: "same rank", script: []string{"0 play AS rank=9", "tick 6", "1 play 2C rank=9"}},
		{name: "one above", script: []string{"0 play AS rank=9", "tick 6", "1 play 2C rank=10"}},
		{name: "one below", script: []string{"0 play AS rank=9", "tick 6", "1 play 2C rank=8"}},
		{name: "two above", script: []string{"0 play AS rank=9", "tick 6", "1 play 2C rank=J => bad_rank"}},
		{name: "two below", script: []string{"0 play AS rank=9", "tick 6", "1 play 2C rank=7 => bad_rank"}},
		{name: "K then A", script: []string{"0 play AS rank=K", "tick 6", "1 play 2C rank=A"}},
		{name: "A then K", script: []string{"0 play AS rank=A", "tick 6", "1 play 2C rank=K"}},
		{name: "A then Q", script: []string{"0 play AS rank=A", "tick 6", "1 play 2C rank=Q => bad_rank"}},
		{name: "rank missing later", script: []string{"0 play AS rank=9", "tick 6", "1 play 2C => bad_rank"}},
		// A call doesn't reset it: the last claim is the previous rank.
		{name: "after a call", script: []string{"0 play AS rank=9", "1 call 1", "1 play 2C rank=10", "2 call 2", "2 play 3C rank=J"}},
		// The view lists the ranks allowed.
		{name: "view ranks", script: []string{"0 play AS rank=9", "tick 6"}, check: func(t *testing.T, s *script) {
			v := s.g.View(1)
			check(t, "ranks", rks(v.Ranks), "8 9 10")
			check(t, "rank", v.Rank, engine.NoRank)
			if v0 := table(t, rules(t, "standard", "sequence", "near"), 0, "AS", "2C").View(0); v0.Ranks != nil {
				t.Errorf("first play lists ranks %v", v0.Ranks)
			}
		}},
	})
	rows(t, near("near-strict"), []row{
		// Near-strict: one above or one below only.
		{name: "first play any rank", script: []string{"0 play AS rank=4"}},
		{name: "same rank refused", script: []string{"0 play AS rank=9", "tick 6", "1 play 2C rank=9 => bad_rank"}},
		{name: "one above", script: []string{"0 play AS rank=9", "tick 6", "1 play 2C rank=10"}},
		{name: "one below", script: []string{"0 play AS rank=9", "tick 6", "1 play 2C rank=8"}},
		{name: "Q after K after A", script: []string{"0 play AS rank=A", "tick 6", "1 play 2C rank=K", "tick 12", "2 play 3C rank=Q"}},
		{name: "view ranks", script: []string{"0 play AS rank=K", "tick 6"}, check: func(t *testing.T, s *script) {
			check(t, "ranks", rks(s.g.View(1).Ranks), "Q A")
		}},
	})
}

func rks(rs []engine.Rank) string {
	var out []string
	for _, r := range rs {
		out = append(out, r.String())
	}
	return strings.Join(out, " ")
}

func TestV5_Cap(t *testing.T) {
	capped := func(c any) func(t testing.TB) *engine.Game {
		return func(t testing.TB) *engine.Game {
			return table(t, rules(t, "standard", "cap", c), 0, "AS AC AD AH 2S 2C 2D", "3C", "4C")
		}
	}
	rows(t, capped(6), []row{
		// A cap other than 4.
		{name: "six under cap 6", script: []string{"0 play AS AC AD AH 2S 2C"}},
		{name: "seven under cap 6", script: []string{"0 play AS AC AD AH 2S 2C 2D => bad_count"}},
	})
	rows(t, capped(1), []row{
		{name: "one under cap 1", script: []string{"0 play AS"}},
		{name: "two under cap 1", script: []string{"0 play AS AC => bad_count"}},
	})
	// The cap as the table reports it: 4, the key, or 4 per deck for the twist.
	for _, tc := range []struct {
		r     engine.Rules
		seats int
		want  int
	}{
		{engine.Standard(), 4, 4},
		{engine.Standard(), 8, 4},
		{rules(t, "standard", "cap", 8), 8, 8},
		{rules(t, "twist"), 4, 4},
		{rules(t, "twist"), 7, 8},
		{rules(t, "twist", "decks", 3), 3, 12},
	} {
		g, _ := dealt(t, tc.r, tc.seats, 1)
		check(t, tc.r.Preset+" cap", g.Cap(), tc.want)
		check(t, "view cap", g.View(0).Cap, tc.want)
	}
	for _, bad := range []any{33.0, -1.0, 2.5, "many"} {
		r := engine.Standard()
		if err := r.Set("cap", bad); engine.CodeOf(err) != engine.CodeBadCommand {
			t.Errorf("cap %v: %v", bad, err)
		}
	}
}

func TestV6_CounterClockwise(t *testing.T) {
	ccw := func(t testing.TB) *engine.Game {
		return table(t, rules(t, "standard", "direction", "ccw"), 0, "AS AC", "2C 2D", "3C 3D", "4C 4D")
	}
	rows(t, ccw, []row{
		// Turn order runs n-1, n-2, …
		{name: "turn order", script: []string{"0 play AS", "tick 6", "3 play 4C", "tick 12", "2 play 3C", "tick 18", "1 play 2C", "tick 24"}, check: turnIs(0)},
		{name: "clockwise seat refused", script: []string{"0 play AS", "tick 6", "1 play 2C => not_your_turn"}},
		// R11 holds the other way round: the seat after the player.
		{name: "after a call", script: []string{"0 play AS", "1 call 1"}, check: turnIs(3)},
	})
	// The dealer's left is the seat before it in numbers (R4).
	for seed := uint64(0); seed < 20; seed++ {
		g, _ := dealt(t, rules(t, "standard", "direction", "ccw"), 6, seed)
		check(t, "first", g.Turn(), (g.Dealer()+5)%6)
	}
}

func TestV7_Jokers(t *testing.T) {
	// Two jokers per deck.
	for _, tc := range []struct{ seats, total int }{{4, 54}, {8, 108}} {
		g, _ := dealt(t, rules(t, "standard", "jokers", 2), tc.seats, 3)
		st := g.State()
		n := 0
		for _, h := range st.Hands {
			for _, c := range h {
				if c == engine.Joker {
					n++
				}
			}
		}
		check(t, "total", st.Total, tc.total)
		check(t, "jokers", n, tc.total-52*(tc.total/54))
	}
	jk := func(t testing.TB) *engine.Game {
		return table(t, rules(t, "standard", "jokers", 2), 0, "AS JK JK 5C", "2C 2D", "3C")
	}
	rows(t, jk, []row{
		// A joker matches any claimed rank: it never gets a bluff caught.
		{name: "joker as an ace", script: []string{"0 play AS JK", "1 call 1"}, check: func(t *testing.T, s *script) {
			check(t, "truth", s.must("reveal").Truth, true)
			check(t, "taker", s.must("take").Seat, 1)
		}},
		{name: "jokers alone", script: []string{"0 play JK JK", "2 call 1"}, check: func(t *testing.T, s *script) {
			check(t, "truth", s.must("reveal").Truth, true)
		}},
		{name: "a joker doesn't cover another card", script: []string{"0 play JK 5C", "2 call 1"}, check: func(t *testing.T, s *script) {
			check(t, "truth", s.must("reveal").Truth, false)
		}},
	})
	// Jokers in custom hands: only where the table plays them, 2 per deck.
	for _, tc := range []struct {
		name  string
		r     engine.Rules
		hands []string
		code  engine.Code
	}{
		{"no jokers at this table", engine.Standard(), []string{"JK", "AS"}, engine.CodeBadCard},
		{"two jokers", rules(t, "standard", "jokers", 2), []string{"JK", "JK"}, ""},
		{"three jokers, one deck", rules(t, "standard", "jokers", 2), []string{"JK JK", "JK"}, engine.CodeBadCard},
	} {
		hs := [][]engine.Card{cards(tc.hands[0]), cards(tc.hands[1])}
		_, _, err := engine.New(engine.Config{Rules: tc.r, Seats: 2, Hands: hs})
		check(t, tc.name, engine.CodeOf(err), tc.code)
	}
	r := engine.Standard()
	if err := r.Set("jokers", 1.0); engine.CodeOf(err) != engine.CodeBadCommand {
		t.Errorf("jokers 1: %v", err)
	}
}

func TestV8_Places(t *testing.T) {
	places := func(t testing.TB) *engine.Game {
		return table(t, rules(t, "standard", "places", true), 0, "AS", "2C", "3C KD", "4C KH KS")
	}
	first := []string{"0 play AS", "tick 6"}
	second := append(first, "1 play 2C", "2 pass 2", "3 pass 2")
	rows(t, places, []row{
		// After the first winner, play goes on among those holding cards.
		{name: "first out", script: first, check: func(t *testing.T, s *script) {
			check(t, "win", s.must("win").Seat, 0)
			o := s.must("out")
			check(t, "out", o.Seat, 0)
			check(t, "place", o.Place, 1)
			check(t, "over", s.g.Over(), false)
			check(t, "winner", s.g.Winner(), 0)
			check(t, "turn", s.g.Turn(), 1)
			v := s.g.View(2)
			if v.Winner == nil || *v.Winner != 0 || ints(v.Placed) != "1 0 0 0" {
				t.Errorf("view winner %v placed %v", v.Winner, v.Placed)
			}
		}},
		// Seats that are out neither call nor count among those who must let go.
		{name: "out seat can't call", script: append(first, "1 play 2C", "0 call 2 => not_allowed", "0 pass 2 => not_allowed")},
		{name: "out seat isn't waited for", script: second, check: func(t *testing.T, s *script) {
			s.must("stand")
			check(t, "second out", s.must("out").Place, 2)
			s.mustNot("win")
		}},
		{name: "window callers", script: append(first, "1 play 2C"), check: func(t *testing.T, s *script) {
			check(t, "callers", ints(s.g.View(1).Window.Callers), "2 3")
		}},
		{name: "out seat can't play", script: append(first, "0 play KD => not_your_turn")},
		// Turns skip anyone out.
		{name: "turns skip the out", script: append(second, "2 play 3C", "tick 20", "3 play 4C", "tick 40"), check: turnIs(2)},
		// Until one is left: the loser.
		{name: "one left", script: append(second, "2 play 3C", "tick 20", "3 play 4C", "tick 40", "2 play KD", "tick 60"), check: func(t *testing.T, s *script) {
			check(t, "over", s.g.Over(), true)
			check(t, "places", ints(s.g.Places()), "1 2 3 4")
			check(t, "winner", s.g.Winner(), 0)
			check(t, "over event winner", s.must("over").Seat, 0)
		}},
		// A caught last play keeps a seat in, as R12.
		{name: "caught out play", script: append(first, "1 play 2C", "tick 12", "2 play 3C KD", "3 call 3"), check: func(t *testing.T, s *script) {
			s.mustNot("out")
			check(t, "hand", s.g.HandSize(2), 4) // 2C 3C KD and nothing else was on the pile
		}},
	})
	// Without V8 the first winner ends it (R13).
	g := table(t, engine.Standard(), 0, "AS", "2C", "3C KD", "4C KH KS")
	run(t, g, "0 play AS", "tick 6")
	check(t, "standard over", g.Over(), true)
}

func TestV9_Quads(t *testing.T) {
	quads := func(t testing.TB) *engine.Game {
		return table(t, rules(t, "standard", "quads", true), 0, "5C 5D 5H 5S AS", "2C 2D 6C 6D 6H 6S", "3C")
	}
	lay := "0 quads 5C 5D 5H 5S"
	rows(t, quads, []row{
		// On its turn, before its play, a true four of a kind leaves the game face up.
		{name: "lay four", script: []string{lay}, check: func(t *testing.T, s *script) {
			e := s.must("quads")
			check(t, "public", e.Public(), true)
			check(t, "cards", str(e.Cards), "5C 5D 5H 5S")
			check(t, "rank", e.Rank, rank("5"))
			check(t, "hand", hand(s.g, 0), "AS")
			check(t, "gone", len(s.g.Gone()), 4)
			check(t, "conserved", s.g.Conserved(), true)
			v := s.g.View(2)
			check(t, "view gone", v.Gone, 4)
			check(t, "view seen", str(v.Seen), "5C 5D 5H 5S")
			// Still its turn: the play follows.
			check(t, "turn", s.g.Turn(), 0)
			check(t, "phase", s.g.Phase(), engine.PhasePlay)
			s.do("0 play AS")
		}},
		{name: "lay four on a later turn", script: []string{"0 play AS", "tick 6", "1 quads 6C 6D 6H 6S", "1 play 2C"}},
		// Only a true four, only one's own, only on one's turn.
		{name: "three cards", script: []string{"0 quads 5C 5D 5H => bad_count"}},
		{name: "five cards", script: []string{"0 quads 5C 5D 5H 5S AS => bad_count"}},
		{name: "mixed ranks", script: []string{"0 quads 5C 5D 5H AS => bad_rank"}},
		{name: "not held", script: []string{"0 quads 6C 6D 6H 6S => not_in_hand"}},
		{name: "same card four times", script: []string{"0 quads 5C 5C 5C 5C => not_in_hand"}},
		{name: "not its turn", script: []string{"1 quads 6C 6D 6H 6S => not_your_turn"}},
		{name: "after its play, in the window", script: []string{"0 play AS", "0 quads 5C 5D 5H 5S => not_your_turn"}},
		{name: "next seat in the window", script: []string{"0 play AS", "1 quads 6C 6D 6H 6S => not_your_turn"}},
	})
	// It can't empty a hand.
	run(t, table(t, rules(t, "standard", "quads", true), 0, "5C 5D 5H 5S", "2C"), "0 quads 5C 5D 5H 5S => not_allowed")
	// Off at this table.
	run(t, table(t, engine.Standard(), 0, "5C 5D 5H 5S AS", "2C"), "0 quads 5C 5D 5H 5S => not_allowed")
}

// noFirst deals custom hands and lets the rules pick the first seat.
func noFirst(t testing.TB, r engine.Rules, seed uint64, hands ...string) *engine.Game {
	t.Helper()
	hs := make([][]engine.Card, len(hands))
	for i, h := range hands {
		hs[i] = cards(h)
	}
	g, _, err := engine.New(engine.Config{Rules: r, Seats: len(hands), Seed: seed, Hands: hs})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestV10_FirstByCard(t *testing.T) {
	holderAS := rules(t, "standard", "first", "holder:AS")
	for seed := uint64(0); seed < 12; seed++ {
		// The seat holding the card plays first.
		g := noFirst(t, holderAS, seed, "2C", "3C", "AS", "4C")
		check(t, "holder first", g.Turn(), 2)
		check(t, "rank", g.View(0).Rank, rank("A"))
		// The cheat preset is A♠ (seed 001).
		g = noFirst(t, rules(t, "cheat"), seed, "2C", "AS", "3C")
		check(t, "cheat holder", g.Turn(), 1)
		// 2♣ or A♣ (seed 003).
		g = noFirst(t, rules(t, "standard", "first", "holder:2C"), seed, "AC", "3C", "2C")
		check(t, "holder 2C", g.Turn(), 2)
		// Nobody holds it: the dealer's left.
		g = noFirst(t, holderAS, seed, "2C", "3C", "4C")
		check(t, "nobody holds it", g.Turn(), (g.Dealer()+1)%3)
		// Two decks: the first holder in deal order, from the dealer's left.
		g = noFirst(t, holderAS, seed, "AS", "2C", "3C", "4C", "AS", "5C", "6C")
		want := 0
		if d := g.Dealer(); d >= 0 && d < 4 {
			want = 4 // seats 0 … dealer come after seat 4 counting from the dealer's left
		}
		check(t, "two decks dealer "+itoa(g.Dealer()), g.Turn(), want)
		// Config.First overrides the rule.
		h := [][]engine.Card{cards("2C"), cards("AS")}
		g, _, _ = engine.New(engine.Config{Rules: holderAS, Seats: 2, Seed: seed, Hands: h, First: ptr(0)})
		check(t, "chosen first", g.Turn(), 0)
	}
	// In a real deal the holder of A♠ plays first.
	for seed := uint64(0); seed < 30; seed++ {
		g, ev := dealt(t, holderAS, 5, seed)
		as := cards("AS")[0]
		if !contains(g.State().Hands[g.Turn()], as) {
			t.Errorf("seed %d: first seat %d doesn't hold AS", seed, g.Turn())
		}
		check(t, "deal event first", ev[0].Target, g.Turn())
	}
	// Random: a random first seat and starting rank; the deal starts with it.
	seats, ranks := map[int]bool{}, map[engine.Rank]bool{}
	for seed := uint64(0); seed < 60; seed++ {
		g, ev := dealt(t, rules(t, "standard", "first", "random"), 5, seed)
		f := g.Turn()
		seats[f], ranks[g.View(0).Rank] = true, true
		check(t, "random first gets the odd cards", g.HandSize(f), 11)
		check(t, "random first gets the odd cards", g.HandSize((f+1)%5), 11)
		check(t, "deal rank", ev[0].Rank, g.View(0).Rank)
	}
	if len(seats) < 4 || len(ranks) < 6 {
		t.Errorf("random first isn't random: seats %v ranks %v", seats, ranks)
	}
	for _, bad := range []string{"holder:XX", "holder:", "left", "holder:1S"} {
		r := engine.Standard()
		if err := r.Set("first", bad); engine.CodeOf(err) != engine.CodeBadCommand {
			t.Errorf("first %q: %v", bad, err)
		}
	}
}

func contains(cs []engine.Card, c engine.Card) bool {
	for _, x := range cs {
		if x == c {
			return true
		}
	}
	return false
}

func TestV11_NextOnly(t *testing.T) {
	next := func(t testing.TB) *engine.Game {
		return table(t, rules(t, "standard", "callers", "next"), 0, "AS AC", "2C 2D", "3C 3D")
	}
	rows(t, next, []row{
		// Only the seat about to play may call or let go.
		{name: "next calls", script: []string{"0 play AS", "1 call 1"}, check: func(t *testing.T, s *script) { s.must("reveal") }},
		{name: "other seat calls", script: []string{"0 play AS", "2 call 1 => not_allowed"}},
		{name: "other seat lets go", script: []string{"0 play AS", "2 pass 1 => not_allowed"}},
		{name: "callers", script: []string{"0 play AS"}, check: func(t *testing.T, s *script) {
			check(t, "callers", ints(s.g.View(2).Window.Callers), "1")
		}},
		// Its let-go closes the window.
		{name: "next lets go", script: []string{"0 play AS", "1 pass 1"}, check: func(t *testing.T, s *script) {
			s.must("stand")
			check(t, "phase", s.g.Phase(), engine.PhasePlay)
		}},
		// The clock still closes it; own play and settled plays come first.
		{name: "time out", script: []string{"0 play AS", "tick 6"}, check: func(t *testing.T, s *script) { s.must("stand") }},
		{name: "own play first", script: []string{"0 play AS", "0 call 1 => own_play"}},
		{name: "too late first", script: []string{"0 play AS", "tick 6", "2 call 1 => too_late"}},
	})
}

func TestV12_CountLies(t *testing.T) {
	lies := func(t testing.TB) *engine.Game {
		return table(t, rules(t, "standard", "count_lies", true), 0, "AS AC AD 2D 3H 4S", "2C 2H", "3C 3D")
	}
	rows(t, lies, []row{
		// The claimed count may differ from the cards placed; both 1 to the cap.
		{name: "claim more", script: []string{"0 play AS AC claim=3"}, check: func(t *testing.T, s *script) {
			e := s.must("play")
			check(t, "claim", e.Claim, 3)
			check(t, "hand", s.g.HandSize(0), 4)
			check(t, "pile", s.g.PileSize(), 2)
		}},
		{name: "claim fewer", script: []string{"0 play AS AC AD claim=1"}},
		{name: "claim the cap", script: []string{"0 play AS claim=4"}},
		{name: "claim over the cap", script: []string{"0 play AS claim=5 => bad_count"}},
		{name: "cards over the cap", script: []string{"0 play AS AC AD 2D 3H claim=2 => bad_count"}},
		{name: "claim zero", script: []string{"0 play AS claim=-1 => bad_count"}},
		// A wrong count is a lie even if every card is the rank.
		{name: "right rank, wrong count", script: []string{"0 play AS AC claim=3", "1 call 1"}, check: func(t *testing.T, s *script) {
			check(t, "truth", s.must("reveal").Truth, false)
			check(t, "taker", s.must("take").Seat, 0)
		}},
		{name: "right rank, fewer claimed", script: []string{"0 play AS AC AD claim=2", "1 call 1"}, check: func(t *testing.T, s *script) {
			check(t, "truth", s.must("reveal").Truth, false)
		}},
		// More cards than claimed is a count lie, not a sneak (V14): no
		// hand-over, and no sneak in the tallies.
		{name: "extra cards aren't a sneak", script: []string{"0 play AS AC 2D claim=1", "1 call 1"}, check: func(t *testing.T, s *script) {
			r := s.must("reveal")
			check(t, "truth", r.Truth, false)
			check(t, "sneaked", r.Sneaked, 0)
			check(t, "phase", s.g.Phase(), engine.PhasePlay)
			check(t, "turn", s.g.Turn(), 1)
			check(t, "sneaks", s.g.Stats()[0].Sneaks, 0)
			check(t, "caught", s.g.Stats()[0].Caught, 0)
			s.mustNot("give")
		}},
		{name: "right rank, right count", script: []string{"0 play AS AC claim=2", "1 call 1"}, check: func(t *testing.T, s *script) {
			check(t, "truth", s.must("reveal").Truth, true)
		}},
	})
	// The cheat preset plays count lies.
	run(t, table(t, rules(t, "cheat"), 0, "AS AC", "2C"), "0 play AS claim=3")
}

func TestV13_Rapid(t *testing.T) {
	rapid := func(t testing.TB) *engine.Game {
		return table(t, rules(t, "standard", "rapid", true), 0, "AS AC", "2C 2D", "3C 3D")
	}
	rows(t, rapid, []row{
		// The next seat may play during the window, which closes it: the play stands.
		{name: "play over the window", script: []string{"@1 0 play AS", "@2 1 play 2C"}, check: func(t *testing.T, s *script) {
			check(t, "first event", s.events[0].Type, "stand")
			check(t, "stood", s.events[0].No, 1)
			check(t, "then the play", s.events[1].Type, "play")
			v := s.g.View(2)
			check(t, "window no", v.Window.No, 2)
			check(t, "closes", v.Window.Closes, engine.Seconds(sec(8)))
			check(t, "rank of the next", v.Rank, rank("3"))
		}},
		{name: "the earlier play can't be called", script: []string{"0 play AS", "1 play 2C", "2 call 1 => too_late", "2 call 2"}},
		// Only the next seat.
		{name: "another seat", script: []string{"0 play AS", "2 play 3C => not_your_turn"}},
		{name: "the player again", script: []string{"0 play AS", "0 play AC => not_your_turn"}},
		// The play must be valid: a refused one leaves the window open.
		{name: "refused rapid play", script: []string{"0 play AS", "1 play 3C => not_in_hand", "2 call 1"}},
	})
	// A play that empties a hand gets its whole window.
	out := table(t, rules(t, "standard", "rapid", true), 0, "AS", "2C 2D", "3C 3D")
	run(t, out, "0 play AS", "1 play 2C => not_your_turn", "@5.9 1 play 2C => not_your_turn", "tick 6").must("win")
	// Off: no play over a window (R8).
	run(t, table(t, engine.Standard(), 0, "AS AC", "2C", "3C"), "0 play AS", "1 play 2C => not_your_turn")
}

// twist3 is the twist at three seats: seat 0 holds 11, the others 8.
func twist3(t testing.TB) *engine.Game {
	return table(t, rules(t, "twist"), 0,
		"AS AC 2D 3H 4S 5C 6C 7C 8C 9C 10C",
		"2C 2H 7D 8S 9D 10H JH QH",
		"3C 3D JD QS KC KH 5D 6D")
}

func TestV14_Sneak(t *testing.T) {
	sneak := []string{"0 play AS AC 2D claim=2"}
	caught := append(sneak, "1 call 1")
	rows(t, twist3, []row{
		// Up to S extra cards under the claim, unclaimed.
		{name: "sneak one", script: sneak, check: func(t *testing.T, s *script) {
			e := s.must("play")
			check(t, "claim", e.Claim, 2)
			check(t, "sneaked", s.g.Sneaked(), 1)
			check(t, "pile", s.g.PileSize(), 3)
		}},
		{name: "sneak two", script: []string{"0 play AS AC 2D 3H claim=2"}},
		{name: "sneak three", script: []string{"0 play AS AC 2D 3H 4S claim=2 => bad_count"}},
		{name: "claim more than placed", script: []string{"0 play AS claim=2 => bad_count"}},
		{name: "claim over the cap", script: []string{"0 play AS AC 2D 3H 4S claim=5 => bad_count"}},
		{name: "claim the cap and sneak two", script: []string{"0 play AS AC 2D 3H 4S 5C claim=4"}},
		// Any sneak makes the play a lie when called, however true the claim.
		{name: "caught", script: caught, check: func(t *testing.T, s *script) {
			r := s.must("reveal")
			check(t, "truth", r.Truth, false)
			check(t, "sneaked", r.Sneaked, 1)
			check(t, "revealed", str(r.Cards), "AS AC 2D")
			check(t, "taker", s.must("take").Seat, 0)
			// The caller hands the sneaker a card: the give phase.
			check(t, "phase", s.g.Phase(), engine.PhaseGive)
			v := s.g.View(2)
			if v.Give == nil || v.Give.From != 1 || v.Give.To != 0 || v.Give.Count != 1 || v.Give.Closes != engine.Seconds(sec(12)) {
				t.Errorf("give view %+v", v.Give)
			}
			d, _ := s.g.Deadline()
			check(t, "deadline", d, sec(12))
			st := s.g.Stats()
			check(t, "caught", st[0].Caught, 1)
			check(t, "lies", st[0].Lies, 1)
			check(t, "right", st[1].Right, 1)
		}},
		{name: "give a card", script: append(caught, "@3 1 give JH"), check: func(t *testing.T, s *script) {
			g := s.must("give")
			if !g.Public() || g.Seat != 1 || g.Target != 0 || g.Count != engine.Exact(1) || g.Auto || len(g.Cards) != 0 {
				t.Errorf("give event %+v", g)
			}
			h := s.must("handed")
			if !reflect.DeepEqual(h.To, []int{1, 0}) || str(h.Cards) != "JH" {
				t.Errorf("handed event %+v", h)
			}
			check(t, "sneaker's hand", s.g.HandSize(0), 8+3+1)
			check(t, "caller's hand", hand(s.g, 1), "2C 2H 7D 8S 9D 10H QH")
			check(t, "phase", s.g.Phase(), engine.PhasePlay)
			check(t, "turn", s.g.Turn(), 1)
			check(t, "rank", s.g.View(1).Rank, rank("2"))
		}},
		// The hand-over is the caller's, one card, from its hand, in 12 seconds.
		{name: "another seat gives", script: append(caught, "2 give 3C => not_your_turn")},
		{name: "the sneaker gives", script: append(caught, "0 give AS => not_your_turn")},
		{name: "not held", script: append(caught, "1 give 3C => not_in_hand")},
		{name: "two cards", script: append(caught, "1 give 2C 2H => bad_count")},
		{name: "no card", script: append(caught, "1 give => bad_count")},
		{name: "too late", script: append(caught, "@12 1 give 2C => too_late")},
		{name: "just in time", script: append(caught, "@11.999 1 give 2C")},
		{name: "no give without a sneak", script: []string{"0 play AS", "1 call 1", "1 give 2C => not_your_turn"}},
		{name: "no play during the give", script: append(caught, "1 play 2C => not_your_turn")},
		{name: "no call during the give", script: append(caught, "2 call 1 => too_late")},
		// After 12 seconds the card whose rank the caller would be asked for
		// last goes: seat 1 is asked for 2, 5, 8, J, A, 4, 7, 10, K, 3, 6, 9, Q.
		{name: "auto give", script: append(caught, "tick 12"), check: func(t *testing.T, s *script) {
			g := s.must("give")
			check(t, "auto", g.Auto, true)
			check(t, "card", str(s.must("handed").Cards), "QH")
			check(t, "turn", s.g.Turn(), 1)
			check(t, "phase", s.g.Phase(), engine.PhasePlay)
		}},
		// A sneak that stands is never shown, and the sneak count is hidden.
		{name: "sneak stands", script: append(sneak, "tick 6"), check: func(t *testing.T, s *script) {
			check(t, "others see sneaks", s.g.View(1).Stats[0].Sneaks, -1)
			check(t, "own sneaks", s.g.View(0).Stats[0].Sneaks, 1)
			check(t, "host sees sneaks", s.g.Stats()[0].Sneaks, 1)
			if s.g.View(2).Last.Cards != nil {
				t.Error("sneaked play shown")
			}
		}},
		// A true claim with nothing sneaked is the truth.
		{name: "true without a sneak", script: []string{"0 play AS AC claim=2", "1 call 1"}, check: func(t *testing.T, s *script) {
			check(t, "truth", s.must("reveal").Truth, true)
			check(t, "phase", s.g.Phase(), engine.PhasePlay)
		}},
		// Rough counts: hands over 8 and piles over 3 show as ranges, the
		// viewer's own hand exact.
		{name: "rough counts", script: sneak, check: func(t *testing.T, s *script) {
			v := s.g.View(1)
			check(t, "hands seen by 1", counts(v.Hands), "8 8 8")
			v0 := table(t, rules(t, "twist"), 0, "AS AC 2D 3H 4S 5C 6C 7C 8C 9C 10C", "2C 2H 7D 8S 9D 10H JH QH KS", "3C").View(2)
			check(t, "hands seen by 2", counts(v0.Hands), "11–13 9–10 1")
			check(t, "own exact", counts(table(t, rules(t, "twist"), 0, "AS AC 2D 3H 4S 5C 6C 7C 8C 9C 10C", "2C", "3C").View(0).Hands), "11 1 1")
			e := s.must("play")
			check(t, "sizes", e.Sizes, engine.Sizes{HandBefore: engine.Count{Lo: 11, Hi: 13}, HandAfter: engine.Exact(8), PileBefore: engine.Exact(0), PileAfter: engine.Exact(3)})
			j, _ := json.Marshal(v0)
			if !strings.Contains(string(j), `"hands":[[11,13],[9,10],1]`) {
				t.Errorf("rough hands json %s", j)
			}
		}},
	})
	// A caller always keeps one card: holding one, it gives nothing.
	one := table(t, rules(t, "twist"), 0, "AS AC 2D 3H", "2C", "3C 3D")
	s := run(t, one, "0 play AS AC 2D claim=2", "1 call 1")
	s.mustNot("give")
	check(t, "phase", one.Phase(), engine.PhasePlay)
	check(t, "turn", one.Turn(), 1)
	// A sneak under a last play: caught, the sneaker plays on with the pile and a card.
	last := table(t, rules(t, "twist"), 0, "AS AC", "2C 2D", "3C 3D")
	run(t, last, "0 play AS AC claim=1", "2 call 1", "2 give 3D").must("handed")
	check(t, "sneaker's hand", last.HandSize(0), 3)
	check(t, "over", last.Over(), false)
	// The twist is played by 3 to 10 seats.
	_, _, err := engine.New(engine.Config{Rules: rules(t, "twist"), Seats: 2})
	check(t, "twist at 2", engine.CodeOf(err), engine.CodeBadCommand)
	// Sneaking off: no extra cards (R6).
	run(t, table(t, engine.Standard(), 0, "AS AC", "2C"), "0 play AS AC claim=1 => bad_count")
	// Sneaking with exact counts (sneak key alone).
	ex := run(t, table(t, rules(t, "standard", "sneak", 1), 0, "AS AC 2D 3H 4S 5C 6C 7C 8C 9C", "2C", "3C"), "0 play AS AC claim=1")
	check(t, "exact sizes", ex.must("play").Sizes.HandBefore, engine.Exact(10))
	check(t, "sneak 1 max", engine.CodeOf(func() error {
		_, err := table(t, rules(t, "standard", "sneak", 1), 0, "AS AC 2D", "2C").Play(0, 0, cards("AS AC 2D"), 1, engine.NoRank)
		return err
	}()), engine.CodeBadCount)
}

func TestV14_RoughCounts(t *testing.T) {
	// How a hand and a pile look across a table (seed 002): exact up to 8
	// and 3, then buckets that widen, the last open.
	for _, tc := range []struct {
		n    int
		pile bool
		want string
	}{
		{0, false, "0"}, {8, false, "8"}, {9, false, "9–10"}, {10, false, "9–10"}, {11, false, "11–13"},
		{13, false, "11–13"}, {14, false, "14–17"}, {22, false, "18–22"}, {29, false, "23–29"}, {30, false, "30+"}, {104, false, "30+"},
		{3, true, "3"}, {4, true, "4–6"}, {6, true, "4–6"}, {7, true, "7–10"}, {10, true, "7–10"}, {11, true, "11–15"},
		{31, true, "23–31"}, {32, true, "32+"}, {156, true, "32+"},
	} {
		check(t, "seen "+itoa(tc.n), engine.Seen(tc.n, tc.pile, true).String(), tc.want)
		check(t, "exact "+itoa(tc.n), engine.Seen(tc.n, tc.pile, false), engine.Exact(tc.n))
	}
	// Every size falls in exactly one bucket, and the buckets leave no gap.
	for _, pile := range []bool{false, true} {
		prev := engine.Seen(0, pile, true)
		for n := 1; n < 200; n++ {
			c := engine.Seen(n, pile, true)
			if !c.Has(n) {
				t.Fatalf("%d looks like %v", n, c)
			}
			if c != prev && c.Lo != n {
				t.Fatalf("bucket %v starts before %d", c, n)
			}
			prev = c
		}
	}
	// The JSON of a count: a number, or [lo, hi] with null for "or more".
	for _, tc := range []struct {
		c    engine.Count
		want string
	}{{engine.Exact(7), "7"}, {engine.Count{Lo: 9, Hi: 10}, "[9,10]"}, {engine.Count{Lo: 30, Hi: -1}, "[30,null]"}} {
		j, _ := json.Marshal(tc.c)
		check(t, "json", string(j), tc.want)
		var back engine.Count
		if err := json.Unmarshal(j, &back); err != nil || back != tc.c {
			t.Errorf("%s read back as %v (%v)", j, back, err)
		}
	}
	// Could a change have been the claim alone? (seed 002's worked play)
	for _, tc := range []struct {
		name          string
		before, after engine.Count
		delta         int
		pile          bool
		want          bool
	}{
		{"9–10 → 7 by two hides a sneak", engine.Count{Lo: 9, Hi: 10}, engine.Exact(7), -2, false, true},
		{"countable hand shows it", engine.Exact(8), engine.Exact(5), -2, false, false},
		{"clean countable play", engine.Exact(8), engine.Exact(6), -2, false, true},
		{"pile 4–6 → 7–10 by two", engine.Count{Lo: 4, Hi: 6}, engine.Count{Lo: 7, Hi: 10}, 2, true, true},
		{"pile 0 → 3 by two shows", engine.Exact(0), engine.Exact(3), 2, true, false},
		{"30+ stays 30+", engine.Count{Lo: 30, Hi: -1}, engine.Count{Lo: 30, Hi: -1}, -1, false, true},
	} {
		check(t, tc.name, engine.LooksClean(tc.before, tc.after, tc.delta, tc.pile, true), tc.want)
	}
}

// doubt3 is I Doubt It at three seats, seat 0 first.
func doubt3(t testing.TB) *engine.Game {
	return table(t, rules(t, "doubt"), 0, "AS AC 2D 3H", "2C 2H 7D 8S", "3C 3D JD QS")
}

func TestV15_Doubt(t *testing.T) {
	rows(t, doubt3, []row{
		// The round's starter names any rank and plays 1 to cap cards as it.
		{name: "starter names a rank", script: []string{"0 play AS AC rank=7"}, check: func(t *testing.T, s *script) {
			v := s.g.View(1)
			check(t, "phase", v.Phase, engine.PhasePlay)
			check(t, "turn", v.Turn, 1)
			check(t, "rank", v.Rank, rank("7"))
			if v.Round == nil || v.Round.Rank != rank("7") || v.Round.Starter != 0 || v.Round.Cards != engine.Exact(2) {
				t.Errorf("round %+v", v.Round)
			}
			if v.Window != nil {
				t.Errorf("a window in doubt mode")
			}
			_, ok := s.g.Deadline()
			check(t, "no deadline", ok, false)
		}},
		{name: "starter must name it", script: []string{"0 play AS => bad_rank"}, check: func(t *testing.T, s *script) {
			check(t, "rank null at the start", s.g.View(0).Rank, engine.NoRank)
		}},
		{name: "not in hand before over the cap", script: []string{"0 play AS AC 2D 3H 2C rank=A => not_in_hand"}},
		// Each next seat adds cards claimed as the same rank.
		{name: "add", script: []string{"0 play AS rank=A", "1 play 2C", "2 play 3C 3D rank=A"}, check: func(t *testing.T, s *script) {
			check(t, "turn", s.g.Turn(), 0)
			check(t, "pile", s.g.PileSize(), 4)
		}},
		{name: "add another rank", script: []string{"0 play AS rank=A", "1 play 2C rank=2 => bad_rank"}},
		{name: "add out of turn", script: []string{"0 play AS rank=A", "2 play 3C => not_your_turn"}},
		// No call window: only the seat whose turn it is acts.
		{name: "no call", script: []string{"0 play AS rank=A", "1 call 1 => not_allowed", "2 pass 1 => not_allowed"}},
		{name: "doubt out of turn", script: []string{"0 play AS rank=A", "2 doubt => not_your_turn"}},
		{name: "nothing to doubt", script: []string{"0 doubt => no_window", "0 believe => no_window", "0 skip => no_window"}},
		{name: "doubt names the play", script: []string{"0 play AS rank=A", "1 play 2C", "2 doubt 1 => too_late", "2 doubt 3 => no_window", "2 doubt 2"}},
		// Doubt a lie: its player takes every card of the round; the doubter starts.
		{name: "doubt a lie", script: []string{"0 play AS rank=A", "1 play 2C", "2 doubt"}, check: func(t *testing.T, s *script) {
			r := s.must("reveal")
			check(t, "truth", r.Truth, false)
			check(t, "shown", str(r.Cards), "2C")
			check(t, "taker", s.must("take").Seat, 1)
			check(t, "hand", hand(s.g, 1), "AS 2C 2H 7D 8S")
			check(t, "starter", s.must("round").Seat, 2)
			check(t, "turn", s.g.Turn(), 2)
			check(t, "rank", s.g.View(2).Rank, engine.NoRank)
		}},
		// Doubt the truth: the doubter takes them; the seat after it starts.
		{name: "doubt the truth", script: []string{"0 play AS AC rank=A", "1 doubt"}, check: func(t *testing.T, s *script) {
			check(t, "truth", s.must("reveal").Truth, true)
			check(t, "taker", s.must("take").Seat, 1)
			check(t, "starter", s.must("round").Seat, 2)
		}},
		// Believe the truth: the round's cards leave the game; the believer starts.
		{name: "believe a lie of many plays", script: []string{"0 play AS rank=A", "1 play 2C 2H rank=A", "2 play 3C", "0 believe"}, check: func(t *testing.T, s *script) {
			// 3C is no ace: a lie.
			check(t, "truth", s.must("reveal").Truth, false)
			check(t, "taker", s.must("take").Seat, 0)
			check(t, "starter", s.must("round").Seat, 1)
		}},
		{name: "believe a true play", script: []string{"0 play 2D rank=2", "1 play 2C 2H", "2 believe"}, check: func(t *testing.T, s *script) {
			check(t, "truth", s.must("reveal").Truth, true)
			l := s.must("leave")
			check(t, "left", l.Count, engine.Exact(3))
			check(t, "shown", str(l.Cards), "2C 2H")
			check(t, "gone", len(s.g.Gone()), 3)
			check(t, "pile", s.g.PileSize(), 0)
			check(t, "starter", s.must("round").Seat, 2)
			check(t, "seen", str(s.g.View(0).Seen), "2C 2H")
			check(t, "conserved", s.g.Conserved(), true)
		}},
		// Believe a lie: the believer takes them; the seat after it starts.
		{name: "believe a lie", script: []string{"0 play 3H rank=9", "1 believe"}, check: func(t *testing.T, s *script) {
			check(t, "taker", s.must("take").Seat, 1)
			check(t, "starter", s.must("round").Seat, 2)
		}},
		// Skips: when every other seat has skipped in a row, the round's cards
		// leave face down and the last seat to play starts.
		{name: "all skip", script: []string{"0 play AS rank=A", "1 skip", "2 skip"}, check: func(t *testing.T, s *script) {
			l := s.must("leave")
			check(t, "face down", len(l.Cards), 0)
			check(t, "starter", s.must("round").Seat, 0)
			check(t, "gone", len(s.g.Gone()), 1)
			check(t, "seen", len(s.g.View(1).Seen), 0)
		}},
		{name: "one skip", script: []string{"0 play AS rank=A", "1 skip"}, check: func(t *testing.T, s *script) {
			s.mustNot("leave")
			check(t, "turn", s.g.Turn(), 2)
			check(t, "skips", s.g.View(2).Round.Skips, 1)
		}},
		{name: "a play resets the skips", script: []string{"0 play AS rank=A", "1 skip", "2 play 3C", "0 skip"}, check: func(t *testing.T, s *script) {
			s.mustNot("leave")
			check(t, "turn", s.g.Turn(), 1)
		}},
		{name: "skips after a later play", script: []string{"0 play AS rank=A", "1 skip", "2 play 3C", "0 skip", "1 skip"}, check: func(t *testing.T, s *script) {
			s.must("leave")
			check(t, "starter", s.must("round").Seat, 2)
		}},
		{name: "the last player can't skip its own play", script: []string{"0 play AS rank=A", "1 skip", "2 skip", "0 skip => no_window"}},
	})

	// Going out: a seat that plays its last cards is out once the next seat
	// does anything but doubt them successfully.
	out := func(t testing.TB) *engine.Game {
		return table(t, rules(t, "doubt"), 0, "AS", "2C 2H 7D", "3C 3D JD")
	}
	rows(t, out, []row{
		{name: "not out yet", script: []string{"0 play AS rank=A"}, check: func(t *testing.T, s *script) {
			check(t, "out flag", s.must("play").Out, true)
			check(t, "winner", s.g.Winner(), -1)
			check(t, "over", s.g.Over(), false)
		}},
		{name: "next seat adds", script: []string{"0 play AS rank=A", "1 play 2C"}, check: func(t *testing.T, s *script) {
			check(t, "winner", s.must("win").Seat, 0)
			check(t, "over", s.g.Over(), true)
			// The add was made before the winner was out: 2 cards left.
			check(t, "places", ints(s.g.Places()), "1 2 3")
			check(t, "conserved", s.g.Conserved(), true)
		}},
		{name: "next seat skips", script: []string{"0 play AS rank=A", "1 skip"}, check: wins(0)},
		{name: "next seat believes", script: []string{"0 play AS rank=A", "1 believe"}, check: wins(0)},
		{name: "next seat doubts the truth", script: []string{"0 play AS rank=A", "1 doubt"}, check: wins(0)},
	})
	liar := func(t testing.TB) *engine.Game {
		return table(t, rules(t, "doubt"), 0, "KS", "2C 2H 7D", "3C 3D JD")
	}
	rows(t, liar, []row{
		{name: "doubted successfully: back in", script: []string{"0 play KS rank=A", "1 doubt"}, check: func(t *testing.T, s *script) {
			s.mustNot("win")
			check(t, "hand", hand(s.g, 0), "KS")
			check(t, "starter", s.must("round").Seat, 1)
		}},
		{name: "believed lie: out", script: []string{"0 play KS rank=A", "1 believe"}, check: wins(0)},
	})

	// With places (V8) the game goes on; the out seat is skipped.
	placed := func(t testing.TB) *engine.Game {
		return table(t, rules(t, "doubt", "places", true), 0, "AS", "2C 2H 7D", "3C 3D JD", "4C 4D")
	}
	rows(t, placed, []row{
		{name: "out then skips", script: []string{"0 play AS rank=A", "1 skip"}, check: func(t *testing.T, s *script) {
			check(t, "out", s.must("out").Place, 1)
			check(t, "turn", s.g.Turn(), 2)
		}},
		{name: "skips after an out end the round", script: []string{"0 play AS rank=A", "1 skip", "2 skip", "3 skip"}, check: func(t *testing.T, s *script) {
			s.must("leave")
			check(t, "starter", s.must("round").Seat, 1)
		}},
		// Once out, its last play is settled: later seats add or skip.
		{name: "the out seat's play can't be doubted", script: []string{"0 play AS rank=A", "1 skip", "2 doubt => too_late", "2 believe => too_late", "2 skip"}},
		{name: "an add after the out seat's play", script: []string{"0 play AS rank=A", "1 skip", "2 play 3C", "3 doubt"}, check: func(t *testing.T, s *script) {
			check(t, "taker", s.must("take").Seat, 2)
			check(t, "out seat's hand", s.g.HandSize(0), 0)
		}},
		{name: "the out seat doesn't act", script: []string{"0 play AS rank=A", "1 skip", "0 skip => not_your_turn", "0 play 2C => not_your_turn"}},
		{name: "two seats left", script: []string{"0 play AS rank=A", "1 play 2C 2H 7D", "2 skip", "3 skip"}, check: func(t *testing.T, s *script) {
			// Seat 1 went out when 2 skipped; 3 skipping ends the round.
			check(t, "places", ints(s.g.View(2).Placed), "1 2 0 0")
			s.must("leave")
			check(t, "starter", s.must("round").Seat, 2)
		}},
		{name: "last one left", script: []string{"0 play AS rank=A", "1 play 2C 2H 7D", "2 skip", "3 skip", "2 play 3C 3D JD rank=3", "3 believe"}, check: func(t *testing.T, s *script) {
			check(t, "over", s.g.Over(), true)
			check(t, "places", ints(s.g.Places()), "1 2 3 4")
		}},
	})

	// Moves of one mode are not allowed in the other.
	run(t, std3(t), "0 play AS", "1 doubt => not_allowed", "1 believe => not_allowed", "tick 6", "1 skip => not_allowed")
	// Sneaking isn't played in doubt mode.
	r := rules(t, "doubt", "sneak", 1)
	_, _, err := engine.New(engine.Config{Rules: r, Seats: 3})
	check(t, "doubt with sneak", engine.CodeOf(err), engine.CodeBadCommand)

	// The safety net (R14): the round in which play 500 falls ends the game.
	g := table(t, rules(t, "doubt"), 0, "KS QS", "KH QH")
	for g.Plays() < engine.MaxPlays {
		seat := g.Turn()
		h := g.State().Hands[seat]
		if _, err := g.Play(0, seat, h[:1], 0, h[1].Rank()); err != nil {
			t.Fatalf("play %d: %v", g.Plays()+1, err)
		}
		if g.Plays() == engine.MaxPlays {
			break
		}
		if _, err := g.Apply(0, engine.Command{Move: engine.MoveDoubt, Seat: 1 - seat}); err != nil {
			t.Fatal(err)
		}
	}
	check(t, "not over at 500", g.Over(), false)
	// Nobody adds to the 500th play: it must be doubted, believed or skipped.
	run(t, g, "0 play "+str(g.Hand(0)[:1])+" => not_your_turn", "0 doubt")
	check(t, "over", g.Over(), true)
	check(t, "plays", g.Plays(), engine.MaxPlays)
}
