package cli

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	bkey "charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/assist"
	"github.com/bullshit-game/bullshit/node/table"
)

// tableModel is one seat (or a spectator) at a table, in every phase: the
// waiting room, the game, the result sheet. It holds the last update from
// the host, and composes two sub-models: the hand the player is working
// with (handModel, hand.go) and the result sheet (sheetModel, sheet.go),
// each with its own Update and View pieces.
type tableModel struct {
	env  *env
	sess table.Session

	u    table.Update // the last update with a view
	have bool         // an update with a view has come
	recv time.Time    // when it came, on the local clock
	now  time.Time    // the latest tick

	// The hand as laid out, and what is picked (hand.go).
	handModel

	mine string // the situation in which the hand was last set up for a move
	// Counts you know exactly where the table sees them roughly (V14):
	// the pile while every card in it is one you put there or could
	// count, and your own last play (engine/assist).
	pileKnown assist.Pile
	newRound  bool // a V15 round started in the update being taken
	bubbles   map[int]bubble
	log       []string
	reveal    *revealPanel
	status    string // a refusal, or news from the table
	bad       bool   // status is a refusal
	until     time.Time
	hint      string        // the first-run hint on screen
	rang2s    int           // the window whose 2-second bell rang
	start     time.Duration // the host clock at the deal
	end       time.Duration // and at the end
	plays     int
	closed    bool // the session ended after the game
	ticking   bool

	confirm bool // "Leave the table?"
	ending  bool // the host's "End the game now?"
	giving  bool // the host's "Which seat goes to a bot?"
	help    bool
	qr      bool // the web address's QR code is up (qr.go)

	// The result sheet: the audit, the ratings and the share (sheet.go).
	sheetModel
}

// bubble is what a seat is doing, under its name.
type bubble struct {
	text string
	kind int // bubbleNews, bubbleShout, bubbleOut, bubbleLast, bubbleQuiet
	keep bool
}

const (
	bubbleNews = iota
	bubbleShout
	bubbleOut
	bubbleLast
	bubbleQuiet
)

func newTable(e *env, s table.Session) *tableModel {
	return &tableModel{env: e, sess: s, bubbles: map[int]bubble{}, handModel: handModel{rank: engine.NoRank}, rang2s: -1}
}

// v is the view, or nil before the deal.
func (t *tableModel) v() *engine.View {
	if !t.have || t.u.Table.Phase == table.PhaseWaiting || len(t.u.View.Hands) == 0 {
		return nil
	}
	return &t.u.View
}

func (t *tableModel) me() int { return t.u.Table.You }

func (t *tableModel) over() bool {
	v := t.v()
	return (v != nil && v.Phase == engine.PhaseOver) || t.u.Table.Phase == table.PhaseOver
}

// name is how a seat is called on screen: "You" for yourself.
func (t *tableModel) name(s int) string {
	if s == t.me() && s >= 0 {
		return "You"
	}
	if s >= 0 && s < len(t.u.Table.Seats) && t.u.Table.Seats[s].Name != "" {
		return t.u.Table.Seats[s].Name
	}
	return fmt.Sprintf("Seat %d", s+1)
}

// say puts a line in the status bar for a few seconds.
func (t *tableModel) say(msg string, bad bool) {
	t.status, t.bad = msg, bad
	t.until = t.now.Add(5 * time.Second)
}

// can is what this seat may do now, as far as the view tells: the
// engine's assist says, for the phone's page too.
type can = assist.Can

func (t *tableModel) can() can { return assist.Now(t.v(), t.me()) }

