package cli

// What `bullshit host --headless` and `join --headless` print: a line a
// person reads for each event and notice, or with --json one JSON object a
// line. Scripts and the end-to-end tests parse these lines: they change
// only on purpose (testdata/headless pins them).

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/table"
)

// hostingHead is the host's first line: the table, and the name its own
// seat sits as (--nick; --name names the table, and once left people
// wondering why they sat as "Player").
func hostingHead(table string, seats int, nick string, sit bool) string {
	if !sit {
		return fmt.Sprintf("Hosting %q (%d seats); you don't sit", table, seats)
	}
	return fmt.Sprintf("Hosting %q (%d seats); you sit as %q (--nick sets it)", table, seats, nick)
}

// Printer writes what a seat sees: a line a person reads for each event
// and notice, seats counted from 1 (headlesstext.go), or with --json the
// engine's JSON objects, seats counted from 0.
type Printer struct {
	W    io.Writer
	JSON bool // one JSON object a line
}

func (p Printer) line(v map[string]any, text string) {
	if p.JSON {
		b, _ := json.Marshal(v)
		fmt.Fprintln(p.W, string(b))
		return
	}
	fmt.Fprintln(p.W, text)
}

// Update prints an update from the table: its notice, its refusal, and
// its events, a line each.
func (p Printer) Update(u table.Update) {
	if u.Notice != "" {
		p.line(map[string]any{"type": "notice", "text": u.Notice}, "* "+u.Notice)
	}
	if u.Refusal != nil {
		p.line(map[string]any{"type": "refused", "error": u.Refusal.Code, "message": u.Refusal.Msg}, "refused: "+u.Refusal.Msg)
	}
	for _, e := range u.Events {
		if p.JSON {
			b, _ := json.Marshal(e)
			fmt.Fprintln(p.W, string(b))
			continue
		}
		fmt.Fprintln(p.W, eventText(e, seatNamer{u.Table}))
	}
}

// Seated says which seat this program plays (0-based in JSON).
func (p Printer) Seated(seat int) {
	text := fmt.Sprintf("Seated at seat %d.", seat+1)
	if seat < 0 {
		text = "Watching the table."
	}
	p.line(map[string]any{"type": "seated", "seat": seat}, text)
}

// Dealing says the host starts the game: the seats are taken (or the
// wait is over) and the deal begins, its toss and, at a blind table, every
// player node's part of the shuffle. The deal event ends it: the end-to-end
// figures time the deal between the two.
func (p Printer) Dealing(seats int) {
	p.line(map[string]any{"type": "start", "seats": seats}, "Dealing.")
}

// Result is the end of a seat's game: the places and the audit when the game
// finished; when it did not (a signal stopped this program, stop names
// it, or the table ended without a result), a line that says so and never
// "game over".
func (p Printer) Result(u table.Update, seat int, stop string) {
	v := u.View
	left := []int{}
	if v.Final != nil {
		for _, h := range v.Final.Hands {
			left = append(left, len(h))
		}
	}
	m := map[string]any{"type": "result", "you": seat, "places": v.Places, "winner": v.Winner, "left": left, "plays": v.No}
	if u.Audit != nil {
		a := map[string]any{"verified": u.Audit.Verified, "problems": u.Audit.Problems}
		if len(u.Audit.Notes) > 0 {
			a["notes"] = u.Audit.Notes // what it saw that is no fault of the host's: a node named for cheating
		}
		m["audit"] = a
	}
	if u.Table.Blind {
		m["blind"] = true // dealt blind: the host saw no card but its own seat's
	}
	if v.Phase == engine.PhaseOver {
		u.Table.You = seat
		p.line(m, strings.Join(resultText(v, seatNamer{u.Table}, u.Audit), "\n"))
		return
	}
	m["unfinished"] = true
	var text string
	switch {
	case u.Audit != nil && u.Audit.Early:
		// The host ended the game: its reveal came all the same, and the
		// plays so far were audited.
		m["early"], m["plays"] = true, u.Audit.Plays
		if stop != "" {
			// This program was stopped, and ended the game it hosted on
			// its way out: both are said.
			m["stopped"] = stop
			text = fmt.Sprintf("Stopped (%s) after %d plays; the game did not finish.\n", stop, u.Audit.Plays)
		}
		text += "Game " + u.Audit.String() + "."
		for _, pr := range u.Audit.Problems {
			text += "\n  ✘ " + pr
		}
	case stop != "" && u.Table.Phase != "" && u.Table.Phase != table.PhaseWaiting:
		m["stopped"] = stop
		text = fmt.Sprintf("Stopped (%s) after %d plays; the game did not finish.", stop, v.No)
	case stop != "":
		m["stopped"] = stop
		text = fmt.Sprintf("Stopped (%s) before the game began.", stop)
	default:
		text = fmt.Sprintf("The game did not finish: the table closed after %d plays without a result.", v.No)
	}
	p.line(m, text)
}

// joinLines are the commands that join a table hosted at addrs: one a
// line, each one that runs as printed.
func joinLines(addrs []string, code string) []string {
	var out []string
	for _, a := range addrs {
		c := "bullshit join --headless"
		if code != "" {
			c += " --code " + code
		}
		out = append(out, c+" "+a)
	}
	return out
}

// tableText is the host's first line for a person: how to join, one
// command a line, and the lobby's way; then the host's words, which the
// lobby shows beside the table's name (two tables may share a name).
func tableText(head string, addrs []string, code, words string) string {
	lines := []string{head + "; to join, run:"}
	for _, l := range joinLines(addrs, code) {
		lines = append(lines, "  "+l)
	}
	lines = append(lines, "or press A in bullshit's lobby and type the address"+
		map[bool]string{true: " and the code.", false: "."}[code != ""])
	lines = append(lines, "The lobby shows this table with its host's words: "+words+
		" (a table of the same name with other words is not this one).")
	return strings.Join(lines, "\n")
}

// HostLine is what the host's first lines say: the table, how to join it,
// and where phones open it.
type HostLine struct {
	ID      string
	Name    string // the table's name, "" when Resumed
	Seats   int
	Nick    string // the host's seat's name
	Sit     bool   // the host takes a seat
	Resumed string // the journal a table is hosted again from, "" for a new one
	Addrs   []string
	Code    string
	Web     string // where phones open the table, "" if nowhere
	WebErr  error  // why phones can't, if the page did not start
	Words   string // the host's key as three words
}

// Table prints the host's first lines: the table and how to join it, and
// (in text) where phones open it.
func (p Printer) Table(h HostLine) {
	if h.Resumed != "" {
		p.line(map[string]any{"type": "table", "id": h.ID, "resumed": true, "addrs": h.Addrs, "join": joinLines(h.Addrs, h.Code),
			"web": h.Web, "words": h.Words},
			tableText("Hosting again from "+h.Resumed, h.Addrs, h.Code, h.Words))
	} else {
		p.line(map[string]any{"type": "table", "id": h.ID, "name": h.Name, "seats": h.Seats, "addrs": h.Addrs,
			"join": joinLines(h.Addrs, h.Code), "web": h.Web, "words": h.Words},
			tableText(hostingHead(h.Name, h.Seats, h.Nick, h.Sit), h.Addrs, h.Code, h.Words))
	}
	if t := phonesText(h.Web, h.WebErr); t != "" && !p.JSON {
		p.line(nil, t)
	}
}

// phonesText is the host's line for phones: where to open the game, or
// why it can't be.
func phonesText(url string, err error) string {
	if url != "" {
		return "Phones: " + url
	}
	if err != nil {
		return "Phones: off (" + err.Error() + ")"
	}
	return ""
}
