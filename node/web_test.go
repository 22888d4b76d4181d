package node

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/node/guard"
	"github.com/bullshit-game/bullshit/node/internal/nodetest"
	"github.com/bullshit-game/bullshit/node/lan"
	"github.com/bullshit-game/bullshit/node/table"

	"github.com/coder/websocket"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/x/rate"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/webwire"
	"github.com/bullshit-game/bullshit/node/webwire/coderws"
	"github.com/bullshit-game/bullshit/protocol"
)

// phone is a browser's player as a Go program: its own ed25519 key, the
// webwire channel to a node's /ws, and the node's frames of signed
// envelopes over it. It is a Session, so PlayBot plays it.
type phone struct {
	key    crypto.PrivKey
	id     peer.ID
	host   peer.ID
	signer *protocol.Signer
	ws     *websocket.Conn
	conn   *webwire.Conn
	br     *bufio.Reader
	wmu    sync.Mutex
	w      *bufio.Writer
	replay protocol.Replay

	mu      sync.Mutex
	seat    int
	tid     protocol.TableID
	term    uint64
	table   table.TableState
	view    engine.View
	hands   [][]engine.Card // every hand it was shown before the end
	audit   []protocol.Audit
	refused []protocol.Refusal
	box     *table.Mailbox
	steps   []protocol.Step            // the journal as the seat may know it
	shares  map[int]protocol.StepShare // its shares, for a new host
}

func newPhoneKey(t testing.TB) crypto.PrivKey {
	t.Helper()
	k, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// dialWS opens /ws at base from the given local address ("" any), with
// Origin origin ("" none): the response tells a refusal's status.
func dialWS(ctx context.Context, base, origin, from string) (*websocket.Conn, *http.Response, error) {
	hdr := http.Header{}
	if origin != "" {
		hdr.Set("Origin", origin)
	}
	opts := &websocket.DialOptions{HTTPHeader: hdr}
	if from != "" {
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
		opts.HTTPClient = &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
	}
	return websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/ws", opts)
}

// dialPhone does the handshake with the node at base whose key is host.
func dialPhone(ctx context.Context, t testing.TB, base string, key crypto.PrivKey, host crypto.PubKey, from string) *phone {
	t.Helper()
	ws, _, err := dialWS(ctx, base, base, from)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := key.Raw()
	hraw, _ := host.Raw()
	conn, err := webwire.Dial(ctx, coderws.New(ws), ed25519.PrivateKey(raw), ed25519.PublicKey(hraw))
	if err != nil {
		t.Fatal(err)
	}
	signer, err := newSigner(key)
	if err != nil {
		t.Fatal(err)
	}
	id, _ := peer.IDFromPrivateKey(key)
	hid, _ := peer.IDFromPublicKey(host)
	p := &phone{key: key, id: id, host: hid, signer: signer, ws: ws, conn: conn, br: bufio.NewReader(conn),
		w: bufio.NewWriter(conn), seat: -1, term: 1, box: table.NewMailbox()}
	t.Cleanup(func() { ws.CloseNow() })
	return p
}

// seatPhone is a phone with key, dialled to the web entry w of the table
// at hn, seated as nick.
func seatPhone(ctx context.Context, t testing.TB, w *Web, hn loopNode, key crypto.PrivKey, nick string) *phone {
	t.Helper()
	p := dialPhone(ctx, t, w.URL(), key, hn.key.GetPublic(), "")
	if err := p.join(nick); err != nil {
		t.Fatal(err)
	}
	return p
}

func (p *phone) seal(m protocol.Message) []byte {
	p.mu.Lock()
	tid, term := p.tid, p.term
	p.mu.Unlock()
	b, _, err := p.signer.Seal(tid, term, m)
	if err != nil {
		panic(err) // the test's own message
	}
	return b
}

func (p *phone) write(b []byte) error {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	return gamewire.WriteFrame(p.w, b)
}

func (p *phone) send(m protocol.Message) error { return p.write(p.seal(m)) }

// next is the host's next envelope, checked as a player checks it.
func (p *phone) next() (*protocol.Envelope, error) {
	p.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	b, err := gamewire.ReadFrame(p.br)
	if err != nil {
		return nil, err
	}
	env, err := protocol.Open(b, wireID(p.host))
	if err != nil {
		return nil, fmt.Errorf("a frame not from the host: %w", err)
	}
	if err := p.replay.Check(env.Sender, env.Term, env.Seq); err != nil {
		return nil, err
	}
	return env, nil
}

// join says hello and waits for a seat; a refusal comes back as the error.
func (p *phone) join(nick string) error {
	if err := p.send(protocol.Hello{Version: protocol.Current, Nick: nick}); err != nil {
		return err
	}
	for {
		env, err := p.next()
		if err != nil {
			return err
		}
		switch m := env.Msg.(type) {
		case protocol.Refusal:
			return &gamewire.Refused{Code: m.Code, Msg: m.Message}
		case protocol.StateRequest:
			// A new host rebuilds the table: our journal and shares.
			p.mu.Lock()
			st := protocol.State{Steps: p.steps}
			for _, sh := range p.shares {
				st.Shares = append(st.Shares, sh)
			}
			p.mu.Unlock()
			if err := p.send(st); err != nil {
				return err
			}
		case protocol.Seated:
			p.mu.Lock()
			p.seat, p.tid, p.term = m.Seat, m.Table, env.Term
			p.mu.Unlock()
			go p.readLoop()
			go p.heartbeat()
			return nil
		}
	}
}

func (p *phone) heartbeat() {
	t := time.NewTicker(table.DefaultTiming().Heartbeat)
	defer t.Stop()
	for range t.C {
		if p.send(protocol.Heartbeat{}) != nil {
			return
		}
	}
}

func (p *phone) readLoop() {
	defer p.box.Close()
	for {
		env, err := p.next()
		if err != nil {
			return
		}
		p.mu.Lock()
		switch m := env.Msg.(type) {
		case protocol.Lobby:
			p.table = engLobby(&m)
		case protocol.Update:
			if m.Backlog {
				p.steps, p.shares = nil, nil
			}
			p.steps = append(p.steps, m.Steps...)
			if p.shares == nil {
				p.shares = map[int]protocol.StepShare{}
			}
			for _, sh := range m.Shares {
				p.shares[sh.Step] = sh
			}
			if m.View != nil {
				p.view = gamewire.EngView(m.View, p.table.Rules)
				if p.view.Phase != engine.PhaseOver && p.table.Phase == "playing" {
					p.hands = append(p.hands, gamewire.EngCards(m.View.Hand))
				}
			}
			u := table.Update{Table: p.table, View: p.view, Backlog: m.Backlog}
			for _, e := range m.Events {
				u.Events = append(u.Events, gamewire.EngEvent(e))
			}
			p.mu.Unlock()
			p.box.Put(u)
			continue
		case protocol.Refusal:
			p.refused = append(p.refused, m)
			u := table.Update{Table: p.table, View: p.view, Refusal: &engine.Refusal{Code: engine.Code(m.Code), Msg: m.Message}}
			p.mu.Unlock()
			p.box.Put(u)
			continue
		case protocol.Audit:
			p.audit = append(p.audit, m)
			if len(p.audit) == m.Parts {
				u := table.Update{Table: p.table, View: p.view, Audit: &table.AuditResult{}}
				p.mu.Unlock()
				p.box.Put(u)
				continue
			}
		}
		p.mu.Unlock()
	}
}

func (p *phone) Updates() <-chan table.Update { return p.box.Out }
func (p *phone) Send(c engine.Command) error {
	p.mu.Lock()
	seat, tid, commit := p.seat, p.tid, p.table.Commit
	p.mu.Unlock()
	m := gamewire.WireMove(c, seat)
	if m == nil {
		return errors.New("not a move")
	}
	key, err := edKey(p.key)
	if err != nil {
		return err
	}
	return p.send(gamewire.SignedMove(key, tid, commit, m))
}
func (p *phone) Control(string) error { return errors.New("a phone doesn't host") }
func (p *phone) Close() error         { p.send(protocol.Leave{}); return p.ws.CloseNow() }

// refusals is how many refusals the phone was sent, and the last.
func (p *phone) refusals() (int, protocol.Refusal) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.refused) == 0 {
		return 0, protocol.Refusal{}
	}
	return len(p.refused), p.refused[len(p.refused)-1]
}

