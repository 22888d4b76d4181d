//go:build linux

package main

// The deal's figures (issue 25, "Speed"): how long a blind deal takes at
// a real table, every node a process in a namespace of its own (and two
// of them phones' pages in Chromium), beside the same table dealt in the
// clear in the same run; what the deal costs a phone's main thread; and
// what a phone downloads before it can play. Nothing is asserted on time:
// the figures are logged as FIGURE lines for BENCHMARKS.md.
//
//	go test -count=1 ./cmd/bullshit -run E2EBlindDealFigures -v | grep FIGURE                        # CI: 4 seats, one deal each
//	BS_FIGURES=5 go test -count=1 -timeout 30m ./cmd/bullshit -run E2EBlindDealFigures -v | grep FIGURE # every table, 5 deals each (3 at least)
//
// A deal is timed from the host's "start" line (it starts the game: the
// toss, then at a blind table every player node's key, recovery split,
// shuffle and shares) to the last seat that holds its whole hand: a
// laptop's "hand" line, a phone's first state whose hand is its seat's
// count. Every time is on the machine's one clock: a line's as the test
// read it, a phone's from its page (performance.timeOrigin + now()).

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"
)

// dealTable is one kind of table the figures deal: its seats, how many of
// them are phones (the rest laptops: the host's own seat and `join`
// processes), and whether it deals blind.
type dealTable struct {
	seats, phones int
	blind         bool
}

func (d dealTable) String() string {
	s := fmt.Sprintf("%d seats, %d laptops", d.seats, d.seats-d.phones)
	if d.phones > 0 {
		s += fmt.Sprintf(" + %d phones", d.phones)
	}
	if d.blind {
		return s + ", blind"
	}
	return s + ", in the clear"
}

// goal is issue 25's goal for a blind deal at this table, 0 for none.
func (d dealTable) goal() time.Duration {
	switch {
	case !d.blind || d.seats < 10:
		return 0
	case d.phones > 0:
		return 2 * time.Second
	}
	return time.Second
}

// dealt is what one deal measured.
type dealt struct {
	wall     time.Duration // start → the last seat's whole hand
	toss     time.Duration // start → the host's "Shuffling…" (blind): the toss
	host     time.Duration // start → the host's deal event (blind: every share in)
	last     string        // whose hand came last
	cpu      []time.Duration
	script   []time.Duration // each phone's main thread: all its tasks, and their script (the player's WebAssembly)
	download float64         // bytes on the wire a phone fetched before it could play
}

// dealReps is how many deals of each table: 1 by default, $BS_FIGURES of
// them (3 at least) when it is set, on every table of dealTables.
func dealReps() (reps int, all bool) {
	v, ok := os.LookupEnv("BS_FIGURES")
	if !ok || v == "" || v == "0" {
		return 1, false
	}
	n, _ := strconv.Atoi(v)
	return max(n, 3), true
}

