package lan

// mDNS without a network: the records and their decoding. The real multicast
// test is in netns_test.go.

import (
	"net"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bullshit-game/bullshit/node/table"
	"github.com/hashicorp/mdns"
	"github.com/miekg/dns"
	ma "github.com/multiformats/go-multiaddr"
)

var testLAN0 = fakeIface(2, "lan0", flagUp, "10.77.1.1")

// entryFor answers a browser's PTR query the way the server would, and reads
// the answer back the way the client does; it also returns the packet size.
func entryFor(t testing.TB, svc *mdns.MDNSService) (*mdns.ServiceEntry, int) {
	t.Helper()
	e, n, err := mdnsAnswer(svc)
	if err != nil {
		t.Fatal(err)
	}
	return e, n
}

func mdnsAnswer(svc *mdns.MDNSService) (*mdns.ServiceEntry, int, error) {
	q := dns.Question{Name: MDNSService + ".local.", Qtype: dns.TypePTR, Qclass: dns.ClassINET}
	resp := &dns.Msg{MsgHdr: dns.MsgHdr{Response: true, Authoritative: true}, Compress: true, Answer: svc.Records(q)}
	wire, err := resp.Pack()
	if err != nil {
		return nil, 0, err
	}
	var back dns.Msg
	if err := back.Unpack(wire); err != nil {
		return nil, 0, err
	}
	e := &mdns.ServiceEntry{}
	for _, rr := range back.Answer {
		switch rr := rr.(type) {
		case *dns.SRV:
			e.Name, e.Host, e.Port = rr.Hdr.Name, rr.Target, int(rr.Port)
		case *dns.TXT:
			e.InfoFields = rr.Txt
		case *dns.A:
			e.AddrV4 = rr.A
		}
	}
	return e, len(wire), nil
}

