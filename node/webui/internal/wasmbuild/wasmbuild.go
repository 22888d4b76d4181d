// Package wasmbuild builds the page's WebAssembly (cmd/bullshit-web) the
// one way the committed node/webui/assets/app.wasm.gz is built: the
// generator writes it and the staleness test compares against it.
package wasmbuild

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Main is the package built.
const Main = "github.com/bullshit-game/bullshit/cmd/bullshit-web"

// noInline are the packages compiled without inlining (-gcflags=-l): the
// game, the protocol, msgpack, fmt, reflect, time and the like, where the
// page spends microseconds a message. Inlining copies a function's body
// into each caller, and in WebAssembly each copy also carries the
// resumption points of every call inside it: without it here the page's
// download is 75 kB (5 %) smaller gzipped, and a message's decoding about
// 20 µs slower in V8 (protocol's BenchmarkDecodeUpdate under node, 50 →
// 70 µs, beside 0.5 ms for its signature). strconv too (0.8 kB of the
// gzipped download: the page formats a few numbers an update). The
// runtime, crypto (the signatures, AES-GCM), sync and the packages
// crypto's inner loops call keep it: those are where the page's time
// goes. (unicode/utf8 and the encoding packages grew the download.)
var noInline = []string{
	"github.com/bullshit-game/bullshit/...",
	"github.com/vmihailenco/...",
	"fmt", "reflect", "time", "log", "context", "syscall/js", "strings",
	"internal/fmtsort", "bytes", "bufio", "errors", "io", "os", "sort",
	"slices", "encoding/hex", "internal/strconv", "strconv",
}

// experiment is the toolchain's GOEXPERIMENT for the page: the garbage
// collector before Go 1.26's Green Tea, whose gains are a many-core
// machine's (the page has one thread, and collects rarely: gcLess in
// cmd/bullshit-web) and whose code is 13 kB of the page's gzipped
// download. A toolchain that no longer has it fails the build, saying so.
const experiment = "nogreenteagc"

// buildArgs are the go command's: -trimpath and -s as for any release,
// and noInline.
func buildArgs(out string) []string {
	args := []string{"build", "-trimpath", "-ldflags=-s", "-buildvcs=false"}
	for _, p := range noInline {
		args = append(args, "-gcflags="+p+"=-l")
	}
	return append(args, "-o", out, Main)
}

// Wasm builds Main for js/wasm and returns the binary, its data packed
// (Pack).
func Wasm() ([]byte, error) {
	dir, err := os.MkdirTemp("", "bullshit-wasm-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "app.wasm")
	gotool, err := exec.LookPath("go")
	if err != nil {
		return nil, fmt.Errorf("building the page's wasm: %w", err)
	}
	cmd := exec.Command(gotool, buildArgs(out)...)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "GOEXPERIMENT="+experiment)
	if b, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building the page's wasm (GOEXPERIMENT=%s: a toolchain without it needs wasmbuild's experiment changed): %v\n%s", experiment, err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		return nil, err
	}
	return Pack(b)
}

// ErrNoZopfli is a machine without the zopfli command.
var ErrNoZopfli = errors.New("the zopfli command is needed to compress the page's wasm (Debian: apt-get install zopfli); compress/gzip's best leaves a phone's download 80 kB over its 1.5 MB")

// Gzip compresses b into the gzip a browser decodes, with zopfli (100
// iterations: 408 bytes under 15's for 1 min 48 s of go generate instead of
// 30 s, which only go generate pays; 15 were 1.2 kB under 5): its optimal
// parsing takes 4–5 % off compress/gzip's best,
// which on the page's 1.5 MB download is the difference between meeting
// the phone's goal and missing it. The output is the same for the same
// input: no name or time in the header.
func Gzip(b []byte) ([]byte, error) {
	zopfli, err := exec.LookPath("zopfli")
	if err != nil {
		return nil, ErrNoZopfli
	}
	f, err := os.CreateTemp("", "bullshit-wasm-*.wasm")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(b); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	var out, stderr bytes.Buffer
	cmd := exec.Command(zopfli, "--i100", "--gzip", "-c", f.Name())
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("zopfli: %v: %s", err, stderr.Bytes())
	}
	return out.Bytes(), nil
}

// ExecJS is the Go runtime's wasm_exec.js of this toolchain.
func ExecJS() ([]byte, error) {
	root, err := GoRoot()
	if err != nil {
		return nil, err
	}
	return os.ReadFile(filepath.Join(root, "lib", "wasm", "wasm_exec.js"))
}

// GoRoot is the root of the go command on PATH (runtime.GOROOT is the
// one this program was built with, which a copied binary doesn't have).
func GoRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOROOT: %w", err)
	}
	return string(bytes.TrimSpace(out)), nil
}
