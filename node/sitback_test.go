package node

import (
	"context"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/node/internal/nodetest"
	"github.com/bullshit-game/bullshit/node/table"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/bullshit-game/bullshit/engine"
)

// The host's person, gone with their node in an election (a crash), comes
// back with the same key: the table is at the new host's term now, which
// their first hello (term 1) learns from the refusal, and the seat a bot
// took at the election is theirs again; they play it to the end of the
// game with the others.
func TestElectionOldHostSitsBack(t *testing.T) {
	set := kitchen(4)
	hn, tb, srv := hostTable(t, set)
	hostSeat, own, err := tb.Sit("local", "host")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	remotes := seatPlayers(t, ctx, hn, 3, dumbMaker)
	if err := tb.Start(); err != nil {
		t.Fatal(err)
	}
	go table.PlayBot(ctx, own, &nodetest.DumbBot{Seat: hostSeat}, dumbFallback, "brisk", nil)
	played := playSlowly(ctx, remotes)
	dropHostAfter(tb, srv, hn, 5)

	var newHost *Remote
	for newHost == nil && ctx.Err() == nil {
		for _, r := range remotes {
			var ready bool
			r.do(func() { ready = r.server != nil && r.server.isReady() })
			if ready {
				newHost = r
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	if newHost == nil {
		t.Fatal("no player took over")
	}
	h2, err := NewHost(context.Background(), HostConfig{Key: hn.key, Listen: []ma.Multiaddr{ma.StringCast("/ip4/127.0.0.1/tcp/0")}})
	if err != nil {
		t.Fatal(err)
	}
	defer h2.Close()
	back, err := Dial(ctx, h2, hn.key, peer.AddrInfo{ID: newHost.h.ID(), Addrs: newHost.h.Addrs()}, "host", "", false, nil)
	if err != nil {
		t.Fatalf("the old host's person, back, was refused: %v", err)
	}
	defer back.Close()
	if back.Seat() != hostSeat {
		t.Fatalf("the old host's person sat back in seat %d, want their own, %d", back.Seat(), hostSeat)
	}
	moves := 0
	end, _ := table.PlayBot(ctx, back, &nodetest.DumbBot{Seat: hostSeat}, dumbFallback, "brisk", func(u table.Update) {
		for _, e := range u.Events {
			if e.Seat == hostSeat && (e.Type == engine.EventPlay || e.Type == engine.EventPass || e.Type == engine.EventCall) {
				moves++
			}
		}
	})
	ends, notices := played()
	if end.View.Phase != engine.PhaseOver {
		t.Fatalf("the old host's person's game did not end (phase %v); the others were told %q", end.View.Phase, notices)
	}
	if end.Audit == nil || !end.Audit.Verified {
		t.Errorf("the old host's person, back, audits the game as %+v; want it verified", end.Audit)
	}
	if moves == 0 {
		t.Error("the old host's person made no move in their seat once back")
	}
	for i, u := range ends {
		endedWhole(t, i, u)
	}
}
