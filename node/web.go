// This file is a node's web entry: the page a phone plays in (the assets
// are given in: node never imports the page) and /ws, where the page's
// player takes a seat at the table this node hosts.
//
// A phone speaks over /ws exactly what a libp2p stream carries (webwire
// proves its key and seals the bytes), so the host serves it through the
// same Server.serve as any player, under the same envelope checks. What is
// the web entry's own: it listens on the LAN address only, answers private
// sources only (RFC 1918, RFC 4193, link-local, loopback), answers only a
// Host that is one of this node's own addresses (not a name someone else's
// DNS points here: DNS rebinding), refuses a page of another site (its
// Origin), and bounds how often and how many
// times at once one address may open /ws. A node that does not host the
// table answers with a "not_host" refusal: the phone tries the next
// player node's address (the Lobby's WebAddr) until one takes it back.

package node

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/x/rate"

	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/guard"
	"github.com/bullshit-game/bullshit/node/lan"
	"github.com/bullshit-game/bullshit/node/table"
	"github.com/bullshit-game/bullshit/node/webwire"
	"github.com/bullshit-game/bullshit/node/webwire/coderws"
	"github.com/bullshit-game/bullshit/protocol"
)

// WebConfig says where a node serves phones.
type WebConfig struct {
	// Addr is where to listen: "" for the LAN address at WebPort or the next
	// free port up to WebPortLast; ":PORT" for the LAN address at PORT;
	// "HOST:PORT" as given (tests: 127.0.0.1:0). An unspecified host
	// (0.0.0.0, ::) is refused: the entry listens on the LAN only.
	Addr string
	// Assets serves every path but /ws (the page); nil answers 404.
	Assets http.Handler
}

// The ports tried for the default address.
const (
	WebPort     = 8080
	WebPortLast = 8090
)

// The web entry's limits, per source address as node/guard/limits.go counts it
// (an IPv4 address or an IPv6 /64) and in all. A phone holds one /ws; a
// reload overlaps the next with the last for a moment.
//
// A /ws connection is a newcomer until its player is through the door's
// checks (the channel's handshake, the hello and, at a private table, the
// join code: Server.join calls admitted), then it is established. The two
// are counted apart, so that strangers who never finish can't keep a
// phone out (issue 21, 5): newcomers have a pool of their own, each has
// WebHandshake to get through, and when the pool is full a newcomer is
// let in by closing the oldest newcomer of the address holding the most,
// never refused for the pool. A phone holds one newcomer at a time, so it
// is closed for a newcomer only once every address in the pool holds no
// more than one: the pool is larger than the addresses of a /24 LAN
// (253), so on such a LAN that can't happen; on a bigger one a newcomer
// lives WebNewcomers opens after it, far longer than a phone's few round
// trips on a LAN, at the rate opens are allowed (StreamsPerAddr each).
// Established connections are placed players and spectators (at most
// MaxSeats and MaxWatchers, and a rejoin's overlap), bounded by WebConns.
var (
	WebConnsPerAddr = 4 // newcomers and established together
	WebConns        = 64
	// WebNewcomers is the newcomers' pool.
	WebNewcomers = 256
	// WebHandshake is how long a newcomer has to get through the door: a
	// phone on a LAN needs a few round trips and a few milliseconds of
	// its own (well under a second on a slow phone).
	WebHandshake = 3 * time.Second
	// WebDialsPerAddr is how fast one address may open TCP connections to
	// the entry, for the page or for /ws: a burst, then a rate. A
	// connection past it is closed as it is accepted, before a byte of
	// HTTP is read: a flood of opens costs the host an accept and a close
	// each, not a request parsed and a 429 written (issue 13's flood
	// bench measured 110 to 160 µs of host CPU for each of those). A phone
	// opens a few for the page and one for /ws; its player's rogue tests
	// (cmd/bullshit webrogue) some forty in a few seconds, each answered.
	WebDialsPerAddr = rate.Limit{RPS: 5, Burst: 60}
	// WebFilesPerAddr is how fast one address may ask for the page's
	// files over any connections, and WebPlayerPerAddr for the player
	// itself (/app.wasm, 1.5 MB): a visit asks for five files and the
	// player once. Past it a request is answered 429, so a keep-alive
	// connection can't pull the player over and over.
	WebFilesPerAddr  = rate.Limit{RPS: 5, Burst: 100}
	WebPlayerPerAddr = rate.Limit{RPS: 0.2, Burst: 20}
)

