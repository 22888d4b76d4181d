package cli

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/journal"
	"github.com/bullshit-game/bullshit/node/table"
)

// The highlights of a scripted game with sneaks: Ada's sneak stands (play
// 1); Ben's is called by Cleo, who makes him take the pile of 6 (play 2,
// the best call); Dev's three is called by Ada and is the truth (no
// highlight), Dev's two-card sneak later stands and is the boldest.
func TestGameHighlights(t *testing.T) {
	rules := engine.Standard()
	if err := rules.Set("sneak", "2"); err != nil {
		t.Fatal(err)
	}
	cfg := engine.Config{Rules: rules, Seats: 4, Hands: fixedHands(t), First: seat(0)}
	g, _, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var steps []engine.Step
	now := time.Duration(0)
	do := func(c engine.Command) {
		t.Helper()
		now += time.Second
		c.Rank = engine.NoRank
		if _, err := g.Apply(now, c); err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		steps = append(steps, engine.Step{At: now, Cmd: &c})
	}
	passAll := func(no int) {
		for s := range 4 {
			if v := g.View(s); v.Window != nil && slices.Contains(v.Window.Callers, s) {
				do(engine.Command{Move: engine.MovePass, Seat: s, No: no})
			}
		}
	}
	do(engine.Command{Move: engine.MovePlay, Seat: 0, Cards: cards(t, "AS", "AH", "2C"), Claim: 2}) // 1 sneaked
	passAll(1)
	do(engine.Command{Move: engine.MovePlay, Seat: 1, Cards: cards(t, "2D", "2H", "3C"), Claim: 2}) // 1 sneaked
	do(engine.Command{Move: engine.MoveCall, Seat: 2, No: 2})
	do(engine.Command{Move: engine.MoveGive, Seat: 2, Cards: cards(t, "AD")})
	do(engine.Command{Move: engine.MovePlay, Seat: 2, Cards: cards(t, "3H")})
	passAll(3)
	do(engine.Command{Move: engine.MovePlay, Seat: 3, Cards: cards(t, "4S")})
	do(engine.Command{Move: engine.MoveCall, Seat: 0, No: 4}) // the truth: Ada takes 2
	do(engine.Command{Move: engine.MovePlay, Seat: 0, Cards: cards(t, "5D")})
	passAll(5)
	do(engine.Command{Move: engine.MovePlay, Seat: 1, Cards: cards(t, "6C")})
	passAll(6)
	do(engine.Command{Move: engine.MovePlay, Seat: 2, Cards: cards(t, "7H")})
	passAll(7)
	do(engine.Command{Move: engine.MovePlay, Seat: 3, Cards: cards(t, "8D", "8S", "3S"), Claim: 1}) // 2 sneaked
	passAll(8)

	h, end, err := GameHighlights(cfg, steps)
	if err != nil {
		t.Fatal(err)
	}
	if end.Plays() != 8 {
		t.Fatalf("replayed %d plays", end.Plays())
	}
	want := Highlights{
		Call:  &BestCall{No: 2, Caller: 2, Liar: 1, Claim: 2, Rank: 1, Pile: 6, Sneaky: true},
		Sneak: &BoldSneak{No: 8, Seat: 3, Sneaked: 2, Claim: 1, Rank: 7},
	}
	if !reflect.DeepEqual(h, want) {
		t.Fatalf("highlights %+v %+v, want %+v %+v", h.Call, h.Sneak, want.Call, want.Sneak)
	}
	text := ShareText(ShareGame{Table: "Kitchen", Rules: rules, Names: []string{"Ada", "Ben", "Cleo", "Dev"},
		Bots: []bool{false, true, true, false}, Places: []int{1, 2, 3, 4}, Winner: 0, Plays: 8, High: &h})
	for _, s := range []string{
		"Best call: Cleo's “Bullshit!” on Ben's 2 twos (play 2): a sneak, caught, and Ben took the pile of 6 cards.",
		"Boldest sneak that stood: Dev slipped 2 cards under “1 eight” (play 8), never caught.",
		"  1st  Ada         seat 1", "  2nd  Ben (bot)   seat 2",
	} {
		if !strings.Contains(text, s) {
			t.Errorf("share text lacks %q:\n%s", s, text)
		}
	}
}

