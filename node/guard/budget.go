// This file sets what a stranger on the LAN may cost a node: connections,
// handshakes, streams and memory, per address and in all (libp2p's resource
// and connection managers, configured for a card table rather than for the
// public network), so that a slowloris, a connect flood or a spectator
// swarm never keeps a player from joining nor drops a seated one.

package guard

import (
	"math"
	"net"
	"net/netip"
	"sync/atomic"
	"time"

	"go.uber.org/fx"

	"github.com/libp2p/go-libp2p/core/connmgr"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/pnet"
	"github.com/libp2p/go-libp2p/core/protocol"
	"github.com/libp2p/go-libp2p/core/sec"
	rcmgr "github.com/libp2p/go-libp2p/p2p/host/resource-manager"
	tptu "github.com/libp2p/go-libp2p/p2p/net/upgrader"
	"github.com/libp2p/go-libp2p/p2p/transport/tcp"
	"github.com/libp2p/go-libp2p/x/rate"
	ma "github.com/multiformats/go-multiaddr"
)

// The budgets. A LAN game has a handful of players and a few spectators;
// everything past that is someone else's traffic. The defence against many
// connections is the per-address count, and the totals are sized so that
// the per-address counts of every other address of a /24 LAN together
// (253 × ConnsPerAddr = 1,012) still leave room: whoever else fills a home
// or office subnet, a player's connection finds a place. (A bigger LAN lets
// someone with thousands of addresses exhaust any total; no count per
// address helps there.)
const (
	// HandshakeTimeout is how long a new TCP connection may take to finish
	// the security handshake and pick a muxer (libp2p's default is 15 s). A
	// LAN does it in milliseconds; a connection that trickles a byte every
	// few seconds is dropped when it runs out.
	HandshakeTimeout = 3 * time.Second
	// DialTimeout bounds a TCP connect on our side.
	DialTimeout = 5 * time.Second

	// ConnsPerAddr is how many connections one IPv4 address may hold at
	// once, handshaking or not. A player's node needs one (two for a moment
	// while it reconnects).
	ConnsPerAddr = 4
	// connsInbound is the most inbound connections in all, and the most
	// still in their handshake.
	connsInbound = 1024
	// Per peer ID (identities are free: these bound one identity's weight,
	// not a person's): connections, and streams of any protocol.
	connsPerPeer   = 4
	streamsPerPeer = 32
	// gameStreamsPerPeer is streams of the game's protocol per peer: one
	// for the seat, one more while a reconnection replaces it.
	gameStreamsPerPeer = 4
	// memPerPeer is what one peer's connections and streams may reserve
	// (yamux windows, mostly).
	memPerPeer = 16 << 20
)

// The connection manager closes the least valued connections when more
// than connHigh are open, down to connLow, sparing those younger than
// connGrace; seated players (and, on a player's node, its host) are
// protected from that and spectators weigh more than strangers (Server,
// Remote), so idle strangers go first, then spectators, never a seat.
// Variables for the tests.
var (
	ConnLow   = 192
	ConnHigh  = 384
	ConnGrace = 20 * time.Second
)

// ConnRate is how fast one address may open connections: a burst of 16,
// then one every 5 s (libp2p's default, kept: a reconnecting player needs a
// few). It counts attempts, so with HandshakeTimeout it bounds the
// half-open connections one address keeps up after its burst.
var ConnRate = rate.Limit{RPS: 0.2, Burst: 16}

// unlimited are the addresses no count applies to: this machine's own
// loopback, where tests and a second program on the same laptop connect
// from. Only 127.0.0.1 and ::1: the rest of 127/8 counts as addresses of
// their own (tests play strangers from there).
var Unlimited = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("::1/128")}

// limits are the resource manager's limits: libp2p's defaults scaled to the
// machine, with the game's budgets above (pid is the game's stream protocol).
func limits(pid protocol.ID) rcmgr.ConcreteLimitConfig {
	n := func(v int) rcmgr.LimitVal { return rcmgr.LimitVal(v) }
	game := rcmgr.ResourceLimits{StreamsInbound: n(gameStreamsPerPeer), Streams: n(2 * gameStreamsPerPeer)}
	cfg := rcmgr.PartialLimitConfig{
		System: rcmgr.ResourceLimits{ConnsInbound: n(connsInbound), Conns: n(connsInbound + 256),
			StreamsInbound: n(4 * connsInbound), Streams: n(8 * connsInbound)},
		Transient: rcmgr.ResourceLimits{ConnsInbound: n(connsInbound), Conns: n(connsInbound + 128),
			StreamsInbound: n(connsInbound), Streams: n(2 * connsInbound)},
		PeerDefault: rcmgr.ResourceLimits{ConnsInbound: n(connsPerPeer), ConnsOutbound: n(connsPerPeer), Conns: n(2 * connsPerPeer),
			StreamsInbound: n(streamsPerPeer), StreamsOutbound: n(streamsPerPeer), Streams: n(2 * streamsPerPeer),
			Memory: rcmgr.LimitVal64(memPerPeer)},
		ProtocolPeer: map[protocol.ID]rcmgr.ResourceLimits{pid: game},
	}
	return cfg.Build(rcmgr.DefaultLimits.AutoScale())
}

