package protocol

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// protocol imports the standard library and msgpack only, so that a client
// compiled to WebAssembly carries neither libp2p nor multiformats (4 MB, not
// 10.7). Test files may import what they like.
func TestImportsStayLean(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			std := !strings.Contains(strings.Split(path, "/")[0], ".")
			// msgpack for the wire; ristretto255 (pure Go, no
			// dependencies) for the join code's CPace.
			lean := strings.HasPrefix(path, "github.com/vmihailenco/msgpack/v5") || path == "github.com/gtank/ristretto255"
			if !std && !lean {
				t.Errorf("%s imports %s", name, path)
			}
		}
	}
}
