// Command gen rebuilds node/webui's assets/app.wasm.gz, copies the
// toolchain's wasm_exec.js beside it, and gzips the page's text by zopfli
// into assets/zipped (go generate ./node/webui).
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/bullshit-game/bullshit/node/webui"
	"github.com/bullshit-game/bullshit/node/webui/internal/wasmbuild"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run() error {
	wasm, err := wasmbuild.Wasm()
	if err != nil {
		return err
	}
	gz, err := wasmbuild.Gzip(wasm)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join("assets", "app.wasm.gz"), gz, 0o644); err != nil {
		return err
	}
	js, err := wasmbuild.ExecJS()
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join("assets", "wasm_exec.js"), js, 0o644); err != nil {
		return err
	}
	fmt.Printf("app.wasm: %d bytes, %d gzipped\n", len(wasm), len(gz))
	// The page's text, as served (webui.Strip), gzipped by zopfli too.
	if err := os.MkdirAll(filepath.Join("assets", "zipped"), 0o755); err != nil {
		return err
	}
	for _, name := range webui.Texts {
		b, err := os.ReadFile(filepath.Join("assets", name))
		if err != nil {
			return err
		}
		z, err := wasmbuild.Gzip(webui.Strip(name, b))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join("assets", "zipped", name+".gz"), z, 0o644); err != nil {
			return err
		}
	}
	return nil
}
