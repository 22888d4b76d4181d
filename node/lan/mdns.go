package lan

// Tables on a real LAN, over multicast DNS (github.com/hashicorp/mdns). What
// that library needs, measured on v1.0.7 (see also node/netns):
//   - the interface named on both the server and the query;
//   - IPv6 off in queries: one failing IPv6 send abandons the whole query;
//   - the service's host name and IPs given, or it asks DNS for them;
//   - the entries channel read while the query runs: results nobody reads
//     are dropped;
//   - polling: the server only answers, it never announces. A cancelled
//     query still waits out its timeout, so timeouts are short;
//   - an IPv4 route for 224.0.0.0/4 on the interface, or the browser's
//     multicast listener fails (the query then returns an error, which
//     OnError reports).
// Everything a browser shows is in one TXT record; addresses are left out of
// it (the A and SRV records give the IP and port, the TXT the peer ID), which
// keeps the answer far below one MTU.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/bullshit-game/bullshit/node/table"
	"github.com/hashicorp/mdns"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/miekg/dns"
	ma "github.com/multiformats/go-multiaddr"
)

// MDNSService is the DNS-SD service type of a table.
const MDNSService = "_bullshit._tcp"

const mdnsDomain = "local."

// Browsing defaults: a new table shows within one poll plus a round trip
// (≤ 500 ms median, ≤ 1 s worst); a table missing for ~5 polls is gone.
const (
	DefaultPoll         = 300 * time.Millisecond
	DefaultQueryTimeout = 200 * time.Millisecond
	DefaultExpire       = 1500 * time.Millisecond
)

// Longest field values on the wire, in bytes. Each TXT string must stay
// under 255 bytes; together they keep an answer packet under 700 bytes.
const (
	maxTXTName    = 63
	maxTXTNick    = 32
	maxTXTPreset  = 32
	maxTXTPhase   = 16
	maxTXTVersion = 32
)

// txtSchema is the version of the TXT layout below; browsers skip others.
const txtSchema = "1"

// mdnsQuiet silences hashicorp/mdns, which logs to stderr, under the UI.
var mdnsQuiet = log.New(io.Discard, "", 0)

// MDNSAdvertiser advertises one table on one interface.
type MDNSAdvertiser struct {
	ifc  Iface
	mu   sync.Mutex
	srv  *mdns.Server
	zone liveZone
}

// NewMDNSAdvertiser makes an advertiser for ifc (one of LAN's results).
func NewMDNSAdvertiser(ifc Iface) *MDNSAdvertiser { return &MDNSAdvertiser{ifc: ifc} }

// Advertise starts answering queries for t, or changes the answer. The IP
// and port come from t.Addrs: its TCP addresses on the advertiser's interface.
func (a *MDNSAdvertiser) Advertise(t TableInfo) error {
	svc, err := mdnsService(t, a.ifc)
	if err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.zone.svc.Store(svc)
	if a.srv != nil {
		return nil
	}
	iface := a.ifc.Interface
	srv, err := mdns.NewServer(&mdns.Config{Zone: &a.zone, Iface: &iface, Logger: mdnsQuiet})
	if err != nil {
		a.zone.svc.Store(nil)
		return fmt.Errorf("mDNS on %s: %w", a.ifc.Name, err)
	}
	a.srv = srv
	return nil
}

// Stop stops answering; browsers drop the table after DefaultExpire.
func (a *MDNSAdvertiser) Stop() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.zone.svc.Store(nil)
	if a.srv == nil {
		return nil
	}
	err := a.srv.Shutdown()
	a.srv = nil
	return err
}

// liveZone lets Advertise change the answer without restarting the server.
type liveZone struct {
	svc atomic.Pointer[mdns.MDNSService]
}

func (z *liveZone) Records(q dns.Question) []dns.RR {
	if s := z.svc.Load(); s != nil {
		return s.Records(q)
	}
	return nil
}

