package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/node/guard"
)

// TestE2ECodeGuessesLimited is issue 13's attack 5 against the real
// binary: a stranger on the LAN guesses a private table's join code from
// one machine, a fresh identity each try (a new --config directory, so a
// new key: identities are free). The first CodeTriesPerAddr guesses are
// each told the code is wrong; every guess after that, whatever its
// identity, is turned away for its address before any code is checked.
// A player with the code, from another machine, still gets a seat, and
// the game ends verified.
func TestE2ECodeGuessesLimited(t *testing.T) {
	t.Parallel()
	const code = "plum-cider-42"
	l := newLAN(t, 3, false)
	dir := t.TempDir()
	name := "locked-" + l.prefix[len(l.prefix)-5:]
	host, _ := l.startHost(dir, name, 1, 1, "--code", code)

	guesses := guard.CodeTriesPerAddr + 3
	wrong, limited := 0, 0
	start := time.Now()
	for n := range guesses {
		args := []string{"join", "--headless", "--json", "--config", filepath.Join(dir, fmt.Sprintf("guess%d", n)),
			"--pace", "fast", "--wait", "20s", "--table", name, "--code", fmt.Sprintf("wrong-%06d", n)}
		r := runJoinCmd(t, l, 3, fmt.Sprintf("guess%d", n), args...)
		if r.err == nil {
			t.Fatalf("guess %d (%s) joined the table", n+1, args[len(args)-1])
		}
		if _, ok := r.p.find(isType("seated")); ok {
			t.Fatalf("guess %d took a seat", n+1)
		}
		switch msg := strings.TrimSpace(r.stderr); {
		case strings.Contains(msg, "That join code is wrong."):
			wrong++
		case strings.Contains(msg, "Too many wrong join codes from your address"):
			limited++
		default:
			t.Errorf("guess %d was refused for another reason: %q", n+1, msg)
		}
	}
	// The limit is a minute's: on a machine so slow that the guesses
	// spanned more, each minute begun allows its own.
	allowed := guard.CodeTriesPerAddr * (1 + int(time.Since(start)/time.Minute))
	if wrong > allowed || wrong+limited != guesses {
		t.Errorf("%d guesses from one address in %v: %d checked and found wrong, %d turned away; want at most %d checked",
			guesses, time.Since(start).Round(time.Second), wrong, limited, allowed)
	}
	t.Logf("FIGURE code guesses from one address: %d checked, %d turned away (limit %d a minute)", wrong, limited, guard.CodeTriesPerAddr)

	player := l.start(2, "player", joinArgs(filepath.Join(dir, "player"), name, "--code", code)...)
	finishGame(t, 3, 1, []*proc{host, player}, 2*time.Minute)
}
