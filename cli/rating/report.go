package rating

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Most is how many players Lines lists.
const Most = 10

// Lines is your record as `bullshit stats` prints it: games, wins, average
// place, rating ± deviation, calls, sneaks, and the players you play most
// with and how you fare against each.
func (s *Store) Lines() []string {
	t := s.Tally
	nick := s.Nick
	if nick == "" {
		nick = "You"
	}
	if t.Games == 0 && t.Early == 0 {
		return []string{nick + ": no games yet. Play one: bullshit play --solo"}
	}
	out := []string{fmt.Sprintf("%s: %s, %s", nick, plural(t.Games, "game"), plural(t.Wins, "win"))}
	if t.Games > 0 {
		out[0] += fmt.Sprintf(" (%.0f %%), average place %.1f at tables of %.1f",
			100*float64(t.Wins)/float64(t.Games), float64(t.Places)/float64(t.Games), float64(t.Seats)/float64(t.Games))
	}
	me := s.Mine()
	if s.Me == nil {
		out = append(out, "Rating: none yet (you start at 1500 ± 350).")
	} else {
		out = append(out, fmt.Sprintf("Rating %s (%s; everyone starts at 1500 ± 350)", show(me), plural(t.Rated, "rated game")))
	}
	calls := fmt.Sprintf("Calls right %d of %d made", t.Right, t.Calls)
	if t.Calls > 0 {
		calls += fmt.Sprintf(" (%.0f %%)", 100*float64(t.Right)/float64(t.Calls))
	}
	out = append(out, calls+fmt.Sprintf(" · sneaks %d, caught %d", t.Sneaks, t.Caught))
	if n := t.Games - t.Rated; n > 0 || t.Early > 0 {
		var not []string
		if n > 0 {
			not = append(not, plural(n, "game")+" not rated (a bot covered you, or a custom deal)")
		}
		if t.Early > 0 {
			not = append(not, plural(t.Early, "game")+" ended early by the host, not counted")
		}
		out = append(out, strings.Join(not, "; ")+".")
	}
	type row struct {
		key, name string
		bot       int // people first among equals
		v         Versus
	}
	var rows []row
	for k, v := range s.Versus {
		r := row{k, v.Nick, 0, *v}
		if v.Bot != "" {
			r.name, r.bot = v.Bot+" bot", 1
		}
		rows = append(rows, r)
	}
	slices.SortFunc(rows, func(a, b row) int {
		return cmp.Or(cmp.Compare(b.v.Games, a.v.Games), cmp.Compare(a.bot, b.bot), cmp.Compare(a.name, b.name), cmp.Compare(a.key, b.key))
	})
	if len(rows) == 0 {
		return out
	}
	out = append(out, "", fmt.Sprintf("  %-18s %5s %6s %6s %7s %6s  %s", "Played most with", "games", "ahead", "level", "behind", "score", "their rating"))
	several := false
	for i, r := range rows {
		several = several || r.v.Met > r.v.Games
		if i == Most {
			out = append(out, fmt.Sprintf("  … and %s more", plural(len(rows)-Most, "other")))
			break
		}
		name, their := r.name, ""
		switch {
		case r.v.Bot != "":
			if _, ok := Anchor(r.v.Bot, 4); ok {
				their = "fixed"
			} else {
				their = "not rated"
			}
		default:
			if p := s.Players[r.key]; p != nil {
				their = show(p.Rating)
			} else {
				their = "not rated yet"
			}
		}
		out = append(out, fmt.Sprintf("  %-18s %5d %6d %6d %7d %5.0f%%  %s", cut(name, 18), r.v.Games, r.v.Ahead, r.v.Level, r.v.Behind, 100*r.v.Score(), their))
	}
	if several {
		out = append(out, "  (a bot level at several seats of a game counts once in games, once a seat in ahead, level and behind)")
	}
	return out
}

// show is a rating as a person reads it: "1587 ± 84".
func show(r Rating) string { return fmt.Sprintf("%.0f ± %.0f", r.R, r.RD) }

// Show is a change as the result sheet might print it: "+31 (1531)",
// "fixed" for a bot, "not rated" otherwise.
func (c Change) Show() string {
	switch {
	case c.Anchor:
		return "fixed"
	case !c.Rated:
		return "not rated"
	}
	return fmt.Sprintf("%+.0f (%.0f)", c.Delta(), c.After)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
