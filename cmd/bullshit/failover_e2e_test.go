//go:build linux

package main

// The host dies (kill -9) while a call window is open: the players must
// elect one of themselves, rebuild the table from their shares and finish
// the same game.

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestE2EHostKilled(t *testing.T) {
	t.Parallel()
	l := newLAN(t, 4, false)
	dir := t.TempDir()
	name := "failover-" + l.prefix
	host, _ := l.startHost(dir, name, 3, 0)
	var players []*proc
	for i := 2; i <= 4; i++ {
		players = append(players, l.start(i, fmt.Sprintf("join%d", i), joinArgs(filepath.Join(dir, strconv.Itoa(i)), name)...))
	}
	for _, p := range players {
		seatOf(t, p)
	}
	// Mid-window: the moment the host prints a play, its window is open
	// for a second.
	play := host.waitFor(90*time.Second, "play 5", func(l outLine) bool { return l.typ() == "play" && l.num("no") >= 5 })
	host.signal(syscall.SIGKILL)
	killed := time.Now()
	t.Logf("killed the host %s after it printed play %d", fmtMS(killed.Sub(play.at)), play.num("no"))

	// The players finish the game without it: one of them hosts, the dead
	// host's seat is played by a bot.
	games := finishGame(t, 4, 1, players, 2*time.Minute)
	var took time.Duration
	for _, g := range games {
		for _, l := range g.p.snapshot() {
			if l.typ() == "notice" && l.at.After(killed) {
				if took == 0 && strings.Contains(l.str("text"), "hosting") {
					took = l.at.Sub(killed)
				}
				if testing.Verbose() {
					t.Logf("%s: %s", g.p.name, l.str("text"))
				}
			}
		}
		if g.res.Plays <= play.num("no") {
			t.Errorf("%s: the game ended at play %d, no further than when the host died", g.p.name, g.res.Plays)
		}
	}
	t.Logf("FIGURE failover: a new host %s after the kill", fmtMS(took))
}
