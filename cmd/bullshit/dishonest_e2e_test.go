//go:build linux

package main

// Issue 25: dishonest nodes at a real blind table, each caught and named
// on every screen. The dishonest party is the real binary built with the
// tag rogueparty (node/mentaltable/rogueparty.go), whose node cheats as
// BS_ROGUE_PARTY says and otherwise plays honestly; the host and the other
// player are the real binary. Every test runs on loopback (no root): the
// host sits as Hana, Ben is honest, Rook cheats; three bots fill the
// table, one of them on Rook's node (so it cheats for two seats). Rook's
// seats are played bold (they lie often), everyone else's as callers
// (they call often): a game gives each attack many chances.

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// roguePartyEnv chooses the rogue party's cheat (mentaltable.RoguePartyEnv,
// which only the rogueparty build has).
const roguePartyEnv = "BS_ROGUE_PARTY"

var (
	roguePartyOnce sync.Once
	roguePartyPath string
	roguePartyErr  error
)

// roguePartyBinEnv names a rogueparty build to use instead (an older
// tree's, to show a test fails on it, with BS_E2E_HONEST_BIN).
const roguePartyBinEnv = "BS_E2E_ROGUEPARTY_BIN"

// roguePartyBin builds cmd/bullshit with the tag rogueparty, once per test
// binary run.
func roguePartyBin(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv(roguePartyBinEnv); bin != "" {
		return bin
	}
	roguePartyOnce.Do(func() {
		roguePartyPath = filepath.Join(bsDir, "bullshit-rogueparty")
		goTool, err := exec.LookPath("go")
		if err != nil {
			goTool = "go" // the error names what is missing
		}
		out, err := exec.Command(goTool, "build", "-tags", "rogueparty", "-o", roguePartyPath, ".").CombinedOutput()
		if err != nil {
			roguePartyErr = fmt.Errorf("go build -tags rogueparty: %v\n%s", err, out)
		}
	})
	if roguePartyErr != nil {
		t.Fatal(roguePartyErr)
	}
	return roguePartyPath
}

// dishonestTable is a blind game on loopback with Rook cheating as cheat:
// the host (Hana, sitting), Ben and Rook, in that party order (Rook
// shuffles last), and three bots. It returns the honest screens (the
// host's and Ben's) and Rook's program.
func dishonestTable(t *testing.T, cheat string, more ...string) (honest []*proc, rook *proc) {
	t.Helper()
	bin := honestBin(t)
	rogue := roguePartyBin(t)
	dir := t.TempDir()
	loop := []string{"--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0"}
	args := append([]string{"host", "--headless", "--json", "--config", filepath.Join(dir, "host"), "--nick", "Hana", "--name", "Dishonest",
		"--players", "2", "--bots", "3", "--levels", "caller,caller,bold", "--bot", "caller", "--wait", "60s", "--pace", "fast",
		"--reveal", "50ms", "--rules", "window=1",
		"--journal", filepath.Join(dir, "journal")}, loop...)
	host := startProc(t, "host", nil, bin, append(args, more...)...)
	line := host.waitFor(30*time.Second, "the table line", isType("table"))
	join := func(name, bot string) []string {
		return append(append([]string{"join", "--headless", "--json", "--config", filepath.Join(dir, name), "--nick", name, "--pace", "fast",
			"--bot", bot, "--wait", "30s", "--save", filepath.Join(dir, "saved", name)}, loop...), hostAddr(t, line))
	}
	ben := startProc(t, "Ben", nil, bin, join("Ben", "caller")...)
	ben.waitFor(30*time.Second, "Ben's seat", isType("seated"))
	rook = startProc(t, "Rook", []string{roguePartyEnv + "=" + cheat}, rogue, join("Rook", "bold")...)
	rook.waitFor(30*time.Second, "Rook's seat", isType("seated"))
	return []*proc{host, ben}, rook
}