// StreamsInPerAddr is how fast one address may open streams to this node,
// of any protocol: a burst, then a rate. A stream past it is reset as it
// opens, before a byte of its protocol is negotiated: a stranger who opens
// streams as fast as it can (for the game, for a protocol nobody speaks)
// costs the host a frame read and a reset each, not a negotiation and a
// handler (issue 13's flood bench measured 80 µs a stream before). The
// game's own stream has a lower rate of its own (StreamsPerAddr), with an
// answer. An honest node opens a few: identify's, the game's, a rejoin's.
var StreamsInPerAddr = rate.Limit{RPS: 4, Burst: 32}

// streamGate is the resource manager with StreamsInPerAddr on inbound
// streams. The rate goes by the stream's connection's address, which the
// resource manager is not told: it asks the host's network (set once the
// host is built).
type streamGate struct {
	network.ResourceManager
	limiter *rate.Limiter
	net     atomic.Pointer[network.Network]
}

func NewStreamGate(rm network.ResourceManager) *streamGate {
	return &streamGate{ResourceManager: rm, limiter: AddrLimiter(StreamsInPerAddr, Unlimited)}
}

// watch gives the gate the host's network, where it finds a peer's address.
func (g *streamGate) Watch(n network.Network) { g.net.Store(&n) }

// OpenStream refuses an inbound stream over its address's rate. (Hanging
// up on the peer as well was tried: the reconnections' handshakes cost the
// host more than the resets they saved.)
func (g *streamGate) OpenStream(p peer.ID, dir network.Direction) (network.StreamManagementScope, error) {
	// The address is the peer's first connection's (a peer has one, on a
	// LAN): one token per stream, however many connections it holds.
	if n := g.net.Load(); dir == network.DirInbound && n != nil {
		if cs := (*n).ConnsToPeer(p); len(cs) > 0 {
			if a, ok := addrOf(cs[0].RemoteMultiaddr()); ok && !g.limiter.Allow(a) {
				return nil, network.ErrResourceLimitExceeded
			}
		}
	}
	return g.ResourceManager.OpenStream(p, dir)
}

func NewResourceManager(pid protocol.ID) (network.ResourceManager, error) {
	v4 := []rcmgr.ConnLimitPerSubnet{{PrefixLength: 32, ConnCount: ConnsPerAddr}}
	// The game listens on IPv4 only (PickLAN); for a dial over IPv6 the
	// counts go by /64, a LAN's whole prefix, as privacy addresses are free.
	v6 := []rcmgr.ConnLimitPerSubnet{{PrefixLength: 64, ConnCount: 4 * ConnsPerAddr}}
	var free4, free6 []rcmgr.NetworkPrefixLimit
	var freeRate []rate.PrefixLimit
	for _, p := range Unlimited {
		l := rcmgr.NetworkPrefixLimit{Network: p, ConnCount: math.MaxInt}
		if p.Addr().Is4() {
			free4 = append(free4, l)
		} else {
			free6 = append(free6, l)
		}
		freeRate = append(freeRate, rate.PrefixLimit{Prefix: p}) // zero: no limit
	}
	connRates := &rate.Limiter{
		NetworkPrefixLimits: freeRate,
		SubnetRateLimiter: rate.SubnetLimiter{
			IPv4SubnetLimits: []rate.SubnetLimit{{PrefixLength: 32, Limit: ConnRate}},
			IPv6SubnetLimits: []rate.SubnetLimit{{PrefixLength: 64, Limit: rate.Limit{RPS: 4 * ConnRate.RPS, Burst: 4 * ConnRate.Burst}}},
			GracePeriod:      time.Minute,
		},
	}
	return rcmgr.NewResourceManager(rcmgr.NewFixedLimiter(limits(pid)),
		rcmgr.WithLimitPerSubnet(v4, v6),
		rcmgr.WithNetworkPrefixLimit(free4, free6),
		rcmgr.WithConnRateLimiters(connRates),
		rcmgr.WithMetricsDisabled(),
	)
}

// tcpDeps is what libp2p's constructor has ready for a transport: the
// pieces of an upgrader, so that newTCP can build one with the game's
// handshake timeout (libp2p.New has no option for it).
type tcpDeps struct {
	fx.In
	Security []sec.SecureTransport `name:"security"`
	Muxers   []tptu.StreamMuxer
	PSK      pnet.PSK
	RM       network.ResourceManager
	Gater    connmgr.ConnectionGater
}

// newTCP is the TCP transport with an upgrader whose handshakes end after
// HandshakeTimeout, and whose dials come from the address from, if set
// (HostConfig.DialFrom).
func NewTCP(from net.IP) func(d tcpDeps) (*tcp.TcpTransport, error) {
	opts := []tcp.Option{tcp.WithConnectionTimeout(DialTimeout)}
	if from != nil {
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: from}}
		opts = append(opts, tcp.WithDialerForAddr(func(ma.Multiaddr) (tcp.ContextDialer, error) { return d, nil }))
	}
	return func(d tcpDeps) (*tcp.TcpTransport, error) {
		u, err := tptu.New(d.Security, d.Muxers, d.PSK, d.RM, d.Gater, tptu.WithAcceptTimeout(HandshakeTimeout))
		if err != nil {
			return nil, err
		}
		return tcp.NewTCPTransport(u, d.RM, nil, opts...)
	}
}
