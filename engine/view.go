package engine

import "fmt"

// View is what one seat may see (R15), and nothing more: its own hand,
// every claim, every hand's size and the pile's (rough under V14), cards a
// call turned up, whose turn it is and the clock. A spectator's view
// (seat -1) has no hand. Bots decide from a View alone.
type View struct {
	Seat   int        `json:"seat"`
	Phase  Phase      `json:"phase"`
	Turn   int        `json:"turn"`
	Rank   Rank       `json:"rank"`
	Ranks  []Rank     `json:"ranks,omitempty"` // the ranks allowed (V4)
	No     int        `json:"no"`
	Hand   []Card     `json:"hand"`
	Hands  []Count    `json:"hands"`
	Pile   Count      `json:"pile"`
	Last   *Last      `json:"last"`
	Window *Window    `json:"window"`
	Now    Seconds    `json:"now"`
	Winner *int       `json:"winner"`
	Places []int      `json:"places"`
	Give   *GiveView  `json:"give,omitempty"`
	Round  *RoundView `json:"round,omitempty"`
	Gone   int        `json:"gone"`             // cards out of the game (V9, V15)
	Seen   []Card     `json:"seen,omitempty"`   // of those, the ones shown face up
	Placed []int      `json:"placed,omitempty"` // each seat's place once out (V8, V15), 0 while in
	Cap    int        `json:"cap"`
	Stats  []Stats    `json:"stats"`
	Rules  Rules      `json:"rules"` // the table's rules, which every seat knows
	// At the end of the game every card may be shown.
	Final *Final `json:"final,omitempty"`
}

// Last is the last play as a seat sees it.
type Last struct {
	Seat   int    `json:"seat"`
	Rank   Rank   `json:"rank"`
	Claim  int    `json:"claim"`
	No     int    `json:"no"`
	Out    bool   `json:"out"`
	Cards  []Card `json:"cards,omitempty"` // only when turned up, or the viewer's own
	Shown  bool   `json:"shown"`
	Caller *int   `json:"caller,omitempty"`
	Sizes  Sizes  `json:"sizes"`
}

// Window is an open call window.
type Window struct {
	No     int     `json:"no"`
	Closes Seconds `json:"closes"`
	Passed []int   `json:"passed"`
	// Callers are the seats that may still call.
	Callers []int `json:"callers"`
}

// GiveView is a V14 hand-over in progress.
type GiveView struct {
	From   int     `json:"from"`
	To     int     `json:"on"`
	Count  int     `json:"count"`
	Closes Seconds `json:"closes"`
}

// RoundView is a V15 round.
type RoundView struct {
	Rank    Rank  `json:"rank"`
	Starter int   `json:"starter"`
	Skips   int   `json:"skips"`
	Cards   Count `json:"cards"`
}

// Final is every card, shown when the game is over.
type Final struct {
	Hands [][]Card `json:"hands"`
	Pile  []Card   `json:"pile"`
	Gone  []Card   `json:"gone"`
}

// View is what seat may see; seat -1 is a spectator.
func (g *Game) View(seat int) View {
	var v View
	g.ViewInto(seat, &v)
	return v
}

// ViewInto fills v with what seat may see, reusing v's slices: the
// simulator's bots call it every move.
func (g *Game) ViewInto(seat int, v *View) { g.viewInto(g, seat, v) }

// viewInto fills v with what seat may see of what p holds.
func (t *table) viewInto(p pieces, seat int, v *View) {
	rough := t.rules.Rough
	over := t.phase == PhaseOver
	pile := p.pileSize()
	*v = View{
		Seat: seat, Phase: t.phase, Turn: t.turn, Rank: t.required(), No: t.plays,
		Hand: v.Hand[:0], Hands: v.Hands[:0], Pile: Seen(pile, true, rough && !over),
		Now: Seconds(t.now), Gone: p.goneSize(), Cap: t.cap, Stats: v.Stats[:0],
		Ranks: t.AllowedRanks(), Last: v.Last, Window: v.Window, Rules: t.rules,
	}
	if over {
		v.Rank = NoRank
	}
	if seat >= 0 && seat < t.n {
		v.Hand = append(v.Hand, p.handOf(seat)...)
	}
	if v.Hand == nil {
		v.Hand = []Card{}
	}
	for s := range t.n {
		v.Hands = append(v.Hands, Seen(p.size(s), false, rough && s != seat && !over))
	}
	for s, st := range t.stats {
		if s != seat && !over {
			st.Sneaks = -1
		}
		v.Stats = append(v.Stats, st)
	}
	if t.plays > 0 {
		v.Last = t.lastInto(p, seat, v.Last, over)
	} else {
		v.Last = nil
	}
	if t.phase == PhaseCall {
		v.Window = t.windowInto(v.Window)
	} else {
		v.Window = nil
	}
	if t.phase == PhaseGive {
		v.Give = &GiveView{From: t.give.from, To: t.give.to, Count: t.give.n, Closes: Seconds(t.give.closes)}
	}
	if t.rules.Doubt && t.round.rank != NoRank {
		v.Round = &RoundView{Rank: t.round.rank, Starter: t.round.starter, Skips: t.round.skips,
			Cards: Seen(pile, true, rough && !over)}
	}
	if len(t.seen) > 0 {
		v.Seen = append([]Card(nil), t.seen...)
	}
	if t.nOut > 0 {
		v.Placed = append([]int(nil), t.placed...)
	}
	if t.winner >= 0 && (over || t.nOut > 0) {
		w := t.winner
		v.Winner = &w
	}
	if over {
		v.Places = append([]int(nil), t.places...)
		v.Final = p.final()
	}
}

