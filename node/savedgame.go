package node

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
)

// A saved game is what a node keeps of a finished game to check its host,
// then or later (`bullshit verify FILE`): what the host promised before
// the deal (the commitment), what it revealed at the end (the seed, the
// salt, every step with its cards and time), and what this seat was
// actually shown during the game, event by event. VerifyGame holds the
// three against each other.

// savedFormat names the file format; LoadGame refuses any other.
const savedFormat = "bullshit saved game v1"

// maxSaved bounds a saved game file: a game of 500 plays is well under.
const maxSaved = 64 << 20

// SavedGame is one seat's record of a finished game.
type SavedGame struct {
	Table      string         // the table's name
	Seat       int            // the seat this node played; -1 watched
	Config     engine.Config  // as the host revealed it: rules, seats, seed
	Salt       [SaltSize]byte // as the host revealed it
	Commitment [32]byte       // as the host published it before the deal
	Steps      []engine.Step  // the host's log: every command with its cards and time
	Events     []engine.Event // what this seat received during the game, in order
}

// ErrSavedGame is a file that is not a saved game this version can read.
var ErrSavedGame = errors.New("not a saved game")

type savedJSON struct {
	Format     string        `json:"format"`
	Table      string        `json:"table"`
	Seat       int           `json:"seat"`
	Config     configJSON    `json:"config"`
	Salt       hexBytes      `json:"salt"`
	Commitment hexBytes      `json:"commitment"`
	Steps      []engine.Step `json:"steps,omitempty"`
	Events     []eventJSON   `json:"events,omitempty"`
}

// eventJSON is an engine.Event that reads back as it was written (the
// engine's own MarshalJSON is the referee's one-way form).
type eventJSON struct {
	Type    engine.EventType `json:"type"`
	To      []int            `json:"to,omitempty"`
	Seat    int              `json:"seat,omitempty"`
	Target  int              `json:"target,omitempty"`
	No      int              `json:"no,omitempty"`
	Rank    engine.Rank      `json:"rank"`
	Claim   int              `json:"claim,omitempty"`
	Out     bool             `json:"out,omitempty"`
	Truth   bool             `json:"truth,omitempty"`
	Auto    bool             `json:"auto,omitempty"`
	Sneaked int              `json:"sneaked,omitempty"`
	Place   int              `json:"place,omitempty"`
	Count   engine.Count     `json:"count,omitzero"`
	Cards   []engine.Card    `json:"cards,omitempty"`
	Sizes   *sizesJSON       `json:"sizes,omitempty"`
	Counts  []engine.Count   `json:"counts,omitempty"`
	Places  []int            `json:"places,omitempty"`
	Hands   [][]engine.Card  `json:"hands,omitempty"`
}

type sizesJSON struct {
	Hand [2]engine.Count `json:"hand"`
	Pile [2]engine.Count `json:"pile"`
}

func toEventJSON(e engine.Event) eventJSON {
	w := eventJSON{Type: e.Type, To: e.To, Seat: e.Seat, Target: e.Target, No: e.No, Rank: e.Rank, Claim: e.Claim,
		Out: e.Out, Truth: e.Truth, Auto: e.Auto, Sneaked: e.Sneaked, Place: e.Place, Count: e.Count, Cards: e.Cards,
		Counts: e.Counts, Places: e.Places, Hands: e.Hands}
	if e.Sizes != (engine.Sizes{}) {
		w.Sizes = &sizesJSON{Hand: [2]engine.Count{e.Sizes.HandBefore, e.Sizes.HandAfter},
			Pile: [2]engine.Count{e.Sizes.PileBefore, e.Sizes.PileAfter}}
	}
	return w
}

func (w eventJSON) event() engine.Event {
	e := engine.Event{Type: w.Type, To: w.To, Seat: w.Seat, Target: w.Target, No: w.No, Rank: w.Rank, Claim: w.Claim,
		Out: w.Out, Truth: w.Truth, Auto: w.Auto, Sneaked: w.Sneaked, Place: w.Place, Count: w.Count, Cards: w.Cards,
		Counts: w.Counts, Places: w.Places, Hands: w.Hands}
	if w.Sizes != nil {
		e.Sizes = engine.Sizes{HandBefore: w.Sizes.Hand[0], HandAfter: w.Sizes.Hand[1],
			PileBefore: w.Sizes.Pile[0], PileAfter: w.Sizes.Pile[1]}
	}
	return e
}

