package cli

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/bullshit-game/bullshit/node/table"
	"rsc.io/qr"
)

// The drawn code is the code: each cell's halves read back as the
// modules qr encodes, with a light margin all round.
func TestQRLinesAreTheCode(t *testing.T) {
	const addr = "http://192.168.1.20:8080"
	c, err := qr.Encode(addr, qr.L)
	if err != nil {
		t.Fatal(err)
	}
	lines := qrLines(addr)
	n := c.Size + 2*qrQuiet
	if len(lines) != (n+1)/2 {
		t.Fatalf("%d lines for %d modules", len(lines), n)
	}
	for cy, l := range lines {
		cells := []rune(l)
		if len(cells) != n {
			t.Fatalf("line %d is %d cells, want %d", cy, len(cells), n)
		}
		for x, r := range cells {
			top := r == '█' || r == '▀'
			bot := r == '█' || r == '▄'
			for i, got := range []bool{top, bot} {
				y := 2*cy + i - qrQuiet
				mx := x - qrQuiet
				want := y >= 0 && mx >= 0 && y < c.Size && mx < c.Size && c.Black(mx, y)
				if got != want {
					t.Fatalf("module (%d,%d): dark %v, want %v", mx, y, got, want)
				}
			}
		}
	}
}

// The waiting room and the table's header show where phones join; W
// shows the address's QR code and W (or Esc) closes it; a table without
// a web address says so.
func TestWebAddressAndQR(t *testing.T) {
	const addr = "http://192.168.1.20:8080"
	h := newHarness(t, opts{seats: 4, seed: 7, plain: true, h: 30, w: 80})
	h.ts.Web = addr
	h.ts.Phase = "waiting"
	h.send(updateMsg{sess: h.sess, u: table.Update{Table: h.ts}, at: h.local})
	h.has("Phones: open "+addr+" in a browser on this network", "W QR for phones")
	checkFits(t, h)

	h.press("w")
	h.has("Scan with a phone's camera", addr, "W close")
	for _, l := range qrLines(addr) {
		h.has("  " + l)
	}
	checkFits(t, h)
	h.press("enter") // the QR screen takes no other key
	h.has("Scan with a phone's camera")
	if len(h.sess.controls) != 0 {
		t.Fatalf("a key under the QR code reached the table: %v", h.sess.controls)
	}
	h.press("w")
	h.lacks("Scan with a phone's camera")
	h.has("waiting for players")

	// At the table: the header, and the key in help.
	h.ts.Phase = "playing"
	h.deliver(nil)
	// At 80 columns the title keeps the table, the preset and the play,
	// and the address gives way (W shows it); a wider screen has both.
	h.has(" Kitchen · standard · first play ", "W QR  ? help")
	h.app.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	h.has("Kitchen · standard · first play", addr+"  W QR")
	h.app.Update(tea.WindowSizeMsg{Width: 80, Height: 30})
	h.press("w")
	h.has("Scan with a phone's camera")
	h.press("esc")
	h.lacks("Scan with a phone's camera")
	h.press("?")
	h.has("a QR code of the table's web address")
	h.press("?")

	// On a 24-line screen the code still fits whole, or the address alone.
	h = newHarness(t, opts{seats: 4, seed: 7, plain: true})
	h.ts.Web = addr
	h.deliver(nil)
	h.press("w")
	checkFits(t, h)
	h.has(addr)
	if s := h.screen(); !strings.Contains(s, "too small for the code") {
		for _, l := range qrLines(addr) {
			h.has("  " + l)
		}
	}
	h = newHarness(t, opts{seats: 4, seed: 7, plain: true, w: 40, h: 16})
	h.ts.Web = addr
	h.deliver(nil)
	h.press("w")
	checkFits(t, h)
	h.has("too small for the code", addr)

	// No web address: nothing about phones, and W says why.
	h = newHarness(t, opts{seats: 4, seed: 7, plain: true})
	h.deliver(nil)
	h.lacks("Phones", "W QR")
	h.press("w")
	h.has("Phones can't join this table")
	h.lacks("Scan with")
	if s := h.screen(); strings.Contains(s, "▀") {
		t.Fatal("a code drawn for a table without an address")
	}
}
