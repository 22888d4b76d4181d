// Package referee is the engine's line protocol (../shared/REFEREE.md):
// JSON commands in, one JSON reply per command out, on a virtual clock that
// moves only with tick. It is how tests, bots in any language and replays
// drive the engine. It reads no clock and draws no randomness but the seed;
// a line of garbage is answered with bad_command and the session goes on.
package referee

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/bullshit-game/bullshit/engine"
)

// Referee holds one game and its virtual clock.
type Referee struct {
	g   *engine.Game
	now time.Duration
}

// New is a referee with no game yet.
func New() *Referee { return &Referee{} }

// Game is the current game, nil before the first new.
func (r *Referee) Game() *engine.Game { return r.g }

// MaxLine is the longest command line read; a longer one is refused.
const MaxLine = 1 << 20

// Run answers every line of in on out until in ends.
func Run(in io.Reader, out io.Writer) error {
	r := New()
	br := bufio.NewReaderSize(in, 64*1024)
	w := bufio.NewWriter(out)
	var line []byte
	long := false
	for {
		chunk, isPrefix, err := br.ReadLine()
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			if ferr := w.Flush(); err == nil {
				err = ferr
			}
			return err
		}
		if !long {
			if len(line)+len(chunk) > MaxLine {
				// Too long to be a command: drop the rest of it, answer,
				// and go on with the same game.
				long, line = true, line[:0]
			} else {
				line = append(line, chunk...)
			}
		}
		if isPrefix {
			continue
		}
		var reply []byte
		switch {
		case long:
			reply = refusal(engine.CodeBadCommand, "That line is too long.")
		case len(bytes.TrimSpace(line)) == 0:
			line = line[:0]
			continue
		default:
			reply = r.Handle(line)
		}
		long, line = false, line[:0]
		w.Write(reply)
		w.WriteByte('\n')
		if err := w.Flush(); err != nil {
			return err
		}
	}
}

// Handle answers one command line.
func (r *Referee) Handle(line []byte) []byte {
	reply, err := r.handle(line)
	if err != nil {
		var ref *engine.Refusal
		if !errors.As(err, &ref) {
			ref = &engine.Refusal{Code: engine.CodeBadCommand, Msg: err.Error()}
		}
		return refusal(ref.Code, ref.Msg)
	}
	b, err := json.Marshal(reply)
	if err != nil {
		return refusal(engine.CodeBadCommand, "The reply could not be written: "+err.Error())
	}
	return b
}

func refusal(code engine.Code, msg string) []byte {
	b, _ := json.Marshal(struct {
		OK    bool        `json:"ok"`
		Error engine.Code `json:"error"`
		Msg   string      `json:"message"`
	}{false, code, msg})
	return b
}

type reply struct {
	OK     bool           `json:"ok"`
	Events []engine.Event `json:"events"`
	View   *engine.View   `json:"view,omitempty"`
	State  *engine.State  `json:"state,omitempty"`
}

func bad(format string, args ...any) error {
	return &engine.Refusal{Code: engine.CodeBadCommand, Msg: fmt.Sprintf(format, args...)}
}

// fields is a command's keys, read one by one with their types checked.
type fields map[string]json.RawMessage

func (f fields) has(k string) bool {
	v, ok := f[k]
	return ok && string(v) != "null"
}

func (f fields) int(k string) (int, error) {
	v, ok := f[k]
	if !ok || string(v) == "null" {
		return 0, bad("The %q field is missing.", k)
	}
	var n json.Number
	if err := json.Unmarshal(v, &n); err != nil || isString(v) {
		return 0, bad("%q must be a whole number.", k)
	}
	i, err := strconv.ParseInt(n.String(), 10, 32)
	if err != nil {
		return 0, bad("%q must be a whole number.", k)
	}
	return int(i), nil
}

// isString reports whether a raw JSON value is a string: json.Number
// would take "5" for 5, and the protocol's numbers are numbers.
func isString(v json.RawMessage) bool {
	v = bytes.TrimSpace(v)
	return len(v) > 0 && v[0] == '"'
}

