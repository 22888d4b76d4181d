package webclient

import (
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/assist"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/protocol"
)

// State is everything the page shows, as plain data (it is sent to the
// page as JSON). Times are milliseconds: Left* from when the state was
// made, so the page counts down on its own clock.
type State struct {
	Status string `json:"status"` // joining, seated, following, closed
	Table  string `json:"table"`
	Preset string `json:"preset"`
	Host   string `json:"host"`
	// Rules are the table's rules keys over its preset, "key=value"
	// sorted, for the node's /rules (how to play this table).
	Rules []string `json:"rules"`
	Phase string   `json:"phase"` // waiting, playing, over (the table's)
	// Paused is a game the host paused: its clocks stand still, no move
	// is taken, until the host goes on.
	Paused   bool   `json:"paused"`
	You      int    `json:"you"` // our seat, -1 watching
	Watching bool   `json:"watching"`
	Seats    []Seat `json:"seats"`

	Play     int      `json:"play"`     // plays so far
	Turn     int      `json:"turn"`     // whose turn, -1 none
	Rank     string   `json:"rank"`     // the rank asked for now, "" when free
	Next     string   `json:"next"`     // the rank asked for after it, "" where no sequence is kept
	Pile     string   `json:"pile"`     // the pile's size as seen
	Last     *Claim   `json:"last"`     // the last play
	LeftMS   int64    `json:"leftMS"`   // until the open window or hand-over closes; 0 none
	WindowMS int64    `json:"windowMS"` // the window's whole length, for the bar
	Reveal   []string `json:"reveal"`   // a call played out, for the host's reveal pause
	RevealMS int64    `json:"revealMS"`

	// Blind is a game dealt blind, this phone a party of its deck: the
	// host sees no card, and the view and events are this phone's own.
	Blind bool `json:"blind"`
	// Shuffling is what the page says while a blind deal runs ("Shuffling…",
	// and whom it waits for when it takes long); "" once our hand is known.
	Shuffling string `json:"shuffling"`
	// Coming is how many cards of a pile we took are still on their way
	// to our hand, from the nodes that played them.
	Coming int `json:"coming"`

	Hand   []Card `json:"hand"` // in calling order (or soonest asked, when chosen)
	Moves  Moves  `json:"moves"`
	Assist string `json:"assist"` // "Can't be true: you hold 3 of the 4 kings."
	Hint   string `json:"hint"`   // the first-run hint that fits now: claim, window, handover; "" none

	News    []string `json:"news"`
	Refusal string   `json:"refusal"` // the host's last refusal of a move of ours
	Sheet   *Sheet   `json:"sheet"`   // the result sheet, once the game is over

	// Record is how many events this phone's own record of the deal
	// holds, Restored how many of them it took back from the page's
	// storage after a reload (persist.go): what the audit covers.
	Record   int `json:"record"`
	Restored int `json:"restored"`

	// Node is the web address of the node we are at: the page's own at
	// first, the new host's after it followed the table there (the page
	// then moves to it, so that a reload finds the table).
	Node string `json:"node"`
}

// Seat is one seat as the table sees it.
type Seat struct {
	No        int    `json:"no"`
	Name      string `json:"name"`
	Bot       string `json:"bot"`
	Connected bool   `json:"connected"`
	Covered   bool   `json:"covered"`
	Web       bool   `json:"web"`
	RunBy     string `json:"runBy"` // a bot's at a blind table: the person whose node runs it
	Cards     string `json:"cards"` // "7", "9–10" under V14's rough counts
	LastCard  bool   `json:"lastCard"`
	Turn      bool   `json:"turn"`
	Out       int    `json:"out"` // its place once out, 0 while in
	You       bool   `json:"you"`
}

// Claim is the last play and how it moved the counts.
type Claim struct {
	Seat  int    `json:"seat"`
	Name  string `json:"name"`
	Text  string `json:"text"`  // "Cleo claims 2 kings"
	Moved string `json:"moved"` // "Cleo's hand 6 → 4 · pile 10 → 12"
	Shown []Card `json:"shown"` // turned up, or our own
}

// Card is a card in the hand.
type Card struct {
	ID    int    `json:"id"` // the engine's card number, what a move sends back
	Label string `json:"label"`
	Rank  int    `json:"rank"` // -1 a joker
	Red   bool   `json:"red"`
	Match bool   `json:"match"` // of the rank called (a joker too): lit, and picked for our play
}

