//go:build linux

package main

// DNS rebinding at the web door (issue 21, item 4): a site beyond the LAN
// points its own name at the host's LAN address, so that the browser of a
// visitor on the LAN becomes its client there; the browser then sends the
// site's name as Host, and as Origin on /ws. The stranger is this test
// binary again (rogueEnv "rebind"), making those requests byte for byte
// from a namespace of its own, beside the same requests by the host's own
// address.

import (
	"bufio"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"
)

// rebindHost is the rebinding site's name, as the issue tried it.
const rebindHost = "rebind.evil.example:8080"

// rawRequest sends one HTTP/1.1 request for path with the Host host (and,
// for /ws, a WebSocket upgrade with Origin http://host) to addr, and
// returns the status and the start of the body.
func rawRequest(addr, path, host string) (int, string, error) {
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return 0, "", err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	req := fmt.Sprintf("GET %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: Mozilla/5.0\r\n", path, host)
	if path == "/ws" {
		key := make([]byte, 16)
		rand.Read(key)
		req += fmt.Sprintf("Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: %s\r\nOrigin: http://%s\r\n",
			base64.StdEncoding.EncodeToString(key), host)
	}
	if _, err := c.Write([]byte(req + "\r\n")); err != nil {
		return 0, "", err
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	var body [200]byte
	n, _ := resp.Body.Read(body[:])
	if resp.StatusCode == http.StatusSwitchingProtocols {
		n = 0
	}
	return resp.StatusCode, strings.TrimSpace(string(body[:n])), nil
}

// runRebind asks the host's web door for the page, its player and /ws,
// first by the rebinding name, then by the door's own address, and says
// each answer ("answer").
func runRebind(say func(string, map[string]any)) error {
	u, err := url.Parse(os.Getenv(rogueWebEnv))
	if err != nil {
		return err
	}
	for _, host := range []string{rebindHost, u.Host} {
		for _, path := range []string{"/", "/app.wasm", "/ws"} {
			status, text, err := rawRequest(u.Host, path, host)
			line := map[string]any{"host": host, "path": path, "status": status, "text": text}
			if err != nil {
				line["err"] = err.Error()
			}
			say("answer", line)
		}
	}
	return nil
}

// TestE2EWebRebinding is issue 21's item 4 against the real binary: a
// host with its web door, and on another machine a browser's requests
// after DNS rebinding, Host (and /ws's Origin) rebind.evil.example:8080.
// The page, the player and /ws are each refused 421 with the reason,
// /ws never upgraded (27b96cd answered 200 for the page and 101 for /ws,
// seating the browser as a spectator); the same requests by the door's
// own address are answered (200, 200, 101).
func TestE2EWebRebinding(t *testing.T) {
	t.Parallel()
	l := newLAN(t, 2, false)
	dir := t.TempDir()
	name := "rebind-" + l.prefix[len(l.prefix)-5:]
	const web = "http://10.77.1.1:8080"
	l.startHost(dir, name, 1, 1, "--web", strings.TrimPrefix(web, "http://"))
	rg := l.startRogue(2, "rebinder", rogueEnv+"=rebind", rogueWebEnv+"="+web)
	n := 0
	for _, a := range rg.endedLines(60*time.Second, "answer") {
		n++
		path, status, text := a.str("path"), a.num("status"), a.str("text")
		t.Logf("FIGURE rebinding: GET %s Host %s: %d %q %s", path, a.str("host"), status, clip(text, 60), a.str("err"))
		switch {
		case a.str("host") == rebindHost && (status != http.StatusMisdirectedRequest || !strings.Contains(text, "its own address")):
			t.Errorf("GET %s with Host %s was answered %d %q, want 421 and the reason", path, rebindHost, status, text)
		case a.str("host") != rebindHost && path == "/ws" && status != http.StatusSwitchingProtocols:
			t.Errorf("/ws by the door's own address was answered %d %q, want 101", status, text)
		case a.str("host") != rebindHost && path != "/ws" && status != http.StatusOK:
			t.Errorf("GET %s by the door's own address was answered %d %q, want 200", path, status, text)
		}
	}
	if n != 6 {
		t.Fatalf("the rebinder made %d requests, want 6: %v", n, rg.snapshot())
	}
}
