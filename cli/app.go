package cli

import (
	"errors"
	"os"
	"strings"
	"time"

	bkey "charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/table"
	"github.com/bullshit-game/bullshit/protocol"
)

// Config is what cmd/bullshit hands the client.
type Config struct {
	Name       string   // the player's nickname
	ID         string   // a short form of the player's peer ID, for the lobby's header
	Iface      string   // the network interface in use
	Addrs      []string // addresses others can join this machine's tables by
	ProfileDir string   // where hints.json and settings.json live; "" keeps nothing
	NoBell     bool     // --no-bell: never ring, whatever the settings say
	Bots       int      // P's game: how many bots
	Preset     string   // P's game and the form's first preset
	Plain      bool     // no colour and no styling at all (NO_COLOR)
	Solo       bool     // skip the lobby: deal P's game at once
	LobbyErr   error    // why there is no lobby (no network), shown on its screen
	// LastTable is what the new-table form was last created with (its
	// rows by key, TableFile), so N opens on it; nil for the defaults.
	LastTable map[string]string
}

// env is what every screen shares: the config, the looks, the size, the
// player's preferences and the hints already shown.
type env struct {
	cfg   Config
	st    styles
	w, h  int
	prefs Prefs
	hints map[string]bool
	// The two commands that block on the world, so a test can hold them.
	wait func(table.Session) tea.Cmd
	tick func() tea.Cmd
}

// offline reports whether there is no network: the lobby can only deal a
// game here.
func (a *App) offline() bool { return a.lobby == nil || a.env.cfg.LobbyErr != nil }

// bell reports whether the bell may ring.
func (e *env) bell() bool { return !e.cfg.NoBell && !e.prefs.NoBell }

// The screens.
const (
	scrLobby = iota
	scrForm
	scrPrompt
	scrBusy
	scrTable
)

// App is the whole client: the lobby and its forms, and one table at a time.
type App struct {
	env    *env
	lobby  Lobby
	screen int
	lob    lobbyModel
	form   formModel
	prompt promptModel
	table  *tableModel
	busy   string // what we wait for on the busy screen
	err    string // the last thing that went wrong, shown in the lobby
	rules  rulesPage
}

// New makes the client. lobby may be nil: then only P (bots here) works,
// and the lobby says why (cfg.LobbyErr).
func New(cfg Config, lobby Lobby, prefs Prefs, hints map[string]bool) *App {
	if cfg.Name == "" {
		cfg.Name = "You"
	}
	if cfg.Preset == "" {
		cfg.Preset = "standard"
	}
	if hints == nil {
		hints = map[string]bool{}
	}
	e := &env{cfg: cfg, st: newStyles(cfg.Plain), w: 80, h: 24, prefs: prefs, hints: hints, wait: wait, tick: tick}
	return &App{env: e, lobby: lobby}
}

// Run runs the client on the terminal until the player quits. NO_COLOR in
// the environment makes the screen plain.
func Run(cfg Config, lobby Lobby) error {
	if os.Getenv("NO_COLOR") != "" {
		cfg.Plain = true
	}
	prefs, err := LoadPrefs(cfg.ProfileDir)
	if err != nil {
		prefs = Prefs{}
	}
	hints, err := LoadHints(cfg.ProfileDir)
	if err != nil {
		hints = map[string]bool{}
	}
	if cfg.LastTable == nil {
		cfg.LastTable = LoadLastTable(cfg.ProfileDir)
	}
	a := New(cfg, lobby, prefs, hints)
	p := tea.NewProgram(a)
	_, err = p.Run()
	if a.table != nil && a.table.sess != nil {
		a.table.sess.Close()
	}
	if errors.Is(err, tea.ErrInterrupted) {
		return nil
	}
	return err
}

// Messages from the world.
type (
	// updateMsg is an Update from the table, with the local time it came.
	updateMsg struct {
		sess table.Session
		u    table.Update
		at   time.Time
	}
	// closedMsg: the session's updates ended.
	closedMsg struct{ sess table.Session }
	// sessionMsg: a table was joined, created or dealt (or not).
	sessionMsg struct {
		sess table.Session
		err  error
	}
	// tickMsg is the clock, while something on screen counts down.
	tickMsg struct{ at time.Time }
	// sentMsg: a move or a table action went out (or failed to).
	sentMsg struct{ err error }
)

// wait delivers the session's next update; Update re-arms it each time
// (bubbletea's realtime pattern).
func wait(s table.Session) tea.Cmd {
	return func() tea.Msg {
		u, ok := <-s.Updates()
		if !ok {
			return closedMsg{s}
		}
		return updateMsg{sess: s, u: u, at: time.Now()}
	}
}

