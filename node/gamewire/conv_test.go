package gamewire

import (
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/protocol"
)

// The call window travels as CallWindow, in ms; a 1.1 host sent it only as
// the rules' "window", in seconds. Nonsense from either gives 0: the
// preset's window stands.
func TestCallWindow(t *testing.T) {
	for _, c := range []struct {
		name string
		s    protocol.Settings
		want time.Duration
	}{
		// 1.2 hosts.
		{"ms", protocol.Settings{CallWindow: 6000}, 6 * time.Second},
		{"sub-second, as tests run", protocol.Settings{CallWindow: 300}, 300 * time.Millisecond},
		{"typed wins over the rule", protocol.Settings{CallWindow: 300, Rules: map[string]string{"window": "6"}}, 300 * time.Millisecond},
		{"negative", protocol.Settings{CallWindow: -5, Rules: map[string]string{"window": "6"}}, 0},
		{"past an hour", protocol.Settings{CallWindow: 1<<62 + 1}, 0},
		// 1.1 hosts: no CallWindow.
		{"1.1 seconds", protocol.Settings{Rules: map[string]string{"window": "6"}, Window: 6}, 6 * time.Second},
		{"1.1 sub-second", protocol.Settings{Rules: map[string]string{"window": "0.3"}}, 300 * time.Millisecond},
		{"1.1 no window", protocol.Settings{Window: 6}, 0},
		{"1.1 not a number", protocol.Settings{Rules: map[string]string{"window": "soon"}}, 0},
		{"1.1 NaN", protocol.Settings{Rules: map[string]string{"window": "NaN"}}, 0},
		{"1.1 infinite", protocol.Settings{Rules: map[string]string{"window": "+Inf"}}, 0},
		{"1.1 zero", protocol.Settings{Rules: map[string]string{"window": "0"}}, 0},
	} {
		if got := callWindow(&c.s); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