// Moves are what we may do now, and what the page needs to offer them.
type Moves struct {
	Play      bool       `json:"play"`
	Call      bool       `json:"call"`  // BULLSHIT! and Let it go
	Judge     bool       `json:"judge"` // doubt, believe, skip (I Doubt It)
	Give      int        `json:"give"`  // cards to hand over now (V14), 0 none
	Quads     []RankWord `json:"quads"` // four of a kind we may lay out (V9)
	Choose    bool       `json:"choose"`
	Ranks     []RankWord `json:"ranks"` // to choose from, in calling order
	Claim     *RankWord  `json:"claim"` // the rank a play claims when it is set
	Sneak     int        `json:"sneak"` // how many may go under a claim (0: no sneaking)
	CountLies bool       `json:"countLies"`
	Cap       int        `json:"cap"`
	GiveAuto  []int      `json:"giveAuto"` // the cards the clock would pick
	Verb      string     `json:"verb"`     // the play button's word: Claim, Add, Start with (assist.PlayVerb)
}

// RankWord is a rank with its words.
type RankWord struct {
	Rank int    `json:"rank"`
	One  string `json:"one"`
	Many string `json:"many"`
}

func rankWord(r engine.Rank) RankWord { return RankWord{Rank: int(r), One: r.Word(1), Many: r.Word(2)} }

// Sheet is the result sheet.
type Sheet struct {
	Plays    int      `json:"plays"`
	Rows     []Row    `json:"rows"`
	Verified bool     `json:"verified"` // this client's own audit passed
	Checked  bool     `json:"checked"`  // the audit has run
	Problems []string `json:"problems"`
	// Early is a game the host ended before it finished (the replay of its
	// reveal says so): the sheet and the audit are of the plays so far.
	Early   bool     `json:"early"`
	Summary string   `json:"summary"` // the audit in a line: "ended early after 12 plays; deal verified"
	Notes   []string `json:"notes"`   // no fault of the host's: a nonce that came too late
	// Evening is the table's running score, as the terminal's sheet shows
	// it; nil before a game has counted.
	Evening *Evening `json:"evening"`
	Ratings string   `json:"ratings"` // where ratings are kept: not on a phone
	Next    string   `json:"next"`    // what comes after: the next game, or the table is over
}

// Evening is the table's running score across its games.
type Evening struct {
	Games int       `json:"games"`
	Rule  string    `json:"rule"` // how points are scored (assist.PointsRule)
	Lines []EveLine `json:"lines"`
}

// EveLine is one player's evening, most points first.
type EveLine struct {
	Name   string `json:"name"`
	Bot    bool   `json:"bot"`
	Points string `json:"points"` // "4½"
	Wins   int    `json:"wins"`
	Games  int    `json:"games"`
	You    bool   `json:"you"`
}

// The sheet's last line, by what comes after the game.
const (
	NextSeat    = "The host deals the next game; you keep your seat."
	NextWatch   = "The host deals the next game; you keep watching."
	NextClosed  = "The host has left the finished game: this table is over."
	NextLeft    = "You left the table."
	RatingsHere = "Ratings are kept by the terminal client (bullshit stats), not on a phone or in a browser."
)

// Row is one seat on the sheet, in finishing order.
type Row struct {
	Place   int    `json:"place"`
	Name    string `json:"name"`
	Cards   int    `json:"cards"`
	Sneaked int    `json:"sneaked"`
	Caught  int    `json:"caught"`
	Calls   string `json:"calls"` // right/made
	You     bool   `json:"you"`
}

// SetSoonest lays the hand out by the turn each rank is asked for (key O)
// instead of calling order.
func (c *Client) SetSoonest(on bool) {
	c.mu.Lock()
	c.soonest = on
	c.mu.Unlock()
	c.changed()
}

// Seat is our seat, -1 watching.
func (c *Client) Seat() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.seat
}