// S on the sheet writes the game out to the profile and the clipboard,
// and says where; the text reads back, and holds against the game as the
// host revealed it (the saved game `bullshit verify` takes). A text with
// a place changed doesn't.
func TestShareFromTheSheet(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, opts{seats: 4, seed: 7, plain: true, dir: dir})
	h.ts.Evening = table.Evening{Games: 1, Lines: []table.EveningLine{
		{Key: "seat:0", Name: "Ada", Games: 1, Wins: 1, Halves: 6, Places: []int{1}},
		{Key: "bot:1:medium", Name: "Ben", Bot: "medium", Games: 1, Halves: 4, Places: []int{2}},
	}}
	playToEnd(t, h)
	h.send(updateMsg{sess: h.sess, u: table.Update{Audit: &table.AuditResult{Verified: true}}, at: h.local})
	h.has("S share")
	h.press("s")
	var clip string
	for _, m := range h.last {
		if v := reflect.ValueOf(m); v.Kind() == reflect.String && strings.HasSuffix(reflect.TypeOf(m).String(), "setClipboardMsg") {
			clip = v.String()
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, SharedDir, "*.txt"))
	if len(files) != 1 {
		t.Fatalf("files written: %v", files)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	if clip != text {
		t.Fatalf("the clipboard got %q, the file %q", clip, text)
	}
	h.has("Written to", "shared", "copied to the clipboard where the terminal allows (OSC 52)")
	checkFits(t, h)
	for _, s := range []string{"bullshit · Kitchen · standard · 4 seats", " won, in ", "seat 1", "seat 4",
		"Best call:", "The evening: 1 game.", "3 for 1st down to 0 for last", "Deal verified ✔", "game 07"} {
		if !strings.Contains(text, s) {
			t.Errorf("share text lacks %q:\n%s", s, text)
		}
	}
	f, err := ParseShare(text)
	if err != nil {
		t.Fatal(err)
	}
	saved := journal.SavedGame{Config: h.cfg, Commitment: h.ts.Commit, Steps: h.steps}
	if p := CheckShare(saved, f); len(p) != 0 {
		t.Fatalf("the share text doesn't hold against its own game: %v\n%s", p, text)
	}
	// Two places swapped.
	var first, second int
	for s, p := range f.Places {
		switch p {
		case 1:
			first = s
		case 2:
			second = s
		}
	}
	f.Places[first], f.Places[second] = 2, 1
	if p := CheckShare(saved, f); len(p) < 2 {
		t.Fatalf("swapped places pass: %v", p)
	}
	// Another game's text.
	other := saved
	other.Commitment[5]++
	if p := CheckShare(other, f); len(p) != 1 || !strings.Contains(p[0], "another game") {
		t.Fatalf("another game: %v", p)
	}
}

// The share text names the file to check it with: the game this program
// saved, or, where it saved none (it hosted), where a player's is.
func TestShareTextNamesTheSavedGame(t *testing.T) {
	g := ShareGame{Table: "Den", Rules: engine.Standard(), Names: []string{"Ada", "Ben"}, Bots: []bool{false, true},
		Places: []int{1, 2}, Winner: 0, Left: []int{0, 3}, Plays: 9, You: 0, Saved: "/home/ada/.config/bullshit/games/game-1-seat1.json"}
	if text := ShareText(g); !strings.Contains(text, "bullshit verify /home/ada/.config/bullshit/games/game-1-seat1.json THIS-FILE") {
		t.Errorf("the share text doesn't name the saved game:\n%s", text)
	}
	g.Saved = ""
	if text := ShareText(g); !strings.Contains(text, "a player's saved game (in their profile's games/)") {
		t.Errorf("with no game saved here, the share text says:\n%s", text)
	}
}