// lastInto fills l, or a new Last, with the last play as seat sees it.
func (t *table) lastInto(pc pieces, seat int, l *Last, over bool) *Last {
	p := &t.last
	if l == nil {
		l = new(Last)
	}
	*l = Last{Seat: p.seat, Rank: p.rank, Claim: p.claim, No: p.no, Out: p.out, Shown: p.shown,
		Sizes: p.sizes, Cards: l.Cards[:0]}
	if p.shown || p.seat == seat || over {
		l.Cards = append(l.Cards, pc.playCards()...)
	} else {
		l.Cards = nil
	}
	if p.shown && p.caller >= 0 {
		c := p.caller
		l.Caller = &c
	}
	return l
}

// windowInto fills w, or a new Window, with the open call window.
func (t *table) windowInto(w *Window) *Window {
	if w == nil {
		w = new(Window)
	}
	if w.Passed == nil {
		// [] rather than null on the wire: nobody has let it go yet.
		w.Passed = make([]int, 0, t.n)
	}
	*w = Window{No: t.win.no, Closes: Seconds(t.win.closes), Passed: w.Passed[:0], Callers: w.Callers[:0]}
	for s := 0; s < t.n; s++ {
		if t.win.passed&(1<<s) != 0 {
			w.Passed = append(w.Passed, s)
		}
		if t.win.callers&(1<<s) != 0 {
			w.Callers = append(w.Callers, s)
		}
	}
	return w
}

// State is the whole truth of a game: every hand, the pile bottom first, the
// cards out of the game. Only the host and the referee's state command see it.
type State struct {
	View
	Hands  [][]Card `json:"hands"`
	Pile   []Card   `json:"pile"`
	Out    []Card   `json:"out"`
	Dealer int      `json:"dealer"`
	First  int      `json:"first"`
	Total  int      `json:"total"`
}

// State is the whole truth, for the referee and audits.
func (g *Game) State() State {
	v := g.View(-1)
	v.Hands = nil
	copy(v.Stats, g.stats)
	if g.plays > 0 && v.Last != nil {
		v.Last.Cards = append([]Card(nil), g.last.cards...)
	}
	st := State{View: v, Hands: make([][]Card, g.n), Pile: append([]Card{}, g.pile...),
		Out: append([]Card{}, g.gone...), Dealer: g.dealer, First: g.first, Total: g.total}
	for s, h := range g.hands {
		st.Hands[s] = append([]Card{}, h...)
	}
	return st
}

// Situation names the moment a seat acts in: the phase, the play, whose
// turn, who hands over, the round's skips, whether the last play has been
// turned up, the cards out of the game and the size of the viewer's hand.
// A player (a bot, a screen, a host's clock) decides once per situation,
// and again only when it changes: another seat letting a play go doesn't
// change it.
//
// Every move that can give the same seat the turn again must change the
// key, or a table that waits for a new situation waits for ever: in I Doubt
// It a believer whose belief is borne out starts the next round with the
// same play number, turn, skips and hand as when it believed; only the
// turned-up play and the cards gone tell the two moments apart.
func (v *View) Situation() string {
	giver, skips := -1, 0
	if v.Give != nil {
		giver = v.Give.From
	}
	if v.Round != nil {
		skips = v.Round.Skips
	}
	shown := v.Last != nil && v.Last.Shown
	return fmt.Sprintf("%d/%d/%d/%d/%d/%t/%d/%d", v.Phase, v.No, v.Turn, giver, skips, shown, v.Gone, len(v.Hand))
}
