//go:build !js

package webwire

import (
	"crypto/ed25519"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The page's own WebSocket (browser_js.go) against a host on coder/websocket:
// TestBrowserSocket, compiled to js/wasm and run in node (its WebSocket is
// the browsers' API), talks to an echo host here. Skipped without node.
func TestBrowserSocketInNode(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a js/wasm test")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("no node")
	}
	root, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	wasmDir := filepath.Join(strings.TrimSpace(string(root)), "lib", "wasm")
	if _, err := os.Stat(filepath.Join(wasmDir, "go_js_wasm_exec")); err != nil {
		t.Skip("no go_js_wasm_exec")
	}
	host := newKey(t)
	peers, errs := make(chan ed25519.PublicKey, 4), make(chan error, 4)
	url := serve(t, echo(t, host, peers, errs))

	cmd := exec.Command("go", "test", "-count=1", "-run", "^TestBrowserSocket$", "-v", ".")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm",
		"PATH="+os.Getenv("PATH")+string(os.PathListSeparator)+wasmDir,
		// node 20 has the WebSocket API behind a flag; later ones have it.
		"NODE_OPTIONS=--experimental-websocket",
		"WEBWIRE_ECHO="+url, "WEBWIRE_HOST="+hex.EncodeToString(host.Public().(ed25519.PublicKey)))
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestBrowserSocket") {
		t.Fatalf("js/wasm in node: %v\n%s", err, out)
	}
}
