package cli

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/table"
)

// playToEnd plays the harness's game to its end: the simple bot for every
// seat, the clock run on where nobody moves.
func playToEnd(t *testing.T, h *harness) {
	t.Helper()
	for i := 0; i < 2000 && !h.g.Over(); i++ {
		h.botsPlay(1)
		if h.g.Over() {
			break
		}
		if c, ok := botMove(h.g.View(h.you), h.you); ok {
			h.apply(c)
		} else if d, ok := h.g.Deadline(); ok {
			h.wait(d - h.now)
		}
	}
	if !h.g.Over() {
		t.Fatal("the game did not end")
	}
}

// After a failover this screen hosts: N on the result sheet asks the table
// for a new game, and the sheet keeps its "deal verified" heading until the
// new deal comes — also when the action is refused, which says why in a
// sentence.
func TestAgainKeepsTheVerifiedSheet(t *testing.T) {
	h := newHarness(t, opts{seats: 3, seed: 7, plain: true, w: 100, h: 30})
	playToEnd(t, h)
	h.send(updateMsg{sess: h.sess, u: table.Update{Notice: "Host left; Ada is now hosting."}, at: h.local})
	h.send(updateMsg{sess: h.sess, u: table.Update{Audit: &table.AuditResult{Verified: true}}, at: h.local})
	h.has("deal verified ✔", "N new game with the same seats")

	h.sess.controlErr = errors.New("Only the host can deal a new game.")
	h.press("n")
	h.has("deal verified ✔", "Only the host can deal a new game.")
	h.lacks("checking the deal")

	h.sess.controlErr = nil
	h.press("n")
	if c := h.sess.controls; len(c) != 2 || c[1] != "again" {
		t.Fatalf("controls %v", c)
	}
	h.has("deal verified ✔")
	h.lacks("checking the deal", "Only the host can")

	h.newGame(engine.Config{Rules: engine.Standard(), Seats: 3, Seed: 8})
	h.has("first play", "Your hand")
	h.lacks("Game over", "deal verified")
}

// The twist counts hands and piles roughly, as a table sees them; but your
// own hand is yours to count, and so is a pile of your own cards: your
// play's sizes, the pile, and the pile you take back are exact.
func TestTwistOwnCountsExact(t *testing.T) {
	rules, _ := engine.Preset("twist")
	h := newHarness(t, opts{rules: rules, hands: fixedHands(t), first: seat(0), plain: true, w: 100, h: 30})
	// A♠ A♥ are picked; add 2♣ and 3♦ and claim 4 aces: a lie.
	h.press("right", "right", "space", "right", "space")
	h.has("C  Claim 4 aces")
	h.press("c")
	h.sent()
	h.has("Your hand 13 → 9 · pile 0 → 4", "Pile  4 cards", "Your hand · 9")
	h.lacks("Your hand 11–13", "4–6")
	// Ben calls it: the pile is the four cards you put there.
	h.apply(engine.Command{Move: engine.MoveCall, Seat: 1, No: 1, Rank: engine.NoRank})
	h.has("A lie!", "You take the pile: 4 cards come to your hand.")
	h.lacks("4–6")
	h.wait(2 * time.Second)
	h.has("Your hand · 13", "Pile  0 cards")
	// Ben's play is counted as the table sees it; you put 1 card on it
	// and the pile is rough again.
	h.botsPlay(1)
	h.has("Ben's hand 11–13 → 11–13")

	// Cards a call turns up are counted too: a pile that was empty and a
	// play of four turned up is four cards.
	h = newHarness(t, opts{rules: rules, hands: fixedHands(t), first: seat(3), plain: true})
	h.apply(engine.Command{Move: engine.MovePlay, Seat: 3, Cards: cards(t, "3S", "4S", "5S", "6S"), Claim: 2, Rank: engine.NoRank})
	h.has("Pile  4–6 cards")
	h.press("b")
	h.sent()
	h.has("Dev takes the pile: 4 cards.", "picks up 4")
	h.lacks("4–6")
}

// While a call's cards are shown the host holds every play: the dock
// offers none, C says why, and the line goes once the cards are put away.
func TestNoPlayOfferedDuringReveal(t *testing.T) {
	h := newHarness(t, opts{hands: fixedHands(t), first: seat(3), plain: true})
	// Dev plays before you: you call it, and your turn comes with the reveal.
	h.apply(engine.Command{Move: engine.MovePlay, Seat: 3, Cards: cards(t, "3S"), Rank: engine.NoRank})
	h.press("b")
	h.sent()
	h.has("Turned up", "Your turn is next: the cards are still being shown…")
	h.lacks("C  Claim", "C  Pick")
	h.press("c")
	h.sentNothing()
	h.has("Wait: the cards are still being shown.")
	h.wait(2100 * time.Millisecond)
	if h.app.table.reveal != nil {
		t.Fatal("the reveal outstayed the pause")
	}
	h.lacks("Wait: the cards", "still being shown")
	h.has("C  Claim")
}

