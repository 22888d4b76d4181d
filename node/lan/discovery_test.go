package lan

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/node/table"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// testPeer is a valid peer ID for tables that are never dialled.
const testPeer = "12D3KooWDXNhvyPC8dkZraZaTWmQSx7AWKwipWy8KVBjjTAwoRMM"

// testTable is a table advertised by testPeer.
func testTable(id, name string) TableInfo {
	return TableInfo{
		ID: id, Name: name, Host: "ann", HostPeer: mustPeer(testPeer),
		Seats: 6, Taken: 1, Preset: "classic", Phase: table.PhaseWaiting, Version: "1",
		Addrs: []ma.Multiaddr{ma.StringCast("/ip4/10.77.1.1/tcp/4001")},
	}
}

func mustPeer(s string) peer.ID {
	id, err := peer.Decode(s)
	if err != nil {
		panic(err) // a constant in this file
	}
	return id
}

// next waits for the next list, failing after a functional timeout.
func nextTables(t *testing.T, ch <-chan []TableInfo) []TableInfo {
	t.Helper()
	select {
	case ts, ok := <-ch:
		if !ok {
			t.Fatal("browse channel closed")
		}
		return ts
	case <-time.After(5 * time.Second):
		t.Fatal("no table list")
	}
	return nil
}

func tableIDs(ts []TableInfo) string {
	var s []string
	for _, t := range ts {
		s = append(s, t.ID)
	}
	return strings.Join(s, ",")
}

func TestMemNet_SeeAdvertiseUpdateStop(t *testing.T) {
	n := NewMemNet()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	b1, b2 := n.Browser().Browse(ctx), n.Browser().Browse(ctx)
	if got := nextTables(t, b1); len(got) != 0 {
		t.Fatalf("empty net shows %v", tableIDs(got))
	}
	nextTables(t, b2)

	a1, a2 := n.Advertiser(), n.Advertiser()
	if err := a1.Advertise(testTable("t1", "Zed's")); err != nil {
		t.Fatal(err)
	}
	if err := a2.Advertise(testTable("t2", "Alpha")); err != nil {
		t.Fatal(err)
	}
	// Latest wins: both browsers end up with both tables, sorted by name.
	for _, b := range []<-chan []TableInfo{b1, b2} {
		var got []TableInfo
		for len(got) < 2 {
			got = nextTables(t, b)
		}
		if tableIDs(got) != "t2,t1" {
			t.Fatalf("got %s, want t2,t1 (by name)", tableIDs(got))
		}
		if got[0].Seen.IsZero() {
			t.Fatal("Seen not set")
		}
	}

	upd := testTable("t1", "Zed's")
	upd.Taken, upd.Phase = 2, table.PhasePlaying
	a1.Advertise(upd)
	got := nextTables(t, b1)
	if len(got) != 2 || got[1].Taken != 2 || got[1].Phase != table.PhasePlaying {
		t.Fatalf("update not seen: %+v", got)
	}

	a2.Stop()
	if got := nextTables(t, b1); tableIDs(got) != "t1" {
		t.Fatalf("after stop: %s, want t1", tableIDs(got))
	}
	a2.Stop() // twice is fine

	// A browser that comes late sees the current state at once.
	late := n.Browser().Browse(ctx)
	if got := nextTables(t, late); tableIDs(got) != "t1" {
		t.Fatalf("late browser: %s", tableIDs(got))
	}
}

func TestMemNet_CloseOnCancel(t *testing.T) {
	n := NewMemNet()
	ctx, cancel := context.WithCancel(context.Background())
	ch := n.Browser().Browse(ctx)
	nextTables(t, ch)
	cancel()
	deadline := time.After(5 * time.Second)
	for {
		select {
		case _, ok := <-ch:
			if !ok {
				// Advertising after the browser left must not panic.
				if err := n.Advertiser().Advertise(testTable("x", "x")); err != nil {
					t.Fatal(err)
				}
				return
			}
		case <-deadline:
			t.Fatal("channel not closed")
		}
	}
}

