package webclient

import (
	"testing"
)

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
