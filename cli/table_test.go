package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/bullshit-game/bullshit/cli/rating"
	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/enginetest"
	"github.com/bullshit-game/bullshit/node/table"
)

var cards = enginetest.Cards

func seat(n int) *int { return &n }

// fixedHands are four hands of 13 for a table of four: you (seat 0) hold
// three kings.
func fixedHands(t *testing.T) [][]engine.Card {
	return [][]engine.Card{
		cards(t, "AS", "AH", "2C", "3D", "5D", "7S", "7C", "9H", "JD", "QS", "KS", "KH", "KC"),
		cards(t, "AC", "2D", "2H", "3C", "4C", "4D", "5C", "6C", "6D", "8C", "9C", "10C", "JC"),
		cards(t, "AD", "2S", "3H", "4H", "5H", "6H", "7H", "8H", "9D", "10H", "JH", "QH", "KD"),
		cards(t, "3S", "4S", "5S", "6S", "7D", "8D", "8S", "9S", "10D", "10S", "JS", "QC", "QD"),
	}
}

// The table screen in 80×24 during a call window shows the seats and their
// hand sizes, the rank, the pile, the claim, the countdown, your hand and
// the dock's keys, and nothing runs off the screen.
func TestTableScreenCallWindow80x24(t *testing.T) {
	h := newHarness(t, opts{hands: fixedHands(t), first: seat(1), plain: true})
	// Ben (seat 1) plays two cards as aces.
	h.apply(engine.Command{Move: engine.MovePlay, Seat: 1, Cards: cards(t, "AC", "2D"), Rank: engine.NoRank})
	h.wait(2200 * time.Millisecond)
	s := h.screen()
	lines := strings.Split(s, "\n")
	if len(lines) != 24 {
		t.Errorf("%d lines, want 24", len(lines))
	}
	for i, l := range lines {
		if width(l) > 80 {
			t.Errorf("line %d is %d wide: %q", i, width(l), l)
		}
	}
	h.has("Kitchen", "play 1", "Ben", "bot·medium", "Cleo", "Dev", "11 cards", "13 cards",
		"“2 aces”", "Rank called  ACES", "next: twos", "Pile  2 cards", "Ben claims 2 aces", "Ben's hand 13 → 11 · pile 0 → 2",
		"3.8 s to call", "Your hand · 13", "A♠", "K♣", "G  Let it go", "B  BULLSHIT!", "? help", "Q leave")
	if !strings.Contains(s, "███") || !strings.Contains(s, "░") {
		t.Errorf("no countdown bar:\n%s", s)
	}
	// Seats run from your left (Ben) round to your right (Dev).
	if i, j := strings.Index(s, "Ben"), strings.Index(s, "Dev"); i < 0 || j < 0 || i > j {
		t.Errorf("seats out of order:\n%s", s)
	}
}

// The bar empties as the window runs out, and the screen says when it has
// closed.
func TestCountdownFollowsTicks(t *testing.T) {
	h := newHarness(t, opts{hands: fixedHands(t), first: seat(1), plain: true})
	h.apply(engine.Command{Move: engine.MovePlay, Seat: 1, Cards: cards(t, "AC"), Rank: engine.NoRank})
	h.has("6.0 s to call")
	h.wait(time.Second)
	h.has("5.0 s to call")
	h.wait(4500 * time.Millisecond)
	h.has("0.5 s to call")
	// Cleo and Dev let it go; the window closes when you do too.
	h.apply(engine.Command{Move: engine.MovePass, Seat: 2, No: 1, Rank: engine.NoRank})
	h.apply(engine.Command{Move: engine.MovePass, Seat: 3, No: 1, Rank: engine.NoRank})
	h.press("g")
	if got := h.sent(); len(got) != 1 || got[0].Move != engine.MovePass || got[0].No != 1 {
		t.Fatalf("sent %+v", got)
	}
	h.has("Cleo to play", "Nobody called: Ben's claim stands.")
	h.lacks("to call")
}

