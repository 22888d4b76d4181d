//go:build linux

package main

// Issue 21, item 1: a host that chooses the deal. The dishonest host is
// the real binary built with the tag roguehost (node/table/roguehost.go), which
// cheats at the deal as BS_ROGUE_HOST says; everyone else is the real
// binary (two terminal players saving their games, a spectator, and a
// phone's page in Chromium where there is one). Every one of them must
// find the deal not verified, and name the nonces it lacks.

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/journal"
)

// rogueHostEnv chooses the rogue host's cheat (table.RogueHostEnv, which
// only the roguehost build has).
const rogueHostEnv = "BS_ROGUE_HOST"

var (
	rogueHostOnce sync.Once
	rogueHostPath string
	rogueHostErr  error
)

// rogueHostBin builds cmd/bullshit with the tag roguehost, once per test
// binary run.
func rogueHostBin(t *testing.T) string {
	t.Helper()
	rogueHostOnce.Do(func() {
		rogueHostPath = filepath.Join(bsDir, "bullshit-roguehost")
		goTool, err := exec.LookPath("go")
		if err != nil {
			goTool = "go" // the error names what is missing
		}
		out, err := exec.Command(goTool, "build", "-tags", "roguehost", "-o", rogueHostPath, ".").CombinedOutput()
		if err != nil {
			rogueHostErr = fmt.Errorf("go build -tags roguehost: %v\n%s", err, out)
		}
	})
	if rogueHostErr != nil {
		t.Fatal(rogueHostErr)
	}
	return rogueHostPath
}

// startRogueHost runs the roguehost build inside host i, cheating as cheat.
func (l *lan) startRogueHost(i int, name, cheat string, args ...string) *proc {
	l.t.Helper()
	return startProc(l.t, name, []string{rogueHostEnv + "=" + cheat}, "ip", append([]string{"netns", "exec", l.ns(i), rogueHostBin(l.t)}, args...)...)
}

// TestE2EHostGrindsTheDeal: the host never asks for a nonce and tries
// seeds until its own hand holds the four aces and the four kings. It
// deals that hand; every client finds the deal not verified.
func TestE2EHostGrindsTheDeal(t *testing.T) {
	t.Parallel()
	games := cheatedDeal(t, "grind", "took no part in the deal's toss")
	// The attack worked: the host's own hand (seat 0) held them all.
	g := games[0]
	cfg := g.Config
	cfg.Seed = gamewire.DealSeed(g.Config.Seed, g.Salt, g.Toss.Nonces)
	dealt, _, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range dealt.View(0).Hand {
		if c != engine.Joker && (c.Rank() == 0 || c.Rank() == 12) {
			n++
		}
	}
	if n != 8 {
		t.Errorf("the rogue host dealt itself %d of the aces and kings, not 8: the attack wasn't played", n)
	}
	t.Logf("the rogue host dealt itself %d of the 8 aces and kings", n)
}

// TestE2EHostCallsNoncesLate: the host asks every player for its nonce
// commitment, then calls each one too late and deals from its seed alone.
func TestE2EHostCallsNoncesLate(t *testing.T) {
	t.Parallel()
	cheatedDeal(t, "toolate", "nonce wasn't part of the deal")
}

