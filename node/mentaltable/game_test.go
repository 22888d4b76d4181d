package mentaltable

import (
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/enginetest"
	"github.com/bullshit-game/bullshit/protocol/mental"
)

// seeded is each party's randomness: a seeded ChaCha8 per party.
func seeded(seed uint64) func(int) io.Reader {
	return func(i int) io.Reader {
		var s [32]byte
		for k := range 8 {
			s[k] = byte(seed >> (8 * k))
		}
		s[8] = byte(i)
		return rand.NewChaCha8(s)
	}
}

func newDriver(tb testing.TB, r engine.Rules, seats int, seed uint64, holder []int) *Driver {
	tb.Helper()
	d, err := New(Config{Rules: r, Seats: seats, Seed: seed, Holder: holder, Rand: seeded(seed),
		Table: []byte("table 7f3a"), Game: fmt.Appendf(nil, "game %d", seed)})
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

// A watch is the test's own account of who may know what (R15), kept from
// the public record alone — the deal, the handles each event moved, the
// host's proven openings — beside the omniscient truth (every secret),
// against which each party's knowledge is held at every step.
type watch struct {
	t     *testing.T
	d     *Driver
	truth []mental.Face  // handle → face, from every secret
	seen  []map[int]bool // seat → handles it has seen
	deep  int            // check the cryptography every deep steps
	step  int
}

func newWatch(t *testing.T, d *Driver) *watch {
	w := &watch{t: t, d: d, deep: 7}
	secrets := make([]mental.Secret, len(d.Parties))
	for i, p := range d.Parties {
		secrets[i] = p.x
	}
	for h := range d.T.Deck {
		f, err := d.T.CB.Decrypt(&d.T.Deck[h], secrets)
		if err != nil {
			t.Fatal(err)
		}
		w.truth = append(w.truth, f)
	}
	for s := range d.T.Holder {
		w.seen = append(w.seen, map[int]bool{})
		for _, h := range d.B.Hand(s) {
			w.seen[s][int(h)] = true
		}
	}
	d.OnEvents = func(ev []engine.BlindEvent) {
		for _, e := range ev {
			switch e.Type {
			case engine.EventHanded:
				for _, h := range e.Handles {
					w.seen[e.Target][int(h)] = true
				}
			case engine.EventTake:
				for _, h := range e.Handles {
					w.seen[e.Seat][int(h)] = true
				}
			}
		}
	}
	return w
}

// check holds every party's knowledge, the host's and the spectator's
// against what their seats may see: exactly the cards of their seats'
// deals, hand-overs and piles taken, and those turned up for all; each
// with its true face. Every deep steps (and when deep is set) it also
// asks the cryptography: what each can decrypt from the shares it holds
// is exactly what it knows.
func (w *watch) check(deep bool) {
	w.t.Helper()
	w.step++
	deep = deep || w.step%w.deep == 0
	public := map[int]bool{}
	for _, o := range w.d.B.Shown() {
		public[int(o.Handle)] = true
	}
	for _, p := range w.d.Parties {
		if p.gone {
			continue
		}
		want := maps.Clone(public)
		for s, h := range w.d.T.Holder {
			if h == p.Index {
				maps.Copy(want, w.seen[s])
			}
		}
		w.holds(fmt.Sprintf("party %d (seats %v)", p.Index, p.seats), p.Known(), want)
		if deep {
			got, err := p.Decryptable()
			if err != nil {
				w.t.Fatal(err)
			}
			w.holds(fmt.Sprintf("party %d (seats %v), by its shares", p.Index, p.seats), got, want)
		}
	}
	for name, x := range map[string]*Watcher{"the host": w.d.Host, "the spectator": w.d.Spectator} {
		w.holds(name, x.Known(), public)
		if deep {
			w.holds(name+", by the shares it saw", x.Decryptable(), public)
		}
	}
}

func (w *watch) holds(who string, got map[engine.Handle]mental.Face, want map[int]bool) {
	w.t.Helper()
	for h, f := range got {
		if !want[int(h)] {
			w.t.Fatalf("action %d: %s knows card %d (%s), which its seats never saw", w.d.actions, who, h, f)
		}
		if f != w.truth[h] {
			w.t.Fatalf("action %d: %s thinks card %d is %s; it is %s", w.d.actions, who, h, f, w.truth[h])
		}
	}
	for h := range want {
		if _, ok := got[engine.Handle(h)]; !ok {
			w.t.Fatalf("action %d: %s doesn't know card %d (%s), which its seat saw", w.d.actions, who, h, w.truth[h])
		}
	}
}

// playAll plays d to its end under w, leaving (if leave >= 0) party leave
// for party succ after action at.
func (w *watch) playAll(leave, succ, at int) {
	w.t.Helper()
	d := w.d
	for !d.Over() {
		if d.actions > 20000 {
			w.t.Fatal("the game doesn't end")
		}
		if leave >= 0 && d.actions == at {
			if err := d.Leave(leave, succ); err != nil {
				w.t.Fatalf("leave: %v", err)
			}
			w.check(true)
		}
		if err := d.Step(); err != nil {
			w.t.Fatalf("action %d: %v", d.actions, err)
		}
		w.check(false)
	}
	w.check(true)
}

// mentalGames is how many whole games the default run plays (30, about
// 25 s on this machine); -short and the race detector play fewer (12, 6),
// MENTAL_GAMES=n any number.
func mentalGames() int {
	if s := os.Getenv("MENTAL_GAMES"); s != "" {
		if n, err := strconv.Atoi(s); err == nil {
			return n
		}
	}
	if raceEnabled {
		return 6
	}
	if testing.Short() {
		return 12
	}
	return 30
}

// TestMentalGame is the proof of issue 24: whole games at 2 to 10 seats,
// every preset and random rules keys, one and two decks, jokers where the
// rules have them, some with one party playing two seats, played by the
// bots over the real cryptography: keys with proofs, a shuffle by each
// party, the deal by handle, every play by handle, every verdict, quads
// and first card from a checked opening, every pile and hand-over sealed
// to its receiver. After every action each party knows exactly what its
// seats may see (R15) and each card's true face, the host and the
// spectator only what was turned up for all; every seventh action the
// shares each holds are asked the same. At the end every secret is
// published, the shuffles and the deck check, and the blind game revealed
// passes every seat's audit.
func TestMentalGame(t *testing.T) {
	games := mentalGames()
	rng := rand.New(rand.NewPCG(24, 25))
	kinds := append(append([]string{}, engine.Presets...), "random")
	decks, jokers, twoSeats := map[int]int{}, 0, 0
	stats := map[string]int{}
	played := 0
	for i := 0; played < games; i++ {
		kind := kinds[i%len(kinds)]
		m := map[string]any{"preset": kind}
		if kind == "random" {
			m = enginetest.RandomRules(rng)
		}
		// Jokers and quads in a third of the games each, over the preset.
		if rng.IntN(3) == 0 {
			m["jokers"] = 2.0
		}
		if rng.IntN(3) == 0 {
			m["quads"] = true
		}
		r, err := engine.ParseRules(m)
		if err != nil {
			continue
		}
		seats := 2 + played%9
		if r.Check(seats) != nil {
			continue
		}
		var holder []int
		if seats >= 3 && rng.IntN(4) == 0 {
			// One party plays two seats: the last two.
			for s := range seats {
				holder = append(holder, min(s, seats-2))
			}
			twoSeats++
		}
		seed := rng.Uint64()
		d := newDriver(t, r, seats, seed, holder)
		t.Run(fmt.Sprintf("%d/%s/%d seats/%d parties", played, kind, seats, len(d.Parties)), func(t *testing.T) {
			if err := d.Shuffle(); err != nil {
				t.Fatal(err)
			}
			if err := d.Deal(); err != nil {
				t.Fatal(err)
			}
			w := newWatch(t, d)
			w.check(true)
			w.playAll(-1, 0, 0)
			if _, _, err := d.Finish(); err != nil {
				t.Fatal(err)
			}
			for s := range d.Received {
				for _, e := range d.Received[s] {
					stats[string(e.Type)]++
				}
			}
		})
		decks[r.DecksFor(seats)]++
		if r.Jokers > 0 {
			jokers++
		}
		played++
	}
	t.Logf("%d games: decks %v, %d with jokers, %d with a party at two seats; events shown %v", played, decks, jokers, twoSeats, stats)
	if played < 12 {
		return // too few for every case to come up (the race detector's run)
	}
	if decks[1] == 0 || decks[2] == 0 || jokers == 0 || twoSeats == 0 {
		t.Errorf("the mix missed a case: decks %v, jokers %d, two seats %d", decks, jokers, twoSeats)
	}
	for _, want := range []string{"reveal", "take", "quads", "handed"} {
		if stats[want] == 0 {
			t.Errorf("no game had a %q", want)
		}
	}
}

// A party leaves for good mid-game: its secret is rebuilt from the
// others' sub-shares by its successor, which plays its seat on with a bot
// and learns what that seat saw, nothing else; the game goes on to the
// end, where the departed party's cards decrypt under the rebuilt secret
// and the audit passes.
func TestMentalLeave(t *testing.T) {
	for _, c := range underRace([]struct {
		preset            string
		seats, gone, succ int
		at                int
	}{{"standard", 4, 1, 3, 12}, {"doubt", 6, 0, 2, 20}, {"twist", 3, 2, 0, 5}}) {
		t.Run(fmt.Sprintf("%s/%d seats", c.preset, c.seats), func(t *testing.T) {
			r, _ := engine.Preset(c.preset)
			d := newDriver(t, r, c.seats, uint64(700+c.seats), nil)
			if err := d.Shuffle(); err != nil {
				t.Fatal(err)
			}
			if err := d.Deal(); err != nil {
				t.Fatal(err)
			}
			w := newWatch(t, d)
			w.playAll(c.gone, c.succ, c.at)
			if d.actions <= c.at {
				t.Fatalf("the game ended before party %d left", c.gone)
			}
			if len(d.Record) != 1 || !slices.Contains(d.Parties[c.succ].seats, c.gone) {
				t.Fatalf("record %q; successor plays %v", d.Record, d.Parties[c.succ].seats)
			}
			t.Log(d.Record[0])
			if _, _, err := d.Finish(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