func (f fields) number(k string) (float64, error) {
	v, ok := f[k]
	if !ok || string(v) == "null" {
		return 0, bad("The %q field is missing.", k)
	}
	var x float64
	if err := json.Unmarshal(v, &x); err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, bad("%q must be a number.", k)
	}
	return x, nil
}

func (f fields) str(k string) (string, error) {
	var s string
	if err := json.Unmarshal(f[k], &s); err != nil {
		return "", bad("%q must be a string.", k)
	}
	return s, nil
}

func (f fields) strings(k string) ([]string, error) {
	v, ok := f[k]
	if !ok || string(v) == "null" {
		return nil, bad("The %q field is missing.", k)
	}
	var ss []string
	if err := json.Unmarshal(v, &ss); err != nil {
		return nil, bad("%q must be a list of card strings.", k)
	}
	return ss, nil
}

func (r *Referee) handle(line []byte) (*reply, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var f fields
	if err := dec.Decode(&f); err != nil || f == nil {
		return nil, bad("A command is one JSON object on a line, such as {\"cmd\":\"view\",\"seat\":0}.")
	}
	if dec.More() {
		return nil, bad("One JSON object per line, please.")
	}
	if _, ok := f["cmd"]; !ok {
		return nil, bad("The \"cmd\" field is missing.")
	}
	cmd, err := f.str("cmd")
	if err != nil {
		return nil, err
	}
	switch cmd {
	case "new":
		return r.newGame(f)
	case "play", "call", "pass", "give", "quads", "doubt", "believe", "skip":
		return r.move(cmd, f)
	case "tick":
		t, err := f.number("t")
		if err != nil {
			return nil, err
		}
		if t < 0 || t > 1e9 {
			return nil, bad("\"t\" is seconds since the start, from 0.")
		}
		now := time.Duration(math.Round(t * 1e9))
		if r.g == nil {
			return nil, bad("No game yet: start one with new.")
		}
		if now < r.now {
			return nil, bad("The clock can't go back: it is at %gs.", r.now.Seconds())
		}
		if r.g.Over() {
			return nil, engine.ErrGameOver
		}
		r.now = now
		return &reply{OK: true, Events: orEmpty(r.g.Tick(now))}, nil
	case "view":
		seat, err := f.int("seat")
		if err != nil {
			return nil, err
		}
		if r.g == nil {
			return nil, bad("No game yet: start one with new.")
		}
		if seat < 0 || seat >= r.g.Seats() {
			return nil, &engine.Refusal{Code: engine.CodeBadSeat, Msg: fmt.Sprintf("There is no seat %d at this table of %d.", seat, r.g.Seats())}
		}
		v := r.g.View(seat)
		return &reply{OK: true, Events: []engine.Event{}, View: &v}, nil
	case "state":
		if r.g == nil {
			return nil, bad("No game yet: start one with new.")
		}
		s := r.g.State()
		return &reply{OK: true, Events: []engine.Event{}, State: &s}, nil
	}
	return nil, bad("There is no command %q.", cmd)
}

func (r *Referee) newGame(f fields) (*reply, error) {
	seats, err := f.int("seats")
	if err != nil {
		return nil, err
	}
	seed, err := seedOf(f)
	if err != nil {
		return nil, err
	}
	var rulesVal any
	if raw, ok := f["rules"]; ok {
		if err := json.Unmarshal(raw, &rulesVal); err != nil {
			return nil, bad("\"rules\" must be a preset name or an object.")
		}
	}
	rules, err := engine.ParseRules(rulesVal)
	if err != nil {
		return nil, err
	}
	if seats < 2 || seats > 10 {
		return nil, bad("A table has 2 to 10 seats, not %d.", seats)
	}
	cfg := engine.Config{Rules: rules, Seats: seats, Seed: seed}
	if f.has("hands") {
		var hs [][]string
		if err := json.Unmarshal(f["hands"], &hs); err != nil {
			return nil, bad("\"hands\" must be a list of lists of card strings.")
		}
		if len(hs) != seats {
			// A malformed field is a bad command before any card is read.
			return nil, bad("\"hands\" must hold %d hands, one a seat.", seats)
		}
		cfg.Hands = make([][]engine.Card, len(hs))
		for i, h := range hs {
			if cfg.Hands[i], err = engine.ParseCards(h); err != nil {
				return nil, err
			}
		}
	}
	if f.has("first") {
		first, err := f.int("first")
		if err != nil {
			return nil, err
		}
		cfg.First = &first
	}
	g, events, err := engine.New(cfg)
	if err != nil {
		return nil, err
	}
	r.g, r.now = g, 0
	return &reply{OK: true, Events: orEmpty(events)}, nil
}

