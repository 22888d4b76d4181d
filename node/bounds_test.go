package node

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/node/table"

	"github.com/libp2p/go-libp2p/core/peerstore"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/protocol"
)

// A nickname out of bounds is refused with the reason, and the table is as
// it was: the 65,236-byte nickname, and one that clears the screen.
func TestNetNickOutOfBoundsRefused(t *testing.T) {
	hn, tb, _ := hostTable(t, table.Settings{Name: "Kitchen", Seats: 3, Bots: []string{"b"}})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for _, c := range []struct{ nick, says string }{
		{strings.Repeat("x", 65236), "A nickname is at most 24 letters."},
		{"\x1b[2J\x1b[Hroot", "A nickname can't hold control characters"},
		{"", "A nickname can't be empty."},
	} {
		nickRefused(t, ctx, hn, c.nick, c.says)
	}
	// Nothing changed: nobody sits, and the next player takes seat 0.
	var seats []table.SeatInfo
	tb.Do(func() { seats = tb.State(-1).Seats })
	for i, s := range seats {
		if s.Peer != "" || (s.Bot == "" && s.Name != "") {
			t.Fatalf("seat %d is taken: %+v", i, s)
		}
	}
	pn := newLoopNode(t)
	r, err := Dial(ctx, pn.h, pn.key, info(hn), "Ada", "", false, nil)
	if err != nil || r.Seat() != 0 {
		t.Fatalf("the next player: seat %v, %v", r, err)
	}
	r.Close()
	// A table's name and its host's are bounded where the table goes on
	// the network.
	for _, c := range []struct{ name, host string }{{strings.Repeat("t", protocol.MaxTableName+1), "host"}, {"T", "\x1b]0;pwned\a"}} {
		tb, err := table.NewTable(table.Settings{Name: c.name}, c.host, dumbMaker, dumbFallback)
		if err != nil {
			t.Fatal(err)
		}
		defer tb.Close()
		if _, err := Serve(hn.h, hn.key, tb); !errors.Is(err, protocol.ErrBadName) {
			t.Fatalf("serving a table named %.40q hosted by %q: %v", c.name, c.host, err)
		}
	}
}

