package bot

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/enginetest"
)

var cards = enginetest.Cards

// table deals custom hands and hands each seat a bot that has seen the deal.
func table(t *testing.T, r engine.Rules, hands [][]engine.Card, first int, names []string, seed uint64) (*engine.Game, []*Bot) {
	t.Helper()
	g, ev, err := engine.New(engine.Config{Rules: r, Seats: len(hands), Seed: seed, Hands: hands, First: &first})
	if err != nil {
		t.Fatal(err)
	}
	bots := make([]*Bot, len(hands))
	for s := range bots {
		p, err := New(names[s%len(names)], s, seed+uint64(s))
		if err != nil {
			t.Fatal(err)
		}
		bots[s] = p.(*Bot)
	}
	feed(bots, ev)
	return g, bots
}

func feed(bots []*Bot, ev []engine.Event) {
	for i := range ev {
		for s, b := range bots {
			if ev[i].VisibleTo(s) {
				b.Observe(&ev[i])
			}
		}
	}
}

// ask is what seat's bot would do now.
func ask(g *engine.Game, b *Bot) (engine.Command, bool) {
	v := g.View(b.seat)
	c, _, ok := b.Act(&v)
	return c, ok
}

// A claim that can't be true, given the listener's hand, is always called
// by hard (and by medium, which knows its own hand too).
func TestHardCallsImpossible(t *testing.T) {
	std := engine.Standard()
	for seed := uint64(0); seed < 30; seed++ {
		for _, claim := range []int{2, 3} {
			// Seat 1 holds three aces: seat 0 can't have two.
			hands := [][]engine.Card{
				cards(t, "AS", "5C", "6C", "7C", "8C", "9C"),
				cards(t, "AC", "AD", "AH", "2C", "3C", "4C"),
				cards(t, "2D", "3D", "4D", "5D", "6D", "7D"),
			}
			g, bots := table(t, std, hands, 0, []string{"hard", "hard", "medium"}, seed)
			ev, err := g.Play(0, 0, hands[0][:claim], 0, engine.NoRank)
			if err != nil {
				t.Fatal(err)
			}
			feed(bots, ev)
			for _, s := range []int{1, 2} {
				c, ok := ask(g, bots[s])
				if s == 1 && (!ok || c.Move != engine.MoveCall) {
					t.Fatalf("seed %d: hard holding three aces let a claim of %d aces go (%v)", seed, claim, c.Move)
				}
				_ = c
			}
		}
	}
}

// Every level calls a last card that is probably a lie; hard spares a
// last play that is all but surely true at three seats.
func TestCallsLastCard(t *testing.T) {
	std := engine.Standard()
	for _, level := range []string{"easy", "medium", "hard"} {
		for seed := uint64(0); seed < 40; seed++ {
			// Seat 0's last card is a five and aces are asked for.
			hands := [][]engine.Card{
				cards(t, "5C"),
				cards(t, "2C", "3C", "4C", "6C", "7C", "8C"),
				cards(t, "2D", "3D", "4D", "6D", "7D", "8D"),
			}
			g, bots := table(t, std, hands, 0, []string{level}, seed)
			ev, err := g.Play(0, 0, hands[0], 0, engine.NoRank)
			if err != nil {
				t.Fatal(err)
			}
			feed(bots, ev)
			for _, s := range []int{1, 2} {
				if c, ok := ask(g, bots[s]); !ok || c.Move != engine.MoveCall {
					t.Fatalf("%s (seed %d, seat %d) let a likely lie of a last card go", level, seed, s)
				}
			}
		}
	}
	// Three kings claimed as the last cards: bots play all of a rank and
	// never bluff three, so hard lets it stand rather than take the pile.
	hands := [][]engine.Card{
		cards(t, "KC", "KD", "KH"),
		cards(t, "2C", "3C", "4C", "6C", "7C", "8C"),
		cards(t, "2D", "3D", "4D", "6D", "7D", "8D"),
	}
	r := engine.Standard()
	r.Start = 12
	g, bots := table(t, r, hands, 0, []string{"hard"}, 1)
	ev, err := g.Play(0, 0, hands[0], 0, engine.NoRank)
	if err != nil {
		t.Fatal(err)
	}
	feed(bots, ev)
	if c, _ := ask(g, bots[1]); c.Move != engine.MovePass {
		t.Errorf("hard called three kings going out at three seats: %v", c.Move)
	}
}

// No bot sneaks its last card, nor lies with it when it has a choice:
// across many twist games, a play that empties a hand never has cards
// beyond its claim, and a level's pads and bluffs never empty a hand.
func TestNoSneakLastCard(t *testing.T) {
	r, _ := engine.Preset("twist")
	names := []string{"always", "easy/always", "hard/bold", "bold", "sometimes"}
	outs := 0
	for i := 0; i < 300; i++ {
		seats := 3 + i%4
		ns := make([]string, seats)
		for s := range ns {
			ns[s] = names[(i+s)%len(names)]
		}
		playGame(t, r, ns, uint64(i), func(g *engine.Game, _ []*Bot, _ []engine.View) {
			st := g.State()
			l := st.Last
			if !l.Out {
				return
			}
			outs++
			if len(l.Cards) > l.Claim {
				t.Fatalf("game %d: seat %d sneaked its last card: %v claimed as %d", i, l.Seat, engine.Cards(l.Cards), l.Claim)
			}
			if len(l.Cards) > 1 {
				for _, c := range l.Cards {
					if !c.Matches(l.Rank) {
						t.Fatalf("game %d: seat %d padded its last cards: %v as %s", i, l.Seat, engine.Cards(l.Cards), l.Rank)
					}
				}
			}
		})
	}
	if outs == 0 {
		t.Fatal("nobody ever went out")
	}
}

