package lan

import (
	"errors"
	"net"
	"net/netip"
	"slices"
	"testing"
)

const (
	flagUp   = net.FlagUp | net.FlagMulticast | net.FlagBroadcast | net.FlagRunning
	flagLo   = net.FlagUp | net.FlagLoopback | net.FlagRunning
	flagPtP  = net.FlagUp | net.FlagPointToPoint | net.FlagMulticast
	flagNoMC = net.FlagUp | net.FlagBroadcast
	flagDown = net.FlagMulticast | net.FlagBroadcast
)

func fakeIface(idx int, name string, flags net.Flags, addrs ...string) Iface {
	ifc := Iface{Interface: net.Interface{Index: idx, Name: name, Flags: flags, MTU: 1500}}
	for _, a := range addrs {
		ifc.Addrs = append(ifc.Addrs, netip.MustParseAddr(a))
	}
	return ifc
}

func ifaceNames(ifs []Iface) []string {
	var out []string
	for _, i := range ifs {
		out = append(out, i.Name)
	}
	return out
}

// A laptop at home: loopback, Wi-Fi, Docker and a VPN; only the Wi-Fi is a LAN.
func TestPickLAN_Laptop(t *testing.T) {
	all := []Iface{
		fakeIface(1, "lo", flagLo, "127.0.0.1", "::1"),
		fakeIface(2, "wlp2s0", flagUp, "fe80::1", "192.168.1.23"),
		fakeIface(3, "docker0", flagUp, "172.17.0.1"),
		fakeIface(4, "br-5f2a", flagUp, "172.18.0.1"),
		fakeIface(5, "veth12ab", flagUp, "169.254.3.3"),
		fakeIface(6, "tailscale0", flagPtP, "100.101.102.103"),
		fakeIface(7, "virbr0", flagUp, "192.168.122.1"),
		fakeIface(8, "wg0", flagNoMC, "10.8.0.2"),
	}
	got, err := PickLAN(all, "")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ifaceNames(got), []string{"wlp2s0"}) {
		t.Fatalf("picked %v, want [wlp2s0]", ifaceNames(got))
	}
	if !slices.Equal(got[0].Addrs, []netip.Addr{netip.MustParseAddr("192.168.1.23")}) {
		t.Fatalf("addrs %v, want only the private IPv4", got[0].Addrs)
	}
}

// Which interfaces qualify on their own, one row per rule.
func TestPickLAN_Rules(t *testing.T) {
	cases := []struct {
		name string
		ifc  Iface
		ok   bool
	}{
		{"ethernet 10/8", fakeIface(2, "eth0", flagUp, "10.0.0.5"), true},
		{"172.16/12", fakeIface(2, "en0", flagUp, "172.20.1.1"), true},
		{"172.32 is public", fakeIface(2, "en0", flagUp, "172.32.1.1"), false},
		{"CGNAT hotspot", fakeIface(2, "wlan0", flagUp, "100.64.3.4"), true},
		{"link-local cable", fakeIface(2, "eth0", flagUp, "169.254.10.20"), true},
		{"public address", fakeIface(2, "eth0", flagUp, "8.8.4.4"), false},
		{"IPv6 only", fakeIface(2, "eth0", flagUp, "fd00::1", "fe80::2"), false},
		{"down", fakeIface(2, "eth0", flagDown, "192.168.1.2"), false},
		{"no multicast", fakeIface(2, "eth0", flagNoMC, "192.168.1.2"), false},
		{"point-to-point", fakeIface(2, "ppp0", flagPtP, "10.1.1.1"), false},
		{"loopback", fakeIface(1, "lo0", flagLo|net.FlagMulticast, "127.0.0.1"), false},
		{"docker name", fakeIface(2, "docker0", flagUp, "172.17.0.1"), false},
		{"cni name", fakeIface(2, "cni0", flagUp, "10.22.0.1"), false},
		{"flannel name", fakeIface(2, "flannel.1", flagUp, "10.244.0.0"), false},
		{"calico name", fakeIface(2, "cali1234", flagUp, "10.1.2.3"), false},
		{"VirtualBox name", fakeIface(2, "vboxnet0", flagUp, "192.168.56.1"), false},
		{"Apple AWDL", fakeIface(2, "awdl0", flagUp, "169.254.1.1"), false},
		{"plain bridge is allowed", fakeIface(2, "br0", flagUp, "192.168.0.10"), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := PickLAN([]Iface{c.ifc}, "")
			if c.ok && (err != nil || len(got) != 1) {
				t.Fatalf("want picked, got %v, %v", ifaceNames(got), err)
			}
			if !c.ok && !errors.Is(err, ErrNoLAN) {
				t.Fatalf("want ErrNoLAN, got %v, %v", ifaceNames(got), err)
			}
		})
	}
}

