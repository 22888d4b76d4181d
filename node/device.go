package node

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/journal"
	"github.com/bullshit-game/bullshit/node/lan"
	"github.com/bullshit-game/bullshit/node/table"
	"github.com/bullshit-game/bullshit/protocol"
)

// Device is this machine on the LAN: its identity, its libp2p host, and how
// it finds tables. The lobby, `bullshit host` and `bullshit join` all go
// through one.
type Device struct {
	Key  crypto.PrivKey
	Name string

	h        host.Host
	web      *Web  // nil when off
	webErr   error // why the default web entry is off
	iface    *lan.Iface
	browser  lan.Browser
	advertis func() lan.Advertiser
	bots     table.BotMaker
	fall     func(*engine.View) (engine.Command, bool)
	timing   table.Timing

	mu   sync.Mutex
	keep string // SeatFiles
	save string
}

// SeatFiles sets, for each seat this device takes at another node's
// table from now on (Join, JoinAddr), the profile's directory where it
// keeps what a restart needs (Setup.Keep: its part of the toss, its deck
// secret) and where it saves each game it ends (Setup.Save); "" for
// nowhere. They are in place before the seat's session starts: the host
// may send a game under way the moment it seats us.
func (d *Device) SeatFiles(keep, save string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.keep, d.save = keep, save
}

// seatSetup is what a seat this device takes is given before it starts.
func (d *Device) seatSetup() Setup {
	d.mu.Lock()
	defer d.mu.Unlock()
	return Setup{Bots: d.bots, Fall: d.fall, Keep: d.keep, Save: d.save}
}

// DeviceConfig says how a Device reaches the LAN.
type DeviceConfig struct {
	Key  crypto.PrivKey
	Name string
	// Iface is the LAN interface to host and browse on (mDNS). Nil means no
	// discovery: tables are joined by address (tests, blocked networks).
	Iface *lan.Iface
	// Listen overrides the listen addresses (tests: 127.0.0.1).
	Listen []ma.Multiaddr
	// Mem, when set, replaces mDNS with an in-memory network (tests).
	Mem *lan.MemNet
	// Bots makes the bots a hosted table seats; Fallback is the always-legal
	// move for a seat whose turn clock runs out.
	Bots     table.BotMaker
	Fallback func(*engine.View) (engine.Command, bool)
	// Web, when set, serves phones (web.go) from the start, at whatever
	// table this device hosts. With no Web.Addr it listens on Iface's
	// address (or Listen's), and a device that can't is still made
	// (WebErr says why); an address asked for that can't be listened on
	// is an error.
	Web *WebConfig
	// Timing is for the tables the device opens (where their Settings
	// leave a field zero) and the tables it joins; zero fields are
	// DefaultTiming's.
	Timing table.Timing
}

// NewDevice starts the libp2p host on the LAN.
func NewDevice(ctx context.Context, cfg DeviceConfig) (*Device, error) {
	hc := HostConfig{Key: cfg.Key, Listen: cfg.Listen}
	if cfg.Iface != nil && len(cfg.Listen) == 0 {
		hc.Ifaces = []lan.Iface{*cfg.Iface}
	}
	h, err := NewHost(ctx, hc)
	if err != nil {
		return nil, err
	}
	d := &Device{Key: cfg.Key, Name: cfg.Name, h: h, iface: cfg.Iface, bots: cfg.Bots, fall: cfg.Fallback,
		timing: cfg.Timing.Or(table.DefaultTiming())}
	if cfg.Web != nil {
		d.web, d.webErr = ListenWeb(cfg.Key, webLAN(cfg), *cfg.Web)
		if d.webErr != nil && cfg.Web.Addr != "" {
			h.Close()
			return nil, fmt.Errorf("web: %w", d.webErr)
		}
	}
	switch {
	case cfg.Mem != nil:
		d.browser = cfg.Mem.Browser()
		d.advertis = cfg.Mem.Advertiser
	case cfg.Iface != nil:
		ifc := *cfg.Iface
		d.browser = lan.NewMDNSBrowser(ifc)
		d.advertis = func() lan.Advertiser { return lan.NewMDNSAdvertiser(ifc) }
	}
	return d, nil
}

