package node

import (
	"fmt"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/table"
	"github.com/bullshit-game/bullshit/protocol"
)

// A lobby carries the host's window to the player exactly, sub-second or
// not, beside the other rules; and a 1.1 host's lobby reads as it did.
func TestLobbyWindowRoundTrip(t *testing.T) {
	for _, win := range []time.Duration{300 * time.Millisecond, 2500 * time.Millisecond, 6 * time.Second, 60 * time.Second} {
		rules, ok := engine.Preset("twist")
		if !ok {
			t.Fatal("no twist preset")
		}
		rules.Window = win
		ts := table.TableState{Name: "T", Preset: "twist", Rules: rules, Seats: make([]table.SeatInfo, 3), Phase: "waiting"}
		l := wireLobby(&ts)
		body, err := protocol.Encode(l)
		if err != nil {
			t.Fatal(err)
		}
		m, err := protocol.Decode(protocol.TypeLobby, body)
		if err != nil {
			t.Fatal(err)
		}
		got := engLobby(new(m.(protocol.Lobby)))
		if got.Rules != rules {
			t.Errorf("window %v: rules came back %+v, want %+v", win, got.Rules, rules)
		}
		if l.Settings.Window != 0 || l.Settings.CallWindow != win.Milliseconds() {
			t.Errorf("window %v: sent Window %d, CallWindow %d", win, l.Settings.Window, l.Settings.CallWindow)
		}
		// What a 1.1 player reads: the rule, in seconds.
		if l.Settings.Rules["window"] != fmt.Sprint(win.Seconds()) {
			t.Errorf("window %v: rule %q for 1.1 peers", win, l.Settings.Rules["window"])
		}

		// The same lobby as a 1.1 host sent it: no CallWindow.
		old := l
		old.Settings.CallWindow = 0
		if got := engLobby(&old); got.Rules != rules {
			t.Errorf("window %v from a 1.1 host: rules %+v, want %+v", win, got.Rules, rules)
		}
	}
}
