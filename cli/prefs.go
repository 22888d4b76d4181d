package cli

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	tea "charm.land/bubbletea/v2"

	"github.com/bullshit-game/bullshit/cli/internal/atomicfile"
)

// Files in the profile directory that the client keeps.
const (
	HintsFile    = "hints.json"    // the first-run hints already shown
	SettingsFile = "settings.json" // the assists and the bell
	TableFile    = "table.json"    // the new-table form's last settings (not its join code)
)

// The first-run hints, each shown once and then remembered.
const (
	HintClaim    = "claim"    // your first turn
	HintWindow   = "window"   // your first call window
	HintHandOver = "handover" // your first hand-over (V14)
)

var hintText = map[string]string{
	HintClaim:    "Your move: pick cards (← → and space), then C to claim.",
	HintWindow:   "Someone played: B shouts Bullshit!, G lets it go. The bar is the time left.",
	HintHandOver: "You caught a sneak: pick a card to hand over (one is picked for you), then H.",
}

// Prefs are the assists and the bell, all on unless turned off.
type Prefs struct {
	NoLight bool `json:"no_light,omitempty"` // don't light up the cards of the rank called
	NoPick  bool `json:"no_pick,omitempty"`  // don't pick them for me
	NoCount bool `json:"no_count,omitempty"` // don't say when a claim can't be true
	NoBell  bool `json:"no_bell,omitempty"`
}

// LoadLastTable is the new-table form's last settings from dir's
// TableFile; nil (the defaults) when there are none or they don't read.
func LoadLastTable(dir string) map[string]string {
	var v map[string]string
	if loadJSON(dir, TableFile, &v) != nil {
		return nil
	}
	return v
}

// loadJSON reads dir/name into v; a missing file leaves v as it is.
func loadJSON(dir, name string, v any) error {
	if dir == "" {
		return nil
	}
	b, err := os.ReadFile(filepath.Join(dir, name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// saveJSON writes v to dir/name, through a temporary file so a crash never
// leaves half a file.
func saveJSON(dir, name string, v any) error { return atomicfile.WriteJSON(dir, name, v) }

// LoadHints reads the hints already shown.
func LoadHints(dir string) (map[string]bool, error) {
	h := map[string]bool{}
	err := loadJSON(dir, HintsFile, &h)
	if h == nil {
		h = map[string]bool{}
	}
	return h, err
}

// LoadPrefs reads the assists and the bell.
func LoadPrefs(dir string) (Prefs, error) {
	var p Prefs
	err := loadJSON(dir, SettingsFile, &p)
	return p, err
}

// savedMsg reports a file written (or not).
type savedMsg struct {
	name string
	err  error
}

// saveCmd writes a copy of v in the background.
func saveCmd(dir, name string, v any) tea.Cmd {
	if dir == "" {
		return nil
	}
	return func() tea.Msg { return savedMsg{name, saveJSON(dir, name, v)} }
}

func copyHints(h map[string]bool) map[string]bool {
	c := make(map[string]bool, len(h))
	for k, v := range h {
		c[k] = v
	}
	return c
}
