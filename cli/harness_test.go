package cli

import (
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/table"
)

// fakeSession is a table line that a test writes updates into and reads
// moves out of.
type fakeSession struct {
	ch       chan table.Update
	mu       sync.Mutex
	sent     []engine.Command
	controls []string
	closed   bool
	// controlErr, if set, is how the table answers a table action: as a
	// player's session answers N on the result sheet.
	controlErr error
}

func newFake() *fakeSession { return &fakeSession{ch: make(chan table.Update, 256)} }

func (f *fakeSession) Updates() <-chan table.Update { return f.ch }

func (f *fakeSession) Send(c engine.Command) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sent = append(f.sent, c)
	return nil
}

func (f *fakeSession) Control(a string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.controls = append(f.controls, a)
	return f.controlErr
}

func (f *fakeSession) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	return nil
}

// takeSent empties and returns the moves sent so far.
func (f *fakeSession) takeSent() []engine.Command {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.sent
	f.sent = nil
	return s
}

// fakeLobby is a lobby with a fixed list, recording what was asked of it.
type fakeLobby struct {
	mu      sync.Mutex
	tables  []TableSummary
	changed chan struct{}
	created []TableSettings
	joined  []string
	solo    []TableSettings
	sess    *fakeSession
}

func (l *fakeLobby) Tables() []TableSummary {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]TableSummary(nil), l.tables...)
}
func (l *fakeLobby) Changed() <-chan struct{} { return l.changed }
func (l *fakeLobby) Create(s TableSettings) (table.Session, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.created = append(l.created, s)
	return l.session(), nil
}
func (l *fakeLobby) Join(id, code string) (table.Session, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.joined = append(l.joined, id+"/"+code)
	return l.session(), nil
}
func (l *fakeLobby) JoinAddr(addr string) (table.Session, error) { return l.Join("addr:"+addr, "") }
func (l *fakeLobby) Watch(id string) (table.Session, error)      { return l.Join("watch:"+id, "") }
func (l *fakeLobby) Solo(s TableSettings) (table.Session, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.solo = append(l.solo, s)
	return l.session(), nil
}
func (l *fakeLobby) session() table.Session {
	if l.sess == nil {
		l.sess = newFake()
	}
	return l.sess
}

// run executes a command the way bubbletea would, as far as a test cares:
// batches are opened, and a command that blocks (a wait on the table, a
// tick) is left alone.
func run(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	select {
	case m := <-ch:
		if m == nil {
			return nil
		}
		if b, ok := m.(tea.BatchMsg); ok {
			var out []tea.Msg
			for _, c := range b {
				out = append(out, run(c)...)
			}
			return out
		}
		// tea.Sequence's message is an unexported slice of commands.
		if rv := reflect.ValueOf(m); rv.Kind() == reflect.Slice && rv.Type().Elem() == reflect.TypeOf(tea.Cmd(nil)) {
			var out []tea.Msg
			for i := range rv.Len() {
				out = append(out, run(rv.Index(i).Interface().(tea.Cmd))...)
			}
			return out
		}
		return []tea.Msg{m}
	case <-time.After(2 * time.Second):
		panic("a command blocked: tests hold the waits and ticks")
	}
}

// rings reports whether the messages ring the bell.
func rings(msgs []tea.Msg) bool {
	for _, m := range msgs {
		if r, ok := m.(tea.RawMsg); ok && r.Msg == "\a" {
			return true
		}
	}
	return false
}

// hold keeps the client from waiting on the table or the clock: the test
// delivers updates and ticks itself.
func hold(a *App) {
	a.env.wait = func(table.Session) tea.Cmd { return nil }
	a.env.tick = func() tea.Cmd { return nil }
}

// namedKeys are the keys a test names by word, as the key press each is.
var namedKeys = map[string]tea.KeyPressMsg{
	"left":      {Code: tea.KeyLeft},
	"right":     {Code: tea.KeyRight},
	"up":        {Code: tea.KeyUp},
	"down":      {Code: tea.KeyDown},
	"enter":     {Code: tea.KeyEnter},
	"esc":       {Code: tea.KeyEscape},
	"space":     {Code: tea.KeySpace, Text: " "},
	"backspace": {Code: tea.KeyBackspace},
	"ctrl+c":    {Code: 'c', Mod: tea.ModCtrl},
	"ctrl+r":    {Code: 'r', Mod: tea.ModCtrl},
	"pgdown":    {Code: tea.KeyPgDown},
}

func key(k string) tea.KeyPressMsg {
	if m, ok := namedKeys[k]; ok {
		return m
	}
	r := []rune(k)
	return tea.KeyPressMsg{Code: r[0], Text: k}
}