// assets stands in for the page.
var assets = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "the page") })

// webTable hosts a table on loopback with its web entry.
func webTable(t *testing.T, set table.Settings, maker table.BotMaker) (loopNode, *table.Table, *Server, *Web) {
	t.Helper()
	hn, tb, srv := hostTableWith(t, set, maker)
	w, err := ListenWeb(hn.key, netip.Addr{}, WebConfig{Addr: "127.0.0.1:0", Assets: assets})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	srv.selfWeb = w.URL()
	w.hosting(srv)
	return hn, tb, srv, w
}

// A phone takes a seat over /ws, beside the bots, and plays the game to
// its end through the host's own serve path. Its seat shows as a phone's
// in the Lobby, and no view it is sent holds a card its seat never held:
// the host's reveal at the end, replayed, says which cards those are.
func TestWebPhonePlaysAWholeGame(t *testing.T) {
	rules := engine.Standard()
	rules.Window = 300 * time.Millisecond
	const seats = 4
	set := table.Settings{Name: "Kitchen", Rules: rules, Seats: seats, Bots: []string{"a", "b", "c"}, Timing: table.Timing{Reveal: 20 * time.Millisecond}}
	hn, tb, srv, w := webTable(t, set, dumbMaker)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	p := seatPhone(ctx, t, w, hn, newPhoneKey(t), "Ada")
	if p.seat != 0 {
		t.Fatalf("the phone got seat %d, want 0", p.seat)
	}
	if err := tb.Start(); err != nil {
		t.Fatal(err)
	}
	last, err := table.PlayBot(ctx, p, &nodetest.DumbBot{Seat: p.seat}, dumbFallback, "brisk", nil)
	if err != nil {
		t.Fatal(err)
	}
	nodetest.CheckEnded(t, last.View, rules, seats)
	if n := srv.Refused.Load(); n != 0 {
		t.Fatalf("an honest phone's game had %d refusals", n)
	}

	p.mu.Lock()
	defer p.mu.Unlock()
	if got := p.table.Seats[p.seat]; !got.Web || got.WebAddr != "" || len(got.Addrs) != 0 {
		t.Fatalf("the phone's seat in the Lobby: %+v, want a phone's", got)
	}
	if p.table.Seats[1].Web {
		t.Fatalf("a bot's seat shows as a phone's")
	}
	// The reveal, replayed step by step: every card the seat held.
	if len(p.audit) == 0 || len(p.audit) != p.audit[0].Parts {
		t.Fatalf("the phone got %d parts of the reveal", len(p.audit))
	}
	var steps []engine.Step
	for _, a := range p.audit {
		steps = append(steps, gamewire.EngSteps(a.Steps)...)
	}
	cfg := engine.Config{Rules: rules, Seats: seats, Seed: p.audit[0].Seed}
	held := map[engine.Card]bool{}
	for k := 0; k <= len(steps); k++ {
		g, _, err := engine.Replay(cfg, steps[:k])
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range g.View(p.seat).Hand {
			held[c] = true
		}
		if k == 0 {
			dealt := slices.Sorted(slices.Values(g.View(p.seat).Hand))
			if len(p.hands) == 0 || !slices.Equal(slices.Sorted(slices.Values(p.hands[0])), dealt) {
				t.Fatalf("the phone's first hand is not its deal")
			}
		}
	}
	if len(held) == 52 {
		t.Fatalf("the seat held every card: the check can't tell anything")
	}
	for i, h := range p.hands {
		for _, c := range h {
			if !held[c] {
				t.Fatalf("view %d showed the phone %v, a card its seat never held", i, c)
			}
		}
	}
}

