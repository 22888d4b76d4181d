package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestE2EBrowserBlind: a blind table (host --blind) in namespaces, the
// host's own seat, a terminal player, a bot and two browser players: every
// seat's node is a party of the mental deck, the phones' in their pages.
// Each phone says Shuffling… while the deal runs and whose node runs the
// bot, plays by taps from the hand its own page worked out (the host sends
// it none), and one reloads its page mid-game: it is the same party again
// from its tab's storage, replays the host's log and plays on. Every sheet
// says the deal verified on the phone itself, both terminals' audits
// verify, and the host's and the player's games were blind.
func TestE2EBrowserBlind(t *testing.T) {
	t.Parallel()
	l := newLAN(t, 4, false)
	chromium(t)
	dir := t.TempDir()
	name := "blind-" + l.prefix
	bt := &browserTable{l: l, dir: dir, url: "http://10.77.1.1:8080/"}
	bt.host = l.start(1, "host", hostArgs(filepath.Join(dir, "host"), name, 3, 1,
		"--web", "10.77.1.1:8080", "--blind")...)
	bt.host.waitFor(20*time.Second, "the table line", isType("table"))
	bt.player = l.start(4, "player", joinArgs(filepath.Join(dir, "player"), name, "--web", "10.77.1.4:8080")...)
	bt.phones[0] = l.startBrowser(2, "phone", 360, 740)
	bt.phones[1] = l.startBrowser(3, "desktop", 1280, 800)
	bt.phones[0].sit(bt.url, "Ana")
	bt.phones[1].sit(bt.url, "Ben")
	// The deal: each page says it shuffles, then shows its own hand.
	var wg sync.WaitGroup
	for _, b := range bt.phones {
		wg.Add(1)
		go func() {
			defer wg.Done()
			blindDeal(t, b)
		}()
	}
	bt.player.waitFor(60*time.Second, "a seat", isType("seated"))
	wg.Wait()

	reloaded := false
	res := bt.play(t, func(i int, b *browser) {
		b.shot("playing")
		if i != 0 {
			return
		}
		ctx, cancel := context.WithTimeout(b.ctx, 90*time.Second)
		defer cancel()
		seen, err := chromedp.Run(ctx, chromedp.Evaluate[int](`+document.body.dataset.record`))
		if err != nil || seen < 8 {
			t.Errorf("before the reload the phone's Player showed its seat %d events (%v): want the deal and the plays so far", seen, err)
		}
		if err := chromedp.Do(ctx, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`body[data-status="seated"]`))); err != nil {
			t.Errorf("after a reload the phone is not seated again: %v", err)
			return
		}
		// The same party: its deck secret back from the tab's storage,
		// the host's log replayed to what it had shown, and its hand
		// again (a page that lost its secret shows none, and says so).
		if err := b.waitJS(ctx, fmt.Sprintf(`document.body.dataset.blind === "1" && +document.body.dataset.restored >= %d && document.querySelectorAll("#hand [data-card]").length > 0`, seen)); err != nil {
			news, _ := chromedp.Run(b.ctx, chromedp.Evaluate[string](`document.querySelector("#news").textContent`))
			t.Errorf("after the reload the phone isn't its party again: %v (news: %s)", err, clip(news, 400))
			return
		}
		reloaded = true
		b.shot("reloaded")
	})
	bt.sheetsVerified(t, res, "sheet")
	if !reloaded {
		t.Error("the phone never reloaded mid-game")
	}
	for _, b := range bt.phones {
		// The sheet is this page's own audit: it says so.
		v, err := chromedp.Run(b.ctx, chromedp.Text(chromedp.CSS("#verified")))
		if err != nil || !strings.Contains(v, "deal verified ✔ (checked in this browser)") {
			t.Errorf("%s's sheet says %q (%v)", b.name, v, err)
		}
	}
	for _, g := range finishGame(t, 5, 1, []*proc{bt.host, bt.player}, 2*time.Minute) {
		if !g.res.Blind {
			t.Errorf("%s's game wasn't blind", g.p.name)
		}
	}
	if l, ok := bt.host.find(func(l outLine) bool { return strings.Contains(l.raw, "can't take part in a blind deal") }); ok {
		t.Errorf("the host dealt in the clear: %s", clip(l.raw, 300))
	}
}

// blindDeal waits on b's page for the blind deal: Shuffling… while it
// runs (the page's own milestone says it was drawn; a screenshot if a
// look catches it), the bot's seat named with the laptop node that runs
// it, then a hand the page worked out itself.
func blindDeal(t *testing.T, b *browser) {
	ctx, cancel := context.WithTimeout(b.ctx, 2*time.Minute)
	defer cancel()
	const look = `(() => {
  const q = (s) => document.querySelector(s);
  const bot = [...document.querySelectorAll("#seats [data-seat]")].map((d) => d.textContent).find((s) => s.includes("bot"));
  return JSON.stringify({blind: document.body.dataset.blind === "1", shuffling: q("#shuffling").hidden ? "" : q("#shuffling").textContent,
    marked: window.bullshitTimes.some((m) => m.ev === "shuffling"), cards: document.querySelectorAll("#hand [data-card]").length, bot: bot || ""});
})()`
	var v struct {
		Blind          bool
		Shuffling, Bot string
		Marked         bool
		Cards          int
	}
	shot := false
	for ctx.Err() == nil {
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](look))
		if err == nil {
			json.Unmarshal([]byte(s), &v)
			if strings.HasPrefix(v.Shuffling, "Shuffling") && !shot {
				b.shot("shuffling")
				shot = true
			}
			if v.Blind && v.Cards > 0 {
				break
			}
		}
		time.Sleep(30 * time.Millisecond)
	}
	if !v.Blind || v.Cards == 0 {
		t.Errorf("%s: no blind deal on the page (%+v, %v)", b.name, v, ctx.Err())
		return
	}
	if !v.Marked {
		t.Errorf("%s: the page never said it was shuffling", b.name)
	}
	if !strings.Contains(v.Bot, "bot · on ") {
		t.Errorf("%s: the bot's seat says %q, not whose node runs it", b.name, v.Bot)
	}
	b.shot("dealt")
}
