// Package e2e plays the real binary in a real terminal: tmux runs
// `bullshit play --solo`, the test reads the screen and types keys, a whole
// game against bots, and reads the result sheet.
package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tmux runs a tmux command on the test's own server.
type tmux struct {
	t      *testing.T
	socket string
}

func (x tmux) run(args ...string) string {
	x.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", x.socket}, args...)...).CombinedOutput()
	if err != nil {
		x.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (x tmux) screen() string { return x.run("capture-pane", "-p", "-t", "e2e") }

func (x tmux) keys(keys ...string) { x.run(append([]string{"send-keys", "-t", "e2e"}, keys...)...) }

// build compiles the binary from the module root.
func build(t *testing.T) string {
	t.Helper()
	root, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(strings.TrimSpace(string(root)))
	bin := filepath.Join(t.TempDir(), "bullshit")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/bullshit")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

// dock is the screen's last line: the moves that fit the moment.
func dock(screen string) string {
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	return lines[len(lines)-1]
}

// TestSoloGameByKeys plays a whole game against two bots with keystrokes:
// claim what the assist picks (or bluff the card under the cursor), let
// most plays go and call every third, hand over the card picked for us.
func TestSoloGameByKeys(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole game in a terminal takes a minute or two")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (apt-get install tmux)")
	}
	bin := build(t)
	prof := t.TempDir()
	x := tmux{t: t, socket: fmt.Sprintf("bullshit-e2e-%d", os.Getpid())}
	done := filepath.Join(prof, "exited")
	shell := fmt.Sprintf("NO_COLOR=1 %s play --config %s --name Tess --solo --bots 2 --no-bell; echo $? > %s; sleep 600",
		bin, prof, done)
	x.run("new-session", "-d", "-s", "e2e", "-x", "80", "-y", "24", shell)
	t.Cleanup(func() { exec.Command("tmux", "-L", x.socket, "kill-server").Run() })

	deadline := time.Now().Add(8 * time.Minute)
	windows, calls, plays := 0, 0, 0
	last, at := "", time.Now()
	var s string
	for {
		if time.Now().After(deadline) {
			t.Fatalf("no game over in 8 minutes; the screen:\n%s", s)
		}
		s = x.screen()
		if strings.Contains(s, "Game over") {
			break
		}
		d := dock(s)
		if d != last {
			last = d
		} else if time.Since(at) < 1500*time.Millisecond {
			// Our last key may be on its way: don't type it twice.
			time.Sleep(100 * time.Millisecond)
			continue
		}
		at = time.Now()
		switch {
		case strings.Contains(d, "H  Hand over"):
			x.keys("h")
		case strings.Contains(d, "C  Pick cards to claim") && !strings.Contains(d, "BULLSHIT!"):
			x.keys("Space", "c")
			plays++
		case strings.Contains(d, "C  Claim") && !strings.Contains(d, "BULLSHIT!"):
			x.keys("c")
			plays++
		case strings.Contains(d, "B  BULLSHIT!"):
			windows++
			if windows%3 == 0 {
				x.keys("b")
				calls++
			} else {
				x.keys("g")
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	// The fairness audit follows the end.
	for i := 0; i < 50 && !strings.Contains(s, "deal verified") && !strings.Contains(s, "NOT verified"); i++ {
		time.Sleep(100 * time.Millisecond)
		s = x.screen()
	}
	if !strings.Contains(s, "deal verified ✔") {
		t.Errorf("no audit on the sheet")
	}
	t.Logf("played %d times, answered %d windows, called %d; the result sheet:\n%s", plays, windows, calls, s)
	// With a profile, the game is rated: at 80 columns "Left" makes room
	// for the rating column.
	for i := 0; i < 50 && !strings.Contains(s, "fixed"); i++ {
		time.Sleep(100 * time.Millisecond)
		s = x.screen()
	}
	for _, want := range []string{"Game over", "plays", "Place", "Player", "Left", "Sneaked", "Caught",
		"Calls right/made", "Rating", "fixed", "1st", "You", "Ben", "Cleo", "S share", "L lobby", "Q quit"} {
		if !strings.Contains(s, want) {
			t.Errorf("result sheet lacks %q", want)
		}
	}
	if plays == 0 || windows == 0 {
		t.Errorf("the game went by without us: %d plays, %d windows", plays, windows)
	}
	// The first-run hints were remembered in the profile.
	b, err := os.ReadFile(filepath.Join(prof, "hints.json"))
	if err != nil || !strings.Contains(string(b), `"claim": true`) {
		t.Errorf("hints.json: %s %v", b, err)
	}
	// The game is in the profile's ratings, and S writes it out there.
	if _, err := os.Stat(filepath.Join(prof, "ratings.json")); err != nil {
		t.Errorf("no ratings kept: %v", err)
	}
	x.keys("s")
	var shared []string
	for i := 0; i < 50 && len(shared) == 0; i++ {
		time.Sleep(100 * time.Millisecond)
		shared, _ = filepath.Glob(filepath.Join(prof, "shared", "*.txt"))
	}
	if len(shared) != 1 {
		t.Errorf("S wrote %v; the screen:\n%s", shared, x.screen())
	} else if b, err := os.ReadFile(shared[0]); err != nil || !strings.Contains(string(b), "seat 1") {
		t.Errorf("the shared game: %s %v", b, err)
	}
	// Q quits, and the program exits cleanly.
	x.keys("q")
	for i := 0; ; i++ {
		if b, err := os.ReadFile(done); err == nil {
			if code := strings.TrimSpace(string(b)); code != "0" {
				t.Errorf("exit status %s", code)
			}
			break
		}
		if i > 50 {
			t.Fatalf("still running after Q:\n%s", x.screen())
		}
		time.Sleep(100 * time.Millisecond)
	}
}