// onUpdate takes an update from the table.
func (t *tableModel) onUpdate(u table.Update, at time.Time) tea.Cmd {
	if t.now.Before(at) {
		t.now = at
	}
	var cmds []tea.Cmd
	if u.Notice != "" {
		t.say(u.Notice, false)
		t.addLog(u.Notice)
	}
	if u.Refusal != nil {
		t.say(u.Refusal.Msg, true)
	} else if t.bad && len(u.Events) > 0 {
		// The game moved on: a refusal of a moment ago no longer holds.
		t.status, t.bad, t.until = "", false, time.Time{}
	}
	if u.Audit != nil {
		t.audit = u.Audit
		// A seat at another's table saved the game before its audit came.
		if s, ok := t.sess.(interface{ Saved() (string, error) }); ok {
			t.savedGame, _ = s.Saved()
		}
	}
	if u.Reveal != nil {
		t.final = u.Reveal
	}
	if u.Table.Phase == "" {
		// A reply to a move, or news: no new view.
		return tea.Batch(t.startTick(), t.rate())
	}
	// prev points into t.u: read what's needed of it before t.u changes.
	prev := t.v()
	wasMine := prev != nil && t.myMove(prev)
	fresh := prev == nil || prev.Phase == engine.PhaseOver
	if u.At == 0 && len(u.Events) == 0 && t.have && t.u.At != 0 {
		// News on the last view (a notice, a refusal, the audit): the
		// clock it carries is not the host's, so the countdown keeps its own.
		u.At, u.Deadline = t.u.At, t.u.Deadline
		at = t.recv
	}
	t.u, t.have, t.recv = u, true, at
	v := t.v()
	if v == nil {
		return t.startTick()
	}
	if fresh && v.Phase != engine.PhaseOver {
		t.newGame(u, at)
	}
	t.covered.Observe(u)
	t.plays = v.No
	t.events(u.Events, at)
	t.pileKnown.Check(v, u.Backlog)
	if t.newRound {
		// What was picked, or named, in the last round is of no use in
		// this one: start the hand afresh, and set it up again if it's
		// your move.
		t.newRound = false
		t.forget()
		t.mine = ""
	}
	t.layout(v)
	cmds = append(cmds, t.setUpMove(v, wasMine)...)
	if v.Phase == engine.PhaseOver && t.end == 0 {
		t.end = u.At
	}
	cmds = append(cmds, t.startTick(), t.rate())
	return tea.Batch(cmds...)
}

// newGame forgets the last game at a deal: the first, or a new game at
// the same seats.
func (t *tableModel) newGame(u table.Update, at time.Time) {
	t.start, t.end, t.reveal, t.mine, t.log = u.At, 0, nil, "", nil
	t.sheetModel = newSheet(at, u.Reveal)
}

// setUpMove readies the hand for a move that is now this seat's (a
// hand-over, a play, a judgement, a call) and forgets one that no longer is;
// it returns the bell and hint to show.
func (t *tableModel) setUpMove(v *engine.View, wasMine bool) []tea.Cmd {
	var cmds []tea.Cmd
	c := t.can()
	key := v.Situation()
	switch {
	case c.Give && key != t.mine:
		t.mine = key
		t.clearPicks()
		if !t.env.prefs.NoPick {
			t.pickCards(leastUseful(v.Hand, v, v.Give.Count))
		}
		cmds = append(cmds, t.showHint(HintHandOver), t.ring())
	case (c.Play || c.Judge) && key != t.mine && ((len(v.Hand) > 0 && t.u.Arriving == 0) || c.Judge):
		// (A blind table's turn can come before its node knows the
		// hand, or before a pile's cards reach it: the cards are picked
		// once they are all there.)
		t.mine = key
		t.setupTurn(v, c, t.env.prefs.NoPick)
		if !wasMine {
			cmds = append(cmds, t.ring())
		}
		if c.Play && !c.Judge {
			cmds = append(cmds, t.showHint(HintClaim))
		}
	case c.Call:
		if t.hint == "" || t.hint == HintClaim {
			cmds = append(cmds, t.showHint(HintWindow))
		}
	}
	if c.Choose && !slices.Contains(c.Ranks, t.rank) {
		// Never "name cards": a rank to claim is always one of the choices.
		t.rank = bestRank(v.Hand, c.Ranks, v.Rules)
	}
	if !c.Play && !c.Judge && !c.Give {
		t.mine = ""
		if t.hint == HintClaim || t.hint == HintHandOver {
			t.hint = ""
		}
	}
	if t.hint == HintWindow && v.Phase != engine.PhaseCall {
		t.hint = ""
	}
	return cmds
}

// myMove reports whether the view waits on this seat.
func (t *tableModel) myMove(v *engine.View) bool {
	me := t.me()
	return me >= 0 && ((v.Phase == engine.PhasePlay && v.Turn == me) ||
		(v.Phase == engine.PhaseGive && v.Give != nil && v.Give.From == me))
}

// ring rings the bell, if the player wants it.
func (t *tableModel) ring() tea.Cmd {
	if !t.env.bell() {
		return nil
	}
	return bell()
}

// showHint shows a first-run hint the first time its moment comes, and
// remembers that it was shown.
func (t *tableModel) showHint(name string) tea.Cmd {
	if t.env.hints[name] {
		return nil
	}
	t.env.hints[name] = true
	t.hint = name
	return saveCmd(t.env.cfg.ProfileDir, HintsFile, copyHints(t.env.hints))
}

