package node

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/node/guard"
	"github.com/bullshit-game/bullshit/node/table"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/x/rate"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
)

// newLoopNodeAt is a node listening (and so dialling from) 127.0.0.ip: each
// address of 127/8 but 127.0.0.1 counts as an address of its own.
func newLoopNodeAt(t testing.TB, ip int) loopNode {
	t.Helper()
	k, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHost(context.Background(), HostConfig{Key: k, Listen: []ma.Multiaddr{ma.StringCast(fmt.Sprintf("/ip4/127.0.0.%d/tcp/0", ip))}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return loopNode{h, k}
}

// tcpAddrOf is the host's TCP listening address.
func tcpAddrOf(t testing.TB, n loopNode) string {
	t.Helper()
	for _, a := range n.h.Addrs() {
		if na, err := manet.ToNetAddr(a); err == nil {
			return na.String()
		}
	}
	t.Fatal("no TCP address")
	return ""
}

// A handshake that doesn't finish is cut after HandshakeTimeout, not
// libp2p's 15 s.
func TestHandshakeTimeout(t *testing.T) {
	hn := newLoopNode(t)
	c, err := net.Dial("tcp", tcpAddrOf(t, hn))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// A bound for "never", well under libp2p's default, not a speed.
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	start := time.Now()
	_, err = io.Copy(io.Discard, c)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("the host kept a silent connection open for %v", time.Since(start).Round(time.Second))
	}
	t.Logf("a silent connection was closed after %v", time.Since(start).Round(100*time.Millisecond))
}

// Strangers can't crowd out players. While 200 TCP connections from 50
// addresses sit in the handshake (reopened as soon as they are closed) and
// 100 fresh identities from 25 more addresses connect and ask to watch, a
// new player still joins, and the player seated before it all began keeps
// its connection.
func TestStrangersCantCrowdOutPlayers(t *testing.T) {
	if testing.Short() {
		t.Skip("opens 300 connections")
	}
	hn, _, srv := hostTable(t, table.Settings{Name: "Kitchen", Seats: 4, Bots: []string{"b"}})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	seatedNode := newLoopNodeAt(t, 201)
	seated, err := Dial(ctx, seatedNode.h, seatedNode.key, info(hn), "Ada", "", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer seated.Close()
	lostNotice := make(chan string, 1)
	go func() {
		for u := range seated.Updates() {
			if strings.Contains(u.Notice, "Lost the host") {
				select {
				case lostNotice <- u.Notice:
				default:
				}
			}
		}
	}()

	// The slowloris: connections that never say a word.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	defer func() { close(stop); wg.Wait() }()
	target := tcpAddrOf(t, hn)
	var opened, closedByHost atomic.Int64
	for a := range 50 {
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(2+a))}}
				for {
					select {
					case <-stop:
						return
					default:
					}
					c, err := d.Dial("tcp", target)
					if err == nil {
						opened.Add(1)
						done := make(chan struct{})
						go func() {
							select {
							case <-stop:
								c.Close()
							case <-done:
							}
						}()
						io.Copy(io.Discard, c) // until the host hangs up
						close(done)
						c.Close()
						closedByHost.Add(1)
					}
					select {
					case <-stop:
						return
					case <-time.After(50 * time.Millisecond):
					}
				}
			}()
		}
	}
	// The crowd: fresh identities that connect and ask to watch.
	// Places are counted as the host holds them, at once: on a busy
	// machine the connection manager trims spectators (connHigh), which
	// frees their places for others of the crowd, so its successes may add
	// up to more than MaxWatchers (23 in one run at a load of 17).
	var most atomic.Int64
	go func() {
		for {
			srv.mu.Lock()
			n := int64(srv.lims.watching)
			srv.mu.Unlock()
			if n > most.Load() {
				most.Store(n)
			}
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	var watching, refused, failed atomic.Int64
	var crowd sync.WaitGroup
	for i := range 100 {
		n := newLoopNodeAt(t, 60+i/4)
		crowd.Add(1)
		go func() {
			defer crowd.Done()
			r, err := Dial(ctx, n.h, n.key, info(hn), fmt.Sprintf("w%d", i), "", true, nil)
			switch {
			case err == nil:
				watching.Add(1)
				t.Cleanup(func() { r.Close() })
			case strings.Contains(err.Error(), "spectators"):
				refused.Add(1)
			default:
				failed.Add(1)
			}
		}()
	}
	crowd.Wait()
	if m := most.Load(); m > MaxWatchers {
		t.Errorf("%d spectators held a place at once, more than %d", m, MaxWatchers)
	}
	if refused.Load() == 0 {
		t.Errorf("none of the crowd of 100 was refused a place (%d watching)", watching.Load())
	}
	t.Logf("crowd: %d given a place (%d at most at once), %d refused a place, %d could not connect; slowloris: %d connections opened, %d closed by the host so far",
		watching.Load(), most.Load(), refused.Load(), failed.Load(), opened.Load(), closedByHost.Load())

	// A new player joins in the middle of it.
	newNode := newLoopNodeAt(t, 202)
	joined, err := Dial(ctx, newNode.h, newNode.key, info(hn), "Bea", "", false, nil)
	if err != nil {
		t.Fatalf("a new player could not join during the flood: %v", err)
	}
	defer joined.Close()
	if joined.Seat() < 0 {
		t.Fatalf("the new player got no seat")
	}
	// And the seated player kept its link through it all, and for a few
	// heartbeats more.
	select {
	case n := <-lostNotice:
		t.Fatalf("the seated player lost the host: %s", n)
	case <-time.After(2 * table.DefaultTiming().DeadAfter):
	}
	if gen := gen(seated); gen != 1 {
		t.Fatalf("the seated player connected %d times", gen)
	}
	t.Logf("host: %d connections open at the end; %d refused envelopes", len(hn.h.Network().Conns()), srv.Refused.Load())
}

// When the connection manager trims (more than connHigh connections), idle
// strangers go first, then spectators, never a seated player.
func TestTrimSparesSeats(t *testing.T) {
	low, high, grace := guard.ConnLow, guard.ConnHigh, guard.ConnGrace
	guard.ConnLow, guard.ConnHigh, guard.ConnGrace = 4, 8, 0
	defer func() { guard.ConnLow, guard.ConnHigh, guard.ConnGrace = low, high, grace }()
	hn, _, _ := hostTable(t, table.Settings{Seats: 3, Bots: []string{"b"}})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var seated []*Remote
	for i := range 2 {
		n := newLoopNodeAt(t, 210+i)
		r, err := Dial(ctx, n.h, n.key, info(hn), fmt.Sprintf("p%d", i), "", false, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		seated = append(seated, r)
	}
	var watchers []*Remote
	for i := range 6 {
		n := newLoopNodeAt(t, 220+i)
		r, err := Dial(ctx, n.h, n.key, info(hn), fmt.Sprintf("w%d", i), "", true, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		watchers = append(watchers, r)
	}
	var strangers []loopNode
	for i := range 30 {
		n := newLoopNodeAt(t, 100+i/3)
		if err := n.h.Connect(ctx, info(hn)); err != nil {
			t.Fatal(err)
		}
		strangers = append(strangers, n)
	}
	before := len(hn.h.Network().Conns())
	hn.h.ConnManager().TrimOpenConns(ctx)
	time.Sleep(100 * time.Millisecond) // the closes are asynchronous
	open := func(n loopNode) bool { return len(hn.h.Network().ConnsToPeer(n.h.ID())) > 0 }
	var strangersLeft, watchersLeft int
	for _, n := range strangers {
		if open(n) {
			strangersLeft++
		}
	}
	for _, r := range watchers {
		if len(hn.h.Network().ConnsToPeer(r.h.ID())) > 0 {
			watchersLeft++
		}
	}
	t.Logf("trim: %d connections before, %d after; strangers left %d of 30, spectators %d of 6",
		before, len(hn.h.Network().Conns()), strangersLeft, watchersLeft)
	for i, r := range seated {
		if len(hn.h.Network().ConnsToPeer(r.h.ID())) == 0 || gen(r) != 1 {
			t.Fatalf("seated player %d lost its connection to the trim", i)
		}
	}
	if strangersLeft > 0 && watchersLeft < 6 {
		t.Fatalf("a spectator was trimmed while %d idle strangers were kept", strangersLeft)
	}
}

// Refuse before you work: a stranger who opens streams as fast as it can
// gets its address's burst of them (StreamsInPerAddr), and every one past
// it is reset as it opens, before its protocol is negotiated or a handler
// runs; this machine's own loopback is not counted.
func TestStreamFloodRefusedAsItOpens(t *testing.T) {
	saved := guard.StreamsInPerAddr
	// The burst and next to no more (a stream a day: x/rate forgets a
	// bucket that never refills), so that nothing here depends on time.
	guard.StreamsInPerAddr = rate.Limit{RPS: 1.0 / 86400, Burst: 8}
	defer func() { guard.StreamsInPerAddr = saved }()
	hn := newLoopNode(t)
	const proto = "/bullshit-test/flood"
	var handled atomic.Int64
	hn.h.SetStreamHandler(proto, func(s network.Stream) { handled.Add(1); s.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	open := func(n loopNode, streams int) (refused int) {
		t.Helper()
		if err := n.h.Connect(ctx, info(hn)); err != nil {
			t.Fatal(err)
		}
		for range streams {
			s, err := n.h.NewStream(ctx, hn.h.ID(), proto)
			if err == nil {
				// The protocol is agreed lazily: the host's answer is what
				// the first read finds, its close or its reset.
				_, err = s.Read(make([]byte, 1))
				s.Close()
			}
			var se *network.StreamError
			switch {
			case errors.Is(err, io.EOF):
			case errors.As(err, &se) && se.ErrorCode == network.StreamResourceLimitExceeded:
				refused++
			default:
				t.Fatalf("a stream: %v", err)
			}
		}
		return refused
	}
	const streams = 100
	refused := open(newLoopNodeAt(t, 231), streams)
	h := handled.Load()
	t.Logf("a stranger opened %d streams: %d handled, %d reset as they opened", streams, h, refused)
	if h < 1 || h > int64(guard.StreamsInPerAddr.Burst) {
		t.Errorf("%d streams reached the handler, want 1 to the burst of %d (identify's count too)", h, guard.StreamsInPerAddr.Burst)
	}
	if refused != streams-int(h) {
		t.Errorf("%d refused as they opened, want the %d that were not handled", refused, streams-int(h))
	}
	// Another address has its own burst; loopback's own address none.
	handled.Store(0)
	if refused := open(newLoopNodeAt(t, 232), 4); refused != 0 || handled.Load() != 4 {
		t.Errorf("another address: %d of 4 handled, %d refused", handled.Load(), refused)
	}
	handled.Store(0)
	if refused := open(newLoopNode(t), streams); refused != 0 || handled.Load() != streams {
		t.Errorf("from 127.0.0.1: %d of %d handled, %d refused", handled.Load(), streams, refused)
	}
}
