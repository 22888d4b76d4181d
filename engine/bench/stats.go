package bench

import (
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Percentile is the q-quantile (0 ≤ q ≤ 1) of samples by the nearest-rank
// method; 0 for no samples. The caller's slice is left as it was.
func Percentile(samples []time.Duration, q float64) time.Duration {
	if len(samples) == 0 {
		return 0
	}
	s := slices.Clone(samples)
	slices.Sort(s)
	q = min(max(q, 0), 1)
	i := int(math.Ceil(q*float64(len(s)))) - 1
	return s[min(max(i, 0), len(s)-1)]
}

// CPUTime is this process's user and system CPU time so far, from
// /proc/self/stat (0 where there is none).
func CPUTime() time.Duration {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0
	}
	s := string(b)
	// The command name may hold spaces: fields count from after its ')'.
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return 0
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0
	}
	const hz = 100 // USER_HZ, the same on every Linux
	return time.Duration(ut+st) * time.Second / hz
}
