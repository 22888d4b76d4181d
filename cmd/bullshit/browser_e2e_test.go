package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// A browser player in the end-to-end tests: Debian's Chromium, headless,
// inside one of the test's namespaces, with a profile of its own (its own
// key, as a second phone has), driven from the test through the DevTools
// protocol over chromedp's pipe (file descriptors 3 and 4 pass through
// `ip netns exec`, so no port has to cross namespaces).
type browser struct {
	t    *testing.T
	name string
	ctx  context.Context // a chromedp context: one tab
	dir  string          // where its screenshots go

	mu      sync.Mutex
	console []string
}

// chromium finds the browser or skips: CI installs Debian's chromium.
func chromium(t *testing.T) string {
	t.Helper()
	if p := chromiumPath(); p != "" {
		return p
	}
	t.Skip("needs Chromium for the browser test (CI installs it): apt-get install chromium")
	return ""
}

// chromiumPath is the browser, or "" when there is none.
func chromiumPath() string {
	for _, p := range []string{os.Getenv("BS_CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if p == "" {
			continue
		}
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// startBrowser starts Chromium inside host i with a window of w×h and
// returns it ready to drive.
func (l *lan) startBrowser(i int, name string, w, h int) *browser {
	t := l.t
	t.Helper()
	exe := chromium(t)
	wrapper := filepath.Join(t.TempDir(), "chromium-in-"+l.ns(i))
	script := fmt.Sprintf("#!/bin/sh\nexec ip netns exec %s %s \"$@\"\n", l.ns(i), exe)
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return launchBrowser(t, name, wrapper, "in "+l.ns(i), w, h)
}

// launchBrowser starts the browser exe (Chromium, or a script that runs
// it somewhere) with a window of w×h; where says where, for errors.
func launchBrowser(t *testing.T, name, exe, where string, w, h int) *browser {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(w, h),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("mute-audio", true),
	)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelA() })
	// A headless window is at least 500 px wide: a phone's screen is
	// emulated, at its size.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(w), int64(h))); err != nil {
		t.Fatalf("%s: start Chromium %s: %v", name, where, err)
	}
	dir := filepath.Join(os.TempDir(), "bullshit-browser-"+sanitize(t.Name()))
	os.MkdirAll(dir, 0o755)
	b := &browser{t: t, name: name, ctx: ctx, dir: dir}
	// What the page says on its console is kept and shown if the test fails.
	msgs := chromedp.Console(ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			b.mu.Lock()
			b.console = append(b.console, time.Now().Format("15:04:05.000")+" "+string(m.Type)+" "+clip(m.Text, 300))
			b.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		if t.Failed() {
			b.mu.Lock()
			t.Logf("%s's console (%d lines):\n  %s", name, len(b.console), strings.Join(b.console[max(0, len(b.console)-30):], "\n  "))
			if logs := os.Getenv("BS_E2E_LOGS"); logs != "" {
				// All of it, beside the processes' logs (e2e_test.go).
				os.WriteFile(filepath.Join(logs, sanitize(t.Name())+"-"+name+".console"), []byte(strings.Join(b.console, "\n")+"\n"), 0o644)
			}
			b.mu.Unlock()
		}
	})
	return b
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == ' ' {
			return '-'
		}
		return r
	}, s)
}

// shot saves a screenshot of the whole page as NAME.png in the test's
// screenshot folder and returns its path.
func (b *browser) shot(name string) string {
	b.t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Errorf("%s: screenshot %s: %v", b.name, name, err)
		return ""
	}
	p := filepath.Join(b.dir, b.name+"-"+name+".png")
	if err := os.WriteFile(p, png, 0o644); err != nil {
		b.t.Error(err)
	}
	b.t.Logf("SCREENSHOT %s", p)
	return p
}

