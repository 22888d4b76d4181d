// Command gen rebuilds node/webui's assets/app.wasm.gz and copies the
// toolchain's wasm_exec.js beside it (go generate ./node/webui).
package main

import (
	"fmt"
	"os"
	"path/filepath"

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
	return nil
}