// Words is the fingerprint of this device's key (protocol.Fingerprint):
// what the lobby shows beside the name of a table it hosts.
func (d *Device) Words() string { return protocol.Fingerprint(string(d.h.ID())) }

// Host is the device's libp2p host.
func (d *Device) Host() host.Host { return d.h }

// WebURL is where phones open the game (http://192.168.1.20:8080), ""
// when the device serves none.
func (d *Device) WebURL() string {
	if d.web == nil {
		return ""
	}
	return d.web.URL()
}

// Web is the device's web entry, nil when off.
func (d *Device) Web() *Web { return d.web }

// WebErr says why the web entry asked for by default is off, nil if it's on.
func (d *Device) WebErr() error { return d.webErr }

// webLAN is the address the default web entry listens on: the LAN
// interface's first IPv4 address (a phone types it), or its first, or
// the first listen address's.
func webLAN(cfg DeviceConfig) netip.Addr {
	if cfg.Iface != nil {
		for _, a := range cfg.Iface.Addrs {
			if a.Is4() {
				return a
			}
		}
		if len(cfg.Iface.Addrs) > 0 {
			return cfg.Iface.Addrs[0]
		}
	}
	for _, m := range cfg.Listen {
		if ip, err := manet.ToIP(m); err == nil {
			if a, ok := netip.AddrFromSlice(ip); ok && !a.Unmap().IsUnspecified() {
				return a.Unmap()
			}
		}
	}
	return netip.Addr{}
}

// Close stops the device.
func (d *Device) Close() error {
	if d.web != nil {
		d.web.Close()
	}
	return d.h.Close()
}

// serveWeb points the web entry at a table this device hosts.
func (d *Device) serveWeb(ho *Hosted) {
	if d.web == nil {
		return
	}
	url := d.web.URL()
	ho.Server.selfWeb = url
	ho.web = d.web
	ho.Table.Do(func() { ho.Table.WebURL = url })
	d.web.hosting(ho.Server)
}

// remoteWeb gives a seat at another node's table our web side, and our
// advertiser for a table it takes over, before the seat's session starts.
func (d *Device) remoteWeb(r *Remote) {
	if d.web != nil {
		r.webAddr, r.web = d.web.URL(), d.web
	}
	r.advertis = d.advertis
}

// advertiseTaken puts a table this node took over after an election on
// the LAN, as its first host did (host): the same table, name, seats and
// preset, this node's peer as its host, so that a player who lost it (the
// old host's person, restarted) finds it in the lobby again. It keeps the
// advert up to date; nil when there is no discovery.
func advertiseTaken(newAdv func() lan.Advertiser, srv *Server, ts table.TableState, nick string, private bool) *Hosted {
	t := srv.tbl()
	if newAdv == nil || t == nil {
		return nil
	}
	// The table's ID as its first host advertised it: its wire ID in hex
	// (a Lobby doesn't carry the advert's).
	info := lan.TableInfo{ID: hex.EncodeToString(srv.tid[:]), Name: ts.Name, Host: nick, HostPeer: srv.h.ID(), Seats: len(ts.Seats), Taken: len(ts.Seats),
		Preset: ts.Preset, Phase: table.PhasePlaying, Version: protocol.Current.String(), Private: private, Addrs: srv.h.Addrs()}
	ho := &Hosted{Table: t, Server: srv, info: info}
	if ho.adv = newAdv(); ho.adv == nil || ho.adv.Advertise(info) != nil {
		return nil
	}
	t.Do(func() { t.OnPhase = ho.phaseChanged })
	return ho
}

// unadvertise withdraws what advertiseTaken put up.
func (ho *Hosted) unadvertise() {
	if ho == nil {
		return
	}
	ho.mu.Lock()
	adv := ho.adv
	ho.adv = nil
	ho.mu.Unlock()
	if adv != nil {
		adv.Stop()
	}
}