// TestE2EBrowserReachesALANPage checks the harness itself: a browser in one
// namespace opens a page served from another, by its LAN address.
func TestE2EBrowserReachesALANPage(t *testing.T) {
	t.Parallel()
	l := newLAN(t, 2, false)
	chromium(t)
	page := t.TempDir()
	os.WriteFile(filepath.Join(page, "index.html"), []byte(`<!doctype html><title>lan</title><h1 id="x">from host 1</h1>`), 0o644)
	srv := exec.Command("ip", "netns", "exec", l.ns(1), "python3", "-m", "http.server", "8000", "--bind", "10.77.1.1", "--directory", page)
	if err := srv.Start(); err != nil {
		t.Skip("python3 http.server:", err)
	}
	t.Cleanup(func() { srv.Process.Kill(); srv.Wait() })

	b := l.startBrowser(2, "phone", 360, 740)
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	// The server may not listen yet: try again until it answers.
	for {
		err := chromedp.Do(ctx, chromedp.Navigate("http://10.77.1.1:8000/"))
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			t.Fatal(err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	got, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#x")))
	if err != nil {
		t.Fatal(err)
	}
	if got != "from host 1" {
		t.Fatalf("page says %q", got)
	}
	b.shot("lan")
}

// step is one look at a phone's page by a player who plays whatever the
// page offers: it taps a card and Claim on its turn, hands over or lays out
// four when asked, calls BULLSHIT! on one play in four and lets the rest
// go, believes in I Doubt It. It returns what it did and the play number.
const step = `(() => {
  const q = (s) => document.querySelector(s);
  const on = (s) => { const e = q(s); return !!e && !e.hidden && !e.disabled; };
  const play = (q("#title").textContent.match(/play (\d+)/) || [0, 0])[1];
  const news = [...document.querySelectorAll("#news li")].map((e) => e.textContent);
  const out = (what) => JSON.stringify({what, play: +play, status: document.body.dataset.status || "", news});
  if (!q("#sheet").hidden) return out(q("#verified").classList.contains("ok") ? "verified" : "sheet:" + q("#verified").textContent);
  const hint = !q("#hint").hidden && q("#hint").textContent;
  if (on("#give")) { q("#give").click(); return out("give"); }
  const four = q("[data-quads]");
  if (four) { four.click(); return out("quads"); }
  if (!q("#play").hidden) {
    if (!q("#hand .picked")) { const c = q("#hand [data-card]"); if (c) c.click(); return out("pick"); }
    if (on("#play")) {
      q("#play").click();
      // How many claims (taps that sent one: its buttons are disabled
      // until the next state) the first-run hint was on screen for: the
      // first only.
      if (q("#play").disabled && hint && hint.startsWith("Your move")) window.hintedPlays = (window.hintedPlays || 0) + 1;
      return out("play");
    }
    return out("blocked");
  }
  if (on("#pass")) { (Math.random() < 0.25 ? q("#call") : q("#pass")).click(); return out("window"); }
  if (on("#believe")) { q("#believe").click(); return out("judge"); }
  return out("wait");
})()`

type stepResult struct {
	What, Status string
	Play         int
	News         []string `json:",omitempty"`
}

// String is the look without its news (heard keeps that).
func (r stepResult) String() string {
	return fmt.Sprintf("{What:%s Status:%s Play:%d}", r.What, r.Status, r.Play)
}

// heard is a page's news as a player read it, look after look: the page
// keeps its last few lines only, and a hung game's cause (a notice) is
// soon pushed out by refusals of the taps that follow it.
type heard struct{ lines []string }

// add takes the lines on the page now: those after the longest run of
// what was heard last that they start with.
func (h *heard) add(now []string) {
	k := min(len(h.lines), len(now))
	for ; k > 0; k-- {
		if slices.Equal(h.lines[len(h.lines)-k:], now[:k]) {
			break
		}
	}
	h.lines = append(h.lines, now[k:]...)
}

// String is what was heard, a run of the same line told once with its count.
func (h *heard) String() string {
	var b strings.Builder
	for i := 0; i < len(h.lines); {
		j := i
		for j < len(h.lines) && h.lines[j] == h.lines[i] {
			j++
		}
		fmt.Fprintf(&b, "\n\t%s", h.lines[i])
		if j-i > 1 {
			fmt.Fprintf(&b, " (×%d)", j-i)
		}
		i = j
	}
	return b.String()
}

// look runs step once.
func (b *browser) look() (stepResult, error) {
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](step))
	if err != nil {
		return stepResult{}, err
	}
	var r stepResult
	if err := json.Unmarshal([]byte(s), &r); err != nil {
		return r, fmt.Errorf("step said %q: %v", s, err)
	}
	return r, nil
}

