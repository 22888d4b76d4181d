package cli

import (
	"fmt"

	bkey "charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/bullshit-game/bullshit/engine"
)

// rulesPage is the rules screen, "how to play", over the lobby, the form
// or the table: RulesText for the table it was opened on. The table goes
// on behind it.
type rulesPage struct {
	open  bool
	from  int // the screen under it
	rules engine.Rules
	seats int
	note  string       // what the rules are of, when not a table's own
	top   int          // the first line shown
	key   bkey.Binding // the key that opened it, which closes it too
}

// openRules opens the rules screen for rules at a table of seats (0: not
// known).
func (a *App) openRules(r engine.Rules, seats int, note string, opener bkey.Binding) {
	a.rules = rulesPage{open: true, from: a.screen, rules: r, seats: seats, note: note, key: opener}
}

// tableRules opens the rules of the table we sit at.
func (a *App) tableRules() {
	ts := a.table.u.Table
	a.openRules(ts.Rules, len(ts.Seats), "", appKeys.Rules)
}

// lobbyRules opens the rules of the table chosen in the lobby: the lobby
// knows its preset only, so it says so. With no table, P's game.
func (a *App) lobbyRules() {
	if t, ok := a.lob.selected(); ok && !a.offline() {
		r, known := engine.Preset(t.Preset)
		if !known {
			r = engine.Standard()
		}
		note := fmt.Sprintf("The %s preset, as %s plays it unless the host changed a rule: sit down and press I for the table's own.", r.Preset, t.Name)
		a.openRules(r, t.Seats, note, appKeys.Rules)
		return
	}
	set := quickSolo(a.env.cfg)
	a.openRules(set.Rules, set.Seats, "The game P deals here: you and bots.", appKeys.Rules)
}

// formRules opens the rules the form would set the table up with.
func (a *App) formRules() {
	set, _, err := a.form.settings()
	if err != nil && set.Rules.Window == 0 {
		a.form.err = err.Error()
		return
	}
	a.openRules(set.Rules, set.Seats, "The rules this form sets the table up with.", appKeys.FormRules)
}

// rulesLines are the lines under the title, wrapped to the screen.
func (a *App) rulesLines() (title string, body []string) {
	p := &a.rules
	w := a.env.w
	lines := RulesText(p.rules, p.seats, max(w-2, 20))
	if len(lines) == 0 {
		return "How to play", nil
	}
	if p.note != "" {
		body = append(body, "")
		body = append(body, wrap("", p.note, w-2)...)
	}
	body = append(body, lines[1:]...)
	for i := range body {
		if body[i] != "" {
			body[i] = " " + body[i]
		}
	}
	return lines[0], body
}

// rulesRoom is how many lines of the rules show at once.
func (a *App) rulesRoom() int {
	room := a.env.h - 4 // the title, the rule, the rule and the keys
	if a.rules.from == scrTable && a.table != nil {
		room-- // what waits on you at the table
	}
	return max(room, 1)
}

// rulesPageKey handles a key on the rules screen: ↑↓ scroll, Esc, Q or the
// key that opened it go back.
func (a *App) rulesPageKey(k tea.KeyPressMsg) tea.Cmd {
	p := &a.rules
	km := rulesPageKeys
	_, body := a.rulesLines()
	room := a.rulesRoom()
	last := max(len(body)-room, 0)
	switch {
	case bkey.Matches(k, km.Back, p.key):
		p.open = false
		if p.from == scrTable && a.table == nil {
			a.screen = scrLobby
		}
	case bkey.Matches(k, km.Up):
		p.top--
	case bkey.Matches(k, km.Down):
		p.top++
	case bkey.Matches(k, km.PgUp):
		p.top -= room
	case bkey.Matches(k, km.PgDown):
		p.top += room
	case bkey.Matches(k, km.Home):
		p.top = 0
	case bkey.Matches(k, km.End):
		p.top = last
	}
	p.top = max(0, min(p.top, last))
	return nil
}

// rulesView draws the rules screen.
func (a *App) rulesView() string {
	e := a.env
	st, w := e.st, e.w
	p := &a.rules
	title, body := a.rulesLines()
	room := a.rulesRoom()
	last := max(len(body)-room, 0)
	p.top = max(0, min(p.top, last))
	shown := body[p.top:min(len(body), p.top+room)]
	top := append([]string{st.titleBar(title, "", w), st.ruleLine(w)}, shown...)

	back := p.key.Help().Key
	var keys []bkey.Binding
	if last > 0 {
		keys = append(keys, rulesPageKeys.Up)
		switch {
		case p.top < last:
			keys = append(keys, note(st.r(st.faint, fmt.Sprintf("▼ %d more", last-p.top))))
		default:
			keys = append(keys, note(st.r(st.faint, "(the end)")))
		}
	}
	closer := p.key
	closer.SetHelp(back+"/Esc", "back")
	keys = append(keys, closer)
	bottom := []string{st.ruleLine(w)}
	if p.from == scrTable && a.table != nil {
		bottom = append(bottom, a.table.waitsNote(back))
	}
	bottom = append(bottom, st.keyBar(w, keys...))
	return screen(top, bottom, w, e.h)
}
