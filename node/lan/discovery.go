package lan

// Finding tables: a host advertises its table, every player's program
// browses. Two implementations: mDNS on a real LAN (mdns.go) and MemNet for
// tests, where many nodes in one process see each other's tables. Where
// multicast is blocked (guest Wi-Fi, some offices) a player types the host's
// address instead: ParseAddr.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"

	"github.com/bullshit-game/bullshit/node/table"
	"github.com/bullshit-game/bullshit/protocol"
)

// MaxTableID is the longest table ID that can be advertised, in bytes. IDs
// are never truncated: a cut ID would name another table.
const MaxTableID = 64

// TableInfo is what a table shows to players who are not seated at it.
type TableInfo struct {
	ID       string  // unique per host
	Name     string  // chosen by the host player; may be shortened on the wire
	Host     string  // host player's nickname
	HostPeer peer.ID // whom to dial
	Seats    int
	Taken    int
	Preset   string           // rule preset name
	Phase    table.TablePhase // PhaseWaiting or PhasePlaying
	Version  string           // protocol version; the UI greys out tables it cannot join
	Private  bool             // joining needs the host's approval or a code
	Addrs    []ma.Multiaddr
	Seen     time.Time // when this version of the table was heard of (lists are not re-sent just for Seen)
}

// AddrInfo is where to dial the table's host.
func (t TableInfo) AddrInfo() peer.AddrInfo {
	return peer.AddrInfo{ID: t.HostPeer, Addrs: slices.Clone(t.Addrs)}
}

// Fingerprint is three words from the host's peer ID
// (protocol.Fingerprint): what tells two tables of one name apart. It is
// worked out from the peer ID every listing carries, never advertised.
func (t TableInfo) Fingerprint() string { return protocol.Fingerprint(string(t.HostPeer)) }

// String is the table as a list shows it: 'kitchen' (maple-otter-lunar).
func (t TableInfo) String() string { return fmt.Sprintf("'%s' (%s)", t.Name, t.Fingerprint()) }

// key tells tables apart: IDs are only unique per host.
func (t TableInfo) key() string { return string(t.HostPeer) + "\x00" + t.ID }

// check refuses what cannot be advertised.
func (t TableInfo) check() error {
	switch {
	case t.ID == "":
		return errors.New("node: table has no ID")
	case len(t.ID) > MaxTableID:
		return fmt.Errorf("node: table ID longer than %d bytes", MaxTableID)
	case t.HostPeer == "":
		return errors.New("node: table has no host peer")
	}
	return nil
}

// sameTable compares everything but Seen: a browser reports a table again
// only when something a player can see has changed.
func sameTable(a, b TableInfo) bool {
	a.Seen, b.Seen = time.Time{}, time.Time{}
	if !slices.EqualFunc(a.Addrs, b.Addrs, func(x, y ma.Multiaddr) bool { return x.Equal(y) }) {
		return false
	}
	a.Addrs, b.Addrs = nil, nil
	return a.ID == b.ID && a.Name == b.Name && a.Host == b.Host && a.HostPeer == b.HostPeer &&
		a.Seats == b.Seats && a.Taken == b.Taken && a.Preset == b.Preset &&
		a.Phase == b.Phase && a.Version == b.Version && a.Private == b.Private
}

// Advertiser makes one table visible on the network.
type Advertiser interface {
	// Advertise starts advertising t, or replaces what was advertised.
	Advertise(t TableInfo) error
	// Stop withdraws the table. Advertise may start again afterwards.
	Stop() error
}

// Browser finds tables.
type Browser interface {
	// Browse sends the complete list of visible tables, sorted by name, at
	// once and then each time it changes, until ctx ends; then the channel is
	// closed. A slow reader gets the latest list, never a backlog.
	Browse(ctx context.Context) <-chan []TableInfo
}

// sortTables orders tables for display: by name, then host, then ID.
func sortTables(ts []TableInfo) {
	slices.SortFunc(ts, func(a, b TableInfo) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.Host, b.Host),
			strings.Compare(a.ID, b.ID), strings.Compare(string(a.HostPeer), string(b.HostPeer)))
	})
}

// tableFeed is a latest-wins channel of table lists. Only one goroutine at a time
// may call push (the owner, or whoever holds the owner's lock).
type tableFeed chan []TableInfo

func newTableFeed() tableFeed { return make(tableFeed, 1) }

func (f tableFeed) push(ts []TableInfo) {
	select {
	case <-f:
	default:
	}
	f <- ts
}

