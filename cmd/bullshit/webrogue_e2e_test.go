//go:build linux

package main

// The rogue at the web entry (issue 14): the rogue of rogue_e2e_test.go
// seated as a phone is, over /ws and webwire rather than libp2p, and the
// door's own attacks besides. It is this test binary again (mode "web"),
// in a namespace of its own, speaking node/webwire, coder/websocket and
// protocol directly: no page, no node.
//
// What it tries, and what must answer it:
//   - at the door: pages of other sites (a foreign Origin: 403), a
//     handshake whose proof is signed by another key than the one it
//     claims, and one that replays a proof from an earlier handshake (the
//     host hangs up without a word), a message that isn't a box inside a
//     channel (hung up), a message over webwire.MaxMessage (closed with
//     1009, message too big);
//   - seated: every envelope attack of the libp2p rogue (forged, replayed,
//     stale and future terms, another table, another seat, a call on a
//     play long settled: "Too late", garbage, bodies that don't decode,
//     unknown types, a host's message), plus an envelope signed by another
//     key claiming the next seat, each refused for its reason;
//   - a flood from its one address: frames on its seat's channel, all
//     refused rightly, and /ws opened again and again (429: at once, and
//     too often);
//   - last, a frame over the size limit: refused, the link ends, and the
//     phone takes its seat back and plays to the end.

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/gtank/ristretto255"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/bullshit-game/bullshit/node"
	roguepeer "github.com/bullshit-game/bullshit/node/rogue"
	"github.com/bullshit-game/bullshit/node/webwire"
	"github.com/bullshit-game/bullshit/node/webwire/coderws"
	"github.com/bullshit-game/bullshit/protocol"
)

const rogueWebEnv = "BS_E2E_ROGUE_WEB" // mode "web": the host's web base URL

// webAttackKinds are the libp2p rogue's attacks and one of the web's: an
// envelope signed by a key the phone never proved, for the next seat.
var webAttackKinds = append(slices.Clone(roguepeer.Kinds), "forged-seat")

// The door's refusals, as node/web.go words them.
const (
	foreignPage = "That page is not this table's."
	tooOften    = "Too many connections from your address: wait a moment."
	tooMany     = "Too many connections from your address at once."
)

// webFlood is how many frames the rogue floods its channel with: past the
// host's burst (guard.FrameBurst), so that most wait for the budget.
const webFlood = 300

func runWebRogue(say func(string, map[string]any)) error {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	base := os.Getenv(rogueWebEnv)
	p, err := roguepeer.New(say)
	if err != nil {
		return err
	}
	r := &rogue{Rogue: p, say: say}

	// The door, before a seat: no page of another site gets in, nor a
	// proof that isn't of this handshake.
	for _, o := range []string{"http://evil.example", "http://8.8.8.8:8080", "null"} {
		status, text := webOpenRefused(ctx, base, o)
		say("door", map[string]any{"kind": "foreign-origin", "origin": o, "status": status, "text": text,
			"ok": status == http.StatusForbidden && text == foreignPage})
	}
	if err := r.badHandshakes(ctx, base); err != nil {
		return err
	}

	if err := r.webConnect(ctx, base); err != nil {
		return fmt.Errorf("joining: %w", err)
	}
	_, seat, _ := r.Seated()
	say("seated", map[string]any{"seat": seat})
	go r.Play(ctx)
	go r.heartbeats(ctx)
	if err := r.webAttack(ctx, base); err != nil {
		return err
	}
	over, err := r.untilOver(ctx, func() error { return r.webConnect(ctx, base) })
	if err != nil {
		return err
	}
	say("over", map[string]any{"places": over.Places, "hands": handNames(over.Hands), "pile": cardNames(over.Cards)})
	time.Sleep(500 * time.Millisecond)
	return nil
}

// wsDial opens base's /ws with Origin origin ("" none).
func wsDial(ctx context.Context, base, origin string) (*websocket.Conn, *http.Response, error) {
	hdr := http.Header{}
	if origin != "" {
		hdr.Set("Origin", origin)
	}
	return websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/ws", &websocket.DialOptions{HTTPHeader: hdr})
}

// webOpenRefused opens /ws and returns the refusal's status and text (0
// and "" if it opened: then it is closed at once).
func webOpenRefused(ctx context.Context, base, origin string) (int, string) {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	ws, resp, err := wsDial(cctx, base, origin)
	if err == nil {
		ws.CloseNow()
		return 0, ""
	}
	if resp == nil {
		return -1, err.Error()
	}
	var text string
	if resp.Body != nil {
		b, _ := io.ReadAll(resp.Body)
		text = strings.TrimSpace(string(b))
	}
	return resp.StatusCode, text
}

