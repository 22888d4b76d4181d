package cli

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/table"
)

// lobbyApp is the client in its lobby over a fake lobby.
func lobbyApp(t *testing.T, l *fakeLobby, cfg Config) *App {
	t.Helper()
	cfg.Plain = true
	if cfg.Name == "" {
		cfg.Name = "Ada"
	}
	var lob Lobby
	if l != nil {
		lob = l
	}
	a := New(cfg, lob, Prefs{}, nil)
	hold(a)
	a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	for _, m := range run(a.Init()) {
		step(a, m)
	}
	return a
}

// step feeds one message and everything its commands give back.
func step(a *App, m tea.Msg) {
	_, cmd := a.Update(m)
	for _, m := range run(cmd) {
		switch m.(type) {
		case sessionMsg, leaveMsg, tablesMsg:
			step(a, m)
		}
	}
}

func press(a *App, keys ...string) {
	for _, k := range keys {
		step(a, key(k))
	}
}

func text(a *App) string { return stripANSI(a.render()) }

func contains(t *testing.T, s string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(s, p) {
			t.Errorf("screen lacks %q:\n%s", p, s)
		}
	}
}

// The lobby lists the tables found, live, with the keys to use them.
func TestLobbyListsTables(t *testing.T) {
	l := &fakeLobby{tables: []TableSummary{
		{ID: "k", Name: "Kitchen", Host: "Ben", Taken: 3, Seats: 5, Preset: "standard"},
		{ID: "l", Name: "Living room", Host: "Cleo", Taken: 6, Seats: 6, Preset: "twist", Playing: true},
		{ID: "b", Name: "Balcony", Host: "Dev", Taken: 2, Seats: 4, Preset: "cheat", Locked: true},
	}}
	a := lobbyApp(t, l, Config{ID: "xK9", Iface: "wlan0"})
	s := text(a)
	contains(t, s, "bullshit · lobby", "you: Ada (…xK9)", "on: wlan0", "Tables on this network",
		"▸ Kitchen", "host Ben", "3/5 seats", "standard", "waiting",
		"Living room", "6/6 seats", "twist", "playing", "(watch)",
		"Balcony", "needs code",
		"↑↓ choose  Enter join  W watch  I rules  N new table  P solo  A address  Q quit")
	for i, line := range strings.Split(s, "\n") {
		if width(line) > 80 {
			t.Errorf("line %d too wide: %q", i, line)
		}
	}
	// A new list arrives: the cursor stays on its table.
	press(a, "down")
	step(a, tablesMsg{append([]TableSummary{{ID: "n", Name: "Attic", Host: "Eve", Taken: 1, Seats: 3, Preset: "free"}}, l.tables...)})
	contains(t, text(a), "Attic", "▸ Living room")
	// Enter on a game in play offers to watch; W watches.
	press(a, "enter")
	contains(t, text(a), "That game has started: W watches it.")
	press(a, "w")
	if len(l.joined) != 1 || l.joined[0] != "watch:l/" {
		t.Fatalf("joined %v", l.joined)
	}
	if a.screen != scrTable {
		t.Fatalf("screen %d", a.screen)
	}
}

// A table with a code asks for it.
func TestLobbyJoinWithCode(t *testing.T) {
	l := &fakeLobby{tables: []TableSummary{{ID: "b", Name: "Balcony", Host: "Dev", Taken: 2, Seats: 4, Preset: "cheat", Locked: true}}}
	a := lobbyApp(t, l, Config{})
	press(a, "enter")
	contains(t, text(a), "Join code for Balcony")
	press(a, "4", "2", "x", "backspace", "enter")
	if len(l.joined) != 1 || l.joined[0] != "b/42" {
		t.Fatalf("joined %v", l.joined)
	}
}

// A by the address the host shows.
func TestLobbyJoinByAddress(t *testing.T) {
	l := &fakeLobby{}
	a := lobbyApp(t, l, Config{})
	press(a, "a")
	contains(t, text(a), "Address of the table")
	for _, r := range "192.168.1.4:4001" {
		press(a, string(r))
	}
	press(a, "enter")
	if len(l.joined) != 1 || l.joined[0] != "addr:192.168.1.4:4001/" {
		t.Fatalf("joined %v", l.joined)
	}
}