// mdnsService builds the DNS-SD records of t on ifc.
func mdnsService(t TableInfo, ifc Iface) (*mdns.MDNSService, error) {
	if err := t.check(); err != nil {
		return nil, err
	}
	ips, port := ifaceEndpoint(t.Addrs, ifc)
	if port == 0 {
		return nil, fmt.Errorf("node: table has no TCP address on %s", ifc.Name)
	}
	// The instance and host names are DNS labels: a hash keeps whatever the
	// table ID holds out of them, and a host name per table keeps tables of
	// one machine apart in the library's alias bookkeeping.
	sum := sha256.Sum256([]byte(t.key()))
	inst := "t" + hex.EncodeToString(sum[:8])
	return mdns.NewMDNSService(inst, MDNSService, mdnsDomain, inst+"."+mdnsDomain, port, ips, encodeTXT(t))
}

// ifaceEndpoint picks from addrs the IPv4 TCP addresses on ifc that share
// the first one's port. An unspecified address (0.0.0.0) stands for all of
// ifc's addresses.
func ifaceEndpoint(addrs []ma.Multiaddr, ifc Iface) ([]net.IP, int) {
	var ips []net.IP
	port := 0
	for _, a := range addrs {
		if !IsTCP(a) {
			continue
		}
		a, _ = peer.SplitAddr(a)
		ip, ok := netip.AddrFromSlice(a[0].RawValue())
		if !ok || !ip.Unmap().Is4() {
			continue
		}
		p, err := strconv.Atoi(a[1].Value())
		if err != nil || p <= 0 || p > 65535 || (port != 0 && p != port) {
			continue
		}
		ip = ip.Unmap()
		if ip.IsUnspecified() {
			for _, ia := range ifc.Addrs {
				if ia.Unmap().Is4() {
					ips = append(ips, net.IP(ia.Unmap().AsSlice()))
					port = p
				}
			}
			continue
		}
		for _, ia := range ifc.Addrs {
			if ia.Unmap() == ip {
				ips = append(ips, net.IP(ip.AsSlice()))
				port = p
			}
		}
	}
	return ips, port
}

// encodeTXT is t as TXT strings key=value, each under 255 bytes.
func encodeTXT(t TableInfo) []string {
	priv := "0"
	if t.Private {
		priv = "1"
	}
	return escapeTXT(
		"bs="+txtSchema,
		"id="+t.ID,
		"peer="+t.HostPeer.String(),
		"name="+clipText(t.Name, maxTXTName),
		"host="+clipText(t.Host, maxTXTNick),
		"seats="+strconv.Itoa(clampCount(t.Seats)),
		"taken="+strconv.Itoa(clampCount(t.Taken)),
		"preset="+clipText(t.Preset, maxTXTPreset),
		"phase="+clipText(string(t.Phase), maxTXTPhase),
		"ver="+clipText(t.Version, maxTXTVersion),
		"priv="+priv,
	)
}

