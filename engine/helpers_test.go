package engine_test

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine"
)

// cards reads "AS 2C 10H" (or "-" for none).
func cards(s string) []engine.Card {
	var out []engine.Card
	for _, f := range strings.Fields(s) {
		if f == "-" {
			continue
		}
		c, ok := engine.ParseCard(f)
		if !ok {
			panic(fmt.Sprintf("test: %q is not a card", f))
		}
		out = append(out, c)
	}
	return out
}

func str(cs []engine.Card) string { return strings.Join(engine.Cards(cs), " ") }

func rank(s string) engine.Rank {
	r, ok := engine.ParseRank(s)
	if !ok {
		panic("test: no rank " + s)
	}
	return r
}

func sec(x float64) time.Duration { return time.Duration(x * float64(time.Second)) }

// rules is a preset with keys set as on the wire: rules("twist", "sneak", 1).
func rules(t testing.TB, preset string, kv ...any) engine.Rules {
	t.Helper()
	r, ok := engine.Preset(preset)
	if !ok {
		t.Fatalf("no preset %q", preset)
	}
	for i := 0; i < len(kv); i += 2 {
		if err := r.Set(kv[i].(string), kv[i+1]); err != nil {
			t.Fatalf("rules %v=%v: %v", kv[i], kv[i+1], err)
		}
	}
	return r
}

// table deals the given hands (one string a seat) with seat first to play.
func table(t testing.TB, r engine.Rules, first int, hands ...string) *engine.Game {
	t.Helper()
	hs := make([][]engine.Card, len(hands))
	for i, h := range hands {
		hs[i] = cards(h)
	}
	g, _, err := engine.New(engine.Config{Rules: r, Seats: len(hands), Seed: 1, Hands: hs, First: &first})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return g
}

// dealt is a seeded deal of the rules' own.
func dealt(t testing.TB, r engine.Rules, seats int, seed uint64) (*engine.Game, []engine.Event) {
	t.Helper()
	g, ev, err := engine.New(engine.Config{Rules: r, Seats: seats, Seed: seed})
	if err != nil {
		t.Fatalf("New(%d seats, seed %d): %v", seats, seed, err)
	}
	return g, ev
}

// A script drives a game line by line, on a clock of its own:
//
//	[@T] SEAT VERB [ARGS] [=> CODE]
//	tick T
//
// VERB is play (cards, then claim=N rank=R), call and pass (the play's
// number), give and quads (cards), doubt, believe and skip (optional
// number). @T applies the command at T seconds without firing deadlines;
// tick fires them. "=> code" expects that refusal and checks that it changed
// nothing; without it the line must be accepted.
type script struct {
	t      testing.TB
	g      *engine.Game
	now    time.Duration
	events []engine.Event // of the last line
	all    []engine.Event // of every line
}

func run(t testing.TB, g *engine.Game, lines ...string) *script {
	t.Helper()
	s := &script{t: t, g: g}
	s.do(lines...)
	return s
}

func (s *script) do(lines ...string) *script {
	s.t.Helper()
	for _, line := range lines {
		s.line(line)
	}
	return s
}

// parse reads a script line into a command, its time and the code expected.
func parseLine(line string, now time.Duration) (c engine.Command, at time.Duration, tick bool, want engine.Code, err error) {
	at = now
	body, code, found := strings.Cut(line, "=>")
	if found {
		want = engine.Code(strings.TrimSpace(code))
	}
	f := strings.Fields(body)
	if len(f) > 0 && strings.HasPrefix(f[0], "@") {
		x, err := strconv.ParseFloat(f[0][1:], 64)
		if err != nil {
			return c, at, false, want, err
		}
		at, f = sec(x), f[1:]
	}
	if len(f) == 2 && f[0] == "tick" {
		x, err := strconv.ParseFloat(f[1], 64)
		if err != nil {
			return c, at, false, want, err
		}
		return c, sec(x), true, want, nil
	}
	if len(f) < 2 {
		return c, at, false, want, fmt.Errorf("short line")
	}
	c.Rank = engine.NoRank
	if c.Seat, err = strconv.Atoi(f[0]); err != nil {
		return c, at, false, want, err
	}
	m, ok := engine.ParseMove(f[1])
	if !ok {
		m = engine.Move(99)
	}
	c.Move = m
	for _, a := range f[2:] {
		switch {
		case strings.HasPrefix(a, "claim="):
			c.Claim, _ = strconv.Atoi(a[6:])
		case strings.HasPrefix(a, "rank="):
			r, ok := engine.ParseRank(a[5:])
			if !ok {
				r = engine.Rank(77)
			}
			c.Rank = r
		case strings.HasPrefix(a, "card="):
			n, _ := strconv.Atoi(a[5:])
			c.Cards = append(c.Cards, engine.Card(n))
		default:
			if n, err := strconv.Atoi(a); err == nil {
				c.No = n
				continue
			}
			c.Cards = append(c.Cards, cards(a)...)
		}
	}
	return c, at, false, want, nil
}

