package main

// The web entry's wiring: --web and the page's files.

import (
	"net/http"

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

// webAssets is the page a phone plays in (embedded in the binary).
func webAssets() http.Handler { return webui.Handler() }

// phonesText is the host's line for phones: where to open the game, or
// why it can't be.
func phonesText(dev *node.Device) string {
	if u := dev.WebURL(); u != "" {
		return "Phones: " + u
	}
	if err := dev.WebErr(); err != nil {
		return "Phones: off (" + err.Error() + ")"
	}
	return ""
}