// hungUp reads ws and says whether the host ended it (rather than the
// bound running out), and how: a refused handshake or box gets no answer
// but that, an oversize message a close of its own.
func hungUp(ctx context.Context, ws *websocket.Conn) (bool, string, websocket.StatusCode) {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	_, b, err := ws.Read(cctx)
	switch {
	case err == nil:
		return false, fmt.Sprintf("a message of %d bytes", len(b)), -1
	case cctx.Err() != nil:
		return false, "no answer and still open after 10 s", -1
	}
	return true, err.Error(), websocket.CloseStatus(err)
}

// The handshake's transcripts, as node/webwire's doc gives them; the rogue
// makes its own so that it can sign what it likes.
const (
	wwLabel     = "bullshit/web/v1"
	wwHostCtx   = "bullshit/web/v1 host\x00"
	wwPlayerCtx = "bullshit/web/v1 player\x00"
)

func wwT1(eP, eH, H []byte) []byte {
	h := sha256.New()
	h.Write([]byte(wwLabel))
	h.Write(eP)
	h.Write(eH)
	h.Write(H)
	return h.Sum(nil)
}

func wwT2(t1, P []byte) []byte {
	h := sha256.New()
	h.Write(t1)
	h.Write(P)
	return h.Sum(nil)
}

// handshakeUpTo runs the player's side up to its proof: it returns the
// open WebSocket and t1, having checked the host's signature over it (so
// that the rogue's transcript is the host's).
func handshakeUpTo(ctx context.Context, base string) (*websocket.Conn, []byte, error) {
	ws, _, err := wsDial(ctx, base, base)
	if err != nil {
		return nil, nil, err
	}
	var x [64]byte
	rand.Read(x[:])
	ep := ristretto255.NewElement().ScalarBaseMult(ristretto255.NewScalar().FromUniformBytes(x[:])).Encode(nil)
	if err := ws.Write(ctx, websocket.MessageBinary, append([]byte("BSW2"), ep...)); err != nil {
		ws.CloseNow()
		return nil, nil, err
	}
	_, m2, err := ws.Read(ctx)
	if err != nil || len(m2) != 32+ed25519.PublicKeySize+ed25519.SignatureSize {
		ws.CloseNow()
		return nil, nil, fmt.Errorf("the host's answer: %d bytes, %v", len(m2), err)
	}
	H := ed25519.PublicKey(m2[32 : 32+ed25519.PublicKeySize])
	t1 := wwT1(ep, m2[:32], H)
	if !ed25519.Verify(H, append([]byte(wwHostCtx), t1...), m2[32+ed25519.PublicKeySize:]) {
		ws.CloseNow()
		return nil, nil, errors.New("self-check: the rogue's transcript is not the host's")
	}
	return ws, t1, nil
}

// badHandshakes: a proof signed by another key than the one it names, and
// a true proof of an earlier handshake replayed into a new one. Each costs
// the rogue an open of its address's budget, as the proof of the first
// handshake (made right, and answered by silence: the host waits for a
// hello) does.
func (r *rogue) badHandshakes(ctx context.Context, base string) error {
	P := r.Key.Public().(ed25519.PublicKey)
	ws, t1, err := handshakeUpTo(ctx, base)
	if err != nil {
		return err
	}
	good := append(slices.Clone([]byte(P)), ed25519.Sign(r.Key, append([]byte(wwPlayerCtx), wwT2(t1, P)...))...)
	err = ws.Write(ctx, websocket.MessageBinary, good)
	ws.CloseNow()
	if err != nil {
		return err
	}
	for _, kind := range []string{"handshake-bad-signature", "handshake-replayed-proof"} {
		ws, t1, err := handshakeUpTo(ctx, base)
		if err != nil {
			return fmt.Errorf("%s: %w", kind, err)
		}
		m3 := good
		if kind == "handshake-bad-signature" {
			// Names the other key, signs with its own.
			other := r.Other.Public().(ed25519.PublicKey)
			m3 = append(slices.Clone([]byte(other)), ed25519.Sign(r.Key, append([]byte(wwPlayerCtx), wwT2(t1, other)...))...)
		}
		ws.Write(ctx, websocket.MessageBinary, m3)
		ok, how, _ := hungUp(ctx, ws)
		ws.CloseNow()
		r.say("door", map[string]any{"kind": kind, "ok": ok, "text": how})
	}
	return nil
}

