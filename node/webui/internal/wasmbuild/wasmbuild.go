// Package wasmbuild builds the page's WebAssembly (cmd/bullshit-web) the
// one way the committed node/webui/assets/app.wasm.gz is built: the
// generator writes it and the staleness test compares against it.
package wasmbuild

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// Main is the package built.
const Main = "github.com/bullshit-game/bullshit/cmd/bullshit-web"

// Wasm builds Main for js/wasm and returns the binary.
func Wasm() ([]byte, error) {
	dir, err := os.MkdirTemp("", "bullshit-wasm-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "app.wasm")
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-trimpath", "-ldflags=-s", "-buildvcs=false", "-o", out, Main)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building the page's wasm: %v\n%s", err, b)
	}
	return os.ReadFile(out)
}

// Gzip compresses b at the best level, with no name or time in the header,
// so the same binary gives the same file.
func Gzip(b []byte) []byte {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// ExecJS is the Go runtime's wasm_exec.js of this toolchain.
func ExecJS() ([]byte, error) {
	return os.ReadFile(filepath.Join(runtime.GOROOT(), "lib", "wasm", "wasm_exec.js"))
}
