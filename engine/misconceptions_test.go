package engine_test

import (
	"testing"

	"github.com/bullshit-game/bullshit/engine"
)

// TestMisconceptions pins every item of seed 000 §12, "Common Misconceptions
// and Clarifications", one row an item, each with the rule that settles it.
func TestMisconceptions(t *testing.T) {
	for _, tc := range []struct {
		rule, item string
		test       func(t *testing.T)
	}{
		{"R6", "The claimed quantity always equals the number of cards actually placed; only the rank claim can be a lie", func(t *testing.T) {
			s := run(t, std3(t), "0 play AS AC claim=1 => bad_count", "0 play AS AC claim=3 => bad_count", "0 play KD 5C")
			check(t, "claim is the count", s.must("play").Claim, 2)
			s.do("1 call 1")
			check(t, "a lie about the rank", s.must("reveal").Truth, false)
		}},
		{"R7", "A player with zero cards of the required rank must still play (forced bluff): there is no pass", func(t *testing.T) {
			// At play 5 (fives) seat 1 holds no five.
			s := run(t, std3(t), "0 play AS", "tick 6", "1 play 2C", "tick 12", "2 play 3C", "tick 18", "0 play 4S", "tick 24")
			check(t, "seat 1 must play", s.g.Turn(), 1)
			check(t, "fives", s.g.View(1).Rank, rank("5"))
			s.do("1 pass 4 => too_late", "1 skip => not_allowed", "tick 100")
			check(t, "still seat 1's turn", s.g.Turn(), 1)
			check(t, "still to play", s.g.Phase(), engine.PhasePlay)
			s.do("1 play 9C")
		}},
		{"R10", "Only the most recently played cards are revealed on a challenge, never the pile's history", func(t *testing.T) {
			s := run(t, std3(t), "0 play AS AC", "tick 6", "1 play 7D", "2 call 2")
			check(t, "revealed", str(s.must("reveal").Cards), "7D")
			for _, e := range s.events {
				if e.Public() && e.Type != "reveal" && len(e.Cards) > 0 {
					t.Errorf("%s shows %v", e.Type, e.Cards)
				}
			}
		}},
		{"R10", "The entire pile, not just the challenged cards, goes to whoever loses the challenge", func(t *testing.T) {
			s := run(t, std3(t), "0 play AS AC", "tick 6", "1 play 7D", "2 call 2")
			check(t, "took", s.must("take").Count, engine.Exact(3))
			check(t, "liar's hand", hand(s.g, 1), "AC AS 2C 2H 7D 8S 9C 10H")
			check(t, "pile", s.g.PileSize(), 0)
		}},
		{"R11", "Turn order always advances to the next player, whoever challenged or picked up: no extra turn, no skipped turn", func(t *testing.T) {
			run(t, std3(t), "0 play AS", "1 call 1").do("1 play 2C")               // the wrong caller still plays next
			run(t, std3(t), "0 play KD", "1 call 1").do("1 play 2C")               // the right caller too
			run(t, std3(t), "0 play KD", "2 call 1").do("1 play 2C")               // and the next seat when a far seat calls
			run(t, std3(t), "0 play KD", "2 call 1", "0 play AS => not_your_turn") // the liar gets no extra turn
		}},
		{"R5", "The forced rank sequence keeps advancing one step every turn, whatever the challenge's outcome", func(t *testing.T) {
			for _, outcome := range []string{"1 call 1", "2 call 1", "tick 6"} {
				s := run(t, std3(t), "0 play KD", outcome)
				check(t, "rank after "+outcome, s.g.View(1).Rank, rank("2"))
				s.do("1 play 2C rank=A => bad_rank", "1 play 2C rank=2")
			}
		}},
		{"R12", "A player can go out and still be challenged on that last play; they win only if it resolves their way or nobody challenges", func(t *testing.T) {
			lie := run(t, table(t, engine.Standard(), 0, "KS", "2C", "3C"), "0 play KS", "1 call 1")
			check(t, "caught going out: no win", lie.g.Winner(), -1)
			check(t, "back in with the pile", lie.g.HandSize(0), 1)
			truth := run(t, table(t, engine.Standard(), 0, "AS", "2C", "3C"), "0 play AS", "1 call 1")
			check(t, "true last play wins", truth.g.Winner(), 0)
		}},
		{"R9", "A player can never challenge their own play", func(t *testing.T) {
			run(t, std3(t), "0 play KD", "0 call 1 => own_play", "tick 6", "0 call 1 => too_late")
		}},
		{"R9", "Once the next player has made their own play, the previous play can no longer be challenged", func(t *testing.T) {
			run(t, std3(t), "0 play KD", "tick 6", "1 play 2C", "2 call 1 => too_late", "0 call 1 => too_late")
			// Under V13 the next play is what closes the window.
			run(t, table(t, rules(t, "standard", "rapid", true), 0, "KD AS", "2C 2D", "3C"), "0 play KD", "1 play 2C", "2 call 1 => too_late")
		}},
		{"R3", "Uneven hand sizes are normal whenever the deck doesn't divide evenly", func(t *testing.T) {
			g, _ := dealt(t, engine.Standard(), 5, 1)
			sizes := map[int]int{}
			for s := 0; s < 5; s++ {
				sizes[g.HandSize(s)]++
			}
			check(t, "hands of 11", sizes[11], 2)
			check(t, "hands of 10", sizes[10], 3)
			// …and the game plays on as normal.
			first := g.Turn()
			run(t, g, itoa(first)+" play "+engine.Cards(g.State().Hands[first][:1])[0], "tick 6")
		}},
		{"R15", "Card counts (not identities) of opponents' hands are public throughout the game", func(t *testing.T) {
			s := run(t, std3(t), "0 play AS AC")
			for seat := 0; seat < 3; seat++ {
				v := s.g.View(seat)
				check(t, "counts", counts(v.Hands), "5 6 6")
				for _, c := range v.Hand {
					if seat != 0 && (c == cards("AS")[0] || c == cards("AC")[0]) {
						t.Errorf("seat %d sees seat 0's card %s", seat, c)
					}
				}
			}
			check(t, "the play's size", s.must("play").Sizes.HandAfter, engine.Exact(5))
		}},
	} {
		t.Run(tc.rule+"/"+tc.item, tc.test)
	}
}
