package cli

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine"
)

// V14: a caller who catches a sneak hands the sneaker a card; the one
// you'd be asked for last is picked for you, and H hands it over.
func TestHandOverAfterCaughtSneak(t *testing.T) {
	rules, _ := engine.Preset("twist")
	h := newHarness(t, opts{rules: rules, hands: fixedHands(t), first: seat(3), plain: true, hints: map[string]bool{}})
	// Dev claims 1 ace and slips 2 cards under it.
	h.apply(engine.Command{Move: engine.MovePlay, Seat: 3, Cards: cards(t, "3S", "4S", "5S"), Claim: 1, Rank: engine.NoRank})
	h.press("b")
	h.sent()
	h.has("Caught sneaking!", "2 sneaked under the claim of 1 ace", "Dev takes the pile")
	h.wait(2 * time.Second) // the reveal pause
	v := h.g.View(0)
	if v.Phase != engine.PhaseGive {
		t.Fatalf("phase %v", v.Phase)
	}
	h.has("Pick a card to hand Dev", "H  Hand over", "You caught a sneak: pick a card to hand over")
	before := slices.Clone(h.app.table.pickedCards(engine.NoRank))
	if len(before) != 1 {
		t.Fatalf("picked %v", before)
	}
	h.press("h")
	got := h.sent()
	if len(got) != 1 || got[0].Move != engine.MoveGive || !slices.Equal(got[0].Cards, before) {
		t.Fatalf("sent %+v", got)
	}
	h.has("You hand Dev a card.")
}

// V15: D, V and K on your turn, C adds cards claimed as the round's rank,
// and a new round lets you name the rank with R.
func TestDoubtModeKeys(t *testing.T) {
	rules, _ := engine.Preset("doubt")
	h := newHarness(t, opts{rules: rules, hands: fixedHands(t), first: seat(0), plain: true})
	h.has("New round: you name it", "R  Rank ▸", "C  Start with")
	// You hold three kings: the rank you hold most of is picked.
	h.has("[K♣*]", "[K♥*]", "[K♠*]", "KINGS")
	h.press("r")
	h.has("R  Rank ▸ aces")
	h.press("r", "r", "r", "r", "r", "r", "r", "r", "r", "r", "r", "r") // round to kings again
	h.has("R  Rank ▸ kings")
	h.press("x", "space", "c") // one card, the A♥, as a king
	got := h.sent()
	if len(got) != 1 || got[0].Rank != 12 || len(got[0].Cards) != 1 {
		t.Fatalf("sent %+v", got)
	}
	// Ben, Cleo and Dev add a king each (the bot just plays).
	h.apply(engine.Command{Move: engine.MovePlay, Seat: 1, Cards: cards(t, "AC"), Rank: engine.NoRank})
	h.apply(engine.Command{Move: engine.MoveSkip, Seat: 2, Rank: engine.NoRank})
	h.apply(engine.Command{Move: engine.MoveSkip, Seat: 3, Rank: engine.NoRank})
	h.has("Round of  KINGS", "D  Doubt", "V  Believe", "K  Skip", "C  Add")
	h.press("d")
	got = h.sent()
	if len(got) != 1 || got[0].Move != engine.MoveDoubt || got[0].No != 2 {
		t.Fatalf("sent %+v", got)
	}
	h.has("You doubt Ben's play", "A lie!")
}

// V1: the rank is yours to name.
func TestFreeRank(t *testing.T) {
	rules, _ := engine.Preset("free")
	h := newHarness(t, opts{rules: rules, hands: fixedHands(t), first: seat(0), plain: true})
	h.has("Your claim  KINGS", "R  Rank ▸ kings", "C  Claim 3 kings")
	h.press("r")
	h.has("R  Rank ▸ aces", "C  Claim 3 aces")
	h.press("c")
	got := h.sent()
	if len(got) != 1 || got[0].Rank != 0 || len(got[0].Cards) != 3 {
		t.Fatalf("sent %+v", got)
	}
}

// V9: 4 lays out a four of a kind.
func TestQuads(t *testing.T) {
	r := engine.Standard()
	r.Quads = true
	hands := fixedHands(t)
	hands[0] = cards(t, "AS", "AH", "2C", "3D", "5D", "7S", "7C", "9H", "JD", "KD", "KS", "KH", "KC")
	hands[2] = cards(t, "AD", "2S", "3H", "4H", "5H", "6H", "7H", "8H", "9D", "10H", "JH", "QH", "QS")
	h := newHarness(t, opts{rules: r, hands: hands, first: seat(0), plain: true})
	h.has("4  Lay out four kings")
	h.press("4")
	got := h.sent()
	if len(got) != 1 || got[0].Move != engine.MoveQuads || len(got[0].Cards) != 4 {
		t.Fatalf("sent %+v", got)
	}
	h.has("You lay four kings out of the game", "Your hand · 9", "4 out of the game")
}