// webConnect takes the rogue's seat over /ws (again, after the host hung
// up): an open refused for the address's budget is tried again.
func (r *rogue) webConnect(ctx context.Context, base string) error {
	var ws *websocket.Conn
	var conn *webwire.Conn
	for {
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		var resp *http.Response
		var err error
		ws, resp, err = wsDial(cctx, base, base)
		if err == nil {
			conn, err = webwire.Dial(cctx, coderws.New(ws), r.Key, nil)
		}
		cancel()
		if err == nil {
			break
		}
		if resp == nil || resp.StatusCode != http.StatusTooManyRequests {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(500 * time.Millisecond):
		}
	}
	hid, err := peerIDOf(conn.Peer())
	if err != nil {
		return err
	}
	r.host.ID = hid
	return r.Join(conn, hid, protocol.Hello{Version: protocol.Current, Nick: "webrogue"})
}

// heartbeats keeps the seat's link alive as a phone does; a heartbeat is
// no move, so it is never what the replay attack sends again.
func (r *rogue) heartbeats(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(500 * time.Millisecond):
		}
		r.Send(protocol.Heartbeat{})
	}
}

// peerIDOf is the peer ID of the ed25519 key a web handshake named, as
// libp2p derives it.
func peerIDOf(pub ed25519.PublicKey) (peer.ID, error) {
	k, err := crypto.UnmarshalEd25519PublicKey(pub)
	if err != nil {
		return "", err
	}
	return peer.IDFromPublicKey(k)
}

// webAttackFrame is attackFrame with the web's own kind.
func (r *rogue) webAttackFrame(kind string) roguepeer.Maker {
	if kind != "forged-seat" {
		return r.Frame(kind)
	}
	tid, seat, seats := r.Seated()
	seats = max(seats, 2)
	v := r.View()
	no := 1
	if v != nil {
		no = v.No
	}
	return func(seq uint64) ([]byte, error) {
		return protocol.Seal(r.Other, tid, 1, seq, protocol.Call{No: no, Seat: (seat + 1) % seats})
	}
}

// webAttack runs the seated attacks once the game is going.
func (r *rogue) webAttack(ctx context.Context, base string) error {
	if err := r.going(ctx); err != nil {
		return err
	}
	if err := r.oneByOne(webAttackKinds, r.webAttackFrame, nil); err != nil {
		return err
	}

	// Channels of their own: a message that is no box, one over the
	// channel's size.
	for _, kind := range []string{"not-a-box", "oversize-message"} {
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		ws, _, err := wsDial(cctx, base, base)
		var conn *webwire.Conn
		if err == nil {
			conn, err = webwire.Dial(cctx, coderws.New(ws), r.Key, nil)
		}
		cancel()
		if err != nil {
			return fmt.Errorf("%s: %w", kind, err)
		}
		var msg []byte
		if kind == "not-a-box" {
			msg = make([]byte, 100)
		} else {
			// Frames inside, as in node's test, so that only the size can
			// end it.
			msg = make([]byte, webwire.MaxMessage+1)
			n := binary.PutUvarint(msg, 60000)
			binary.PutUvarint(msg[n+60000:], 60000)
		}
		rand.Read(msg[max(0, len(msg)-32):])
		ws.Write(ctx, websocket.MessageBinary, msg)
		// The channel's own reads would say the same (conn reads ws).
		ok, how, status := hungUp(ctx, ws)
		if kind == "oversize-message" {
			ok = ok && status == websocket.StatusMessageTooBig
		}
		conn.Reset()
		r.say("door", map[string]any{"kind": kind, "ok": ok, "text": how})
	}

	// A flood of frames on the seat's channel: the host reads them under
	// the connection's budget and refuses every one, rightly.
	if !r.isOver() {
		before, _ := r.Counts()
		cache := map[string][]byte{}
		sent := 0
		werr := r.Writes(func(write func(string, roguepeer.Maker) error) error {
			for i := range webFlood {
				kind := webAttackKinds[i%len(webAttackKinds)]
				if kind == "forged-seat" {
					kind = "forged-sender" // each made once: signing 300 frames is the rogue's CPU, not the host's
				}
				if err := write(kind, r.Cached(cache, kind)); err != nil {
					return err
				}
				sent++
			}
			return nil
		})
		answered := func() int {
			now, _ := r.Counts()
			n := 0
			for _, k := range roguepeer.Kinds {
				n += now[k] - before[k]
			}
			return n
		}
		deadline := time.Now().Add(time.Minute)
		for answered() < sent && time.Now().Before(deadline) && !r.isOver() {
			time.Sleep(50 * time.Millisecond)
		}
		_, wrong := r.Counts()
		r.say("flood", map[string]any{"sent": sent, "answered": answered(), "over": r.isOver(), "wrong": wrong,
			"err": fmt.Sprint(werr)})
	}

	// A flood of opens from the same address: held (the seat's is one),
	// then one after another, each closed at once.
	var held []*websocket.Conn
	statuses := map[string]int{}
	for range 3 * node.WebConnsPerAddr {
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		ws, resp, err := wsDial(cctx, base, base)
		cancel()
		switch {
		case err == nil:
			held = append(held, ws)
		case resp != nil:
			b, _ := io.ReadAll(resp.Body)
			statuses[strconv.Itoa(resp.StatusCode)+" "+strings.TrimSpace(string(b))]++
		default:
			statuses[err.Error()]++
		}
	}
	for _, ws := range held {
		ws.CloseNow()
	}
	for range 20 {
		status, text := webOpenRefused(ctx, base, base)
		statuses[strconv.Itoa(status)+" "+text]++
	}
	r.say("opens", map[string]any{"held": len(held), "statuses": statuses})

	// Last, a frame over the size limit: refused, and the host hangs up
	// (runWebRogue takes the seat back).
	if r.isOver() {
		return nil
	}
	werr := r.Oversize()
	got := r.WaitAnswer("oversize", time.Minute)
	after, wrong := r.Counts()
	r.say("attack", map[string]any{"kind": "oversize", "sent": 1, "refused": after["oversize"], "wrong": wrong["oversize"],
		"answered": got, "err": fmt.Sprint(werr), "over": r.isOver()})
	return nil
}

