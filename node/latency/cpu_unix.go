//go:build unix

package latency

import (
	"syscall"
	"time"

	"github.com/bullshit-game/bullshit/engine/bench"
)

// processCPU is this process's CPU time so far, user and system, to the
// microsecond: a host's CPU per shout is a millisecond or two, and the
// clock ticks of /proc (bench.CPUTime's, 10 ms) would blur a stretch of a
// few hundred of them.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return bench.CPUTime()
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