// needsTick reports whether something on screen counts down.
func (t *tableModel) needsTick() bool {
	if t.reveal != nil || (t.status != "" && !t.until.IsZero()) {
		return true
	}
	v := t.v()
	return v != nil && t.u.Deadline > 0 && (v.Phase == engine.PhaseCall || v.Phase == engine.PhaseGive)
}

func (t *tableModel) startTick() tea.Cmd {
	if t.ticking || !t.needsTick() {
		return nil
	}
	t.ticking = true
	return t.env.tick()
}

// onTick moves the clock: the countdown, the reveal, the bell at 2 s.
func (t *tableModel) onTick(at time.Time) tea.Cmd {
	t.ticking = false
	if at.After(t.now) {
		t.now = at
	}
	var cmds []tea.Cmd
	if t.reveal != nil && !t.now.Before(t.reveal.until) {
		t.reveal = nil
		if t.bad {
			t.status, t.bad, t.until = "", false, time.Time{}
		}
	}
	if t.status != "" && !t.until.IsZero() && !t.now.Before(t.until) {
		t.status, t.until = "", time.Time{}
	}
	if v := t.v(); v != nil && v.Phase == engine.PhaseCall && v.Window != nil && t.can().Call {
		if left := t.left(); left > 0 && left <= 2*time.Second && t.rang2s != v.Window.No {
			t.rang2s = v.Window.No
			cmds = append(cmds, t.ring())
		}
	}
	cmds = append(cmds, t.startTick())
	return tea.Batch(cmds...)
}

// left is the time before the open window or hand-over closes.
func (t *tableModel) left() time.Duration {
	if t.u.Deadline <= 0 {
		return 0
	}
	d := t.u.Deadline - t.u.At
	if !t.u.Table.Paused { // a paused table's clocks stand still
		d -= t.now.Sub(t.recv)
	}
	return max(d, 0)
}

// key handles a key at the table.
func (t *tableModel) key(k tea.KeyPressMsg) tea.Cmd {
	km := tableKeys
	if t.confirm {
		t.confirm = false
		if bkey.Matches(k, km.Yes) {
			return func() tea.Msg { return leaveMsg{} }
		}
		return nil
	}
	if t.ending {
		t.ending = false
		if bkey.Matches(k, km.Yes) {
			return control(t.sess, "end")
		}
		return nil
	}
	if t.giving {
		t.giving = false
		if n, err := strconv.Atoi(k.String()); err == nil && n >= 1 && n <= len(t.u.Table.Seats) {
			return control(t.sess, "bot "+strconv.Itoa(n))
		}
		if k.String() == "0" && len(t.u.Table.Seats) == 10 {
			return control(t.sess, "bot 10")
		}
		return nil
	}
	if t.help {
		return t.helpKey(k)
	}
	if t.qr {
		if bkey.Matches(k, km.Web, km.Esc, km.Leave) {
			t.qr = false
		}
		return nil
	}
	switch {
	case bkey.Matches(k, km.Help):
		t.help = true
		return nil
	case bkey.Matches(k, km.Web):
		if t.u.Table.Web == "" {
			t.say("Phones can't join this table: it has no web address.", true)
			return nil
		}
		t.qr = true
		return nil
	case bkey.Matches(k, km.Leave, km.Esc):
		if bkey.Matches(k, km.Esc) && t.hint != "" {
			t.hint = ""
			return nil
		}
		if t.over() || t.v() == nil && t.u.Table.Phase != table.PhasePlaying {
			if bkey.Matches(k, km.Leave) && t.over() {
				return func() tea.Msg { return leaveMsg{quit: true} }
			}
			return func() tea.Msg { return leaveMsg{} }
		}
		t.confirm = true
		return nil
	}
	if t.over() {
		return t.resultKey(k)
	}
	if t.v() == nil {
		return t.waitingKey(k)
	}
	if bkey.Matches(k, km.Pause) {
		if !t.isHost() {
			t.say("Only the host can pause the game.", true)
			return nil
		}
		return control(t.sess, "pause")
	}
	if bkey.Matches(k, km.EndGame, km.GiveSeat) {
		if !t.isHost() {
			if bkey.Matches(k, km.EndGame) {
				t.say("Only the host can end the game.", true)
			} else {
				t.say("Only the host can give a seat to a bot.", true)
			}
			return nil
		}
		t.ending, t.giving = bkey.Matches(k, km.EndGame), bkey.Matches(k, km.GiveSeat)
		return nil
	}
	return t.gameKey(k)
}

