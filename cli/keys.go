package cli

// The keys of every screen, as bubbles key maps: a binding a key, with
// what the screen says of it. The handlers ask key.Matches; the bars, the
// dock and the help screen are drawn by bubbles/help from the same
// bindings, so a key and the letter shown for it can't drift apart.
//
// The package is imported as bkey: the tests' key() owns the name.

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/help"
	bkey "charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
)

// bind is a binding of keys with its help. A letter binds in either case:
// the screens name letters in capitals, and caps lock must not matter.
func bind(helpKey, desc string, keys ...string) bkey.Binding {
	all := slices.Clone(keys)
	for _, k := range keys {
		if u := strings.ToUpper(k); len([]rune(k)) == 1 && u != k {
			all = append(all, u)
		}
	}
	return bkey.NewBinding(bkey.WithKeys(all...), bkey.WithHelp(helpKey, desc))
}

// as is b said another way where it stands: "Q quit" on the sheet is the
// table's "Q leave".
func as(b bkey.Binding, desc string) bkey.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

// note is text in a bar of keys that is no key: "Waiting for Ben…".
func note(text string) bkey.Binding { return bkey.NewBinding(bkey.WithHelp("", text)) }

func isNote(b bkey.Binding) bool { return len(b.Keys()) == 0 && b.Help().Key == "" }

// keyHelp is bubbles/help drawing keys in look k, items sep apart. wide
// puts two spaces between a key and what it does ("B  Bullshit!"), as the
// dock and the help screen do; a bar has one ("W watch").
func keyHelp(k lipgloss.Style, sep string, wide bool) help.Model {
	h := help.New()
	h.Styles = help.Styles{ShortKey: k}
	if wide {
		h.Styles.ShortDesc = lipgloss.NewStyle().Transform(func(s string) string { return " " + s })
	}
	h.ShortSeparator = sep
	return h
}

// plainKeys and plainMoves draw keys with no look of their own, for a
// line that has one all through (the title bar, the faint keys over the
// hand, a move not ready yet).
var (
	plainKeys  = keyHelp(lipgloss.NewStyle(), "  ", false)
	plainMoves = keyHelp(lipgloss.NewStyle(), "   ", true)
)

// bar draws items with h: the keys by bubbles/help, a note as its text.
func bar(h help.Model, items ...bkey.Binding) string {
	var parts []string
	var run []bkey.Binding
	flush := func() {
		if v := h.ShortHelpView(run); v != "" {
			parts = append(parts, v)
		}
		run = nil
	}
	for _, b := range items {
		if isNote(b) {
			flush()
			parts = append(parts, b.Help().Desc)
			continue
		}
		run = append(run, b)
	}
	flush()
	return strings.Join(parts, h.ShortSeparator)
}

// keyBar lays out a bar of keys in w columns, closing up the gaps before
// anything is cut.
func (s styles) keyBar(w int, items ...bkey.Binding) string {
	h := s.keys
	var line string
	for _, f := range []struct{ lead, sep string }{{" ", "  "}, {"", "  "}, {"", " "}} {
		h.ShortSeparator = f.sep
		if line = f.lead + bar(h, items...); width(line) <= w {
			break
		}
	}
	return line
}

// keyed is a move and its key, in the dock and the help screen: "B  Bullshit!".
func (s styles) keyed(b bkey.Binding, label string) string {
	return bar(s.moves, as(b, label))
}

// appKeys work on every screen: ^C, and the rules screen (I; ^R on the
// form, where letters are typed into the text fields).
var appKeys = struct {
	Quit, Rules, FormRules bkey.Binding
}{
	Quit:      bind("^C", "quit", "ctrl+c"),
	Rules:     bind("I", "rules", "i"),
	FormRules: bind("^R", "rules", "ctrl+r"),
}

// lobbyKeys are the lobby's.
var lobbyKeys = struct {
	Up, Down, Join, Watch, New, Solo, Addr, Quit bkey.Binding
}{
	Up:    bind("↑↓", "choose", "up", "k"),
	Down:  bind("", "", "down", "j"),
	Join:  bind("Enter", "join", "enter"),
	Watch: bind("W", "watch", "w"),
	New:   bind("N", "new table", "n"),
	Solo:  bind("P", "solo", "p"),
	Addr:  bind("A", "address", "a"),
	Quit:  bind("Q", "quit", "q", "esc"),
}