// Addrs are the addresses a player can join this device's tables by.
func (d *Device) Addrs() []string { return lan.JoinAddrs(d.h) }

// Browse lists the tables on the LAN, again on every change, until ctx ends.
// With no discovery it sends nothing and closes when ctx ends.
func (d *Device) Browse(ctx context.Context) <-chan []lan.TableInfo {
	if d.browser == nil {
		ch := make(chan []lan.TableInfo)
		go func() { <-ctx.Done(); close(ch) }()
		return ch
	}
	return d.browser.Browse(ctx)
}

// Hosted is a table this device hosts: the table, its network server and
// its advert.
type Hosted struct {
	*table.Table
	Server *Server
	adv    lan.Advertiser
	web    *Web
	mu     sync.Mutex
	info   lan.TableInfo
}

// Open hosts a table on the LAN and advertises it. The host's own seat is
// taken with Sit (or not, for a table run by a headless server).
func (d *Device) Open(set table.Settings) (*Hosted, error) {
	if d.bots == nil {
		return nil, errors.New("node: a device needs a bot maker to host")
	}
	set.Timing = set.Timing.Or(d.timing)
	t, err := table.NewTable(set, d.Name, d.bots, d.fall)
	if err != nil {
		return nil, err
	}
	ts := t.Config()
	return d.host(t, lan.TableInfo{Name: ts.Name, Seats: ts.Seats, Taken: len(set.Bots), Preset: ts.Rules.Preset,
		Phase: table.PhaseWaiting, Private: set.Code != ""})
}

// host puts a table on the network, advertises it (info, with what the
// device knows filled in), and keeps the advert's phase and seats up to
// date. It closes t if it can't be served.
func (d *Device) host(t *table.Table, info lan.TableInfo) (*Hosted, error) {
	srv, err := Serve(d.h, d.Key, t)
	if err != nil {
		t.Close()
		return nil, err
	}
	info.ID, info.Host, info.HostPeer, info.Version, info.Addrs = t.ID, d.Name, d.h.ID(), protocol.Current.String(), d.h.Addrs()
	ho := &Hosted{Table: t, Server: srv, info: info}
	d.serveWeb(ho)
	if d.advertis != nil {
		if ho.adv = d.advertis(); ho.adv != nil && ho.adv.Advertise(ho.info) != nil {
			ho.adv = nil
		}
	}
	t.Do(func() { t.OnPhase = ho.phaseChanged })
	return ho, nil
}

// phaseChanged re-advertises the table when its phase or seats change. A
// finished game's seats are still taken: it is advertised as playing.
func (ho *Hosted) phaseChanged(l table.TableInfoLite) {
	ho.mu.Lock()
	ho.info.Taken, ho.info.Seats = l.Taken, l.Seats
	ho.info.Phase = table.PhaseWaiting
	if l.Phase != table.PhaseWaiting {
		ho.info.Phase = table.PhasePlaying
	}
	info := ho.info
	adv := ho.adv
	ho.mu.Unlock()
	if adv != nil {
		go adv.Advertise(info)
	}
}

// EndEarly ends the game in play, if one is, and gives its reveal a moment
// to reach the players (at most RevealFlush), so that they audit the plays
// so far: what `end game` and a signal to a headless host do.
func (h *Hosted) EndEarly() (bool, error) {
	n := h.Server.conns0()
	ended, err := h.Table.EndEarly()
	if ended && n > 0 {
		h.Server.awaitReveals(n, RevealFlush)
	}
	return ended, err
}

// Close stops the table, its server and its advert. A game still in play
// is not ended: to its players the host is gone, as if its lid closed, and
// they elect a new one and play on (EndEarly first ends it instead).
func (h *Hosted) Close() {
	h.mu.Lock()
	adv := h.adv
	h.adv = nil
	h.mu.Unlock()
	if adv != nil {
		adv.Stop()
	}
	if h.web != nil {
		h.web.unhost(h.Server)
	}
	h.Server.Close()
	h.Table.Close()
}

