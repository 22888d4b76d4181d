package cli

import (
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/assist"
	"github.com/bullshit-game/bullshit/node/journal"
	"github.com/bullshit-game/bullshit/node/table"
)

// A finished game as text to send the group (S on the result sheet): who
// won, the places, the best call, the boldest sneak that stood, the
// evening's score, and the game's commitment, so that `bullshit verify
// GAME.json SHARE.txt` can hold the text against the saved game.

// Highlights are a game's best moments, found by replaying it whole (the
// host's reveal at the end: every play's cards).
type Highlights struct {
	Call  *BestCall  // nil: no call found a lie
	Sneak *BoldSneak // nil: no sneak stood (or the rules have none)
}

// BestCall is the call (or doubt) that found a lie and made the biggest
// pile change hands; the first of equals.
type BestCall struct {
	No     int // the play called
	Caller int
	Liar   int
	Claim  int
	Rank   engine.Rank
	Pile   int  // the cards the liar took
	Doubt  bool // V15's doubt, not a call
	Sneaky bool // the lie was a sneak
}

// BoldSneak is the play that slipped the most cards under its claim and
// was never turned up; the first of equals.
type BoldSneak struct {
	No      int
	Seat    int
	Sneaked int
	Claim   int
	Rank    engine.Rank
}

// GameHighlights replays a game from its config and steps (as the host
// reveals them, or a saved game holds them) and finds its highlights. The
// game is returned as it ended.
func GameHighlights(cfg engine.Config, steps []engine.Step) (Highlights, *engine.Game, error) {
	g, deal, err := engine.New(cfg)
	if err != nil {
		return Highlights{}, nil, err
	}
	type play struct {
		seat, claim, sneaked int
		rank                 engine.Rank
	}
	var (
		h       Highlights
		plays   = map[int]*play{}
		shown   = map[int]bool{}
		pile    int
		caller  = -1
		doubt   bool
		pending *BestCall
	)
	see := func(evs []engine.Event) {
		for _, e := range evs {
			switch e.Type {
			case engine.EventDeal:
				pile = 0
			case engine.EventPlay:
				plays[e.No] = &play{seat: e.Seat, claim: e.Claim, rank: e.Rank}
			case engine.EventMine:
				pile += len(e.Cards)
				if p := plays[e.No]; p != nil && cfg.Rules.Sneak > 0 {
					p.sneaked = max(len(e.Cards)-p.claim, 0)
				}
			case engine.EventCall, engine.EventDoubt:
				caller, doubt = e.Seat, e.Type == engine.EventDoubt
			case engine.EventBelieve:
				caller = -1
			case engine.EventReveal:
				shown[e.No] = true
				if caller >= 0 && !e.Truth {
					pending = &BestCall{No: e.No, Caller: caller, Liar: e.Seat, Claim: e.Claim, Rank: e.Rank, Doubt: doubt, Sneaky: e.Sneaked > 0}
				}
				caller = -1
			case engine.EventTake:
				if pending != nil && pending.Liar == e.Seat {
					pending.Pile = pile
					if h.Call == nil || pending.Pile > h.Call.Pile {
						h.Call = pending
					}
				}
				pending, pile = nil, 0
			case engine.EventLeave:
				pile = 0
			}
		}
	}
	see(deal)
	for i, s := range steps {
		evs := g.Tick(s.At)
		if s.Cmd != nil {
			more, err := g.Apply(s.At, *s.Cmd)
			if err != nil {
				return h, g, &engine.ReplayError{Step: i, Err: err}
			}
			evs = append(evs, more...)
		}
		see(evs)
	}
	for _, no := range slices.Sorted(maps.Keys(plays)) {
		p := plays[no]
		if p.sneaked > 0 && !shown[no] && (h.Sneak == nil || p.sneaked > h.Sneak.Sneaked) {
			h.Sneak = &BoldSneak{No: no, Seat: p.seat, Sneaked: p.sneaked, Claim: p.claim, Rank: p.rank}
		}
	}
	return h, g, nil
}

