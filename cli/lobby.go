package cli

import (
	"fmt"
	"strings"
	"time"

	bkey "charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/table"
)

// Lobby is the tables around, as the client needs them: cmd/bullshit wires
// it to the node package (discovery, hosting, joining). Every method but
// Tables and Changed may block on the network; the client calls them from
// commands, never from Update.
type Lobby interface {
	// Tables lists the tables found on the LAN now.
	Tables() []TableSummary
	// Changed receives whenever the list may have changed; the client
	// reads Tables again. A closed channel means no more changes.
	Changed() <-chan struct{}
	// Create hosts a table on this machine, open to the LAN, and seats us.
	Create(TableSettings) (table.Session, error)
	// Join takes a seat at a table found in the lobby (code: its join
	// code, "" for an open table).
	Join(id, code string) (table.Session, error)
	// JoinAddr joins the table at an address the host's screen shows,
	// for networks where discovery is blocked.
	JoinAddr(addr string) (table.Session, error)
	// Watch follows a table as a spectator.
	Watch(id string) (table.Session, error)
	// Solo deals a game on this machine alone, against bots: no network.
	Solo(TableSettings) (table.Session, error)
}

// TableSummary is one table in the lobby.
type TableSummary struct {
	ID      string
	Name    string
	Host    string
	Taken   int
	Seats   int
	Preset  string
	Playing bool // the game is on: watch only
	Locked  bool // joining needs a code
	Addr    string
	Words   string // the host's key as three words: two tables of one name differ in them
}

// TableSettings are what the create-table form chooses.
type TableSettings struct {
	Name  string
	Rules engine.Rules
	Seats int
	Bots  []string // a level for each bot seat: easy, medium, hard
	Code  string   // join code; "" for an open table
	// TurnClock is how long a person's turn waits before the table plays
	// the fallback move for them; 0 waits for ever (table.Settings.TurnClock).
	TurnClock time.Duration
}

// BotLevels are the levels a bot seat can be given.
var BotLevels = []string{"easy", "medium", "hard"}

// lobbyModel is the list of tables on the network.
type lobbyModel struct {
	tables []TableSummary
	cursor int
	loaded bool
}

// tablesMsg is a fresh list of tables.
type tablesMsg struct{ tables []TableSummary }

// watchLobby reads the list now (first) or once it changes.
func watchLobby(l Lobby, first bool) tea.Cmd {
	if l == nil {
		return nil
	}
	return func() tea.Msg {
		if !first {
			if l.Changed() == nil {
				return nil
			}
			if _, ok := <-l.Changed(); !ok {
				return nil
			}
		}
		return tablesMsg{l.Tables()}
	}
}

func (m *lobbyModel) set(ts []TableSummary) {
	var id string
	if m.cursor < len(m.tables) {
		id = m.tables[m.cursor].ID
	}
	m.tables, m.loaded = ts, true
	m.cursor = 0
	for i, t := range ts {
		if t.ID == id {
			m.cursor = i
		}
	}
}

func (m *lobbyModel) selected() (TableSummary, bool) {
	if m.cursor < 0 || m.cursor >= len(m.tables) {
		return TableSummary{}, false
	}
	return m.tables[m.cursor], true
}

// lobbyView draws the lobby: the tables, or why there are none.
func (a *App) lobbyView() string {
	e := a.env
	w, h := e.w, e.h
	me := e.cfg.Name
	if e.cfg.ID != "" {
		me += " (…" + e.cfg.ID + ")"
	}
	right := "you: " + me
	if e.cfg.Iface != "" {
		right += "   on: " + e.cfg.Iface
	}
	var out []string
	out = append(out, e.st.titleBar("bullshit · lobby", right, w), e.st.ruleLine(w))
	m := &a.lob
	switch {
	case a.offline():
		out = append(out, "", "  "+e.st.r(e.st.bold, "No network here."))
		why := "The network could not start."
		if e.cfg.LobbyErr != nil {
			why = "The network could not start: " + e.cfg.LobbyErr.Error()
		}
		out = append(out, wrap("  ", why, w)...)
		out = append(out, "", "  You can still play: P deals a game against bots on this machine alone.")
	case !m.loaded:
		out = append(out, "", "  Looking for tables on this network…")
	case len(m.tables) == 0:
		out = append(out, "", "  "+e.st.r(e.st.bold, "No tables found on this network yet."), "")
		out = append(out, wrap("  ", "Tables show up here by themselves, live. If none do:", w)...)
		out = append(out, wrap("  · ", "the others may not be running bullshit yet, or may not be on the same Wi-Fi;", w)...)
		out = append(out, wrap("  · ", "some networks (guest, hotel, office Wi-Fi) block discovery (multicast): press A and type the address the host's screen shows;", w)...)
		out = append(out, wrap("  · ", "N hosts a table here for the others to find;", w)...)
		out = append(out, wrap("  · ", "P plays against bots on this machine alone.", w)...)
	default:
		out = append(out, "  Tables on this network", "")
		out = append(out, a.tableList(w)...)
		out = append(out, "")
		out = append(out, wrap("  ", "Not seeing a table? Everyone must be on the same Wi-Fi; some networks block discovery: press A and type the address the host's screen shows.", w)...)
	}
	if a.err != "" {
		out = append(out, "", "  "+e.st.r(e.st.refusal, a.err))
	}
	return screen(out, []string{e.st.ruleLine(w), a.lobbyHelp(w)}, w, h)
}