// On your turn the cards of the rank are picked for you; C claims them,
// with the rank left to the engine.
func TestPickAndClaimSendsThePlay(t *testing.T) {
	h := newHarness(t, opts{hands: fixedHands(t), first: seat(0), plain: true})
	h.has("Your turn: claim aces", "[A♠*]", "[A♥*]", "picked 2 · claim 2 aces", "C  Claim 2 aces")
	h.press("c")
	got := h.sent()
	if len(got) != 1 {
		t.Fatalf("sent %d moves", len(got))
	}
	c := got[0]
	if c.Move != engine.MovePlay || c.Seat != 0 || c.Claim != 0 || c.Rank != engine.NoRank ||
		!slices.Equal(engine.Cards(c.Cards), []string{"AH", "AS"}) {
		t.Errorf("sent %+v", c)
	}
	h.has("You claim 2 aces", "Your play is open to a call")
}

// Picking by hand: the cursor, space, and a bluff when you have none.
func TestPickingByHand(t *testing.T) {
	h := newHarness(t, opts{hands: fixedHands(t), first: seat(0), plain: true, prefs: Prefs{NoPick: true}})
	h.has("C  Pick cards to claim")
	// The hand: A♠ A♥ 2♣ 3♦ …; pick 2♣ and 3♦ as aces.
	h.press("right", "right", "space", "right", "up")
	h.has("[2♣]", "[3♦]", "picked 2 · claim 2 aces")
	h.press("left", "down")
	h.has("picked 1")
	h.press("x")
	h.has("C  Pick cards to claim")
	h.press("space", "c")
	got := h.sent()
	if len(got) != 1 || !slices.Equal(engine.Cards(got[0].Cards), []string{"2C"}) {
		t.Fatalf("sent %+v", got)
	}
}

// The twist: S slips picked cards under the claim; the status line says
// whether the counts will show it.
func TestSneakSetsTheClaim(t *testing.T) {
	rules, _ := engine.Preset("twist")
	h := newHarness(t, opts{rules: rules, hands: fixedHands(t), first: seat(0), plain: true})
	h.has("S  Sneak 0")
	// Pick a third card (2♣) besides the aces, and sneak it.
	h.press("right", "right", "space", "s")
	h.has("S  Sneak 1", "picked 3 · claim 2 aces +1 under", "C  Claim 2 aces +1", "[A♥*]")
	// 13 → 10 looks like 11–13 → 9–10, which two cards could do; but the
	// pile goes 0 → 3, and that shows.
	h.has("Sneak 1: your hand 11–13 → 9–10 hides it; the pile may not.")
	h.press("c")
	h.sentClaim(2, 3)
}

// B and G answer the open play by its number.
func TestCallSendsTheOpenPlayNumber(t *testing.T) {
	h := newHarness(t, opts{hands: fixedHands(t), first: seat(1), plain: true})
	h.apply(engine.Command{Move: engine.MovePlay, Seat: 1, Cards: cards(t, "AC"), Rank: engine.NoRank})
	h.apply(engine.Command{Move: engine.MovePass, Seat: 2, No: 1, Rank: engine.NoRank})
	h.apply(engine.Command{Move: engine.MovePass, Seat: 3, No: 1, Rank: engine.NoRank})
	h.press("g")
	h.sent()
	// Cleo plays 2: Dev lets it go, you call.
	h.apply(engine.Command{Move: engine.MovePlay, Seat: 2, Cards: cards(t, "2S", "3H"), Rank: engine.NoRank})
	h.press("b")
	got := h.sent()
	if len(got) != 1 || got[0].Move != engine.MoveCall || got[0].No != 2 || got[0].Seat != 0 {
		t.Fatalf("sent %+v", got)
	}
	// The reveal panel: the shout, the cards, the verdict, the sweep.
	h.has("You: “Bullshit!” on Cleo", "Turned up:  2♠  3♥", "A lie!", "Cleo takes the pile: 3 cards.", "picks up 3")
	// A second B is answered on screen, not sent.
	h.press("b")
	h.sentNothing()
	// The panel stays for the reveal pause, then the table is back.
	h.wait(1500 * time.Millisecond)
	h.has("Turned up")
	h.wait(600 * time.Millisecond)
	if h.app.table.reveal != nil {
		t.Error("the reveal outstayed the pause")
	}
	h.has("Rank called  THREES", "Dev to play")
}