// Join takes a seat (or watches) at a table found by Browse.
func (d *Device) Join(ctx context.Context, t lan.TableInfo, code string, watch bool, onFrame func([]byte)) (*Remote, error) {
	return dial(ctx, d.h, d.Key, t.AddrInfo(), d.Name, code, watch, onFrame, d.timing, d.seatSetup(), d.remoteWeb)
}

// JoinAddr joins the table at an address a host's screen shows
// (/ip4/…/tcp/…/p2p/…), for networks where discovery is blocked.
func (d *Device) JoinAddr(ctx context.Context, addr, code string, watch bool, onFrame func([]byte)) (*Remote, error) {
	info, err := lan.ParseAddr(addr)
	if err != nil {
		return nil, err
	}
	return dial(ctx, d.h, d.Key, info, d.Name, code, watch, onFrame, d.timing, d.seatSetup(), d.remoteWeb)
}

// FindTable waits until a table that name names (PickTable) shows up;
// name "" takes the first table seen.
func (d *Device) FindTable(ctx context.Context, name string) (lan.TableInfo, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var found *lan.TableInfo
	var settle <-chan time.Time
	feed := d.Browse(ctx)
	for {
		select {
		case ts, ok := <-feed:
			if !ok {
				if found != nil {
					return *found, nil
				}
				if name == "" {
					return lan.TableInfo{}, fmt.Errorf("no table found on the LAN (is multicast blocked? join by address instead)")
				}
				return lan.TableInfo{}, fmt.Errorf("no table named %q found on the LAN", name)
			}
			t, exact, err := PickTable(ts, name)
			switch {
			case err != nil:
				return lan.TableInfo{}, err
			case t == nil:
			case exact:
				return *t, nil
			default:
				// A name or an ID alone: wait a moment for a second table
				// of the same (an impostor's) before taking this one.
				found = t
				if settle == nil {
					settle = time.After(FindSettle)
				}
			}
		case <-settle:
			return *found, nil
		}
	}
}

// FindSettle is how long FindTable, given a table's name alone, keeps
// listening for a second table of that name before it joins the first.
var FindSettle = time.Second

// ErrTwoTables is a name that more than one table on the LAN has.
type ErrTwoTables struct {
	Name   string
	Tables []lan.TableInfo
}

func (e *ErrTwoTables) Error() string {
	var ts []string
	for _, t := range e.Tables {
		ts = append(ts, t.String())
	}
	n := "two"
	if len(e.Tables) > 2 {
		n = strconv.Itoa(len(e.Tables))
	}
	return fmt.Sprintf("%s tables are called %s: %s; name one as %s@%s, or join by address",
		n, e.Name, strings.Join(ts, " and "), e.Name, e.Tables[0].Fingerprint())
}

// IDPrefix marks a query for a table by its ID ("id:3f9a…"), a form no
// name takes for it: a bare query is a name, whatever it looks like, since
// an advertiser chooses its own ID as freely as its name.
const IDPrefix = "id:"

// PickTable finds the table query names in ts: "" for the first found, a
// name, NAME@WORDS (the host's fingerprint) for exactly one, or id:ID. A
// name or an ID must be one table's only (*ErrTwoTables otherwise: never a
// guess between an impostor and the real one). exact says the query named
// one table for sure (the host's words: they come from its key, and the
// joiner checks the key it reaches); a name or an ID is anyone's to
// advertise, so FindTable waits a moment for a second one. nil, false, nil
// is none yet.
func PickTable(ts []lan.TableInfo, query string) (t *lan.TableInfo, exact bool, err error) {
	if query == "" {
		if len(ts) == 0 {
			return nil, false, nil
		}
		return &ts[0], true, nil
	}
	if at := strings.LastIndex(query, "@"); at >= 0 {
		name, fp := query[:at], query[at+1:]
		for i := range ts {
			if named(ts[i], name) && protocol.SameFingerprint(fp, ts[i].Fingerprint()) {
				return &ts[i], true, nil
			}
		}
	}
	var found []lan.TableInfo
	for _, t := range ts {
		if named(t, query) {
			found = append(found, t)
		}
	}
	switch len(found) {
	case 0:
		return nil, false, nil
	case 1:
		return &found[0], false, nil
	}
	return nil, false, &ErrTwoTables{Name: query, Tables: found}
}