func (s *script) line(line string) {
	s.t.Helper()
	c, at, tick, want, err := parseLine(line, s.now)
	if err != nil {
		s.t.Fatalf("script %q: %v", line, err)
	}
	if tick {
		s.now = at
		s.events = s.g.Tick(at)
		s.all = append(s.all, s.events...)
		s.conserved(line)
		return
	}
	if at > s.now {
		s.now = at
	}
	before := s.g.Clone()
	ev, err := s.g.Apply(at, c)
	switch {
	case want == "" && err != nil:
		s.t.Fatalf("%q refused (%s): %v", line, engine.CodeOf(err), err)
	case want != "" && err == nil:
		s.t.Fatalf("%q accepted, want %s; events %s", line, want, evs(ev))
	case want != "":
		if engine.CodeOf(err) != want {
			s.t.Fatalf("%q refused with %s (%v), want %s", line, engine.CodeOf(err), err, want)
		}
		if !errors.Is(err, sentinel(want)) {
			s.t.Fatalf("%q: errors.Is(err, sentinel %s) is false", line, want)
		}
		if err.Error() == "" || !strings.ContainsAny(err.Error()[len(err.Error())-1:], ".!?)") {
			s.t.Fatalf("%q: message %q is not a sentence", line, err.Error())
		}
		if ev != nil {
			s.t.Fatalf("%q refused but returned events", line)
		}
		if after := s.g.Clone(); !reflect.DeepEqual(before, after) {
			s.t.Fatalf("%q refused but changed the game", line)
		}
	}
	s.events = ev
	s.all = append(s.all, ev...)
	s.conserved(line)
}

func (s *script) conserved(line string) {
	s.t.Helper()
	if !s.g.Conserved() {
		s.t.Fatalf("after %q: cards not conserved (R17)", line)
	}
}

// has reports whether the last line's events include one of type typ, and
// returns the first.
func (s *script) has(typ engine.EventType) (engine.Event, bool) {
	for _, e := range s.events {
		if e.Type == typ {
			return e, true
		}
	}
	return engine.Event{}, false
}

func (s *script) must(typ engine.EventType) engine.Event {
	s.t.Helper()
	e, ok := s.has(typ)
	if !ok {
		s.t.Fatalf("no %s event in %s", typ, evs(s.events))
	}
	return e
}

func (s *script) mustNot(typ engine.EventType) {
	s.t.Helper()
	if _, ok := s.has(typ); ok {
		s.t.Fatalf("unexpected %s event in %s", typ, evs(s.events))
	}
}

func evs(ev []engine.Event) string {
	var b strings.Builder
	for _, e := range ev {
		j, _ := e.MarshalJSON()
		b.Write(j)
		b.WriteByte(' ')
	}
	return b.String()
}

var sentinels = map[engine.Code]error{
	engine.CodeBadCommand:    engine.ErrBadCommand,
	engine.CodeGameOver:      engine.ErrGameOver,
	engine.CodeBadSeat:       engine.ErrBadSeat,
	engine.CodeBadCard:       engine.ErrBadCard,
	engine.CodeNotYourTurn:   engine.ErrNotYourTurn,
	engine.CodeNotInHand:     engine.ErrNotInHand,
	engine.CodeBadCount:      engine.ErrBadCount,
	engine.CodeBadRank:       engine.ErrBadRank,
	engine.CodeNoWindow:      engine.ErrNoWindow,
	engine.CodeTooLate:       engine.ErrTooLate,
	engine.CodeOwnPlay:       engine.ErrOwnPlay,
	engine.CodeAlreadyPassed: engine.ErrAlreadyPassed,
	engine.CodeNotAllowed:    engine.ErrNotAllowed,
}

func sentinel(c engine.Code) error {
	if e, ok := sentinels[c]; ok {
		return e
	}
	return errors.New("no sentinel for " + string(c))
}

// hand is seat's hand as a string.
func hand(g *engine.Game, seat int) string { return str(g.State().Hands[seat]) }

// check takes what as any string kind, so an event type can name itself.
func check[S ~string, T comparable](t testing.TB, what S, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func ptr(i int) *int { return &i }

// A row is one case of a rule's table: a script on a fresh table, then
// checks on what it left.
type row struct {
	name   string
	script []string
	check  func(t *testing.T, s *script)
}

// rows runs each row on a table made by setup.
func rows(t *testing.T, setup func(t testing.TB) *engine.Game, rs []row) {
	t.Helper()
	for _, r := range rs {
		t.Run(r.name, func(t *testing.T) {
			s := run(t, setup(t), r.script...)
			if r.check != nil {
				r.check(t, s)
			}
		})
	}
}
