package rating

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bullshit-game/bullshit/engine"
)

func game(id string, you int, early bool, seats ...Seat) Result {
	return Result{ID: id, You: you, EndedEarly: early, Seats: seats}
}

func TestRecord(t *testing.T) {
	dir := t.TempDir()
	ada := func(place int, st engine.Stats) Seat { return Seat{Peer: "ada", Nick: "Ada", Place: place, Stats: st} }
	ben := func(place int) Seat { return Seat{Peer: "ben", Nick: "Ben", Place: place} }
	bot := func(name string, place int) Seat { return Seat{Bot: name, Nick: "Cleo", Place: place} }
	games := []Result{
		game("g1", 0, false, ada(1, engine.Stats{Calls: 3, Right: 2, Sneaks: 1}), ben(2), bot("medium", 3)),
		game("g2", 0, false, ada(2, engine.Stats{Calls: 2, Right: 1, Sneaks: 2, Caught: 1}), ben(1), bot("medium", 3)),
		game("g3", 0, false, ada(1, engine.Stats{Calls: 1, Right: 1, Sneaks: -1}), ben(1), bot("hard", 3)), // first shared: no win
		game("g4", 0, true, ada(0, engine.Stats{Calls: 5}), ben(0), bot("easy", 0)),                        // ended early
	}
	var first []Change
	for i, g := range games {
		ch, err := Record(dir, g)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = ch
		}
	}
	// Recording a game again changes nothing and returns its changes.
	again, err := Record(dir, games[0])
	if err != nil || len(again) != 3 || again[0] != first[0] {
		t.Fatalf("again: %v %+v", err, again)
	}
	s, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := Tally{Games: 3, Rated: 3, Early: 1, Wins: 1, Places: 4, Seats: 9, Calls: 6, Right: 4, Sneaks: 3, Caught: 1}
	if s.Tally != want {
		t.Errorf("tally %+v, want %+v", s.Tally, want)
	}
	if v := s.Versus["ben"]; v == nil || *v != (Versus{Nick: "Ben", Games: 3, Met: 3, Ahead: 1, Level: 1, Behind: 1}) {
		t.Errorf("versus Ben: %+v", v)
	}
	if v := s.Versus["bot:medium"]; v == nil || v.Games != 2 || v.Ahead != 2 || v.Bot != "medium" {
		t.Errorf("versus medium: %+v", v)
	}
	if s.Me == nil || s.Players["ben"] == nil || s.Players["ben"].Games != 3 || s.Nick != "Ada" {
		t.Errorf("ratings: me %+v, players %+v", s.Me, s.Players)
	}
	if len(s.Recent) != 4 {
		t.Errorf("%d games logged", len(s.Recent))
	}

	text := strings.Join(s.Lines(), "\n")
	for _, w := range []string{
		"Ada: 3 games, 1 win (33 %), average place 1.3 at tables of 3.0",
		"Rating " + show(*s.Me) + " (3 rated games; everyone starts at 1500 ± 350)",
		"Calls right 4 of 6 made (67 %) · sneaks 3, caught 1",
		"1 game ended early by the host, not counted",
		"Ben                    3      1      1       1    50%  " + show(s.Players["ben"].Rating),
		"medium bot             2      2      0       0   100%  fixed",
		"hard bot               1      1      0       0   100%  fixed",
	} {
		if !strings.Contains(text, w) {
			t.Errorf("no %q in\n%s", w, text)
		}
	}
	if strings.Index(text, "Ben") > strings.Index(text, "medium bot") {
		t.Errorf("the most played isn't first:\n%s", text)
	}
}

func TestRecordSpectatorAndEmpty(t *testing.T) {
	dir := t.TempDir()
	ch, err := Record(dir, game("w", -1, false, Seat{Peer: "a", Place: 1}, Seat{Peer: "b", Place: 2}))
	if err != nil || ch != nil {
		t.Errorf("spectator: %v %v", ch, err)
	}
	if _, err := os.Stat(filepath.Join(dir, File)); err == nil {
		t.Error("a spectator wrote ratings")
	}
	s, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if l := s.Lines(); len(l) != 1 || !strings.Contains(l[0], "no games yet") {
		t.Errorf("empty: %q", l)
	}
}

func TestLoadDamaged(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, File), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("damaged file: %v", err)
	}
	if _, err := Record(dir, game("x", 0, false, Seat{Peer: "a", Place: 1}, Seat{Peer: "b", Place: 2})); err == nil {
		t.Error("Record overwrote a damaged file")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, File)); string(b) != "{not json" {
		t.Errorf("file now %q", b)
	}
}

// The store survives a round trip through its file exactly.
func TestSaveLoad(t *testing.T) {
	dir := t.TempDir()
	s := NewStore()
	s.Apply(game("1", 1, false, Seat{Peer: "a", Nick: "A", Place: 2}, Seat{Peer: "b", Nick: "B", Place: 1}, Seat{Bot: "easy", Place: 3}))
	if err := s.Save(dir); err != nil {
		t.Fatal(err)
	}
	l, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if *l.Me != *s.Me || l.Players["a"].Rating != s.Players["a"].Rating || l.Tally != s.Tally {
		t.Errorf("loaded %+v, saved %+v", l, s)
	}
	// The next game computes the same from either.
	g := game("2", 1, false, Seat{Peer: "a", Nick: "A", Place: 1}, Seat{Peer: "b", Nick: "B", Place: 2}, Seat{Bot: "hard", Place: 3})
	c1, _ := s.Apply(g)
	c2, _ := l.Apply(g)
	for i := range c1 {
		if c1[i] != c2[i] {
			t.Errorf("seat %d: %+v vs %+v", i, c1[i], c2[i])
		}
	}
}

// One game against three medium bots is one game with the medium bot,
// not three ("Played most with medium bot: 3 games" after one game).
func TestVersusCountsGamesNotSeats(t *testing.T) {
	dir := t.TempDir()
	g := game("g1", 0, false, Seat{Peer: "ada", Nick: "Ada", Place: 2},
		Seat{Bot: "medium", Place: 1}, Seat{Bot: "medium", Place: 3}, Seat{Bot: "medium", Place: 4})
	if _, err := Record(dir, g); err != nil {
		t.Fatal(err)
	}
	s, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if v := s.Versus["bot:medium"]; v == nil || v.Games != 1 || v.Met != 3 || v.Ahead != 2 || v.Behind != 1 {
		t.Fatalf("versus medium after one game: %+v", v)
	}
	text := strings.Join(s.Lines(), "\n")
	if w := "medium bot             1      2      0       1    67%  fixed"; !strings.Contains(text, w) {
		t.Errorf("no %q in\n%s", w, text)
	}
}