// gameKey is a key pressed during a game: one case per key of the help
// screen, the longer ones in a …Key method each.
func (t *tableModel) gameKey(k tea.KeyPressMsg) tea.Cmd {
	v := t.v()
	c := t.can()
	me := t.me()
	km := tableKeys
	if say, bad, ok := t.handKey(k, v, c); ok {
		if say != "" {
			t.say(say, bad)
		}
		return nil
	}
	switch {
	case bkey.Matches(k, km.HandOver):
		if c.Give {
			return t.handOver()
		}
	case bkey.Matches(k, km.Claim, km.Enter):
		return t.playKey(bkey.Matches(k, km.Claim), c)
	case bkey.Matches(k, km.Call, km.Pass):
		if !c.Call {
			t.say(t.cantCall(), true)
			return nil
		}
		move := engine.MoveCall
		if bkey.Matches(k, km.Pass) {
			move = engine.MovePass
		}
		if t.hint == HintWindow {
			t.hint = ""
		}
		return send(t.sess, engine.Command{Move: move, Seat: me, No: v.Window.No, Rank: engine.NoRank})
	case bkey.Matches(k, km.Doubt):
		return t.judgeKey(engine.MoveDoubt, c)
	case bkey.Matches(k, km.Believe):
		return t.judgeKey(engine.MoveBelieve, c)
	case bkey.Matches(k, km.Skip):
		return t.judgeKey(engine.MoveSkip, c)
	case bkey.Matches(k, km.Quads):
		return t.quadsKey(c)
	}
	return nil
}

// playKey is C or Enter: put the picked cards down, or hand one over; C
// (loud) says why not when it isn't your turn.
func (t *tableModel) playKey(loud bool, c can) tea.Cmd {
	me := t.me()
	if c.Give {
		return t.handOver()
	}
	if !c.Play {
		if loud {
			t.say(t.notYourTurn(), true)
		}
		return nil
	}
	if t.reveal != nil {
		t.say("Wait: the cards are still being shown.", true)
		return nil
	}
	v := t.v()
	r := t.claimRank(c, v)
	cards := t.pickedCards(r)
	if len(cards) == 0 {
		t.say("Pick the cards to put down first: ← → move, space picks.", true)
		return nil
	}
	if p := t.claimProblem(v); p != "" {
		t.say(p+".", true)
		return nil
	}
	if !r.Valid() {
		t.say("Name the rank you claim: R.", true)
		return nil
	}
	cmd := engine.Command{Move: engine.MovePlay, Seat: me, Cards: cards, Rank: engine.NoRank}
	if cl := t.claim(v); cl != len(cards) {
		cmd.Claim = cl
	}
	if c.Choose {
		cmd.Rank = r
	}
	if t.hint == HintClaim {
		t.hint = ""
	}
	return send(t.sess, cmd)
}

// judgeKey is D, V or K: doubt, believe or skip the play in front of you.
func (t *tableModel) judgeKey(move engine.Move, c can) tea.Cmd {
	v := t.v()
	me := t.me()
	if !v.Rules.Doubt {
		return nil
	}
	if !c.Judge {
		t.say(t.notYourTurn(), true)
		return nil
	}
	if t.reveal != nil {
		t.say("Wait: the cards are still being shown.", true)
		return nil
	}
	return send(t.sess, engine.Command{Move: move, Seat: me, No: v.No, Rank: engine.NoRank})
}

// quadsKey is 4: lay out four of a kind.
func (t *tableModel) quadsKey(c can) tea.Cmd {
	v := t.v()
	me := t.me()
	if !c.Quads {
		if v.Rules.Quads {
			t.say("Lay out four of a kind on your turn, before you play, when you hold four.", true)
		}
		return nil
	}
	if t.reveal != nil {
		t.say("Wait: the cards are still being shown.", true)
		return nil
	}
	cards := t.quadCards()
	return send(t.sess, engine.Command{Move: engine.MoveQuads, Seat: me, Cards: cards, Rank: engine.NoRank})
}