// tableList is a line per table found, the chosen one marked, each with
// its host's words under it.
func (a *App) tableList(w int) []string {
	e := a.env
	m := &a.lob
	var out []string
	nameW := max(8, min(24, w-66))
	for i, t := range m.tables {
		mark := "  "
		if i == m.cursor {
			mark = "▸ "
		}
		state := "waiting"
		extra := ""
		if t.Playing {
			state = "playing"
			extra = "(watch)"
		}
		if t.Locked {
			extra = strings.TrimSpace(extra + " needs code")
		}
		if !t.Playing && t.Seats > 0 && t.Taken >= t.Seats {
			extra = strings.TrimSpace(extra + " full")
		}
		line := fmt.Sprintf("%s%s %s %s %s %s %s", mark, fit(t.Name, nameW), fit("host "+t.Host, 14),
			fit(fmt.Sprintf("%d/%d seats", t.Taken, t.Seats), 11), fit(t.Preset, 9), fit(state, 8), extra)
		if i == m.cursor {
			line = e.st.r(e.st.turn, line)
		}
		out = append(out, "  "+line)
		if t.Words != "" {
			// Under the name, the host's words: a name is anyone's to
			// take, the words are the host's key.
			out = append(out, "    "+e.st.r(e.st.faint, fit("  "+t.Words, nameW+16)))
		}
	}
	return out
}

// lobbyHelp is the lobby's key bar: what the keys do here and now.
func (a *App) lobbyHelp(w int) string {
	k := lobbyKeys
	var keys []bkey.Binding
	listed := !a.offline() && len(a.lob.tables) > 0
	if listed {
		keys = append(keys, k.Up, k.Join, k.Watch, appKeys.Rules)
	}
	if !a.offline() {
		keys = append(keys, k.New)
	} else {
		keys = append(keys, as(k.New, "set up a game here"))
	}
	if listed {
		keys = append(keys, k.Solo)
	} else {
		keys = append(keys, as(k.Solo, "play bots here"), appKeys.Rules)
	}
	if !a.offline() {
		keys = append(keys, k.Addr)
	}
	keys = append(keys, k.Quit)
	return a.env.st.keyBar(w, keys...)
}

// lobbyKey handles a key in the lobby.
func (a *App) lobbyKey(k tea.KeyPressMsg) tea.Cmd {
	m := &a.lob
	km := lobbyKeys
	a.err = ""
	switch {
	case bkey.Matches(k, km.Up):
		m.cursor = moved(m.cursor, -1, len(m.tables))
	case bkey.Matches(k, km.Down):
		m.cursor = moved(m.cursor, 1, len(m.tables))
	case bkey.Matches(k, km.Join):
		t, ok := m.selected()
		if !ok || a.offline() {
			return nil
		}
		if t.Playing {
			a.err = "That game has started: W watches it."
			return nil
		}
		if t.Locked {
			a.openPrompt(promptCode, "Join code for "+t.Name, t.ID)
			return nil
		}
		return a.connect("Joining "+t.Name+"…", func(l Lobby) (table.Session, error) { return l.Join(t.ID, "") })
	case bkey.Matches(k, km.Watch):
		t, ok := m.selected()
		if !ok || a.offline() {
			return nil
		}
		return a.connect("Watching "+t.Name+"…", func(l Lobby) (table.Session, error) { return l.Watch(t.ID) })
	case bkey.Matches(k, km.New):
		a.form = newForm(a.env.cfg, a.offline())
		a.form.restore(a.env.cfg.LastTable, a.offline())
		a.screen = scrForm
	case bkey.Matches(k, km.Solo):
		return a.solo(quickSolo(a.env.cfg))
	case bkey.Matches(k, appKeys.Rules):
		a.lobbyRules()
	case bkey.Matches(k, km.Addr):
		if a.offline() {
			return nil
		}
		a.openPrompt(promptAddr, "Address of the table (the host's screen shows it)", "")
	case bkey.Matches(k, km.Quit):
		return tea.Quit
	}
	return nil
}

// quickSolo is the game P deals: the flags' preset and bots.
func quickSolo(cfg Config) TableSettings {
	rules, ok := engine.Preset(cfg.Preset)
	if !ok {
		rules = engine.Standard()
	}
	bots := cfg.Bots
	if bots < 1 {
		bots = 3
	}
	if bots > 9 {
		bots = 9
	}
	if rules.Preset == "twist" && bots < 2 {
		bots = 2
	}
	set := TableSettings{Name: cfg.Name + "'s table", Rules: rules, Seats: bots + 1}
	for range bots {
		set.Bots = append(set.Bots, "medium")
	}
	return set
}