// A refusal is about its moment: once the game moves on it goes, and the
// result sheet never shows one from the game.
func TestRefusalDoesNotLinger(t *testing.T) {
	h := newHarness(t, opts{seats: 3, seed: 7, plain: true, w: 100, h: 30})
	refuse := func() {
		u := h.update(nil)
		u.Refusal = &engine.Refusal{Code: engine.CodeNotYourTurn, Msg: "It isn't your turn: Ben plays."}
		h.send(updateMsg{sess: h.sess, u: u, at: h.local})
		h.has("It isn't your turn: Ben plays.")
	}
	refuse()
	h.botsPlay(1)
	h.lacks("It isn't your turn")
	for !h.g.Over() {
		refuse()
		playToEnd(t, h)
	}
	h.has("Game over")
	h.lacks("It isn't your turn")
}

// Help covers the table, but the game goes on behind it: the line under
// it says when a call window is open for you and when your turn comes.
func TestHelpSaysYourTurn(t *testing.T) {
	h := newHarness(t, opts{hands: fixedHands(t), first: seat(3), plain: true})
	h.press("?")
	// The title and the footer say one thing: any key closes help (the
	// footer once said "press ? to go back").
	h.has("Help · keys and assists", "any key closes", "any key goes back")
	h.lacks("Your turn —", "any other key", "press ?")
	h.apply(engine.Command{Move: engine.MovePlay, Seat: 3, Cards: cards(t, "3S"), Rank: engine.NoRank})
	h.has("Help · keys and assists", "▸ A play is open to call — press any key to go back to the table")
	h.wait(6 * time.Second) // nobody calls: your turn
	h.has("Help · keys and assists", "▸ Your turn — press any key to go back to the table")
	h.press("?")
	h.has("Your turn: claim twos")
}

// The claim cap is shown before the press: five picked under a cap of four
// is not offered as a claim, and C says the limit without sending.
func TestClaimLimitShownBeforePress(t *testing.T) {
	h := newHarness(t, opts{hands: fixedHands(t), first: seat(0), plain: true})
	h.has("C  Claim 2 aces")
	// A♠ A♥ are picked; add 2♣ 3♦ 5♦.
	h.press("right", "right", "space", "right", "space", "right", "space")
	h.has("picked 5", "Claim 1 to 4 cards (5 picked)")
	h.lacks("C  Claim 5", "C  Claim")
	h.press("c")
	h.sentNothing()
	h.has("Claim 1 to 4 cards (5 picked).")
	h.press("down")
	h.has("C  Claim 4 aces")

	// The twist: one may go under, so five is a claim of four +1 — once S
	// puts it there.
	rules, _ := engine.Preset("twist")
	h = newHarness(t, opts{rules: rules, hands: fixedHands(t), first: seat(0), plain: true})
	h.press("right", "right", "space", "right", "space", "right", "space")
	h.has("Claim 1 to 4 cards (5 picked): S puts some under")
	h.press("s")
	h.has("C  Claim 4 aces +1")
	h.press("right", "space", "right", "space")
	h.has("Put down 1 to 6 cards (7 picked)")
}

// A long line of news wraps at the screen's edge instead of being cut
// ("(2 sneaked under the claim of …"), in the table talk and in the reveal.
func TestLongNewsWraps(t *testing.T) {
	for _, w := range []int{80, 60} {
		rules, _ := engine.Preset("twist")
		h := newHarness(t, opts{rules: rules, hands: fixedHands(t), first: seat(3), plain: true, w: w, h: 24})
		// Dev claims 2 aces and slips 2 cards under them; you call it.
		h.apply(engine.Command{Move: engine.MovePlay, Seat: 3, Cards: cards(t, "3S", "4S", "5S", "6S"), Claim: 2, Rank: engine.NoRank})
		h.press("b")
		h.sent()
		for _, l := range strings.Split(h.screen(), "\n") {
			if strings.HasSuffix(strings.TrimRight(l, " "), "…") {
				t.Errorf("%d columns: a line is cut: %q\n%s", w, l, h.screen())
			}
		}
		flat := strings.Join(strings.Fields(h.screen()), " ")
		for _, want := range []string{
			// The news, and the reveal: the cards, then the verdict.
			"Caught sneaking! Turned up: 3♠ 4♠ 5♠ 6♠ (2 sneaked under the claim of 2 aces)",
			"Turned up: 3♠ 4♠ 5♠ 6♠ (2 sneaked under the claim of 2 aces) Caught sneaking! Dev takes the pile:",
		} {
			if !strings.Contains(flat, want) {
				t.Errorf("%d columns: screen lacks %q:\n%s", w, want, h.screen())
			}
		}
	}
}
