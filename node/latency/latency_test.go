package latency

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/bullshit-game/bullshit/engine/bench"
)

// The host of ShoutSpawned's tests is this test binary again, asked by
// HostEnv.
func TestMain(m *testing.M) {
	if os.Getenv(HostEnv) != "" {
		if err := ServeHost(context.Background(), os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// Shout to verdict (shout.go) beside the bare signed echo, measured in the
// same run so both see the same machine. One op is one shout; ns/op is a
// whole round (the play, the shout, the reveal pause), not the latency:
// read p50_ms and p99_ms. Issue 5's goal: p99 ≤ 2 × the echo's p99.
//
// At a blind table (Blind) the shout has one more leg, host → the
// player's node → host, so its floor is two signed echo round trips
// (floor_p99_ms, 2 × the echo's p99); issue 25's goal is p99 ≤ 2 × that
// floor: x_floor, the p99 over the floor, at most 2.
//
//	go test ./node/latency -run XXX -bench ShoutToVerdict -benchtime 300x -count 5
func BenchmarkShoutToVerdict4(b *testing.B)       { benchShout(b, 4) }
func BenchmarkShoutToVerdict10(b *testing.B)      { benchShout(b, 10) }
func BenchmarkShoutToVerdictBlind4(b *testing.B)  { benchShout(b, 4, Blind()) }
func BenchmarkShoutToVerdictBlind10(b *testing.B) { benchShout(b, 10, Blind()) }

func benchShout(b *testing.B, seats int, opts ...Option) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	echo, err := Echo(ctx, 1000)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	res, err := Shout(ctx, seats, b.N, opts...)
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	p99, echo99 := msOf(bench.Percentile(res.Samples, 0.99)), msOf(bench.Percentile(echo, 0.99))
	b.ReportMetric(msOf(bench.Percentile(res.Samples, 0.5)), "p50_ms")
	b.ReportMetric(p99, "p99_ms")
	b.ReportMetric(msOf(bench.Percentile(res.Last, 0.99)), "all_p99_ms")
	b.ReportMetric(msOf(bench.Percentile(echo, 0.5)), "echo_p50_ms")
	b.ReportMetric(echo99, "echo_p99_ms")
	if res.Blind {
		b.ReportMetric(2*echo99, "floor_p99_ms")
		b.ReportMetric(p99/(2*echo99), "x_floor")
	}
}

func msOf(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

// A measurement runs to the end and gives a sample per player per shout.
func TestShout(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := Shout(ctx, 4, 20)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Samples) != 3*20 || len(res.Last) != 20 {
		t.Fatalf("%d samples and %d rounds, want 60 and 20", len(res.Samples), len(res.Last))
	}
	for _, d := range res.Samples {
		if d <= 0 {
			t.Fatalf("sample %v", d)
		}
	}
	t.Logf("shout to verdict at 4 seats: p50 %v, p99 %v (%d games, %d left out)",
		bench.Percentile(res.Samples, 0.5), bench.Percentile(res.Samples, 0.99), res.Games, res.Left)
}

// At a blind table too (issue 25): every shout's cards are turned up by
// the node of the player who played, and every player has the reveal, at
// a game dealt blind (Shout fails on a reveal at a game dealt in the
// clear); the bracket brackets the shouts alone, a stretch a game.
func TestShout_Blind(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	begun, ended := 0, 0
	res, err := Shout(ctx, 4, 20, Blind(), WithBracket(func(begin bool) {
		if begin {
			begun++
		} else {
			ended++
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Blind {
		t.Fatal("the result doesn't say blind")
	}
	if len(res.Samples) != 3*20 || len(res.Last) != 20 {
		t.Fatalf("%d samples and %d rounds, want 60 and 20", len(res.Samples), len(res.Last))
	}
	for _, d := range res.Samples {
		if d <= 0 {
			t.Fatalf("sample %v", d)
		}
	}
	if begun != ended || begun != res.Games {
		t.Fatalf("the bracket began %d times and ended %d times over %d games", begun, ended, res.Games)
	}
	t.Logf("blind shout to verdict at 4 seats: p50 %v, p99 %v (%d games, %d left out)",
		bench.Percentile(res.Samples, 0.5), bench.Percentile(res.Samples, 0.99), res.Games, res.Left)
}

// With the host in a process of its own (this test binary again), clear
// and blind: every reveal arrives, and the host's CPU over the shouts is
// read (how much is the bench's, not the test's).
func TestShoutSpawned(t *testing.T) {
	for _, blind := range []bool{false, true} {
		t.Run(fmt.Sprintf("blind=%v", blind), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			var opts []Option
			if blind {
				opts = append(opts, Blind())
			}
			res, err := ShoutSpawned(ctx, exec.Command(os.Args[0]), 3, 10, opts...)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Samples) != 2*10 || len(res.Last) != 10 || res.Blind != blind {
				t.Fatalf("%d samples and %d rounds, blind %v: want 20 and 10, %v", len(res.Samples), len(res.Last), res.Blind, blind)
			}
			if res.HostCPU <= 0 {
				t.Fatalf("the host's CPU over the shouts is %v", res.HostCPU)
			}
			t.Logf("host CPU %v over %d shouts", res.HostCPU, len(res.Last)+res.Left)
		})
	}
}

// Out-of-range tables and rounds are errors, not hangs.
func TestShout_BadArgs(t *testing.T) {
	for _, c := range []struct{ seats, rounds int }{{1, 5}, {11, 5}, {4, 0}} {
		if _, err := Shout(context.Background(), c.seats, c.rounds); err == nil {
			t.Errorf("Shout(%d seats, %d rounds) ran", c.seats, c.rounds)
		}
	}
	if _, err := Shout(context.Background(), 2, 5, Blind()); err == nil {
		t.Error("Shout(2 seats, blind) ran: a blind table needs two player nodes")
	}
	if _, err := ShoutSpawned(context.Background(), exec.Command(os.Args[0]), 11, 5); err == nil {
		t.Error("ShoutSpawned(11 seats) ran")
	}
	if _, err := Seat(context.Background(), peer.AddrInfo{}, 0); err == nil {
		t.Error("Seat(0 players) ran")
	}
	if _, err := (&Players{}).Shouts(context.Background(), 0, 0); err == nil {
		t.Error("Shouts with no bound ran")
	}
}

func TestEcho(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := Echo(ctx, 50)
	if err != nil {
		t.Fatal(err)
	}
	if len(s) != 50 {
		t.Fatalf("%d samples, want 50", len(s))
	}
	for _, d := range s {
		if d <= 0 {
			t.Fatalf("sample %v", d)
		}
	}
	t.Logf("signed echo on loopback: p50 %v, p99 %v", bench.Percentile(s, 0.5), bench.Percentile(s, 0.99))
}
