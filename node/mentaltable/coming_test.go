package mentaltable

import (
	"testing"

	"github.com/bullshit-game/bullshit/engine"
)

// A seat that takes the pile waits for its cards, handed one by one by
// the earlier players' nodes: its node's Coming counts them from the take
// till the last is handed, and is back at 0 after.
func TestComingCountsThePile(t *testing.T) {
	pt := newPlayerTable(t, 3, 3, 12)
	most, takes := 0, 0
	pt.play(func(int) {
		for len(pt.queue) > 0 {
			q := pt.queue[0]
			pt.queue = pt.queue[1:]
			pt.hostTakes(q)
			for i, p := range pt.pl {
				before := p.Taken()
				pt.given[i] = before
				send, shown, err := p.Log(before, pt.wire[before:])
				if err != nil {
					t.Fatal(err)
				}
				pt.given[i] = p.Taken()
				for _, sh := range shown {
					e := sh.Event
					pt.bots[sh.Seat].Observe(&e)
					if sh.Event.Type == engine.EventTake && sh.Event.Seat == sh.Seat {
						takes++
						most = max(most, p.Coming())
					}
				}
				pt.post(i, send)
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
