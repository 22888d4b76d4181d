// Package rating keeps a profile's ratings: of the player and of everyone
// it has played with (by peer ID, with the nickname last seen), with the
// player's record across games. It lives in the profile directory as
// ratings.json.
//
// The model is Glicko-1 over a field: a game of k seats is every seat
// meeting every other once, weighted 2/k, scored by final places (ties
// share). Bots are anchors from our own measured ladder and never move.
// testdata/worked.md sets the model out with worked examples, computed
// apart from this code by testdata/worked.py; testdata/anchors.md says how
// the anchors were measured.
//
// Every profile at a table computes every seat's change from what it knows
// before the game, in seat order: two profiles that saw the same games get
// the same numbers.
package rating

import (
	"math"
	"strings"

	"github.com/bullshit-game/bullshit/engine"
)

// The constants of the model (testdata/worked.md).
const (
	Start      = 1500.0 // a new person's rating
	StartRD    = 350.0  // and its deviation, the most it can be
	GrowRD     = 25.0   // C: RD grows by √(RD²+C²) before each rated game
	MaxCovered = 3      // a person covered by a bot for more plays than this isn't rated
)

// q is Glicko's ln 10 / 400.
var q = math.Ln10 / 400

// anchors are easy's and hard's ratings by table size, medium being 1500,
// from `bullshit sim --ladder --seats N` (testdata/anchors.md).
var anchors = [11][2]float64{
	2: {599, 1562}, 3: {1159, 1579}, 4: {1261, 1578}, 5: {1346, 1596}, 6: {1393, 1590},
	7: {1362, 1725}, 8: {1374, 1722}, 9: {1387, 1714}, 10: {1402, 1705},
}

// Levels are the bots that are anchors.
var Levels = []string{"easy", "medium", "hard"}

// Anchor is a bot's fixed rating at a table of seats, and whether the bot
// is an anchor at all: easy, medium or hard at their own style ("medium",
// "medium/cautious"), at 2 to 10 seats. Other styles and exec: bots were
// never measured, so they aren't.
func Anchor(bot string, seats int) (float64, bool) {
	lv, ok := botLevel(bot)
	if !ok || seats < 2 || seats > 10 {
		return 0, false
	}
	switch lv {
	case "easy":
		return anchors[seats][0], true
	case "hard":
		return anchors[seats][1], true
	}
	return 1500, true
}

// botLevel is the anchor level a bot's name plays at, if any.
func botLevel(bot string) (string, bool) {
	name := strings.ToLower(strings.TrimSpace(bot))
	lv, style, both := strings.Cut(name, "/")
	if both && style != "cautious" {
		return "", false
	}
	for _, l := range Levels {
		if lv == l {
			return l, true
		}
	}
	return "", false
}

// Seat is one seat of a finished game, as the result sheet knows it.
type Seat struct {
	Peer    string       // the person's peer ID; "" for a bot, or for a person who can only be You (a game on this machine)
	Bot     string       // the bot's name ("easy", "medium", "hard", "hard/bold", "exec:…"); "" for a person
	Nick    string       // the name shown
	Place   int          // 1 is first, ties share (engine.View.Places); 0 when not known
	Covered int          // plays a bot made for this person while they were away
	Stats   engine.Stats // the seat's tallies at the end (engine.View.Stats); Sneaks -1 counts as 0
}

// Result is a finished game as Record takes it.
type Result struct {
	// ID names the game, so recording it twice changes nothing: the table
	// and the commitment to its deal, say. "" records it every time.
	ID         string
	Seats      []Seat // in seat order, as every player's program has them
	You        int    // this profile's seat; -1 (a spectator) records nothing
	EndedEarly bool   // the host ended it before anyone won: nothing is rated
	CustomDeal bool   // the hands were given, not dealt from the seed: nothing is rated
}

