package extbot

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/bot"
	"github.com/bullshit-game/bullshit/engine/sim"
)

// The test binary doubles as an external program: run with
// EXTBOT_TEST_MEDIUM=SEAT/SEED it plays the medium bot over the pipe, so an
// exec: bot that decides exactly as the built-in one does can be set
// against it.
func TestMain(m *testing.M) {
	if arg := os.Getenv("EXTBOT_TEST_MEDIUM"); arg != "" {
		if err := runMedium(arg); err != nil {
			fmt.Fprintln(os.Stderr, "medium over the pipe:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// runMedium reads events and decisions on standard input and answers each
// decision with the medium bot's move.
func runMedium(arg string) error {
	var seat int
	var seed uint64
	if _, err := fmt.Sscanf(arg, "%d/%d", &seat, &seed); err != nil {
		return err
	}
	p, err := bot.New("medium", seat, seed)
	if err != nil {
		return err
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64*1024), MaxLine)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		var msg struct {
			Event  json.RawMessage `json:"event"`
			Decide json.RawMessage `json:"decide"`
		}
		if err := json.Unmarshal(in.Bytes(), &msg); err != nil {
			return err
		}
		switch {
		case msg.Event != nil:
			e, err := readEvent(msg.Event)
			if err != nil {
				return err
			}
			p.Observe(&e)
		case msg.Decide != nil:
			v, err := readView(msg.Decide)
			if err != nil {
				return err
			}
			cmd, _, ok := p.Act(&v)
			if !ok {
				cmd, _ = bot.Fallback(&v)
			}
			out.Write(writeCommand(cmd))
			out.WriteByte('\n')
			if err := out.Flush(); err != nil {
				return err
			}
		}
	}
	return in.Err()
}

// The JSON the engine writes and has no reader for: the phase's name, and
// a play's sizes.
type phaseJSON engine.Phase

func (p *phaseJSON) UnmarshalText(b []byte) error {
	for ph := engine.PhasePlay; ph <= engine.PhaseOver; ph++ {
		if ph.String() == string(b) {
			*p = phaseJSON(ph)
			return nil
		}
	}
	return fmt.Errorf("no phase %q", b)
}

type sizesJSON struct {
	Hand [2]engine.Count `json:"hand"`
	Pile [2]engine.Count `json:"pile"`
}

func (s sizesJSON) sizes() engine.Sizes {
	return engine.Sizes{HandBefore: s.Hand[0], HandAfter: s.Hand[1], PileBefore: s.Pile[0], PileAfter: s.Pile[1]}
}

func readView(b []byte) (engine.View, error) {
	var f struct {
		engine.View
		Phase phaseJSON `json:"phase"`
		Last  *struct {
			engine.Last
			Sizes sizesJSON `json:"sizes"`
		} `json:"last"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return engine.View{}, err
	}
	v := f.View
	v.Phase = engine.Phase(f.Phase)
	if f.Last != nil {
		l := f.Last.Last
		l.Sizes = f.Last.Sizes.sizes()
		v.Last = &l
	}
	return v, nil
}

// readEvent reads what engine.Event.MarshalJSON writes.
func readEvent(b []byte) (engine.Event, error) {
	f := struct {
		Type    string          `json:"type"`
		To      json.RawMessage `json:"to"`
		Seat    int             `json:"seat"`
		Dealer  int             `json:"dealer"`
		First   int             `json:"first"`
		On      int             `json:"on"`
		No      int             `json:"no"`
		Rank    engine.Rank     `json:"rank"`
		Claim   int             `json:"claim"`
		Out     bool            `json:"out"`
		Truth   bool            `json:"truth"`
		Auto    bool            `json:"auto"`
		Sneaked int             `json:"sneaked"`
		Place   int             `json:"place"`
		Count   engine.Count    `json:"count"`
		Cards   []engine.Card   `json:"cards"`
		Sizes   sizesJSON       `json:"sizes"`
		Hands   json.RawMessage `json:"hands"`
		Places  []int           `json:"places"`
		Winner  *int            `json:"winner"`
		Pile    []engine.Card   `json:"pile"`
	}{Rank: engine.NoRank}
	if err := json.Unmarshal(b, &f); err != nil {
		return engine.Event{}, err
	}
	e := engine.Event{Type: engine.EventType(f.Type), Seat: f.Seat, Target: f.On, No: f.No, Rank: f.Rank, Claim: f.Claim,
		Out: f.Out, Truth: f.Truth, Auto: f.Auto, Sneaked: f.Sneaked, Place: f.Place, Count: f.Count,
		Cards: f.Cards, Sizes: f.Sizes.sizes(), Places: f.Places}
	if string(f.To) != `"all"` {
		if err := json.Unmarshal(f.To, &e.To); err != nil {
			return e, err
		}
	}
	switch f.Type {
	case "deal":
		e.Seat, e.Target = f.Dealer, f.First
		if err := json.Unmarshal(f.Hands, &e.Counts); err != nil {
			return e, err
		}
	case "over":
		e.Seat, e.Cards = -1, f.Pile
		if f.Winner != nil {
			e.Seat = *f.Winner
		}
		if err := json.Unmarshal(f.Hands, &e.Hands); err != nil {
			return e, err
		}
	}
	return e, nil
}

func writeCommand(c engine.Command) []byte {
	m := map[string]any{"cmd": c.Move.String()}
	if c.Cards != nil {
		m["cards"] = c.Cards
	}
	if c.Claim != 0 {
		m["claim"] = c.Claim
	}
	if c.Rank.Valid() {
		m["rank"] = c.Rank
	}
	if c.No != 0 {
		m["no"] = c.No
	}
	j, _ := json.Marshal(m)
	return j
}

// The simulator races an exec: bot to call on the same clock as the
// built-in ones (issue 11, defect 8): the medium bot playing over the pipe
// plays the very games the built-in medium plays, head to head against
// it, where with think time 0 it answered first in every window.
func TestExecMediumIsMedium(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("EXTBOT_TEST_MEDIUM", "")
	var made []*Bot
	mk := func(name string, seat int, seed uint64) (bot.Player, error) {
		if name != "exec-medium" {
			return bot.New(name, seat, seed)
		}
		os.Setenv("EXTBOT_TEST_MEDIUM", strconv.Itoa(seat)+"/"+strconv.FormatUint(seed, 10))
		b, err := New(self, seat, DefaultTimeout)
		if b != nil {
			made = append(made, b)
		}
		return b, err
	}
	games := 24
	if s := os.Getenv("EXTBOT_TEST_H2H_GAMES"); s != "" {
		games, _ = strconv.Atoi(s)
	}
	r, _ := engine.Preset("standard")
	p := sim.Plan{Rules: r, Seats: 3, Pair: [2]string{"exec-medium", "medium"}, Seed: 11, Make: mk}
	rep := p.Report()
	differ := 0
	var run sim.Runner
	for i := range games {
		cfg := p.Game(i)
		got, err := run.Play(cfg)
		if err != nil {
			t.Fatal(err)
		}
		rep.Add(&got)
		for s := range cfg.Bots {
			cfg.Bots[s] = "medium"
			got.Seats[s].Bot = "medium"
		}
		cfg.Make = nil
		want, err := sim.Play(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			differ++
			if differ <= 3 {
				t.Errorf("game %d: exec-medium fared otherwise than medium:\n got %v\nwant %v", i, got, want)
			}
		}
	}
	for _, b := range made {
		if len(b.Fallbacks) != 0 {
			t.Errorf("exec-medium fell back: %v", b.Fallbacks)
		}
	}
	m, lo, hi := rep.PairScore()
	t.Logf("exec-medium vs medium, %d games: score %.1f%% (95%% interval %.1f–%.1f%%)", rep.PairN, 100*m, 100*lo, 100*hi)
	if differ > 0 {
		t.Errorf("%d of %d games went otherwise with exec-medium in medium's seats", differ, games)
	}
}