// An empty lobby says why that may be and offers the address and bots.
func TestEmptyLobbyExplains(t *testing.T) {
	a := lobbyApp(t, &fakeLobby{}, Config{})
	contains(t, text(a), "No tables found on this network yet", "may not be running bullshit", "same Wi-Fi",
		"multicast", "press A and type the address", "P plays against bots on this machine alone",
		"N hosts a table")
}

// Without a network the lobby says so and still deals a game here.
func TestOfflineLobby(t *testing.T) {
	l := &fakeLobby{}
	a := lobbyApp(t, l, Config{LobbyErr: errors.New("no LAN interface is up"), Bots: 2, Preset: "twist"})
	contains(t, text(a), "No network here.", "no LAN interface is up", "P deals a game against bots")
	if strings.Contains(text(a), "A address") {
		t.Error("offers an address without a network")
	}
	press(a, "p")
	if len(l.solo) != 1 {
		t.Fatal("no solo game")
	}
	s := l.solo[0]
	if s.Seats != 3 || len(s.Bots) != 2 || s.Rules.Preset != "twist" {
		t.Errorf("solo %+v", s)
	}
}

// The form: every rules key, the preset filling them in, bots and levels,
// and Create called with what was chosen.
func TestCreateTableForm(t *testing.T) {
	l := &fakeLobby{}
	a := lobbyApp(t, l, Config{Bots: 1})
	a.env.h = 60 // room for every row
	press(a, "n")
	s := text(a)
	contains(t, s, "new table", "Table name", "Ada's table", "Where", "this network", "Preset", "Seats", "Bots",
		"Bot 1", "medium", "Join code", "Seconds to call", "Sequence", "Starting rank", "Claim cap", "Direction",
		"Jokers", "Play on for places", "Four of a kind out", "First player", "Who may call", "Count lies",
		"Rapid play", "Sneak", "Counts", "Decks", "Mode", "Enter create")
	// Preset: standard → cheat sets the cheat's keys.
	press(a, "down", "down", "right")
	contains(t, text(a), "‹ cheat ›", "holder:AS")
	// Two bots, the second hard.
	press(a, "down", "down", "right", "down", "down", "right")
	// A join code: one too short to hold for an evening is refused.
	press(a, "down")
	for _, r := range "77" {
		press(a, string(r))
	}
	press(a, "enter")
	if len(l.created) != 0 {
		t.Fatalf("created with a 2-digit code: %v", l.created)
	}
	contains(t, text(a), "at least 6 letters or digits")
	for _, r := range "4829" {
		press(a, string(r))
	}
	press(a, "enter")
	if len(l.created) != 1 {
		t.Fatalf("created %v; screen:\n%s", l.created, text(a))
	}
	got := l.created[0]
	if got.Name != "Ada's table" || got.Seats != 4 || got.Code != "774829" || got.Rules.Preset != "cheat" ||
		!got.Rules.CountLies || !got.Rules.First.Holder {
		t.Errorf("settings %+v", got)
	}
	if len(got.Bots) != 2 || got.Bots[0] != "medium" || got.Bots[1] != "hard" {
		t.Errorf("bots %v", got.Bots)
	}
}

// A rule set the engine refuses is said on the form, not sent.
func TestFormRefusesWhatCantBePlayed(t *testing.T) {
	l := &fakeLobby{}
	a := lobbyApp(t, l, Config{})
	press(a, "n")
	f := &a.form
	f.row("preset").set("twist")
	f.applyPreset()
	f.row("seats").set("2")
	f.fixBots()
	press(a, "enter")
	contains(t, text(a), "The twist is played by 3 to 10 seats.")
	if len(l.created) != 0 {
		t.Fatal("created anyway")
	}
	press(a, "esc")
	if a.screen != scrLobby {
		t.Fatal("esc didn't go back")
	}
}