// A call on you that finds the truth: you take the pile, and it says so.
func TestRevealTruthOnYou(t *testing.T) {
	h := newHarness(t, opts{hands: fixedHands(t), first: seat(0), plain: true})
	h.press("c") // A♠ A♥, the truth
	h.sent()
	h.apply(engine.Command{Move: engine.MoveCall, Seat: 2, No: 1, Rank: engine.NoRank})
	h.has("Cleo called it on you: “Bullshit!”", "Turned up:  A♥  A♠", "Truth!", "Cleo takes the pile: 2 cards.", "Bullshit! +2")
}

// The assist: a claim that can't be true, given your hand.
func TestCantBeTrue(t *testing.T) {
	h := newHarness(t, opts{hands: fixedHands(t), first: seat(1), plain: true,
		rules: func() engine.Rules { r := engine.Standard(); r.Start = 12; return r }()})
	h.apply(engine.Command{Move: engine.MovePlay, Seat: 1, Cards: cards(t, "2D", "2H"), Rank: engine.NoRank})
	h.has("Can't be true: you hold 3 of the 4 kings.")
	// Turned off, it says nothing.
	h.app.env.prefs.NoCount = true
	h.lacks("Can't be true")
}

// Under count lies a countable hand that drops more than claimed shows.
func TestCountsShowIt(t *testing.T) {
	rules, _ := engine.Preset("cheat")
	h := newHarness(t, opts{rules: rules, hands: fixedHands(t), first: seat(1), plain: true})
	h.apply(engine.Command{Move: engine.MovePlay, Seat: 1, Cards: cards(t, "2D", "2H", "3C"), Claim: 1, Rank: engine.NoRank})
	h.has("Counts show it: Ben's hand went 13 → 10 for 1 ace claimed.")
}

// The result sheet: places, cards left, sneaks revealed, caught, calls,
// and the audit.
func TestResultSheet(t *testing.T) {
	h := newHarness(t, opts{seats: 3, seed: 7, plain: true, w: 100, h: 30})
	for i := 0; i < 2000 && !h.g.Over(); i++ {
		h.botsPlay(1)
		if h.g.Over() {
			break
		}
		v := h.g.View(h.you)
		if c, ok := botMove(v, h.you); ok {
			h.apply(c)
		} else if d, ok := h.g.Deadline(); ok {
			h.wait(d - h.now)
		}
	}
	if !h.g.Over() {
		t.Fatal("the game did not end")
	}
	h.has("Game over ·", "plays", "checking the deal…", "Place", "Player", "Cards left", "Sneaked", "Caught",
		"Calls right/made", "1st", "Ben", "Cleo", "L lobby", "Q quit", "N new game with the same seats")
	h.send(updateMsg{sess: h.sess, u: table.Update{Audit: &table.AuditResult{Verified: true}}, at: h.local})
	h.has("deal verified ✔")
	h.send(updateMsg{sess: h.sess, u: table.Update{Audit: &table.AuditResult{Problems: []string{"seat 2's hand doesn't match the commitment"}}}, at: h.local})
	h.has("deal NOT verified ✘", "seat 2's hand doesn't match")
	// A blind table's audit names a node in its notes: the sheet says so.
	h.send(updateMsg{sess: h.sess, u: table.Update{Audit: &table.AuditResult{Verified: true,
		Notes: []string{"Rook's node didn't turn its called play up in time: the others turned it up."}}}, at: h.local})
	h.has("deal verified ✔", "Rook's node didn't turn its called play up in time")
	h.press("n")
	if c := h.sess.controls; len(c) != 1 || c[0] != "again" {
		t.Fatalf("controls %v", c)
	}
	// The host deals again: the table is back, with no sheet left over.
	h.newGame(engine.Config{Rules: engine.Standard(), Seats: 3, Seed: 8})
	h.has("first play", "Your hand")
	h.lacks("Game over")
}