// tick is the 100 ms clock of countdowns.
func tick() tea.Cmd {
	return tea.Tick(100*time.Millisecond, func(t time.Time) tea.Msg { return tickMsg{t} })
}

// send submits a move.
func send(s table.Session, c engine.Command) tea.Cmd {
	return func() tea.Msg { return sentMsg{s.Send(c)} }
}

// control asks the host for a table action.
func control(s table.Session, action string) tea.Cmd {
	return func() tea.Msg { return sentMsg{s.Control(action)} }
}

// closeSession leaves a table.
func closeSession(s table.Session) tea.Cmd {
	return func() tea.Msg {
		s.Close()
		return nil
	}
}

// bell rings the terminal bell.
func bell() tea.Cmd { return tea.Raw("\a") }

// Init reads the lobby, or deals the solo game straight away.
func (a *App) Init() tea.Cmd {
	cmds := []tea.Cmd{watchLobby(a.lobby, true)}
	if a.env.cfg.Solo {
		cmds = append(cmds, a.solo(quickSolo(a.env.cfg)))
	}
	return tea.Batch(cmds...)
}

// connect runs f (a join, a create, a watch) off the update loop.
func (a *App) connect(what string, f func(Lobby) (table.Session, error)) tea.Cmd {
	a.busy, a.screen, a.err = what, scrBusy, ""
	l := a.lobby
	return func() tea.Msg {
		s, err := f(l)
		return sessionMsg{s, err}
	}
}

// solo deals a game against bots on this machine.
func (a *App) solo(set TableSettings) tea.Cmd {
	if a.lobby == nil {
		a.err = "This build can't deal a game here."
		return nil
	}
	return a.connect("Dealing a game against bots…", func(l Lobby) (table.Session, error) { return l.Solo(set) })
}

// Update is the client's only entry: it never blocks and never does I/O.
// One case per message type, the longer ones in an on… method each.
func (a *App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		a.env.w, a.env.h = max(msg.Width, 20), max(msg.Height, 8)
		return a, nil
	case tablesMsg:
		a.lob.set(msg.tables)
		return a, watchLobby(a.lobby, false)
	case sessionMsg:
		return a, a.onSession(msg)
	case updateMsg:
		if a.table == nil || msg.sess != a.table.sess {
			return a, nil // a table we left
		}
		return a, tea.Batch(a.table.onUpdate(msg.u, msg.at), a.env.wait(msg.sess))
	case closedMsg:
		return a, a.onClosed(msg)
	case tickMsg:
		if a.table != nil {
			return a, a.table.onTick(msg.at)
		}
		return a, nil
	case sentMsg:
		if msg.err != nil && a.table != nil {
			a.table.say(protocol.Sentence(msg.err), true)
		}
		return a, nil
	case savedMsg:
		return a, nil
	case ratedMsg:
		if a.table != nil && msg.sess == a.table.sess {
			a.table.sheetMsg(msg)
		}
		return a, nil
	case sharedMsg:
		if a.table != nil && msg.sess == a.table.sess {
			a.table.sheetMsg(msg)
		}
		return a, nil
	case leaveMsg:
		return a, a.onLeave(msg)
	case tea.KeyPressMsg:
		return a, a.key(msg)
	}
	return a, a.typed(msg)
}

// onSession is a table joined, or the reason it wasn't.
func (a *App) onSession(msg sessionMsg) tea.Cmd {
	if msg.err != nil {
		a.screen, a.err = scrLobby, msg.err.Error()
		if a.form.active {
			a.screen, a.form.err = scrForm, msg.err.Error()
		}
		return nil
	}
	a.form.active = false
	if a.screen != scrBusy {
		// The player gave up waiting: leave the table we got after all.
		return closeSession(msg.sess)
	}
	a.table = newTable(a.env, msg.sess)
	a.screen = scrTable
	return a.env.wait(msg.sess)
}

// onClosed is a table's session ended: the result stays on screen, a game
// in play goes back to the lobby.
func (a *App) onClosed(msg closedMsg) tea.Cmd {
	if a.table == nil || msg.sess != a.table.sess {
		return nil
	}
	if a.table.over() {
		a.table.closed = true
		return nil
	}
	a.table, a.screen = nil, scrLobby
	a.err = "The connection to the table ended."
	if a.rules.from == scrTable {
		a.rules.open = false
	}
	return nil
}

// onLeave leaves the table, for the lobby or for good.
func (a *App) onLeave(msg leaveMsg) tea.Cmd {
	if a.table != nil {
		s := a.table.sess
		a.table, a.screen = nil, scrLobby
		if a.rules.from == scrTable {
			a.rules.open = false
		}
		cmds := []tea.Cmd{closeSession(s)}
		if msg.quit {
			cmds = append(cmds, tea.Quit)
		}
		return tea.Sequence(cmds...)
	}
	if msg.quit {
		return tea.Quit
	}
	return nil
}