// The door: a page of a site beyond the LAN (its Origin) is refused with
// 403, and so is a source off the LAN; the page itself is served to the LAN,
// and a page another node of the LAN served (the one a phone keeps after a
// failover) may open /ws.
func TestWebDoorRefusesForeignOriginAndSource(t *testing.T) {
	_, _, _, w := webTable(t, table.Settings{Seats: 3, Bots: []string{"b"}}, dumbMaker)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, origin := range []string{"http://evil.example", "http://8.8.8.8:8080", "http://192.168.1.66.evil.example", "null", "file:///tmp/x.html"} {
		_, resp, err := dialWS(ctx, w.URL(), origin, "")
		if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
			t.Fatalf("Origin %s: %v, status %v; want 403", origin, err, resp)
		}
	}
	if _, _, err := dialWS(ctx, w.URL(), w.URL(), ""); err != nil {
		t.Fatalf("the page's own Origin: %v", err)
	}
	if _, _, err := dialWS(ctx, w.URL(), "http://192.168.1.66:8080", ""); err != nil {
		t.Fatalf("another LAN node's page: %v", err)
	}
	resp, err := http.Get(w.URL() + "/")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the page: %v %v", err, resp)
	}
	resp.Body.Close()

	// A request from off the LAN, page or /ws, as the server sees it.
	for _, path := range []string{"/", "/ws"} {
		for _, from := range []string{"8.8.8.8:4000", "[2001:db8::1]:4000", "100.64.0.9:4000"} {
			r := httptest.NewRequest("GET", path, nil)
			r.RemoteAddr = from
			rec := httptest.NewRecorder()
			w.srv.Handler.ServeHTTP(rec, r)
			if rec.Code != http.StatusForbidden {
				t.Fatalf("%s from %s: %d, want 403", path, from, rec.Code)
			}
		}
	}
}

// DNS rebinding (issue 21): a site beyond the LAN points its name at the
// node, and a browser on the LAN asks for the page and /ws by that name
// (Host, and /ws's Origin, the site's). Only a Host of the node's own
// addresses, or localhost, is answered; any other is refused 421 with the
// reason, page, player and /ws alike, before any limit is spent.
func TestWebDoorAnswersItsOwnHostOnly(t *testing.T) {
	_, _, _, w := webTable(t, table.Settings{Seats: 3, Bots: []string{"b"}}, dumbMaker)
	own := strings.TrimPrefix(w.URL(), "http://")
	serve := func(path, host string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("GET", path, nil)
		r.RemoteAddr, r.Host = "127.0.0.1:4000", host
		if path == "/ws" {
			r.Header.Set("Origin", "http://"+host)
		}
		rec := httptest.NewRecorder()
		w.srv.Handler.ServeHTTP(rec, r)
		return rec
	}
	for _, host := range []string{"rebind.evil.example:8080", "evil.example", "127.0.0.1.evil.example", "8.8.8.8", "192.0.2.7:8080", "[2001:db8::1]:8080", ""} {
		for _, path := range []string{"/", "/app.wasm", "/ws"} {
			rec := serve(path, host)
			if rec.Code != http.StatusMisdirectedRequest || !strings.Contains(rec.Body.String(), "its own address") {
				t.Errorf("%s with Host %q: %d %q, want 421 and the reason", path, host, rec.Code, rec.Body.String())
			}
		}
	}
	for _, host := range []string{own, "localhost:8080", "LOCALHOST", "127.0.0.2", "[::1]:8080"} {
		if rec := serve("/", host); rec.Code != http.StatusOK {
			t.Errorf("the page with Host %q: %d %q, want 200", host, rec.Code, rec.Body.String())
		}
	}
}

