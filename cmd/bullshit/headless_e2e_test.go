//go:build linux

package main

// The headless host and player as a person or a script meets them (issue
// 11): stopped mid-game, saving a game, the command the host prints, seats
// counted from 1 in text, the help. All on loopback, without root.

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// loopback keeps a program off the LAN and off mDNS.
var loopback = []string{"--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0", "--web", "127.0.0.1:0"}

// exitCode is a program's exit status once it has ended (-1 if a signal
// killed it without its say).
func exitCode(t *testing.T, p *proc) int {
	t.Helper()
	if !p.waitEnd(30 * time.Second) {
		t.Fatalf("%s did not exit", p.name)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	var ee *exec.ExitError
	switch {
	case p.err == nil:
		return 0
	case errors.As(p.err, &ee):
		return ee.ExitCode()
	}
	t.Fatalf("%s: %v", p.name, p.err)
	return -1
}

func stderrOf(p *proc) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.String()
}

// TestHeadlessStopped: SIGTERM to a headless host and to its players in
// the middle of a game. None may say "game over": each says it was stopped
// and the game did not finish, and exits 143 (128 + SIGTERM). On the way,
// the host's printed join command is run as printed, and the text output
// counts seats from 1 (--json keeps the engine's 0-based seats).
func TestHeadlessStopped(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end test skipped in -short mode")
	}
	dir := t.TempDir()
	bin := bullshitBin(t)
	// Dealt in the clear: the players are stopped before the host, and
	// a blind game's cards go with its players' secrets (the host alone
	// reveals only a clear one; node's TestBlindEndedEarly ends a blind
	// game early with its players there).
	host := startProc(t, "host", nil, bin, append([]string{"host", "--headless", "--config", filepath.Join(dir, "host"),
		"--nick", "Hana", "--players", "2", "--bots", "1", "--wait", "60s", "--pace", "fast", "--rules", "window=1",
		"--reveal", "100ms", "--blind=false"}, loopback...)...)
	line := host.waitFor(20*time.Second, "the command to join", func(l outLine) bool {
		return strings.Contains(l.raw, "bullshit join")
	})
	// The command as printed, with this test's profile and loopback flags
	// put before its own.
	printed := strings.Fields(line.raw)
	if len(printed) < 3 || printed[0] != "bullshit" || printed[1] != "join" {
		t.Fatalf("the host printed %q: not a bullshit join command", line.raw)
	}
	args := append([]string{"join", "--config", filepath.Join(dir, "ann"), "--nick", "Ann", "--pace", "fast"}, loopback...)
	ann := startProc(t, "ann", nil, bin, append(args, printed[2:]...)...)
	addr := printed[len(printed)-1]
	bo := startProc(t, "bo", nil, bin, append(append([]string{"join", "--headless", "--json", "--config", filepath.Join(dir, "bo"),
		"--nick", "Bo", "--pace", "fast"}, loopback...), addr)...)

	// Mid-game: both players have seen play 2, and Ann has had a part
	// in the game (her own play or call), so a line of hers names her
	// seat: with four seats her turn comes within the first four plays.
	ann.waitFor(60*time.Second, "play 2", func(l outLine) bool { return strings.HasPrefix(l.raw, "Play 2: ") })
	ann.waitFor(60*time.Second, "a line naming her seat", func(l outLine) bool {
		return strings.Contains(strings.ToLower(l.raw), "you (seat ")
	})
	bo.waitFor(60*time.Second, "play 2", func(l outLine) bool { return l.typ() == "play" && l.num("no") >= 2 })
	for _, p := range []*proc{ann, bo, host} {
		p.signal(syscall.SIGTERM)
		if code := exitCode(t, p); code != 143 {
			t.Errorf("%s exited %d after SIGTERM mid-game, want 143 (128 + SIGTERM); stderr: %s", p.name, code, stderrOf(p))
		}
		for _, l := range p.snapshot() {
			if strings.Contains(strings.ToLower(l.raw), "game over") {
				t.Errorf("%s said %q of a game it was stopped in", p.name, l.raw)
			}
		}
		if !strings.Contains(stderrOf(p), "stopped by SIGTERM") {
			t.Errorf("%s's stderr doesn't say it was stopped: %q", p.name, stderrOf(p))
		}
	}
	for _, p := range []*proc{ann, host} {
		if _, ok := p.find(func(l outLine) bool {
			return strings.HasPrefix(l.raw, "Stopped (SIGTERM) after ") && strings.HasSuffix(l.raw, "the game did not finish.")
		}); !ok {
			t.Errorf("%s never said it was stopped before the game finished", p.name)
		}
	}
	// The host ended the game it was stopped in on its way out: the
	// players got the reveal, and the plays so far were audited.
	if _, ok := host.find(func(l outLine) bool {
		return strings.HasPrefix(l.raw, "Game ended early after ") && strings.Contains(l.raw, "deal verified")
	}); !ok {
		t.Errorf("the host never said it ended the game early, verified")
	}
	res, ok := bo.find(isType("result"))
	if !ok || res.v["unfinished"] != true || res.str("stopped") != "SIGTERM" {
		t.Errorf("the JSON player's result is %q; want it unfinished and stopped by SIGTERM", res.raw)
	}

	// Seats: from 1 in text, from 0 in JSON.
	seated := regexp.MustCompile(`^Seated at seat (\d+)\.$`)
	seatOfText := func(p *proc) int {
		l, ok := p.find(func(l outLine) bool { return seated.MatchString(l.raw) })
		if !ok {
			t.Fatalf("%s printed no %q line", p.name, "Seated at seat N.")
		}
		n, _ := strconv.Atoi(seated.FindStringSubmatch(l.raw)[1])
		return n
	}
	if n := seatOfText(host); n != 1 {
		t.Errorf("the host says it sits at seat %d; the first seat is seat 1", n)
	}
	annSeat := seatOfText(ann)
	boSeat := bo.waitFor(time.Second, "a seat", isType("seated")).num("seat")
	if annSeat < 2 || annSeat > 4 || boSeat < 1 || boSeat > 3 || annSeat-1 == boSeat {
		t.Errorf("Ann printed seat %d (text, from 1) and Bo seat %d (JSON, from 0): want 2 to 4, 1 to 3, and two seats", annSeat, boSeat)
	}
	if _, ok := ann.find(func(l outLine) bool {
		return strings.Contains(strings.ToLower(l.raw), fmt.Sprintf("you (seat %d)", annSeat))
	}); !ok {
		t.Errorf("Ann's events never name her own seat %d", annSeat)
	}
	for _, p := range []*proc{host, ann} {
		for _, l := range p.snapshot() {
			if strings.Contains(l.raw, "seat 0") || strings.Contains(l.raw, `"seat"`) {
				t.Errorf("%s printed a seat counted from 0 in text: %q", p.name, l.raw)
			}
		}
	}
}