// results waits for each program's result line and returns them.
func results(t *testing.T, ps []*proc) []result {
	t.Helper()
	var out []result
	for _, p := range ps {
		l, err := p.await(3*time.Minute, isType("result"))
		if err != nil {
			t.Fatalf("%s printed no result: %v; last lines: %s", p.name, err, tail(p, 6))
		}
		var r result
		if err := json.Unmarshal([]byte(l.raw), &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// notices is every notice p printed that contains s.
func notices(p *proc, s string) []outLine {
	var out []outLine
	for _, l := range p.snapshot() {
		if l.typ() == "notice" && strings.Contains(l.str("text"), s) {
			out = append(out, l)
		}
	}
	return out
}

// rogueSaid is every line of Rook's stderr that says it cheated as cheat.
func rogueSaid(p *proc, cheat string) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, l := range strings.Split(p.stderr.String(), "\n") {
		if strings.HasPrefix(l, "rogue party: "+cheat) {
			out = append(out, l)
		}
	}
	return out
}

// verified checks that every honest screen's game ended (or was ended by
// its host, if early), its audit verified, and returns the audit notes of
// each.
func verified(t *testing.T, honest []*proc, early bool) [][]string {
	t.Helper()
	var notes [][]string
	for i, r := range results(t, honest) {
		if (r.Unfinished && !(early && r.Early)) || r.Audit == nil || !r.Audit.Verified || !r.Blind {
			t.Errorf("%s: the game didn't end blind with its audit verified: %+v", honest[i].name, r)
			continue
		}
		notes = append(notes, r.Audit.Notes)
	}
	return notes
}

// enough waits until Ben's screen has said n notices that contain text
// (or the game ended), then has the host end the game, as its person
// would (SIGTERM): every node publishes its secret, and the plays so far
// are revealed and audited. A game played on for places with a cheat that
// goes against its seat can last hundreds of plays; n of them prove as
// much. It reports whether it ended the game.
func enough(t *testing.T, host, ben *proc, text string, n int) bool {
	t.Helper()
	from := 0
	for k := 0; k < n; k++ {
		_, i, err := ben.awaitFrom(from, 3*time.Minute, func(l outLine) bool {
			return l.typ() == "result" || (l.typ() == "notice" && strings.Contains(l.str("text"), text))
		})
		if err != nil {
			t.Fatalf("Ben's screen said %q %d times, then: %v", text, k, err)
		}
		if ben.snapshot()[i].typ() == "result" {
			return false
		}
		from = i + 1
	}
	host.signal(syscall.SIGTERM)
	return true
}

// turnedUp is the plays among plays that p's screen saw turned up.
func turnedUp(p *proc, plays map[int]bool) map[int]bool {
	out := map[int]bool{}
	for _, l := range p.snapshot() {
		if l.typ() == "reveal" && plays[l.num("no")] {
			out[l.num("no")] = true
		}
	}
	return out
}

// asMany reports whether n notices or notes of a cheat are one for each of
// the plays the screen saw turned up, or one more if the host ended the
// game early: it may end it between the last notice and the others'
// turning that play up.
func asMany(n, turned int, early bool) bool {
	return n == turned || early && n == turned+1
}

// prefixed counts the lines of ss that begin with prefix.
func prefixed(ss []string, prefix string) int {
	n := 0
	for _, s := range ss {
		if strings.HasPrefix(s, prefix) {
			n++
		}
	}
	return n
}

// TestE2EDishonestFalseOpening: Rook's node turns up each of its called
// lies as the truth it claimed, forged three ways in turn (its own share
// doctored so that the card decrypts to the claim; the true opening of
// another card of that rank it holds, under the play's handle; the true
// shares with the face claimed), and probes with each called truth (a
// card claimed as another of its rank). Each is caught and named on every
// screen, the others turn the play up (the recovery), it goes against
// Rook's seat (R10b: a lie, the truths too), and the game goes on (played
// on for places, until six have been caught: then the host ends it) to an
// end every honest audit verifies, its notes naming Rook for each.
func TestE2EDishonestFalseOpening(t *testing.T) {
	const caught = "Rook's node turned its play up falsely: caught. The others turn it up, and it goes against its player."
	honest, rook := dishonestTable(t, "falseopen", "--rules", "places=1")
	early := enough(t, honest[0], honest[1], caught, 6)
	notes := verified(t, honest, early)
	forged := rogueSaid(rook, "falseopen")
	probes := 0
	for _, f := range forged {
		if strings.Contains(f, "probe") {
			probes++
		}
	}
	for i, p := range honest {
		// What the screen saw of Rook's forgeries: the host may have
		// ended the game before the last one was turned up.
		plays := turnedUp(p, playsSaid(t, forged))
		if len(plays) == 0 {
			t.Fatalf("%s saw no forged play turned up: nothing was tested (%q)", p.name, forged)
		}
		if said := notices(p, caught); !asMany(len(said), len(plays), early) {
			t.Errorf("%s was told of %d false openings by Rook's node; it saw %d forged plays turned up: %q", p.name, len(said), len(plays), forged)
		}
		if all := notices(p, "falsely"); !asMany(len(all), len(plays), early) {
			t.Errorf("%s: %d notices of a false opening for Rook's %d: %s", p.name, len(all), len(plays), texts(all))
		}
		// Each forged play is turned up all the same, and judged a lie,
		// whatever its cards.
		for no := range plays {
			rv, _ := p.find(func(l outLine) bool { return l.typ() == "reveal" && l.num("no") == no })
			if truth, _ := rv.v["truth"].(bool); truth {
				t.Errorf("%s: play %d, forged, was judged true: %s", p.name, no, rv.raw)
			}
		}
		if i < len(notes) {
			if n := prefixed(notes[i], "Rook's node turned a play up falsely"); !asMany(n, len(plays), early) {
				t.Errorf("%s's audit names %d of Rook's %d false openings: %q", p.name, n, len(plays), notes[i])
			}
		}
	}
	// Ben's saved game replays, each forfeit with it (R10b), and says so.
	saved := notices(honest[1], "Saved for `bullshit verify`: ")
	if len(saved) != 1 {
		t.Fatalf("Ben saved no game: %s", texts(notices(honest[1], "")))
	}
	path := strings.TrimPrefix(saved[0].str("text"), "Saved for `bullshit verify`: ")
	out, err := exec.Command(honestBin(t), "verify", path).CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "verified:") || !strings.Contains(string(out), "its node turned it up falsely") {
		t.Errorf("bullshit verify %s: %v\n%s", path, err, out)
	}
	t.Logf("Rook's node forged %d openings (%d of them probes of a true play), each caught, named on every screen and judged a lie (the host ended the game: %v): %q",
		len(forged), probes, early, forged)
	t.Logf("bullshit verify on Ben's saved game: %s", out)
}

// texts is the text of each notice.
func texts(ls []outLine) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.str("text"))
	}
	return out
}