// leaveMsg leaves the table, for the lobby or for good.
type leaveMsg struct{ quit bool }

func (a *App) key(k tea.KeyPressMsg) tea.Cmd {
	if bkey.Matches(k, appKeys.Quit) {
		if a.table != nil {
			return func() tea.Msg { return leaveMsg{quit: true} }
		}
		return tea.Quit
	}
	if a.rules.open {
		return a.rulesPageKey(k)
	}
	if bkey.Matches(k, appKeys.Rules) && a.screen == scrTable && a.table != nil && a.table.have && !a.table.help && !a.table.confirm && !a.table.ending && !a.table.giving {
		a.tableRules()
		return nil
	}
	switch a.screen {
	case scrLobby:
		return a.lobbyKey(k)
	case scrForm:
		return a.formKey(k)
	case scrPrompt:
		return a.promptKey(k)
	case scrBusy:
		if bkey.Matches(k, busyKeys.Back) {
			a.screen = scrLobby
		}
	case scrTable:
		if a.table != nil {
			return a.table.key(k)
		}
	}
	return nil
}

// typed takes what is no key to a text field's editor (textinput): a
// paste, the clipboard's answer to ^V.
func (a *App) typed(msg tea.Msg) tea.Cmd {
	if a.rules.open {
		return nil
	}
	switch a.screen {
	case scrForm:
		return a.form.edit(msg)
	case scrPrompt:
		var cmd tea.Cmd
		a.prompt.input, cmd = a.prompt.input.Update(msg)
		return cmd
	}
	return nil
}

// View draws the screen in full: the alternate screen, so a game leaves
// the terminal as it found it.
func (a *App) View() tea.View {
	v := tea.NewView(a.render())
	v.AltScreen = true
	v.WindowTitle = "bullshit"
	return v
}

// render is the screen's text, for View and for tests.
func (a *App) render() string {
	if a.rules.open {
		return a.rulesView()
	}
	switch a.screen {
	case scrForm:
		return a.formView()
	case scrPrompt:
		return a.promptView()
	case scrBusy:
		e := a.env
		return screen([]string{e.st.titleBar("bullshit", "", e.w), e.st.ruleLine(e.w), "", "  " + a.busy},
			[]string{e.st.ruleLine(e.w), e.st.keyBar(e.w, busyKeys.Back)}, e.w, e.h)
	case scrTable:
		if a.table != nil {
			return a.table.view()
		}
	}
	return a.lobbyView()
}

// screen lays out a full screen: top lines from the top, bottom lines at
// the bottom, every line cut to the width. When it doesn't all fit, the
// top is cut, never the keys at the bottom.
func screen(top, bottom []string, w, h int) string {
	room := h - len(bottom)
	if room < 0 {
		bottom = bottom[len(bottom)-h:]
		room = 0
	}
	if len(top) > room {
		top = top[:room]
	}
	lines := make([]string, 0, h)
	lines = append(lines, top...)
	for len(lines) < room {
		lines = append(lines, "")
	}
	lines = append(lines, bottom...)
	for i, l := range lines {
		lines[i] = cut(l, w)
	}
	return strings.Join(lines, "\n")
}

// moved is a cursor moved by d over n items, kept on one of them.
func moved(cursor, d, n int) int { return max(0, min(cursor+d, n-1)) }

// wrap breaks text into lines of w columns at its spaces, the first with
// prefix and the rest indented to match.
func wrap(prefix, text string, w int) []string {
	return hang(prefix, strings.Repeat(" ", width(prefix)), text, w)
}

// hang breaks text into lines of w columns at its spaces, the first after
// first and the rest after rest.
func hang(first, rest, text string, w int) []string {
	head, _, more := strings.Cut(wordwrap(text, w-width(first)), "\n")
	out := []string{first + head}
	if !more {
		return out
	}
	// Wordwrap only breaks lines: the first is where the text starts.
	for _, l := range strings.Split(wordwrap(strings.TrimLeft(text[len(head):], " "), w-width(rest)), "\n") {
		out = append(out, rest+l)
	}
	return out
}

// wordwrap is ansi.Wordwrap, but for hyphens: it breaks after every one
// and runs past w when it does ("or pass --" at 81 columns of 80). A
// non-breaking hyphen, as wide, stands in for them while it wraps: a flag
// or "Wi-Fi" reads better whole.
func wordwrap(text string, w int) string {
	const nb = "\u2011"
	return strings.ReplaceAll(ansi.Wordwrap(strings.ReplaceAll(text, "-", nb), w, ""), nb, "-")
}