// ShareGame is what the share text is written from.
type ShareGame struct {
	Table   string
	Rules   engine.Rules
	Names   []string // a seat's name as the table shows it
	Bots    []bool   // the seat is a bot's
	Places  []int    // 1 first, ties sharing
	Winner  int      // -1: none (first place shared, or ended early)
	Left    []int    // cards left a seat; -1 not known
	Plays   int
	Length  time.Duration
	When    time.Time // the deal, on the player's clock
	Early   bool      // the host ended it
	Audit   string    // "verified", "not verified", or "" not checked
	Commit  [32]byte
	High    *Highlights // nil: not known here (no reveal came)
	Evening table.Evening
	You     int // the sharer's seat, -1 a spectator: the evening calls no one "You"
	// Saved is where this program saved the game for bullshit verify; ""
	// when it saved none (it hosted: a host checks no one but itself).
	Saved string
}

// seatName is a seat's name with "(bot)" for a bot.
func (s *ShareGame) seatName(i int) string {
	if i < 0 || i >= len(s.Names) {
		return fmt.Sprintf("Seat %d", i+1)
	}
	n := s.Names[i]
	if n == "" {
		n = fmt.Sprintf("Seat %d", i+1)
	}
	return n
}

func (s *ShareGame) tagged(i int) string {
	n := s.seatName(i)
	if i >= 0 && i < len(s.Bots) && s.Bots[i] {
		n += " (bot)"
	}
	return n
}

// ShareText is the game as text: plain, short lines, every fact a reader
// may check (places by seat, the game's commitment) spelled out.
func ShareText(s ShareGame) string {
	var b strings.Builder
	line := func(f string, a ...any) { fmt.Fprintf(&b, f+"\n", a...) }
	s.shareHead(line)
	line("")
	s.sharePlaces(line)
	line("")
	s.shareHighlights(line)
	s.shareEvening(line)
	line("")
	switch s.Audit {
	case "verified":
		line("Deal verified ✔ (the host's seed matched its commitment and the game replayed).")
	case "not verified":
		line("Deal NOT verified ✘.")
	default:
		line("Deal not checked.")
	}
	line("game %s", hex.EncodeToString(s.Commit[:]))
	if s.Saved != "" {
		line("Check it with the saved game: bullshit verify %s THIS-FILE", s.Saved)
	} else {
		line("Check it with a player's saved game (in their profile's %s/): bullshit verify GAME.json THIS-FILE", GamesDir)
	}
	return b.String()
}

// shareHead is the table, the rules, when, and how the game ended.
func (s *ShareGame) shareHead(line func(string, ...any)) {
	preset := s.Rules.Preset
	if preset == "" {
		preset = "standard"
	}
	head := "bullshit · " + s.Table + " · " + preset + fmt.Sprintf(" · %d seats", len(s.Places))
	if !s.When.IsZero() {
		head += " · " + s.When.Format("2 Jan 2006, 15:04")
	}
	line("%s", head)
	length := fmt.Sprintf("%d plays", s.Plays)
	if s.Length > 0 {
		length += ", " + minutes(s.Length)
	}
	switch {
	case s.Early:
		line("The host ended the game early, after %s.", length)
	case s.Winner >= 0:
		line("%s won, in %s.", s.seatName(s.Winner), length)
	default:
		line("Nobody won outright: first place is shared (%s).", length)
	}
}

// sharePlaces is a line per seat, in order of place.
func (s *ShareGame) sharePlaces(line func(string, ...any)) {
	order := make([]int, len(s.Places))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return s.Places[order[i]] < s.Places[order[j]] })
	nameW := 0
	for i := range s.Places {
		nameW = max(nameW, width(s.tagged(i)))
	}
	for _, i := range order {
		left := ""
		if i < len(s.Left) && s.Left[i] >= 0 {
			switch s.Left[i] {
			case 0:
				left = "out"
			case 1:
				left = "1 card left"
			default:
				left = fmt.Sprintf("%d cards left", s.Left[i])
			}
		}
		place := "–"
		if s.Places[i] > 0 {
			place = Ordinal(s.Places[i])
		}
		line("  %-4s %s  seat %-2d  %s", place, fit(s.tagged(i), nameW), i+1, left)
	}
}

