package main

import (
	"errors"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/bullshit-game/bullshit/node"
	nodelan "github.com/bullshit-game/bullshit/node/lan"
)

// `join --table kitchen` with two kitchens on the LAN says which two and
// what to type instead, rather than guessing.
func TestJoinRefusesToGuessBetweenTwoTables(t *testing.T) {
	ids := []string{"12D3KooWDXNhvyPC8dkZraZaTWmQSx7AWKwipWy8KVBjjTAwoRMM", "12D3KooWEiW4cct8LU8akzZNWT541RdWroZEttm29vbsU1M19ggy"}
	var ts []nodelan.TableInfo
	for i, s := range ids {
		id, err := peer.Decode(s)
		if err != nil {
			t.Fatal(err)
		}
		ts = append(ts, nodelan.TableInfo{ID: string(rune('a' + i)), Name: "kitchen", HostPeer: id})
	}
	_, _, err := node.PickTable(ts, "kitchen")
	msg := twoTables(err).Error()
	want := "two tables are called kitchen: 'kitchen' (" + ts[0].Fingerprint() + ") and 'kitchen' (" + ts[1].Fingerprint() +
		"); join with --table kitchen@" + ts[0].Fingerprint() + " or by address"
	if msg != want {
		t.Fatalf("said %q\nwant %q", msg, want)
	}
	// What it says to type picks one.
	got, _, err := node.PickTable(ts, "kitchen@"+ts[1].Fingerprint())
	if err != nil || got == nil || got.ID != "b" {
		t.Fatalf("--table kitchen@%s: %v, %v", ts[1].Fingerprint(), got, err)
	}
	other := errors.New("no table named \"kitchen\" found on the LAN")
	if twoTables(other) != other {
		t.Error("another error was rewritten")
	}
}