// A decision is a function of view, memory and seed: asked again over the
// same situation, a bot answers the same, and a copy fed the same events
// decides the same.
func TestDeterministic(t *testing.T) {
	r, _ := engine.Preset("twist")
	var first []engine.Command
	for run := 0; run < 2; run++ {
		var got []engine.Command
		playGame(t, r, []string{"hard", "medium", "easy", "bold"}, 7, func(g *engine.Game, bots []*Bot, views []engine.View) {
			for s, b := range bots {
				c1, _, ok1 := b.Act(&views[s])
				c2, _, ok2 := b.Act(&views[s])
				if ok1 != ok2 || !slices.Equal(c1.Cards, c2.Cards) || c1.Move != c2.Move {
					t.Fatalf("seat %d answered %v then %v", s, c1, c2)
				}
				if ok1 {
					got = append(got, c1)
				}
			}
		})
		if run == 1 && len(got) != len(first) {
			t.Fatalf("two runs decided %d and %d times", len(first), len(got))
		}
		for i := range got {
			if run == 1 && (got[i].Move != first[i].Move || got[i].No != first[i].No) {
				t.Fatalf("decision %d differs: %v, %v", i, first[i], got[i])
			}
		}
		first = got
	}
}

// Names, styles and levels parse; unknown names are refused.
func TestNew(t *testing.T) {
	for _, n := range append(slices.Clone(Names), "hard/bold", "easy/always", "HARD", " medium ") {
		if _, err := New(n, 0, 1); err != nil {
			t.Errorf("%q: %v", n, err)
		}
	}
	for _, n := range []string{"", "expert", "hard/sly", "/bold", "exec:./x"} {
		if _, err := New(n, 0, 1); err == nil {
			t.Errorf("%q was taken", n)
		}
	}
}

// Think varies by seat and play, so no bot is always the quickest.
func TestThinkVaries(t *testing.T) {
	for seat := 0; seat < 10; seat++ {
		fastest := 0
		for no := 1; no <= 40; no++ {
			best := true
			for o := 0; o < 10; o++ {
				if o != seat && Think("medium", o, no, "brisk") < Think("medium", seat, no, "brisk") {
					best = false
				}
			}
			if best {
				fastest++
			}
		}
		if fastest == 40 || fastest == 0 {
			t.Errorf("seat %d is the quickest %d times of 40", seat, fastest)
		}
	}
	if Think("hard", 1, 1, "relaxed") <= Think("hard", 1, 1, "brisk") {
		t.Error("relaxed isn't slower than brisk")
	}
}

// The secrecy contract (R16) reaches the bots: play a game, then replay it
// with every card the observer never saw dealt out again among the hidden
// places (other hands, the face-down pile), the commands mapped to match.
// The observer's every view must be the same, and so must every choice of
// a fresh bot fed the replay.
func TestSecrecy(t *testing.T) {
	presets := []string{"standard", "cheat", "twist", "free", "doubt"}
	levels := []string{"hard", "medium", "easy", "hard/bold", "careful"}
	checked := 0
	for gi := 0; gi < 40; gi++ {
		r, _ := engine.Preset(presets[gi%len(presets)])
		seats := 3 + gi%4
		names := make([]string, seats)
		for s := range names {
			names[s] = levels[(gi+s)%len(levels)]
		}
		obs := gi % seats
		checked += secrecyGame(t, r, names, obs, uint64(gi)+100)
	}
	t.Logf("%d decisions checked", checked)
	if checked < 1000 {
		t.Fatalf("only %d decisions checked", checked)
	}
}

type step struct {
	at   time.Duration
	cmd  *engine.Command
	acts []engine.Command // the observer's answers asked before this step
	oks  []bool
}