// shareHighlights is the best call and the boldest sneak.
func (s *ShareGame) shareHighlights(line func(string, ...any)) {
	switch h := s.High; {
	case h == nil:
		line("Best call and boldest sneak: not known here (the host's reveal of the game didn't reach this screen).")
	default:
		if c := h.Call; c != nil {
			shout := "“Bullshit!”"
			if c.Doubt {
				shout = "doubt"
			}
			lie := "a lie"
			if c.Sneaky {
				lie = "a sneak, caught"
			}
			took := fmt.Sprintf("%d cards", c.Pile)
			if c.Pile == 1 {
				took = "1 card"
			}
			line("Best call: %s's %s on %s's %s (play %d): %s, and %s took the pile of %s.",
				s.seatName(c.Caller), shout, s.seatName(c.Liar), claimWords(c.Claim, c.Rank), c.No, lie, s.seatName(c.Liar), took)
		} else {
			line("Best call: none (no call found a lie).")
		}
		if s.Rules.Sneak > 0 {
			if k := h.Sneak; k != nil {
				extra := "1 card"
				if k.Sneaked > 1 {
					extra = fmt.Sprintf("%d cards", k.Sneaked)
				}
				line("Boldest sneak that stood: %s slipped %s under “%s” (play %d), never caught.",
					s.seatName(k.Seat), extra, claimWords(k.Claim, k.Rank), k.No)
			} else {
				line("Boldest sneak that stood: none.")
			}
		}
	}
}

// shareEvening is the evening's standings, when it has had a game.
func (s *ShareGame) shareEvening(line func(string, ...any)) {
	if e := s.Evening; e.Games > 0 {
		line("")
		line("The evening: %s. %s", plural(e.Games, "game"), pointsRule(len(s.Places)))
		for _, l := range eveningOrder(e) {
			name := l.Name
			if l.Bot != "" {
				name += " (bot)"
			}
			line("  %s  %s  %s  %s", fit(name, 16), fit(plural(l.Wins, "win"), 7), fit(points(l.Halves, "point"), 10), eveningPlaces(l, e.Games))
		}
	}
}

// pointsRule says how the evening's points are scored at a table of n.
func pointsRule(n int) string {
	if n < 2 {
		return "Points: n−1 for first down to 0 for last; a shared place shares its points."
	}
	return fmt.Sprintf("Points: %d for 1st down to 0 for last (n−1 … 0); a shared place shares its points.", n-1)
}

// shortPointsRule is pointsRule in a few words, for under a heading.
func shortPointsRule(n int) string { return assist.PointsRule(n) }

// points is a count of halves with its unit: "1 point", "4½ points".
func points(halves int, unit string) string {
	s := assist.HalvesText(halves) + " " + unit
	if halves != 2 {
		s += "s"
	}
	return s
}

// eveningPlaces is a line's places, "1 3 2", saying when the player missed
// some of the evening's games.
func eveningPlaces(l table.EveningLine, games int) string {
	ps := make([]string, len(l.Places))
	for i, p := range l.Places {
		ps[i] = strconv.Itoa(p)
	}
	s := "places " + strings.Join(ps, " ")
	if l.Games > len(l.Places) {
		s = "places … " + strings.Join(ps, " ")
	}
	if l.Games < games {
		s += fmt.Sprintf(" (%d of %d games)", l.Games, games)
	}
	return s
}

