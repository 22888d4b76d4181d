package cli

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// styles are the few looks the screens use. With NO_COLOR every one is the
// empty style, so the screen carries its meaning in text alone (brackets
// round picked cards, a caret under the cursor, ▸ on the seat to play);
// colour only underlines it. On terminals with fewer colours bubbletea
// downsamples what is left.
type styles struct {
	plain   bool
	bar     lipgloss.Style // the title bar
	rule    lipgloss.Style
	faint   lipgloss.Style
	bold    lipgloss.Style
	key     lipgloss.Style // a key letter in the dock and hints
	turn    lipgloss.Style // the seat whose turn it is
	shout   lipgloss.Style // "Bullshit!", "Lie!"
	good    lipgloss.Style // "Truth!", "Out!", verified
	warn    lipgloss.Style // "their last!", can't-be-true hints, the bar running out
	lit     lipgloss.Style // a card of the rank called
	picked  lipgloss.Style // a picked card
	red     lipgloss.Style // hearts and diamonds
	cursor  lipgloss.Style // the card under the cursor
	barFull lipgloss.Style
	barLow  lipgloss.Style
	main    lipgloss.Style // the main move of the dock
	hint    lipgloss.Style // first-run hints
	refusal lipgloss.Style
	keys    help.Model // bars of keys: "W watch"
	moves   help.Model // the dock's moves and help's keys: "B  Bullshit!"
}

func newStyles(plain bool) styles {
	s := styles{plain: true}
	if !plain {
		s = colours()
	}
	s.keys = keyHelp(s.key, "  ", false)
	s.moves = keyHelp(s.key, "   ", true)
	return s
}

// colours are the looks where the terminal shows them.
func colours() styles {
	c := lipgloss.Color
	return styles{
		bar:     lipgloss.NewStyle().Bold(true).Foreground(c("#f5f5f5")).Background(c("#3b3b58")),
		rule:    lipgloss.NewStyle().Foreground(c("#5f5f7a")),
		faint:   lipgloss.NewStyle().Foreground(c("#8a8aa0")),
		bold:    lipgloss.NewStyle().Bold(true),
		key:     lipgloss.NewStyle().Bold(true).Foreground(c("#ffd75f")),
		turn:    lipgloss.NewStyle().Bold(true).Foreground(c("#87d7ff")),
		shout:   lipgloss.NewStyle().Bold(true).Foreground(c("#ff5f5f")),
		good:    lipgloss.NewStyle().Bold(true).Foreground(c("#87d787")),
		warn:    lipgloss.NewStyle().Foreground(c("#ffaf5f")),
		lit:     lipgloss.NewStyle().Bold(true).Foreground(c("#ffd75f")),
		picked:  lipgloss.NewStyle().Bold(true).Foreground(c("#87d7ff")),
		red:     lipgloss.NewStyle().Foreground(c("#ff8787")),
		cursor:  lipgloss.NewStyle().Reverse(true),
		barFull: lipgloss.NewStyle().Foreground(c("#87d787")),
		barLow:  lipgloss.NewStyle().Foreground(c("#ff5f5f")),
		main:    lipgloss.NewStyle().Bold(true).Foreground(c("#ff8787")),
		hint:    lipgloss.NewStyle().Italic(true).Foreground(c("#d7afff")),
		refusal: lipgloss.NewStyle().Foreground(c("#ff8787")),
	}
}

// r renders s in st unless the screen is plain.
func (s styles) r(st lipgloss.Style, text string) string {
	if s.plain || text == "" {
		return text
	}
	return st.Render(text)
}

// width is how many columns s takes on screen, escape codes aside.
func width(s string) int { return ansi.StringWidth(s) }

// fit cuts s to w columns (with an ellipsis) or pads it with spaces to w.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	n := width(s)
	if n > w {
		return ansi.Truncate(s, w, "…")
	}
	return s + strings.Repeat(" ", w-n)
}

// cut cuts s to w columns, without padding.
func cut(s string, w int) string {
	if width(s) > w {
		return ansi.Truncate(s, max(w, 0), "…")
	}
	return s
}

// spread puts left at the left and right at the right of a line of w
// columns; when both don't fit, the right side goes first.
func spread(left, right string, w int) string {
	lw, rw := width(left), width(right)
	if lw+rw+1 > w {
		if rw+1 >= w {
			return fit(left, w)
		}
		return fit(left, w-rw-1) + " " + right
	}
	return left + strings.Repeat(" ", w-lw-rw) + right
}

// spreadOr is spread, dropping right altogether when both don't fit.
func spreadOr(left, right string, w int) string {
	if width(left)+width(right)+1 > w {
		return fit(left, w)
	}
	return spread(left, right, w)
}

// rule is a full-width line.
func (s styles) ruleLine(w int) string { return s.r(s.rule, strings.Repeat("─", max(w, 1))) }

// titleBar is the top line: left and right text on a full-width bar.
func (s styles) titleBar(left, right string, w int) string {
	return s.r(s.bar, spread(" "+left, right+" ", w))
}

// stripANSI removes escape codes: the text a test reads.
func stripANSI(s string) string { return ansi.Strip(s) }
