//go:build linux

package main

// A stranger's frame before any hello (issue 21, item 8): a signed 64 KiB
// State as the first frame of a fresh stream, whose Steps header claims a
// step for every byte left, from many addresses at once. The stranger is
// this test binary again (rogueEnv "first-state"), throwing node/flood's
// first-state flood from a namespace of its own.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/node/flood"
)

const (
	firstStateAddrs = 60
	firstStateFor   = 25 * time.Second
)

// runFirstState is the stranger: the first-state flood from the addresses
// lockoutFromEnv names, for firstStateFor, then its tally.
func runFirstState(say func(string, map[string]any)) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	at, from, err := strangerTargets(lockoutFromEnv)
	if err != nil {
		return err
	}
	a, err := flood.NewAttack(ctx, "first-state", at, "", from)
	if err != nil {
		return err
	}
	say("ready", nil)
	fctx, stop := context.WithTimeout(ctx, firstStateFor)
	defer stop()
	r := a.Throw(fctx)
	line := map[string]any{"kind": r.Kind, "sent": r.Sent, "refused": r.Refused, "held": r.Held,
		"wrong": r.Wrong, "outcome": r.Outcome, "seconds": r.Wall.Seconds()}
	if r.Err != nil {
		line["err"] = r.Err.Error()
	}
	say("flood", line)
	return nil
}

// vmRSS is a process's resident memory, in KiB (/proc/PID/status).
func vmRSS(pid int) (int, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			return strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
		}
	}
	return 0, fmt.Errorf("no VmRSS in /proc/%d/status", pid)
}

// peakRSS samples a process's resident memory every 100 ms until stop is
// closed, and sends the most it saw.
func peakRSS(pid int, stop <-chan struct{}) <-chan int {
	out := make(chan int, 1)
	go func() {
		most := 0
		for {
			if n, err := vmRSS(pid); err == nil {
				most = max(most, n)
			}
			select {
			case <-stop:
				out <- most
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
	return out
}

// TestE2EFirstFrameState is issue 21's item 8 against the real binary: a
// host waiting for its player, and a stranger on another machine with 60
// addresses, two identities each, each opening the game's stream again and
// again and sending a signed 64 KiB State, for the table's term, before
// any hello. Each is refused ("Say hello first.") from its header, its
// body never decoded; the host's resident memory grows by less than
// 64 MiB over the flood (27b96cd decoded each into 10 MiB of steps: 31 →
// 313 MiB over 4,562 frames in the issue; this test's flood, before the
// fix, took it from about 30 to hundreds of MiB), and the player then
// joins and the game ends verified.
//
// It runs alone (no t.Parallel): beside the parallel tests, under a shared
// machine's load, its player once lost the host as the game ended.
func TestE2EFirstFrameState(t *testing.T) {
	l := newLAN(t, 3, false)
	from := strangerAddrs(firstStateAddrs)
	l.addAddrs(3, from)
	dir := t.TempDir()
	name := "first-" + l.prefix[len(l.prefix)-5:]
	host, table := l.startHost(dir, name, 1, 1, "--wait", "3m")
	rogue := l.startRogue(3, "stranger", rogueEnv+"=first-state", rogueAddrEnv+"="+hostAddr(t, table),
		lockoutFromEnv+"="+strings.Join(from, ","))
	rogue.waitFor(60*time.Second, "the stranger's nodes", isType("ready"))
	pid := host.cmd.Process.Pid
	before, err := vmRSS(pid)
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	peak := peakRSS(pid, stop)
	f := floodOf(t, rogue, "first-state", firstStateAddrs)
	close(stop)
	most := <-peak
	after, _ := vmRSS(pid)
	t.Logf("FIGURE first-state: host VmRSS %d KiB before, %d KiB at most during, %d KiB after %d frames",
		before, most, after, f.sent)
	if f.refused < 1000 {
		t.Errorf("only %d of %d first frames refused: the flood did not reach the host (%v)", f.refused, f.sent, f.outcome)
	}
	if grew := most - before; grew > 64<<10 {
		t.Errorf("the host's resident memory grew by %d MiB over %d first frames (from %d MiB): a frame before a hello is decoded",
			grew>>10, f.sent, before>>10)
	}
	join := l.start(2, "join", joinArgs(filepath.Join(dir, "2"), name)...)
	finishGame(t, 3, 1, []*proc{host, join}, 2*time.Minute)
}