// named says whether query (a name, or IDPrefix and an ID) names t.
func named(t lan.TableInfo, query string) bool {
	if id, ok := strings.CutPrefix(query, IDPrefix); ok {
		return t.ID == id
	}
	return t.Name == query
}

// WaitSeated waits until n seats of a hosted table are taken by people or
// bots, or ctx ends.
func (h *Hosted) WaitSeated(ctx context.Context, n int) error {
	for {
		taken := 0
		h.Do(func() {
			for _, s := range h.Seats {
				if s.Owner != "" || s.BotName != "" {
					taken++
				}
			}
		})
		if taken >= n {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// WithoutDiscovery turns off mDNS on the device: tables are joined by
// address only.
func (d *Device) WithoutDiscovery() *Device {
	d.browser, d.advertis = nil, nil
	return d
}

// Keep journals the table to path: every accepted step, fsynced.
func (h *Hosted) Keep(path string) error {
	return h.Table.Keep(path)
}

// Resume hosts again the table of a journal, after this device's host
// process crashed or was killed: the same table, from the same step, the
// players reconnecting to their seats. The device must have the journal's
// identity, and should listen where the host listened (JournalListen).
func (d *Device) Resume(path string) (*Hosted, error) {
	j, _, hdr, steps, err := journal.Resume(path)
	if err != nil {
		return nil, err
	}
	var tid protocol.TableID
	if b, err := hex.DecodeString(hdr.Table); err != nil || len(b) != len(tid) {
		j.Close()
		return nil, fmt.Errorf("the journal's table ID %q is not one of ours", hdr.Table)
	}
	hex.Decode(tid[:], []byte(hdr.Table))
	me := d.h.ID().String()
	seats := make([]table.SeatInfo, hdr.Config.Seats)
	for i := range seats {
		if i < len(hdr.Seats) {
			seats[i].Name = hdr.Seats[i]
		}
		if i < len(hdr.Owners) {
			seats[i].Peer = hdr.Owners[i]
			if seats[i].Peer == "local" {
				seats[i].Peer = me
			}
		}
		if i < len(hdr.Bots) {
			seats[i].Bot = hdr.Bots[i]
		}
	}
	tm := d.timing
	if hdr.Settings.Reveal > 0 {
		tm.Reveal = hdr.Settings.Reveal
	}
	set := table.Settings{Name: hdr.Name, Rules: hdr.Config.Rules, Seats: hdr.Config.Seats, Timing: tm,
		TurnClock: hdr.Settings.TurnClock, Grace: hdr.Settings.Grace, Pace: hdr.Settings.Pace, Seed: hdr.Config.Seed}
	t, err := table.RestoreTable(set, hdr.Table, tid, d.Name, me, seats, hdr.Config, hdr.Salt, hdr.Nonces, gamewire.Commit(hdr.Config.Seed, hdr.Salt),
		steps, nil, 1, d.bots, d.fall, "The host is back: the game goes on.", j, table.Evening{}, edKeyOrNil(d.Key))
	if err != nil {
		j.Close()
		return nil, err
	}
	return d.host(t, lan.TableInfo{Name: hdr.Name, Seats: hdr.Config.Seats, Taken: hdr.Config.Seats,
		Preset: hdr.Config.Rules.Preset, Phase: table.PhasePlaying, Private: hdr.Settings.Private})
}

// JournalListen is where the host of a journal listened, so a restarted
// host can listen there again and its players find it.
func JournalListen(path string) ([]ma.Multiaddr, error) {
	j, hdr, _, err := journal.OpenJournal(path)
	if err != nil {
		return nil, err
	}
	j.Close()
	var out []ma.Multiaddr
	for _, s := range hdr.Listen {
		if a, err := ma.NewMultiaddr(s); err == nil {
			out = append(out, a)
		}
	}
	return out, nil
}
