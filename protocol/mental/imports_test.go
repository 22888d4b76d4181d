package mental

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The package imports the standard library and ristretto255 only: it
// runs in the phone's WebAssembly player, and it must not lean on the
// engine, libp2p or the node. Test files may import what they like.
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
			if !std && path != "github.com/gtank/ristretto255" {
				t.Errorf("%s imports %s", name, path)
			}
		}
	}
}
