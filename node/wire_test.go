package node

import (
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/table"
	"github.com/bullshit-game/bullshit/protocol"
)

// A lobby carries the host's window to the player exactly, sub-second or
// not, beside the other rules, in its one field.
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
		if l.Settings.Rules.CallWindowMS != win.Milliseconds() {
			t.Errorf("window %v: sent CallWindowMS %d", win, l.Settings.Rules.CallWindowMS)
		}
	}
}
