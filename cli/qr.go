package cli

// The web address as a QR code in the terminal, for a phone's camera.

import (
	"strings"

	"charm.land/lipgloss/v2"
	"rsc.io/qr"
)

// qrQuiet is the light margin round the code, in modules: the standard
// asks for 4; 2 is what phones need and saves a small screen four lines.
const qrQuiet = 2

// qrLines draws text as a QR code, two modules a character cell (upper
// and lower half blocks), dark modules as ink. Nil if it can't be encoded.
func qrLines(text string) []string {
	c, err := qr.Encode(text, qr.L)
	if err != nil {
		return nil
	}
	n := c.Size + 2*qrQuiet
	dark := func(x, y int) bool {
		x, y = x-qrQuiet, y-qrQuiet
		return x >= 0 && y >= 0 && x < c.Size && y < c.Size && c.Black(x, y)
	}
	var out []string
	for y := 0; y < n; y += 2 {
		var b strings.Builder
		for x := range n {
			switch top, bot := dark(x, y), y+1 < n && dark(x, y+1); {
			case top && bot:
				b.WriteString("█")
			case top:
				b.WriteString("▀")
			case bot:
				b.WriteString("▄")
			default:
				b.WriteString(" ")
			}
		}
		out = append(out, b.String())
	}
	return out
}

// qrStyle is black ink on white, so that a camera reads the code on a
// dark terminal as on a light one.
var qrStyle = lipgloss.NewStyle().Foreground(lipgloss.Color("#000000")).Background(lipgloss.Color("#ffffff"))

// qrView is the QR screen: the code of the table's web address, the
// address in words, and how to close it.
func (t *tableModel) qrView() string {
	e := t.env
	st, w := e.st, e.w
	addr := t.u.Table.Web
	top := []string{st.titleBar(t.title("phones"), "", w), st.ruleLine(w), ""}
	code := qrLines(addr)
	bottom := []string{st.ruleLine(w), st.keyBar(w, as(tableKeys.Web, "close"), as(tableKeys.Esc, "close"))}
	// A code cut short can't be scanned: whole, or the address alone.
	if len(code) == 0 || width(code[0])+4 > w || len(top)+2+len(code)+2+len(bottom) > e.h {
		top = append(top, "  The screen is too small for the code: open this address on the phone:")
	} else {
		top = append(top, "  Scan with a phone's camera on this network, or open:")
		top = append(top, "")
		for _, l := range code {
			top = append(top, "  "+st.r(qrStyle, l))
		}
	}
	top = append(top, "", "    "+st.r(st.bold, addr))
	return screen(top, bottom, w, e.h)
}