// State is the table now, as the page shows it.
func (c *Client) State() State {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	s := State{Status: c.status, Table: c.lobby.Settings.Name, Preset: c.set.Rules.Preset, Host: c.lobby.Host,
		Phase: c.lobby.Phase, Paused: c.lobby.Paused, You: c.seat, Watching: c.seat < 0, Turn: -1, News: slices.Clone(c.news), Refusal: c.refusal,
		Record: len(c.rec.Got), Restored: c.restored, Node: c.addr}
	if c.lobby.Settings.Rules != (protocol.Rules{}) {
		s.Rules = gamewire.RuleList(c.set.Rules)
	}
	v := c.view
	for i, p := range c.lobby.Players {
		st := Seat{No: i, Name: p.Nick, Bot: p.Bot, Connected: p.Connected, Covered: p.Covered, Web: p.Web, You: i == c.seat,
			RunBy: protocol.Clean(p.RunBy, protocol.MaxText)}
		if v != nil && i < len(v.Hands) {
			st.Cards = v.Hands[i].String()
			st.LastCard = v.Hands[i] == engine.Exact(1)
			st.Turn = v.Turn == i && v.Phase != engine.PhaseOver
			if i < len(v.Placed) {
				st.Out = v.Placed[i]
			}
		}
		s.Seats = append(s.Seats, st)
	}
	if b := c.blind; b != nil {
		s.Blind, s.Shuffling, s.Coming = true, c.shuffling(now), b.pl.Coming()
		if c.seat >= 0 {
			s.Record = len(b.pl.Events(c.seat))
		}
	}
	if v == nil {
		return s
	}
	s.Play, s.Turn, s.Pile = v.No, v.Turn, c.pile.Count(v).String()
	if v.Rank.Valid() {
		s.Rank = v.Rank.Word(2)
		if d := assist.RankStep(v.Rules); d != 0 {
			s.Next = assist.AddRank(v.Rank, d).Word(2)
		}
	}
	if l := v.Last; l != nil {
		cl := &Claim{Seat: l.Seat, Name: c.name(l.Seat),
			Text: fmt.Sprintf("%s %s", c.verb(l.Seat, "claim", "claims"), assist.ClaimWords(l.Claim, l.Rank))}
		sz := c.pile.Sizes(l, c.seat)
		if sz.HandBefore != (engine.Count{}) || sz.HandAfter != (engine.Count{}) {
			who := c.name(l.Seat) + "'s"
			if l.Seat == c.seat {
				who = "Your"
			}
			cl.Moved = fmt.Sprintf("%s hand %s → %s · pile %s → %s", who, sz.HandBefore, sz.HandAfter, sz.PileBefore, sz.PileAfter)
		}
		for _, x := range l.Cards {
			cl.Shown = append(cl.Shown, card(x))
		}
		s.Last = cl
	}
	if !c.closes.IsZero() && v.Phase != engine.PhaseOver {
		s.LeftMS = max(0, c.closes.Sub(now).Milliseconds())
		s.WindowMS = v.Rules.Window.Milliseconds()
	}
	if now.Before(c.revealT) {
		s.Reveal, s.RevealMS = slices.Clone(c.reveal), c.revealT.Sub(now).Milliseconds()
	}
	mode := assist.SortCalling
	if c.soonest {
		mode = assist.SortSoonest
	}
	for _, x := range assist.SortHand(v.Hand, v, mode) {
		cd := card(x)
		cd.Match = v.Rank.Valid() && x.Matches(v.Rank)
		s.Hand = append(s.Hand, cd)
	}
	if c.lobby.Phase != "over" { // a game ended early leaves a view in play: no move is taken
		s.Moves = c.moves(v)
	}
	s.Assist = assist.CantBeTrue(v, c.name)
	switch {
	case s.Moves.Give > 0:
		s.Hint = "handover"
	case s.Moves.Play && v.Phase == engine.PhasePlay:
		s.Hint = "claim"
	case s.Moves.Call:
		s.Hint = "window"
	}
	if v.Phase == engine.PhaseOver || c.sheet != nil {
		// A game the host ended early has no last view, but its reveal
		// and our audit of it still make a sheet.
		s.Sheet = c.sheetOf(v)
		switch {
		case c.closed.Load():
			s.Sheet.Next = NextLeft
		case c.status == "closed":
			s.Sheet.Next = NextClosed
		case c.seat < 0:
			s.Sheet.Next = NextWatch
		default:
			s.Sheet.Next = NextSeat
		}
	}
	return s
}

func card(x engine.Card) Card {
	return Card{ID: int(x), Label: x.Symbol(), Rank: int(x.Rank()), Red: x.Suit() == 1 || x.Suit() == 2}
}

