package cli

import (
	"testing"

	"github.com/bullshit-game/bullshit/cli/rating"
	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/table"
)

func TestRatingResult(t *testing.T) {
	seats := []table.SeatInfo{
		{Name: "Ada", Peer: "12D3KooWada", Connected: true},
		{Name: "Ben", Peer: "12D3KooWben"},
		{Name: "Cleo", Bot: "medium"},
	}
	var cc CoverCount
	ts := table.TableState{Seats: seats, You: 0}
	// Ben away: a bot covers him for four plays and lets a play go.
	ts.Seats[1].Covered = true
	for range 4 {
		cc.Observe(table.Update{Table: ts, Events: []engine.Event{{Type: "play", Seat: 1}, {Type: "pass", Seat: 1}, {Type: "play", Seat: 0}}})
	}
	// A backlog after a reconnection isn't counted again.
	cc.Observe(table.Update{Table: ts, Backlog: true, Events: []engine.Event{{Type: "play", Seat: 1}}})
	ts.Seats[1].Covered = false
	cc.Observe(table.Update{Table: ts, Events: []engine.Event{{Type: "play", Seat: 1}}})
	if cc[0] != 0 || cc[1] != 4 || cc[2] != 0 {
		t.Fatalf("covered %v, want [0 4 0]", cc)
	}
	ts.Commit[0] = 0xab
	u := table.Update{Table: ts, View: engine.View{Phase: engine.PhaseOver, Places: []int{1, 3, 2},
		Stats: []engine.Stats{{Calls: 2, Right: 1, Sneaks: 1}, {}, {Calls: 5, Right: 4}}}}
	res := RatingResult(u, cc)
	if res.EndedEarly || res.You != 0 || len(res.ID) != 64 || res.ID[:2] != "ab" {
		t.Errorf("result %+v", res)
	}
	want := []rating.Seat{
		{Peer: "12D3KooWada", Nick: "Ada", Place: 1, Stats: engine.Stats{Calls: 2, Right: 1, Sneaks: 1}},
		{Peer: "12D3KooWben", Nick: "Ben", Place: 3, Covered: 4},
		{Bot: "medium", Nick: "Cleo", Place: 2, Stats: engine.Stats{Calls: 5, Right: 4}},
	}
	for i, w := range want {
		if res.Seats[i] != w {
			t.Errorf("seat %d: %+v, want %+v", i, res.Seats[i], w)
		}
	}
	ch := rating.Compute(res, func(int) (rating.Rating, bool) { return rating.Rating{}, false })
	if !ch[0].Rated || ch[1].Rated || ch[1].Why != rating.WhyCovered || !ch[2].Anchor {
		t.Errorf("changes %+v", ch)
	}
	// The host ended it early: nothing rated.
	u.View.Phase = engine.PhasePlay
	if res := RatingResult(u, cc); !res.EndedEarly {
		t.Error("not ended early")
	}
}

// A screen that saw none of the covered plays (it joined late, or a new
// host's backlog replaced them) still goes by the host's count: a phone's
// seat a bot played for twenty plays is not rated.
func TestRatingGoesByTheHostsCount(t *testing.T) {
	ts := table.TableState{You: 0, Seats: []table.SeatInfo{
		{Name: "Ada", Peer: "12D3KooWada", Connected: true},
		{Name: "Pip", Peer: "12D3KooWpip", Web: true, MadeFor: 20},
		{Name: "Cleo", Bot: "medium"},
	}}
	u := table.Update{Table: ts, View: engine.View{Phase: engine.PhaseOver, Places: []int{1, 2, 3}, Stats: make([]engine.Stats, 3)}}
	res := RatingResult(u, nil)
	if res.Seats[1].Covered != 20 {
		t.Fatalf("Pip covered for %d plays, want the host's 20", res.Seats[1].Covered)
	}
	ch := rating.Compute(res, func(int) (rating.Rating, bool) { return rating.Rating{}, false })
	if ch[1].Rated || ch[1].Why != rating.WhyCovered {
		t.Errorf("Pip's change %+v: rated after a bot played 20 plays for her", ch[1])
	}
}