// The biggest Lobby the host can build from peers' data fits the frame
// limit: ten seats of the longest nicknames (24 runes of 4 bytes), every
// player claiming a thousand addresses through identify. The players all
// see the full table; before the bounds the lobby was over the limit and
// each connection's updates stopped at "seated".
func TestNetBiggestLobbyFits(t *testing.T) {
	const n = 10
	hn, tb, srv := hostTable(t, table.Settings{Name: strings.Repeat("𝕋", protocol.MaxTableName), Seats: n})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	nick := func(i int) string { return strings.Repeat(string(rune(0x1F600+i)), protocol.MaxNick) } // 😀😁…: 4 bytes each
	var claims []ma.Multiaddr
	for i := range 1000 {
		claims = append(claims, ma.StringCast(fmt.Sprintf("/ip6/fd00:ffff:ffff:ffff:ffff:ffff:ffff:%x/tcp/65535", i)))
	}
	var rs []*Remote
	for i := range n {
		pn := newLoopNode(t)
		// What the player's identify would claim, as the host stores it.
		hn.h.Peerstore().AddAddrs(pn.h.ID(), claims, peerstore.PermanentAddrTTL)
		r, err := Dial(ctx, pn.h, pn.key, info(hn), nick(i), "", false, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		rs = append(rs, r)
	}
	if err := tb.Start(); err != nil {
		t.Fatal(err)
	}
	for i, r := range rs {
		got := waitFor(t, ctx, r, func(u table.Update) bool { return len(u.View.Hand) > 0 && len(u.Table.Seats) == n })
		for j, s := range got.Table.Seats {
			if s.Name != nick(j) || len(s.Addrs) == 0 || len(s.Addrs) > seatAddrs {
				t.Fatalf("player %d sees seat %d as %q with %d addresses", i, j, s.Name, len(s.Addrs))
			}
		}
	}
	if d := srv.Dropped.Load(); d != 0 {
		t.Fatalf("%d messages dropped", d)
	}

	// The bound itself: the same lobby with every seat's addresses at their
	// longest, sealed.
	var ts table.TableState
	tb.Do(func() { ts = tb.State(0) })
	for i := range ts.Seats {
		ts.Seats[i].Addrs = nil
		for range seatAddrs {
			ts.Seats[i].Addrs = append(ts.Seats[i].Addrs, strings.Repeat("a", maxSeatAddr))
		}
	}
	b, err := protocol.Seal(mustEd(t, hn.key), tb.WireID(), 1, 1, wireLobby(&ts))
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > protocol.MaxSize/4 {
		t.Fatalf("the biggest lobby is %d bytes, over a quarter of the frame limit", len(b))
	}
	t.Logf("the biggest lobby of %d seats is %d bytes (limit %d)", n, len(b), protocol.MaxSize)
}

// waitFor reads r's updates until ok says so.
func waitFor(t *testing.T, ctx context.Context, r *Remote, ok func(table.Update) bool) table.Update {
	t.Helper()
	for {
		select {
		case u, open := <-r.Updates():
			if !open {
				t.Fatal("the session ended")
			}
			if ok(u) {
				return u
			}
		case <-ctx.Done():
			t.Fatal("no such update before the deadline")
		}
	}
}

// A send that fails never ends a connection's updates in silence: a
// message that can't be sealed is dropped and counted and the updates go
// on; a write that fails resets the connection, and the player, who
// notices, comes back for its seat and plays on.
func TestNetFailedSendNeverStalls(t *testing.T) {
	for _, c := range []struct {
		name string
		err  error
		what protocol.Type
	}{
		{"write fails on the lobby", errors.New("broken pipe"), protocol.TypeLobby},
		{"write fails on an update", errors.New("broken pipe"), protocol.TypeUpdate},
		{"lobby too big", protocol.ErrTooBig, protocol.TypeLobby},
		{"update too big", protocol.ErrTooBig, protocol.TypeUpdate},
	} {
		t.Run(c.name, func(t *testing.T) {
			hn, tb, srv := hostTable(t, table.Settings{Seats: 2, Bots: []string{"b"}})
			var armed atomic.Bool
			var failed atomic.Int64
			srv.sealer = failingSealer{srv.sealer, func(m protocol.Message) error {
				// The first such message once the game starts, once; "too
				// big" only while it carries what the host can leave out (a
				// lobby's addresses, an update's events and journal).
				if !armed.Load() || m.Type() != c.what || failed.Load() > 0 {
					return nil
				}
				if c.err == protocol.ErrTooBig {
					switch m := m.(type) {
					case protocol.Lobby:
						if len(m.Players) == 0 || len(m.Players[0].Addrs) == 0 {
							return nil
						}
					case protocol.Update:
						if len(m.Events) == 0 {
							return nil
						}
					}
				}
				failed.Add(1)
				return c.err
			}}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			r := dialPlayer(t, ctx, hn, "Ada")
			armed.Store(true)
			if err := tb.Start(); err != nil {
				t.Fatal(err)
			}
			// The game reaches the player: its cards, dealt.
			waitFor(t, ctx, r, func(u table.Update) bool { return len(u.View.Hand) > 0 && u.View.Phase != engine.PhaseOver })
			if failed.Load() == 0 {
				t.Fatal("no send failed")
			}
			if c.err == protocol.ErrTooBig && srv.Dropped.Load() == 0 {
				t.Fatal("a message left out was not counted")
			}
			if c.err != protocol.ErrTooBig && gen(r) < 2 {
				t.Fatal("the player never reconnected after its connection failed")
			}
			t.Logf("dropped %d, player connected %d times", srv.Dropped.Load(), gen(r))
		})
	}
}

// gen is how many times a host seated r.
func gen(r *Remote) int {
	n := 0
	r.do(func() { n = r.links })
	return n
}

// failingSealer seals as its sealer does, but for a message fail refuses:
// a send that fails before it is sealed.
type failingSealer struct {
	sealer
	fail func(protocol.Message) error
}

func (f failingSealer) Seal(tid protocol.TableID, term uint64, m protocol.Message) ([]byte, uint64, error) {
	if err := f.fail(m); err != nil {
		return nil, 0, err
	}
	return f.sealer.Seal(tid, term, m)
}