// News from the table shows as a short notice; a refusal as a sentence,
// and neither loses the table.
func TestNoticeAndRefusal(t *testing.T) {
	h := newHarness(t, opts{hands: fixedHands(t), first: seat(1), plain: true})
	h.send(updateMsg{sess: h.sess, u: table.Update{Notice: "Ada left; Ben is now hosting."}, at: h.local})
	h.has("Ada left; Ben is now hosting.", "Your hand · 13", "Ben to play")
	h.send(updateMsg{sess: h.sess, u: table.Update{Refusal: &engine.Refusal{Code: engine.CodeTooLate, Msg: "Too late: that play was already settled."}}, at: h.local})
	h.has("Too late: that play was already settled.", "Your hand · 13")
	h.wait(6 * time.Second)
	h.lacks("Too late")
	// A remote seat's news comes on the last view with no clock: the
	// countdown keeps running.
	h.apply(engine.Command{Move: engine.MovePlay, Seat: 1, Cards: cards(t, "AC"), Rank: engine.NoRank})
	h.wait(time.Second)
	h.send(updateMsg{sess: h.sess, u: table.Update{View: h.g.View(0), Table: h.ts, Notice: "Lost the host: reconnecting…"}, at: h.local})
	h.has("Lost the host: reconnecting…", "5.0 s to call")
	h.wait(time.Second)
	h.has("4.0 s to call")
	u := h.update(nil)
	u.Notice = "Ben is back."
	h.send(updateMsg{sess: h.sess, u: u, at: h.local})
	h.has("Ben is back.")
}

// NO_COLOR: not one escape code on screen. With colour there are some.
func TestNoColorHasNoEscapes(t *testing.T) {
	for _, plain := range []bool{true, false} {
		h := newHarness(t, opts{hands: fixedHands(t), first: seat(0), plain: plain})
		s := h.app.render()
		if got := strings.Contains(s, "\x1b"); got == plain {
			t.Errorf("plain=%v: escape codes %v", plain, got)
		}
		h.press("?")
		if got := strings.Contains(h.app.render(), "\x1b"); got == plain {
			t.Errorf("help, plain=%v: escape codes %v", plain, got)
		}
	}
}

// The bell rings when your turn comes and at 2 s left to call, and not
// when it's turned off.
func TestBell(t *testing.T) {
	for _, off := range []bool{false, true} {
		h := newHarness(t, opts{hands: fixedHands(t), first: seat(3), plain: true, noBell: off})
		h.apply(engine.Command{Move: engine.MovePlay, Seat: 3, Cards: cards(t, "3S"), Rank: engine.NoRank})
		h.wait(3900 * time.Millisecond)
		if rings(h.last) {
			t.Errorf("off=%v: rang at 2.1 s", off)
		}
		h.wait(200 * time.Millisecond)
		if rings(h.last) == off {
			t.Errorf("off=%v: bell at 2 s left: %v", off, rings(h.last))
		}
		h.wait(2 * time.Second) // the window closes: your turn
		if rings(h.last) == off {
			t.Errorf("off=%v: bell on your turn: %v", off, rings(h.last))
		}
	}
}

// First-run hints show once, are remembered in the profile directory, and
// a new start doesn't show them again.
func TestHintsShownOnceAndPersisted(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, opts{hands: fixedHands(t), first: seat(0), plain: true, dir: dir, hints: map[string]bool{}})
	h.has("Your move: pick cards (← → and space), then C to claim.")
	got, err := LoadHints(dir)
	if err != nil || !got[HintClaim] {
		t.Fatalf("hints.json: %v %v", got, err)
	}
	h.press("c")
	h.sent()
	h.lacks("Your move:")
	// The first call window.
	h.apply(engine.Command{Move: engine.MovePass, Seat: 1, No: 1, Rank: engine.NoRank})
	h.apply(engine.Command{Move: engine.MovePass, Seat: 2, No: 1, Rank: engine.NoRank})
	h.apply(engine.Command{Move: engine.MovePass, Seat: 3, No: 1, Rank: engine.NoRank})
	h.apply(engine.Command{Move: engine.MovePlay, Seat: 1, Cards: cards(t, "2D"), Rank: engine.NoRank})
	h.has("B shouts Bullshit!, G lets it go")
	if got, _ := LoadHints(dir); !got[HintWindow] {
		t.Fatalf("hints.json: %v", got)
	}

	hints, _ := LoadHints(dir)
	h2 := newHarness(t, opts{hands: fixedHands(t), first: seat(0), plain: true, dir: dir, hints: hints})
	h2.lacks("Your move:")
}

// Help lists every key and switches the assists, remembered in settings.json.
func TestHelpAndAssists(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, opts{hands: fixedHands(t), first: seat(0), plain: true, dir: dir, w: 90, h: 30})
	h.press("?")
	h.has("C  claim", "S  sneak", "B  Bullshit!", "G  let it go", "D  doubt", "V  believe", "K  skip", "O  sort",
		"Q  leave", "H  hand it over", "4  four of a kind", "R  rank", "1  Light up the rank called", "This table: standard")
	h.press("2")
	h.has("2  Pick them for me")
	p, _ := LoadPrefs(dir)
	if !p.NoPick {
		t.Fatalf("settings.json: %+v", p)
	}
	h.press("z")
	h.has("Your hand")
}

