package node

import (
	"context"
	"crypto/rand"
	"errors"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/node/lan"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// newLoopHost is a host on loopback with a fresh key, closed with the test.
func newLoopHost(t testing.TB) host.Host {
	t.Helper()
	return newLoopNode(t).h
}

func TestNewHost_LoopbackStream(t *testing.T) {
	a, b := newLoopHost(t), newLoopHost(t)
	for _, addr := range a.Addrs() {
		if !strings.HasPrefix(addr.String(), "/ip4/127.0.0.1/tcp/") {
			t.Fatalf("host listens on %s, want only the given loopback address", addr)
		}
	}
	got := make(chan string, 1)
	b.SetStreamHandler(ProtocolID, func(s network.Stream) {
		defer s.Close()
		buf := make([]byte, 5)
		n, _ := s.Read(buf)
		got <- string(buf[:n])
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := a.Connect(ctx, peer.AddrInfo{ID: b.ID(), Addrs: b.Addrs()}); err != nil {
		t.Fatal(err)
	}
	s, err := a.NewStream(ctx, b.ID(), ProtocolID)
	if err != nil {
		t.Fatal(err)
	}
	s.Write([]byte("hello"))
	s.Close()
	select {
	case m := <-got:
		if m != "hello" {
			t.Fatalf("got %q", m)
		}
	case <-ctx.Done():
		t.Fatal("no message")
	}
}

// The host must not offer the services that reach beyond the LAN.
func TestNewHost_NoOutsideServices(t *testing.T) {
	h := newLoopHost(t)
	for _, p := range h.Mux().Protocols() {
		for _, bad := range []string{"circuit", "relay", "autonat", "dcutr", "kad"} {
			if strings.Contains(string(p), bad) {
				t.Errorf("host speaks %s", p)
			}
		}
	}
}

func TestNewHost_Refuses(t *testing.T) {
	k, _, _ := crypto.GenerateEd25519Key(rand.Reader)
	ctx := context.Background()
	if _, err := NewHost(ctx, HostConfig{}); !errors.Is(err, ErrNoKey) {
		t.Errorf("no key: %v, want ErrNoKey", err)
	}
	for _, a := range []string{"/ip4/127.0.0.1/udp/0/quic-v1", "/dns4/localhost/tcp/0", "/ip4/127.0.0.1"} {
		if _, err := NewHost(ctx, HostConfig{Key: k, Listen: []ma.Multiaddr{ma.StringCast(a)}}); err == nil {
			t.Errorf("listen %s: want an error", a)
		}
	}
	if _, err := NewHost(ctx, HostConfig{Key: k, Port: 70000, Ifaces: []lan.Iface{fakeIface(2, "eth0", hostFlagUp, "127.0.0.1")}}); err == nil {
		t.Error("port 70000: want an error")
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := NewHost(done, HostConfig{Key: k, Listen: []ma.Multiaddr{ma.StringCast("/ip4/127.0.0.1/tcp/0")}}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled ctx: %v", err)
	}
}

// Interfaces turn into one TCP listen address per IP, on the given port.
func TestListenAddrs_FromIfaces(t *testing.T) {
	ifc := fakeIface(2, "eth0", hostFlagUp, "10.0.0.1", "192.168.1.5")
	got, err := listenAddrs(HostConfig{Ifaces: []lan.Iface{ifc}, Port: 4001})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"/ip4/10.0.0.1/tcp/4001", "/ip4/192.168.1.5/tcp/4001"}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i].String() != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
	if _, err := listenAddrs(HostConfig{Ifaces: []lan.Iface{{}}}); !errors.Is(err, lan.ErrNoLAN) {
		t.Fatalf("interface without addresses: %v, want ErrNoLAN", err)
	}
}

// The gater is the last line: nothing public is dialled or accepted unless allowed.
func TestLANGater(t *testing.T) {
	cases := []struct {
		addr string
		ok   bool
	}{
		{"/ip4/127.0.0.1/tcp/1", true},
		{"/ip4/192.168.1.2/tcp/1", true},
		{"/ip4/10.77.1.3/tcp/1", true},
		{"/ip4/172.31.0.1/tcp/1", true},
		{"/ip4/169.254.9.9/tcp/1", true},
		{"/ip6/fe80::1/tcp/1", true},
		{"/ip6/fd12::1/tcp/1", true},
		{"/ip6/::1/tcp/1", true},
		{"/ip4/8.8.8.8/tcp/1", false},
		{"/ip4/172.32.0.1/tcp/1", false},
		{"/ip6/2001:4860::8888/tcp/1", false},
		{"/dns4/example.com/tcp/1", false},
		{"/dns4/printer.local/tcp/1", false},
	}
	g := lanGater{}
	for _, c := range cases {
		if got := g.InterceptAddrDial("", ma.StringCast(c.addr)); got != c.ok {
			t.Errorf("dial %s allowed=%v, want %v", c.addr, got, c.ok)
		}
	}
	if !(lanGater{allowPublic: true}).InterceptAddrDial("", ma.StringCast("/ip4/8.8.8.8/tcp/1")) {
		t.Error("AllowPublic did not allow a public address")
	}
	if _, err := (noDNS{}).ResolveDNSComponent(context.Background(), ma.StringCast("/dns4/example.com/tcp/1"), 1); err == nil {
		t.Error("noDNS resolved a name")
	}
	if _, err := (noDNS{}).ResolveDNSAddr(context.Background(), "", ma.StringCast("/dnsaddr/example.com"), 1, 1); err == nil {
		t.Error("noDNS resolved a dnsaddr")
	}
}

// What JoinAddrs prints, ParseAddr reads back to the same peer.
func TestJoinAddrs_RoundTrip(t *testing.T) {
	h := newLoopHost(t)
	as := lan.JoinAddrs(h)
	if len(as) == 0 {
		t.Fatal("no join address")
	}
	for _, s := range as {
		ai, err := lan.ParseAddr(s)
		if err != nil {
			t.Fatal(err)
		}
		if ai.ID != h.ID() {
			t.Fatalf("%s parses to %s, want %s", s, ai.ID, h.ID())
		}
	}
	ti := lan.TableInfo{HostPeer: h.ID(), Addrs: h.Addrs()}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := newLoopHost(t).Connect(ctx, ti.AddrInfo()); err != nil {
		t.Fatalf("dial a table's AddrInfo: %v", err)
	}
}

// hostFlagUp is a LAN interface's flags: up, running, multicast.
const hostFlagUp = net.FlagUp | net.FlagMulticast | net.FlagBroadcast | net.FlagRunning

// fakeIface is an interface of the given flags and addresses.
func fakeIface(idx int, name string, flags net.Flags, addrs ...string) lan.Iface {
	ifc := lan.Iface{Interface: net.Interface{Index: idx, Name: name, Flags: flags, MTU: 1500}}
	for _, a := range addrs {
		ifc.Addrs = append(ifc.Addrs, netip.MustParseAddr(a))
	}
	return ifc
}
