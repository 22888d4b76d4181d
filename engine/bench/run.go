package bench

// The runner: what testing.Benchmark does for a body that loops with
// b.Loop, without the testing package. It ramps the iterations the way
// testing's B.Loop does (1, then predicted from the time so far, at most
// 100 times the last, until the time asked for has run), so its figures
// are testing's.

import (
	"fmt"
	"maps"
	"runtime"
	"time"
)

// B is what a body needs of whoever runs it. *testing.B is a B.
type B interface {
	// Loop reports whether to run one more iteration; its first call
	// starts the clock afresh, so what comes before is set-up.
	Loop() bool
	StopTimer()
	StartTimer()
	Elapsed() time.Duration
	ReportAllocs()
	ReportMetric(n float64, unit string)
	Helper()
	Fatal(args ...any)
}

// Result is one run of a body.
type Result struct {
	N      int           // iterations
	T      time.Duration // time on the clock
	CPU    time.Duration // the process's CPU time (CPUTime) from the first Loop to the last
	Allocs uint64        // allocations on the clock
	Bytes  uint64        // bytes allocated on the clock
	Extra  map[string]float64
}

// NsPerOp is the time per iteration in nanoseconds (0 for none).
func (r Result) NsPerOp() float64 {
	if r.N == 0 {
		return 0
	}
	return float64(r.T.Nanoseconds()) / float64(r.N)
}

// AllocsPerOp is the allocations per iteration, rounded down as testing does.
func (r Result) AllocsPerOp() int64 {
	if r.N == 0 {
		return 0
	}
	return int64(r.Allocs) / int64(r.N)
}

// BytesPerOp is the bytes allocated per iteration, rounded down.
func (r Result) BytesPerOp() int64 {
	if r.N == 0 {
		return 0
	}
	return int64(r.Bytes) / int64(r.N)
}

// maxIters bounds the iterations of one run, as testing does.
const maxIters = 1_000_000_000

// Run runs body once, on its own goroutine, its loop ramped until it has
// run for d on the clock. A body's Fatal ends the run with its message as
// the error.
func Run(d time.Duration, body func(B)) (Result, error) {
	r := &runner{goal: d, extra: map[string]float64{}}
	runtime.GC()
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.StartTimer() // the clock runs from the start, as testing's does
		body(r)
	}()
	<-done
	if r.failed != nil {
		return Result{}, r.failed
	}
	if r.n == 0 {
		return Result{}, fmt.Errorf("bench: the body never called Loop")
	}
	return Result{N: r.n, T: r.elapsed, CPU: r.cpu, Allocs: r.allocs, Bytes: r.bytes, Extra: maps.Clone(r.extra)}, nil
}

// runner is the B of Run. Only the body's goroutine touches it until the
// body returns.
type runner struct {
	goal   time.Duration
	n, i   int // the iterations asked for so far, and run so far
	done   bool
	failed error

	on      bool
	start   time.Time
	elapsed time.Duration
	cpu0    time.Duration
	cpu     time.Duration
	mem     runtime.MemStats
	allocs0 uint64
	bytes0  uint64
	allocs  uint64
	bytes   uint64
	extra   map[string]float64
}

func (r *runner) Loop() bool {
	if r.done {
		return false
	}
	if r.i < r.n {
		r.i++
		return true
	}
	if !r.on {
		r.Fatal("bench: Loop called with the timer stopped")
	}
	if r.n == 0 { // the first call: what came before was set-up
		r.reset()
		r.cpu0 = CPUTime()
		r.n, r.i = 1, 1
		return true
	}
	if t := r.Elapsed(); t < r.goal && r.n < maxIters {
		r.n = predictN(r.goal.Nanoseconds(), int64(r.n), t.Nanoseconds())
		r.i++
		return true
	}
	r.StopTimer()
	r.cpu = CPUTime() - r.cpu0
	r.done = true
	return false
}

// predictN is testing's: the iterations that should fill goalns, plus a
// fifth, at most 100 times the last, at least one more.
func predictN(goalns, last, lastns int64) int {
	lastns = max(lastns, 1)
	n := goalns * last / lastns
	n += n / 5
	n = min(n, 100*last)
	n = max(n, last+1)
	return int(min(n, maxIters))
}

func (r *runner) reset() {
	if r.on {
		r.start = time.Now()
		runtime.ReadMemStats(&r.mem)
		r.allocs0, r.bytes0 = r.mem.Mallocs, r.mem.TotalAlloc
	}
	r.elapsed, r.allocs, r.bytes = 0, 0, 0
}

func (r *runner) StartTimer() {
	if r.on {
		return
	}
	runtime.ReadMemStats(&r.mem)
	r.allocs0, r.bytes0 = r.mem.Mallocs, r.mem.TotalAlloc
	r.start = time.Now()
	r.on = true
}

func (r *runner) StopTimer() {
	if !r.on {
		return
	}
	r.elapsed += time.Since(r.start)
	runtime.ReadMemStats(&r.mem)
	r.allocs += r.mem.Mallocs - r.allocs0
	r.bytes += r.mem.TotalAlloc - r.bytes0
	r.on = false
}

func (r *runner) Elapsed() time.Duration {
	if r.on {
		return r.elapsed + time.Since(r.start)
	}
	return r.elapsed
}

func (r *runner) ReportAllocs()                       {} // always counted
func (r *runner) ReportMetric(n float64, unit string) { r.extra[unit] = n }
func (r *runner) Helper()                             {}

// Fatal ends the body's goroutine, as testing's does.
func (r *runner) Fatal(args ...any) {
	r.failed = fmt.Errorf("bench: %s", fmt.Sprint(args...))
	runtime.Goexit()
}