// quadCards is the four of a kind to lay out: the picked four if they are
// one, else the first four the hand holds.
func (t *tableModel) quadCards() []engine.Card {
	p := t.pickedCards(engine.NoRank)
	if len(p) == 4 {
		r := p[0].Rank()
		ok := r.Valid()
		for _, c := range p {
			ok = ok && c != engine.Joker && c.Rank() == r
		}
		if ok {
			return p
		}
	}
	v := t.v()
	r := quadsIn(v.Hand, v.Rules)[0]
	var out []engine.Card
	for _, c := range v.Hand {
		if c != engine.Joker && c.Rank() == r && len(out) < 4 {
			out = append(out, c)
		}
	}
	return out
}

// handOver sends the hand-over of a caught sneak (V14).
func (t *tableModel) handOver() tea.Cmd {
	v := t.v()
	cards := t.pickedCards(engine.NoRank)
	if len(cards) != v.Give.Count {
		t.say(fmt.Sprintf("Pick exactly %d card to hand over.", v.Give.Count), true)
		return nil
	}
	if t.hint == HintHandOver {
		t.hint = ""
	}
	return send(t.sess, engine.Command{Move: engine.MoveGive, Seat: t.me(), Cards: cards, Rank: engine.NoRank})
}

func (t *tableModel) notYourTurn() string {
	v := t.v()
	switch {
	case v == nil:
		return "The game hasn't started."
	case t.me() < 0:
		return "You're watching: spectators don't play."
	case out(v, t.me()):
		return "You're out of this game."
	case v.Phase == engine.PhaseCall:
		return "Wait: the last play can still be called."
	case v.Phase == engine.PhaseGive:
		return fmt.Sprintf("Wait: %s is handing over a card.", t.name(v.Give.From))
	}
	return fmt.Sprintf("It isn't your turn: %s plays.", t.name(v.Turn))
}

func (t *tableModel) cantCall() string {
	v := t.v()
	switch {
	case t.me() < 0:
		return "You're watching: spectators don't call."
	case v.Rules.Doubt:
		return "I Doubt It has no call window: D doubts, V believes on your turn."
	case v.Phase != engine.PhaseCall || v.Window == nil:
		return "There's nothing to call right now."
	case v.Last != nil && v.Last.Seat == t.me():
		return "You can't call your own play."
	case slices.Contains(v.Window.Passed, t.me()):
		return "You already let this play go."
	case v.Rules.NextOnly:
		return "Only the next player may call at this table."
	}
	return "You can't call this play."
}

func (t *tableModel) waitingKey(k tea.KeyPressMsg) tea.Cmd {
	if bkey.Matches(k, tableKeys.Start) {
		if !t.isHost() {
			t.say("Only the host starts the game.", true)
			return nil
		}
		return control(t.sess, "start")
	}
	return nil
}

func (t *tableModel) resultKey(k tea.KeyPressMsg) tea.Cmd {
	km := tableKeys
	switch {
	case bkey.Matches(k, km.Again):
		if !t.isHost() {
			t.say("Only the host can deal again; the host's N deals for everyone.", true)
			return nil
		}
		if t.closed {
			t.say("The table has closed.", true)
			return nil
		}
		// The sheet, its audit with it, stays until the new deal comes
		// (onUpdate clears it then): a host action can be refused.
		t.status = ""
		return control(t.sess, "again")
	case bkey.Matches(k, km.Lobby):
		return func() tea.Msg { return leaveMsg{} }
	case bkey.Matches(k, km.Share):
		return t.share()
	}
	return nil
}

// isHost reports whether this seat hosts the table.
func (t *tableModel) isHost() bool {
	me := t.me()
	ts := t.u.Table
	return me >= 0 && me < len(ts.Seats) && ts.Seats[me].Name == ts.Host
}

// helpKey switches an assist (the digits) or closes help.
func (t *tableModel) helpKey(k tea.KeyPressMsg) tea.Cmd {
	p := &t.env.prefs
	sw := tableKeys.Assists
	switch {
	case bkey.Matches(k, sw[0]):
		p.NoLight = !p.NoLight
	case bkey.Matches(k, sw[1]):
		p.NoPick = !p.NoPick
	case bkey.Matches(k, sw[2]):
		p.NoCount = !p.NoCount
	case bkey.Matches(k, sw[3]):
		p.NoBell = !p.NoBell
	case bkey.Matches(k, sw[4]):
		clear(t.env.hints)
		return saveCmd(t.env.cfg.ProfileDir, HintsFile, copyHints(t.env.hints))
	default:
		t.help = false
		return nil
	}
	return saveCmd(t.env.cfg.ProfileDir, SettingsFile, *p)
}
