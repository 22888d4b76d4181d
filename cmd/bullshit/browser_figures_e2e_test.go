//go:build linux

package main

// The phones' figures (issue 14, "Speed"): how long a page takes to put
// the table on screen, a browser player's shout to its verdict beside a
// terminal player's in the same game, the bytes a phone downloads before
// it can play, and what each phone costs the host. Nothing is asserted on
// time: the figures are logged as FIGURE lines and BENCHMARKS.md "Phones"
// is written from them.
//
//	sudo go test -count=1 ./cmd/bullshit/ -run E2EBrowserFigures -v | grep FIGURE
//
// The page's own clock gives the times: app.js keeps window.bullshitTimes
// (ready, table, call, verdict) in performance.now(), which counts from
// the navigation's start. With tcpdump installed, game A's traffic is
// captured in the host's namespace, and each browser call is also split
// at the host's socket (browser_capture_e2e_test.go).

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// pageTime is one of the page's milestones (app.js's window.bullshitTimes).
type pageTime struct {
	Ev   string
	T    float64 // ms since the navigation began
	Play int
}

func (b *browser) times(ctx context.Context) ([]pageTime, error) {
	return pageLog[pageTime](ctx, "bullshitTimes")
}

// pageLog reads the page's log window[name], a JSON array of Ts.
func pageLog[T any](ctx context.Context, name string) ([]T, error) {
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify(window.`+name+` || [])`))
	if err != nil {
		return nil, err
	}
	var xs []T
	return xs, json.Unmarshal([]byte(s), &xs)
}

// first is the time of the page's first milestone ev, or -1.
func first(ts []pageTime, ev string) float64 {
	for _, p := range ts {
		if p.Ev == ev {
			return p.T
		}
	}
	return -1
}

// noCache makes every load of the page a first visit's: each file comes
// whole over the network, and no compiled WebAssembly is kept.
func (b *browser) noCache(ctx context.Context) error {
	return chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true})
		return err
	}))
}

// wireJS stamps, in every document the browser opens, each message the
// page's WebSocket sends (as the page hands it over, "out", and as the
// browser's send returns, "sent") and each it receives ("in", as its
// event is dispatched), and each state the page is handed ("state", and
// "drawn" as the page's script returns), on the page's clock
// (window.bullshitWire: {ev, t, n bytes}), so that a call's time splits
// into callPart's parts. The page itself is not changed: the browser's
// WebSocket is wrapped before the page's scripts run (the stamp listener
// is the first on each socket), and so is bullshit.onState as the page
// sets it.
const wireJS = `(() => {
  const W = window.WebSocket;
  window.bullshitWire = [];
  const log = (ev, n) => window.bullshitWire.push({ev, t: performance.now(), n});
  function Stamped(url, protocols) {
    const ws = protocols === undefined ? new W(url) : new W(url, protocols);
    ws.addEventListener("message", (e) => log("in", e.data.byteLength || e.data.length || 0));
    const send = ws.send.bind(ws);
    // The frame after a send: "raf" as its animation frame callbacks run,
    // "framed" at the first task after its style, layout and paint.
    const framed = new MessageChannel();
    framed.port1.onmessage = () => log("framed", 0);
    ws.send = (d) => {
      log("out", d.byteLength || d.length || 0); send(d); log("sent", 0);
      requestAnimationFrame(() => { log("raf", 0); framed.port2.postMessage(0); });
    };
    return ws;
  }
  Stamped.prototype = W.prototype;
  for (const k of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) Stamped[k] = W[k];
  window.WebSocket = Stamped;
  let api;
  Object.defineProperty(window, "bullshit", { configurable: true, get: () => api, set: (v) => {
    api = v;
    let f;
    Object.defineProperty(v, "onState", { configurable: true, get: () => f && ((json) => {
      log("state", json.length);
      try { return f(json); } finally { log("drawn", 0); }
    }), set: (g) => { f = g; } });
  } });
})()`

// stampWire installs wireJS in b for the documents it opens from now on.
func (b *browser) stampWire(ctx context.Context) error {
	return chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: wireJS})
		return err
	}))
}

// wireStamp is one of wireJS's stamps.
type wireStamp struct {
	Ev string
	T  float64
	N  int
}

func (b *browser) wire(ctx context.Context) ([]wireStamp, error) {
	return pageLog[wireStamp](ctx, "bullshitWire")
}

// callPart names the parts of a browser call, in order (callParts).
var callPart = []string{
	"tap → its move handed to the socket (signed, sealed)",
	"→ the browser's send returned",
	"→ the first message back (the browser's processes, the network, the host)",
	"→ the last message before the verdict (others the page took first)",
	"→ that state handed to the page (the Go player: opened, checked, applied)",
	"→ the verdict drawn (the page's script)",
}

// callParts splits each call that got its verdict into callPart's parts,
// from wireJS's stamps, and counts the messages that came between the move
// and the verdict.
func callParts(ts []pageTime, ws []wireStamp) (parts [6][]time.Duration, msgs []int) {
	ms := func(f float64) time.Duration { return time.Duration(f * float64(time.Millisecond)) }
	tap := -1.0
	for _, p := range ts {
		switch p.Ev {
		case "call":
			tap = p.T
		case "lost":
			tap = -1
		case "verdict":
			if tap < 0 {
				continue
			}
			out, sent, firstIn, lastIn, state, n := -1.0, -1.0, -1.0, -1.0, -1.0, 0
			for _, w := range ws {
				if w.T < tap || w.T > p.T {
					continue
				}
				switch {
				case w.Ev == "out" && out < 0:
					out = w.T
				case w.Ev == "sent" && out >= 0 && sent < 0:
					sent = w.T
				case w.Ev == "in" && sent >= 0:
					if firstIn < 0 {
						firstIn = w.T
					}
					lastIn, state = w.T, -1
					n++
				case w.Ev == "state" && lastIn >= 0 && state < 0:
					state = w.T
				}
			}
			if state >= 0 {
				for i, d := range []float64{out - tap, sent - out, firstIn - sent, lastIn - firstIn, state - lastIn, p.T - state} {
					parts[i] = append(parts[i], ms(d))
				}
				msgs = append(msgs, n)
			}
			tap = -1
		}
	}
	return
}

// hostSplit splits each browser call at the host: tap → the host printed
// the call (its settled event on the host's output, as the test read it),
// and that → the first message back on the page. origin is the page's
// performance.timeOrigin and printed maps a play to when the host printed
// a call on it, both in ms since the epoch (one machine, one clock).
func hostSplit(ts []pageTime, ws []wireStamp, origin float64, printed map[int]float64) (toHost, fromHost []time.Duration) {
	ms := func(f float64) time.Duration { return time.Duration(f * float64(time.Millisecond)) }
	eachCall(ts, ws, func(p, _ pageTime, between []wireStamp) {
		at, ok := printed[p.Play]
		if !ok {
			return
		}
		if _, in := firstThen(between, "sent", "in"); in >= 0 {
			toHost = append(toHost, ms(at-(origin+p.T)))
			fromHost = append(fromHost, ms(origin+in-at))
		}
	})
	return toHost, fromHost
}

// sent is what the page and its files cost on the wire, from the page's
// Performance entries: transferSize (headers and body as sent, gzipped
// where the host gzips) and encodedBodySize, by file.
type sent struct {
	Files []struct {
		Name            string
		TransferSize    float64
		EncodedBodySize float64
	}
}

func (s sent) total() (wire, bodies float64) {
	for _, f := range s.Files {
		wire += f.TransferSize
		bodies += f.EncodedBodySize
	}
	return
}

const sentJS = `JSON.stringify({Files: performance.getEntriesByType("navigation").concat(performance.getEntriesByType("resource"))
  .map((e) => ({Name: new URL(e.name).pathname, TransferSize: e.transferSize, EncodedBodySize: e.encodedBodySize}))})`

// pageLoads opens url n times in b with no cache and sits as nick: the
// first time by typing the name and tapping Sit down (a first visit), then
// by navigating again (the page sits again by itself, as after a reload).
// It returns the first visit's time to the table without the tap's wait
// (navigation → form ready, plus tap → table), the later loads' navigation
// → table, and the bytes of the last load.
func (b *browser) pageLoads(url, nick string, n int) (firstVisit time.Duration, again []time.Duration, bytes sent) {
	t := b.t
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	ms := func(f float64) time.Duration { return time.Duration(f * float64(time.Millisecond)) }
	if err := b.noCache(ctx); err != nil {
		t.Fatalf("%s: disable the cache: %v", b.name, err)
	}
	for i := range n {
		err := chromedp.Do(ctx, chromedp.Navigate(url))
		if err == nil && i == 0 {
			err = b.waitJS(ctx, `(window.bullshitTimes || []).some((e) => e.ev === "ready")`)
			var tap float64
			if err == nil {
				// The tap in the page itself, timed on its clock.
				tap, err = chromedp.Run(ctx, chromedp.Evaluate[float64](`(() => {
  document.querySelector("#nick").value = `+strconv.Quote(nick)+`;
  const t = performance.now(); document.querySelector("#sit").click(); return t; })()`))
			}
			if err == nil {
				err = b.waitJS(ctx, `(window.bullshitTimes || []).some((e) => e.ev === "table")`)
			}
			if err == nil {
				var ts []pageTime
				ts, err = b.times(ctx)
				firstVisit = ms(first(ts, "ready") + first(ts, "table") - tap)
			}
		} else if err == nil {
			err = b.waitJS(ctx, `(window.bullshitTimes || []).some((e) => e.ev === "table")`)
			if err == nil {
				var ts []pageTime
				ts, err = b.times(ctx)
				again = append(again, ms(first(ts, "table")))
			}
		}
		if err == nil {
			err = chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`body[data-status="seated"]`)))
		}
		if err == nil && i == n-1 {
			var s string
			if s, err = chromedp.Run(ctx, chromedp.Evaluate[string](sentJS)); err == nil {
				err = json.Unmarshal([]byte(s), &bytes)
			}
		}
		if err != nil {
			b.shot("load-failed")
			t.Fatalf("%s: load %d of %s: %v", b.name, i+1, url, err)
		}
	}
	return firstVisit, again, bytes
}

// callAfter is how far into a call window a phone calls, in ms, as a
// JavaScript expression of the play number (play) and its hash (mix).
// By default a phone calls when the terminal player it is compared with
// would: that player is an easy bot at --pace fast, whose call comes 60,
// 95, 130 or 165 ms into the window (bot.Think's four slots, a tenth of
// brisk), so a phone's call comes at one of the four, picked by the play's
// hash. $BS_FIGURES_CALL_AFTER gives a fixed number of ms instead (0: as
// soon as the page's 20 ms look sees the window). A person's tap comes
// later still: they see the play drawn and react, 200 ms or more. A call
// at once lands while the page is still busy with the message that
// opened the window (its record's write, the journal's checks, the
// frame) and measures that wait, which no person's call meets
// (`git show 2e76b2c:BENCHMARKS.md`, "The phones call when the terminal's
// bot does").
func callAfter() string {
	if v, ok := os.LookupEnv("BS_FIGURES_CALL_AFTER"); ok {
		if n, err := strconv.Atoi(v); err == nil && n >= 0 {
			return strconv.Itoa(n)
		}
	}
	return "[60, 95, 130, 165][(mix(play) >>> 8) % 4]"
}

// callAfterSays is callAfter for a figure's line.
func callAfterSays() string {
	if a := callAfter(); !strings.HasPrefix(a, "[") {
		return a + " ms into the window"
	}
	return "60–165 ms into the window, as the terminal's bot"
}

// autoplay makes the page play by itself, in the page, so a tap never
// waits for the test: a card and Claim on its turn, hand over or lay out
// four when asked, believe in I Doubt It; in a window it calls BULLSHIT!
// on a quarter of the plays, those whose number hashes to callMod of 0–3,
// callAfter() ms in, and lets the others go 300 ms into the window (half
// the plays are left to the terminal player's calls). A hash, not the play number modulo 4: with three seats
// the turns often settle into a cycle of four plays, and a phone whose
// own plays fell on its callMod never had a window to call in (a run
// with no browser call at all).
func (b *browser) autoplay(callMod int) error {
	_, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`(() => {
  if (window.autoplaying) return true;
  window.autoplaying = true;
  const q = (s) => document.querySelector(s);
  const on = (s) => { const e = q(s); return !!e && !e.hidden && !e.disabled; };
  const last = {};
  // A move is tapped once, and again only if nothing came of it in 400 ms.
  const tap = (key, e) => { const now = performance.now(); if (last[key] && now - last[key] < 400) return; last[key] = now; e.click(); };
  const windows = new Set();
  // murmur3's finalizer: the play number scrambled, so calls fall on no
  // cycle of the turns.
  const mix = (h) => { h ^= h >>> 16; h = Math.imul(h, 0x85ebca6b); h ^= h >>> 13; h = Math.imul(h, 0xc2b2ae35); return (h ^ (h >>> 16)) >>> 0; };
  const playNo = () => +((q("#title").textContent.match(/play (\d+)/) || [0, 0])[1]);
  setInterval(() => {
    const play = playNo();
    if (!q("#sheet").hidden) return;
    if (on("#give")) return tap("give" + play, q("#give"));
    const four = q("[data-quads]");
    if (four) return tap("quads" + play, four);
    if (!q("#play").hidden) {
      if (!q("#hand .picked")) { const c = q("#hand [data-card]"); if (c) c.click(); return; }
      if (on("#play")) tap("play" + play, q("#play"));
      return;
    }
    if (on("#pass") && !windows.has(play)) {
      windows.add(play);
      if (mix(play) % 4 === `+strconv.Itoa(callMod)+`) {
        const after = `+callAfter()+`;
        if (after === 0) q("#call").click();
        else setTimeout(() => { if (on("#call") && playNo() === play) q("#call").click(); }, after);
        return;
      }
      // Let it go a moment later, as a person would: a pass at once met
      // the other phone's call at the host, which settles one move at a
      // time (each step stored and fsynced, then sent to every seat), and
      // the call waited its turn (a quarter of the calls, 10–25 ms more).
      setTimeout(() => { if (on("#pass") && playNo() === play) q("#pass").click(); }, 300);
      return;
    }
    if (on("#believe")) tap("judge" + play, q("#believe"));
  }, 20);
  return true;
})()`))
	return err
}

// verdicts pairs the page's calls with their verdicts: tap → the turned-up
// cards drawn. lost counts calls another's call beat.
func verdicts(ts []pageTime) (ds []time.Duration, lost int) {
	var call *pageTime
	for i, p := range ts {
		switch p.Ev {
		case "call":
			call = &ts[i]
		case "verdict":
			if call != nil {
				ds = append(ds, time.Duration((p.T-call.T)*float64(time.Millisecond)))
			}
			call = nil
		case "lost":
			lost++
			call = nil
		}
	}
	return ds, lost
}

// procUsage is a process's CPU time and memory from /proc.
type procUsage struct {
	cpu      time.Duration // user + system
	rss, hwm int64         // bytes: now, and the peak
}

func readUsage(pid int) (procUsage, error) {
	var u procUsage
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return u, err
	}
	// Fields after the command's closing parenthesis: utime and stime are
	// the 14th and 15th of the whole line, in clock ticks (100 a second).
	s := string(stat)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	u.cpu = time.Duration(ut+st) * 10 * time.Millisecond
	fh, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return u, err
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), ":")
		kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		switch k {
		case "VmRSS":
			u.rss = kb << 10
		case "VmHWM":
			u.hwm = kb << 10
		}
	}
	return u, nil
}

// hostUsage watches a host from its deal to its last breath: its procUsage at
// the deal, and the last reading before it exited.
type hostUsage struct {
	mu         sync.Mutex
	deal, last procUsage
	dealt      bool
}

func watchHost(t *testing.T, host *proc) *hostUsage {
	h := &hostUsage{}
	pid := host.cmd.Process.Pid // ip netns exec execs bullshit in place
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	go func() {
		for {
			u, err := readUsage(pid)
			if err != nil {
				return
			}
			_, dealt := host.find(isType("deal"))
			h.mu.Lock()
			if dealt && !h.dealt {
				h.deal, h.dealt = u, true
			}
			h.last = u
			h.mu.Unlock()
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	}()
	return h
}

// game is the host's CPU over the game (deal to its last reading), its
// memory at the end and its peak.
func (h *hostUsage) game() (cpu time.Duration, rss, hwm int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.last.cpu - h.deal.cpu, h.last.rss, h.last.hwm
}

// calls reads a terminal player's --latency log: its calls, sent to the
// reveal's arrival.
func calls(t *testing.T, path string) []time.Duration {
	lat, _ := readLatency(t, path)
	var ds []time.Duration
	for _, s := range lat {
		if s.move == "call" && s.reveal > 0 {
			ds = append(ds, s.reveal)
		}
	}
	return ds
}

// ratio is a's p99 over b's, or "n/a" without both.
func ratio(a, b []time.Duration) string {
	if len(a) == 0 || len(b) == 0 {
		return "n/a (no calls)"
	}
	return strconv.FormatFloat(float64(percentile(a, 0.99))/float64(percentile(b, 0.99)), 'f', 1, 64)
}

func loadavg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

func mb(n int64) string { return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MB" }

func msList(ds []time.Duration) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, d := range ds {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 1, 64))
	}
	return b.String() + "]"
}

func medianWorst(ds []time.Duration) string {
	return fmt.Sprintf("median %s, worst %s (%d loads)", fmtMS(percentile(ds, 0.5)), fmtMS(percentile(ds, 1)), len(ds))
}

func p50p99(ds []time.Duration) string {
	return fmt.Sprintf("p50 %s, p99 %s (%d calls)", fmtMS(percentile(ds, 0.5)), fmtMS(percentile(ds, 0.99)), len(ds))
}

// TestE2EBrowserFigures measures the phones (issue 14's "Speed"). Game A:
// the host in host 1 (--players 3), a phone in host 1 beside it (loopback)
// and one in host 2 (between namespaces), each loading the page four times
// with no cache before the game, and a terminal player in host 3 that logs
// its calls. Game B: the same seats and rules with three terminal players
// and no phone, for the host's cost of a phone.
func TestE2EBrowserFigures(t *testing.T) {
	const loads = 6
	l := newLAN(t, 4, false)
	chromium(t)
	t.Logf("FIGURE phones: load average at the start %s", loadavg())
	dir := t.TempDir()
	url := "http://10.77.1.1:8080/"
	// The terminal players call on a hunch (easy, caller's eagerness: a
	// third of the plays or more), not only on evidence as medium does: a
	// medium caller made 0–4 calls a game, too few for a p99 beside the
	// phones'. How a bot decides to call doesn't touch how fast its call
	// is answered, which is what is compared.
	bot := []string{"--bot", "easy/caller"}

	// Game A: two phones and a terminal player.
	nameA := "figs-" + l.prefix
	host := l.start(1, "host", hostArgs(filepath.Join(dir, "hostA"), nameA, 3, 0, "--web", "10.77.1.1:8080")...)
	host.waitFor(20*time.Second, "the table line", isType("table"))
	hu := watchHost(t, host)
	phones := []*browser{l.startBrowser(1, "loopback", 360, 740), l.startBrowser(2, "phone", 360, 740)}
	where := []string{"loopback (browser in the host's namespace)", "between namespaces"}
	for i, b := range phones {
		if err := b.stampWire(b.ctx); err != nil {
			t.Fatalf("%s: stamp the WebSocket: %v", b.name, err)
		}
		fv, again, by := b.pageLoads(url, []string{"Lou", "Nia"}[i], loads)
		t.Logf("FIGURE page opened → table on screen, %s: first visit %s (tap excluded); loaded again with no cache: %s",
			where[i], fmtMS(fv), medianWorst(again))
		if i == 1 {
			wire, bodies := by.total()
			var files []string
			for _, f := range by.Files {
				files = append(files, fmt.Sprintf("%s %.0f", f.Name, f.TransferSize))
			}
			t.Logf("FIGURE bytes a phone downloads before it can play: %.0f on the wire (%.2f MB; bodies %.0f), goal ≤ 1.5 MB; by file: %s",
				wire, wire/1e6, bodies, strings.Join(files, ", "))
		}
	}
	player := l.start(3, "terminal", joinArgs(filepath.Join(dir, "termA"), nameA,
		append([]string{"--latency", filepath.Join(dir, "latency")}, bot...)...)...)
	player.waitFor(60*time.Second, "a seat", isType("seated"))
	stopCapture := l.tcpdump(t, 1, 8080, "10.77.1.3", filepath.Join(dir, "capture"))
	for i, b := range phones {
		if err := b.autoplay(i); err != nil {
			t.Fatalf("%s: autoplay: %v", b.name, err)
		}
	}
	for _, b := range phones {
		ctx, cancel := context.WithTimeout(b.ctx, 3*time.Minute)
		err := b.waitJS(ctx, `!document.querySelector("#sheet").hidden && document.querySelector("#verified").classList.contains("ok")`)
		cancel()
		if err != nil {
			b.shot("no-sheet")
			t.Fatalf("%s: no verified sheet: %v", b.name, err)
		}
	}
	sgs := finishGame(t, 4, 1, []*proc{host, player}, time.Minute)
	packets := stopCapture()
	var atHost [][6]float64
	var lag, frames []float64
	cpuA, rssA, hwmA := hu.game()
	playsA := sgs[0].res.Plays
	var browserCalls []time.Duration
	var parts [6][]time.Duration
	var msgs []int
	var toHost, fromHost []time.Duration
	printed := map[int]float64{}
	for _, l := range host.snapshot() {
		if l.typ() == "call" {
			printed[l.num("no")] = float64(l.at.UnixNano()) / 1e6
		}
	}
	for i, b := range phones {
		ts, err := b.times(b.ctx)
		if err != nil {
			t.Fatal(err)
		}
		ds, lost := verdicts(ts)
		t.Logf("FIGURE shout → verdict, browser %s: %s; %d calls beaten by another's", where[i], p50p99(ds), lost)
		browserCalls = append(browserCalls, ds...)
		ws, err := b.wire(b.ctx)
		if err != nil {
			t.Fatal(err)
		}
		ps, n := callParts(ts, ws)
		for k := range parts {
			parts[k] = append(parts[k], ps[k]...)
		}
		msgs = append(msgs, n...)
		origin, err := chromedp.Run(b.ctx, chromedp.Evaluate[float64](`performance.timeOrigin`))
		if err != nil {
			t.Fatal(err)
		}
		th, fh := hostSplit(ts, ws, origin, printed)
		toHost, fromHost = append(toHost, th...), append(fromHost, fh...)
		atHost = append(atHost, hostParts(ts, ws, packets, origin, fmt.Sprintf("10.77.1.%d", i+1))...)
		frames = append(frames, sendFrames(ts, ws)...)
		lag = append(lag, answers(ts, ws, packets, origin, fmt.Sprintf("10.77.1.%d", i+1), "10.77.1.3")...)
	}
	t.Logf("FIGURE the frame after a call's move was sent (its rendering: raf → the next task; ms): %.1f", frames)
	t.Logf("FIGURE a browser call's verdict to the terminal player, after the phone's (capture; ms): %.1f", lag)
	t.Logf("FIGURE a browser call at the host's socket (capture; ms): %s", tailTable(atHost))
	t.Logf("FIGURE a browser call at the host: tap → the host printed the call %s; → the first message back on the page %s",
		msList(toHost), msList(fromHost))
	for k, name := range callPart {
		t.Logf("FIGURE a browser call, part %d, %s: p50 %s, p90 %s, p99 %s; every call in ms %s", k+1, name,
			fmtMS(percentile(parts[k], 0.5)), fmtMS(percentile(parts[k], 0.9)), fmtMS(percentile(parts[k], 0.99)), msList(parts[k]))
	}
	t.Logf("FIGURE a browser call, messages between its move and its verdict: %v", msgs)
	termCalls := calls(t, filepath.Join(dir, "latency"))
	t.Logf("FIGURE shout → verdict, terminal player (same game): %s", p50p99(termCalls))
	t.Logf("FIGURE shout → verdict, both browsers (calling %s): %s; browser p99 / terminal p99 = %s (goal ≤ 2)", callAfterSays(), p50p99(browserCalls),
		ratio(browserCalls, termCalls))

	// The phones go before game B, so it runs on a quieter machine.
	for _, b := range phones {
		chromedp.Cancel(b.ctx)
	}

	// Game B: the same seats and rules, three terminal players.
	nameB := "figs0-" + l.prefix
	hostB := l.start(1, "hostB", hostArgs(filepath.Join(dir, "hostB"), nameB, 3, 0, "--web", "10.77.1.1:8080")...)
	hostB.waitFor(20*time.Second, "the table line", isType("table"))
	huB := watchHost(t, hostB)
	ps := []*proc{hostB}
	for i := 2; i <= 4; i++ {
		ps = append(ps, l.start(i, fmt.Sprintf("termB%d", i), joinArgs(filepath.Join(dir, fmt.Sprintf("termB%d", i)), nameB,
			append([]string{"--latency", filepath.Join(dir, fmt.Sprintf("latencyB%d", i))}, bot...)...)...))
	}
	sgsB := finishGame(t, 4, 1, ps, 2*time.Minute)
	var termB []time.Duration
	for i := 2; i <= 4; i++ {
		termB = append(termB, calls(t, filepath.Join(dir, fmt.Sprintf("latencyB%d", i)))...)
	}
	termAll := append(termCalls, termB...)
	t.Logf("FIGURE shout → verdict, terminal players, game B (no phones): %s; games A and B: %s; browser p99 / that p99 = %s (goal ≤ 2)",
		p50p99(termB), p50p99(termAll), ratio(browserCalls, termAll))
	// Every call, for pooling runs: a run's p99 is the worst of a few dozen.
	t.Logf("FIGURE shout → verdict, every call in ms: browsers %s; terminal A %s; terminal B %s",
		msList(browserCalls), msList(termCalls), msList(termB))
	cpuB, rssB, hwmB := huB.game()
	playsB := sgsB[0].res.Plays
	perPlay := func(d time.Duration, plays int) time.Duration { return d / time.Duration(max(1, plays)) }
	t.Logf("FIGURE host, 2 phones + 1 terminal player: CPU %s over %d plays (%s a play), RSS at the end %s, peak %s",
		fmtMS(cpuA), playsA, fmtMS(perPlay(cpuA, playsA)), mb(rssA), mb(hwmA))
	t.Logf("FIGURE host, 0 phones + 3 terminal players: CPU %s over %d plays (%s a play), RSS at the end %s, peak %s",
		fmtMS(cpuB), playsB, fmtMS(perPlay(cpuB, playsB)), mb(rssB), mb(hwmB))
	t.Logf("FIGURE host's extra per phone (A − B) / 2: CPU %s a play, RSS %s, peak %s",
		fmtMS((perPlay(cpuA, playsA)-perPlay(cpuB, playsB))/2), mb((rssA-rssB)/2), mb((hwmA-hwmB)/2))
	t.Logf("FIGURE phones: load average at the end %s", loadavg())
}