// formKeys are the create-table form's and the one-line prompt's: every
// other key goes to the text field under the cursor.
var formKeys = struct {
	Up, Down, Left, Right, Type, Create, Join, Back bkey.Binding
}{
	Up:     bind("↑↓", "field", "up", "shift+tab"),
	Down:   bind("", "", "down", "tab"),
	Left:   bind("← →", "change", "left"),
	Right:  bind("", "", "right"),
	Type:   note("type to edit"),
	Create: bind("Enter", "create", "enter"),
	Join:   bind("Enter", "join", "enter"),
	Back:   bind("Esc", "back", "esc"),
}

// busyKeys are the busy screen's.
var busyKeys = struct{ Back bkey.Binding }{
	Back: bind("Esc", "back to the lobby", "esc", "q"),
}

// rulesPageKeys are the rules screen's; the key that opened it closes it
// too.
var rulesPageKeys = struct {
	Back, Up, Down, PgUp, PgDown, Home, End bkey.Binding
}{
	Back:   bind("Esc", "back", "esc", "q"),
	Up:     bind("↑↓", "scroll", "up", "k"),
	Down:   bind("", "", "down", "j", "enter"),
	PgUp:   bind("", "", "pgup"),
	PgDown: bind("", "", "pgdown", "space"),
	Home:   bind("", "", "home"),
	End:    bind("", "", "end"),
}

// tableKeys are the table's, in every phase: the game's moves, the keys
// of any time, the waiting room's, the sheet's and the help screen's.
var tableKeys = struct {
	// Your hand.
	Left, Right, Home, End, Pick, PickUp, Drop, Clear bkey.Binding
	// Your turn.
	Claim, Enter, Sneak, More, Fewer, Rank, Quads bkey.Binding
	// The call window, I Doubt It, the hand-over.
	Call, Pass, Doubt, Believe, Skip, HandOver bkey.Binding
	// Any time.
	Sort, Help, Web, Leave, Esc bkey.Binding
	// The host's: end the game now (everyone audits the plays so far).
	EndGame bkey.Binding
	// The host's: a bot plays a seat until its person moves again.
	GiveSeat bkey.Binding
	// The host's: pause the game, and go on (the table's clocks stop).
	Pause bkey.Binding
	// Leave the table? Y or Enter leaves, any other key stays.
	Yes, No bkey.Binding
	// The waiting room and the result sheet.
	Start, Again, Lobby, Share bkey.Binding
	// Help's assists, switched by number.
	Assists [5]bkey.Binding
}{
	Left:   bind("← →", "move", "left"),
	Right:  bind("", "", "right"),
	Home:   bind("", "", "home"),
	End:    bind("", "", "end"),
	Pick:   bind("space", "pick/drop", "space"),
	PickUp: bind("↑ ↓", "pick, drop", "up"),
	Drop:   bind("", "", "down"),
	Clear:  bind("X", "clear", "x"),

	Claim: bind("C", "claim the picked cards", "c"),
	Enter: bind("Enter", "play", "enter"),
	Sneak: bind("S", "sneak: cards under the claim", "s"),
	More:  bind("+ −", "claimed count (count lies)", "+", "="),
	Fewer: bind("", "", "-", "_"),
	Rank:  bind("R", "rank, where it's free", "r"),
	Quads: bind("4", "four of a kind out of the game (quads)", "4"),

	Call:     bind("B", "Bullshit!", "b"),
	Pass:     bind("G", "let it go", "g"),
	Doubt:    bind("D", "doubt", "d"),
	Believe:  bind("V", "believe", "v"),
	Skip:     bind("K", "skip", "k"),
	HandOver: bind("H", "hand it over", "h"),

	Sort:  bind("O", "sort", "o"),
	Help:  bind("?", "help", "?"),
	Web:   bind("W", "QR", "w"),
	Leave: bind("Q", "leave", "q"),
	Esc:   bind("Esc", "back", "esc"),

	EndGame:  bind("E", "end the game now", "e"),
	GiveSeat: bind("A", "a bot plays a seat", "a"),
	Pause:    bind("P", "pause the game, and go on", "p"),

	Yes: bind("Y", "leave", "y", "enter"),
	No:  bind("N", "stay", "n"),

	Start: bind("Enter", "start the game (empty seats get bots)", "enter", "s"),
	Again: bind("N", "new game with the same seats", "n"),
	Lobby: bind("L", "lobby", "l"),
	Share: bind("S", "share", "s"),

	Assists: [5]bkey.Binding{
		bind("1", "Light up the rank called", "1"),
		bind("2", "Pick them for me", "2"),
		bind("3", "Say when a claim can't be true", "3"),
		bind("4", "Bell: your turn, and 2 s left to call", "4"),
		bind("5", "Show the first-run hints again", "5"),
	},
}

// PausedText is what every screen at a paused table says (the page too).
const PausedText = "Paused by the host."