// Which sources the entry answers: the LAN's and loopback, no other.
func TestWebPrivateSource(t *testing.T) {
	for _, c := range []struct {
		addr string
		ok   bool
	}{
		{"127.0.0.1", true}, {"::1", true}, {"10.1.2.3", true}, {"172.16.0.1", true}, {"172.31.255.255", true},
		{"192.168.1.20", true}, {"169.254.10.1", true}, {"fe80::1", true}, {"fd12:3456::1", true},
		{"::ffff:192.168.1.2", true},
		{"8.8.8.8", false}, {"172.32.0.1", false}, {"100.64.0.1", false}, {"2001:db8::1", false},
		{"0.0.0.0", false}, {"224.0.0.251", false}, {"::ffff:8.8.8.8", false},
	} {
		if got := privateSource(netip.MustParseAddr(c.addr)); got != c.ok {
			t.Errorf("privateSource(%s) = %v, want %v", c.addr, got, c.ok)
		}
	}
}

// Where the entry listens: the LAN address or loopback as asked, never
// every interface.
func TestWebListen(t *testing.T) {
	for _, bad := range []string{"0.0.0.0:0", "[::]:0", ":x", "8.8.8.8:0", "localhost:0", "nonsense"} {
		if ln, err := webListen(bad, netip.MustParseAddr("127.0.0.1")); err == nil {
			ln.Close()
			t.Errorf("webListen(%q) listened on %s", bad, ln.Addr())
		}
	}
	ln, err := webListen(":0", netip.MustParseAddr("127.0.0.1"))
	if err != nil {
		t.Fatal(err)
	}
	if a := ln.Addr().String(); !strings.HasPrefix(a, "127.0.0.1:") {
		t.Errorf(":0 listened on %s, want the LAN address's port", a)
	}
	ln.Close()
	if _, err := webListen("", netip.Addr{}); !errors.Is(err, lan.ErrNoLAN) {
		t.Errorf("no LAN address: %v", err)
	}
}

// What a node passes on as a player node's web address.
func TestWebAddrOK(t *testing.T) {
	for in, want := range map[string]string{
		"http://192.168.1.20:8080":   "http://192.168.1.20:8080",
		"http://192.168.1.20:8080/":  "http://192.168.1.20:8080",
		"http://[fe80::1]:8081":      "http://[fe80::1]:8081",
		"http://127.0.0.1:9":         "http://127.0.0.1:9",
		"https://192.168.1.20:8080":  "",
		"http://8.8.8.8:8080":        "",
		"http://example.com:8080":    "",
		"http://192.168.1.20":        "",
		"http://192.168.1.20:0":      "",
		"http://u@192.168.1.20:8080": "",
		"http://192.168.1.20:8080/x": "",
		"javascript:alert(1)":        "",
		"":                           "",
		"http://192.168.1.20:8080/?" + strings.Repeat("a", 80): "",
	} {
		if got := webAddrOK(in); got != want {
			t.Errorf("webAddrOK(%q) = %q, want %q", in, got, want)
		}
	}
}

// A seated phone that sends what it shouldn't is refused, each for its
// reason, and plays on: an envelope signed by another key than the one it
// proved, a replay of its own, garbage. An oversize frame ends its
// connection (as on libp2p) and it takes its seat back.
func TestWebRogueEnvelopesRefused(t *testing.T) {
	hn, tb, srv, w := webTable(t, table.Settings{Seats: 3, Bots: []string{"b", "c"}}, stillMaker)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	key := newPhoneKey(t)
	p := seatPhone(ctx, t, w, hn, key, "Ada")
	if err := tb.Start(); err != nil {
		t.Fatal(err)
	}
	// wait for the refusal count to reach n and return the last.
	refusedAs := func(n int) protocol.Refusal {
		t.Helper()
		for ctx.Err() == nil {
			if got, last := p.refusals(); got >= n {
				return last
			}
			time.Sleep(5 * time.Millisecond)
		}
		t.Fatalf("no refusal %d", n)
		return protocol.Refusal{}
	}

	other := newPhoneKey(t)
	forged, err := protocol.Seal(mustEd(t, other), p.tid, p.term, 1, protocol.Pass{No: 0, Seat: p.seat})
	if err != nil {
		t.Fatal(err)
	}
	p.write(forged)
	if r := refusedAs(1); r.Code != protocol.CodeBadCommand || !strings.Contains(r.Message, "sender") {
		t.Fatalf("a forged envelope: %+v", r)
	}

	hb := p.seal(protocol.Heartbeat{})
	p.write(hb)
	p.write(hb)
	if r := refusedAs(2); !strings.Contains(strings.ToLower(r.Message), "replay") {
		t.Fatalf("a replayed envelope: %+v", r)
	}

	garbage := make([]byte, 200)
	rand.Read(garbage)
	p.write(garbage)
	if r := refusedAs(3); r.Code != protocol.CodeBadCommand {
		t.Fatalf("garbage: %+v", r)
	}

	// Still seated and answered: a move out of turn is refused by the
	// engine, not the door.
	p.Send(engine.Command{Move: engine.MoveCall, No: 99, Rank: engine.NoRank})
	if r := refusedAs(4); r.Code == protocol.CodeBadCommand {
		t.Fatalf("a move after the rogue envelopes: %+v", r)
	}
	if got := srv.Refused.Load(); got < 4 {
		t.Fatalf("the server counted %d refusals", got)
	}

	// An oversize frame: refused before its bytes are read, the link ends.
	p.wmu.Lock()
	p.w.Write([]byte{0xff, 0xff, 0xff, 0x7f})
	p.w.Flush()
	p.wmu.Unlock()
	if r := refusedAs(5); !strings.Contains(r.Message, "size limit") {
		t.Fatalf("an oversize frame: %+v", r)
	}
	for range p.Updates() {
	}
	// A WebSocket message over the channel's limit ends its link too.
	q := dialPhone(ctx, t, w.URL(), key, hn.key.GetPublic(), "")
	if err := q.join("Ada"); err != nil {
		t.Fatalf("the phone could not take its seat back: %v", err)
	}
	if q.seat != p.seat {
		t.Fatalf("back at seat %d, was %d", q.seat, p.seat)
	}
	// Frames inside, so that only the limit can end it: whatever reads
	// the message must read past MaxMessage or refuse it whole.
	big := make([]byte, webwire.MaxMessage+1)
	rand.Read(big)
	n := binary.PutUvarint(big, 60000)
	binary.PutUvarint(big[n+60000:], 60000)
	q.ws.Write(ctx, websocket.MessageBinary, big)
	for range q.Updates() {
	}
	r := dialPhone(ctx, t, w.URL(), key, hn.key.GetPublic(), "")
	if err := r.join("Ada"); err != nil || r.seat != p.seat {
		t.Fatalf("after an oversize message: %v, seat %d", err, r.seat)
	}
}

