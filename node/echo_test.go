package node

import (
	"context"
	"crypto/rand"
	"errors"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
)

func TestEchoLoopback(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := EchoLoopback(ctx, 50)
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
	t.Logf("signed echo on loopback: p50 %v, p99 %v", Percentile(s, 0.5), Percentile(s, 0.99))
}

// A reply signed by the wrong key, echoing other bytes, or signed as a
// request is refused.
func TestEcho_RefusesForgery(t *testing.T) {
	stranger, _, _ := crypto.GenerateEd25519Key(rand.Reader)
	cases := []struct {
		name  string
		reply func(s network.Stream, key crypto.PrivKey, payload []byte)
	}{
		{"wrong key", func(s network.Stream, _ crypto.PrivKey, p []byte) { writeEcho(s, stranger, echoReply, p) }},
		{"wrong payload", func(s network.Stream, k crypto.PrivKey, p []byte) { p[0] ^= 1; writeEcho(s, k, echoReply, p) }},
		{"request as reply", func(s network.Stream, k crypto.PrivKey, p []byte) { writeEcho(s, k, echoAsk, p) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, b := newLoopHost(t), newLoopHost(t)
			bkey := b.Peerstore().PrivKey(b.ID())
			b.SetStreamHandler(EchoProtocol, func(s network.Stream) {
				defer s.Close()
				payload, err := readEcho(s, s.Conn().RemotePublicKey(), echoAsk)
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
			if _, err := Echo(ctx, a, b.ID(), 3); !errors.Is(err, ErrEchoMismatch) {
				t.Fatalf("got %v, want ErrEchoMismatch", err)
			}
		})
	}
}

// A server fed garbage drops the stream and keeps serving others.
func TestServeEcho_Garbage(t *testing.T) {
	a, b := newLoopHost(t), newLoopHost(t)
	ServeEcho(b)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := a.Connect(ctx, peer.AddrInfo{ID: b.ID(), Addrs: b.Addrs()}); err != nil {
		t.Fatal(err)
	}
	s, err := a.NewStream(ctx, b.ID(), EchoProtocol)
	if err != nil {
		t.Fatal(err)
	}
	junk := make([]byte, echoPayload+1+255)
	junk[echoPayload] = 255
	s.Write(junk)
	s.SetReadDeadline(time.Now().Add(5 * time.Second))
	if n, err := s.Read(make([]byte, 1)); err == nil {
		t.Fatalf("server answered garbage with %d bytes", n)
	}
	s.Reset()
	if got, err := Echo(ctx, a, b.ID(), 2); err != nil || len(got) != 2 {
		t.Fatalf("server stopped serving: %v, %v", got, err)
	}
}

func TestEcho_BadArgs(t *testing.T) {
	a := newLoopHost(t)
	if _, err := Echo(context.Background(), a, a.ID(), -1); err == nil {
		t.Error("negative count accepted")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if _, err := Echo(ctx, a, "nobody", 1); err == nil {
		t.Error("echo to an unknown peer succeeded")
	}
}

func TestPercentile(t *testing.T) {
	ms := func(ns ...int) []time.Duration {
		var d []time.Duration
		for _, n := range ns {
			d = append(d, time.Duration(n)*time.Millisecond)
		}
		return d
	}
	cases := []struct {
		s    []time.Duration
		q    float64
		want time.Duration
	}{
		{nil, 0.5, 0},
		{ms(7), 0.99, 7 * time.Millisecond},
		{ms(5, 1, 4, 2, 3), 0.5, 3 * time.Millisecond},
		{ms(5, 1, 4, 2, 3), 0, 1 * time.Millisecond},
		{ms(5, 1, 4, 2, 3), 1, 5 * time.Millisecond},
		{ms(5, 1, 4, 2, 3), 2, 5 * time.Millisecond},
		{ms(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), 0.9, 9 * time.Millisecond},
	}
	for _, c := range cases {
		if got := Percentile(c.s, c.q); got != c.want {
			t.Errorf("Percentile(%v, %v) = %v, want %v", c.s, c.q, got, c.want)
		}
	}
	s := ms(3, 1, 2)
	Percentile(s, 0.5)
	if s[0] != 3*time.Millisecond {
		t.Error("Percentile sorted the caller's slice")
	}
}

// BenchmarkSignedEcho measures the floor under every move: one signed
// request and one signed reply between two hosts on loopback.
func BenchmarkSignedEcho(b *testing.B) {
	a, c := newLoopHost(b), newLoopHost(b)
	ServeEcho(c)
	ctx := context.Background()
	if err := a.Connect(ctx, peer.AddrInfo{ID: c.ID(), Addrs: c.Addrs()}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	s, err := Echo(ctx, a, c.ID(), b.N)
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(Percentile(s, 0.5).Microseconds())/1000, "p50_ms")
	b.ReportMetric(float64(Percentile(s, 0.99).Microseconds())/1000, "p99_ms")
}
