package echo_test

import (
	"context"
	"crypto/rand"
	"errors"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/bullshit-game/bullshit/engine/bench"
	"github.com/bullshit-game/bullshit/node/echo"
	"github.com/bullshit-game/bullshit/node/latency"
)

// newLoopHost is one of the game's hosts on loopback, as the latency
// measurement makes them, closed with the test.
func newLoopHost(t testing.TB) host.Host {
	t.Helper()
	h, _, err := latency.LoopHost(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// A reply signed by the wrong key, echoing other bytes, or signed as a
// request is refused.
func TestRoundTrips_RefusesForgery(t *testing.T) {
	stranger, _, _ := crypto.GenerateEd25519Key(rand.Reader)
	cases := []struct {
		name  string
		reply func(s network.Stream, key crypto.PrivKey, payload []byte)
	}{
		{"wrong key", func(s network.Stream, _ crypto.PrivKey, p []byte) { echo.WriteSigned(s, stranger, echo.Reply, p) }},
		{"wrong payload", func(s network.Stream, k crypto.PrivKey, p []byte) { p[0] ^= 1; echo.WriteSigned(s, k, echo.Reply, p) }},
		{"request as reply", func(s network.Stream, k crypto.PrivKey, p []byte) { echo.WriteSigned(s, k, echo.Ask, p) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, b := newLoopHost(t), newLoopHost(t)
			bkey := b.Peerstore().PrivKey(b.ID())
			b.SetStreamHandler(echo.Protocol, func(s network.Stream) {
				defer s.Close()
				payload, err := echo.ReadSigned(s, s.Conn().RemotePublicKey(), echo.Ask)
				if err != nil {
					return
				}
				c.reply(s, bkey, payload)
			})
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := a.Connect(ctx, peer.AddrInfo{ID: b.ID(), Addrs: b.Addrs()}); err != nil {
				t.Fatal(err)
			}
			if _, err := echo.RoundTrips(ctx, a, b.ID(), 3); !errors.Is(err, echo.ErrMismatch) {
				t.Fatalf("got %v, want echo.ErrMismatch", err)
			}
		})
	}
}

// A server fed garbage drops the stream and keeps serving others.
func TestServe_Garbage(t *testing.T) {
	a, b := newLoopHost(t), newLoopHost(t)
	echo.Serve(b)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := a.Connect(ctx, peer.AddrInfo{ID: b.ID(), Addrs: b.Addrs()}); err != nil {
		t.Fatal(err)
	}
	s, err := a.NewStream(ctx, b.ID(), echo.Protocol)
	if err != nil {
		t.Fatal(err)
	}
	junk := make([]byte, echo.PayloadSize+1+255)
	junk[echo.PayloadSize] = 255
	s.Write(junk)
	s.SetReadDeadline(time.Now().Add(5 * time.Second))
	if n, err := s.Read(make([]byte, 1)); err == nil {
		t.Fatalf("server answered garbage with %d bytes", n)
	}
	s.Reset()
	if got, err := echo.RoundTrips(ctx, a, b.ID(), 2); err != nil || len(got) != 2 {
		t.Fatalf("server stopped serving: %v, %v", got, err)
	}
}

func TestRoundTrips_BadArgs(t *testing.T) {
	a := newLoopHost(t)
	if _, err := echo.RoundTrips(context.Background(), a, a.ID(), -1); err == nil {
		t.Error("negative count accepted")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if _, err := echo.RoundTrips(ctx, a, "nobody", 1); err == nil {
		t.Error("echo to an unknown peer succeeded")
	}
}

// BenchmarkSignedEcho measures the floor under every move: one signed
// request and one signed reply between two hosts on loopback.
func BenchmarkSignedEcho(b *testing.B) {
	a, c := newLoopHost(b), newLoopHost(b)
	echo.Serve(c)
	ctx := context.Background()
	if err := a.Connect(ctx, peer.AddrInfo{ID: c.ID(), Addrs: c.Addrs()}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	s, err := echo.RoundTrips(ctx, a, c.ID(), b.N)
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(bench.Percentile(s, 0.5).Microseconds())/1000, "p50_ms")
	b.ReportMetric(float64(bench.Percentile(s, 0.99).Microseconds())/1000, "p99_ms")
}