// harness is a real engine game seen from one seat through the client: the
// test plays the host, turning the engine's views into updates.
type harness struct {
	t     *testing.T
	g     *engine.Game
	you   int
	now   time.Duration // the host's clock
	local time.Time     // the player's clock
	ts    table.TableState
	app   *App
	sess  *fakeSession
	dir   string
	last  []tea.Msg // what the last step's commands gave
	cfg   engine.Config
	steps []engine.Step // the host's log, as a Reveal carries it
}

type opts struct {
	rules  engine.Rules
	seats  int
	seed   uint64
	you    int
	hands  [][]engine.Card
	first  *int
	plain  bool
	w, h   int
	dir    string
	prefs  Prefs
	hints  map[string]bool
	noBell bool
}

func newHarness(t *testing.T, o opts) *harness {
	t.Helper()
	if o.seats == 0 {
		o.seats = 4
	}
	if o.rules.Window == 0 {
		o.rules = engine.Standard()
	}
	if o.w == 0 {
		o.w, o.h = 80, 24
	}
	cfg := engine.Config{Rules: o.rules, Seats: o.seats, Seed: o.seed, Hands: o.hands, First: o.first}
	g, deal, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"Ada", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jun"}
	ts := table.TableState{ID: "t1", Name: "Kitchen", Preset: o.rules.Preset, Rules: o.rules, You: o.you,
		Host: names[0], Phase: "playing", Reveal: 2 * time.Second}
	for s := 0; s < o.seats; s++ {
		info := table.SeatInfo{Name: names[s], Connected: true}
		if s != o.you && s != 0 {
			info.Bot = "medium"
		}
		ts.Seats = append(ts.Seats, info)
	}
	hints := o.hints
	if hints == nil {
		// Tests see the hints only when they ask for them.
		hints = map[string]bool{HintClaim: true, HintWindow: true, HintHandOver: true}
	}
	ts.Commit[0], ts.Commit[31] = byte(o.seed), 0xc0
	h := &harness{t: t, g: g, you: o.you, ts: ts, sess: newFake(), dir: o.dir, cfg: cfg,
		local: time.Date(2026, 11, 29, 20, 0, 0, 0, time.UTC)}
	me := "Zed"
	if o.you >= 0 {
		me = names[o.you]
	}
	h.app = New(Config{Name: me, Plain: o.plain, ProfileDir: o.dir, Bots: 3, NoBell: o.noBell}, &fakeLobby{}, o.prefs, hints)
	hold(h.app)
	h.app.Update(tea.WindowSizeMsg{Width: o.w, Height: o.h})
	h.app.screen = scrBusy // as if the lobby had dialled
	h.app.Update(sessionMsg{sess: h.sess})
	h.deliver(deal)
	return h
}

// update is what the seat gets after events.
func (h *harness) update(events []engine.Event) table.Update {
	var mine []engine.Event
	for _, e := range events {
		if e.VisibleTo(h.you) {
			mine = append(mine, e)
		}
	}
	ts := h.ts
	if h.g.Over() {
		ts.Phase = "over"
	}
	u := table.Update{View: h.g.View(h.you), Events: mine, Table: ts, At: h.now}
	if d, ok := h.g.Deadline(); ok {
		u.Deadline = d
	}
	if h.g.Over() && len(events) > 0 {
		// The host's reveal at the end, as a table sends it.
		u.Reveal = &table.Reveal{Config: h.cfg, Steps: append([]engine.Step(nil), h.steps...)}
	}
	return u
}

// newGame deals the next game at the table, as the host's N does.
func (h *harness) newGame(cfg engine.Config) {
	h.t.Helper()
	g, deal, err := engine.New(cfg)
	if err != nil {
		h.t.Fatal(err)
	}
	h.g, h.cfg, h.steps = g, cfg, nil
	h.ts.Commit[0]++
	h.deliver(deal)
}

func (h *harness) deliver(events []engine.Event) {
	h.t.Helper()
	h.send(updateMsg{sess: h.sess, u: h.update(events), at: h.local})
}

// send feeds a message to the client and runs what it asks for.
func (h *harness) send(m tea.Msg) {
	h.t.Helper()
	_, cmd := h.app.Update(m)
	h.last = run(cmd)
	for _, m := range h.last {
		switch m.(type) {
		case leaveMsg, sentMsg, ratedMsg, sharedMsg:
			_, cmd := h.app.Update(m)
			h.last = append(h.last, run(cmd)...)
		}
	}
}

// apply plays a command at the host, and the seat sees its events.
func (h *harness) apply(c engine.Command) {
	h.t.Helper()
	ev, err := h.g.Apply(h.now, c)
	if err != nil {
		h.t.Fatalf("%v: %v", c, err)
	}
	h.steps = append(h.steps, engine.Step{At: h.now, Cmd: &c})
	h.deliver(ev)
}

