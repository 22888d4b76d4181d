package cli

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	bkey "charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/table"
	"github.com/bullshit-game/bullshit/protocol"
)

// formRow is one line of the create-table form: a text, or a choice
// changed with ← →.
type formRow struct {
	key     string
	label   string
	help    string
	text    bool
	input   textinput.Model // a text row's field
	choices []string        // a choice row's values
	show    []string        // how each choice reads, when not as is
	idx     int
}

// textRow is a row typed into, of at most limit characters.
func textRow(key, label, value, help string, limit int) formRow {
	return formRow{key: key, label: label, help: help, text: true, input: field(value, limit)}
}

func (r *formRow) get() string {
	if r.text {
		return r.input.Value()
	}
	if r.idx < 0 || r.idx >= len(r.choices) {
		return ""
	}
	return r.choices[r.idx]
}

func (r *formRow) set(v string) {
	for i, c := range r.choices {
		if c == v {
			r.idx = i
			return
		}
	}
}

// formModel is the create-table form: name, where, preset, seats, bots and
// their levels, the join code, and every rules key.
type formModel struct {
	rows   []formRow
	cursor int
	err    string
	active bool // a create is on its way from this form
}

// ruleRows are the rules keys of REFEREE.md, with what each does; the
// choices are the engine's (engine.RuleChoices).
var ruleRows = withRuleChoices([]formRow{
	{key: "window", label: "Seconds to call", help: "time to call each play (R8)"},
	{key: "sequence", label: "Sequence", help: "up A→K · down · free V1 · near V4"},
	{key: "start", label: "Starting rank", help: "the first rank called (V3)"},
	{key: "cap", label: "Claim cap", help: "most cards in one claim (V5)", show: append([]string{"4 a deck"}, nums(1, 32)...)},
	{key: "direction", label: "Direction", help: "turn order (V6)", show: []string{"clockwise", "counter-clockwise"}},
	{key: "jokers", label: "Jokers", help: "jokers a deck, wild (V7)"},
	{key: "places", label: "Play on for places", help: "play on after a winner (V8)", show: []string{"no", "yes"}},
	{key: "quads", label: "Four of a kind out", help: "lay four of a kind out (V9)", show: []string{"no", "yes"}},
	{key: "first", label: "First player", help: "who plays first (V10)"},
	{key: "callers", label: "Who may call", help: "anyone, or the next only (V11)"},
	{key: "count_lies", label: "Count lies", help: "claim a count you didn't play (V12)", show: []string{"no", "yes"}},
	{key: "rapid", label: "Rapid play", help: "play over a call window (V13)", show: []string{"no", "yes"}},
	{key: "sneak", label: "Sneak", help: "cards under a claim (V14)"},
	{key: "counts", label: "Counts", help: "sizes exact, or rough (V14)"},
	{key: "decks", label: "Decks", help: "by seats: two from 7 (R2)", show: append([]string{"by seats"}, nums(1, 3)...)},
	{key: "mode", label: "Mode", help: "classic, or I Doubt It (V15)"},
})

func withRuleChoices(rows []formRow) []formRow {
	for i := range rows {
		rows[i].choices = engine.RuleChoices(rows[i].key)
	}
	return rows
}

// turnClocks are the turn clock's choices, in seconds ("0": off).
var turnClocks = []string{"0", "15", "30", "45", "60", "90", "120"}

// defaultTurnClock is a table on the network's turn clock, in seconds.
const defaultTurnClock = "60"

func nums(lo, hi int) []string {
	var out []string
	for i := lo; i <= hi; i++ {
		out = append(out, strconv.Itoa(i))
	}
	return out
}