// eveningOrder is the evening's lines, most points first, then most wins,
// then in the order they joined.
func eveningOrder(e table.Evening) []table.EveningLine {
	ls := append([]table.EveningLine(nil), e.Lines...)
	sort.SliceStable(ls, func(i, j int) bool {
		if ls[i].Halves != ls[j].Halves {
			return ls[i].Halves > ls[j].Halves
		}
		return ls[i].Wins > ls[j].Wins
	})
	return ls
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// SharedFacts are what a share text says that a saved game can check.
type SharedFacts struct {
	Commit    [32]byte
	Places    map[int]int    // seat (from 0) → place
	Names     map[int]string // seat → name as written, "(bot)" dropped
	Winner    string         // the winner's name; "" when none is named
	Shared    bool           // "first place is shared"
	Early     bool           // "the host ended the game early"
	CallPlay  int            // the best call's play, 0 none, -1 not said
	SneakPlay int            // the boldest sneak's play, 0 none, -1 not said
}

var (
	shareGameRe  = regexp.MustCompile(`(?m)^game ([0-9a-f]{64})\s*$`)
	sharePlaceRe = regexp.MustCompile(`^\s+(\d+)(?:st|nd|rd|th)\s+(.+?)\s+seat (\d+)\b`)
	shareWonRe   = regexp.MustCompile(`^(.+) won, in \d+ plays`)
	sharePlayRe  = regexp.MustCompile(`\(play (\d+)\)`)
)

// ParseShare reads back the facts of a share text (ShareText).
func ParseShare(text string) (SharedFacts, error) {
	f := SharedFacts{Places: map[int]int{}, Names: map[int]string{}, CallPlay: -1, SneakPlay: -1}
	m := shareGameRe.FindStringSubmatch(text)
	if m == nil {
		return f, errors.New("no \"game …\" line with the game's commitment: not a shared game")
	}
	b, _ := hex.DecodeString(m[1])
	copy(f.Commit[:], b)
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimRight(l, "\r")
		if p := sharePlaceRe.FindStringSubmatch(l); p != nil {
			place, _ := strconv.Atoi(p[1])
			seat, _ := strconv.Atoi(p[3])
			if seat < 1 {
				return f, fmt.Errorf("a place line names seat %d", seat)
			}
			f.Places[seat-1] = place
			f.Names[seat-1] = strings.TrimSuffix(p[2], " (bot)")
			continue
		}
		if w := shareWonRe.FindStringSubmatch(l); w != nil && f.Winner == "" {
			f.Winner = w[1]
		}
		switch {
		case strings.HasPrefix(l, "Nobody won outright"):
			f.Shared = true
		case strings.HasPrefix(l, "The host ended the game early"):
			f.Early = true
		case strings.HasPrefix(l, "Best call:"):
			f.CallPlay = playOf(l)
		case strings.HasPrefix(l, "Boldest sneak that stood:"):
			f.SneakPlay = playOf(l)
		}
	}
	if len(f.Places) == 0 {
		return f, errors.New("no places in the shared text")
	}
	return f, nil
}

// playOf is the play a highlight line names, 0 for "none".
func playOf(l string) int {
	if m := sharePlayRe.FindStringSubmatch(l); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

// CheckShare holds a share text's facts against a saved game: the same
// game (its commitment), every seat's place, the winner, and the best call
// and boldest sneak where the text names them. It returns what differs.
func CheckShare(g journal.SavedGame, f SharedFacts) []string {
	var out []string
	if f.Commit != g.Commitment {
		return []string{fmt.Sprintf("the shared text is of another game (game %x…, the saved game is %x…)", f.Commit[:4], g.Commitment[:4])}
	}
	h, game, err := GameHighlights(g.Dealt(), g.Steps)
	if err != nil {
		return []string{"the saved game doesn't replay: " + err.Error()}
	}
	if !game.Over() {
		if !f.Early {
			out = append(out, "the saved game did not end, and the shared text doesn't say it was ended early")
		}
		return out
	}
	if f.Early {
		out = append(out, "the shared text says the game was ended early; it ended")
	}
	places := game.Places()
	for s, p := range places {
		got, ok := f.Places[s]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("seat %d's place is missing from the shared text (%s in the game)", s+1, Ordinal(p)))
		case got != p:
			out = append(out, fmt.Sprintf("seat %d (%s) is %s in the shared text, %s in the game", s+1, f.Names[s], Ordinal(got), Ordinal(p)))
		}
	}
	for s := range f.Places {
		if s >= len(places) {
			out = append(out, fmt.Sprintf("the shared text places seat %d; the game has %d seats", s+1, len(places)))
		}
	}
	switch w := game.Winner(); {
	case w < 0 && f.Winner != "":
		out = append(out, fmt.Sprintf("the shared text says %s won; nobody won outright", f.Winner))
	case w >= 0 && f.Shared:
		out = append(out, fmt.Sprintf("the shared text says nobody won outright; seat %d won", w+1))
	case w >= 0 && f.Winner != "" && f.Names[w] != f.Winner:
		out = append(out, fmt.Sprintf("the shared text says %s won; seat %d (%s there) won", f.Winner, w+1, f.Names[w]))
	}
	want := 0
	if h.Call != nil {
		want = h.Call.No
	}
	if f.CallPlay >= 0 && f.CallPlay != want {
		out = append(out, fmt.Sprintf("the best call is play %d in the shared text, play %d in the game", f.CallPlay, want))
	}
	want = 0
	if h.Sneak != nil {
		want = h.Sneak.No
	}
	if f.SneakPlay >= 0 && f.SneakPlay != want {
		out = append(out, fmt.Sprintf("the boldest sneak is play %d in the shared text, play %d in the game", f.SneakPlay, want))
	}
	return out
}
