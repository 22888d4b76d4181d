package rating

import (
	"math"
	"reflect"
	"testing"
)

// person is a seat of a worked example: a person with a rating before, or
// new (r 0), or a bot.
type person struct {
	name    string
	bot     string
	place   int
	r, rd   float64
	covered int
}

type want struct {
	rated      bool
	after, rd2 float64
}

// example builds a Result (seat 0 is You) and the ratings before.
func example(seats []person) (Result, func(int) (Rating, bool)) {
	res := Result{ID: "", You: 0}
	for _, p := range seats {
		s := Seat{Nick: p.name, Place: p.place, Covered: p.covered, Bot: p.bot}
		if p.bot == "" {
			s.Peer = "peer-" + p.name
		}
		res.Seats = append(res.Seats, s)
	}
	return res, func(i int) (Rating, bool) {
		if seats[i].r == 0 {
			return Rating{}, false
		}
		return Rating{seats[i].r, seats[i].rd}, true
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 0.005+1e-9 }

func checkChanges(t *testing.T, name string, got []Change, want map[int]want) {
	t.Helper()
	for i, c := range got {
		w, ok := want[i]
		if !ok {
			if c.Rated {
				t.Errorf("%s: seat %d (%s) rated: %+v", name, i, c.Nick, c)
			}
			continue
		}
		if c.Rated != w.rated || w.rated && (!near(c.After, w.after) || !near(c.RDNew, w.rd2)) {
			t.Errorf("%s: seat %d (%s) is %.2f ± %.2f (rated %v), want %.2f ± %.2f (rated %v)",
				name, i, c.Nick, c.After, c.RDNew, c.Rated, w.after, w.rd2, w.rated)
		}
	}
}

// The worked examples of testdata/worked.md, computed there by worked.py.
func TestWorkedExamples(t *testing.T) {
	cases := []struct {
		name  string
		seats []person
		want  map[int]want
	}{
		{"1. four new players, places 1 to 4",
			[]person{{name: "A", place: 1}, {name: "B", place: 2}, {name: "C", place: 3}, {name: "D", place: 4}},
			map[int]want{0: {true, 1710.45, 269.92}, 1: {true, 1570.15, 269.92}, 2: {true, 1429.85, 269.92}, 3: {true, 1289.55, 269.92}}},
		{"2. two new and two medium bots, a tie for second",
			[]person{{name: "A", place: 2}, {name: "M1", bot: "medium", place: 1}, {name: "B", place: 4}, {name: "M2", bot: "medium", place: 2}},
			map[int]want{0: {true, 1473.98, 233.75}, 2: {true, 1290.12, 233.75}}},
		{"3. settled, wins against easy and hard at 3 seats",
			[]person{{name: "A", place: 1, r: 1620, rd: 60}, {name: "E", bot: "easy", place: 3}, {name: "H", bot: "hard", place: 2}},
			map[int]want{0: {true, 1627.99, 64.09}}},
		{"4. settled last, new first, a medium bot",
			[]person{{name: "A", place: 3, r: 1700, rd: 80}, {name: "B", place: 1}, {name: "M", bot: "medium", place: 2}},
			map[int]want{0: {true, 1668.55, 82.06}, 1: {true, 1768.72, 238.86}}},
		{"5. five seats, one covered too long",
			[]person{{name: "A", place: 1}, {name: "B", place: 2, r: 1550, rd: 120}, {name: "X", place: 3, covered: MaxCovered + 1},
				{name: "H", bot: "hard", place: 4}, {name: "E", bot: "easy", place: 5}},
			map[int]want{0: {true, 1699.35, 243.96}, 1: {true, 1563.60, 116.51}, 2: {false, 0, 0}}},
		{"6. two seats, new loses to easy",
			[]person{{name: "A", place: 2}, {name: "E", bot: "easy", place: 1}},
			map[int]want{0: {true, 814.15, 346.14}}},
	}
	for _, c := range cases {
		res, before := example(c.seats)
		got := Compute(res, before)
		checkChanges(t, c.name, got, c.want)
		for i, p := range c.seats {
			if p.bot != "" && (!got[i].Anchor || got[i].Before != got[i].After) {
				t.Errorf("%s: bot seat %d moved or isn't an anchor: %+v", c.name, i, got[i])
			}
		}
	}
}

// Example 7 of worked.md: two games in a row, through a store.
func TestWorkedExampleTwoGames(t *testing.T) {
	s := NewStore()
	g1 := Result{ID: "g1", You: 0, Seats: []Seat{
		{Peer: "pa", Nick: "A", Place: 1}, {Bot: "hard", Nick: "H", Place: 2}, {Peer: "pb", Nick: "B", Place: 3}}}
	ch, fresh := s.Apply(g1)
	if !fresh {
		t.Fatal("first game not fresh")
	}
	checkChanges(t, "7a", ch, map[int]want{0: {true, 1728.65, 250.92}, 2: {true, 1325.36, 250.92}})
	g2 := Result{ID: "g2", You: 0, Seats: []Seat{
		{Peer: "pa", Nick: "A", Place: 2}, {Bot: "hard", Nick: "H", Place: 3}, {Peer: "pb", Nick: "B", Place: 1}}}
	ch, _ = s.Apply(g2)
	checkChanges(t, "7b", ch, map[int]want{0: {true, 1663.28, 213.38}, 2: {true, 1599.86, 219.64}})
	if s.Me == nil || !near(s.Me.R, 1663.28) || !near(s.Players["pb"].R, 1599.86) || s.Players["pb"].Games != 2 {
		t.Errorf("store after two games: me %+v, B %+v", s.Me, s.Players["pb"])
	}
}

// Two profiles that played the same games compute the same changes, bit
// for bit, though each is You in its own and the other a peer.
func TestTwoProfilesAgree(t *testing.T) {
	games := [][]Seat{
		{{Peer: "ada", Nick: "Ada", Place: 1}, {Peer: "ben", Nick: "Ben", Place: 3}, {Bot: "medium", Nick: "Cleo", Place: 2}, {Bot: "hard", Nick: "Dev", Place: 4}},
		{{Peer: "ada", Nick: "Ada", Place: 2}, {Peer: "ben", Nick: "Ben", Place: 2}, {Bot: "medium", Nick: "Cleo", Place: 1}, {Bot: "hard", Nick: "Dev", Place: 4}},
		{{Peer: "ada", Nick: "Ada", Place: 4}, {Peer: "ben", Nick: "Ben", Place: 1}, {Bot: "easy", Nick: "Cleo", Place: 3}, {Bot: "hard", Nick: "Dev", Place: 2}},
		{{Peer: "ada", Nick: "Ada", Place: 1}, {Peer: "ben", Nick: "Ben", Place: 2}, {Peer: "cat", Nick: "Cat", Place: 3}},
		{{Peer: "ada", Nick: "Ada", Place: 2, Covered: 9}, {Peer: "ben", Nick: "Ben", Place: 1}, {Peer: "cat", Nick: "Cat", Place: 3}},
	}
	ada, ben := NewStore(), NewStore()
	for i, seats := range games {
		id := string(rune('a' + i))
		ca, _ := ada.Apply(Result{ID: id, You: 0, Seats: seats})
		cb, _ := ben.Apply(Result{ID: id, You: 1, Seats: seats})
		if !reflect.DeepEqual(ca, cb) {
			t.Fatalf("game %d: Ada's profile computes\n%+v\nBen's\n%+v", i, ca, cb)
		}
	}
	if *ada.Me != ben.Players["ada"].Rating || *ben.Me != ada.Players["ben"].Rating {
		t.Errorf("Ada %+v / %+v, Ben %+v / %+v", *ada.Me, ben.Players["ada"].Rating, *ben.Me, ada.Players["ben"].Rating)
	}
	if ada.Players["cat"].Rating != ben.Players["cat"].Rating {
		t.Errorf("Cat: %+v and %+v", ada.Players["cat"].Rating, ben.Players["cat"].Rating)
	}
}

func TestAnchors(t *testing.T) {
	for seats := 2; seats <= 10; seats++ {
		e, _ := Anchor("easy", seats)
		m, _ := Anchor("medium", seats)
		h, _ := Anchor("hard", seats)
		if !(e < m && m < h) || m != 1500 {
			t.Errorf("%d seats: easy %v, medium %v, hard %v", seats, e, m, h)
		}
	}
	for _, name := range []string{"hard/cautious", "Medium", " easy "} {
		if _, ok := Anchor(name, 4); !ok {
			t.Errorf("%q is no anchor", name)
		}
	}
	for _, name := range []string{"hard/bold", "bold", "exec:/bin/bot", "", "medium"} {
		seats := 4
		if name == "medium" {
			seats = 11
		}
		if _, ok := Anchor(name, seats); ok {
			t.Errorf("%q at %d seats is an anchor", name, seats)
		}
	}
}

// What isn't rated: a game ended early, a custom deal, a covered seat, an
// unknown bot (its pairings left out), a person with no peer ID.
func TestNotRated(t *testing.T) {
	base := []Seat{{Peer: "a", Nick: "A", Place: 1}, {Peer: "b", Nick: "B", Place: 2}, {Bot: "medium", Nick: "M", Place: 3}, {Peer: "c", Nick: "C", Place: 4}}
	rated := func(ch []Change) (n int) {
		for _, c := range ch {
			if c.Rated {
				n++
			}
		}
		return n
	}
	before := func(int) (Rating, bool) { return Rating{}, false }
	for _, c := range []struct {
		name string
		res  Result
		want int
		why  string
	}{
		{"all", Result{Seats: base}, 3, ""},
		{"early", Result{Seats: base, EndedEarly: true}, 0, WhyEarly},
		{"custom", Result{Seats: base, CustomDeal: true}, 0, WhyCustom},
	} {
		ch := Compute(c.res, before)
		if got := rated(ch); got != c.want {
			t.Errorf("%s: %d rated, want %d", c.name, got, c.want)
		}
		if c.why != "" && ch[0].Why != c.why {
			t.Errorf("%s: why %q", c.name, ch[0].Why)
		}
	}
	// Covered for exactly MaxCovered plays is still rated; one more isn't.
	s := append([]Seat(nil), base...)
	s[1].Covered = MaxCovered
	if ch := Compute(Result{Seats: s}, before); !ch[1].Rated {
		t.Errorf("covered %d plays: not rated", MaxCovered)
	}
	s[1].Covered = MaxCovered + 1
	ch := Compute(Result{Seats: s}, before)
	if ch[1].Rated || ch[1].Why != WhyCovered {
		t.Errorf("covered %d plays: %+v", MaxCovered+1, ch[1])
	}
	// A covered seat is left out of the others' pairings: A's change is
	// the same as at a table where B's seat is an unknown bot.
	u := append([]Seat(nil), base...)
	u[1] = Seat{Bot: "exec:./mybot", Nick: "B", Place: 2}
	cu := Compute(Result{Seats: u}, before)
	if cu[1].Why != WhyUnknown || cu[0].After != ch[0].After {
		t.Errorf("unknown bot: %+v; A %v vs %v", cu[1], cu[0].After, ch[0].After)
	}
	// A person with no peer ID (not You) isn't rated; You without one is.
	p := append([]Seat(nil), base...)
	p[0].Peer, p[3].Peer = "", ""
	cp := Compute(Result{Seats: p, You: 0}, before)
	if !cp[0].Rated || cp[3].Rated || cp[3].Why != WhyNoPeer {
		t.Errorf("no peer IDs: %+v / %+v", cp[0], cp[3])
	}
	// Alone among unrated seats: nothing to measure.
	a := []Seat{{Peer: "a", Nick: "A", Place: 1}, {Bot: "hard/bold", Nick: "X", Place: 2}}
	if ca := Compute(Result{Seats: a}, before); ca[0].Rated || ca[0].Why != WhyAlone {
		t.Errorf("alone: %+v", ca[0])
	}
}

// The deviation grows before each game and never beyond StartRD; a
// settled player moves less than a new one for the same result.
func TestDeviation(t *testing.T) {
	if r := New().grown(); r.RD != StartRD {
		t.Errorf("new grown: %v", r.RD)
	}
	if r := (Rating{1500, 50}).grown(); !near(r.RD, math.Sqrt(50*50+GrowRD*GrowRD)) {
		t.Errorf("grown 50: %v", r.RD)
	}
	seats := []Seat{{Peer: "a", Place: 1}, {Bot: "medium", Place: 2}, {Bot: "medium", Place: 3}, {Bot: "medium", Place: 4}}
	newbie := Compute(Result{Seats: seats}, func(int) (Rating, bool) { return Rating{}, false })[0]
	settled := Compute(Result{Seats: seats}, func(int) (Rating, bool) { return Rating{1500, 60}, true })[0]
	if !(newbie.Delta() > 150 && settled.Delta() > 0 && settled.Delta() < 40) {
		t.Errorf("win among 4: new %+.1f, settled %+.1f", newbie.Delta(), settled.Delta())
	}
}