// secrecyGame plays one game, replays it scrambled, and returns how many of
// the observer's decisions it compared.
func secrecyGame(t *testing.T, r engine.Rules, names []string, obs int, seed uint64) int {
	t.Helper()
	n := len(names)
	g, ev, err := engine.New(engine.Config{Rules: r, Seats: n, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	deal := g.State().Hands
	first := g.Turn()
	bots := make([]*Bot, n)
	for s := range bots {
		p, _ := New(names[s], s, seed*7+uint64(s))
		bots[s] = p.(*Bot)
	}
	seen := map[engine.Card]bool{}
	look := func(ev []engine.Event) {
		for i := range ev {
			if ev[i].VisibleTo(obs) && ev[i].Type != "over" {
				for _, c := range ev[i].Cards {
					seen[c] = true
				}
			}
		}
	}
	feed(bots, ev)
	look(ev)
	var steps []step
	var pending step
	var views []engine.View
	now := time.Duration(0)
	for !g.Over() {
		now += 500 * time.Millisecond
		var v engine.View
		g.ViewInto(obs, &v)
		for _, c := range v.Hand {
			seen[c] = true
		}
		oc, _, ok := bots[obs].Act(&v)
		pending.acts = append(pending.acts, oc)
		pending.oks = append(pending.oks, ok)
		views = append(views, v)
		// Whoever may act does; a window nobody calls is ticked shut.
		var cmd *engine.Command
		for s, b := range bots {
			vs := g.View(s)
			if c, _, ok := b.Act(&vs); ok {
				c.Seat = s
				cmd = &c
				break
			}
		}
		if cmd == nil {
			d, _ := g.Deadline()
			now = max(now, d)
			ev = g.Tick(now)
		} else {
			ev, err = g.Apply(now, *cmd)
			if err != nil {
				t.Fatalf("refused %+v: %v", *cmd, err)
			}
		}
		pending.at, pending.cmd = now, cmd
		steps = append(steps, pending)
		pending = step{}
		if g.Over() {
			break
		}
		feed(bots, ev)
		look(ev)
	}
	// Scramble every card the observer never saw among themselves.
	var hidden []engine.Card
	for _, h := range deal {
		for _, c := range h {
			if !seen[c] {
				hidden = append(hidden, c)
			}
		}
	}
	t.Logf("%s: %d hidden cards scrambled", r.Preset, len(hidden))
	perm := slices.Clone(hidden)
	rng := rand.New(rand.NewPCG(seed, 99))
	rng.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	sigma := map[engine.Card]engine.Card{}
	for i, c := range hidden {
		sigma[c] = perm[i]
	}
	mapc := func(cs []engine.Card) []engine.Card {
		out := make([]engine.Card, len(cs))
		for i, c := range cs {
			out[i] = c
			if x, ok := sigma[c]; ok {
				out[i] = x
			}
		}
		return out
	}
	hands := make([][]engine.Card, n)
	for s, h := range deal {
		hands[s] = mapc(h)
	}
	g2, ev2, err := engine.New(engine.Config{Rules: r, Seats: n, Seed: seed, Hands: hands, First: &first})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := New(names[obs], obs, seed*7+uint64(obs))
	b2 := p.(*Bot)
	feed2 := func(ev []engine.Event) {
		for i := range ev {
			if ev[i].VisibleTo(obs) {
				b2.Observe(&ev[i])
			}
		}
	}
	feed2(ev2)
	checked, vi := 0, 0
	for si, st := range steps {
		for k := range st.acts {
			var v engine.View
			g2.ViewInto(obs, &v)
			a, b := jsonOf(t, views[vi]), jsonOf(t, v)
			if a != b {
				t.Fatalf("%s seat %d: the observer's view changed with cards it never saw:\n%s\n%s", r.Preset, obs, a, b)
			}
			vi++
			c, _, ok := b2.Act(&v)
			if ok != st.oks[k] || c.Move != st.acts[k].Move || c.No != st.acts[k].No || !slices.Equal(c.Cards, st.acts[k].Cards) {
				t.Fatalf("%s step %d: a bot's choice changed with cards it never saw: %+v vs %+v", r.Preset, si, st.acts[k], c)
			}
			checked++
		}
		if si == len(steps)-1 {
			break // the last step ends the game, when everything is shown
		}
		var ev []engine.Event
		if st.cmd == nil {
			ev = g2.Tick(st.at)
		} else {
			c := *st.cmd
			c.Cards = mapc(c.Cards)
			ev, err = g2.Apply(st.at, c)
			if err != nil {
				t.Fatalf("the scrambled replay refused step %d %+v: %v", si, c, err)
			}
		}
		feed2(ev)
	}
	return checked
}

func jsonOf(t *testing.T, v engine.View) string {
	v.Now = 0 // both games keep the same clock; views differ in nothing else
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A bot asked to act before the deal (a view with no hands yet: a blind
// table still shuffling, a seat taken back after the host failed over)
// and then shown the deal, or shown a deal that names a seat off the
// table, keeps playing: it panicked dividing by a table of no seats.
func TestObserveDealAfterEmptyView(t *testing.T) {
	for _, deal := range []engine.Event{
		{Type: engine.EventDeal, Seat: 0, Counts: make([]engine.Count, 4)},
		{Type: engine.EventDeal, Seat: -7, Target: 99, Counts: make([]engine.Count, 4)},
		{Type: engine.EventDeal, Seat: 2},
	} {
		for _, name := range Names {
			b, err := New(name, 1, 1)
			if err != nil {
				t.Fatal(err)
			}
			b.Act(&engine.View{Seat: 1, Phase: engine.PhasePlay})
			b.Observe(&deal)
			g, _, err := engine.New(engine.Config{Rules: engine.Standard(), Seats: 4, Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			v := g.View(1)
			b.Act(&v)
		}
	}
}