// Web is a node's web entry.
type Web struct {
	id     peer.ID
	key    ed25519.PrivateKey
	signer *protocol.Signer // for the not_host refusal
	assets http.Handler
	ln     net.Listener
	ip     netip.Addr // the address it listens on
	srv    *http.Server
	url    string
	opens  *rate.Limiter // how often an address may open /ws
	files  *rate.Limiter // how often an address may ask for a file of the page
	player *rate.Limiter // … and for the player (app.wasm)

	newcomers int           // WebNewcomers, as it was when the entry started
	handshake time.Duration // WebHandshake, likewise

	mu     sync.Mutex
	host   *Server            // the table this node hosts; nil when none
	open   map[netip.Addr]int // connections per address, newcomers and established
	fresh  map[*doorSlot]bool // the newcomers
	freshN map[netip.Addr]int // … per address
	total  int                // established connections
	closed bool

	// Refused counts what the entry turned away before a seat's envelope
	// checks: a source off the LAN, a foreign Origin, an address over its
	// limits, a failed handshake, a node that doesn't host.
	Refused atomic.Int64
	// Evicted counts newcomers closed to let a newer one in.
	Evicted atomic.Int64
}

// ErrWebAddr refuses an address the web entry may not listen on.
var ErrWebAddr = errors.New("node: the web address must be a LAN or loopback address (HOST:PORT)")

// ListenWeb starts the web entry of a node with identity key. lan is the
// node's LAN address, for an Addr without a host.
func ListenWeb(key crypto.PrivKey, lanIP netip.Addr, cfg WebConfig) (*Web, error) {
	raw, err := key.Raw()
	if err != nil || key.Type() != crypto.Ed25519 || len(raw) != ed25519.PrivateKeySize {
		return nil, errors.New("node: the web entry needs an ed25519 identity")
	}
	id, err := peer.IDFromPrivateKey(key)
	if err != nil {
		return nil, err
	}
	signer, err := newSigner(key)
	if err != nil {
		return nil, err
	}
	ln, err := webListen(cfg.Addr, lanIP)
	if err != nil {
		return nil, err
	}
	w := &Web{id: id, key: ed25519.PrivateKey(raw), signer: signer, assets: cfg.Assets, ln: ln,
		opens: webLimiter(guard.Unlimited), open: map[netip.Addr]int{}, fresh: map[*doorSlot]bool{}, freshN: map[netip.Addr]int{},
		files: guard.AddrLimiter(WebFilesPerAddr, guard.Unlimited), player: guard.AddrLimiter(WebPlayerPerAddr, guard.Unlimited),
		newcomers: WebNewcomers, handshake: WebHandshake}
	w.url = "http://" + ln.Addr().String()
	if ap, err := netip.ParseAddrPort(ln.Addr().String()); err == nil {
		w.ip = ap.Addr().Unmap()
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/ws", w.serveWS)
	mux.HandleFunc("/table", w.serveTable)
	mux.HandleFunc("/", w.serveAsset)
	w.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, IdleTimeout: time.Minute,
		MaxHeaderBytes: 16 << 10}
	go w.srv.Serve(&gateListener{Listener: ln, dials: guard.AddrLimiter(WebDialsPerAddr, guard.Unlimited), refused: &w.Refused})
	return w, nil
}

// gateListener closes, as it accepts it, a connection from an address
// over WebDialsPerAddr.
type gateListener struct {
	net.Listener
	dials   *rate.Limiter
	refused *atomic.Int64
}

func (l *gateListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		ap, err := netip.ParseAddrPort(c.RemoteAddr().String())
		if err == nil && !l.dials.Allow(ap.Addr().Unmap()) {
			l.refused.Add(1)
			c.Close()
			continue
		}
		return c, nil
	}
}

// webListen listens where cfg asks, on the LAN (or loopback) only.
func webListen(addr string, lanIP netip.Addr) (net.Listener, error) {
	if addr == "" {
		if !lanIP.IsValid() {
			return nil, lan.ErrNoLAN
		}
		var err error
		for p := WebPort; p <= WebPortLast; p++ {
			var ln net.Listener
			if ln, err = net.Listen("tcp", netip.AddrPortFrom(lanIP, uint16(p)).String()); err == nil {
				return ln, nil
			}
		}
		return nil, fmt.Errorf("no free port from %d to %d on %s: %w", WebPort, WebPortLast, lanIP, err)
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrWebAddr, err)
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return nil, fmt.Errorf("%w: port %q", ErrWebAddr, port)
	}
	ip := lanIP
	if host != "" {
		if ip, err = netip.ParseAddr(host); err != nil {
			return nil, fmt.Errorf("%w: %q is not an IP address", ErrWebAddr, host)
		}
	}
	if !ip.IsValid() {
		return nil, lan.ErrNoLAN
	}
	if ip = ip.Unmap(); ip.IsUnspecified() || !privateSource(ip) {
		return nil, fmt.Errorf("%w: not %s", ErrWebAddr, ip)
	}
	return net.Listen("tcp", net.JoinHostPort(ip.String(), port))
}