// newForm is the form with the config's preset; local starts it on "this
// machine only".
func newForm(cfg Config, local bool) formModel {
	where := formRow{key: "where", label: "Where", help: "others join, or you and bots",
		choices: []string{"network", "here"}, show: []string{"this network", "this machine only"}}
	if local {
		where.idx = 1
	}
	f := formModel{rows: []formRow{
		textRow("name", "Table name", cfg.Name+"'s table", "what the lobby shows", 40),
		where,
		{key: "preset", label: "Preset", help: "sets every rule below", choices: engine.Presets},
		{key: "seats", label: "Seats", help: "2 to 10, people first", choices: nums(2, 10)},
		{key: "bots", label: "Bots", help: "seats bots take", choices: nums(0, 9)},
		textRow("code", "Join code", "", "empty: anyone may join; else 6 letters or digits at least", 40),
		{key: "turn_clock", label: "Turn clock", help: "then a move is made for the player",
			choices: turnClocks, show: []string{"off", "15 s", "30 s", "45 s", "60 s", "90 s", "2 min"}},
	}}
	f.rows = append(f.rows, ruleRows...)
	f.row("preset").set(cfg.Preset)
	f.row("seats").set("4")
	// One idle player holds up a table of people for ever without a clock;
	// a minute is time enough to think.
	f.row("turn_clock").set(defaultTurnClock)
	bots := max(0, min(cfg.Bots, 9))
	if !local {
		bots = min(bots, 2) // room for people: that's what a table on the network is for
	}
	f.row("bots").set(strconv.Itoa(bots))
	f.applyPreset()
	f.fixBots()
	return f
}

// values are the form's rows by key, as TableFile keeps them: all but
// the join code, a secret that is not written down.
func (f *formModel) values() map[string]string {
	out := map[string]string{}
	for i := range f.rows {
		if r := &f.rows[i]; r.key != "code" {
			out[r.key] = r.get()
		}
	}
	return out
}

// restore sets the form to values (from values, last time): the preset
// first, which sets every rule, then each row it names with a value it
// offers; anything else keeps its default. local (no network) keeps
// "this machine only" whatever was chosen.
func (f *formModel) restore(values map[string]string, local bool) {
	if len(values) == 0 {
		return
	}
	if p, ok := values["preset"]; ok {
		f.row("preset").set(p)
		f.applyPreset()
	}
	for i := range f.rows {
		r := &f.rows[i]
		v, ok := values[r.key]
		switch {
		case !ok || r.key == "preset" || r.key == "code" || (r.key == "where" && local):
		case r.text:
			if v != "" {
				r.input.SetValue(v)
			}
		default:
			r.set(v)
		}
	}
	f.fixBots()
}

// focus gives the keyboard to the text field under the cursor, if it is
// one.
func (f *formModel) focus() {
	for i := range f.rows {
		if !f.rows[i].text {
			continue
		}
		if i == f.cursor {
			f.rows[i].input.Focus()
		} else {
			f.rows[i].input.Blur()
		}
	}
}

// edit is a key, a paste or the clipboard's answer for the field under
// the cursor.
func (f *formModel) edit(msg tea.Msg) tea.Cmd {
	row := &f.rows[f.cursor]
	if !row.text {
		return nil
	}
	var cmd tea.Cmd
	row.input, cmd = row.input.Update(msg)
	return cmd
}

func (f *formModel) row(key string) *formRow {
	for i := range f.rows {
		if f.rows[i].key == key {
			return &f.rows[i]
		}
	}
	return nil
}

// applyPreset sets every rules row to the preset's value.
func (f *formModel) applyPreset() {
	r, ok := engine.Preset(f.row("preset").get())
	if !ok {
		return
	}
	for i := range f.rows {
		row := &f.rows[i]
		if v := r.Get(row.key); v != nil {
			row.set(fmt.Sprint(v))
		}
	}
}

// fixBots keeps the bots within the seats and gives each a level row.
func (f *formModel) fixBots() {
	local := f.row("where").get() == "here"
	seats, _ := strconv.Atoi(f.row("seats").get())
	bots, _ := strconv.Atoi(f.row("bots").get())
	if local {
		bots = max(bots, 1)
		seats = bots + 1
		f.row("seats").set(strconv.Itoa(seats))
	} else if bots > seats-1 {
		bots = seats - 1
	}
	f.row("bots").set(strconv.Itoa(bots))
	// Level rows follow "bots".
	var levels []string
	var rows []formRow
	for _, r := range f.rows {
		if strings.HasPrefix(r.key, "bot:") {
			levels = append(levels, r.get())
			continue
		}
		rows = append(rows, r)
		if r.key == "bots" {
			for i := 0; i < bots; i++ {
				lv := formRow{key: fmt.Sprintf("bot:%d", i), label: fmt.Sprintf("  Bot %d", i+1), help: "easy · medium · hard", choices: BotLevels}
				lv.set("medium")
				if i < len(levels) {
					lv.set(levels[i])
				}
				rows = append(rows, lv)
			}
		}
	}
	f.rows = rows
	if f.cursor >= len(f.rows) {
		f.cursor = len(f.rows) - 1
	}
	f.focus()
}