// The waiting room: seats, bots, the address, and the host's Enter.
func TestWaitingRoom(t *testing.T) {
	l := &fakeLobby{}
	a := lobbyApp(t, l, Config{})
	press(a, "p")
	s := l.sess
	rules := engine.Standard()
	u := table.Update{Table: table.TableState{Name: "Kitchen", Preset: "standard", Rules: rules, You: 0, Host: "Ada",
		Phase: "waiting", Addr: "/ip4/192.168.1.4/tcp/4001/p2p/12D3KooWabc",
		Seats: []table.SeatInfo{{Name: "Ada", Connected: true}, {Name: "Ben", Connected: true}, {}, {Name: "Dev", Bot: "hard", Connected: true}}}}
	step(a, updateMsg{sess: s, u: u, at: time.Now()})
	contains(t, text(a), "Kitchen · standard", "waiting for players", "Seats  3 of 4 taken", "Ada (you)", "host",
		"Ben", "free seat", "Dev", "bot · hard", "/ip4/192.168.1.4/tcp/4001/p2p/12D3KooWabc", "Enter start the game")
	press(a, "enter")
	if len(s.controls) != 1 || s.controls[0] != "start" {
		t.Fatalf("controls %v", s.controls)
	}
	// A guest waits for the host.
	u.Table.You = 1
	step(a, updateMsg{sess: s, u: u, at: time.Now()})
	contains(t, text(a), "Waiting for Ada to start the game.")
	press(a, "enter")
	if len(s.controls) != 1 {
		t.Fatalf("a guest started the game: %v", s.controls)
	}
	// The host's words, as lobbies show the table, in the header and
	// the room.
	u.Table.Words = "maple-otter-lunar"
	step(a, updateMsg{sess: s, u: u, at: time.Now()})
	contains(t, text(a), "Kitchen · maple-otter-lunar · standard", "Lobbies show this table with its host's words: maple-otter-lunar")
}

// The session ending mid-game goes back to the lobby and says so.
func TestSessionEndsToLobby(t *testing.T) {
	l := &fakeLobby{}
	a := lobbyApp(t, l, Config{})
	press(a, "p")
	step(a, closedMsg{sess: l.sess})
	if a.screen != scrLobby {
		t.Fatalf("screen %d", a.screen)
	}
	contains(t, text(a), "The connection to the table ended.")
}

// A join the player gave up on (Esc while it dials) is left when it lands.
func TestGiveUpJoining(t *testing.T) {
	l := &fakeLobby{tables: []TableSummary{{ID: "k", Name: "Kitchen", Host: "Ben", Taken: 1, Seats: 4, Preset: "standard"}}}
	a := lobbyApp(t, l, Config{})
	_, cmd := a.Update(key("enter"))
	contains(t, text(a), "Joining Kitchen…", "Esc back to the lobby")
	press(a, "esc")
	for _, m := range run(cmd) {
		step(a, m)
	}
	if a.screen != scrLobby || a.table != nil {
		t.Fatalf("screen %d", a.screen)
	}
	if !l.sess.closed {
		t.Error("the session we gave up on is still open")
	}
}

// A table on the network has a turn clock, a minute unless the form says
// otherwise (or off); a game here alone with bots has none. The waiting
// room says what it is.
func TestFormTurnClock(t *testing.T) {
	l := &fakeLobby{}
	a := lobbyApp(t, l, Config{Bots: 1})
	a.env.h = 60
	press(a, "n")
	contains(t, text(a), "Turn clock", "60 s")
	f := &a.form
	for f.rows[f.cursor].key != "turn_clock" {
		press(a, "down")
	}
	press(a, "left")
	contains(t, text(a), "‹ 45 s ›")
	press(a, "enter")
	if len(l.created) != 1 || l.created[0].TurnClock != 45*time.Second {
		t.Fatalf("created %+v", l.created)
	}
	u := table.Update{Table: table.TableState{Name: "Kitchen", Preset: "standard", Rules: engine.Standard(), You: 0, Host: "Ada",
		Phase: "waiting", TurnClock: 45 * time.Second, Seats: []table.SeatInfo{{Name: "Ada", Connected: true}, {}}}}
	step(a, updateMsg{sess: l.sess, u: u, at: time.Now()})
	contains(t, text(a), "turn clock 45 s")

	// Off is a choice.
	a = lobbyApp(t, l, Config{Bots: 1})
	press(a, "n")
	f = &a.form
	f.row("turn_clock").set("0")
	press(a, "enter")
	if len(l.created) != 2 || l.created[1].TurnClock != 0 {
		t.Fatalf("created %+v", l.created)
	}
	// Alone with bots: no clock, and no row for it.
	a = lobbyApp(t, l, Config{Bots: 1})
	a.env.h = 60
	press(a, "n")
	f = &a.form
	f.row("where").set("here")
	f.fixBots()
	if s := text(a); strings.Contains(s, "Turn clock") {
		t.Errorf("a game here offers a turn clock:\n%s", s)
	}
	press(a, "enter")
	if len(l.solo) != 1 || l.solo[0].TurnClock != 0 {
		t.Fatalf("solo %+v", l.solo)
	}
}