// wait moves both clocks on by d, firing the host's deadlines.
func (h *harness) wait(d time.Duration) {
	h.t.Helper()
	h.now += d
	h.local = h.local.Add(d)
	ev := h.g.Tick(h.now)
	var all []tea.Msg
	if len(ev) > 0 {
		h.steps = append(h.steps, engine.Step{At: h.now})
		h.deliver(ev)
		all = append(all, h.last...)
	}
	h.send(tickMsg{h.local})
	h.last = append(all, h.last...)
}

// press types keys at the client.
func (h *harness) press(keys ...string) {
	h.t.Helper()
	for _, k := range keys {
		h.send(key(k))
	}
}

// sent plays the moves the client sent at the host, and returns them.
func (h *harness) sent() []engine.Command {
	h.t.Helper()
	cs := h.sess.takeSent()
	for _, c := range cs {
		ev, err := h.g.Apply(h.now, c)
		if err != nil {
			h.t.Fatalf("the client sent a move the engine refused: %+v: %v", c, err)
		}
		h.steps = append(h.steps, engine.Step{At: h.now, Cmd: &c})
		h.deliver(ev)
	}
	return cs
}

// sentClaim fails the test unless the client sent one move, a claim of
// claim cards holding n.
func (h *harness) sentClaim(claim, n int) {
	h.t.Helper()
	if got := h.sent(); len(got) != 1 || got[0].Claim != claim || len(got[0].Cards) != n {
		h.t.Fatalf("sent %+v", got)
	}
}

// controlled fails the test unless keys made the host's n-th control of
// the game want.
func (h *harness) controlled(keys string, n int, want string) {
	h.t.Helper()
	if len(h.sess.controls) != n || h.sess.controls[n-1] != want {
		h.t.Fatalf("%s sent %v, want %s", keys, h.sess.controls, want)
	}
}

// sentNothing fails unless the client has sent no move since sent or
// sentNothing last looked.
func (h *harness) sentNothing() {
	h.t.Helper()
	if got := h.sess.takeSent(); len(got) != 0 {
		h.t.Fatalf("sent %+v", got)
	}
}

// screen is the text on screen.
func (h *harness) screen() string { return stripANSI(h.app.render()) }

func (h *harness) has(parts ...string) {
	h.t.Helper()
	s := h.screen()
	for _, p := range parts {
		if !strings.Contains(s, p) {
			h.t.Errorf("screen lacks %q:\n%s", p, s)
		}
	}
}

func (h *harness) lacks(parts ...string) {
	h.t.Helper()
	s := h.screen()
	for _, p := range parts {
		if strings.Contains(s, p) {
			h.t.Errorf("screen shows %q:\n%s", p, s)
		}
	}
}

// botMove is a simple player for the other seats: the cards of the rank
// (or one card), lets every play go, hands over its first card, skips.
func botMove(v engine.View, seat int) (engine.Command, bool) {
	c := engine.Command{Seat: seat, Rank: engine.NoRank}
	switch {
	case v.Phase == engine.PhaseCall && v.Window != nil:
		for _, s := range v.Window.Callers {
			if s == seat {
				c.Move, c.No = engine.MovePass, v.Window.No
				return c, true
			}
		}
	case v.Phase == engine.PhaseGive && v.Give != nil && v.Give.From == seat:
		c.Move, c.Cards = engine.MoveGive, v.Hand[:v.Give.Count]
		return c, true
	case v.Phase == engine.PhasePlay && v.Turn == seat && len(v.Hand) > 0:
		if v.Rules.Doubt && v.Round != nil && v.No > 0 && v.Last != nil && v.Last.Seat != seat {
			c.Move = engine.MoveSkip
			return c, true
		}
		c.Move = engine.MovePlay
		r := v.Rank
		if !r.Valid() {
			r = v.Hand[0].Rank()
			if len(v.Ranks) > 0 {
				r = v.Ranks[0]
			}
			if !r.Valid() {
				r = 0
			}
			c.Rank = r
		}
		for _, card := range v.Hand {
			if card.Matches(r) && len(c.Cards) < v.Cap {
				c.Cards = append(c.Cards, card)
			}
		}
		if len(c.Cards) == 0 {
			c.Cards = v.Hand[:1]
		}
		return c, true
	}
	return c, false
}

// botsPlay lets the other seats move until the client's seat must act
// (or the game ends); steps bounds it.
func (h *harness) botsPlay(steps int) {
	h.t.Helper()
	for i := 0; i < steps && !h.g.Over(); i++ {
		moved := false
		for s := 0; s < h.g.Seats(); s++ {
			if s == h.you {
				continue
			}
			if c, ok := botMove(h.g.View(s), s); ok {
				h.apply(c)
				moved = true
				break
			}
		}
		if !moved {
			return
		}
	}
}
