package protocol

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// protocol and protocol/mental import the standard library and a few
// lean modules only, so that the phone's WebAssembly player carries
// neither libp2p nor multiformats (4 MB, not 10.7), and mental leans on
// neither the engine nor the node. Test files may import what they like.
func TestImportsStayLean(t *testing.T) {
	for _, c := range []struct {
		dir  string
		lean func(path string) bool
	}{
		// msgpack for the wire; ristretto255 (pure Go, no
		// dependencies) for the join code's CPace.
		{".", func(p string) bool {
			return strings.HasPrefix(p, "github.com/vmihailenco/msgpack/v5") || p == "github.com/gtank/ristretto255"
		}},
		// The mental deck: ristretto255's group.
		{"mental", func(p string) bool { return p == "github.com/gtank/ristretto255" }},
	} {
		files, err := filepath.Glob(filepath.Join(c.dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: %d files, %v", c.dir, len(files), err)
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
				if !std && !c.lean(path) {
					t.Errorf("%s imports %s", name, path)
				}
			}
		}
	}
}