// hidden reports whether a row doesn't apply: seats, code and the turn
// clock are for the network only (alone with bots, nobody waits on you).
func (f *formModel) hidden(r *formRow) bool {
	local := f.row("where").get() == "here"
	return local && (r.key == "seats" || r.key == "code" || r.key == "turn_clock")
}

// settings reads the form, refusing what can't be played.
func (f *formModel) settings() (TableSettings, bool, error) {
	preset := f.row("preset").get()
	rules, ok := engine.Preset(preset)
	if !ok {
		return TableSettings{}, false, fmt.Errorf("no preset %q", preset)
	}
	for _, r := range ruleRows {
		if err := rules.Set(r.key, f.row(r.key).get()); err != nil {
			return TableSettings{}, false, err
		}
	}
	seats, _ := strconv.Atoi(f.row("seats").get())
	set := TableSettings{Name: strings.TrimSpace(f.row("name").get()), Rules: rules, Seats: seats,
		Code: strings.TrimSpace(f.row("code").get())}
	for _, r := range f.rows {
		if strings.HasPrefix(r.key, "bot:") {
			set.Bots = append(set.Bots, r.get())
		}
	}
	local := f.row("where").get() == "here"
	if secs, err := strconv.Atoi(f.row("turn_clock").get()); err == nil && !local {
		set.TurnClock = time.Duration(secs) * time.Second
	}
	if local {
		set.Code = ""
	}
	if set.Name == "" {
		return set, local, fmt.Errorf("give the table a name")
	}
	if err := protocol.CheckCode(set.Code); err != nil {
		return set, local, err
	}
	if err := rules.Check(seats); err != nil {
		return set, local, err
	}
	return set, local, nil
}

// formKey handles a key in the form.
func (a *App) formKey(k tea.KeyPressMsg) tea.Cmd {
	f := &a.form
	row := &f.rows[f.cursor]
	km := formKeys
	move := func(d int) {
		for i := 0; i < len(f.rows); i++ {
			f.cursor = (f.cursor + d + len(f.rows)) % len(f.rows)
			if !f.hidden(&f.rows[f.cursor]) {
				break
			}
		}
		f.focus()
	}
	switch {
	case bkey.Matches(k, km.Back):
		a.screen = scrLobby
	case bkey.Matches(k, appKeys.FormRules):
		a.formRules()
	case bkey.Matches(k, km.Up):
		move(-1)
	case bkey.Matches(k, km.Down):
		move(1)
	case bkey.Matches(k, km.Create):
		set, local, err := f.settings()
		if err != nil {
			f.err = err.Error()
			return nil
		}
		f.err, f.active = "", true
		// N opens on these next time, in this run and the next.
		last := f.values()
		a.env.cfg.LastTable = last
		var save tea.Cmd
		if dir := a.env.cfg.ProfileDir; dir != "" {
			save = func() tea.Msg { saveJSON(dir, TableFile, last); return nil }
		}
		if local {
			return tea.Batch(save, a.solo(set))
		}
		return tea.Batch(save, a.connect("Opening "+set.Name+"…", func(l Lobby) (table.Session, error) { return l.Create(set) }))
	case row.text:
		return f.edit(k)
	case bkey.Matches(k, km.Left, km.Right):
		d := 1
		if bkey.Matches(k, km.Left) {
			d = -1
		}
		row.idx = (row.idx + d + len(row.choices)) % len(row.choices)
		switch {
		case row.key == "preset":
			f.applyPreset()
		case row.key == "seats", row.key == "bots", row.key == "where":
			f.fixBots()
		}
		f.err = ""
	}
	return nil
}

