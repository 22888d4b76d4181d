package webclient

import (
	"strings"
	"testing"

	"github.com/bullshit-game/bullshit/engine"
)

// A backlog may only extend the phone's own record; one that rewrites or
// shortens it leaves the record as it was and names the difference. Pure:
// runs natively and under js/wasm.
func TestRecordBacklog(t *testing.T) {
	ev := func(typ engine.EventType, seat int) engine.Event { return engine.Event{Type: typ, Seat: seat} }
	seen := []engine.Event{ev("deal", 0), ev("play", 1), ev("pass", 0)}
	for _, c := range []struct {
		name    string
		backlog []engine.Event
		want    int    // events in the record after
		problem string // in rewrote, "" for none
	}{
		{"extends", append(append([]engine.Event(nil), seen...), ev("play", 0)), 4, ""},
		{"the same", seen, 3, ""},
		{"rewrites", []engine.Event{ev("deal", 0), ev("play", 0), ev("pass", 0), ev("play", 1)}, 3, "differs at event 2"},
		{"shortens", seen[:2], 3, "stops at event 2"},
	} {
		r := record{got: append([]engine.Event(nil), seen...)}
		r.backlog(c.backlog, false)
		if len(r.got) != c.want || !strings.Contains(r.rewrote, c.problem) || (c.problem == "") != (r.rewrote == "") {
			t.Errorf("%s: %d events, rewrote %q; want %d, %q", c.name, len(r.got), r.rewrote, c.want, c.problem)
		}
		for i := range seen {
			if r.got[i].Type != seen[i].Type || r.got[i].Seat != seen[i].Seat {
				t.Errorf("%s: the record's event %d changed", c.name, i+1)
			}
		}
	}
}

func TestWSURL(t *testing.T) {
	for in, want := range map[string]string{
		"http://192.168.1.20:8080":  "ws://192.168.1.20:8080/ws",
		"https://table.lan/":        "wss://table.lan/ws",
		"http://[fe80::1%25en0]:80": "ws://[fe80::1%25en0]:80/ws",
		"HTTP://10.0.0.2:8080/":     "ws://10.0.0.2:8080/ws",
		"ws://10.0.0.2:8080/sub":    "ws://10.0.0.2:8080/sub/ws",
	} {
		if got, err := wsURL(in); err != nil || got != want {
			t.Errorf("wsURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"ftp://x", "192.168.1.20:8080", "http://", "http:///ws", "http://a b:80",
		"http://h:80/?x=1", "http://h:80/#top", "http://h\\x", "http://h:80\n"} {
		if got, err := wsURL(bad); err == nil {
			t.Errorf("wsURL(%q) = %q, taken for a web address", bad, got)
		}
	}
}
