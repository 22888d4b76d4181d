package bench

import (
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine/bench"
)

// The bodies run to the end under bench.Run and report the play's size.
func TestBodies(t *testing.T) {
	for name, body := range map[string]func(bench.B){"seal": Seal, "open": Open} {
		r, err := bench.Run(time.Millisecond, body)
		if err != nil || r.N == 0 || r.Extra["wire-bytes"] < 100 {
			t.Errorf("%s: %v, %d iterations, %v", name, err, r.N, r.Extra)
		}
	}
}
