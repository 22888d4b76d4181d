package cli

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/bullshit-game/bullshit/cli/rating"
	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/table"
)

// What the result sheet does besides showing the game: record the ratings
// once the deal is verified, and write the game out to share (S).

type (
	// ratedMsg: the game was recorded in the profile's ratings (or not).
	ratedMsg struct {
		sess    table.Session
		game    string // the game's ID, so a late answer isn't put on the next game's sheet
		changes []rating.Change
		err     error
	}
	// sharedMsg: S wrote the game out (or not).
	sharedMsg struct {
		sess table.Session
		game string
		path string // "" when there is no profile directory to write it in
		err  error
	}
)

// sheetModel is the result sheet's own state: the audit and the call
// that ended the game, the ratings and the share. It is the table's
// sub-model for the sheet: its Update is update (the ratings and the
// share coming back), its View pieces ratingCell, unrated and sharedLine;
// a new deal starts a new one (newSheet).
type sheetModel struct {
	audit      *table.AuditResult
	lastCall   []string        // the reveal of a call that ended the game
	covered    CoverCount      // moves bots made for away people this game
	rating     bool            // the game is recorded, or on its way
	ratings    []rating.Change // its changes, a seat each
	rateErr    string
	final      *table.Reveal // the host's reveal at the end: the highlights
	dealtAt    time.Time     // when the deal came, on our clock
	shareDone  bool
	sharedPath string
	savedGame  string // where the game was saved for bullshit verify, "" none
}

// newSheet is the sheet of a game dealt at at, with the host's reveal if
// it came with the deal.
func newSheet(at time.Time, final *table.Reveal) sheetModel {
	return sheetModel{dealtAt: at, final: final}
}

// update takes what came back for the sheet of game: the ratings
// (ratedMsg) or the share (sharedMsg); an answer for another game is
// dropped. say is news for the status line (bad: a failure); clear, that
// the status line should be cleared.
func (sh *sheetModel) update(msg tea.Msg, game string) (say string, bad, clear bool) {
	switch m := msg.(type) {
	case ratedMsg:
		if m.game != game {
			return "", false, false
		}
		sh.ratings, sh.rateErr = m.changes, ""
		if m.err != nil {
			sh.rateErr = m.err.Error()
		}
	case sharedMsg:
		if m.game != game {
			return "", false, false
		}
		if m.err != nil {
			return "Copied to the clipboard where the terminal allows; not written: " + m.err.Error(), true, false
		}
		sh.shareDone, sh.sharedPath = true, m.path
		// It stays on the sheet, not in the status line: the path is for
		// reading at leisure.
		return "", false, true
	}
	return "", false, false
}

// SharedDir is where S on the result sheet writes games, in the profile.
const SharedDir = "shared"

// GamesDir is where a seat at another's table saves each game for
// bullshit verify, in the profile.
const GamesDir = "games"

// gameID is the game's commitment in hex, the same on every screen.
func (t *tableModel) gameID() string {
	c := t.u.Table.Commit
	if c == ([32]byte{}) {
		return ""
	}
	return hex.EncodeToString(c[:])
}

// rate records a finished game in the profile's ratings, once: when the
// deal is verified (a game the host ended early is recorded as such, and
// rates nobody). A spectator and a screen with no profile record nothing.
func (t *tableModel) rate() tea.Cmd {
	v := t.v()
	if t.rating || v == nil || !t.over() || t.me() < 0 || t.env.cfg.ProfileDir == "" {
		return nil
	}
	early := v.Phase != engine.PhaseOver
	if !early && (t.audit == nil || !t.audit.Verified) {
		return nil
	}
	t.rating = true
	res := RatingResult(t.u, t.covered)
	dir, sess, id := t.env.cfg.ProfileDir, t.sess, t.gameID()
	return func() tea.Msg {
		ch, err := rating.Record(dir, res)
		return ratedMsg{sess: sess, game: id, changes: ch, err: err}
	}
}

// sheetMsg hands the sheet what came back for it.
func (t *tableModel) sheetMsg(msg tea.Msg) {
	say, bad, clear := t.sheetModel.update(msg, t.gameID())
	switch {
	case say != "":
		t.say(say, bad)
	case clear:
		t.status, t.bad, t.until = "", false, time.Time{}
	}
}

// ratingCell is a seat's rating column on the sheet: "+31 (1531)",
// "fixed" for a bot, "not rated", or "…" while the audit runs.
func (sh *sheetModel) ratingCell(s int) string {
	switch {
	case sh.rateErr != "":
		return "not saved"
	case s < len(sh.ratings):
		return sh.ratings[s].Show()
	case sh.audit != nil && !sh.audit.Verified:
		return "not rated"
	}
	return "…"
}

