package node

import (
	"context"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/node/table"

	ma "github.com/multiformats/go-multiaddr"
)

// Two devices in one process keep their own timing: each table's server
// takes its settings' fields, then its device's, then the defaults, and a
// player's node takes its own device's, not its host's.
func TestTimingIsPerDeviceAndTable(t *testing.T) {
	loop := []ma.Multiaddr{ma.StringCast("/ip4/127.0.0.1/tcp/0")}
	fast := table.Timing{Heartbeat: 100 * time.Millisecond, DeadAfter: 700 * time.Millisecond}
	devA, err := NewDevice(context.Background(), DeviceConfig{Key: newLoopNode(t).key, Name: "A", Listen: loop,
		Bots: dumbMaker, Fallback: dumbFallback, Timing: fast})
	if err != nil {
		t.Fatal(err)
	}
	defer devA.Close()
	devB, err := NewDevice(context.Background(), DeviceConfig{Key: newLoopNode(t).key, Name: "B", Listen: loop,
		Bots: dumbMaker, Fallback: dumbFallback})
	if err != nil {
		t.Fatal(err)
	}
	defer devB.Close()

	hoA, err := devA.Open(table.Settings{Name: "A's", Timing: table.Timing{Reveal: 30 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	defer hoA.Close()
	hoB, err := devB.Open(table.Settings{Name: "B's"})
	if err != nil {
		t.Fatal(err)
	}
	defer hoB.Close()

	def := table.DefaultTiming()
	wantA := table.Timing{Heartbeat: fast.Heartbeat, DeadAfter: fast.DeadAfter, HostRetry: def.HostRetry,
		RebuildWait: def.RebuildWait, Reveal: 30 * time.Millisecond, Toss: def.Toss, Stall: def.Stall, Deal: def.Deal, Gone: def.Gone, Held: def.Held}
	if got := hoA.Server.timing; got != wantA {
		t.Errorf("A's server has timing %+v, want %+v", got, wantA)
	}
	if got := hoA.Table.Set.Timing; got != wantA {
		t.Errorf("A's table has timing %+v, want %+v", got, wantA)
	}
	if got := hoB.Server.timing; got != def {
		t.Errorf("B's server has timing %+v, want the defaults %+v", got, def)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, err := devB.JoinAddr(ctx, hoA.Server.Addrs()[0], "", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.timing != def {
		t.Errorf("B's node at A's table has timing %+v, want B's own %+v", r.timing, def)
	}
}