// Q asks first; Y leaves and closes the session.
func TestLeaveConfirms(t *testing.T) {
	h := newHarness(t, opts{hands: fixedHands(t), first: seat(0), plain: true})
	h.press("q")
	h.has("Leave the table?", "Y  leave", "N  stay")
	h.press("n")
	h.lacks("Leave the table?")
	h.press("q", "y")
	if !h.sess.closed {
		t.Fatal("session not closed")
	}
	if h.app.screen != scrLobby {
		t.Fatalf("screen %d", h.app.screen)
	}
}

// O sorts by the turn you'll be asked for each rank.
func TestSortSoonest(t *testing.T) {
	h := newHarness(t, opts{hands: fixedHands(t), first: seat(1), plain: true})
	// Ben plays aces (play 1); you play play 4: fours, then (4 seats) eights, queens…
	h.press("o")
	h.has("Hand sorted soonest asked first")
	row := h.handRow()
	// You play 4th: fours (none), eights (none), queens, threes, sevens…
	if f := strings.Fields(row); len(f) < 2 || f[0] != "Q♠" || f[1] != "3♦" {
		t.Errorf("hand row %q", row)
	}
}

// handRow is the first row of cards.
func (h *harness) handRow() string {
	lines := strings.Split(h.screen(), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, " Your hand") && i+1 < len(lines) {
			return lines[i+1]
		}
	}
	return ""
}

// The host ending the game early: the sheet says so, with no places.
func TestEndedEarly(t *testing.T) {
	h := newHarness(t, opts{hands: fixedHands(t), first: seat(1), plain: true})
	u := h.update(nil)
	u.Table.Phase = "over"
	u.Notice = "The host ended the game early."
	h.send(updateMsg{sess: h.sess, u: u, at: h.local})
	h.has("Game ended early after 0 plays", "The host ended the game before anyone won.", "Place", "–", "13", "The host ended the game early.")
	h.lacks("0th")
}

// A call on the game's last play is revealed like any other, for the
// host's pause, and only then comes the sheet, which says how the game
// ended (it once jumped from the window to the sheet in a tenth of a
// second, the cards never shown).
func TestLastCallRevealedBeforeTheSheet(t *testing.T) {
	hands := [][]engine.Card{
		cards(t, "2C", "3C", "4C"),
		cards(t, "AC"),
		cards(t, "5D", "6D"),
		cards(t, "7H", "8H"),
	}
	h := newHarness(t, opts{hands: hands, first: seat(1), plain: true})
	h.apply(engine.Command{Move: engine.MovePlay, Seat: 1, Cards: cards(t, "AC"), Rank: engine.NoRank})
	h.press("b")
	got := h.sent()
	if len(got) != 1 || got[0].Move != engine.MoveCall {
		t.Fatalf("sent %+v", got)
	}
	if !h.g.Over() {
		t.Fatal("the game should be over: Ben went out with the truth")
	}
	h.has("Turned up:  A♣", "Truth!", "Game over: the result follows the cards.")
	h.lacks("Game over ·")
	h.wait(2100 * time.Millisecond)
	h.has("Game over ·", "Ben wins.", "Last call:", "Truth!")
	// The call's lines stand one under the other, as the panel showed
	// them, not run together on one line.
	lines := strings.Split(h.screen(), "\n")
	at := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, "Last call:") })
	if at < 0 || at+2 >= len(lines) || strings.Contains(lines[at], "Turned up") ||
		!strings.Contains(lines[at+1], "Turned up:  A♣") || !strings.Contains(lines[at+2], "Truth!") {
		t.Errorf("the sheet's last call:\n%s", strings.Join(lines[max(at, 0):min(max(at, 0)+4, len(lines))], "\n"))
	}
}