// V12: + and − set the claimed count apart from the cards.
func TestCountLiesClaim(t *testing.T) {
	rules, _ := engine.Preset("cheat")
	h := newHarness(t, opts{rules: rules, hands: fixedHands(t), first: seat(0), plain: true})
	h.has("+ −  claimed count", "C  Claim 2 aces")
	h.press("+")
	h.has("C  Claim 3 aces")
	h.press("c")
	h.sentClaim(3, 2)
}

// V13: the next seat may play over an open window; the dock offers both.
func TestRapidPlay(t *testing.T) {
	r := engine.Standard()
	r.Rapid = true
	h := newHarness(t, opts{rules: r, hands: fixedHands(t), first: seat(3), plain: true})
	h.apply(engine.Command{Move: engine.MovePlay, Seat: 3, Cards: cards(t, "3S"), Rank: engine.NoRank})
	h.has("G  Let it go", "C  Claim 1 two", "B  BULLSHIT!")
	h.press("c")
	got := h.sent()
	if len(got) != 1 || got[0].Move != engine.MovePlay {
		t.Fatalf("sent %+v", got)
	}
}

// A spectator sees every seat and no hand, and can't move.
func TestSpectator(t *testing.T) {
	h := newHarness(t, opts{hands: fixedHands(t), first: seat(1), plain: true, you: -1})
	h.has("watching", "Ada", "Ben", "Cleo", "Dev", "Watching")
	h.lacks("Your hand")
	h.press("b", "c")
	h.sentNothing()
}

// Ten seats and two decks still fit 80×24, and the screen grows with the
// window.
func TestSizes(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {100, 30}, {160, 50}, {60, 20}} {
		h := newHarness(t, opts{seats: 10, seed: 3, plain: true, w: sz[0], h: sz[1]})
		h.botsPlay(5)
		s := h.screen()
		lines := strings.Split(s, "\n")
		if len(lines) != sz[1] {
			t.Errorf("%v: %d lines", sz, len(lines))
		}
		for i, l := range lines {
			if width(l) > sz[0] {
				t.Errorf("%v: line %d is %d wide", sz, i, width(l))
			}
		}
		if !strings.Contains(s, "Your hand") || !strings.Contains(s, "Jun") && sz[0] >= 80 {
			t.Errorf("%v:\n%s", sz, s)
		}
	}
}

// Whole games played with keystrokes against simple bots, under every
// preset and at several table sizes: the client only ever sends moves the
// engine takes, and every screen fits.
func TestWholeGamesByKeys(t *testing.T) {
	for _, preset := range engine.Presets {
		for _, n := range []int{3, 5, 10} {
			t.Run(fmt.Sprintf("%s/%d", preset, n), func(t *testing.T) {
				rules, _ := engine.Preset(preset)
				rules.Window = 2 * time.Second
				h := newHarness(t, opts{rules: rules, seats: n, seed: uint64(n * 31), you: n / 2, plain: n%2 == 1})
				rng := rand.New(rand.NewPCG(uint64(n), 7))
				playByKeys(t, h, rng, 3000)
				if !h.g.Over() {
					t.Fatalf("no end after 3000 steps; play %d", h.g.Plays())
				}
				h.wait(2100 * time.Millisecond) // a last call's reveal, if any
				h.has("Game over", "Place", "Calls right/made")
			})
		}
	}
}

func playByKeys(t *testing.T, h *harness, rng *rand.Rand, steps int) {
	t.Helper()
	for i := 0; i < steps && !h.g.Over(); i++ {
		checkFits(t, h)
		c := h.app.table.can()
		switch {
		case c.Give:
			h.press("h")
		case c.Call && rng.IntN(3) == 0:
			h.press("b")
		case c.Call:
			h.press("g")
		case c.Judge && rng.IntN(2) == 0:
			h.press([]string{"d", "v", "k"}[rng.IntN(3)])
		case c.Play:
			if c.Choose && rng.IntN(2) == 0 {
				h.press("r")
			}
			if h.app.table.nPicked() == 0 {
				h.press("space")
			}
			if rng.IntN(3) == 0 {
				h.press("right", "space")
			}
			if h.app.table.nPicked() == 0 {
				h.press("space")
			}
			if rng.IntN(2) == 0 {
				h.press("s")
			}
			h.press("c")
		default:
			if !otherMoves(h, rng) {
				if d, ok := h.g.Deadline(); ok {
					h.wait(d - h.now)
				} else {
					t.Fatalf("stuck: %+v", h.g.View(h.you))
				}
			}
			continue
		}
		sent := h.sent()
		if len(sent) == 0 {
			// The client said why it sent nothing; let the others move.
			if !otherMoves(h, rng) {
				switch d, ok := h.g.Deadline(); {
				case ok:
					h.wait(d - h.now)
				case h.app.table.reveal != nil:
					h.wait(time.Second) // the reveal pause
				default:
					t.Fatalf("client sent nothing and nothing else can happen:\n%s", h.screen())
				}
			}
		}
	}
}