// Lists handed out are copies: a consumer scribbling on them changes nothing.
func TestMemNet_NoAliasing(t *testing.T) {
	n := NewMemNet()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tab := testTable("t1", "x")
	n.Advertiser().Advertise(tab)
	tab.Addrs[0] = ma.StringCast("/ip4/1.1.1.1/tcp/1")
	got := nextTables(t, n.Browser().Browse(ctx))
	got[0].Addrs[0] = ma.StringCast("/ip4/2.2.2.2/tcp/1")
	again := nextTables(t, n.Browser().Browse(ctx))
	if again[0].Addrs[0].String() != "/ip4/10.77.1.1/tcp/4001" {
		t.Fatalf("stored address changed to %s", again[0].Addrs[0])
	}
}

func TestMemNet_SetVisible(t *testing.T) {
	n := NewMemNet()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := n.Browser().Browse(ctx)
	n.Advertiser().Advertise(testTable("t1", "a"))
	n.Advertiser().Advertise(testTable("t2", "b"))
	n.SetVisible(func(t TableInfo) bool { return t.ID != "t1" })
	var got []TableInfo
	for tableIDs(got) != "t2" {
		got = nextTables(t, ch)
	}
	n.SetVisible(nil)
	for tableIDs(got) != "t1,t2" {
		got = nextTables(t, ch)
	}
}

func TestAdvertise_Refuses(t *testing.T) {
	a := NewMemNet().Advertiser()
	for name, tab := range map[string]TableInfo{
		"no id":   {HostPeer: mustPeer(testPeer)},
		"no peer": {ID: "x"},
		"long id": {ID: strings.Repeat("x", MaxTableID+1), HostPeer: mustPeer(testPeer)},
	} {
		if err := a.Advertise(tab); err == nil {
			t.Errorf("%s: want an error", name)
		}
	}
}

// ParseAddr takes what a player types, and explains what it wanted.
func TestParseAddr(t *testing.T) {
	good := "/ip4/192.168.1.20/tcp/4001/p2p/" + testPeer
	ai, err := ParseAddr("  " + good + "\n")
	if err != nil {
		t.Fatal(err)
	}
	if ai.ID.String() != testPeer || len(ai.Addrs) != 1 || ai.Addrs[0].String() != "/ip4/192.168.1.20/tcp/4001" {
		t.Fatalf("parsed %v", ai)
	}
	if _, err := ParseAddr("/ip6/fe80::1/tcp/4001/p2p/" + testPeer); err != nil {
		t.Fatalf("ip6: %v", err)
	}
	for _, bad := range []string{
		"",
		"192.168.1.20:4001",
		"/ip4/192.168.1.20/tcp/4001",
		"/p2p/" + testPeer,
		"/ip4/192.168.1.20/udp/4001/quic-v1/p2p/" + testPeer,
		"/dns4/host.local/tcp/4001/p2p/" + testPeer,
		"/ip4/192.168.1.20/tcp/4001/p2p/notapeer",
		"/ip4/999.1.1.1/tcp/1/p2p/" + testPeer,
		"/ip4/1.2.3.4/tcp/1/tcp/2/p2p/" + testPeer,
	} {
		if ai, err := ParseAddr(bad); err == nil {
			t.Errorf("ParseAddr(%q) = %v, want an error", bad, ai)
		} else if !strings.Contains(err.Error(), "/p2p/") {
			t.Errorf("ParseAddr(%q) error %q does not show the expected form", bad, err)
		}
	}
}

func ExampleParseAddr() {
	ai, err := ParseAddr("/ip4/192.168.1.20/tcp/4001/p2p/12D3KooWDXNhvyPC8dkZraZaTWmQSx7AWKwipWy8KVBjjTAwoRMM")
	fmt.Println(ai.Addrs, err)
	// Output: [/ip4/192.168.1.20/tcp/4001] <nil>
}