// At 80 columns the title keeps what the table is and where the game
// is (its preset and play), giving way with the host's words and then
// the web address (W and the waiting room show them).
func TestTitleAt80Columns(t *testing.T) {
	h := newHarness(t, opts{seats: 4, seed: 7, plain: true, h: 30, w: 80})
	h.ts.Web, h.ts.Words = "http://192.168.1.20:8080", "maple-otter-lunar"
	h.deliver(nil)
	h.has(" Kitchen · standard · first play ", "? help  Q leave")
	h.app.Update(tea.WindowSizeMsg{Width: 140, Height: 30})
	h.has("Kitchen · maple-otter-lunar · standard · first play", "http://192.168.1.20:8080  W QR")
}

// I at the table shows how to play this table, over the game: it says
// when your turn comes, the game goes on behind it, and I or Esc goes
// back to the table as it is now. The sheet has it too.
func TestRulesScreenAtTheTable(t *testing.T) {
	rules, _ := engine.Preset("twist")
	h := newHarness(t, opts{rules: rules, seats: 4, hands: fixedHands(t), first: seat(3), plain: true})
	h.has("I rules")
	h.press("i")
	h.has("How to play · twist · 4 seats", "Sneak:", "The game goes on behind this screen; I goes back to the table.", "▼ ")
	h.lacks("Rank called")
	checkFits(t, h)
	// Dev plays: the window is open to you, then your turn comes, both
	// said over the rules; a key there is the rules screen's.
	h.apply(engine.Command{Move: engine.MovePlay, Seat: 3, Cards: cards(t, "3S"), Rank: engine.NoRank})
	h.has("▸ A play is open to call — press I to go back to the table")
	h.press("g")
	if got := h.sess.takeSent(); len(got) != 0 {
		t.Fatalf("a key on the rules screen played: %+v", got)
	}
	h.wait(7 * time.Second)
	h.has("▸ Your turn — press I to go back to the table")
	h.press("pgdown", "pgdown")
	h.has("Keys  ", "(the end)")
	checkFits(t, h)
	h.press("esc")
	h.has("Rank called", "Your hand")
	h.lacks("How to play")

	// Q on the rules screen goes back, never leaves the table.
	h.press("i", "q")
	h.has("Your hand")
	if h.app.table == nil || h.app.table.confirm {
		t.Fatal("Q on the rules screen asked to leave the table")
	}
}

// The sheet rates the game once the deal is verified, and shows each
// seat's change: "+31 (1531)" for you, "fixed" for a bot, "not rated"
// with why for a person it can't rate. The profile keeps it; the same
// game shown again records nothing new.
func TestResultSheetRatings(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, opts{seats: 4, seed: 7, you: 1, plain: true, dir: dir})
	playToEnd(t, h)
	h.has("Rating", "…")
	if _, err := os.Stat(filepath.Join(dir, rating.File)); err == nil {
		t.Fatal("rated before the deal was verified")
	}
	h.send(updateMsg{sess: h.sess, u: table.Update{Audit: &table.AuditResult{Verified: true}}, at: h.local})
	h.has("deal verified ✔", "fixed", "Not rated: Ada (not known by peer ID).")
	if !regexp.MustCompile(`You +.*[+-]\d+ \(1\d{3}\)`).MatchString(h.screen()) {
		t.Errorf("no rating change for you:\n%s", h.screen())
	}
	checkFits(t, h)
	s, err := rating.Load(dir)
	if err != nil || s.Tally.Games != 1 || s.Me == nil {
		t.Fatalf("the profile's ratings: %+v, %v", s, err)
	}
	before := *s.Me
	// The audit again (a reconnection's): nothing recorded twice.
	h.send(updateMsg{sess: h.sess, u: table.Update{Audit: &table.AuditResult{Verified: true}}, at: h.local})
	if s, _ := rating.Load(dir); s.Tally.Games != 1 || *s.Me != before {
		t.Fatalf("recorded twice: %+v", s.Tally)
	}

	// The next game, with a bot covering you for a while: not rated.
	h.newGame(engine.Config{Rules: engine.Standard(), Seats: 4, Seed: 8})
	h.lacks("Rating")
	h.ts.Seats[1].Covered = true
	for i := 0; i < 400 && h.app.table.covered[1] <= rating.MaxCovered && !h.g.Over(); i++ {
		if c, ok := botMove(h.g.View(1), 1); ok && c.Move == engine.MovePlay {
			h.apply(c)
		} else {
			h.botsPlay(1)
			if d, ok := h.g.Deadline(); ok {
				h.wait(d - h.now)
			}
		}
	}
	h.ts.Seats[1].Covered = false
	playToEnd(t, h)
	h.send(updateMsg{sess: h.sess, u: table.Update{Audit: &table.AuditResult{Verified: true}}, at: h.local})
	h.has("Not rated: Ada (not known by peer ID); You (a bot covered this seat).")
	if s, _ := rating.Load(dir); s.Tally.Games != 2 || *s.Me != before {
		t.Fatalf("a covered game moved your rating: %+v", s)
	}
}