// escapeTXT turns raw strings into the presentation form miekg/dns packs:
// there a backslash starts an escape (\\ or \DDD).
func escapeTXT(raw ...string) []string {
	for i, s := range raw {
		raw[i] = strings.ReplaceAll(s, `\`, `\\`)
	}
	return raw
}

// unescapeTXT undoes the presentation form miekg/dns unpacks TXT strings
// into: bytes outside printable ASCII come as \DDD, '"' and '\' as \" and \\.
func unescapeTXT(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		if d := s[i+1:]; len(d) >= 3 && isDigit(d[0]) && isDigit(d[1]) && isDigit(d[2]) {
			if n := int(d[0]-'0')*100 + int(d[1]-'0')*10 + int(d[2]-'0'); n <= 255 {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i+1])
		i++
	}
	return b.String()
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// decodeEntry reads a table from an mDNS answer; ok is false when the answer
// is not one of ours or lacks what is needed to dial. Text is cleaned of
// control characters: it ends up on a player's terminal.
func decodeEntry(e *mdns.ServiceEntry) (t TableInfo, ok bool) {
	if e == nil || e.Port <= 0 || e.Port > 65535 {
		return t, false
	}
	f := map[string]string{}
	for _, s := range e.InfoFields {
		if k, v, found := strings.Cut(unescapeTXT(s), "="); found {
			if _, dup := f[k]; !dup {
				f[k] = v
			}
		}
	}
	if f["bs"] != txtSchema {
		return t, false
	}
	pid, err := peer.Decode(f["peer"])
	if err != nil {
		return t, false
	}
	t = TableInfo{
		ID:       f["id"],
		HostPeer: pid,
		Name:     clipText(f["name"], maxTXTName),
		Host:     clipText(f["host"], maxTXTNick),
		Seats:    txtInt(f["seats"]),
		Taken:    txtInt(f["taken"]),
		Preset:   clipText(f["preset"], maxTXTPreset),
		Phase:    table.TablePhase(clipText(f["phase"], maxTXTPhase)),
		Version:  clipText(f["ver"], maxTXTVersion),
		Private:  f["priv"] == "1",
	}
	if t.check() != nil {
		return t, false
	}
	ip, okIP := netip.AddrFromSlice(e.AddrV4)
	if !okIP || !ip.Unmap().Is4() {
		return t, false
	}
	addr, err := TcpAddr(ip, e.Port)
	if err != nil {
		return t, false
	}
	t.Addrs = []ma.Multiaddr{addr}
	return t, true
}

// clipText makes s printable and at most max bytes, cutting at a rune boundary.
func clipText(s string, max int) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || isBidi(r) {
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, ""))
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

// isBidi reports the directional overrides that can make a name display as
// something else.
func isBidi(r rune) bool {
	return (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069) || r == 0x200E || r == 0x200F
}

func clampCount(n int) int { return min(max(n, 0), 999) }

func txtInt(s string) int {
	if len(s) > 3 {
		return 0
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0
	}
	return clampCount(n)
}

// MDNSBrowser finds tables on one interface by polling. Change the fields
// before calling Browse.
type MDNSBrowser struct {
	Iface   Iface
	Poll    time.Duration // time between query starts
	Timeout time.Duration // how long each query listens for answers
	Expire  time.Duration // a table not heard of for this long is gone
	// OnError, if set, hears why queries fail (nil when they work again),
	// once per change, from the browsing goroutine.
	OnError func(error)
}

// NewMDNSBrowser makes a browser for ifc with the default timings.
func NewMDNSBrowser(ifc Iface) *MDNSBrowser {
	return &MDNSBrowser{Iface: ifc, Poll: DefaultPoll, Timeout: DefaultQueryTimeout, Expire: DefaultExpire}
}

// Browse polls until ctx ends. The channel closes up to Timeout after that:
// hashicorp/mdns finishes a query's wait even when cancelled.
func (b *MDNSBrowser) Browse(ctx context.Context) <-chan []TableInfo {
	poll := durOr(b.Poll, DefaultPoll)
	timeout := min(durOr(b.Timeout, DefaultQueryTimeout), poll)
	expire := durOr(b.Expire, DefaultExpire)
	iface := b.Iface.Interface
	onErr := b.OnError

	out := newTableFeed()
	out.push([]TableInfo{})
	go func() {
		defer close(out)
		tables := map[string]TableInfo{}
		var lastErr error
		tick := time.NewTicker(poll)
		defer tick.Stop()
		for ctx.Err() == nil {
			entries := make(chan *mdns.ServiceEntry, 64)
			drained := make(chan struct{})
			go func() {
				// Runs while the query waits, so a table shows as soon as
				// its answer arrives, not when the query ends.
				defer close(drained)
				for e := range entries {
					t, ok := decodeEntry(e)
					if !ok {
						continue
					}
					t.Seen = time.Now()
					old, had := tables[t.key()]
					tables[t.key()] = t
					if !had || !sameTable(old, t) {
						out.push(tableList(tables))
					}
				}
			}()
			err := mdns.QueryContext(ctx, &mdns.QueryParam{
				Service:     MDNSService,
				Domain:      mdnsDomain,
				Timeout:     timeout,
				Interface:   &iface,
				Entries:     entries,
				DisableIPv6: true,
				Logger:      mdnsQuiet,
			})
			close(entries)
			<-drained
			if ctx.Err() != nil {
				return
			}
			if onErr != nil && !sameErr(err, lastErr) {
				onErr(err)
			}
			lastErr = err

			changed := false
			now := time.Now()
			for k, t := range tables {
				if now.Sub(t.Seen) > expire {
					delete(tables, k)
					changed = true
				}
			}
			if changed {
				out.push(tableList(tables))
			}
			select {
			case <-ctx.Done():
			case <-tick.C:
			}
		}
	}()
	return out
}

func sameErr(a, b error) bool {
	if a == nil || b == nil {
		return a == b
	}
	return errors.Is(a, b) || a.Error() == b.Error()
}

func durOr(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}
