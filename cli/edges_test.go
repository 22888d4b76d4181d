package cli

import (
	"errors"
	"testing"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node"
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
	h.send(updateMsg{sess: h.sess, u: node.Update{Notice: "Host left; Ada is now hosting."}, at: h.local})
	h.send(updateMsg{sess: h.sess, u: node.Update{Audit: &node.AuditResult{Verified: true}}, at: h.local})
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

	g, deal, err := engine.New(engine.Config{Rules: engine.Standard(), Seats: 3, Seed: 8})
	if err != nil {
		t.Fatal(err)
	}
	h.g = g
	h.deliver(deal)
	h.has("first play", "Your hand")
	h.lacks("Game over", "deal verified")
}