func seedOf(f fields) (uint64, error) {
	v, ok := f["seed"]
	if !ok || string(v) == "null" {
		return 0, bad("The \"seed\" field is missing.")
	}
	var n json.Number
	if err := json.Unmarshal(v, &n); err != nil || isString(v) {
		return 0, bad("\"seed\" must be a whole number.")
	}
	if u, err := strconv.ParseUint(n.String(), 10, 64); err == nil {
		return u, nil
	}
	if i, err := strconv.ParseInt(n.String(), 10, 64); err == nil {
		return uint64(i), nil
	}
	return 0, bad("\"seed\" must be a whole number.")
}

var moves = map[string]engine.Move{
	"play": engine.MovePlay, "call": engine.MoveCall, "pass": engine.MovePass, "give": engine.MoveGive,
	"quads": engine.MoveQuads, "doubt": engine.MoveDoubt, "believe": engine.MoveBelieve, "skip": engine.MoveSkip,
}

// move reads a move's fields, type errors first (bad_command), then checks
// the game, the seat and the cards in the order of REFEREE.md before the
// engine checks the rest.
func (r *Referee) move(cmd string, f fields) (*reply, error) {
	c := engine.Command{Move: moves[cmd], Rank: engine.NoRank}
	var err error
	if c.Seat, err = f.int("seat"); err != nil {
		return nil, err
	}
	var cardStrs []string
	switch c.Move {
	case engine.MovePlay, engine.MoveGive, engine.MoveQuads:
		if cardStrs, err = f.strings("cards"); err != nil {
			return nil, err
		}
	}
	if c.Move == engine.MovePlay {
		if f.has("claim") {
			if c.Claim, err = f.int("claim"); err != nil {
				return nil, err
			}
			if c.Claim < 1 {
				c.Claim = -1 // refused by the engine as a count, after its hand check
			}
		}
		if f.has("rank") {
			s, err := f.str("rank")
			if err != nil {
				return nil, err
			}
			rk, ok := engine.ParseRank(s)
			if !ok {
				c.Rank = engine.Rank(99) // not a rank: refused as bad_rank in order
			} else {
				c.Rank = rk
			}
		}
	}
	switch c.Move {
	case engine.MoveCall, engine.MovePass:
		if c.No, err = f.int("no"); err != nil {
			return nil, err
		}
	case engine.MoveDoubt, engine.MoveBelieve, engine.MoveSkip:
		if f.has("no") {
			if c.No, err = f.int("no"); err != nil {
				return nil, err
			}
			if c.No < 1 {
				c.No = -1
			}
		}
	}
	if r.g == nil {
		return nil, bad("No game yet: start one with new.")
	}
	if r.g.Over() {
		return nil, engine.ErrGameOver
	}
	if c.Seat < 0 || c.Seat >= r.g.Seats() {
		return nil, &engine.Refusal{Code: engine.CodeBadSeat, Msg: fmt.Sprintf("There is no seat %d at this table of %d.", c.Seat, r.g.Seats())}
	}
	if cardStrs != nil {
		if c.Cards, err = engine.ParseCards(cardStrs); err != nil {
			return nil, err
		}
	}
	events, err := r.g.Apply(r.now, c)
	if err != nil {
		return nil, err
	}
	return &reply{OK: true, Events: orEmpty(events)}, nil
}

func orEmpty(e []engine.Event) []engine.Event {
	if e == nil {
		return []engine.Event{}
	}
	return e
}
