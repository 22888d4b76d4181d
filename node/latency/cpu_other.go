//go:build !unix

package latency

import (
	"time"

	"github.com/bullshit-game/bullshit/engine/bench"
)

// processCPU is this process's CPU time so far, as bench counts it.
func processCPU() time.Duration { return bench.CPUTime() }