// moves is what we may do now. Called with mu held.
func (c *Client) moves(v *engine.View) Moves {
	a := assist.Now(v, c.seat)
	m := Moves{Play: a.Play, Call: a.Call, Judge: a.Judge, Choose: a.Choose, CountLies: v.Rules.CountLies, Cap: v.Cap}
	if a.Play || a.Judge {
		m.Verb = assist.PlayVerb(v, c.seat)
	}
	if !v.Rules.CountLies {
		m.Sneak = v.Rules.Sneak
	}
	if a.Give && v.Give != nil {
		m.Give = v.Give.Count
		for _, x := range assist.LeastUseful(v.Hand, v, v.Give.Count) {
			m.GiveAuto = append(m.GiveAuto, int(x))
		}
	}
	if a.Quads {
		for _, r := range assist.QuadsIn(v.Hand, v.Rules) {
			m.Quads = append(m.Quads, rankWord(r))
		}
	}
	if a.Choose {
		ranks := slices.Clone(a.Ranks)
		sort.SliceStable(ranks, func(i, j int) bool {
			return assist.CallingPos(ranks[i], v.Rules) < assist.CallingPos(ranks[j], v.Rules)
		})
		// The one we hold most of first: the page picks it unless told.
		best := assist.BestRank(v.Hand, ranks, v.Rules)
		m.Ranks = append(m.Ranks, rankWord(best))
		for _, r := range ranks {
			if r != best {
				m.Ranks = append(m.Ranks, rankWord(r))
			}
		}
	} else if a.Play && v.Rank.Valid() {
		rw := rankWord(v.Rank)
		m.Claim = &rw
	}
	return m
}

// evening is the table's evening as the sheet shows it, most points
// first, as the terminal orders it; nil before a game counted. Called
// with mu held.
func (c *Client) evening() *Evening {
	ev := c.lobby.Evening
	if ev == nil || ev.Games == 0 {
		return nil
	}
	mine := ""
	if c.seat >= 0 && c.seat < len(c.lobby.Players) && c.lobby.Players[c.seat].Peer != "" {
		mine = "peer:" + c.lobby.Players[c.seat].Peer.String()
	}
	lines := slices.Clone(ev.Lines)
	sort.SliceStable(lines, func(i, j int) bool {
		if lines[i].Halves != lines[j].Halves {
			return lines[i].Halves > lines[j].Halves
		}
		return lines[i].Wins > lines[j].Wins
	})
	e := &Evening{Games: ev.Games, Rule: assist.PointsRule(len(c.lobby.Players))}
	for _, l := range lines {
		e.Lines = append(e.Lines, EveLine{Name: l.Name, Bot: l.Bot != "", Points: assist.HalvesText(l.Halves),
			Wins: l.Wins, Games: l.Games, You: mine != "" && l.Key == mine})
	}
	return e
}

// sheetOf is the result sheet. Called with mu held.
func (c *Client) sheetOf(v *engine.View) *Sheet {
	sh := &Sheet{Plays: v.No}
	if c.sheet != nil {
		sh.Checked, sh.Verified, sh.Problems = true, c.sheet.Verified, slices.Clone(c.sheet.Problems)
		sh.Early = c.sheet.Early
		sh.Plays = max(sh.Plays, c.sheet.Plays)
		sh.Summary = gamewire.Summary(sh.Verified, sh.Early, sh.Plays, sh.Problems)
		sh.Notes = slices.Clone(c.sheet.Notes)
	}
	sh.Ratings = RatingsHere
	sh.Evening = c.evening()
	for i := range v.Hands {
		r := Row{Name: c.name(i), You: i == c.seat}
		// The final places, once the game is over: every seat has one
		// (the last out stays in); before, the places of those out.
		if i < len(v.Places) && v.Places[i] > 0 {
			r.Place = v.Places[i]
		} else if i < len(v.Placed) {
			r.Place = v.Placed[i]
		}
		if v.Final != nil && i < len(v.Final.Hands) {
			r.Cards = len(v.Final.Hands[i])
		} else {
			r.Cards = v.Hands[i].Lo
		}
		if i < len(v.Stats) {
			st := v.Stats[i]
			r.Sneaked, r.Caught, r.Calls = st.Sneaks, st.Caught, fmt.Sprintf("%d/%d", st.Right, st.Calls)
		}
		sh.Rows = append(sh.Rows, r)
	}
	// Places first (1, 2, …), then the seats still holding cards, fewest first.
	sort.SliceStable(sh.Rows, func(i, j int) bool {
		a, b := sh.Rows[i], sh.Rows[j]
		if (a.Place > 0) != (b.Place > 0) {
			return a.Place > 0
		}
		if a.Place != b.Place {
			return a.Place < b.Place
		}
		return a.Cards < b.Cards
	})
	return sh
}