// cheatedDeal plays a game under a rogue host cheating as cheat and checks
// that every client says the deal did not verify: each player's audit
// (with own, its own seat's problem) and the other seats' nonces named, the
// spectator's, `bullshit verify` on each saved game, and the phone's
// sheet. It returns the players' saved games.
func cheatedDeal(t *testing.T, cheat, own string) []journal.SavedGame {
	phones := 0
	if chromiumPath() != "" {
		phones = 1
	} else {
		t.Log("no Chromium: no phone at this table")
	}
	l := newLAN(t, 4+phones, false)
	dir := t.TempDir()
	name := "cheat-" + l.prefix
	const web = "http://10.77.1.1:8080"
	// The seed deals a clear table's cards (a blind one's only picks the
	// dealer): the toss is held to it there.
	host := l.startRogueHost(1, "rogue-host", cheat, hostArgs(filepath.Join(dir, "host"), name, 2+phones, 0,
		"--web", strings.TrimPrefix(web, "http://"), "--blind=false")...)
	host.waitFor(20*time.Second, "the table line", isType("table"))
	watcher := l.start(4, "watcher", joinArgs(filepath.Join(dir, "watch"), name, "--watch")...)
	var players []*proc
	for i := 2; i <= 3; i++ {
		players = append(players, l.start(i, fmt.Sprintf("join%d", i), joinArgs(filepath.Join(dir, strconv.Itoa(i)), name,
			"--save", filepath.Join(dir, "saved", strconv.Itoa(i)))...))
	}
	names := map[int]string{}
	for _, p := range players {
		names[seatOf(t, p)] = p.name
	}
	phoneDone := make(chan stepResult, 1)
	var phone *browser
	if phones > 0 {
		phone = l.startBrowser(5, "phone", 360, 740)
		phone.sit(web+"/", "Ana")
		go func() {
			r, err := phone.playUntil(nil, 3*time.Minute)
			if err != nil {
				t.Errorf("phone: %v", err)
			}
			phoneDone <- r
		}()
	}
	for _, p := range append(players, watcher) {
		r := p.waitFor(3*time.Minute, "the result", isType("result"))
		var res result
		if err := json.Unmarshal([]byte(r.raw), &res); err != nil {
			t.Fatal(err)
		}
		if res.Audit == nil {
			t.Errorf("%s: no audit in its result", p.name)
			continue
		}
		problems := strings.Join(res.Audit.Problems, " | ")
		t.Logf("%s (seat %d): verified %v: %s", p.name, res.You, res.Audit.Verified, problems)
		if res.Audit.Verified {
			t.Errorf("%s (seat %d): a deal the host chose verified", p.name, res.You)
		}
		if res.You >= 0 && !strings.Contains(problems, own) {
			t.Errorf("%s: its audit doesn't say its own nonce was left out (%q): %s", p.name, own, problems)
		}
		for seat, other := range names {
			if seat != res.You && !strings.Contains(problems, fmt.Sprintf("(seat %d)", seat+1)) {
				t.Errorf("%s: its audit doesn't name %s's (seat %d) missing nonce: %s", p.name, other, seat+1, problems)
			}
		}
	}
	var games []journal.SavedGame
	for i, p := range players {
		files, _ := filepath.Glob(filepath.Join(dir, "saved", strconv.Itoa(i+2), "game-*.json"))
		if len(files) != 1 {
			t.Fatalf("%s saved %d games, want 1", p.name, len(files))
		}
		out, err := exec.Command(bullshitBin(t), "verify", files[0]).CombinedOutput()
		if err == nil || !strings.HasPrefix(string(out), "NOT verified") || !strings.Contains(string(out), "nonce") {
			t.Errorf("bullshit verify %s's game: %v, want NOT verified naming the nonces:\n%s", p.name, err, out)
		}
		t.Logf("bullshit verify %s's game:\n%s", p.name, out)
		g, err := journal.LoadGame(files[0])
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, g)
	}
	if phone != nil {
		r := <-phoneDone
		problems := phone.text("#problems")
		t.Logf("the phone's sheet: %s; %s", r.What, problems)
		if r.What == "verified" || !strings.HasPrefix(r.What, "sheet:deal NOT") {
			t.Errorf("the phone ended on %+v, want its sheet to say the deal did NOT verify", r)
		}
		if !strings.Contains(problems, own) {
			t.Errorf("the phone's sheet doesn't say its own nonce was left out: %q", problems)
		}
	}
	return games
}

// text is the text of the page's element sel, "" for none.
func (b *browser) text(sel string) string {
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`(document.querySelector(%q) || {}).textContent || ""`, sel)))
	if err != nil {
		b.t.Errorf("%s: %v", b.name, err)
	}
	return s
}

// TestE2ELateSeatDealtAgain: an honest player whose node sends its first
// commitment late (past the toss's wait) is named, and the table tosses
// again rather than deal without it: everyone sees why, the game is
// dealt with every nonce, and every audit verifies.
func TestE2ELateSeatDealtAgain(t *testing.T) {
	t.Parallel()
	l := newLAN(t, 3, false)
	dir := t.TempDir()
	name := "late-" + l.prefix
	host, table := l.startHost(dir, name, 2, 0, "--blind=false") // the rogue's toss is a clear table's
	player := l.start(2, "join2", joinArgs(filepath.Join(dir, "2"), name)...)
	seatOf(t, player)
	late := l.startRogue(3, "late", rogueEnv+"=late", rogueAddrEnv+"="+hostAddr(t, table), lieNickEnv+"=Slow")
	late.waitFor(60*time.Second, "its seat", isType("seated"))
	late.waitFor(60*time.Second, "its late commitment", isType("late"))
	for _, p := range []*proc{host, player} {
		n := p.waitFor(60*time.Second, "the toss again", notice("Dealing again", time.Time{}))
		if !strings.Contains(n.str("text"), "Slow") {
			t.Errorf("%s was told %q: it doesn't name the late seat", p.name, n.str("text"))
		}
	}
	finishGame(t, 3, 1, []*proc{host, player}, 3*time.Minute)
	for _, p := range []*proc{host, player} {
		if _, err := p.await(time.Second, notice("Dealt without", time.Time{})); err == nil {
			t.Errorf("%s: the table dealt without a nonce after all", p.name)
		}
	}
	late.waitFor(30*time.Second, "the late seat to see the end", isType("over"))
}