// URL is the entry's base address, as a phone types it
// (http://192.168.1.20:8080).
func (w *Web) URL() string { return w.url }

// Close stops the entry and drops its connections.
func (w *Web) Close() error {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
	return w.srv.Close()
}

// hosting makes s the table /ws seats phones at.
func (w *Web) hosting(s *Server) {
	w.mu.Lock()
	w.host = s
	w.mu.Unlock()
}

// unhost stops seating phones at s (if it is still the one).
func (w *Web) unhost(s *Server) {
	w.mu.Lock()
	if w.host == s {
		w.host = nil
	}
	w.mu.Unlock()
}

// privateSource reports whether a may use the entry: loopback, RFC 1918,
// RFC 4193 (fc00::/7) and link-local unicast.
func privateSource(a netip.Addr) bool {
	a = a.Unmap()
	return a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast()
}

// webSource is where a request comes from, as the limits count it, and
// whether it may be answered at all.
func webSource(r *http.Request) (netip.Addr, bool) {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return netip.Addr{}, false
	}
	a := ap.Addr().Unmap()
	if !privateSource(a) {
		return a, false
	}
	if a.Is6() {
		p, _ := a.Prefix(64)
		a = p.Addr()
	}
	return a, true
}

// sameOrigin reports whether a WebSocket request comes from a page of a
// table on this LAN: its Origin, if any, is the Host it asks, or a private
// address literal (every node serves its page by its LAN address, and
// after a failover a phone keeps the page the old host served while it
// follows the table to the new one). A page of a site beyond the LAN has a
// name or a public address, and is refused; a page on the LAN can do no
// more than a program on the LAN can anyway (nothing rides on the browser:
// no cookies, and the player's key is in the storage of the page's own
// origin). A browser always sends an Origin; a program that sends none is
// no page of another site.
func sameOrigin(r *http.Request) bool {
	o := r.Header.Get("Origin")
	if o == "" {
		return true
	}
	u, err := url.Parse(o)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false
	}
	if u.Host == r.Host {
		return true
	}
	a, err := netip.ParseAddr(strings.Trim(u.Hostname(), "[]"))
	return err == nil && privateSource(a.Unmap())
}

// ownHost says whether host, a request's Host, names this node: an IP
// literal of its own (the address it listens on, another of its
// interfaces', a loopback address) or localhost, with any port. The page's
// address is the node's IP (URL), and it advertises no name for it. Any
// other name reached us because some DNS points it here, which is what a
// site beyond the LAN does to make a visitor's browser its client inside
// the LAN (DNS rebinding: the browser then sends the site's own name as
// Host and as Origin, and sameOrigin alone would let it in).
func (w *Web) ownHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	a, err := netip.ParseAddr(host)
	if err != nil || a.Zone() != "" {
		return false
	}
	if a = a.Unmap(); a.IsLoopback() || a == w.ip {
		return true
	}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return false
	}
	for _, ia := range addrs {
		if p, err := netip.ParsePrefix(ia.String()); err == nil && p.Addr().Unmap() == a {
			return true
		}
	}
	return false
}

// misdirected is the refusal of a request for a Host not this node's.
const misdirected = "This game answers by its own address only: open the address the table shows."

func (w *Web) refuse(rw http.ResponseWriter, code int, why string) {
	w.Refused.Add(1)
	http.Error(rw, why, code)
}

// localOwn is the door's first two checks, for the page and the socket: a
// request from the local network, for this node's own address. It answers
// a request it turns away, and gives the address a request it lets in came
// from.
func (w *Web) localOwn(rw http.ResponseWriter, r *http.Request) (netip.Addr, bool) {
	src, ok := webSource(r)
	if !ok {
		w.refuse(rw, http.StatusForbidden, "This game answers its local network only.")
		return src, false
	}
	if !w.ownHost(r.Host) {
		w.refuse(rw, http.StatusMisdirectedRequest, misdirected)
		return src, false
	}
	return src, true
}