func TestMDNSRecords_RoundTrip(t *testing.T) {
	in := testTable(`t\42"`, `Friday "night" \o/ ♠ 🂡`)
	in.Addrs = []ma.Multiaddr{ma.StringCast("/ip4/10.77.1.1/tcp/4001"), ma.StringCast("/ip4/127.0.0.1/tcp/4001")}
	in.Private, in.Taken, in.Seats = true, 3, 5
	svc, err := mdnsService(in, testLAN0)
	if err != nil {
		t.Fatal(err)
	}
	e, _ := entryFor(t, svc)
	got, ok := decodeEntry(e)
	if !ok {
		t.Fatalf("decode failed: %+v", e)
	}
	want := in
	want.Addrs = []ma.Multiaddr{ma.StringCast("/ip4/10.77.1.1/tcp/4001")} // only the interface's address
	if !sameTable(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
}

// Worst case: longest fields, 4-byte runes, control characters. Every TXT
// string stays under 255 bytes and the answer fits in one Ethernet frame.
func TestMDNSRecords_Limits(t *testing.T) {
	long := strings.Repeat("🂡", 200) + "\x1b[31m\\"
	in := TableInfo{
		ID: strings.Repeat(`\`, MaxTableID), Name: long, Host: long, HostPeer: mustPeer(testPeer),
		Seats: 1 << 30, Taken: -5, Preset: long, Phase: table.TablePhase(long), Version: long, Private: true,
		Addrs: []ma.Multiaddr{ma.StringCast("/ip4/10.77.1.1/tcp/65535")},
	}
	svc, err := mdnsService(in, testLAN0)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range svc.TXT {
		if len(unescapeTXT(s)) >= 255 {
			t.Errorf("TXT string of %d bytes: %.40q…", len(s), s)
		}
		if !utf8.ValidString(s) || strings.ContainsRune(s, '\x1b') {
			t.Errorf("TXT string not clean: %q", s)
		}
	}
	e, size := entryFor(t, svc)
	if size > 1472 { // 1500-byte MTU minus IPv4 and UDP headers
		t.Errorf("answer is %d bytes, over one MTU", size)
	}
	t.Logf("worst-case answer: %d bytes", size)
	got, ok := decodeEntry(e)
	if !ok {
		t.Fatal("decode failed")
	}
	if got.ID != in.ID {
		t.Errorf("ID changed on the wire: %q", got.ID)
	}
	if got.Seats != 999 || got.Taken != 0 {
		t.Errorf("seats %d taken %d, want clamped to 999 and 0", got.Seats, got.Taken)
	}
	if len(got.Name) > maxTXTName || !utf8.ValidString(got.Name) || !strings.HasPrefix(got.Name, "🂡") {
		t.Errorf("name %q not cut at a rune boundary", got.Name)
	}
}

func TestClip(t *testing.T) {
	cases := []struct {
		in   string
		max  int
		want string
	}{
		{"abc", 5, "abc"},
		{"abcdef", 3, "abc"},
		{"é", 1, ""},     // 2 bytes, no room
		{"aé", 2, "a"},   // never half a rune
		{"a🂡b", 5, "a🂡"}, // 1+4 bytes
		{"a\x00b\nc", 9, "abc"},
		{"x\u202Eevil", 9, "xevil"}, // bidi override
		{"\xff\xfeok", 9, "ok"},     // invalid UTF-8
		{"", 0, ""},
	}
	for _, c := range cases {
		if got := clipText(c.in, c.max); got != c.want {
			t.Errorf("clipText(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
		}
	}
}

// Answers that are not ours, or that lack what is needed to dial, are skipped.
func TestDecodeEntry_Rejects(t *testing.T) {
	good := func() *mdns.ServiceEntry {
		svc, err := mdnsService(testTable("t1", "x"), testLAN0)
		if err != nil {
			t.Fatal(err)
		}
		e, _ := entryFor(t, svc)
		return e
	}
	if _, ok := decodeEntry(good()); !ok {
		t.Fatal("good entry rejected")
	}
	edit := func(f func(e *mdns.ServiceEntry)) *mdns.ServiceEntry { e := good(); f(e); return e }
	replace := func(key, val string) func(e *mdns.ServiceEntry) {
		return func(e *mdns.ServiceEntry) {
			for i, s := range e.InfoFields {
				if strings.HasPrefix(s, key+"=") {
					e.InfoFields[i] = key + "=" + val
				}
			}
		}
	}
	cases := map[string]*mdns.ServiceEntry{
		"nil":           nil,
		"other schema":  edit(replace("bs", "2")),
		"bad peer":      edit(replace("peer", "nope")),
		"no id":         edit(replace("id", "")),
		"no port":       edit(func(e *mdns.ServiceEntry) { e.Port = 0 }),
		"huge port":     edit(func(e *mdns.ServiceEntry) { e.Port = 70000 }),
		"no IPv4":       edit(func(e *mdns.ServiceEntry) { e.AddrV4 = nil }),
		"IPv6 as IPv4":  edit(func(e *mdns.ServiceEntry) { e.AddrV4 = net.ParseIP("fe80::1") }),
		"no TXT at all": edit(func(e *mdns.ServiceEntry) { e.InfoFields = nil }),
	}
	for name, e := range cases {
		if tab, ok := decodeEntry(e); ok {
			t.Errorf("%s: accepted %+v", name, tab)
		}
	}
	// Unknown keys and a repeated key do not hurt; the first value wins.
	e := good()
	e.InfoFields = append(e.InfoFields, "future=1", "junk", "name=second")
	if tab, ok := decodeEntry(e); !ok || tab.Name != "x" {
		t.Errorf("extra TXT: %+v, %v", tab, ok)
	}
}

// The advertised endpoint is the table's address on the advertiser's interface.
func TestIfaceEndpoint(t *testing.T) {
	two := fakeIface(2, "eth0", flagUp, "10.0.0.1", "192.168.1.5")
	cases := []struct {
		name  string
		addrs []string
		ips   string
		port  int
	}{
		{"one match", []string{"/ip4/127.0.0.1/tcp/9", "/ip4/192.168.1.5/tcp/4001"}, "192.168.1.5", 4001},
		{"unspecified", []string{"/ip4/0.0.0.0/tcp/4002"}, "10.0.0.1,192.168.1.5", 4002},
		{"first port wins", []string{"/ip4/10.0.0.1/tcp/1", "/ip4/192.168.1.5/tcp/2"}, "10.0.0.1", 1},
		{"p2p suffix", []string{"/ip4/10.0.0.1/tcp/7/p2p/" + testPeer}, "10.0.0.1", 7},
		{"not on iface", []string{"/ip4/10.0.0.2/tcp/1"}, "", 0},
		{"udp only", []string{"/ip4/10.0.0.1/udp/1/quic-v1"}, "", 0},
		{"ipv6", []string{"/ip6/fe80::1/tcp/1"}, "", 0},
	}
	for _, c := range cases {
		var as []ma.Multiaddr
		for _, s := range c.addrs {
			as = append(as, ma.StringCast(s))
		}
		ips, port := ifaceEndpoint(as, two)
		var got []string
		for _, ip := range ips {
			got = append(got, ip.String())
		}
		if strings.Join(got, ",") != c.ips || port != c.port {
			t.Errorf("%s: got %v port %d, want %s port %d", c.name, got, port, c.ips, c.port)
		}
	}
	if _, err := mdnsService(testTable("t", "x"), fakeIface(3, "wlan0", flagUp, "192.168.9.9")); err == nil {
		t.Error("a table with no address on the interface was accepted")
	}
}

// Changing the advertised table changes the answer without a new server.
func TestLiveZone(t *testing.T) {
	var z liveZone
	q := dns.Question{Name: MDNSService + ".local.", Qtype: dns.TypePTR, Qclass: dns.ClassINET}
	if rr := z.Records(q); rr != nil {
		t.Fatalf("empty zone answers %v", rr)
	}
	s1, _ := mdnsService(testTable("t1", "one"), testLAN0)
	z.svc.Store(s1)
	if len(z.Records(q)) == 0 {
		t.Fatal("no answer")
	}
	z.svc.Store(nil)
	if rr := z.Records(q); rr != nil {
		t.Fatalf("stopped zone answers %v", rr)
	}
}

// Whatever arrives in a TXT record, decoding does not panic and what it
// keeps is clean and bounded.
func FuzzDecodeTXT(f *testing.F) {
	svc, _ := mdnsService(testTable("t1", "x"), testLAN0)
	f.Add(strings.Join(svc.TXT, "\n"), 4001)
	f.Add("bs=1\nid=\nname=\xff", -1)
	f.Fuzz(func(t *testing.T, txt string, port int) {
		e := &mdns.ServiceEntry{AddrV4: net.IPv4(10, 0, 0, 1), Port: port, InfoFields: strings.Split(txt, "\n")}
		tab, ok := decodeEntry(e)
		if !ok {
			return
		}
		for _, s := range []string{tab.Name, tab.Host, tab.Preset, string(tab.Phase), tab.Version} {
			if !utf8.ValidString(s) || len(s) > 64 || strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
				t.Fatalf("unclean field %q", s)
			}
		}
		if tab.Seats < 0 || tab.Seats > 999 || tab.Taken < 0 || tab.Taken > 999 {
			t.Fatalf("seats %d taken %d", tab.Seats, tab.Taken)
		}
		// Re-encoding what was decoded and decoding again gives the same table.
		svc, err := mdnsService(tab, fakeIface(2, "x", flagUp, "10.0.0.1"))
		if err != nil {
			t.Fatalf("decoded table cannot be advertised: %v", err)
		}
		e2, _ := entryFor(t, svc)
		tab2, ok := decodeEntry(e2)
		if !ok || !sameTable(tab, tab2) {
			t.Fatalf("round trip changed %+v into %+v", tab, tab2)
		}
	})
}
