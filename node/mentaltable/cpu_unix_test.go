//go:build unix

package mentaltable

import (
	"syscall"
	"testing"
	"time"
)

// cpuClock starts counting the process's CPU time (user and system, every
// thread, the GC's included); the function it returns reports it per
// operation and party as cpu-ms/party. On a shared, loaded machine this moves much
// less than ns/op, which counts the wall clock.
func cpuClock(b *testing.B, parties int) func() {
	start := cpuNow()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64(cpuNow()-start)/float64(time.Millisecond)/float64(b.N)/float64(parties), "cpu-ms/party")
		}
	}
}

func cpuNow() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