// TestE2EWebRogue: a rogue phone at the host's web entry, in a namespace
// of its own, is refused every time for the right reason, at the door and
// in its seat, and the honest players (terminal players over libp2p) play
// the game to its end, verified, the same everywhere, the rogue's seat
// included.
func TestE2EWebRogue(t *testing.T) {
	t.Parallel()
	oneFloodAtATime(t)
	const honest = 2
	// A browser player too, where there is a browser: the phone beside
	// the rogue phone must be answered as the terminals are.
	phones := 0
	if chromiumPath() != "" {
		phones = 1
	} else {
		t.Log("no Chromium: the honest players are terminals only")
	}
	l := newLAN(t, honest+2+phones, false)
	dir := t.TempDir()
	name := "webrogue-" + l.prefix
	journal := filepath.Join(dir, "journal")
	const web = "http://10.77.1.1:8080"
	host := l.start(1, "host", hostArgs(filepath.Join(dir, "host"), name, honest+1+phones, 0,
		"--web", strings.TrimPrefix(web, "http://"), "--turn-clock", "5s", "--journal", journal,
		"--blind=false")...) // the rogue plays a clear table's seat (node/rogue), as TestE2ERogue's
	table := host.waitFor(20*time.Second, "the table line", isType("table"))
	if got := strings.TrimSuffix(table.str("web"), "/"); got != web {
		t.Fatalf("the host serves phones at %q, want %s", got, web)
	}
	var players []*proc
	for i := 2; i <= honest+1; i++ {
		players = append(players, l.start(i, fmt.Sprintf("join%d", i), joinArgs(filepath.Join(dir, strconv.Itoa(i)), name,
			"--latency", filepath.Join(dir, fmt.Sprintf("latency%d", i)),
			"--capture", filepath.Join(dir, fmt.Sprintf("capture%d", i)))...))
	}
	rg := l.startRogue(honest+2, "webrogue", rogueEnv+"=web", rogueWebEnv+"="+web)
	phoneDone := make(chan stepResult, 1)
	if phones > 0 {
		b := l.startBrowser(honest+3, "phone", 360, 740)
		b.sit(web+"/", "Ana")
		go func() {
			r, err := b.playUntil(nil, 2*time.Minute)
			if err != nil {
				t.Errorf("phone: %v", err)
			}
			if r.What != "verified" {
				b.shot("end")
			}
			phoneDone <- r
		}()
	}
	seats := honest + 2 + phones
	game := finishGame(t, seats, 1, append([]*proc{host}, players...), 2*time.Minute)
	if phones > 0 {
		if r := <-phoneDone; r.What != "verified" {
			t.Errorf("the browser player ended on %+v, want the sheet with the deal verified on the phone", r)
		} else {
			t.Logf("the browser player ended at play %d, the deal verified on the phone", r.Play)
		}
	}
	over := rg.waitFor(30*time.Second, "the rogue to see the end", isType("over"))
	var o overEvent
	json.Unmarshal([]byte(over.raw), &o)
	if len(game) > 0 && !slices.Equal(o.Places, game[0].res.Places) {
		t.Errorf("the rogue saw places %v, the host %v", o.Places, game[0].res.Places)
	}
	checkCards(t, "webrogue", 1, o, game[0].res.Left)
	// Every honest move answered, as in TestE2ERogue (one on the last play
	// may be answered after its player left).
	for i, p := range players {
		checkCapture(t, p.name, filepath.Join(dir, fmt.Sprintf("capture%d", i+2)), hostPeer(t, table), journal)
		lat, un := readLatency(t, filepath.Join(dir, fmt.Sprintf("latency%d", i+2)))
		for _, u := range un {
			if u.seen < u.plays {
				t.Errorf("%s: its %s sent at play %d got no answer by the end of the game at play %d", p.name, u.move, u.seen, u.plays)
			}
		}
		if len(lat) == 0 {
			t.Errorf("%s timed no moves", p.name)
		}
	}

	lines := rg.snapshot()
	seen := map[string]bool{}
	for _, line := range lines {
		kind := line.str("kind")
		switch line.typ() {
		case "error":
			t.Errorf("rogue: %s", line.str("text"))
		case "door":
			seen[kind] = true
			if ok, _ := line.v["ok"].(bool); !ok {
				t.Errorf("door %s: not refused as it must be: %s", kind, line.raw)
			}
			t.Logf("FIGURE web door %s: %s", kind, clip(line.raw, 200))
		case "attack":
			seen[kind] = true
			if line.num("refused") != line.num("sent") || line.v["wrong"] != nil {
				t.Errorf("attack %s: %d sent, %d refused rightly; other answers: %v", kind, line.num("sent"), line.num("refused"), line.v["wrong"])
			}
			t.Logf("FIGURE web attack %s: sent %d, refused %d", kind, line.num("sent"), line.num("refused"))
		case "flood":
			seen["flood"] = true
			if wrong, _ := line.v["wrong"].(map[string]any); len(wrong) > 0 {
				t.Errorf("flood: refused for the wrong reason: %v", wrong)
			}
			if over, _ := line.v["over"].(bool); !over && line.num("answered") != line.num("sent") {
				t.Errorf("flood: %d frames sent, %d refused rightly", line.num("sent"), line.num("answered"))
			}
			t.Logf("FIGURE web flood of frames: %s", line.raw)
		case "opens":
			seen["opens"] = true
			checkOpens(t, line)
		}
	}
	want := []string{"foreign-origin", "handshake-bad-signature", "handshake-replayed-proof"}
	want = append(want, webAttackKinds...)
	want = append(want, "not-a-box", "oversize-message", "flood", "opens", "oversize")
	for _, k := range want {
		if !seen[k] {
			t.Errorf("the rogue never reported on %s (the game ended first?)", k)
		}
	}
	if _, ok := rg.find(isType("reconnected")); seen["oversize"] && !ok {
		t.Error("the rogue never took its seat back after the oversize frame")
	}
}

// checkOpens: of the opens from the rogue's address, no more were let in
// than the address may hold at once beside its seat, and every other was
// refused with 429 for one of the two reasons, each seen.
func checkOpens(t *testing.T, line outLine) {
	t.Helper()
	if held := line.num("held"); held > node.WebConnsPerAddr-1 {
		t.Errorf("opens: %d held at once beside the seat's, the limit is %d in all", held, node.WebConnsPerAddr)
	}
	statuses, _ := line.v["statuses"].(map[string]any)
	why := map[string]int{}
	for s, n := range statuses {
		k := int(n.(float64))
		switch s {
		case "0 ":
			why["let in"] += k // with the address's opens free again
		case "429 " + tooOften:
			why["too often"] += k
		case "429 " + tooMany:
			why["at once"] += k
		default:
			t.Errorf("opens: %d answered %q", k, s)
		}
	}
	if why["too often"] == 0 || why["at once"] == 0 {
		t.Errorf("opens: refusals %v, want some for each reason", why)
	}
	t.Logf("FIGURE web opens from one address: held %d, then %v", line.num("held"), why)
}
