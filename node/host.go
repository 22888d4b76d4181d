// This file builds the libp2p host so that it never reaches past the LAN.

package node

import (
	"context"
	"errors"
	"fmt"
	"net"

	"github.com/bullshit-game/bullshit/node/guard"
	"github.com/bullshit-game/bullshit/node/lan"
	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/control"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
	"github.com/libp2p/go-libp2p/p2p/net/connmgr"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
)

// ProtocolID is the stream protocol of the game. The version changes when
// peers of different versions can no longer play together.
const ProtocolID protocol.ID = "/bullshit/1.0.0"

// UserAgent is what identify tells other peers we are.
const UserAgent = "bullshit"

// HostConfig says who the host is and where it listens.
type HostConfig struct {
	// Key is the player's identity (see LoadProfile). Required: a random key
	// would give the player a new peer ID on every start.
	Key crypto.PrivKey
	// Listen, when set, is used as is; tests pass /ip4/127.0.0.1/tcp/0.
	// Only TCP addresses work.
	Listen []ma.Multiaddr
	// Ifaces are the interfaces to listen on when Listen is empty; when both
	// are empty the host picks them with LAN("").
	Ifaces []lan.Iface
	// Port is the TCP port on each interface address; 0 lets the system choose.
	Port int
	// AllowPublic lets the host dial and accept public IP addresses. Off, it
	// only talks to loopback, private (10/8, 172.16/12, 192.168/16,
	// 100.64/10), link-local and IPv6 ULA addresses: a LAN game has no
	// business elsewhere. Some campus LANs hand out public addresses, hence
	// the switch.
	AllowPublic bool
	// DialFrom, when set, is the address every connection this host dials
	// comes from. Unset, the system's routes pick one (an interface's first
	// address) unless the host listens on loopback: a program that plays
	// many strangers on a LAN, each at an address of its own (node/flood),
	// sets it to the stranger's listen address. A player leaves it unset.
	DialFrom net.IP
}

// ErrNoKey is returned by NewHost without HostConfig.Key.
var ErrNoKey = errors.New("node: no identity key")

// NewHost starts a libp2p host that speaks TCP only, on the addresses the
// config gives, and that makes no connection outside the LAN. ctx only
// bounds the start; the host runs until Close.
func NewHost(ctx context.Context, cfg HostConfig) (host.Host, error) {
	if cfg.Key == nil {
		return nil, ErrNoKey
	}
	listen, err := listenAddrs(cfg)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	base, err := guard.NewResourceManager(ProtocolID)
	if err != nil {
		return nil, fmt.Errorf("resource manager: %w", err)
	}
	rm := guard.NewStreamGate(base)
	cm, err := connmgr.NewConnManager(guard.ConnLow, guard.ConnHigh, connmgr.WithGracePeriod(guard.ConnGrace))
	if err != nil {
		rm.Close()
		return nil, fmt.Errorf("connection manager: %w", err)
	}
	h, err := libp2p.New(
		libp2p.Identity(cfg.Key),
		libp2p.ListenAddrs(listen...),
		// TCP only: QUIC, WebTransport, WebRTC and WebSocket add nothing on
		// a LAN but sockets and build weight. Its handshake is cut short
		// (HandshakeTimeout).
		libp2p.Transport(guard.NewTCP(cfg.DialFrom)),
		libp2p.ResourceManager(rm),
		libp2p.ConnectionManager(cm),
		// The defaults this replaces are the ones that reach the internet.
		libp2p.DisableRelay(),
		libp2p.DisableMetrics(),
		libp2p.ForceReachabilityPrivate(), // AutoNAT never probes
		libp2p.DisableIdentifyAddressDiscovery(),
		libp2p.MultiaddrResolver(noDNS{}),
		libp2p.ConnectionGater(lanGater{allowPublic: cfg.AllowPublic}),
		libp2p.UserAgent(UserAgent),
		// Not passed on purpose: NATPortMap (UPnP/NAT-PMP talk to the
		// router), EnableHolePunching, EnableNATService, EnableAutoRelay,
		// Routing (a DHT).
	)
	if err != nil {
		return nil, fmt.Errorf("start libp2p host: %w", err)
	}
	rm.Watch(h.Network())
	if err := ctx.Err(); err != nil {
		h.Close()
		return nil, err
	}
	return h, nil
}

// listenAddrs turns the config into TCP listen addresses.
func listenAddrs(cfg HostConfig) ([]ma.Multiaddr, error) {
	if cfg.Port < 0 || cfg.Port > 65535 {
		return nil, fmt.Errorf("port %d out of range", cfg.Port)
	}
	if len(cfg.Listen) > 0 {
		for _, a := range cfg.Listen {
			if !lan.IsTCP(a) {
				return nil, fmt.Errorf("listen address %s: only /ip4 or /ip6 with /tcp is supported", a)
			}
		}
		return cfg.Listen, nil
	}
	ifaces := cfg.Ifaces
	if len(ifaces) == 0 {
		var err error
		if ifaces, err = lan.LAN(""); err != nil {
			return nil, err
		}
	}
	var out []ma.Multiaddr
	for _, ifc := range ifaces {
		for _, ip := range ifc.Addrs {
			a, err := lan.TcpAddr(ip, cfg.Port)
			if err != nil {
				return nil, err
			}
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		return nil, lan.ErrNoLAN
	}
	return out, nil
}

// lanGater refuses connections to and from addresses outside the LAN, in
// case a peer tells us (through identify) an address on the internet.
type lanGater struct{ allowPublic bool }

func (g lanGater) ok(a ma.Multiaddr) bool {
	if g.allowPublic {
		return true
	}
	// IsPrivateAddr covers 127/8, 10/8, 100.64/10, 172.16/12, 192.168/16,
	// 169.254/16, ::1, fc00::/7 and fe80::/10, and no DNS name but .localhost.
	return manet.IsPrivateAddr(a) || manet.IsIPLoopback(a)
}

func (g lanGater) InterceptPeerDial(peer.ID) bool                   { return true }
func (g lanGater) InterceptAddrDial(_ peer.ID, a ma.Multiaddr) bool { return g.ok(a) }
func (g lanGater) InterceptAccept(c network.ConnMultiaddrs) bool {
	return g.ok(c.RemoteMultiaddr())
}
func (g lanGater) InterceptSecured(_ network.Direction, _ peer.ID, c network.ConnMultiaddrs) bool {
	return g.ok(c.RemoteMultiaddr())
}
func (g lanGater) InterceptUpgraded(network.Conn) (bool, control.DisconnectReason) { return true, 0 }

// errNoDNS is what a /dns address gets: resolving it would ask a DNS server,
// which may be outside the LAN.
var errNoDNS = errors.New("node: DNS names are not resolved; use an IP address")

type noDNS struct{}

func (noDNS) ResolveDNSAddr(context.Context, peer.ID, ma.Multiaddr, int, int) ([]ma.Multiaddr, error) {
	return nil, errNoDNS
}

func (noDNS) ResolveDNSComponent(context.Context, ma.Multiaddr, int) ([]ma.Multiaddr, error) {
	return nil, errNoDNS
}