// playsSaid is the play numbers Rook's lines name ("play N").
func playsSaid(t *testing.T, lines []string) map[int]bool {
	t.Helper()
	plays := map[int]bool{}
	for _, f := range lines {
		var no int
		i := strings.Index(f, "play ")
		if i < 0 {
			t.Fatalf("%q names no play", f)
		}
		if _, err := fmt.Sscanf(f[i:], "play %d", &no); err != nil {
			t.Fatalf("%q: %v", f, err)
		}
		plays[no] = true
	}
	return plays
}

// TestE2EDishonestNoOpening: Rook's node never turns up a called play of
// its seats. Past mentaltable.OpenBound each is turned up by the others
// (the recovery; a card Rook took in a pile by the node it was dealt
// to), every screen says whose node didn't, nobody else is named, and
// the game goes on (played on for places, until six have been turned up
// so: then the host ends it) to an end every honest audit verifies, its
// notes naming Rook. It measures how long such a play takes to turn up,
// from the call to the reveal on Ben's screen, beside an honest one.
func TestE2EDishonestNoOpening(t *testing.T) {
	const late = "Rook's node didn't turn its play up in time: the others turn it up."
	honest, rook := dishonestTable(t, "noopen", "--rules", "places=1")
	early := enough(t, honest[0], honest[1], late, 6)
	notes := verified(t, honest, early)
	held := playsSaid(t, rogueSaid(rook, "noopen"))
	for i, p := range honest {
		plays := turnedUp(p, held)
		if len(plays) == 0 {
			t.Fatalf("%s saw no play of Rook's turned up without it: nothing was tested", p.name)
		}
		if said := notices(p, late); !asMany(len(said), len(plays), early) {
			t.Errorf("%s was told %d times that Rook's node didn't turn its play up; it saw %d such plays turned up", p.name, len(said), len(plays))
		}
		if all := notices(p, "didn't turn its play up in time"); len(all) != len(notices(p, late)) {
			t.Errorf("%s names others than Rook for a late opening: %s", p.name, texts(all))
		}
		if i < len(notes) {
			if n := prefixed(notes[i], "Rook's node didn't turn its called play up in time"); !asMany(n, len(plays), early) {
				t.Errorf("%s's audit names %d of Rook's %d plays: %q", p.name, n, len(plays), notes[i])
			}
		}
	}
	// From each call (or doubt) to its reveal, on Ben's screen.
	var slow, open []time.Duration
	called := map[int]time.Time{}
	for _, l := range honest[1].snapshot() {
		switch l.typ() {
		case "call", "doubt", "believe":
			called[l.num("no")] = l.at
		case "reveal":
			if at, ok := called[l.num("no")]; ok {
				if held[l.num("no")] {
					slow = append(slow, l.at.Sub(at))
				} else {
					open = append(open, l.at.Sub(at))
				}
			}
		}
	}
	t.Logf("FIGURE recovery: %d plays held back by Rook's node turned up by the others, call to reveal on Ben's screen median %s, worst %s (the bound is 1.5 s); %d plays turned up by their own node: median %s, worst %s",
		len(slow), fmtMS(percentile(slow, 0.5)), fmtMS(percentile(slow, 1)), len(open), fmtMS(percentile(open, 0.5)), fmtMS(percentile(open, 1)))
}

