package mentaltable

import (
	"fmt"
	"testing"
	"time"
)

// The phone's CPU at a blind table, one party node's own calls into its
// Player as a LAN runs them (the host's log in, its answers out; every
// other party and the host in the same process but not counted), for the
// page's figures: run it under WebAssembly as the page is built
// (BENCHMARKS.md, "Mental cards"):
//
//	GOOS=js GOARCH=wasm GOEXPERIMENT=nogreenteagc go test -exec="$(go env GOROOT)/lib/wasm/go_js_wasm_exec" \
//	    -gcflags='github.com/bullshit-game/bullshit/...=-l' -run '^$' -bench Player -benchtime 3x ./node/mentaltable
//
// party-ms is party 1's: its key, its checks of every key, split and
// shuffle step, its own split and shuffle, its shares and its hand.
// longest-ms is its longest call, the log taken an input at a time as the
// page takes it: how long the page's one thread is held at once.
func BenchmarkPlayerDeal(b *testing.B) {
	for _, seats := range []int{4, 10} {
		b.Run(fmt.Sprintf("%d seats", seats), func(b *testing.B) {
			var cost, longest time.Duration
			for b.Loop() {
				b.StopTimer()
				t0 := time.Now()
				pt := newPlayerTable(b, seats, seats, uint64(seats))
				start := time.Since(t0) / time.Duration(seats) // NewPlayer's share: its secret and key
				pt.chunk, pt.cost, pt.longest = 1, make([]time.Duration, seats), make([]time.Duration, seats)
				b.StartTimer()
				for !pt.pl[1].Dealt() {
					pt.step()
				}
				cost += start + pt.cost[1]
				longest = max(longest, pt.longest[1])
			}
			b.ReportMetric(float64(cost.Microseconds())/1e3/float64(b.N), "party-ms")
			b.ReportMetric(float64(longest.Microseconds())/1e3, "longest-ms")
		})
	}
}

// BenchmarkPlayerEnd is a party node's end of a blind game: the last
// play, every secret published taken (every shuffle checked, every card
// decrypted) and its audit (Finish); longest-ms its longest call there.
// BenchmarkPlayerReload is a reloaded page's replay of a 4-seat game 40
// actions in: Restore and the whole log again.
func BenchmarkPlayerEnd(b *testing.B) {
	for _, seats := range []int{4, 10} {
		b.Run(fmt.Sprintf("%d seats", seats), func(b *testing.B) {
			var end, longest time.Duration
			for b.Loop() {
				b.StopTimer()
				pt := newPlayerTable(b, seats, seats, uint64(seats))
				pt.chunk, pt.cost, pt.longest = 1, make([]time.Duration, seats), make([]time.Duration, seats)
				pt.play(func(int) {
					if !pt.host.B.Over() {
						pt.cost[1], pt.longest[1] = 0, 0 // the end is what comes after
					}
				})
				t0 := time.Now()
				if r := pt.pl[1].Finish(func(int) string { return "" }); r == nil || !r.Verified() {
					b.Fatalf("party 1's result %+v", r)
				}
				finish := time.Since(t0)
				end += pt.cost[1] + finish
				longest = max(longest, pt.longest[1], finish)
				b.StartTimer()
			}
			b.ReportMetric(float64(end.Microseconds())/1e3/float64(b.N), "party-ms")
			b.ReportMetric(float64(longest.Microseconds())/1e3, "longest-ms")
		})
	}
}

func BenchmarkPlayerReload(b *testing.B) {
	pt := newPlayerTable(b, 4, 4, 4)
	pt.playFor(40)
	kept := pt.pl[1].Keep()
	var cost time.Duration
	for b.Loop() {
		t0 := time.Now()
		p, err := Restore(pt.deal, pt.terms[1], kept, pt.rands(9))
		if err == nil {
			_, _, err = p.Log(0, pt.wire)
		}
		if err != nil {
			b.Fatal(err)
		}
		cost += time.Since(t0)
	}
	b.ReportMetric(float64(cost.Microseconds())/1e3/float64(b.N), "party-ms")
}