// otherMoves lets one other seat move: the simple bot, calling now and
// then and sneaking where it may.
func otherMoves(h *harness, rng *rand.Rand) bool {
	for s := 0; s < h.g.Seats(); s++ {
		if s == h.you {
			continue
		}
		v := h.g.View(s)
		c, ok := botMove(v, s)
		if !ok {
			continue
		}
		if c.Move == engine.MovePass && rng.IntN(8) == 0 {
			c.Move = engine.MoveCall
		}
		if c.Move == engine.MovePlay && v.Rules.Sneak > 0 && len(v.Hand) > len(c.Cards)+1 && rng.IntN(3) == 0 {
			for _, card := range v.Hand {
				if !slices.Contains(c.Cards, card) {
					c.Claim = len(c.Cards)
					c.Cards = append(c.Cards, card)
					break
				}
			}
		}
		if _, err := h.g.Clone().Apply(h.now, c); err != nil {
			continue
		}
		h.apply(c)
		return true
	}
	return false
}

func checkFits(t *testing.T, h *harness) {
	t.Helper()
	s := h.app.render()
	lines := strings.Split(s, "\n")
	if len(lines) != h.app.env.h {
		t.Fatalf("%d lines on a screen of %d:\n%s", len(lines), h.app.env.h, stripANSI(s))
	}
	for i, l := range lines {
		if width(l) > h.app.env.w {
			t.Fatalf("line %d is %d wide:\n%s", i, width(l), stripANSI(s))
		}
	}
	if h.app.env.st.plain && strings.Contains(s, "\x1b") {
		t.Fatal("escape codes on a plain screen")
	}
}

// V15: a new round is named afresh. After your doubt finds a lie you start
// the next round: the rank you'd name is one you hold (not "cards"), and
// what was picked in the last round is dropped — yours or not your turn.
func TestDoubtNewRoundNamesARank(t *testing.T) {
	rules, _ := engine.Preset("doubt")
	h := newHarness(t, opts{rules: rules, hands: fixedHands(t), first: seat(1), plain: true})
	// Ben starts a round of kings with an ace: a lie.
	h.apply(engine.Command{Move: engine.MovePlay, Seat: 1, Cards: cards(t, "AC"), Rank: 12})
	// Not your turn: you pick a card meanwhile.
	h.press("space")
	h.has("picked 1")
	h.apply(engine.Command{Move: engine.MoveSkip, Seat: 2, Rank: engine.NoRank})
	h.apply(engine.Command{Move: engine.MoveSkip, Seat: 3, Rank: engine.NoRank})
	h.has("Round of  KINGS", "D  Doubt")
	h.press("x", "space") // your own pick: the A♠
	h.press("d")
	h.sent()
	h.has("You doubt Ben's play", "A lie!")
	h.wait(2100 * time.Millisecond)
	h.has("New round: you name it  KINGS", "R  Rank ▸ kings", "[K♣*]", "[K♥*]", "[K♠*]", "picked 3")
	h.lacks("CARDS", "▸ cards", "[A♠")
	// Whatever the view's situation says, a rank to name is never none.
	tm := h.app.table
	tm.rank, tm.mine = engine.NoRank, tm.u.View.Situation()
	h.deliver(nil)
	h.has("New round: you name it  KINGS", "R  Rank ▸ kings")

	// Ben names the next round after you: a pick of yours in it goes
	// when the round is over.
	h.press("x", "space", "c")
	h.sent()
	h.apply(engine.Command{Move: engine.MoveDoubt, Seat: 1, No: h.g.Plays(), Rank: engine.NoRank})
	h.wait(2100 * time.Millisecond)
	h.press("right", "space")
	h.has("picked 1")
	// Ben took the pile and Cleo starts the next round, with a lie that
	// Dev doubts: Dev starts a new round while your card is picked.
	h.apply(engine.Command{Move: engine.MovePlay, Seat: 2, Cards: cards(t, "2S"), Rank: 0})
	h.apply(engine.Command{Move: engine.MoveDoubt, Seat: 3, No: h.g.Plays(), Rank: engine.NoRank})
	h.has("New round: Dev names the rank")
	h.lacks("picked 1")
}