// TestE2EBlindDealFigures deals blind and in the clear, interleaved, at 4
// and 10 seats of laptops, and of laptops and two phones, and logs each
// table's deal time (median and worst), where a blind deal's time goes
// (the toss; every share in at the host; the last hand learned), each
// phone's CPU per deal and its download. Each deal is checked: every seat
// holds as many cards as the deal says, the hands add up to the decks,
// and after the host ends the game (SIGTERM, as its person would) every
// laptop's audit of it verifies, blind where it was asked to be.
//
// By default (CI) it deals one table of each kind at 4 seats (the phones'
// only with Chromium); BS_FIGURES=N deals every table N times (3 at
// least), for the figures.
func TestE2EBlindDealFigures(t *testing.T) {
	reps, all := dealReps()
	var tables []dealTable
	for _, seats := range []int{4, 10} {
		if seats > 4 && !all {
			continue
		}
		for _, phones := range []int{0, 2} {
			tables = append(tables, dealTable{seats, phones, true}, dealTable{seats, phones, false})
		}
	}
	l := newLAN(t, 10, false)
	hasChromium := chromiumPath() != ""
	t.Logf("FIGURE deal: load average at the start %s (%d deal(s) of each table)", loadavg(), reps)
	got := map[dealTable][]dealt{}
	k := 0
	for rep := range reps {
		for _, d := range tables {
			if d.phones > 0 && !hasChromium {
				continue
			}
			t.Run(fmt.Sprintf("%s #%d", d, rep+1), func(t *testing.T) {
				got[d] = append(got[d], dealOne(t, l, d, k))
			})
			k++
			if t.Failed() {
				t.FailNow()
			}
		}
	}
	if !hasChromium {
		t.Log("no Chromium: no table with phones was dealt (apt-get install chromium)")
	}
	for _, d := range tables {
		ds := got[d]
		if len(ds) == 0 {
			continue
		}
		pick := func(f func(dealt) time.Duration) []time.Duration {
			var out []time.Duration
			for _, x := range ds {
				out = append(out, f(x))
			}
			return out
		}
		walls := pick(func(x dealt) time.Duration { return x.wall })
		var lasts []string
		for _, x := range ds {
			lasts = append(lasts, x.last)
		}
		goal := ""
		if g := d.goal(); g > 0 {
			verdict := "met"
			if percentile(walls, 0.5) > g {
				verdict = "missed"
			}
			goal = fmt.Sprintf("; goal ≤ %s: %s (median)", fmtMS(g), verdict)
		}
		t.Logf("FIGURE deal, %s: start → every seat's whole hand: median %s, worst %s; every deal in ms %s (last hand: %s)%s",
			d, fmtMS(percentile(walls, 0.5)), fmtMS(percentile(walls, 1)), msList(walls), strings.Join(lasts, ", "), goal)
		if d.blind {
			tosses := pick(func(x dealt) time.Duration { return x.toss })
			hosts := pick(func(x dealt) time.Duration { return x.host })
			t.Logf("FIGURE deal, %s, its parts (median): start → the toss done (\"Shuffling…\") %s; → every share in at the host (its deal event) %s; → the last hand learned %s",
				d, fmtMS(percentile(tosses, 0.5)), fmtMS(percentile(hosts, 0.5)-percentile(tosses, 0.5)),
				fmtMS(percentile(walls, 0.5)-percentile(hosts, 0.5)))
		}
		if d.phones == 0 {
			continue
		}
		var cpu, script []time.Duration
		var bytes []float64
		for _, x := range ds {
			cpu, script = append(cpu, x.cpu...), append(script, x.script...)
			bytes = append(bytes, x.download)
		}
		t.Logf("FIGURE phone CPU per deal, %s: the page's main thread from start to its hand: median %s, worst %s (script: median %s, worst %s); every phone's in ms %s",
			d, fmtMS(percentile(cpu, 0.5)), fmtMS(percentile(cpu, 1)), fmtMS(percentile(script, 0.5)), fmtMS(percentile(script, 1)), msList(cpu))
		slices.Sort(bytes)
		t.Logf("FIGURE phone download before it can play, %s: %.0f bytes on the wire (%.2f MB), goal ≤ 1.5 MB: %s",
			d, bytes[len(bytes)-1], bytes[len(bytes)-1]/1e6, map[bool]string{true: "met", false: "missed"}[bytes[len(bytes)-1] <= 1.5e6])
	}
	t.Logf("FIGURE deal: load average at the end %s", loadavg())
}

