package bench

import (
	"strings"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine"
)

// *testing.B runs the same bodies as Run.
var _ B = (*testing.B)(nil)

var sink *[64]byte

// Run counts the iterations the body ran, the allocations on the clock
// only, and passes the body's metrics on.
func TestRun_Counts(t *testing.T) {
	loops := 0
	r, err := Run(time.Millisecond, func(b B) {
		for range 10 {
			sink = new([64]byte) // set-up: before the first Loop
		}
		for b.Loop() {
			loops++
			sink = new([64]byte)
			b.StopTimer()
			for range 100 {
				sink = new([64]byte) // off the clock
			}
			b.StartTimer()
		}
		b.ReportMetric(42, "things/op")
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.N != loops || r.N < 1 {
		t.Errorf("N = %d, the body looped %d times", r.N, loops)
	}
	// One allocation an iteration on the clock; the 100 off it, had they
	// counted, would pass the bound (the runtime's own allocations are a
	// few).
	if n := uint64(r.N); r.Allocs < n || r.Allocs >= 50*(n+1) {
		t.Errorf("%d allocations over %d iterations, want one each", r.Allocs, r.N)
	}
	if r.BytesPerOp() < 64 {
		t.Errorf("%d B/op, want at least 64", r.BytesPerOp())
	}
	if r.T <= 0 || r.NsPerOp() <= 0 {
		t.Errorf("T %v, %v ns/op", r.T, r.NsPerOp())
	}
	if r.Extra["things/op"] != 42 {
		t.Errorf("extra %v", r.Extra)
	}
}

// A body's Fatal ends the run with its message; a body that never loops
// is an error too.
func TestRun_Errors(t *testing.T) {
	after := false
	_, err := Run(time.Millisecond, func(b B) {
		for b.Loop() {
			b.Fatal("card lost")
		}
		after = true
	})
	if err == nil || !strings.Contains(err.Error(), "card lost") || after {
		t.Errorf("Fatal: %v, body went on: %v", err, after)
	}
	if _, err := Run(time.Millisecond, func(B) {}); err == nil {
		t.Error("a body without Loop gave a result")
	}
	_, err = Run(time.Millisecond, func(b B) {
		b.StopTimer()
		for b.Loop() {
		}
	})
	if err == nil {
		t.Error("Loop with the timer stopped went on")
	}
}

// The ramp is testing's: towards the goal plus a fifth, never more than
// 100 times the last, always at least one more, never past the cap.
func TestPredictN(t *testing.T) {
	cases := []struct {
		goal, last, lastns int64
		want               int
	}{
		{1000, 1, 0, 100},          // no time yet: capped at 100 × 1
		{1000, 10, 100, 120},       // 100 → 1000 ns is × 10, plus a fifth
		{1000, 10, 10_000, 11},     // already past: one more
		{1e11, 2e7, 1e5, maxIters}, // the cap
	}
	for _, c := range cases {
		if got := predictN(c.goal, c.last, c.lastns); got != c.want {
			t.Errorf("predictN(%d, %d, %d) = %d, want %d", c.goal, c.last, c.lastns, got, c.want)
		}
	}
}

func TestPercentile(t *testing.T) {
	ms := func(ns ...int) []time.Duration {
		var d []time.Duration
		for _, n := range ns {
			d = append(d, time.Duration(n)*time.Millisecond)
		}
		return d
	}
	cases := []struct {
		s    []time.Duration
		q    float64
		want time.Duration
	}{
		{nil, 0.5, 0},
		{ms(7), 0.99, 7 * time.Millisecond},
		{ms(5, 1, 4, 2, 3), 0.5, 3 * time.Millisecond},
		{ms(5, 1, 4, 2, 3), 0, 1 * time.Millisecond},
		{ms(5, 1, 4, 2, 3), 1, 5 * time.Millisecond},
		{ms(5, 1, 4, 2, 3), 2, 5 * time.Millisecond},
		{ms(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), 0.9, 9 * time.Millisecond},
	}
	for _, c := range cases {
		if got := Percentile(c.s, c.q); got != c.want {
			t.Errorf("Percentile(%v, %v) = %v, want %v", c.s, c.q, got, c.want)
		}
	}
	s := ms(3, 1, 2)
	Percentile(s, 0.5)
	if s[0] != 3*time.Millisecond {
		t.Error("Percentile sorted the caller's slice")
	}
}

// The engine's and the simulator's bodies run to the end under Run.
func TestBodies(t *testing.T) {
	for name, body := range map[string]func(B){
		"play": Play, "call": Call, "view": View, "view into": ViewInto, "game": Game,
		"sim": func(b B) { Sim(b, engine.Standard(), 4, "medium") },
	} {
		r, err := Run(time.Millisecond, body)
		if err != nil || r.N == 0 {
			t.Errorf("%s: %v, %d iterations", name, err, r.N)
		}
	}
}