// showRatings reports whether the sheet has a rating column: a seat at
// the table, with a profile to keep ratings in.
func (t *tableModel) showRatings() bool {
	return t.me() >= 0 && t.env.cfg.ProfileDir != ""
}

// unrated says why seats aren't rated, grouped, a seat called by name:
// "Not rated: Ada (not known by peer ID)." "" when all are (bots are
// fixed, not unrated).
func (sh *sheetModel) unrated(name func(int) string) string {
	if sh.rateErr != "" {
		return "Ratings not saved: " + sh.rateErr
	}
	if sh.audit != nil && !sh.audit.Verified {
		return "Not rated: the deal was not verified."
	}
	var whys []string
	who := map[string][]string{}
	for _, c := range sh.ratings {
		if c.Rated || c.Anchor || c.Why == "" {
			continue
		}
		if who[c.Why] == nil {
			whys = append(whys, c.Why)
		}
		who[c.Why] = append(who[c.Why], name(c.Seat))
	}
	if len(whys) == 0 {
		return ""
	}
	s := "Not rated: "
	for i, w := range whys {
		if i > 0 {
			s += "; "
		}
		names := who[w]
		switch {
		case len(names) == len(sh.ratings):
			s += w
		default:
			s += joinNames(names) + " (" + w + ")"
		}
	}
	return s + "."
}

func joinNames(ns []string) string {
	switch len(ns) {
	case 0:
		return ""
	case 1:
		return ns[0]
	}
	s := ns[0]
	for _, n := range ns[1 : len(ns)-1] {
		s += ", " + n
	}
	return s + " and " + ns[len(ns)-1]
}

// shareGame is the finished game as ShareText takes it.
func (t *tableModel) shareGame() ShareGame {
	v := t.v()
	ts := t.u.Table
	g := ShareGame{Table: ts.Name, Rules: ts.Rules, Winner: -1, Plays: v.No, Length: t.end - t.start,
		When: t.dealtAt, Early: v.Phase != engine.PhaseOver, Commit: ts.Commit, Evening: ts.Evening, You: t.me(),
		Saved: t.savedGame}
	for i, s := range ts.Seats {
		g.Names = append(g.Names, s.Name)
		g.Bots = append(g.Bots, s.Bot != "")
		p := 0
		if i < len(v.Places) {
			p = v.Places[i]
		}
		g.Places = append(g.Places, p)
		left := -1
		switch {
		case v.Final != nil && i < len(v.Final.Hands):
			left = len(v.Final.Hands[i])
		case i < len(v.Hands) && v.Hands[i].IsExact():
			left = v.Hands[i].Lo
		}
		g.Left = append(g.Left, left)
	}
	if v.Winner != nil && !g.Early {
		g.Winner = *v.Winner
	}
	switch {
	case t.audit == nil:
	case t.audit.Verified:
		g.Audit = "verified"
	default:
		g.Audit = "not verified"
	}
	if r := t.final; r != nil && t.audit != nil && t.audit.Verified {
		if h, _, err := GameHighlights(r.Dealt(), r.Steps); err == nil {
			g.High = &h
		}
	}
	return g
}

// share writes the game out: to a file in the profile and to the
// clipboard (OSC 52, where the terminal takes it).
func (t *tableModel) share() tea.Cmd {
	if t.v() == nil {
		return nil
	}
	text := ShareText(t.shareGame())
	dir := t.env.cfg.ProfileDir
	sess, id := t.sess, t.gameID()
	when := t.dealtAt
	if when.IsZero() {
		when = t.now
	}
	name := when.Format("20060102-1504")
	if len(id) >= 8 {
		name += "-" + id[:8]
	}
	write := func() tea.Msg {
		if dir == "" {
			return sharedMsg{sess: sess, game: id}
		}
		path := filepath.Join(dir, SharedDir, name+".txt")
		err := os.MkdirAll(filepath.Dir(path), 0o755)
		if err == nil {
			err = os.WriteFile(path, []byte(text), 0o644)
		}
		return sharedMsg{sess: sess, game: id, path: path, err: err}
	}
	t.say("Writing the game out…", false)
	return tea.Batch(tea.SetClipboard(text), write)
}

// sharedLine is the sheet's line about S, once it is done.
func (sh *sheetModel) sharedLine() string {
	switch {
	case !sh.shareDone:
		return ""
	case sh.sharedPath == "":
		return "Copied to the clipboard where the terminal allows (OSC 52); no profile directory to write it in."
	}
	l := "Written to " + sh.sharedPath + ", and copied to the clipboard where the terminal allows (OSC 52)."
	if sh.savedGame != "" {
		l += " Check it with: bullshit verify " + sh.savedGame + " " + sh.sharedPath
	}
	return l
}