// A deal that doesn't verify rates nobody, and a screen with no profile
// has no rating column.
func TestResultSheetNotVerifiedNotRated(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, opts{seats: 3, seed: 7, plain: true, dir: dir})
	playToEnd(t, h)
	h.send(updateMsg{sess: h.sess, u: table.Update{Audit: &table.AuditResult{Problems: []string{"seat 2's hand doesn't match"}}}, at: h.local})
	h.has("Rating", "not rated", "Not rated: the deal was not verified.")
	if _, err := os.Stat(filepath.Join(dir, rating.File)); err == nil {
		t.Fatal("an unverified game was recorded")
	}
	h = newHarness(t, opts{seats: 3, seed: 7, plain: true})
	playToEnd(t, h)
	h.send(updateMsg{sess: h.sess, u: table.Update{Audit: &table.AuditResult{Verified: true}}, at: h.local})
	h.lacks("Rating", "not rated")
}

// The evening's score: on the sheet a line a player, most points first,
// under the rule of the points; you are "You" by your key; at ten seats on
// 80×24 it closes up into a line or two rather than run off the screen.
// The waiting room shows it too.
func TestEveningOnTheSheet(t *testing.T) {
	ev := table.Evening{Games: 2, Lines: []table.EveningLine{
		{Key: "bot:1:medium", Name: "Ben", Bot: "medium", Games: 2, Wins: 1, Halves: 7, Places: []int{2, 1}},
		{Key: "seat:0", Name: "Ada", Games: 2, Wins: 1, Halves: 9, Places: []int{1, 2}},
		{Key: "peer:P-eve", Name: "Eve", Games: 1, Halves: 0, Places: []int{4}},
	}}
	h := newHarness(t, opts{seats: 4, seed: 7, plain: true})
	h.ts.Evening = ev
	playToEnd(t, h)
	h.has("The evening · 2 games · 3 points for 1st down to 0 for last; ties share",
		"You ", "4½ pts", "1 win", "places 1 2", "Ben bot", "3½ pts", "Eve", "0 pts", "places 4 (1 of 2 games)")
	if s := h.screen(); strings.Index(s, "4½ pts") > strings.Index(s, "3½ pts") {
		t.Errorf("not most points first:\n%s", s)
	}
	checkFits(t, h)

	h = newHarness(t, opts{seats: 10, seed: 3, plain: true})
	names := []string{"Ada", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jun"}
	h.ts.Evening = table.Evening{Games: 3}
	for i, n := range names {
		h.ts.Evening.Lines = append(h.ts.Evening.Lines, table.EveningLine{Key: table.SeatKey(i, h.ts.Seats[i]), Name: n,
			Bot: h.ts.Seats[i].Bot, Games: 3, Halves: 2 * i, Places: []int{10 - i, 10 - i, 10 - i}})
	}
	playToEnd(t, h)
	h.has("The evening · 3 games · 9 points for 1st down to 0 for last; ties share", "Jun 9 · Ivo 8")
	checkFits(t, h)

	// The waiting room.
	h = newHarness(t, opts{seats: 4, seed: 7, plain: true})
	h.ts.Evening = ev
	h.ts.Phase = "waiting"
	h.send(updateMsg{sess: h.sess, u: table.Update{Table: h.ts}, at: h.local})
	h.has("waiting for players", "The evening · 2 games", "4½ pts")
	checkFits(t, h)
}

// The host ends the game from the table (README: the host's end game):
// E asks first, Y sends it, anything else plays on; a player's E says
// only the host may.
func TestHostEndsTheGame(t *testing.T) {
	h := newHarness(t, opts{seats: 4, seed: 7, plain: true}) // seat 0, Ada, hosts
	h.press("e")
	h.has("End the game now, for everyone?")
	h.press("n")
	h.lacks("End the game now")
	if len(h.sess.controls) != 0 {
		t.Fatalf("N sent %v", h.sess.controls)
	}
	h.press("e", "y")
	h.controlled("E Y", 1, "end")
	h.press("?")
	h.has("The host     E  end the game now", "A  a bot plays a seat")
	h.press("?")
	// A, then the seat's number: a bot plays Ben's seat.
	h.press("a")
	h.has("Which seat does a bot play until its person moves again? 1–4")
	h.press("2")
	h.controlled("A 2", 2, "bot 2")
	h.press("a", "x")
	if len(h.sess.controls) != 2 {
		t.Fatalf("A X sent %v", h.sess.controls)
	}

	p := newHarness(t, opts{seats: 4, seed: 7, plain: true, you: 1})
	p.press("e")
	p.has("Only the host can end the game.")
	p.lacks("End the game now")
}

// The host's waiting room shows the join code it chose and who watches.
func TestWaitingRoomShowsCodeAndWatchers(t *testing.T) {
	h := newHarness(t, opts{seats: 4, seed: 7, plain: true, h: 30, w: 80})
	h.ts.Phase, h.ts.Code, h.ts.Watchers = "waiting", "774829", []string{"Cleo", ""}
	h.send(updateMsg{sess: h.sess, u: table.Update{Table: h.ts}, at: h.local})
	h.has("Join code: 774829", "Watching: Cleo, someone")
	checkFits(t, h)
}

// The host pauses the game with P and goes on with P: the table says it
// is paused on every screen, the countdown stands still while it is, and a
// player's P says only the host may.
func TestHostPausesTheGame(t *testing.T) {
	h := newHarness(t, opts{hands: fixedHands(t), first: seat(1), plain: true}) // seat 0, Ada, hosts
	h.apply(engine.Command{Move: engine.MovePlay, Seat: 1, Cards: cards(t, "AC"), Rank: engine.NoRank})
	h.has("6.0 s to call")
	h.press("p")
	h.controlled("P", 1, "pause")
	h.ts.Paused = true
	h.deliver(nil)
	h.has("⏸ Paused by the host.", "Paused by the host. P goes on.", "6.0 s to call")
	h.local = h.local.Add(3 * time.Second) // the host's clock stands; ours runs
	h.send(tickMsg{h.local})
	h.has("6.0 s to call", "Paused by the host.")
	checkFits(t, h)
	h.press("?")
	h.has("P  pause the game, and go on")
	h.press("?")
	h.press("p")
	h.controlled("P again", 2, "pause")
	h.ts.Paused = false
	h.deliver(nil)
	h.lacks("Paused by the host")
	h.wait(time.Second)
	h.has("5.0 s to call")

	p := newHarness(t, opts{hands: fixedHands(t), first: seat(1), plain: true, you: 1})
	p.press("p")
	p.has("Only the host can pause the game.")
	if len(p.sess.controls) != 0 {
		t.Fatalf("a player's P sent %v", p.sess.controls)
	}
	p.ts.Paused = true
	p.deliver(nil)
	p.has("Paused by the host.")
	p.lacks("P goes on")
}

// At a blind table a bot runs on a player's node, which knows its cards:
// the seat says whose, and a covering bot says it too.
func TestSeatSaysWhoseNodeRunsItsBot(t *testing.T) {
	e := &env{st: newStyles(true), w: 80, h: 24}
	tm := newTable(e, nil)
	tm.have = true
	tm.u.Table.You = 0
	tm.u.Table.Seats = []table.SeatInfo{{Name: "Ada"}, {Name: "Ben", Bot: "medium", RunBy: "Cleo"}, {Name: "Cleo"},
		{Name: "Dev", Covered: true, RunBy: "Ada"}, {Name: "Eve", Bot: "hard"}}
	tm.u.View.Hands = make([]engine.Count, 5)
	v := &tm.u.View
	for s, want := range map[int]string{1: "bot·medium on Cleo's", 3: "bot covering on Ada's", 4: "bot·hard"} {
		line1, _, _ := tm.seatCell(v, s, 40)
		if !strings.Contains(line1, want) {
			t.Errorf("seat %d reads %q, want %q in it", s, line1, want)
		}
	}
	if line1, _, _ := tm.seatCell(v, 4, 40); strings.Contains(line1, " on ") {
		t.Errorf("a bot of the host's own reads %q: it names no node", line1)
	}
}