// MarshalJSON writes the game with one step and one event a line, so the
// file reads (and greps) like a transcript.
func (g SavedGame) MarshalJSON() ([]byte, error) {
	head, err := json.Marshal(savedJSON{Format: savedFormat, Table: g.Table, Seat: g.Seat,
		Config: toConfigJSON(g.Config), Salt: g.Salt[:], Commitment: g.Commitment[:]})
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.Write(head[:len(head)-1])
	b.WriteString(",\n\"steps\":[")
	for i, s := range g.Steps {
		line, err := json.Marshal(s)
		if err != nil {
			return nil, fmt.Errorf("step %d: %w", i, err)
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n")
		b.Write(line)
	}
	b.WriteString("],\n\"events\":[")
	for i, e := range g.Events {
		line, err := json.Marshal(toEventJSON(e))
		if err != nil {
			return nil, fmt.Errorf("event %d: %w", i, err)
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n")
		b.Write(line)
	}
	b.WriteString("]}\n")
	return b.Bytes(), nil
}

// UnmarshalJSON reads what MarshalJSON writes; unknown fields are refused,
// so a misspelt field in a hand-edited file isn't silently dropped.
func (g *SavedGame) UnmarshalJSON(b []byte) error {
	var w savedJSON
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&w); err != nil {
		return err
	}
	if w.Format != savedFormat {
		return fmt.Errorf("%w: the format is %q, this program reads %q", ErrSavedGame, w.Format, savedFormat)
	}
	if err := w.Config.check(); err != nil {
		return err
	}
	salt, err := hex32(w.Salt, "salt")
	if err != nil {
		return err
	}
	commit, err := hex32(w.Commitment, "commitment")
	if err != nil {
		return err
	}
	for i, s := range w.Steps {
		if s.Cmd != nil && s.Cmd.Move == 0 {
			return fmt.Errorf("step %d has a command with no move", i)
		}
	}
	*g = SavedGame{Table: w.Table, Seat: w.Seat, Config: w.Config.config(), Salt: salt, Commitment: commit, Steps: w.Steps}
	if w.Events != nil {
		g.Events = make([]engine.Event, len(w.Events))
		for i, e := range w.Events {
			g.Events[i] = e.event()
		}
	}
	return nil
}

// SaveGame writes g to path, whole or not at all.
func SaveGame(path string, g SavedGame) error {
	data, err := json.Marshal(g)
	if err != nil {
		return fmt.Errorf("saving %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".saved-*")
	if err != nil {
		return fmt.Errorf("saving %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("saving %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("saving %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("saving %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("saving %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("saving %s: %w", path, err)
	}
	return nil
}

// LoadGame reads a saved game.
func LoadGame(path string) (SavedGame, error) {
	f, err := os.Open(path)
	if err != nil {
		return SavedGame{}, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxSaved+1))
	if err != nil {
		return SavedGame{}, fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > maxSaved {
		return SavedGame{}, fmt.Errorf("%s: %w: over %d MiB", path, ErrSavedGame, maxSaved>>20)
	}
	var g SavedGame
	if err := json.Unmarshal(data, &g); err != nil {
		if !errors.Is(err, ErrSavedGame) {
			err = fmt.Errorf("%w: %v", ErrSavedGame, err)
		}
		return SavedGame{}, fmt.Errorf("%s: %w", path, err)
	}
	return g, nil
}

// VerifyGame checks a saved game: the revealed seed and salt against the
// commitment, then the whole game with engine.Audit. It returns what did
// not match, nil when the game verifies.
func VerifyGame(g SavedGame) []string {
	return gamewire.Verify(g.Commitment, g.Salt, g.Config, g.Steps, g.Seat, g.Events)
}