// A flood from one address: past its burst the address may not open /ws,
// nor hold more than WebConnsPerAddr at once, nor read faster than its
// budget on a connection; a player at another address is answered all
// the while.
func TestWebFloodFromOneAddress(t *testing.T) {
	hn, tb, _, w := webTable(t, table.Settings{Seats: 3, Bots: []string{"b"}}, stillMaker)
	w.opens = webLimiter(nil) // loopback counted like any address
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	var held []*websocket.Conn
	statuses := map[int]int{}
	for range 20 {
		ws, resp, err := dialWS(ctx, w.URL(), "", "127.0.0.7")
		switch {
		case err == nil:
			held = append(held, ws) // kept open, never shaking hands
		case resp != nil:
			statuses[resp.StatusCode]++
		default:
			t.Fatal(err)
		}
	}
	if len(held) != WebConnsPerAddr || statuses[http.StatusTooManyRequests] != 20-WebConnsPerAddr {
		t.Fatalf("20 opens from one address: %d open, refused %v; want %d open", len(held), statuses, WebConnsPerAddr)
	}
	for _, ws := range held {
		ws.CloseNow()
	}

	// A seated flooder's frames are read under its own budget.
	f := dialPhone(ctx, t, w.URL(), newPhoneKey(t), hn.key.GetPublic(), "127.0.0.8")
	if err := f.join("Flood"); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			if f.send(protocol.Call{No: 99, Seat: f.seat}) != nil {
				return
			}
		}
	}()
	honest := dialPhone(ctx, t, w.URL(), newPhoneKey(t), hn.key.GetPublic(), "127.0.0.9")
	if err := honest.join("Ben"); err != nil {
		t.Fatalf("the honest player was not seated: %v", err)
	}
	if err := tb.Start(); err != nil {
		t.Fatal(err)
	}
	for u := range honest.Updates() {
		if u.View.Phase != engine.PhasePlay || u.Table.Phase != "playing" {
			continue
		}
		honest.Send(engine.Command{Move: engine.MoveCall, No: 99, Rank: engine.NoRank})
		for u := range honest.Updates() {
			if u.Refusal != nil {
				return // answered
			}
		}
	}
	t.Fatal("the honest player got no answer")
}