// sit opens the page at url, types a name and taps Sit down, then waits
// for the seat.
func (b *browser) sit(url, nick string) { b.join(url, nick, "#sit") }

// join opens the page at url, types a name and taps button (#sit or
// #watch), then waits for the place at the table.
func (b *browser) join(url, nick, button string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 90*time.Second)
	defer cancel()
	err := chromedp.Do(ctx, chromedp.Navigate(url))
	if err == nil {
		// The player (WebAssembly) is up once it has named the key.
		err = b.waitJS(ctx, `document.querySelector("#me").textContent.length > 3`)
	}
	if err == nil {
		err = chromedp.Do(ctx,
			chromedp.SetValue(chromedp.CSS("#nick"), nick),
			chromedp.Click(chromedp.CSS(button)),
			chromedp.WaitVisible(chromedp.CSS(`body[data-status="seated"]`)),
		)
	}
	if err != nil {
		b.shot("sit-failed")
		b.t.Fatalf("%s: sit at %s: %v", b.name, url, err)
	}
}

// waitJS polls a JavaScript condition until it holds or ctx ends.
//
// A condition that throws is asked again, not given up on: a page that
// moves itself to a new host's address (app.js, moveTo) has no body for a
// moment while the next one loads. The last exception is in the error
// when ctx ends.
func (b *browser) waitJS(ctx context.Context, cond string) error {
	var last error
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](cond))
		if err == nil && ok {
			return nil
		}
		if err != nil {
			last = err
		}
		select {
		case <-ctx.Done():
			if last != nil {
				return fmt.Errorf("waiting for %s: %w (last: %v)", cond, ctx.Err(), last)
			}
			return fmt.Errorf("waiting for %s: %w", cond, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// playUntil plays by taps until the result sheet is up and its audit done,
// or stop says to stop (it is asked after every look), or the hang guard
// runs out. It returns the last look.
func (b *browser) playUntil(stop func(stepResult) bool, guard time.Duration) (stepResult, error) {
	end := time.Now().Add(guard)
	var last stepResult
	failed := 0
	var news heard
	for time.Now().Before(end) {
		r, err := b.look()
		if err != nil {
			// A page that follows the table to a new host moves to that
			// node's address (app.js, moveTo): a look may land while it
			// loads. Look again a little later.
			if failed++; failed > 50 {
				return last, err
			}
			time.Sleep(200 * time.Millisecond)
			continue
		}
		failed = 0
		news.add(r.News)
		r.News = nil
		last = r
		if r.What == "verified" || strings.HasPrefix(r.What, "sheet:deal NOT") || (stop != nil && stop(r)) {
			return r, nil
		}
		if r.What == "wait" || r.What == "blocked" || strings.HasPrefix(r.What, "sheet:") {
			time.Sleep(100 * time.Millisecond)
		}
	}
	return last, fmt.Errorf("%s: no result sheet in %s (last: %v); the news it heard:%s", b.name, guard, last, &news)
}

// browserTable is a host in host 1 with the web entry on its LAN address,
// a headless player in host 4 that serves the page too (it hosts if the host
// goes), and two phones in hosts 2 and 3 with their own profiles: a
// 360×740 phone and a 1280×800 desktop window.
type browserTable struct {
	l      *lan
	host   *proc
	player *proc
	phones [2]*browser
	url    string
	dir    string
	// watcher, if asked for, is a third browser in host 5 that watches.
	watcher *browser
}

func newBrowserTable(t *testing.T, watcher bool) *browserTable {
	n := 4
	if watcher {
		n = 5
	}
	l := newLAN(t, n, false)
	chromium(t)
	dir := t.TempDir()
	name := "web-" + l.prefix
	bt := &browserTable{l: l, dir: dir, url: "http://10.77.1.1:8080/"}
	bt.host = l.start(1, "host", hostArgs(filepath.Join(dir, "host"), name, 3, 0,
		"--web", "10.77.1.1:8080", "--journal", filepath.Join(dir, "journal"))...)
	table := bt.host.waitFor(20*time.Second, "the table line", isType("table"))
	if got := table.str("web"); got != strings.TrimSuffix(bt.url, "/") && got != bt.url {
		t.Errorf("the host's table line gives the page as %q, want %s", got, bt.url)
	}
	bt.player = l.start(4, "player", joinArgs(filepath.Join(dir, "player"), name, "--web", "10.77.1.4:8080")...)
	bt.phones[0] = l.startBrowser(2, "phone", 360, 740)
	bt.phones[1] = l.startBrowser(3, "desktop", 1280, 800)
	bt.phones[0].sit(bt.url, "Ana")
	bt.phones[1].sit(bt.url, "Ben")
	if watcher {
		bt.watcher = l.startBrowser(5, "watcher", 360, 740)
		bt.watcher.join(bt.url, "Cleo", "#watch")
	}
	bt.player.waitFor(60*time.Second, "a seat", isType("seated"))
	return bt
}

// play runs both phones to the sheet; during is called by the phone's
// goroutine once, at the first look at play 8 or later.
func (bt *browserTable) play(t *testing.T, during func(i int, b *browser)) [2]stepResult {
	var res [2]stepResult
	var wg sync.WaitGroup
	for i, b := range bt.phones {
		wg.Add(1)
		go func() {
			defer wg.Done()
			done := false
			r, err := b.playUntil(func(r stepResult) bool { return !done && during != nil && r.Play >= 8 }, 4*time.Minute)
			if err == nil && !done && during != nil && r.Play >= 8 {
				done = true
				during(i, b)
				r, err = b.playUntil(nil, 4*time.Minute)
			}
			if err != nil {
				t.Errorf("%v", err)
			}
			res[i] = r
		}()
	}
	wg.Wait()
	return res
}

// sheetsVerified fails the test unless both phones ended on the sheet
// with the deal verified on the phone itself; shot, unless "", names the
// screenshot each phone takes then.
func (bt *browserTable) sheetsVerified(t *testing.T, res [2]stepResult, shot string) {
	t.Helper()
	for i, r := range res {
		if r.What != "verified" {
			t.Errorf("%s ended on %+v, want the sheet with the deal verified on the phone", bt.phones[i].name, r)
		}
		if shot != "" {
			bt.phones[i].shot(shot)
		}
	}
}

// endedVerified fails the test unless p prints, within d, the result of
// a finished game whose audit verified; who names p in the failure.
func endedVerified(t *testing.T, p *proc, d time.Duration, who string) {
	t.Helper()
	r, err := p.await(d, isType("result"))
	if err != nil {
		t.Errorf("%s printed no result: %v", who, err)
		return
	}
	var got result
	json.Unmarshal([]byte(r.raw), &got)
	if got.Unfinished || got.Audit == nil || !got.Audit.Verified {
		t.Errorf("%s ended with %s", who, clip(r.raw, 400))
	}
}

// TestE2EBrowserPlayers: two browser players, a terminal player and the
// host play a whole game by taps while a third browser watches; the phone
// reloads its page mid-game and is back in its seat with its own record of
// the plays before the reload (taken back from the tab's storage, not the
// host's backlog); both pages end on the sheet with the deal verified on
// the phone itself, and the game they saw is the one the terminals saw.
// The watcher sees the table and no hand, and the sheet at the end; the
// first-run hint is on screen for the desktop's first claim only.
func TestE2EBrowserPlayers(t *testing.T) {
	t.Parallel()
	bt := newBrowserTable(t, true)
	reloaded := false
	watched := make(chan error, 1)
	go func() { watched <- bt.watch(t) }()
	res := bt.play(t, func(i int, b *browser) {
		b.shot("playing")
		if i != 0 {
			return
		}
		ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
		defer cancel()
		seen, err := chromedp.Run(ctx, chromedp.Evaluate[int](`+document.body.dataset.record`))
		if err != nil || seen < 8 {
			t.Errorf("before the reload the phone's record holds %d events (%v): want the deal and the plays so far", seen, err)
		}
		if err := chromedp.Do(ctx, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`body[data-status="seated"]`))); err != nil {
			t.Errorf("after a reload the phone is not seated again: %v", err)
			return
		}
		reloaded = true
		// What the phone saw before the reload comes back from its own
		// storage: the host's backlog may only extend it.
		if err := b.waitJS(ctx, fmt.Sprintf(`+document.body.dataset.restored >= %d`, seen)); err != nil {
			got, _ := chromedp.Run(b.ctx, chromedp.Evaluate[string](`document.body.dataset.restored`))
			t.Errorf("after the reload the phone took back %s of the %d events it had seen: %v", got, seen, err)
		}
	})
	bt.sheetsVerified(t, res, "sheet")
	if !reloaded {
		t.Error("the phone never reloaded mid-game")
	}
	if n, err := chromedp.Run(bt.phones[0].ctx, chromedp.Evaluate[int](`+document.body.dataset.restored`)); err != nil || n == 0 {
		t.Errorf("the phone's audit after its reload ran on the host's backlog alone (restored %d, %v)", n, err)
	}
	if n, err := chromedp.Run(bt.phones[1].ctx, chromedp.Evaluate[int](`window.hintedPlays || 0`)); err != nil || n != 1 {
		t.Errorf("the first-run claim hint was on screen for %d of the desktop's claims (%v), want its first only", n, err)
	}
	if err := <-watched; err != nil {
		t.Error(err)
	}
	bt.watcher.shot("sheet")
	finishGame(t, 4, 1, []*proc{bt.host, bt.player}, 2*time.Minute)
}

