package main

// The web entry's wiring: --web and the page's files.

import (
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/bullshit-game/bullshit/cli"

	"github.com/bullshit-game/bullshit/node"
	"github.com/bullshit-game/bullshit/node/webui"
)

// webUsage is --web's help, for every command that has it.
const webUsage = "serve phones the game at `ADDR` (HOST:PORT or :PORT): on (the LAN address, port 8080 or the next free one), or off"

// webConfig turns --web into the device's web entry: nil for off.
func webConfig(v string) *node.WebConfig {
	switch v {
	case "off", "no", "false":
		return nil
	case "on", "", "yes", "true":
		return &node.WebConfig{Assets: webAssets()}
	}
	return &node.WebConfig{Addr: v, Assets: webAssets()}
}

// webAssets is the page a phone plays in (embedded in the binary),
// /rules: how to play a table, as the terminal's rules screen says it,
// and /help: the page's buttons and keys, in the terminal's help's words.
func webAssets() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/", webui.Handler())
	mux.HandleFunc("/rules", serveRules)
	mux.HandleFunc("/help", serveHelp)
	return mux
}

// maxRulesQuery bounds what /rules reads of its query: a table's rules
// keys are a few hundred bytes.
const maxRulesQuery = 4 << 10

// serveRules answers /rules?preset=P&r=key=value…&seats=N&w=COLUMNS with the text of
// cli.RulesText, the table's rules screen; a preset or key it doesn't
// know is a 400 saying which.
func serveRules(rw http.ResponseWriter, r *http.Request) {
	if len(r.URL.RawQuery) > maxRulesQuery {
		http.Error(rw, "That is too long to be a table's rules.", http.StatusRequestURITooLong)
		return
	}
	q := r.URL.Query()
	preset := q.Get("preset")
	if preset == "" || preset == "custom" {
		preset = "standard"
	}
	rules, err := parseRules(preset, q["r"])
	if err != nil {
		http.Error(rw, err.Error(), http.StatusBadRequest)
		return
	}
	seats, _ := strconv.Atoi(q.Get("seats"))
	if seats < 2 || seats > 10 {
		seats = 0
	}
	width, err := strconv.Atoi(q.Get("w"))
	if err != nil {
		width = cli.RulesWidth
	}
	width = max(24, min(width, 120)) // a phone's column to a wide window's
	rw.Header().Set("Content-Type", "text/plain; charset=utf-8")
	rw.Header().Set("Cache-Control", "no-store")
	io.WriteString(rw, strings.Join(cli.RulesText(rules, seats, width), "\n")+"\n")
}

// serveHelp answers /help?w=COLUMNS with cli.PageHelpText: the page's
// buttons and keys in the terminal's help's words.
func serveHelp(rw http.ResponseWriter, r *http.Request) {
	width, err := strconv.Atoi(r.URL.Query().Get("w"))
	if err != nil {
		width = cli.RulesWidth
	}
	width = max(24, min(width, 120))
	rw.Header().Set("Content-Type", "text/plain; charset=utf-8")
	rw.Header().Set("Cache-Control", "no-store")
	io.WriteString(rw, strings.Join(cli.PageHelpText(width), "\n")+"\n")
}
