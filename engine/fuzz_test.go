package engine_test

import (
	"encoding/binary"
	"math/rand/v2"
	"reflect"
	"runtime/debug"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/enginetest"
)

// fuzzGame decodes fuzz bytes into a table and a sequence of actions:
//
//	seats, kind, seed (8 bytes), then actions of an op byte and its fields.
//
// Ops 0–8 are a command with every field from the bytes (move op, seat,
// cards as indexes into the seat's hand or raw values, claim, rank, no);
// 9 is a tick; 10–15 let the random driver pick a move, so the fuzzer
// reaches deep positions as well as odd ones.
type fuzzGame struct {
	data []byte
	g    *engine.Game
	d    *driver
}

func (f *fuzzGame) next() int {
	if len(f.data) == 0 {
		return 0
	}
	b := f.data[0]
	f.data = f.data[1:]
	return int(b)
}

func newFuzzGame(data []byte) (*fuzzGame, bool) {
	f := &fuzzGame{data: data}
	seats := 2 + f.next()%9
	kind := kinds[f.next()%len(kinds)]
	var seed [8]byte
	for i := range seed {
		seed[i] = byte(f.next())
	}
	s := binary.LittleEndian.Uint64(seed[:])
	r, ok := enginetest.Rules(kind, rand.New(rand.NewPCG(s, 1)))
	if !ok {
		return nil, false
	}
	g, _, err := engine.New(engine.Config{Rules: r, Seats: seats, Seed: s})
	if err != nil {
		return nil, false
	}
	f.g = g
	f.d = &driver{rng: rand.New(rand.NewPCG(s, 2)), g: g, junk: 0}
	return f, true
}

func (f *fuzzGame) action() action {
	g := f.g
	op := f.next() % 16
	switch {
	case op == 9:
		f.d.now += time.Duration(f.next()) * 100 * time.Millisecond
		return action{Tick: true, At: f.d.now}
	case op >= 10:
		return f.d.next()
	}
	c := engine.Command{Move: engine.Move(op), Seat: int(int8(f.next())) % (g.Seats() + 2)}
	n := f.next() % 7
	for i := 0; i < n; i++ {
		b := f.next()
		if c.Seat >= 0 && c.Seat < g.Seats() && b < 200 && g.HandSize(c.Seat) > 0 {
			h := g.Hand(c.Seat)
			c.Cards = append(c.Cards, h[b%len(h)])
		} else {
			c.Cards = append(c.Cards, engine.Card(b))
		}
	}
	c.Claim = int(int8(f.next())) % 10
	c.Rank = engine.Rank(int8(f.next()) % 16)
	c.No = g.Plays() + int(int8(f.next()))%3
	return action{At: f.d.now, Cmd: c}
}

// FuzzCommands feeds arbitrary command sequences to a game: no panic,
// cards conserved (R17) after every one, a refused command changes nothing,
// and the invariants of TestProperties hold.
func FuzzCommands(f *testing.F) {
	f.Add([]byte{2, 0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 10, 10, 10, 9, 60, 10, 10})
	f.Add([]byte{5, 2, 9, 9, 9, 9, 9, 9, 9, 9, 1, 0, 2, 0, 1, 0, 0, 0, 2, 1, 0, 0, 0, 1, 10, 11, 12, 13, 14, 15})
	f.Add([]byte{8, 3, 1, 1, 1, 1, 1, 1, 1, 1, 10, 10, 6, 1, 0, 0, 0, 0, 7, 2, 0, 0, 0, 0, 8, 0, 0, 0, 0, 0})
	f.Add([]byte{3, 5, 42, 0, 0, 0, 0, 0, 0, 0, 12, 12, 12, 12, 12, 12, 12, 12, 9, 255, 12, 12, 12, 12})
	f.Add([]byte{10, 1, 7, 7, 7, 7, 7, 7, 7, 7, 1, 255, 6, 250, 251, 252, 253, 254, 255, 200, 14, 3})
	// Every step clones the game: collect less often.
	defer debug.SetGCPercent(debug.SetGCPercent(800))
	f.Fuzz(func(t *testing.T, data []byte) {
		fg, ok := newFuzzGame(data)
		if !ok {
			return
		}
		g := fg.g
		for steps := 0; len(fg.data) > 0 && steps < 400; steps++ {
			a := fg.action()
			before := g.Clone()
			ev, err := apply(g, a)
			if err != nil {
				if engine.CodeOf(err) == "" || ev != nil {
					t.Fatalf("%v: %v with events %v", a, err, ev)
				}
				if !reflect.DeepEqual(before, g.Clone()) {
					t.Fatalf("%v refused (%v) but changed the game", a, err)
				}
			}
			if msg := invariants(g); msg != "" {
				t.Fatalf("%v: %s", a, msg)
			}
			if g.Over() {
				if msg := ended(g); msg != "" {
					t.Fatalf("%v: %s", a, msg)
				}
			}
		}
	})
}