func (w *Web) serveAsset(rw http.ResponseWriter, r *http.Request) {
	src, ok := w.localOwn(rw, r)
	if !ok {
		return
	}
	if !w.files.Allow(src) || (r.URL.Path == "/app.wasm" && !w.player.Allow(src)) {
		w.refuse(rw, http.StatusTooManyRequests, "Too many requests from your address: wait a moment.")
		return
	}
	if w.assets == nil {
		http.NotFound(rw, r)
		return
	}
	w.assets.ServeHTTP(rw, r)
}

// serveTable answers /table: the table this node hosts now, or 404.
func (w *Web) serveTable(rw http.ResponseWriter, r *http.Request) {
	src, ok := webSource(r)
	if !ok {
		w.refuse(rw, http.StatusForbidden, "This game answers its local network only.")
		return
	}
	if !w.files.Allow(src) {
		w.refuse(rw, http.StatusTooManyRequests, "Too many requests from your address: wait a moment.")
		return
	}
	w.mu.Lock()
	s := w.host
	w.mu.Unlock()
	var a table.About
	if s == nil || !s.isReady() || !s.tbl().FillAbout(&a) {
		http.Error(rw, "No table is hosted here now.", http.StatusNotFound)
		return
	}
	a.Words, a.Code = protocol.Fingerprint(string(w.id)), s.code != ""
	rw.Header().Set("Content-Type", "application/json")
	rw.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(rw).Encode(a)
}

// doorSlot is one /ws connection's place at the door. Its fields are
// guarded by Web.mu.
type doorSlot struct {
	src     netip.Addr
	since   time.Time
	stop    context.CancelFunc // closes the connection
	evicted bool               // closed to let a newer one in, or out of time
	placed  bool               // established
}

// enter counts a /ws connection from src as a newcomer, or says why it may
// not open. A full pool of newcomers makes room (evict).
func (w *Web) enter(src netip.Addr, stop context.CancelFunc) (*doorSlot, string) {
	if !w.opens.Allow(src) {
		return nil, "Too many connections from your address: wait a moment."
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.closed:
		return nil, "This node is closing."
	case w.open[src] >= WebConnsPerAddr:
		return nil, "Too many connections from your address at once."
	}
	if len(w.fresh) >= w.newcomers {
		w.evict()
	}
	d := &doorSlot{src: src, since: time.Now(), stop: stop}
	w.fresh[d] = true
	w.freshN[src]++
	w.open[src]++
	return d, ""
}

// evict closes the oldest newcomer of the address that holds the most.
// Called with mu held.
func (w *Web) evict() {
	var v *doorSlot
	for d := range w.fresh {
		if v == nil || w.freshN[d.src] > w.freshN[v.src] ||
			w.freshN[d.src] == w.freshN[v.src] && d.since.Before(v.since) {
			v = d
		}
	}
	if v != nil {
		w.unfresh(v)
		v.evicted = true
		v.stop()
		w.Evicted.Add(1)
	}
}

// unfresh takes d out of the newcomers. Called with mu held.
func (w *Web) unfresh(d *doorSlot) {
	if !w.fresh[d] {
		return
	}
	delete(w.fresh, d)
	if w.freshN[d.src]--; w.freshN[d.src] <= 0 {
		delete(w.freshN, d.src)
	}
}

// expire ends a newcomer that did not get through in time.
func (w *Web) expire(d *doorSlot) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !d.placed && !d.evicted {
		w.unfresh(d)
		d.evicted = true
		d.stop()
	}
}

// admit makes a newcomer established, or says why it can't be.
func (w *Web) admit(d *doorSlot) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case d.evicted:
		return errors.New("node: the connection was closed at the door")
	case d.placed:
		return nil
	case w.total >= WebConns:
		return ErrWebFull
	}
	w.unfresh(d)
	d.placed = true
	w.total++
	return nil
}

func (w *Web) leave(d *doorSlot) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.unfresh(d)
	if d.placed {
		w.total--
	}
	if w.open[d.src]--; w.open[d.src] <= 0 {
		delete(w.open, d.src)
	}
}

// ErrWebFull refuses a phone through the door when the entry has all the
// established connections it takes.
var ErrWebFull = protocol.Refuse(protocol.CodeTableFull, "web door full", "This table has all the connections it can take.")