// At 80×24 the form has more rows than room: it says so above and below,
// and the field being changed is always on screen.
func TestFormScrollsInSight(t *testing.T) {
	l := &fakeLobby{}
	a := lobbyApp(t, l, Config{Bots: 2})
	press(a, "n")
	s := text(a)
	contains(t, s, "Table name", "▼")
	if strings.Contains(s, "▲") {
		t.Errorf("more above at the top:\n%s", s)
	}
	f := &a.form
	for i := 0; i < 2*len(f.rows); i++ {
		s := text(a)
		if lines := strings.Split(s, "\n"); len(lines) != 24 {
			t.Fatalf("%d lines", len(lines))
		}
		label := f.rows[f.cursor].label
		if !strings.Contains(s, "▸ "+label) {
			t.Fatalf("the field %q is off screen:\n%s", label, s)
		}
		if f.cursor == len(f.rows)-1 {
			contains(t, s, "▲", "Mode")
			if strings.Contains(s, "▼") {
				t.Errorf("more below at the bottom:\n%s", s)
			}
		}
		press(a, "down")
	}
}

// I shows how to play: in the lobby the chosen table's preset (all the
// lobby knows of it), saying so; in the waiting room the table's own
// rules; the form's ^R the rules it would set up. Esc or the key again
// goes back.
func TestRulesScreenLobbyWaitingForm(t *testing.T) {
	l := &fakeLobby{tables: []TableSummary{
		{ID: "k", Name: "Kitchen", Host: "Ben", Taken: 3, Seats: 5, Preset: "standard"},
		{ID: "l", Name: "Living room", Host: "Cleo", Taken: 6, Seats: 6, Preset: "twist", Playing: true},
	}}
	a := lobbyApp(t, l, Config{})
	contains(t, text(a), "I rules")
	press(a, "down", "i")
	s := text(a)
	contains(t, s, "How to play · twist · 6 seats", "The twist preset, as Living room plays it unless the host changed a rule",
		"Sneak:", "↑↓ scroll", "▼ ", " more", "I/Esc back")
	fits(t, a)
	// Scrolled to the end, the keys of the game show.
	for range 30 {
		press(a, "down")
	}
	contains(t, text(a), "Counts are rough", "Keys  ", "(the end)")
	fits(t, a)
	press(a, "esc")
	contains(t, text(a), "Tables on this network", "▸ Living room")
	press(a, "i")
	contains(t, text(a), "How to play · twist")
	press(a, "i")
	contains(t, text(a), "Tables on this network")

	// The waiting room: this table's own rules, changed keys and all.
	press(a, "up", "enter")
	rules := engine.Standard()
	if err := rules.Set("sneak", "2"); err != nil {
		t.Fatal(err)
	}
	u := table.Update{Table: table.TableState{Name: "Kitchen", Preset: "standard", Rules: rules, You: 1, Host: "Ben",
		Phase: "waiting", Seats: []table.SeatInfo{{Name: "Ben", Connected: true}, {Name: "Ada", Connected: true}, {}}}}
	step(a, updateMsg{sess: l.sess, u: u, at: time.Now()})
	contains(t, text(a), "waiting for players", "I rules")
	press(a, "i")
	s = text(a)
	contains(t, s, "How to play · standard, changed · 3 seats", "Sneak: you may slip up to 2 extra cards", "I goes back to the table.")
	if strings.Contains(s, "preset, as") {
		t.Errorf("a table's own rules said to be the preset's:\n%s", s)
	}
	fits(t, a)
	press(a, "i")
	contains(t, text(a), "waiting for players")

	// The form: ^R shows the rules it is set to, as they are changed.
	press(a, "q")
	press(a, "n")
	for text(a) != "" && !strings.Contains(text(a), "▸ Preset") {
		press(a, "down")
	}
	press(a, "right") // the next preset
	preset := a.form.row("preset").get()
	press(a, "ctrl+r")
	contains(t, text(a), "How to play · "+preset, "The rules this form sets the table up with.", "^R/Esc back")
	fits(t, a)
	press(a, "ctrl+r")
	contains(t, text(a), "bullshit · new table", "^R rules")
}