// TestHeadlessSave: --save DIR makes DIR if it is missing and the game is
// saved there for `bullshit verify`; a DIR that can't be made is refused
// before joining; a save that fails at the end (DIR removed mid-game) is
// reported and the exit status is not 0.
func TestHeadlessSave(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end test skipped in -short mode")
	}
	dir := t.TempDir()
	bin := bullshitBin(t)

	t.Run("refused at start", func(t *testing.T) {
		file := filepath.Join(dir, "a-file")
		if err := os.WriteFile(file, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		p := startProc(t, "join", nil, bin, append(append([]string{"join", "--headless", "--config", filepath.Join(dir, "nobody"),
			"--save", filepath.Join(file, "games")}, loopback...), "/ip4/127.0.0.1/tcp/9/p2p/12D3KooWEACT1CczpHnnaa1ZiqNYL3dP3GYUPzyxorCucoJPixct")...)
		if code := exitCode(t, p); code == 0 {
			t.Fatal("a --save directory under a file: exit 0")
		}
		if e := stderrOf(p); !strings.Contains(e, "--save "+filepath.Join(file, "games")) || !strings.Contains(e, "not a directory") {
			t.Errorf("stderr %q doesn't say --save's directory can't be made", e)
		}
	})

	host := startProc(t, "host", nil, bin, append(hostArgs(filepath.Join(dir, "host"), "saves", 2, 0), loopback...)...)
	addr := hostAddr(t, host.waitFor(20*time.Second, "the table line", isType("table")))
	missing := filepath.Join(dir, "missing", "games")
	gone := filepath.Join(dir, "gone")
	join := func(name, save string) *proc {
		return startProc(t, name, nil, bin, append(append([]string{"join", "--headless", "--json", "--config", filepath.Join(dir, name),
			"--pace", "fast", "--save", save}, loopback...), addr)...)
	}
	keeper, loser := join("keeper", missing), join("loser", gone)
	seat := seatOf(t, keeper)
	seatOf(t, loser)
	if fi, err := os.Stat(gone); err != nil || !fi.IsDir() {
		t.Fatalf("--save %s was not made at the start: %v", gone, err)
	}
	if err := os.RemoveAll(gone); err != nil {
		t.Fatal(err)
	}
	finishGame(t, 3, 1, []*proc{host, keeper}, 2*time.Minute)

	saved, _ := filepath.Glob(filepath.Join(missing, "game-*.json"))
	if len(saved) != 1 || !strings.HasSuffix(saved[0], fmt.Sprintf("-seat%d.json", seat+1)) {
		t.Fatalf("in %s: %v; want one game-DATE-TIME-seat%d.json", missing, saved, seat+1)
	}
	if out, err := exec.Command(bin, "verify", saved[0]).CombinedOutput(); err != nil || !strings.HasPrefix(string(out), "verified:") {
		t.Errorf("bullshit verify %s: %v\n%s", saved[0], err, out)
	}
	if _, ok := keeper.find(notice("Saved for `bullshit verify`: "+saved[0], time.Time{})); !ok {
		t.Errorf("the keeper never said where it saved the game")
	}

	if _, err := loser.await(2*time.Minute, isType("result")); err != nil {
		t.Fatalf("the loser printed no result: %v", err)
	}
	if code := exitCode(t, loser); code == 0 {
		t.Errorf("the game could not be saved (its directory was removed), yet the exit status is 0")
	}
	if e := stderrOf(loser); !strings.Contains(e, "--save "+gone+": the game was not saved") {
		t.Errorf("stderr %q doesn't say the game was not saved", e)
	}
	if _, ok := loser.find(notice("The game could not be saved", time.Time{})); !ok {
		t.Errorf("the loser printed no notice that the save failed")
	}
	var r result
	l, _ := loser.find(isType("result"))
	json.Unmarshal([]byte(l.raw), &r)
	if r.Unfinished || r.Audit == nil || !r.Audit.Verified {
		t.Errorf("the loser's game should have finished and verified all the same: %s", l.raw)
	}
}

// TestHelpListsCommands: `bullshit --help` names every command, play too.
func TestHelpListsCommands(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"help"}} {
		var out strings.Builder
		c := exec.Command(bullshitBin(t), args...)
		c.Stdout = &out
		if err := c.Run(); err != nil {
			t.Fatalf("bullshit %s: %v", args[0], err)
		}
		for _, sub := range commands {
			name := sub.name
			if !regexp.MustCompile(`(?m)^  ` + name + ` `).MatchString(out.String()) {
				t.Errorf("bullshit %s doesn't list %q:\n%s", args[0], name, out.String())
			}
		}
	}
}