// dealOne deals table d once on l (its k-th table of the run) and
// measures it: a host in namespace 1, its players in 2 on, the phones in
// 9 and 10. It checks the deal and the early end that follows it.
func dealOne(t *testing.T, l *lan, d dealTable, k int) dealt {
	dir := t.TempDir()
	name := fmt.Sprintf("deal%d-%s", k, l.prefix)
	const web = "10.77.1.1:8080"
	more := []string{"--web", web}
	if !d.blind {
		more = append(more, "--blind=false")
	}
	host, _ := l.startHost(dir, name, d.seats-1, 0, more...)
	var out dealt
	// The phones sit first, so that their pages are ready, the cost of
	// the deal counted from its start, before the last laptop's seat
	// starts it.
	phones := make([]*browser, d.phones)
	for i := range phones {
		b := l.startBrowser(9+i, fmt.Sprintf("phone%d", i+1), 360, 740)
		if err := b.watchDeal(); err != nil {
			t.Fatalf("%s: %v", b.name, err)
		}
		b.sit("http://"+web+"/", fmt.Sprintf("Phone%d", i+1))
		var s sent
		b.evalJSON(sentJS, &s)
		out.download, _ = s.total()
		if err := b.enableMetrics(); err != nil {
			t.Fatalf("%s: %v", b.name, err)
		}
		phones[i] = b
	}
	laptops := []*proc{host}
	for i := 2; i <= d.seats-d.phones; i++ {
		laptops = append(laptops, l.start(i, fmt.Sprintf("join%d", i), joinArgs(filepath.Join(dir, strconv.Itoa(i)), name)...))
	}
	// Each phone's main thread, read as the deal starts and again once
	// its hand is whole.
	type phoneDeal struct {
		cpu, script time.Duration
		at          time.Time
		hand, want  int
		seat        int
		name        string
		err         error
	}
	pd := make(chan phoneDeal, len(phones))
	for _, b := range phones {
		go func() {
			r := phoneDeal{name: b.name}
			defer func() { pd <- r }()
			if _, r.err = host.await(2*time.Minute, isType("start")); r.err != nil {
				return
			}
			var before, after map[string]float64
			if before, r.err = b.metrics(); r.err != nil {
				return
			}
			ctx, cancel := context.WithTimeout(b.ctx, time.Minute)
			defer cancel()
			if _, r.err = chromedp.Run(ctx, chromedp.Evaluate[bool](`window.bullshitDealt.then(() => true)`, chromedp.EvalAwaitPromise)); r.err != nil {
				return
			}
			if after, r.err = b.metrics(); r.err != nil {
				return
			}
			r.cpu = time.Duration((after["TaskDuration"] - before["TaskDuration"]) * float64(time.Second))
			r.script = time.Duration((after["ScriptDuration"] - before["ScriptDuration"]) * float64(time.Second))
			var marks []dealMark
			if marks, r.err = pageLog[dealMark](ctx, "bullshitDeal"); r.err != nil {
				return
			}
			if len(marks) == 0 {
				r.err = fmt.Errorf("%s: the page noted no hand", b.name)
				return
			}
			m := marks[len(marks)-1]
			r.at, r.hand, r.want, r.seat = time.UnixMicro(int64(m.At*1e3)), m.N, m.Want, m.Seat
		}()
	}
	start := host.waitFor(2*time.Minute, "the start of the deal", isType("start"))
	// Each laptop's hand, and the size the deal gave its seat.
	var sizes []int
	seats := map[int]string{}
	var lastAt time.Time
	for _, p := range laptops {
		h := p.waitFor(time.Minute, "its hand", isType("hand"))
		deal, ok := p.find(isType("deal"))
		if !ok {
			t.Fatalf("%s has its hand but printed no deal", p.name)
		}
		var ev struct{ Hands []int }
		json.Unmarshal([]byte(deal.raw), &ev)
		if sizes == nil {
			sizes = ev.Hands
		} else if !slices.Equal(sizes, ev.Hands) {
			t.Errorf("%s was dealt hands of %v, another %v", p.name, ev.Hands, sizes)
		}
		seat := h.num("seat")
		cards, _ := h.v["cards"].([]any)
		if seat < 0 || seat >= len(ev.Hands) || len(cards) != ev.Hands[seat] {
			t.Errorf("%s holds %d cards in seat %d of a deal of %v", p.name, len(cards), seat, ev.Hands)
		}
		if other, ok := seats[seat]; ok {
			t.Errorf("%s and %s both hold seat %d", other, p.name, seat)
		}
		seats[seat] = p.name
		if h.at.After(lastAt) {
			lastAt, out.last = h.at, p.name
		}
	}
	for range phones {
		r := <-pd
		if r.err != nil {
			t.Fatalf("%s's deal: %v", r.name, r.err)
		}
		if r.seat < 0 || r.seat >= len(sizes) || r.hand != sizes[r.seat] {
			t.Errorf("%s holds %d cards in seat %d (its seat says %d) of a deal of %v", r.name, r.hand, r.seat, r.want, sizes)
		}
		if other, ok := seats[r.seat]; ok {
			t.Errorf("%s and %s both hold seat %d", other, r.name, r.seat)
		}
		seats[r.seat] = r.name
		if r.at.After(lastAt) {
			lastAt, out.last = r.at, r.name
		}
		out.cpu, out.script = append(out.cpu, r.cpu), append(out.script, r.script)
	}
	total := 0
	for _, n := range sizes {
		total += n
	}
	if len(sizes) != d.seats || len(seats) != d.seats || total%52 != 0 {
		t.Errorf("a deal of %v to %d seats held (%v) at a table of %d", sizes, len(seats), seats, d.seats)
	}
	out.wall = lastAt.Sub(start.at)
	if deal, ok := host.find(isType("deal")); ok {
		out.host = deal.at.Sub(start.at)
	}
	if d.blind {
		if sh, ok := host.find(notice("Shuffling", start.at)); ok {
			out.toss = sh.at.Sub(start.at)
		} else {
			t.Errorf("the host never said Shuffling… at a blind table")
		}
	}
	t.Logf("%s: every hand %s after the start (%s's last); the host's deal event at %s", d, fmtMS(out.wall), out.last, fmtMS(out.host))

	if !d.blind {
		// A clear table's end isn't checked here: its host, stopped,
		// resets every stream at once (Server.Close), and the early end
		// it sent doesn't reach every player (some print no audit, some
		// take the table over and wait on the others for good).
		for _, b := range phones {
			chromedp.Cancel(b.ctx)
		}
		for _, p := range laptops {
			p.kill()
			p.waitEnd(10 * time.Second)
		}
		return out
	}
	// The host ends the game, as its person would: every node publishes
	// its secret, and every laptop audits the deal and the plays so far.
	host.signal(syscall.SIGTERM)
	for i, r := range results(t, laptops) {
		if (r.Unfinished && !r.Early) || r.Audit == nil || !r.Audit.Verified || !r.Blind {
			t.Errorf("%s: the game didn't end blind and audited, verified: %+v", laptops[i].name, r)
		}
	}
	for _, p := range laptops {
		if !p.waitEnd(20 * time.Second) {
			t.Errorf("%s printed its result but did not exit", p.name)
		}
	}
	// Each phone checked the deal on its own: its sheet says so.
	for _, b := range phones {
		ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
		err := b.waitJS(ctx, `!document.querySelector("#sheet").hidden && document.querySelector("#verified").classList.contains("ok")`)
		cancel()
		if err != nil {
			b.shot("no-sheet")
			t.Errorf("%s: no sheet with the deal verified after the early end: %v (it says %q)", b.name, err, b.text("#verified"))
		}
		chromedp.Cancel(b.ctx)
	}
	return out
}

