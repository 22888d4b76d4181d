package lan

// Choosing the network interface a table lives on. A laptop has many
// interfaces and most of them lead nowhere a friend could be: loopback,
// container bridges, VPN tunnels. We want the one the Wi-Fi or the cable is
// on, because mDNS is sent on exactly one interface and the host listens only
// on addresses other players can reach.

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// ErrNoLAN says that no interface looks like a LAN; the text is for the player.
var ErrNoLAN = errors.New("no LAN interface found: connect to Wi-Fi, or pass --iface")

// Iface is a network interface and its addresses: a value, so that the choice
// can be tested with made-up machines.
type Iface struct {
	net.Interface
	Addrs []netip.Addr
}

// lanPrefixes are the IPv4 ranges a home, office or hotspot LAN uses, in
// order of preference. 169.254/16 is last: it is what two laptops joined by a
// cable get without DHCP, but also what stray virtual links carry.
var lanPrefixes = []netip.Prefix{
	netip.MustParsePrefix("192.168.0.0/16"),
	netip.MustParsePrefix("10.0.0.0/8"),
	netip.MustParsePrefix("172.16.0.0/12"),
	netip.MustParsePrefix("100.64.0.0/10"), // carrier-grade NAT: some phone hotspots
	netip.MustParsePrefix("169.254.0.0/16"),
}

// virtualPrefixes are name prefixes of interfaces that are not a LAN even
// when they carry a private address: containers (docker, br-, veth, cni,
// flannel, cali, weave, lxc/lxd, podman, kube), virtual machines (virbr,
// vboxnet, vmnet), overlay VPNs (tailscale, zt = ZeroTier, wg = WireGuard,
// tun/tap, utun) and Apple's peer-to-peer links (awdl, llw) which are
// multicast-capable but not shared with other players.
var virtualPrefixes = []string{
	"docker", "br-", "veth", "virbr", "cni", "flannel", "cali", "weave",
	"lxc", "lxd", "podman", "kube", "vboxnet", "vmnet", "tailscale", "zt",
	"wg", "tun", "tap", "utun", "awdl", "llw",
}

// Interfaces lists the machine's interfaces with their addresses.
func Interfaces() ([]Iface, error) {
	nis, err := net.Interfaces()
	if err != nil {
		return nil, fmt.Errorf("list network interfaces: %w", err)
	}
	out := make([]Iface, 0, len(nis))
	for _, ni := range nis {
		ifc := Iface{Interface: ni}
		addrs, err := ni.Addrs()
		if err != nil {
			continue // an interface vanishing while we look is not our problem
		}
		for _, a := range addrs {
			var ip net.IP
			switch v := a.(type) {
			case *net.IPNet:
				ip = v.IP
			case *net.IPAddr:
				ip = v.IP
			}
			if ad, ok := netip.AddrFromSlice(ip); ok {
				ifc.Addrs = append(ifc.Addrs, ad.Unmap())
			}
		}
		out = append(out, ifc)
	}
	return out, nil
}

// LAN picks the machine's LAN interfaces; see PickLAN.
func LAN(name string) ([]Iface, error) {
	all, err := Interfaces()
	if err != nil {
		return nil, err
	}
	return PickLAN(all, name)
}

// PickLAN returns the interfaces of all that a game can use, best first, each
// with only its usable IPv4 addresses. With name == "" an interface must be
// up, multicast-capable, not loopback or point-to-point (VPN tunnels), not
// named like a container or VPN interface, and carry a private IPv4 address;
// none fitting is ErrNoLAN. A name (the --iface flag) skips those guesses: the
// player knows better, so that interface is used if it is up and has any IPv4
// address.
func PickLAN(all []Iface, name string) ([]Iface, error) {
	if name != "" {
		for _, ifc := range all {
			if ifc.Name != name {
				continue
			}
			if ifc.Flags&net.FlagUp == 0 {
				return nil, fmt.Errorf("interface %s is down", name)
			}
			v4 := ipv4s(ifc.Addrs, func(netip.Addr) bool { return true })
			if len(v4) == 0 {
				return nil, fmt.Errorf("interface %s has no IPv4 address", name)
			}
			ifc.Addrs = v4
			return []Iface{ifc}, nil
		}
		return nil, fmt.Errorf("no interface named %q (see `ip link` or `ifconfig`)", name)
	}
	var out []Iface
	for _, ifc := range all {
		if ifc.Flags&net.FlagUp == 0 || ifc.Flags&net.FlagMulticast == 0 ||
			ifc.Flags&(net.FlagLoopback|net.FlagPointToPoint) != 0 || virtualName(ifc.Name) {
			continue
		}
		v4 := ipv4s(ifc.Addrs, func(a netip.Addr) bool { return lanRank(a) < len(lanPrefixes) })
		if len(v4) == 0 {
			continue
		}
		ifc.Addrs = v4
		out = append(out, ifc)
	}
	if len(out) == 0 {
		return nil, ErrNoLAN
	}
	// Best range first; the system's order breaks ties.
	slices.SortStableFunc(out, func(a, b Iface) int { return lanRank(a.Addrs[0]) - lanRank(b.Addrs[0]) })
	return out, nil
}

// ipv4s keeps the IPv4 addresses of addrs that pass keep, best range first.
func ipv4s(addrs []netip.Addr, keep func(netip.Addr) bool) []netip.Addr {
	var out []netip.Addr
	for _, a := range addrs {
		a = a.Unmap()
		if a.Is4() && !a.IsLoopback() && !a.IsUnspecified() && keep(a) {
			out = append(out, a)
		}
	}
	slices.SortStableFunc(out, func(a, b netip.Addr) int { return lanRank(a) - lanRank(b) })
	return out
}

// lanRank is the index of a's range in lanPrefixes, len(lanPrefixes) if none.
func lanRank(a netip.Addr) int {
	for i, p := range lanPrefixes {
		if p.Contains(a) {
			return i
		}
	}
	return len(lanPrefixes)
}

func virtualName(name string) bool {
	n := strings.ToLower(name)
	for _, p := range virtualPrefixes {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	return false
}

// tcpAddr is the multiaddress of ip and a TCP port.
func TcpAddr(ip netip.Addr, port int) (ma.Multiaddr, error) {
	ipProto := "ip4"
	if !ip.Unmap().Is4() {
		ipProto = "ip6"
	}
	return ma.NewMultiaddr("/" + ipProto + "/" + ip.Unmap().String() + "/tcp/" + strconv.Itoa(port))
}

// isTCP reports whether a is exactly /ip4|ip6/…/tcp/… (a /p2p suffix aside).
func IsTCP(a ma.Multiaddr) bool {
	a, _ = peer.SplitAddr(a)
	if len(a) != 2 {
		return false
	}
	c := a[0].Protocol().Code
	return (c == ma.P_IP4 || c == ma.P_IP6) && a[1].Protocol().Code == ma.P_TCP
}
