package journal

import (
	"bytes"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine"
)

// fairGame plays a random legal game to its end: random cards, claims,
// calls, let-gos and time jumps that let windows run out. It returns the
// live game, its steps and every event as the live game announced it
// (batch 0 the deal).
func fairGame(tb testing.TB, cfg engine.Config, rng *rand.Rand) (*engine.Game, []engine.Step, [][]engine.Event) {
	tb.Helper()
	g, deal, err := engine.New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	batches := [][]engine.Event{deal}
	var steps []engine.Step
	var now time.Duration
	for tries := 0; !g.Over() && tries < 50000; tries++ {
		now += time.Duration(rng.IntN(1500)) * time.Millisecond
		events := g.Tick(now)
		var cmd *engine.Command
		for k := 0; k < 8 && cmd == nil; k++ {
			c := fairMove(g, rng)
			if more, err := g.Apply(now, c); err == nil {
				cmd = &c
				events = append(events, more...)
			}
		}
		if cmd == nil && len(events) == 0 {
			continue
		}
		steps = append(steps, engine.Step{At: now, Cmd: cmd})
		batches = append(batches, events)
	}
	if !g.Over() {
		tb.Fatal("a random game did not end")
	}
	return g, steps, batches
}

func fairMove(g *engine.Game, rng *rand.Rand) engine.Command {
	r := g.Rules()
	pub := g.View(-1)
	switch {
	case g.Phase() == engine.PhaseCall:
		w := pub.Window
		if w == nil || len(w.Callers) == 0 {
			return engine.Command{}
		}
		s := w.Callers[rng.IntN(len(w.Callers))]
		if rng.IntN(3) == 0 {
			return engine.Command{Move: engine.MoveCall, Seat: s, No: w.No, Rank: engine.NoRank}
		}
		return engine.Command{Move: engine.MovePass, Seat: s, No: w.No, Rank: engine.NoRank}
	case g.Phase() == engine.PhaseGive && pub.Give != nil:
		hand := g.View(pub.Give.From).Hand
		return engine.Command{Move: engine.MoveGive, Seat: pub.Give.From, Cards: []engine.Card{hand[rng.IntN(len(hand))]}, Rank: engine.NoRank}
	}
	s := g.Turn()
	v := g.View(s)
	if r.Doubt && v.Round != nil && v.No > 0 && rng.IntN(2) == 0 {
		return engine.Command{Move: []engine.Move{engine.MoveDoubt, engine.MoveBelieve, engine.MoveSkip}[rng.IntN(3)], Seat: s, Rank: engine.NoRank}
	}
	hand := v.Hand
	if len(hand) == 0 {
		return engine.Command{}
	}
	k := 1 + rng.IntN(min(v.Cap, len(hand)))
	claim := 0
	if r.Sneak > 0 && rng.IntN(3) == 0 && len(hand) > k {
		claim = k
		k += 1 + rng.IntN(min(r.Sneak, len(hand)-k))
	}
	cards := make([]engine.Card, k)
	for i, j := range rng.Perm(len(hand))[:k] {
		cards[i] = hand[j]
	}
	rank := v.Rank
	switch {
	case len(v.Ranks) > 0:
		rank = v.Ranks[rng.IntN(len(v.Ranks))]
	case rank == engine.NoRank:
		rank = engine.Rank(rng.IntN(engine.NumRanks))
	}
	return engine.Command{Move: engine.MovePlay, Seat: s, Cards: cards, Claim: claim, Rank: rank}
}

func fairConfig(preset string, seats int, seed uint64) engine.Config {
	r, _ := engine.Preset(preset)
	return engine.Config{Rules: r, Seats: seats, Seed: seed}
}

func testHeader(cfg engine.Config) JournalHeader {
	h := JournalHeader{Table: "a1b2c3", Name: "Kitchen", Config: cfg, Started: time.Date(2026, 5, 1, 20, 0, 0, 0, time.UTC)}
	for i := range cfg.Seats {
		h.Seats = append(h.Seats, "seat"+string(rune('A'+i)))
	}
	h.Salt[0], h.Salt[31] = 0xaa, 0x55
	return h
}

// writeJournal journals every step and returns the file's size after the
// header and after each step: the record boundaries.
func writeJournal(t testing.TB, path string, h JournalHeader, steps []engine.Step) []int64 {
	t.Helper()
	j, err := CreateJournal(path, h)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	ends := []int64{fileSize(t, path)}
	for _, s := range steps {
		if err := j.Append(s); err != nil {
			t.Fatal(err)
		}
		ends = append(ends, fileSize(t, path))
	}
	return ends
}