// fits checks the screen is exactly the window, no line wider.
func fits(t *testing.T, a *App) {
	t.Helper()
	lines := strings.Split(a.render(), "\n")
	if len(lines) != a.env.h {
		t.Fatalf("%d lines on a screen of %d:\n%s", len(lines), a.env.h, text(a))
	}
	for i, l := range lines {
		if width(l) > a.env.w {
			t.Fatalf("line %d is %d wide:\n%s", i, width(l), text(a))
		}
	}
}

// Two tables of one name are told apart by their hosts' words, shown
// under each; the table's header and waiting room name the host's words.
func TestLobbyShowsHostWords(t *testing.T) {
	l := &fakeLobby{tables: []TableSummary{
		{ID: "k1", Name: "kitchen", Host: "Ben", Taken: 1, Seats: 4, Preset: "standard", Words: "maple-otter-lunar"},
		{ID: "k2", Name: "kitchen", Host: "Ben", Taken: 1, Seats: 4, Preset: "standard", Words: "cement-sandbar-rumor"},
	}}
	a := lobbyApp(t, l, Config{ID: "xK9", Iface: "wlan0"})
	s := text(a)
	contains(t, s, "maple-otter-lunar", "cement-sandbar-rumor")
	for i, line := range strings.Split(s, "\n") {
		if width(line) > 80 {
			t.Errorf("line %d too wide: %q", i, line)
		}
	}
	// Each words line sits under its own table.
	lines := strings.Split(s, "\n")
	for i, line := range lines {
		if strings.Contains(line, "maple-otter-lunar") && (i == 0 || !strings.Contains(lines[i-1], "▸ kitchen")) {
			t.Errorf("the first table's words are not under it: %q after %q", line, lines[i-1])
		}
	}
}

// N opens the form on what it last created (it once forgot every choice),
// in this run and, from the profile, the next; never the join code.
func TestFormRemembersItsLastSettings(t *testing.T) {
	dir := t.TempDir()
	l := &fakeLobby{}
	a := lobbyApp(t, l, Config{Bots: 1, ProfileDir: dir})
	a.env.h = 60
	press(a, "n")
	f := &a.form
	f.rows[0].input.SetValue("Kitchen")
	f.row("preset").set("cheat")
	f.applyPreset()
	f.row("turn_clock").set("45")
	f.row("seats").set("5")
	f.row("code").input.SetValue("774829")
	press(a, "enter")
	if len(l.created) != 1 {
		t.Fatalf("created %v", l.created)
	}
	for _, a := range []*App{a, lobbyApp(t, &fakeLobby{}, Config{Bots: 1, ProfileDir: dir, LastTable: LoadLastTable(dir)})} {
		a.screen = scrLobby
		press(a, "n")
		g := &a.form
		if g.rows[0].input.Value() != "Kitchen" || g.row("preset").get() != "cheat" || g.row("turn_clock").get() != "45" ||
			g.row("seats").get() != "5" || g.row("code").get() != "" {
			t.Errorf("the form opens on %v (code %q)", g.values(), g.row("code").get())
		}
	}
}