// A node that doesn't host answers /ws with a not_host refusal, signed.
func TestWebNotHost(t *testing.T) {
	k := newPhoneKey(t)
	w, err := ListenWeb(k, netip.Addr{}, WebConfig{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	p := dialPhone(ctx, t, w.URL(), newPhoneKey(t), k.GetPublic(), "")
	err = p.join("Ada")
	var ref *gamewire.Refused
	if !errors.As(err, &ref) || ref.Code != protocol.CodeNotHost {
		t.Fatalf("a node without a table: %v", err)
	}
}

// A phone's seat is never an election candidate, whatever else the
// Lobby says of it; a player node's is.
func TestWebPhoneNeverCandidate(t *testing.T) {
	hn, tb, _, w := webTable(t, table.Settings{Seats: 4, Bots: []string{"b"}}, stillMaker)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p := seatPhone(ctx, t, w, hn, newPhoneKey(t), "Ada")
	pn := newLoopNode(t)
	r, err := dial(ctx, pn.h, pn.key, info(hn), "Ben", "", false, nil, table.DefaultTiming(), Setup{}, func(r *Remote) { r.webAddr = "http://127.0.0.1:8085" })
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	_ = tb
	u := waitFor(t, ctx, r, func(u table.Update) bool { return len(u.Table.Seats) == 4 && u.Table.Seats[1].Peer != "" })
	seats := u.Table.Seats
	if !seats[0].Web || seats[0].Peer != p.id.String() {
		t.Fatalf("the phone's seat: %+v", seats[0])
	}
	if seats[1].Web || seats[1].WebAddr != "http://127.0.0.1:8085" {
		t.Fatalf("the player node's seat: %+v", seats[1])
	}
	var cands []candidate
	r.do(func() { cands = candidates(r.table.Seats, hn.h.ID()) })
	if len(cands) != 1 || cands[0].id != pn.h.ID() {
		t.Fatalf("candidates: %v, want the player node alone", cands)
	}
}

// follow is the phone after its host vanished: it goes to each other
// player node's web address from the last Lobby until one takes it back
// into its seat for the next term, with its journal and shares carried.
func (p *phone) follow(ctx context.Context, t *testing.T, keys map[string]crypto.PubKey) *phone {
	t.Helper()
	p.mu.Lock()
	var addrs []string
	for _, si := range p.table.Seats {
		if si.WebAddr != "" && si.Peer != p.host.String() {
			addrs = append(addrs, si.Peer+" "+si.WebAddr)
		}
	}
	p.mu.Unlock()
	for ctx.Err() == nil {
		for _, a := range addrs {
			id, base, _ := strings.Cut(a, " ")
			q := dialPhone(ctx, t, base, p.key, keys[id], "")
			p.mu.Lock()
			q.seat, q.tid, q.term, q.table, q.view = p.seat, p.tid, p.term+1, p.table, p.view
			q.steps, q.shares = p.steps, p.shares
			p.mu.Unlock()
			err := q.join("Ada")
			if err == nil {
				return q
			}
			q.ws.CloseNow()
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("no node took the phone back")
	return nil
}

// The host vanishes mid-game with a phone and a player node at the table:
// the player node hosts (the phone never does), the phone finds it through
// the Lobby's web address, gives its shares for the rebuild, takes its
// seat back and plays to the end, as the player node does, cards all there.
func TestWebPhoneFollowsTheNewHost(t *testing.T) {
	rules := engine.Standard()
	rules.Window = time.Second
	set := table.Settings{Name: "Kitchen", Rules: rules, Seats: 3, Bots: []string{"x"}, Timing: table.Timing{Reveal: 20 * time.Millisecond}}
	hn, tb, srv, w := webTable(t, set, dumbMaker)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	p := seatPhone(ctx, t, w, hn, newPhoneKey(t), "Ada")
	pn := newLoopNode(t)
	pw, err := ListenWeb(pn.key, netip.Addr{}, WebConfig{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	r, err := dial(ctx, pn.h, pn.key, info(hn), "Ben", "", false, nil, table.DefaultTiming(),
		Setup{Bots: dumbMaker, Fall: dumbFallback}, func(r *Remote) { r.webAddr, r.web = pw.URL(), pw })
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := tb.Start(); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var rEnd table.Update
	wg.Add(1)
	go func() {
		defer wg.Done()
		rEnd, _ = table.PlayBot(ctx, r, slowBot{&nodetest.DumbBot{Seat: r.Seat()}}, dumbFallback, "brisk", nil)
	}()
	go func() {
		for tb.Plays() < 5 && ctx.Err() == nil {
			time.Sleep(20 * time.Millisecond)
		}
		w.Close()
		srv.Close()
		tb.Close()
		hn.h.Close()
	}()
	table.PlayBot(ctx, p, slowBot{&nodetest.DumbBot{Seat: p.seat}}, dumbFallback, "brisk", nil)
	if p.view.Phase == engine.PhaseOver {
		t.Fatal("the game ended before the host left")
	}
	q := p.follow(ctx, t, map[string]crypto.PubKey{pn.h.ID().String(): pn.key.GetPublic()})
	if q.host != pn.h.ID() || q.seat != p.seat {
		t.Fatalf("back with %s at seat %d; want %s at %d", q.host, q.seat, pn.h.ID(), p.seat)
	}
	last, err := table.PlayBot(ctx, q, slowBot{&nodetest.DumbBot{Seat: q.seat}}, dumbFallback, "brisk", nil)
	if err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	nodetest.CheckEnded(t, last.View, rules, 3)
	nodetest.CheckEnded(t, rEnd.View, rules, 3)
	if !r.Hosting() {
		t.Fatal("the player node does not host")
	}
	if got := q.table.Seats[q.seat]; !got.Web {
		t.Fatalf("the phone's seat under the new host: %+v", got)
	}
}

// Refuse before you work: an address that opens connections to the web
// entry faster than WebDialsPerAddr has them closed as they are accepted,
// before a byte of HTTP is read or answered; this machine's own loopback
// is not counted.
func TestWebDialFloodClosedAtAccept(t *testing.T) {
	saved := WebDialsPerAddr
	// The burst and next to no more, so that nothing here depends on time.
	WebDialsPerAddr = rate.Limit{RPS: 1.0 / 86400, Burst: 5}
	defer func() { WebDialsPerAddr = saved }()
	_, _, _, w := webTable(t, table.Settings{Seats: 3, Bots: []string{"b"}}, stillMaker)
	target := strings.TrimPrefix(w.URL(), "http://")
	// open asks for /ws from addr over a connection of its own and says
	// whether any HTTP came back.
	open := func(addr string) bool {
		t.Helper()
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(addr)}, Timeout: 5 * time.Second}
		c, err := d.Dial("tcp", target)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(10 * time.Second))
		fmt.Fprintf(c, "GET /ws HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", target)
		b, _ := io.ReadAll(c)
		return strings.HasPrefix(string(b), "HTTP/1.1 ")
	}
	const opens = 30
	refused := w.Refused.Load()
	answered := 0
	for range opens {
		if open("127.0.0.21") {
			answered++
		}
	}
	t.Logf("%d opens from one address: %d answered in HTTP; the entry counted %d refusals", opens, answered, w.Refused.Load()-refused)
	if answered != WebDialsPerAddr.Burst {
		t.Errorf("%d of %d opens were read and answered, want the burst of %d", answered, opens, WebDialsPerAddr.Burst)
	}
	if n := w.Refused.Load() - refused; n < opens-int64(WebDialsPerAddr.Burst) {
		t.Errorf("the entry counted %d refusals, want at least %d", n, opens-WebDialsPerAddr.Burst)
	}
	if !open("127.0.0.22") {
		t.Error("another address was not answered")
	}
	for i := range opens {
		if !open("127.0.0.1") {
			t.Fatalf("open %d from 127.0.0.1 was not answered", i)
		}
	}
}

// The page's files are rate-limited per address over any connections, the
// player (1.5 MB) more tightly: one address can't pull it over and over on
// a keep-alive connection. Another address, and this machine's loopback,
// are not held back by it.
func TestWebFilesLimitedPerAddress(t *testing.T) {
	savedFiles, savedPlayer := WebFilesPerAddr, WebPlayerPerAddr
	// Bursts and next to no more, so that nothing here depends on time.
	WebFilesPerAddr = rate.Limit{RPS: 1.0 / 86400, Burst: 8}
	WebPlayerPerAddr = rate.Limit{RPS: 1.0 / 86400, Burst: 3}
	defer func() { WebFilesPerAddr, WebPlayerPerAddr = savedFiles, savedPlayer }()
	_, _, _, w := webTable(t, table.Settings{Seats: 3, Bots: []string{"b"}}, stillMaker)
	from := func(addr string) *http.Client {
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(addr)}, Timeout: 5 * time.Second}
		return &http.Client{Transport: &http.Transport{DialContext: d.DialContext}, Timeout: 10 * time.Second}
	}
	get := func(c *http.Client, path string) int {
		t.Helper()
		resp, err := c.Get(w.URL() + path)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	c := from("127.0.0.31") // one keep-alive connection
	var codes []int
	for range 5 {
		codes = append(codes, get(c, "/app.wasm"))
	}
	if want := []int{200, 200, 200, 429, 429}; !slices.Equal(codes, want) {
		t.Fatalf("the player asked for 5 times from one address: %v, want %v", codes, want)
	}
	for i := range 5 {
		codes[i] = get(c, "/style.css")
	}
	// 5 asks for the player and 3 for the style spend the burst of 8.
	if want := []int{200, 200, 200, 429, 429}; !slices.Equal(codes, want) {
		t.Fatalf("the page's style asked for after that: %v, want %v", codes, want)
	}
	if code := get(from("127.0.0.32"), "/app.wasm"); code != 200 {
		t.Fatalf("another address asked for the player: %d", code)
	}
	for i := range 12 {
		if code := get(from("127.0.0.1"), "/app.wasm"); code != 200 {
			t.Fatalf("ask %d from this machine's loopback: %d", i, code)
		}
	}
}

// /table says which table the node hosts, for the join page: its name,
// host, the host's three words, the preset and the seats taken, and
// whether it needs a code (never the code); 404 when it hosts none.
func TestWebSaysWhichTable(t *testing.T) {
	set := table.Settings{Name: "Kitchen", Rules: engine.Standard(), Seats: 4, Bots: []string{"a"}, Code: "774829"}
	hn, _, srv, w := webTable(t, set, dumbMaker)
	get := func() (int, string) {
		res, err := http.Get(w.URL() + "/table")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	code, body := get()
	var a table.About
	if err := json.Unmarshal([]byte(body), &a); code != 200 || err != nil {
		t.Fatalf("/table: %d %q %v", code, body, err)
	}
	want := table.About{Name: "Kitchen", Host: a.Host, Words: protocol.Fingerprint(string(hn.h.ID())), Preset: "standard", Seats: 4, Taken: 1, Phase: "waiting", Code: true}
	if a != want || strings.Contains(body, "774829") {
		t.Errorf("/table says %s, want %+v", body, want)
	}
	w.unhost(srv)
	if code, _ := get(); code != 404 {
		t.Errorf("/table with no table: %d", code)
	}
}

// Phones guessing a private table's code all at once, from 60 addresses
// (issue 21, 6): the web door's codes are counted by the same count as
// libp2p's, each taking its place as it is checked, so no more than
// CodeTriesPerWindow are checked however many exchanges are opened
// together; the rest are turned away for the table unchecked.
func TestWebCodeGuessesCountedAtCheck(t *testing.T) {
	hn, _, _, w := webTable(t, table.Settings{Seats: 3, Code: "tulip-42", Bots: []string{"b"}}, stillMaker)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const phones = 60
	type answer struct {
		env   *protocol.Envelope
		p     *phone
		hello protocol.Hello
	}
	first := make([]answer, phones)
	var wg sync.WaitGroup
	for i := range phones {
		p := dialPhone(ctx, t, w.URL(), newPhoneKey(t), hn.key.GetPublic(), fmt.Sprintf("127.0.0.%d", 10+i))
		hello := protocol.Hello{Version: protocol.Current, Nick: "guess", Nonce: make([]byte, protocol.NonceSize)}
		rand.Read(hello.Nonce)
		first[i] = answer{p: p, hello: hello}
	}
	// Every hello, then every answer: none is known wrong when the
	// others start.
	for i := range first {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a := &first[i]
			if err := a.p.send(a.hello); err != nil {
				t.Error(err)
				return
			}
			a.env, _ = a.p.next()
		}()
	}
	wg.Wait()
	checked, table := 0, 0
	var mu sync.Mutex
	for i := range first {
		a := &first[i]
		if a.env == nil {
			t.Fatalf("phone %d: no answer to its hello", i)
		}
		switch m := a.env.Msg.(type) {
		case protocol.Refusal:
			if !strings.Contains(m.Message, "for this table") {
				t.Errorf("phone %d refused for another reason: %q", i, m.Message)
			}
			mu.Lock()
			table++
			mu.Unlock()
		case protocol.Challenge:
			wg.Add(1)
			go func() {
				defer wg.Done()
				px, err := gamewire.AnswerChallenge("nope-nope", a.hello, a.env, string(a.p.id), string(a.p.host))
				if err != nil {
					t.Error(err)
					return
				}
				h := a.hello
				h.Share, h.Proof = px.Share(), px.Confirm()
				a.p.send(h)
				env, err := a.p.next()
				if err != nil {
					t.Error(err)
					return
				}
				r, _ := env.Msg.(protocol.Refusal)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case r.Message == "That join code is wrong.":
					checked++
				case strings.Contains(r.Message, "for this table"):
					table++
				default:
					t.Errorf("an answer refused for another reason: %q", r.Message)
				}
			}()
		default:
			t.Fatalf("phone %d: answered %T", i, m)
		}
	}
	wg.Wait()
	if checked > guard.CodeTriesPerWindow || checked == 0 || checked+table != phones {
		t.Fatalf("%d phones guessing at once: %d codes checked, %d turned away for the table; want at most %d checked",
			phones, checked, table, guard.CodeTriesPerWindow)
	}
}

// Newcomers that never get through the door can't keep a phone out
// (issue 21, 5): with the pool full, the phone's open closes the oldest
// newcomer of the address holding the most, the phone is seated, and a
// newcomer alone at its address is closed only when every address holds
// one; one that holds its place too long is closed at WebHandshake.
func TestWebNewcomersEvicted(t *testing.T) {
	defer func(n int, d time.Duration) { WebNewcomers, WebHandshake = n, d }(WebNewcomers, WebHandshake)
	WebNewcomers, WebHandshake = 6, 2*time.Second
	hn, _, _, w := webTable(t, table.Settings{Seats: 3, Bots: []string{"b"}}, stillMaker)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	open := func(from string) *websocket.Conn {
		t.Helper()
		ws, _, err := dialWS(ctx, w.URL(), "", from)
		if err != nil {
			t.Fatalf("from %s: %v", from, err)
		}
		return ws
	}
	closed := func(ws *websocket.Conn) bool {
		rctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		defer cancel()
		_, _, err := ws.Read(rctx)
		return err != nil && rctx.Err() == nil
	}
	// A lone newcomer first (the oldest), then four from one address.
	lone := open("127.0.0.20")
	var busy []*websocket.Conn
	for range 4 {
		busy = append(busy, open("127.0.0.21"))
	}
	other := open("127.0.0.22")
	p := dialPhone(ctx, t, w.URL(), newPhoneKey(t), hn.key.GetPublic(), "127.0.0.30")
	if err := p.join("Ana"); err != nil {
		t.Fatalf("the phone, the pool full: %v", err)
	}
	if n := w.Evicted.Load(); n != 1 {
		t.Fatalf("%d newcomers closed for the phone, want 1", n)
	}
	if !closed(busy[0]) {
		t.Fatal("the busiest address's oldest newcomer is still open")
	}
	if closed(lone) || closed(other) || closed(busy[1]) {
		t.Fatal("a newcomer other than the busiest address's oldest was closed")
	}
	// Out of time: every newcomer closed by WebHandshake; the phone,
	// through the door, stays.
	time.Sleep(WebHandshake)
	for i, ws := range append([]*websocket.Conn{lone, other}, busy[1:]...) {
		if !closed(ws) {
			t.Fatalf("newcomer %d open past WebHandshake", i)
		}
	}
	w.mu.Lock()
	established, fresh := w.total, len(w.fresh)
	w.mu.Unlock()
	if established != 1 || fresh != 0 {
		t.Fatalf("%d established, %d newcomers; want the phone alone, established", established, fresh)
	}
}