// Change is what a game did to one seat's rating.
type Change struct {
	Seat   int     `json:"seat"`
	Nick   string  `json:"nick"`
	Rated  bool    `json:"rated"`
	Anchor bool    `json:"anchor,omitempty"` // a bot: its fixed rating, in Before and After
	Why    string  `json:"why,omitempty"`    // why not rated, for the sheet
	Before float64 `json:"before"`
	After  float64 `json:"after"`
	RD     float64 `json:"rd"`     // the deviation before the game (as stored)
	RDNew  float64 `json:"rd_new"` // and after it
}

// Delta is the change in rating.
func (c Change) Delta() float64 { return c.After - c.Before }

// Rating is a rating and its deviation.
type Rating struct {
	R  float64 `json:"r"`
	RD float64 `json:"rd"`
}

// New is a person not met before.
func New() Rating { return Rating{Start, StartRD} }

// grown is RD grown before a game: min(√(RD²+C²), StartRD).
func (r Rating) grown() Rating {
	return Rating{r.R, math.Min(math.Sqrt(r.RD*r.RD+GrowRD*GrowRD), StartRD)}
}

func g(rd float64) float64 { return 1 / math.Sqrt(1+3*q*q*rd*rd/(math.Pi*math.Pi)) }

// Why a seat isn't rated.
const (
	WhyBot     = "bot: a fixed rating"
	WhyUnknown = "this bot has no rating"
	WhyCovered = "a bot covered this seat"
	WhyNoPlace = "no place"
	WhyNoPeer  = "not known by peer ID"
	WhyEarly   = "the game ended early"
	WhyCustom  = "a custom deal"
	WhyAlone   = "nobody rated to meet"
)

// Compute is the rating change of every seat of res, from before: each
// person's rating before the game (ok false for someone not met before,
// who starts at New). It is pure: Store.Apply keeps the results. Seats
// are taken in order, so every program with the same ratings before gets
// the same bits after.
func Compute(res Result, before func(seat int) (Rating, bool)) []Change {
	k := len(res.Seats)
	out := make([]Change, k)
	pre := make([]Rating, k)
	rated := make([]bool, k)
	for i, s := range res.Seats {
		c := Change{Seat: i, Nick: s.Nick}
		switch {
		case s.Bot != "":
			if a, ok := Anchor(s.Bot, k); ok {
				c.Anchor, c.Why, c.Before, c.After = true, WhyBot, a, a
				pre[i] = Rating{a, 0}
				rated[i] = !res.EndedEarly && !res.CustomDeal && s.Place > 0
			} else {
				c.Why = WhyUnknown
			}
			out[i] = c
			continue
		case s.Peer == "" && i != res.You:
			c.Why = WhyNoPeer
		case s.Covered > MaxCovered:
			c.Why = WhyCovered
		case s.Place <= 0:
			c.Why = WhyNoPlace
		}
		r, ok := before(i)
		if !ok {
			r = New()
		}
		c.Before, c.After, c.RD, c.RDNew = r.R, r.R, r.RD, r.RD
		switch {
		case res.EndedEarly:
			c.Why = WhyEarly
		case res.CustomDeal:
			c.Why = WhyCustom
		}
		if c.Why == "" {
			rated[i] = true
			pre[i] = r.grown()
		}
		out[i] = c
	}
	w := 2 / float64(k)
	for i, s := range res.Seats {
		if !rated[i] || s.Bot != "" {
			continue
		}
		ri := pre[i]
		var inv, sum float64
		met := 0
		for j, o := range res.Seats {
			if j == i || !rated[j] {
				continue
			}
			met++
			gj := g(pre[j].RD)
			e := 1 / (1 + math.Pow(10, -gj*(ri.R-pre[j].R)/400))
			score := 0.0
			switch {
			case s.Place < o.Place:
				score = 1
			case s.Place == o.Place:
				score = 0.5
			}
			inv += q * q * w * gj * gj * e * (1 - e)
			sum += w * gj * (score - e)
		}
		if met == 0 {
			out[i].Why = WhyAlone
			continue
		}
		rd := 1 / math.Sqrt(1/(ri.RD*ri.RD)+inv)
		out[i].Rated = true
		out[i].RDNew = rd
		out[i].After = ri.R + q*rd*rd*sum
	}
	return out
}
