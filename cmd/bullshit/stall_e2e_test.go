//go:build linux

package main

// Issue 21, items 2 and 9: a failover that one player holds up. The host
// is killed (kill -9) mid-game; a seated player (the liar in withhold
// mode: this test binary again) rejoins the new host at once and stays
// connected, heartbeats and all, but never gives its shares of the hidden
// cards, without which the game can't be rebuilt. A spectator (the liar in
// stranger mode) presses a record of its own on the new host meanwhile.
// The new host must say whom it waits for and why, take nothing from the
// stranger, and within Timing.Stall (20 s) deal a new game instead of
// waiting for ever, every remaining screen saying why.

import (
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/bullshit-game/bullshit/node"
)

// stallBound is the new host's Timing.Stall (table.DefaultTiming), and the
// slack a loaded machine may add to it before the test calls it a hang.
const (
	stallBound = 20 * time.Second
	stallSlack = 25 * time.Second
)

// TestE2EFailoverWithheldShares: the game goes on, a new deal, within the
// bound, and the stranger is refused with the reason.
func TestE2EFailoverWithheldShares(t *testing.T) {
	t.Parallel()
	const honest = 2
	l := newLAN(t, honest+3, false)
	dir := t.TempDir()
	name := "stall-" + l.prefix
	host, table := l.startHost(dir, name, honest+1, 0, "--blind=false") // the shares are a clear table's
	// The liars' peer IDs sort after the honest players': no election
	// picks either.
	var last string
	for i := 2; i <= honest+1; i++ {
		prof, err := node.LoadProfile(filepath.Join(dir, strconv.Itoa(i)))
		if err != nil {
			t.Fatal(err)
		}
		id, err := peer.IDFromPrivateKey(prof.Key)
		if err != nil {
			t.Fatal(err)
		}
		last = max(last, string(id))
	}
	var players []*proc
	for i := 2; i <= honest+1; i++ {
		players = append(players, l.start(i, fmt.Sprintf("join%d", i), joinArgs(filepath.Join(dir, strconv.Itoa(i)), name)...))
	}
	for _, p := range players {
		seatOf(t, p)
	}
	after := lieAfterEnv + "=" + hex.EncodeToString([]byte(last))
	stranger := l.startRogue(honest+3, "stranger", rogueEnv+"=stranger", rogueAddrEnv+"="+hostAddr(t, table), lieNickEnv+"=Nosy", after)
	stranger.waitFor(60*time.Second, "the stranger watching", isType("seated"))
	withholder := l.startRogue(honest+2, "withholder", rogueEnv+"=withhold", rogueAddrEnv+"="+hostAddr(t, table), lieNickEnv+"=Ben", after)
	withholder.waitFor(60*time.Second, "the withholder's seat", isType("seated"))
	// A few plays in, so that there are hidden cards to share.
	players[0].waitFor(90*time.Second, "play 4", func(l outLine) bool { return l.typ() == "play" && l.num("no") >= 4 })
	host.kill()
	killed := time.Now()

	withholder.waitFor(30*time.Second, "the withholder asked for its state", isType("withholding"))
	var newHost *proc
	for _, p := range players {
		if _, err := p.await(30*time.Second, notice("you are hosting now", killed)); err == nil {
			newHost = p
			break
		}
	}
	if newHost == nil {
		t.Fatal("no player took over hosting")
	}
	w := newHost.waitFor(stallBound, "who it waits for", notice("Waiting for", killed))
	if !strings.Contains(w.str("text"), "Ben (connected, not answering)") || !strings.Contains(w.str("text"), "shares of the hidden cards") {
		t.Errorf("the new host waits without naming the withholder and what for: %q", w.str("text"))
	}
	t.Logf("the new host said %s after the kill: %s", fmtMS(w.at.Sub(killed)), w.str("text"))

	// Every remaining player: why, and a new deal, within the bound.
	var dealtAt time.Duration
	for _, p := range players {
		why := p.waitFor(stallBound+stallSlack, "why the game is dealt again", notice("couldn't be rebuilt", killed))
		if txt := why.str("text"); !strings.Contains(txt, "Ben") || !strings.Contains(txt, "new game") {
			t.Errorf("%s was told %q: it doesn't name the withholder, or say a new game is dealt", p.name, txt)
		}
		d := p.waitFor(stallSlack, "the new deal", func(l outLine) bool { return l.typ() == "deal" && l.at.After(killed) })
		dealtAt = max(dealtAt, d.at.Sub(killed))
	}
	ref := withholder.waitFor(stallSlack, "the withholder let go", isType("refused"))
	if !strings.Contains(ref.str("message"), "couldn't be rebuilt") {
		t.Errorf("the withholder was let go with %q", ref.str("message"))
	}
	t.Logf("FIGURE failover with a player withholding its shares: a new deal %s after the kill (bound %s)", fmtMS(dealtAt), stallBound)

	// The stranger: asked for nothing, refused with the reason.
	if s, err := stranger.await(time.Second, isType("state")); err == nil {
		t.Errorf("the new host asked the stranger, who holds no seat, for its record (%s)", s.raw)
	}
	if r, err := stranger.await(time.Second, func(l outLine) bool { return l.typ() == "refused" && strings.Contains(l.str("message"), "no seat") }); err != nil {
		t.Errorf("the stranger was never refused for holding no seat")
	} else {
		t.Logf("the stranger was told: %s", r.str("message"))
	}

	// The new game plays to its end, verified at every seat left.
	finishGame(t, honest+2, 1, players, 3*time.Minute)
}