// TestE2EDishonestWrongShare: Rook's deal gives, for a card of Hana's,
// its share of another card (its proof valid, for that one). The host
// checks every share as it comes: every screen says the deal goes again
// without Rook's node and why, a bot on another node plays Rook's seat,
// and the game is played to an end every honest audit verifies.
func TestE2EDishonestWrongShare(t *testing.T) {
	honest, rook := dishonestTable(t, "wrongshare")
	verified(t, honest, false)
	if len(rogueSaid(rook, "wrongshare")) != 1 {
		t.Fatalf("Rook's node sent no wrong share: %s", tail(rook, 3))
	}
	for _, p := range honest {
		said := notices(p, "Dealing again: Rook's node was caught sending a false part of the deal (a share in it doesn't prove itself")
		if len(said) != 1 {
			t.Errorf("%s was told %d times that the deal went again for Rook's share: %s", p.name, len(said), texts(notices(p, "Dealing again")))
		}
		if n := len(notices(p, "Dealing again")); n != 1 {
			t.Errorf("%s: the deal went again %d times", p.name, n)
		}
	}
	t.Logf("every screen said: %s", texts(notices(honest[1], "Dealing again")))
}

// TestE2EDishonestLeavesMidDeal: Rook's program leaves once every shuffle
// is done and its shares of the deal are due, which the deal can't do
// without. A fifth of Timing.Deal (10 s) on, every screen names whom the
// deal waits for; at 10 s it deals again without Rook's node, a bot on
// another node in Rook's seat, and the game is played to an end every
// honest audit verifies.
func TestE2EDishonestLeavesMidDeal(t *testing.T) {
	honest, rook := dishonestTable(t, "leavedeal")
	verified(t, honest, false)
	if len(rogueSaid(rook, "leavedeal")) != 1 {
		t.Fatalf("Rook's node didn't leave mid-deal: %s", tail(rook, 3))
	}
	for _, p := range honest {
		wait, _ := p.find(func(l outLine) bool {
			return l.typ() == "notice" && strings.Contains(l.str("text"), "Shuffling… waiting for Rook's node")
		})
		again := notices(p, "Dealing again: Rook's node left mid-deal and didn't come back in 10 s.")
		if wait.raw == "" || len(again) != 1 {
			t.Errorf("%s wasn't told whom the deal waited for and why it went again: %s", p.name, texts(notices(p, "")))
			continue
		}
		if others := notices(p, "Dealing again"); len(others) != 1 {
			t.Errorf("%s: the deal went again %d times: %s", p.name, len(others), texts(others))
		}
		t.Logf("%s: %q, then %s later %q", p.name, wait.str("text"), again[0].at.Sub(wait.at).Round(time.Millisecond), again[0].str("text"))
	}
}

// TestE2EDishonestShuffle: Rook's node, the last to shuffle, puts a
// second A♠ in its own hand (a fresh encryption in place of one of its
// cards), recommitted so that its step checks when it comes. The game is
// played to its end; when every secret is published, every node checks
// every shuffle and its audit fails, naming Rook, and every screen is told
// the game doesn't count in the evening's score.
func TestE2EDishonestShuffle(t *testing.T) {
	honest, rook := dishonestTable(t, "badshuffle")
	rs := results(t, honest)
	said := rogueSaid(rook, "badshuffle")
	if len(said) != 1 || !strings.Contains(said[0], "dealt to party 2") {
		t.Fatalf("Rook's node didn't put a card of its own in its shuffle: %q", said)
	}
	for i, r := range rs {
		p := honest[i]
		if r.Unfinished || r.Audit == nil || !r.Blind {
			t.Errorf("%s: the game didn't end blind with an audit: %+v", p.name, r)
			continue
		}
		if r.Audit.Verified || !slices.ContainsFunc(r.Audit.Problems, func(s string) bool { return strings.HasPrefix(s, "Rook's node cheated at the shuffle") }) {
			t.Errorf("%s's audit doesn't name Rook's shuffle: %+v", p.name, r.Audit)
		}
		// Every screen is told, and that the game doesn't count.
		if said := notices(p, "Rook's node cheated at the shuffle"); len(said) != 1 || !strings.HasSuffix(said[0].str("text"), "It doesn't count in the evening's score.") {
			t.Errorf("%s wasn't told the game doesn't count: %s", p.name, texts(notices(p, "")))
		}
		// The end names no card: with a card substituted, no deck is
		// every card once.
		if over, ok := p.find(isType("over")); !ok || over.v["hands"] != nil {
			t.Errorf("%s's end names cards of a deck that doesn't check: %s", p.name, over.raw)
		}
		t.Logf("%s's audit: %q", p.name, r.Audit.Problems)
	}
}