// serveWS is /ws: the door checks, the handshake, then the table's own
// serve path, as for a libp2p stream.
func (w *Web) serveWS(rw http.ResponseWriter, r *http.Request) {
	src, ok := w.localOwn(rw, r)
	if !ok {
		return
	}
	if !sameOrigin(r) {
		w.refuse(rw, http.StatusForbidden, "That page is not this table's.")
		return
	}
	ctx, stop := context.WithCancel(r.Context())
	defer stop()
	d, why := w.enter(src, stop)
	if why != "" {
		w.refuse(rw, http.StatusTooManyRequests, why)
		return
	}
	defer w.leave(d)
	deadline := time.AfterFunc(w.handshake, func() { w.expire(d) })
	defer deadline.Stop()
	// The Host and the Origin were checked above.
	ws, err := websocket.Accept(rw, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		w.Refused.Add(1)
		return
	}
	defer ws.CloseNow()
	// Evicted, or out of time at the door: closed, whatever it waits on.
	context.AfterFunc(ctx, func() { ws.CloseNow() })
	conn, err := webwire.Accept(ctx, coderws.New(ws), w.key)
	if err != nil {
		w.Refused.Add(1)
		return
	}
	id, err := phoneID(conn.Peer())
	if err != nil {
		w.Refused.Add(1)
		return
	}
	l := &webLink{Conn: conn, ws: ws, peer: id, src: src, admit: func() error {
		if err := w.admit(d); err != nil {
			return err
		}
		deadline.Stop()
		return nil
	}}
	w.mu.Lock()
	s := w.host
	w.mu.Unlock()
	if s == nil {
		w.Refused.Add(1)
		if b, _, err := w.signer.Seal(protocol.TableID{}, 0,
			protocol.Refusal{Code: protocol.CodeNotHost, Message: "This player's node doesn't host the table now."}); err == nil {
			l.SetWriteDeadline(time.Now().Add(table.DefaultTiming().DeadAfter))
			gamewire.WriteFrame(bufio.NewWriter(l), b)
		}
		l.Close()
		return
	}
	s.serve(l, bufio.NewReader(l), nil)
}

// phoneID is the peer ID of a phone's ed25519 key, as libp2p derives it.
func phoneID(pub ed25519.PublicKey) (peer.ID, error) {
	k, err := crypto.UnmarshalEd25519PublicKey(pub)
	if err != nil {
		return "", err
	}
	return peer.IDFromPublicKey(k)
}

// webLimiter rate-limits opening /ws per address (StreamsPerAddr), free
// for the prefixes given (this machine's loopback).
func webLimiter(free []netip.Prefix) *rate.Limiter {
	return guard.AddrLimiter(guard.StreamsPerAddr, free)
}

// webLink is a phone's webwire channel as a link.
type webLink struct {
	*webwire.Conn
	ws    *websocket.Conn
	peer  peer.ID
	src   netip.Addr
	admit func() error // through the door: established (Web.admit)
}

func (l *webLink) Reset() error        { return l.ws.CloseNow() }
func (l *webLink) RemotePeer() peer.ID { return l.peer }
func (l *webLink) Source() netip.Addr  { return l.src }

// maxWebAddr bounds a node's web base URL where it enters (a Hello, a
// Lobby): http://[IPv6 with a zone]:65535 fits.
const maxWebAddr = 64

// webAddrOK is a node's web base URL, normalised, if it is one a phone
// may be sent to: http, an IP address on the LAN (or loopback), a port,
// nothing else. "" otherwise.
func webAddrOK(s string) string {
	if s == "" || len(s) > maxWebAddr {
		return ""
	}
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "http" || u.User != nil || u.RawQuery != "" || u.Fragment != "" ||
		(u.Path != "" && u.Path != "/") || u.Port() == "" {
		return ""
	}
	ip, err := netip.ParseAddr(u.Hostname())
	if err != nil || !privateSource(ip) || ip.IsUnspecified() {
		return ""
	}
	port, err := strconv.ParseUint(u.Port(), 10, 16)
	if err != nil || port == 0 {
		return ""
	}
	return "http://" + net.JoinHostPort(ip.String(), u.Port())
}

// webSeat is what a host knows of a seat's web side: a phone's seat, or a
// player node's web base URL.
type webSeat struct {
	phone bool
	addr  string
}

// noteWeb records a seat's web side (a phone stays a phone).
func (s *Server) noteWeb(id string, phone bool, addr string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.web == nil {
		s.web = map[string]webSeat{}
	}
	ws := s.web[id]
	ws.phone = ws.phone || phone
	if ws.phone {
		ws.addr = ""
	} else if addr != "" {
		ws.addr = addr
	}
	s.web[id] = ws
}

// webOf is a seat's web side, as known.
func (s *Server) webOf(id string) webSeat {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id == s.selfID() {
		return webSeat{addr: s.selfWeb}
	}
	return s.web[id]
}
