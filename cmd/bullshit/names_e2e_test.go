//go:build linux

package main

// Names that can't be told apart (issue 21, item 3): two players sat as
// "Hosty", the host's own name, and "Hosty" with an invisible U+3164, and
// the page showed three seats reading "Hosty". Terminal joiners are the
// real binary; phones are this test binary again (rogueEnv "names"),
// saying hello over the web door's /ws as the page does.

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	roguepeer "github.com/bullshit-game/bullshit/node/rogue"
	"github.com/bullshit-game/bullshit/node/webwire"
	"github.com/bullshit-game/bullshit/node/webwire/coderws"
	"github.com/bullshit-game/bullshit/protocol"
)

const namesEnv = "BS_E2E_NICKS" // names: the phones' nicknames, one a line

// runNames says hello over /ws once for each nickname of namesEnv, each
// a phone of its own (a fresh key), and says how the host answered
// ("phone": the refusal's text, or the seat).
func runNames(say func(string, map[string]any)) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	base := os.Getenv(rogueWebEnv)
	for _, nick := range strings.Split(os.Getenv(namesEnv), "\n") {
		p, err := roguepeer.New(func(string, map[string]any) {})
		if err != nil {
			return err
		}
		line := map[string]any{"nick": nick}
		if err := phoneHello(ctx, p, base, nick); err != nil {
			line["refused"] = err.Error()
		} else {
			_, seat, _ := p.Seated()
			line["seat"] = seat
		}
		say("phone", line)
		p.Reset()
	}
	return nil
}

// phoneHello opens /ws as the page does (Origin the page's own), runs
// webwire's handshake, and says hello with nick.
func phoneHello(ctx context.Context, p *roguepeer.Rogue, base, nick string) error {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	ws, resp, err := wsDial(cctx, base, base)
	if err != nil {
		if resp != nil && resp.StatusCode != http.StatusSwitchingProtocols {
			return fmt.Errorf("the door answered %d", resp.StatusCode)
		}
		return err
	}
	ws.SetReadLimit(protocol.MaxSize + 1024)
	conn, err := webwire.Dial(cctx, coderws.New(ws), ed25519.PrivateKey(p.Key), nil)
	if err != nil {
		ws.Close(websocket.StatusNormalClosure, "")
		return err
	}
	hid, err := peerIDOf(conn.Peer())
	if err != nil {
		return err
	}
	return p.Join(conn, hid, protocol.Hello{Version: protocol.Current, Nick: nick, Nonce: make([]byte, protocol.NonceSize)})
}

// TestE2ENamesAlike is issue 21's item 3 against the real binary: a host
// whose player is Hosty, with its web door. Joiners from a terminal (the
// real binary, --nick) and from phones (/ws) asking to sit as "Hosty" plus
// U+3164, as "hosty", as "Hosty" with a Cyrillic о, as ＨＯＳＴＹ, and as
// "Hosty" itself, are each refused at the hello with a sentence that says
// why, and take no seat (27b96cd seated every one of them); Ada and Ben
// then sit and play the game to a verified end.
func TestE2ENamesAlike(t *testing.T) {
	t.Parallel()
	l := newLAN(t, 4, false)
	dir := t.TempDir()
	name := "names-" + l.prefix[len(l.prefix)-5:]
	const web = "http://10.77.1.1:8080"
	host, _ := l.startHost(dir, name, 2, 0, "--nick", "Hosty", "--web", strings.TrimPrefix(web, "http://"))

	invisible := "A nickname can't hold invisible characters (U+3164)"
	alike := "That nickname looks too much like Hosty, who is already at this table: choose another."
	cases := []struct{ nick, says string }{
		{"Hosty\u3164", invisible},
		{"hosty", alike},
		{"H\u043esty", alike}, // Cyrillic о
		{"ＨＯＳＴＹ", alike},
		{"Hosty", "Hosty is already at this table: choose another nickname."},
	}
	for i, c := range cases {
		p := l.start(2, fmt.Sprintf("terminal%d", i), joinArgs(filepath.Join(dir, "t", fmt.Sprint(i)), name, "--nick", c.nick, "--wait", "20s")...)
		if seated, err := p.await(60*time.Second, isType("seated")); err == nil {
			p.kill()
			t.Errorf("a terminal sat as %q: %s", c.nick, seated.raw)
			continue
		}
		if !p.waitEnd(10 * time.Second) {
			t.Fatalf("%s did not end", p.name)
		}
		p.mu.Lock()
		stderr, err := p.stderr.String(), p.err
		p.mu.Unlock()
		if err == nil || !strings.Contains(stderr, c.says) {
			t.Errorf("a terminal asking to sit as %q was told %q (%v), want %q", c.nick, clip(strings.TrimSpace(stderr), 300), err, c.says)
		}
	}
	var nicks []string
	for _, c := range cases {
		nicks = append(nicks, c.nick)
	}
	phones := l.startRogue(3, "phones", rogueEnv+"=names", rogueWebEnv+"="+web, namesEnv+"="+strings.Join(nicks, "\n"))
	n := 0
	for _, p := range phones.endedLines(90*time.Second, "phone") {
		c := cases[n]
		n++
		if got := p.str("nick"); got != c.nick {
			t.Fatalf("phone %d said hello as %q, want %q", n, got, c.nick)
		}
		if !strings.Contains(p.str("refused"), c.says) {
			t.Errorf("a phone asking to sit as %q: %s; want refused with %q", c.nick, p.raw, c.says)
		}
	}
	if n != len(cases) {
		t.Fatalf("%d phones said hello, want %d: %v", n, len(cases), phones.snapshot())
	}
	var players []*proc
	for i, nick := range []string{"Ada", "Ben"} {
		players = append(players, l.start(2+i, nick, joinArgs(filepath.Join(dir, nick), name, "--nick", nick)...))
	}
	finishGame(t, 3, 1, append([]*proc{host}, players...), 2*time.Minute)
}
