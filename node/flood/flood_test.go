package flood

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/node"
)

// The host of TestRun is this test binary again, asked by HostEnv.
func TestMain(m *testing.M) {
	if os.Getenv(HostEnv) != "" {
		if err := ServeLines(context.Background(), os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// Every flood runs, briefly, against a table hosted in a process of its
// own (this test binary again): each is refused, and only for the right
// reason; no more spectators get a place than the table takes; and the
// measured players' game goes on through all of it, shout after shout.
// Timings and CPU are the bench's (`bullshit bench`), logged here, never
// asserted.
func TestRun(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cfg := Quick()
	h, err := Spawn(exec.Command(os.Args[0]), cfg.Seats())
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	res, err := Run(ctx, h, cfg)
	if errors.Is(err, ErrNoAddrs) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	checkResults(t, res)
}

// checkResults checks what Run measured, as TestRun wants it.
func checkResults(t *testing.T, res []Result) {
	t.Helper()
	if want := len(Kinds) + 2; len(res) != want {
		t.Fatalf("%d stretches, want %d (a calm one either side of each flood)", len(res), want)
	}
	if res[0].Kind != Calm || res[len(res)-1].Kind != Calm {
		t.Errorf("the first and last stretches are %s and %s, want calm", res[0].Kind, res[len(res)-1].Kind)
	}
	for i, r := range res {
		t.Logf("%-16s offered %6.0f/s sent %5d refused %5d held %2d host CPU %5.1f%% refused %5.0f/s verified %5.0f/s; shouts %3d p50 %v p99 %v; %v",
			r.Kind, r.Offered, r.Sent, r.Refused, r.Held, r.HostCPU, r.HostRefused, r.Verified,
			len(r.Shouts.Samples)/3, r.P(0.5).Round(time.Microsecond), r.P(0.99).Round(time.Microsecond), r.Outcome)
		if r.Shouts == nil || len(r.Shouts.Samples) == 0 {
			t.Errorf("%s: the measured players shouted not once", r.Kind)
		}
		if r.Kind == Calm {
			continue
		}
		if k := Kinds[i-1]; r.Kind != k.Name {
			t.Errorf("stretch %d is %s, want %s", i, r.Kind, k.Name)
		}
		if r.Err != nil {
			t.Errorf("%s: %v", r.Kind, r.Err)
		}
		// A connect flood opens and closes one connection at a time an
		// address, under the host's handshakes-an-address limit: it is
		// turned away only when it outruns that, which a slow machine
		// (or -race: 44 a second here) never does. What must hold for it
		// is what holds for all: the measured game goes on.
		if r.Sent == 0 || (r.Refused == 0 && r.Kind != "connect") {
			t.Errorf("%s: %d sent, %d refused rightly", r.Kind, r.Sent, r.Refused)
		}
		if len(r.Wrong) > 0 {
			t.Errorf("%s: refused for the wrong reason: %q", r.Kind, r.Wrong)
		}
		if r.Kind == "spectators" && r.Held > node.MaxWatchers {
			t.Errorf("spectators: %d were given a place at once, more than %d", r.Held, node.MaxWatchers)
		}
	}
}
