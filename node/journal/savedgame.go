package journal

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
	Table      string                  // the table's name
	Seat       int                     // the seat this node played; -1 watched
	Config     engine.Config           // as the host revealed it: rules, seats, seed
	Salt       [gamewire.SaltSize]byte // as the host revealed it
	Commitment [32]byte                // as the host published it before the deal
	Toss       Toss                    // the deal's toss as this seat took part in it, and the nonces the host says it mixed
	Steps      []engine.Step           // the host's log: every command with its cards and time
	Events     []engine.Event          // what this seat received during the game, in order
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
	Toss       *tossJSON     `json:"toss,omitempty"`
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
		Config: toConfigJSON(g.Config), Salt: g.Salt[:], Commitment: g.Commitment[:], Toss: toTossJSON(g.Toss)})
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.Write(head[:len(head)-1])
	b.WriteString(",\n\"steps\":[")
	if err := writeLines(&b, "step", g.Steps, func(s engine.Step) any { return s }); err != nil {
		return nil, err
	}
	b.WriteString("],\n\"events\":[")
	if err := writeLines(&b, "event", g.Events, func(e engine.Event) any { return toEventJSON(e) }); err != nil {
		return nil, err
	}
	b.WriteString("]}\n")
	return b.Bytes(), nil
}

// writeLines writes the JSON of each of xs (as f gives it) to b, one a
// line, comma-separated; a failure names the what and its index.
func writeLines[T any](b *bytes.Buffer, what string, xs []T, f func(T) any) error {
	for i, x := range xs {
		line, err := json.Marshal(f(x))
		if err != nil {
			return fmt.Errorf("%s %d: %w", what, i, err)
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n")
		b.Write(line)
	}
	return nil
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
	toss, err := w.Toss.toss()
	if err != nil {
		return err
	}
	*g = SavedGame{Table: w.Table, Seat: w.Seat, Config: w.Config.config(), Salt: salt, Commitment: commit, Toss: toss, Steps: w.Steps}
	if w.Events != nil {
		g.Events = make([]engine.Event, len(w.Events))
		for i, e := range w.Events {
			g.Events[i] = e.event()
		}
	}
	return nil
}

// Dealt is the config the engine dealt from: Config (the host's seed)
// with the seed mixed with the toss's nonces.
func (g SavedGame) Dealt() engine.Config {
	c := g.Config
	c.Seed = gamewire.DealSeed(c.Seed, g.Salt, g.Toss.Nonces)
	return c
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
// commitment, the toss (each mixed nonce against its commitment, this
// seat's own among them), then the whole game, dealt from DealSeed, with
// engine.Audit. It returns what did not match, nil when the game verifies.
func VerifyGame(g SavedGame) []string {
	p, _ := Verify(g)
	return p
}

// GameNotes is what VerifyGame saw that is no fault of the host's: a
// nonce that came too late for the deal.
func GameNotes(g SavedGame) []string {
	_, n := Verify(g)
	return n
}

// Verify is VerifyGame's problems and GameNotes' notes at once.
func Verify(g SavedGame) (problems, notes []string) {
	return gamewire.Verify(g.Commitment, g.Salt, g.Config, g.Toss, g.Steps, g.Seat, g.Events)
}

// Toss is what a seat knows of the deal's toss (gamewire.Toss).
type Toss = gamewire.Toss

// tossJSON is a Toss in a saved game; a game before the toss has none.
type tossJSON struct {
	Round   hexBytes   `json:"round,omitempty"`
	Commits []hexBytes `json:"commits,omitempty"`
	Nonces  []hexBytes `json:"nonces,omitempty"`
	Mine    hexBytes   `json:"mine,omitempty"` // this seat's own nonce, if it revealed one
	// Players name the seats whose nonce the deal must mix (gamewire.MustMix).
	Players []string `json:"players,omitempty"`
}

func toTossJSON(t Toss) *tossJSON {
	if t.Round == ([32]byte{}) && t.Commits == nil && t.Nonces == nil && !t.Revealed && t.Players == nil {
		return nil
	}
	w := &tossJSON{Commits: hexList(t.Commits), Nonces: hexList(t.Nonces), Players: t.Players}
	if t.Round != ([32]byte{}) {
		w.Round = t.Round[:]
	}
	if t.Revealed {
		w.Mine = t.Mine[:]
	}
	return w
}

func (w *tossJSON) toss() (Toss, error) {
	var t Toss
	if w == nil {
		return t, nil
	}
	t.Players = w.Players
	var err error
	if w.Round != nil {
		if t.Round, err = hex32(w.Round, "toss's round"); err != nil {
			return t, err
		}
	}
	if t.Commits, err = hex32List(w.Commits, "nonce commitment"); err != nil {
		return t, err
	}
	if t.Nonces, err = hex32List(w.Nonces, "nonce"); err != nil {
		return t, err
	}
	if w.Mine != nil {
		if t.Mine, err = hex32(w.Mine, "seat's own nonce"); err != nil {
			return t, err
		}
		t.Revealed = true
	}
	return t, nil
}

// hexList is a list of 32-byte values as hex, nil for none.
func hexList(l [][32]byte) []hexBytes {
	if l == nil {
		return nil
	}
	out := make([]hexBytes, len(l))
	for i := range l {
		out[i] = l[i][:]
	}
	return out
}

func hex32List(l []hexBytes, what string) ([][32]byte, error) {
	if l == nil {
		return nil, nil
	}
	out := make([][32]byte, len(l))
	for i, h := range l {
		v, err := hex32(h, what)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}
