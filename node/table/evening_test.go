package table

import (
	"reflect"
	"strings"
	"testing"

	"github.com/bullshit-game/bullshit/engine/assist"
	"github.com/bullshit-game/bullshit/protocol"
)

// n−1 points for first down to 0 for last; seats sharing a place share
// the points of the places they cover.
func TestPlaceHalves(t *testing.T) {
	for _, c := range []struct {
		places []int
		want   []int // halves a seat
	}{
		{[]int{1, 2, 3, 4}, []int{6, 4, 2, 0}},
		{[]int{1, 1, 3, 4}, []int{5, 5, 2, 0}}, // 2½ each for sharing first of four
		{[]int{1, 2, 2, 2}, []int{6, 2, 2, 2}}, // three share 2+1+0: 1 each
		{[]int{2, 1, 3, 3}, []int{4, 6, 1, 1}}, // ½ each for sharing the last two
		{[]int{1, 2}, []int{2, 0}},
	} {
		for s, p := range c.places {
			if got := PlaceHalves(c.places, p); got != c.want[s] {
				t.Errorf("%v seat %d: %d halves, want %d", c.places, s, got, c.want[s])
			}
		}
	}
	for h, want := range map[int]string{0: "0", 1: "½", 2: "1", 5: "2½", 14: "7"} {
		if got := assist.HalvesText(h); got != want {
			t.Errorf("assist.HalvesText(%d) = %q, want %q", h, got, want)
		}
	}
}

// Two games at the same seats: games, wins, places and points add up; the
// same game again (its commitment) is not counted twice; a person is kept
// by peer ID whatever seat or name, a bot by its seat and level.
func TestEveningAdd(t *testing.T) {
	seats := []SeatInfo{{Name: "Ada", Peer: "P-ada"}, {Name: "Ben", Bot: "medium"}, {Name: "Cleo", Peer: "P-cleo"}}
	var e Evening
	if !e.Add([32]byte{1}, seats, []int{2, 1, 3}, 1) {
		t.Fatal("the first game was not counted")
	}
	if e.Add([32]byte{1}, seats, []int{2, 1, 3}, 1) {
		t.Fatal("the same game was counted twice")
	}
	// Cleo comes back at another seat, under another name.
	seats2 := []SeatInfo{{Name: "Ada", Peer: "P-ada"}, {Name: "Ben", Bot: "medium"}, {Name: "Cleo 2", Peer: "P-cleo"}}
	seats2[0], seats2[2] = seats2[2], seats2[0]
	seats2[1] = SeatInfo{Name: "Ben", Bot: "medium"}
	if !e.Add([32]byte{2}, seats2, []int{1, 2, 3}, 0) {
		t.Fatal("the second game was not counted")
	}
	if e.Games != 2 || len(e.Lines) != 3 {
		t.Fatalf("evening %+v", e)
	}
	want := map[string]EveningLine{
		"peer:P-ada":   {Key: "peer:P-ada", Name: "Ada", Games: 2, Wins: 0, Halves: 2 + 0, Places: []int{2, 3}},
		"bot:1:medium": {Key: "bot:1:medium", Name: "Ben", Bot: "medium", Games: 2, Wins: 1, Halves: 4 + 2, Places: []int{1, 2}},
		"peer:P-cleo":  {Key: "peer:P-cleo", Name: "Cleo 2", Games: 2, Wins: 1, Halves: 0 + 4, Places: []int{3, 1}},
	}
	for k, w := range want {
		got := e.Line(k)
		if got == nil || !reflect.DeepEqual(*got, w) {
			t.Errorf("%s: %+v, want %+v", k, got, w)
		}
	}
	// A seat's line in the other order of seats: the bot at another seat
	// is another bot.
	if SeatKey(2, SeatInfo{Name: "Ben", Bot: "Medium"}) != "bot:2:medium" || SeatKey(0, SeatInfo{Name: "You"}) != "seat:0" {
		t.Error("seat keys")
	}
	c := e.Clone()
	c.Lines[0].Places[0] = 9
	if e.Lines[0].Places[0] == 9 {
		t.Error("a clone shares its places")
	}
}

// What a peer sends as the evening is bounded and cleaned, and comes back
// as it went.
func TestEveningWire(t *testing.T) {
	var e Evening
	seats := []SeatInfo{{Name: "Ada", Peer: "P-ada"}, {Name: "Ben", Bot: "hard"}}
	e.Add([32]byte{7}, seats, []int{1, 2}, 0)
	if got := EngEvening(WireEvening(e)); !reflect.DeepEqual(got, e) {
		t.Fatalf("round trip: %+v, want %+v", got, e)
	}
	if WireEvening(Evening{}) != nil {
		t.Error("an empty evening goes on the wire")
	}
	w := &protocol.Evening{Games: -3}
	for i := range 100 {
		w.Lines = append(w.Lines, protocol.EveningLine{Key: "k", Name: strings.Repeat("x", 200) + "\x1b[2J", Games: i, Places: make([]int, 500)})
	}
	got := EngEvening(w)
	if got.Games != 0 || len(got.Lines) != EveningLines || len(got.Lines[0].Places) != EveningPlaces ||
		strings.Contains(got.Lines[0].Name, "\x1b") || len([]rune(got.Lines[0].Name)) > protocol.MaxNick {
		t.Fatalf("a peer's evening taken as %d games, %d lines, %d places, name %q", got.Games, len(got.Lines), len(got.Lines[0].Places), got.Lines[0].Name)
	}
}