// formView draws the form, scrolled to keep the cursor in sight.
func (a *App) formView() string {
	e := a.env
	st, w, h := e.st, e.w, e.h
	f := &a.form
	top := []string{st.titleBar("bullshit · new table", "", w), st.ruleLine(w)}
	bottom := []string{st.ruleLine(w)}
	if f.err != "" {
		bottom = append(bottom, " "+st.r(st.refusal, f.err))
	}
	km := formKeys
	bottom = append(bottom, st.keyBar(w, km.Up, km.Left, km.Type, km.Create, appKeys.FormRules, km.Back))
	var rows []string
	at := 0
	for i := range f.rows {
		r := &f.rows[i]
		if f.hidden(r) {
			continue
		}
		if i == f.cursor {
			at = len(rows)
		}
		val := r.get()
		if !r.text && r.show != nil && r.idx < len(r.show) {
			val = r.show[r.idx]
		}
		mark := "  "
		switch {
		case r.text:
			val = fieldView(r.input)
		case i == f.cursor:
			val = "‹ " + val + " ›"
		default:
			val = "  " + val
		}
		if i == f.cursor {
			mark = "▸ "
		}
		line := mark + fit(r.label, 20) + fit(val, 22) + st.r(st.faint, r.help)
		if i == f.cursor {
			line = st.r(st.turn, mark+fit(r.label, 20)+fit(val, 22)) + st.r(st.faint, r.help)
		}
		rows = append(rows, " "+line)
	}
	// Too many rows for the screen: a window on them round the cursor,
	// with a line above and below that says how many more there are.
	if room := h - len(top) - len(bottom); len(rows) > room {
		n := max(room-2, 1)
		first := max(0, min(at-n/2, len(rows)-n))
		more := func(arrow string, k int) string {
			if k <= 0 {
				return ""
			}
			return "   " + st.r(st.faint, fmt.Sprintf("%s %d more", arrow, k))
		}
		win := append([]string{more("▲", first)}, rows[first:first+n]...)
		rows = append(win, more("▼", len(rows)-first-n))
	}
	return screen(append(top, rows...), bottom, w, h)
}

// promptModel asks for one line: an address, or a join code.
type promptModel struct {
	purpose int
	title   string
	input   textinput.Model
	id      string // the table a code is for
}

const (
	promptAddr = iota
	promptCode
)

func (a *App) openPrompt(purpose int, title, id string) {
	a.prompt = promptModel{purpose: purpose, title: title, id: id, input: field("", 300)}
	a.prompt.input.Focus()
	a.screen = scrPrompt
}

func (a *App) promptKey(k tea.KeyPressMsg) tea.Cmd {
	p := &a.prompt
	switch {
	case bkey.Matches(k, formKeys.Back):
		a.screen = scrLobby
		return nil
	case bkey.Matches(k, formKeys.Join):
		v := strings.TrimSpace(p.input.Value())
		if v == "" {
			return nil
		}
		if p.purpose == promptAddr {
			return a.connect("Joining "+v+"…", func(l Lobby) (table.Session, error) { return l.JoinAddr(v) })
		}
		id := p.id
		return a.connect("Joining…", func(l Lobby) (table.Session, error) { return l.Join(id, v) })
	}
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(k)
	return cmd
}

func (a *App) promptView() string {
	e := a.env
	st, w := e.st, e.w
	top := []string{st.titleBar("bullshit · lobby", "", w), st.ruleLine(w), "", "  " + a.prompt.title, "",
		"  > " + fieldView(a.prompt.input)}
	if a.prompt.purpose == promptAddr {
		top = append(top, "")
		top = append(top, wrap("  ", "The host's waiting room shows the address, like /ip4/192.168.1.4/tcp/4001/p2p/12D3Koo… If the table has a join code, type a space and the code after the address.", w)...)
	}
	return screen(top, []string{st.ruleLine(w), st.keyBar(w, formKeys.Join, formKeys.Back)}, w, e.h)
}

// field is a text field (bubbles' textinput) of at most limit characters,
// drawn by fieldView: the terminal's own cursor stays hidden.
func field(value string, limit int) textinput.Model {
	ti := textinput.New()
	ti.Prompt = ""
	ti.CharLimit = limit
	ti.SetVirtualCursor(false)
	ti.SetValue(value)
	return ti
}

// fieldView is a field as the screens draw it: the text, and a thin bar
// at the cursor while it has the keyboard.
func fieldView(ti textinput.Model) string {
	v := []rune(ti.Value())
	if !ti.Focused() {
		return string(v)
	}
	p := min(ti.Position(), len(v))
	return string(v[:p]) + "▏" + string(v[p:])
}
