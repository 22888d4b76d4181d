package mentaltable

import (
	"slices"
	"testing"

	"github.com/bullshit-game/bullshit/engine"
)

// A seat that takes the pile waits for its cards, handed one by one by
// the earlier players' nodes: its node's Coming counts them from the take
// till the last is handed, and is back at 0 after.
func TestComingCountsThePile(t *testing.T) {
	pt := newPlayerTable(t, 3, 3, 12)
	most, takes := 0, 0
	pt.stepwise(func(_ int, p *Player, shown []Shown) {
		for _, sh := range shown {
			if sh.Event.Type == engine.EventTake && sh.Event.Seat == sh.Seat {
				takes++
				most = max(most, p.Coming())
			}
		}
	})
	if takes == 0 {
		t.Skip("no seat took the pile in this game")
	}
	if most == 0 {
		t.Fatalf("%d takes, and no node counted a card coming", takes)
	}
	for i, p := range pt.pl {
		if p.Coming() != 0 {
			t.Fatalf("party %d still waits for %d cards at the end", i, p.Coming())
		}
	}
}

// The host's Owed names exactly the cards of a seat's hand its node is
// still to be handed (its Coming): a move the host makes for the seat
// blind (an away person's) takes none of them, since the seat's node
// couldn't read its own play. Once, the host played such a card, and the
// seat's node, back, refused the rest of the game ("can't read its
// mine").
func TestOwedIsWhatIsComing(t *testing.T) {
	pt := newPlayerTable(t, 3, 3, 12)
	owed := 0
	pt.stepwise(func(_ int, p *Player, _ []Shown) {
		if p.Taken() != pt.host.Len() {
			return
		}
		for _, s := range p.Seats() {
			var got []engine.Handle
			for _, x := range pt.host.B.Hand(s) {
				if Owed(pt.host, s, x) {
					got = append(got, x)
				}
			}
			want := slices.Clone(p.node.taken[s])
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("seat %d: the host owes it %v, its node waits for %v", s, got, want)
			}
			owed += len(got)
		}
	})
	if owed == 0 {
		t.Fatal("no card was ever on its way to a seat: the test tested nothing")
	}
}

// stepwise plays the game a message at a time: the host takes each, and
// every node then takes the log so far (its bots shown what it was
// shown), after looks at the node before what it sends goes.
func (pt *playerTable) stepwise(after func(i int, p *Player, shown []Shown)) {
	pt.play(func(int) {
		for len(pt.queue) > 0 {
			q := pt.queue[0]
			pt.queue = pt.queue[1:]
			pt.hostTakes(q)
			for i, p := range pt.pl {
				before := p.Taken()
				send, shown, err := p.Log(before, pt.wire[before:])
				if err != nil {
					pt.t.Fatal(err)
				}
				pt.given[i] = p.Taken()
				for _, sh := range shown {
					e := sh.Event
					pt.bots[sh.Seat].Observe(&e)
				}
				after(i, p, shown)
				pt.post(i, send)
			}
		}
	})
}