func fileSize(t testing.TB, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// A journaled game resumes to exactly the state the host had, under every
// preset; the header comes back as it went in.
func TestJournalResumesTheGame(t *testing.T) {
	for i, preset := range engine.Presets {
		cfg := fairConfig(preset, 3+i%3, uint64(100+i))
		if preset == "cheat" {
			first := 1
			cfg.First = &first
		}
		g, steps, _ := fairGame(t, cfg, rand.New(rand.NewPCG(uint64(i), 1)))
		path := filepath.Join(t.TempDir(), "table.journal")
		h := testHeader(cfg)
		writeJournal(t, path, h, steps)

		j, back, hb, got, err := Resume(path)
		if err != nil {
			t.Fatalf("%s: %v", preset, err)
		}
		if j.Cut() != 0 || j.Len() != len(steps) {
			t.Errorf("%s: cut %d, %d steps of %d", preset, j.Cut(), j.Len(), len(steps))
		}
		j.Close()
		if !reflect.DeepEqual(hb, h) {
			t.Errorf("%s: header\n got %+v\nwant %+v", preset, hb, h)
		}
		if !reflect.DeepEqual(got, steps) {
			t.Errorf("%s: the steps came back different", preset)
		}
		if !reflect.DeepEqual(back.State(), g.State()) {
			t.Errorf("%s: the resumed game's state differs from the host's", preset)
		}
		if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
			t.Errorf("%s: the journal holds the seed but is %v", preset, info.Mode().Perm())
		}
	}
}

// A journal cut anywhere inside a record (a crash mid-append), or with a
// byte changed in one, opens with exactly the whole records before it; the
// file is cut back to them, and appending after the repair works.
func TestJournalTornTail(t *testing.T) {
	cfg := fairConfig("standard", 4, 7)
	_, steps, _ := fairGame(t, cfg, rand.New(rand.NewPCG(7, 7)))
	steps = steps[:40]
	dir := t.TempDir()
	orig := filepath.Join(dir, "orig.journal")
	h := testHeader(cfg)
	ends := writeJournal(t, orig, h, steps)
	data, err := os.ReadFile(orig)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "t.journal")

	// reopen writes damaged to the file and checks it opens with the
	// first keep steps, cut back to their end.
	reopen := func(what string, damaged []byte, keep int) *Journal {
		t.Helper()
		if err := os.WriteFile(path, damaged, 0o600); err != nil {
			t.Fatal(err)
		}
		j, hb, got, err := OpenJournal(path)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if !reflect.DeepEqual(hb, h) || !reflect.DeepEqual(got, steps[:keep]) && !(keep == 0 && got == nil) {
			t.Fatalf("%s: %d steps back, want the first %d", what, len(got), keep)
		}
		if size := fileSize(t, path); size != ends[keep] {
			t.Fatalf("%s: file is %d bytes, want %d", what, size, ends[keep])
		}
		if j.Cut() != int64(len(damaged))-ends[keep] {
			t.Fatalf("%s: Cut %d, want %d", what, j.Cut(), int64(len(damaged))-ends[keep])
		}
		return j
	}
	last := len(steps) - 1
	for off := ends[last]; off < ends[last+1]; off++ {
		reopen("cut in the last step", data[:off], last).Close()
	}
	const mid = 17
	for off := ends[mid]; off < ends[mid+1]; off++ {
		reopen("cut in a middle step", data[:off], mid).Close()
		for _, flip := range []byte{0x01, 0x80, 0xff} {
			bad := slices.Clone(data)
			bad[off] ^= flip
			reopen("a byte changed", bad, mid).Close()
		}
	}
	// A crash that left the file longer, full of zeros.
	reopen("zeros", append(slices.Clone(data), make([]byte, 4096)...), len(steps)).Close()

	// Appending after a repair: the journal goes on from the cut.
	j := reopen("cut before appending", data[:ends[mid]+3], mid)
	for _, s := range steps[mid:] {
		if err := j.Append(s); err != nil {
			t.Fatal(err)
		}
	}
	j.Close()
	if j, _, got, err := OpenJournal(path); err != nil || !reflect.DeepEqual(got, steps) || j.Cut() != 0 {
		t.Fatalf("after appending: %d steps, %v", len(got), err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, data) {
		t.Fatal("the repaired and re-appended journal is not the original byte for byte")
	}
}

