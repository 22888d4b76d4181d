package latency

import (
	"context"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/bullshit-game/bullshit/engine/bench"
)

// Shout to verdict (shout.go) beside the bare signed echo, measured in the
// same run so both see the same machine. One op is one shout; ns/op is a
// whole round (the play, the shout, the reveal pause), not the latency:
// read p50_ms and p99_ms. Issue 5's goal: p99 ≤ 2 × the echo's p99.
//
//	go test ./node/latency -run XXX -bench ShoutToVerdict -benchtime 300x -count 5
func BenchmarkShoutToVerdict4(b *testing.B)  { benchShout(b, 4) }
func BenchmarkShoutToVerdict10(b *testing.B) { benchShout(b, 10) }

func benchShout(b *testing.B, seats int) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	echo, err := Echo(ctx, 1000)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	res, err := Shout(ctx, seats, b.N)
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(msOf(bench.Percentile(res.Samples, 0.5)), "p50_ms")
	b.ReportMetric(msOf(bench.Percentile(res.Samples, 0.99)), "p99_ms")
	b.ReportMetric(msOf(bench.Percentile(res.Last, 0.99)), "all_p99_ms")
	b.ReportMetric(msOf(bench.Percentile(echo, 0.5)), "echo_p50_ms")
	b.ReportMetric(msOf(bench.Percentile(echo, 0.99)), "echo_p99_ms")
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

// Out-of-range tables and rounds are errors, not hangs.
func TestShout_BadArgs(t *testing.T) {
	for _, c := range []struct{ seats, rounds int }{{1, 5}, {11, 5}, {4, 0}} {
		if _, err := Shout(context.Background(), c.seats, c.rounds); err == nil {
			t.Errorf("Shout(%d seats, %d rounds) ran", c.seats, c.rounds)
		}
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
