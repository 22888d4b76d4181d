package node

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/bullshit-game/bullshit/node/lan"
	"github.com/bullshit-game/bullshit/node/table"
	"github.com/bullshit-game/bullshit/protocol"
)

// A table of the same name as another, hosted by someone else (an
// impostor, or a second kitchen): the listing shows each with its host's
// words, a name alone never picks between them, NAME@WORDS picks one.
func TestPickTable(t *testing.T) {
	real, fake, den := testTable("r", "kitchen"), testTable("f", "kitchen"), testTable("d", "den")
	fake.HostPeer = newLoopNode(t).h.ID()
	// Advertisers choose their IDs: one takes the name of the den, one
	// the ID of the den (issue 21, item 7).
	named, twin := testTable("den", "decoy"), testTable("d", "attic")
	named.HostPeer, twin.HostPeer = fake.HostPeer, fake.HostPeer
	ts := []lan.TableInfo{den, fake, real}
	withDecoys := []lan.TableInfo{named, den, twin}
	if real.Fingerprint() == fake.Fingerprint() {
		t.Fatal("two hosts with the same words")
	}
	if want := "'kitchen' (" + protocol.Fingerprint(string(real.HostPeer)) + ")"; real.String() != want {
		t.Errorf("listing %q, want %q", real.String(), want)
	}
	for _, c := range []struct {
		name, query string
		want        string // the table's ID; "" for none
		exact       bool
		twice       bool // refused as a name two tables have
		decoys      bool // asked of withDecoys
	}{
		// One table of that name: taken, but not for sure (FindTable waits a moment).
		{"a name only one has", "den", "d", false, false, false},
		// An ID only as id:ID, and not for sure either: anyone can advertise it.
		{"an ID", "id:r", "r", false, false, false},
		{"a bare ID is a name", "r", "", false, false, false},
		{"a name that is another table's ID", "den", "d", false, false, true},
		{"an ID two advertise", "id:d", "", false, true, true},
		{"the first found", "", "d", true, false, false},
		{"none", "attic", "", false, false, false},
		// Two of that name: never a guess.
		{"a name two have", "kitchen", "", false, true, false},
		// The host's words pick one, typed loosely.
		{"name@words", "kitchen@" + real.Fingerprint(), "r", true, false, false},
		{"name@WORDS spaced", "kitchen@" + strings.ToUpper(strings.ReplaceAll(fake.Fingerprint(), "-", " ")), "f", true, false, false},
		{"words of no such table", "kitchen@maple-otter-lunar", "", false, false, false},
		{"words of another table", "den@" + fake.Fingerprint(), "", false, false, false},
		{"id:ID@words", "id:d@" + den.Fingerprint(), "d", true, false, true},
	} {
		list := ts
		if c.decoys {
			list = withDecoys
		}
		got, exact, err := PickTable(list, c.query)
		var two *ErrTwoTables
		if isTwo := errors.As(err, &two); isTwo != c.twice {
			t.Errorf("%s: err %v, want two tables %v", c.name, err, c.twice)
			continue
		}
		if c.twice && !c.decoys {
			msg := err.Error()
			for _, want := range []string{"two tables are called kitchen", real.String(), fake.String(), "kitchen@" + fake.Fingerprint()} {
				if !strings.Contains(msg, want) {
					t.Errorf("%s: %q lacks %q", c.name, msg, want)
				}
			}
			continue
		}
		id := ""
		if got != nil {
			id = got.ID
		}
		if id != c.want || exact != c.exact {
			t.Errorf("%s: got %q (exact %v), want %q (exact %v)", c.name, id, exact, c.want, c.exact)
		}
	}
}

// FindTable over the in-memory LAN: a second table of the name, heard of
// while FindTable waits, stops it from guessing.
func TestFindTableRefusesToGuess(t *testing.T) {
	n := lan.NewMemNet()
	d, err := NewDevice(context.Background(), DeviceConfig{Key: newLoopNode(t).key, Name: "p", Mem: n,
		Listen: []ma.Multiaddr{ma.StringCast("/ip4/127.0.0.1/tcp/0")}})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	real, fake := testTable("r", "kitchen"), testTable("f", "kitchen")
	fake.HostPeer = newLoopNode(t).h.ID()
	if err := n.Advertiser().Advertise(real); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	got, err := d.FindTable(ctx, "kitchen@"+real.Fingerprint())
	if err != nil || got.ID != "r" {
		t.Fatalf("by its words: %v, %v", got.ID, err)
	}
	defer func(s time.Duration) { FindSettle = s }(FindSettle)
	FindSettle = time.Hour // the second table comes while it waits (or before: the same)
	go n.Advertiser().Advertise(fake)
	var two *ErrTwoTables
	if _, err := d.FindTable(ctx, "kitchen"); !errors.As(err, &two) || len(two.Tables) != 2 {
		t.Fatalf("by name with two of it: %v, want ErrTwoTables", err)
	}
}

// testTable is a table advertised by a peer that is never dialled.
func testTable(id, name string) lan.TableInfo {
	id0, _ := peer.Decode("12D3KooWDXNhvyPC8dkZraZaTWmQSx7AWKwipWy8KVBjjTAwoRMM")
	return lan.TableInfo{
		ID: id, Name: name, Host: "ann", HostPeer: id0,
		Seats: 6, Taken: 1, Preset: "classic", Phase: table.PhaseWaiting, Version: "1",
		Addrs: []ma.Multiaddr{ma.StringCast("/ip4/10.77.1.1/tcp/4001")},
	}
}