// Several LANs: home ranges before 10/8, link-local last; ties keep system order.
func TestPickLAN_Order(t *testing.T) {
	all := []Iface{
		fakeIface(2, "eth1", flagUp, "169.254.1.1"),
		fakeIface(3, "eth0", flagUp, "10.0.0.2"),
		fakeIface(4, "wlan0", flagUp, "10.9.9.9", "192.168.0.4"),
		fakeIface(5, "eth2", flagUp, "10.0.0.3"),
	}
	got, err := PickLAN(all, "")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"wlan0", "eth0", "eth2", "eth1"}; !slices.Equal(ifaceNames(got), want) {
		t.Fatalf("order %v, want %v", ifaceNames(got), want)
	}
	if got[0].Addrs[0] != netip.MustParseAddr("192.168.0.4") {
		t.Fatalf("wlan0 best address %v, want 192.168.0.4", got[0].Addrs[0])
	}
}

// --iface overrides the guesses but not physics: it must exist, be up and have IPv4.
func TestPickLAN_Override(t *testing.T) {
	all := []Iface{
		fakeIface(2, "docker0", flagUp, "172.17.0.1"),
		fakeIface(3, "eth0", flagDown, "192.168.1.2"),
		fakeIface(4, "v6", flagUp, "fd00::1"),
		fakeIface(5, "campus", flagUp, "130.1.2.3"),
	}
	got, err := PickLAN(all, "docker0")
	if err != nil || !slices.Equal(ifaceNames(got), []string{"docker0"}) {
		t.Fatalf("override docker0: %v, %v", ifaceNames(got), err)
	}
	got, err = PickLAN(all, "campus")
	if err != nil || got[0].Addrs[0] != netip.MustParseAddr("130.1.2.3") {
		t.Fatalf("override with a public address: %v, %v", got, err)
	}
	for _, bad := range []string{"eth0", "v6", "nope"} {
		if got, err := PickLAN(all, bad); err == nil {
			t.Errorf("override %q: got %v, want an error", bad, ifaceNames(got))
		}
	}
}

func TestPickLAN_NothingFits(t *testing.T) {
	for _, all := range [][]Iface{nil, {fakeIface(1, "lo", flagLo, "127.0.0.1")}} {
		_, err := PickLAN(all, "")
		if !errors.Is(err, ErrNoLAN) {
			t.Fatalf("got %v, want ErrNoLAN", err)
		}
	}
	if ErrNoLAN.Error() != "no LAN interface found: connect to Wi-Fi, or pass --iface" {
		t.Fatalf("message changed: %q", ErrNoLAN)
	}
}

// PickLAN must not change the caller's list.
func TestPickLAN_NoAliasing(t *testing.T) {
	all := []Iface{fakeIface(2, "eth0", flagUp, "fe80::1", "10.0.0.1")}
	if _, err := PickLAN(all, ""); err != nil {
		t.Fatal(err)
	}
	if len(all[0].Addrs) != 2 {
		t.Fatalf("caller's addresses changed: %v", all[0].Addrs)
	}
}