// watch follows the watcher's page through the game: the table with every
// seat, no hand and no moves while it is played, then the result sheet.
func (bt *browserTable) watch(t *testing.T) error {
	b := bt.watcher
	ctx, cancel := context.WithTimeout(b.ctx, 6*time.Minute)
	defer cancel()
	const look = `(() => {
  const q = (s) => document.querySelector(s);
  return JSON.stringify({
    playing: (q("#title").textContent.match(/play (\d+)/) || [0, 0])[1] > 0,
    table: !q("#table").hidden, seats: document.querySelectorAll("#seats [data-seat]").length,
    cards: document.querySelectorAll("#hand [data-card]").length, label: q("#handlabel").textContent,
    moves: ["#play", "#call", "#pass", "#give"].filter((s) => !q(s).hidden).length,
    sheet: !q("#sheet").hidden, rows: document.querySelectorAll("#rows tbody tr").length,
    watching: document.body.dataset.status === "seated" && q("#status").textContent === "watching"});
})()`
	var v struct {
		Playing, Table, Sheet, Watching bool
		Seats, Cards, Moves, Rows       int
		Label                           string
	}
	looked := 0
	for ctx.Err() == nil {
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](look))
		if err != nil {
			return fmt.Errorf("watcher: %v", err)
		}
		json.Unmarshal([]byte(s), &v)
		if v.Sheet {
			break
		}
		if v.Playing {
			looked++
			if !v.Table || !v.Watching || v.Seats != 4 || v.Cards != 0 || v.Moves != 0 || v.Label != "Watching" {
				return fmt.Errorf("the watcher's page mid-game: %s; want the table's 4 seats, watching, no hand, no moves", s)
			}
			if looked == 5 {
				b.shot("watching")
			}
		}
		time.Sleep(300 * time.Millisecond)
	}
	if !v.Sheet || v.Rows != 4 {
		return fmt.Errorf("the watcher never saw the result sheet with 4 rows (%+v, %v)", v, ctx.Err())
	}
	if looked == 0 {
		return errors.New("the watcher never saw the game being played")
	}
	return nil
}

// TestE2EBrowserHostKilled: the host is killed (kill -9) mid-game; the
// terminal player takes over, both phones find it by the table's web
// addresses, sit back in their seats, give their shares and finish the game,
// verified on each phone.
func TestE2EBrowserHostKilled(t *testing.T) {
	t.Parallel()
	bt := newBrowserTable(t, false)
	var once sync.Once
	res := bt.play(t, func(i int, b *browser) {
		once.Do(func() {
			bt.host.kill()
			t.Logf("host killed at %s's play 8+", b.name)
		})
	})
	bt.sheetsVerified(t, res, "after-failover")
	endedVerified(t, bt.player, 2*time.Minute, "the player that took over")
}