// snapshot is a sorted copy of m's tables, safe to hand to another goroutine.
func tableList(m map[string]TableInfo) []TableInfo {
	out := make([]TableInfo, 0, len(m))
	for _, t := range m {
		t.Addrs = slices.Clone(t.Addrs)
		out = append(out, t)
	}
	sortTables(out)
	return out
}

// MemNet is an in-memory network for tests: every Browser of a MemNet sees
// the tables of all its Advertisers at once.
type MemNet struct {
	mu      sync.Mutex
	next    int
	tables  map[int]TableInfo
	subs    map[tableFeed]struct{}
	visible func(TableInfo) bool
}

// NewMemNet makes an empty in-memory network.
func NewMemNet() *MemNet {
	return &MemNet{tables: map[int]TableInfo{}, subs: map[tableFeed]struct{}{}}
}

// SetVisible is a fault hook: from now on browsers see only the tables for
// which visible returns true (nil: all), as if the others' packets were lost.
func (n *MemNet) SetVisible(visible func(TableInfo) bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.visible = visible
	n.publish()
}

// Advertiser returns a new advertiser on n.
func (n *MemNet) Advertiser() Advertiser {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.next++
	return &memAdvertiser{net: n, slot: n.next}
}

// Browser returns a browser of n.
func (n *MemNet) Browser() Browser { return memBrowser{n} }

// publish sends the visible tables to every browser. n.mu must be held.
func (n *MemNet) publish() {
	if len(n.subs) == 0 {
		return
	}
	ts := n.list()
	for f := range n.subs {
		f.push(slices.Clone(ts))
	}
}

// list is the visible tables. n.mu must be held.
func (n *MemNet) list() []TableInfo {
	m := map[string]TableInfo{}
	for _, t := range n.tables {
		if n.visible == nil || n.visible(t) {
			m[t.key()] = t
		}
	}
	return tableList(m)
}

type memAdvertiser struct {
	net  *MemNet
	slot int
}

func (a *memAdvertiser) Advertise(t TableInfo) error {
	if err := t.check(); err != nil {
		return err
	}
	t.Addrs = slices.Clone(t.Addrs)
	t.Seen = time.Now()
	a.net.mu.Lock()
	defer a.net.mu.Unlock()
	a.net.tables[a.slot] = t
	a.net.publish()
	return nil
}

func (a *memAdvertiser) Stop() error {
	a.net.mu.Lock()
	defer a.net.mu.Unlock()
	if _, ok := a.net.tables[a.slot]; ok {
		delete(a.net.tables, a.slot)
		a.net.publish()
	}
	return nil
}

type memBrowser struct{ net *MemNet }

func (b memBrowser) Browse(ctx context.Context) <-chan []TableInfo {
	n := b.net
	f := newTableFeed()
	n.mu.Lock()
	n.subs[f] = struct{}{}
	f.push(n.list())
	n.mu.Unlock()
	go func() {
		<-ctx.Done()
		n.mu.Lock()
		delete(n.subs, f)
		close(f)
		n.mu.Unlock()
	}()
	return f
}

// ParseAddr reads an address typed by a player (bullshit join ADDR) such as
// /ip4/192.168.1.20/tcp/4001/p2p/12D3KooW…, as printed by JoinAddrs.
func ParseAddr(s string) (peer.AddrInfo, error) {
	const want = "an address like /ip4/192.168.1.20/tcp/4001/p2p/12D3KooW… (the host's screen shows it)"
	s = strings.TrimSpace(s)
	if s == "" {
		return peer.AddrInfo{}, fmt.Errorf("empty address: want %s", want)
	}
	a, err := ma.NewMultiaddr(s)
	if err != nil {
		return peer.AddrInfo{}, fmt.Errorf("%q is not %s", s, want)
	}
	ai, err := peer.AddrInfoFromP2pAddr(a)
	if err != nil {
		return peer.AddrInfo{}, fmt.Errorf("%q has no /p2p/ part: want %s", s, want)
	}
	if len(ai.Addrs) != 1 || !IsTCP(ai.Addrs[0]) {
		return peer.AddrInfo{}, fmt.Errorf("%q must be an IP address and a TCP port: want %s", s, want)
	}
	return *ai, nil
}

// JoinAddrs are the addresses other players can type to join h, LAN ones
// first and loopback last.
func JoinAddrs(h host.Host) []string {
	var lan, lo []string
	for _, a := range h.Addrs() {
		if !IsTCP(a) || manet.IsIPUnspecified(a) {
			continue
		}
		s := a.String() + "/p2p/" + h.ID().String()
		if manet.IsIPLoopback(a) {
			lo = append(lo, s)
		} else {
			lan = append(lan, s)
		}
	}
	return append(lan, lo...)
}