// dealJS notes, in every document the browser opens, each state the page
// is handed during a deal whose hand size changed, on the machine's clock
// (window.bullshitDeal: {At ms since the epoch, N cards in hand, Want the
// count its seat shows, Seat}), and resolves window.bullshitDealt once
// the hand is its seat's whole count. bullshit.onState is wrapped as the
// page sets it; the page itself is not changed.
const dealJS = `(() => {
  window.bullshitDeal = [];
  let done;
  window.bullshitDealt = new Promise((r) => { done = r; });
  let last = -1, whole = false;
  const look = (json) => {
    if (whole) return;
    const s = JSON.parse(json);
    if (!s || s.you < 0 || s.phase !== "playing") return;
    const n = (s.hand || []).length;
    if (n === last) return;
    last = n;
    const seat = (s.seats || []).find((p) => p.you);
    const want = seat ? +seat.cards : -1;
    window.bullshitDeal.push({At: performance.timeOrigin + performance.now(), N: n, Want: want, Seat: s.you});
    if (n > 0 && n === want) { whole = true; done(); }
  };
  let api;
  Object.defineProperty(window, "bullshit", { configurable: true, get: () => api, set: (v) => {
    api = v;
    let f;
    Object.defineProperty(v, "onState", { configurable: true, get: () => f && ((json) => {
      try { return f(json); } finally { look(json); }
    }), set: (g) => { f = g; } });
  } });
})()`

// watchDeal installs dealJS in b for the documents it opens from now on.
func (b *browser) watchDeal() error {
	return chromedp.Do(b.ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: dealJS})
		return err
	}))
}

// dealMark is one of dealJS's notes.
type dealMark struct {
	At            float64
	N, Want, Seat int
}

// enableMetrics has the page's renderer keep its metrics, its durations
// in its main thread's own CPU time (threadTicks), not the wall clock's.
func (b *browser) enableMetrics() error {
	return chromedp.Do(b.ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, performance.Enable, performance.EnableParams{TimeDomain: performance.EnableTimeDomainThreadTicks})
		return err
	}))
}

// metrics are the page's main-thread metrics (Performance.getMetrics),
// durations in seconds.
func (b *browser) metrics() (map[string]float64, error) {
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	out := map[string]float64{}
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		r, err := cdp.Call(ctx, t, performance.GetMetrics, cdp.Empty{})
		if err != nil {
			return err
		}
		for _, m := range r.Metrics {
			out[m.Name] = m.Value
		}
		return nil
	}))
	return out, err
}