// Damage that a crash can't explain is an error, never a guess: a damaged
// header, a file that isn't a journal, a whole record that isn't a step.
func TestJournalRefusesDamage(t *testing.T) {
	cfg := fairConfig("standard", 3, 1)
	dir := t.TempDir()
	orig := filepath.Join(dir, "orig.journal")
	ends := writeJournal(t, orig, testHeader(cfg), nil)
	data, _ := os.ReadFile(orig)
	path := filepath.Join(dir, "bad.journal")
	for _, c := range []struct {
		name string
		data []byte
		want error
	}{
		{"empty", nil, ErrNotJournal},
		{"another file", []byte("hello, world\n"), ErrNotJournal},
		{"header cut", data[:ends[0]-1], ErrJournalHeader},
		{"header changed", func() []byte { b := slices.Clone(data); b[len(journalMagic)+9] ^= 1; return b }(), ErrJournalHeader},
		{"header not JSON", appendRecord([]byte(journalMagic), []byte("{")), ErrJournalHeader},
		{"step not JSON", appendRecord(slices.Clone(data), []byte(`{"at":"soon"}`)), nil},
	} {
		os.WriteFile(path, c.data, 0o600)
		before := fileSize(t, path)
		_, _, _, err := OpenJournal(path)
		var je *JournalError
		if err == nil || !errors.As(err, &je) || c.want != nil && !errors.Is(err, c.want) {
			t.Errorf("%s: %v", c.name, err)
		}
		if fileSize(t, path) != before {
			t.Errorf("%s: the file was changed", c.name)
		}
	}
	if _, _, _, err := OpenJournal(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	if _, err := CreateJournal(orig, testHeader(cfg)); !errors.Is(err, fs.ErrExist) {
		t.Errorf("CreateJournal overwrote a journal: %v", err)
	}
	j, _, _, err := OpenJournal(orig)
	if err != nil {
		t.Fatal(err)
	}
	j.Close()
	if err := j.Append(engine.Step{}); !errors.Is(err, ErrJournalClosed) {
		t.Errorf("append after close: %v", err)
	}
	if err := j.Close(); !errors.Is(err, ErrJournalClosed) {
		t.Errorf("second close: %v", err)
	}
}

// A journal whose steps the engine refuses doesn't resume.
func TestJournalResumeRefusedStep(t *testing.T) {
	cfg := fairConfig("standard", 3, 2)
	path := filepath.Join(t.TempDir(), "t.journal")
	bad := engine.Step{At: time.Second, Cmd: &engine.Command{Move: engine.MoveCall, Seat: 0, No: 9, Rank: engine.NoRank}}
	writeJournal(t, path, testHeader(cfg), []engine.Step{bad})
	_, _, _, _, err := Resume(path)
	var re *engine.ReplayError
	if !errors.As(err, &re) || re.Step != 0 {
		t.Fatalf("got %v", err)
	}
}

// BenchmarkJournalAppend is the host's cost per accepted command: one
// record written and fsynced.
func BenchmarkJournalAppend(b *testing.B) {
	cfg := fairConfig("standard", 4, 3)
	_, steps, _ := fairGame(b, cfg, rand.New(rand.NewPCG(3, 3)))
	j, err := CreateJournal(filepath.Join(b.TempDir(), "bench.journal"), testHeader(cfg))
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := j.Append(steps[i%len(steps)]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/step")
}

// Whatever bytes a journal file holds, opening it never panics; when it
// opens, the repair is done once: opening again cuts nothing and reads the
// same.
func FuzzJournal(f *testing.F) {
	cfg := fairConfig("twist", 3, 5)
	_, steps, _ := fairGame(f, cfg, rand.New(rand.NewPCG(5, 5)))
	dir := f.TempDir()
	seed := filepath.Join(dir, "seed.journal")
	writeJournal(f, seed, testHeader(cfg), steps[:6])
	data, _ := os.ReadFile(seed)
	f.Add(data)
	f.Add(data[:len(data)-5])
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "f.journal")
		os.WriteFile(path, data, 0o600)
		j, h, steps, err := OpenJournal(path)
		if err != nil {
			return
		}
		j.Close()
		j2, h2, steps2, err := OpenJournal(path)
		if err != nil || j2.Cut() != 0 || !reflect.DeepEqual(h2, h) || !reflect.DeepEqual(steps2, steps) {
			t.Fatalf("a repaired journal read differently the second time: %v", err)
		}
		j2.Close()
	})
}
