package node

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/protocol"
)

// codeConsts reads the Code… string constants of the package in dir (its
// non-test files), by name: the code lists are constants, which no loop
// can range over, so the test reads them from the source.
func codeConsts(t *testing.T, dir string) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	codes := map[string]string{}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, name := range vs.Names {
					if !strings.HasPrefix(name.Name, "Code") || i >= len(vs.Values) {
						continue
					}
					lit, ok := vs.Values[i].(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					v, err := strconv.Unquote(lit.Value)
					if err != nil {
						t.Fatal(err)
					}
					codes[name.Name] = v
				}
			}
		}
	}
	return codes
}

// The engine's refusal codes and the protocol's are one set, name for name
// and value for value: the host sends an engine code as it is, and the
// player turns it back into the engine's. The protocol's others are the
// host's own, for joining, and each is one here on purpose.
func TestRefusalCodes_EngineAndProtocolAgree(t *testing.T) {
	eng := codeConsts(t, filepath.Join("..", "engine"))
	wire := codeConsts(t, filepath.Join("..", "protocol"))
	// REFEREE.md's 13, and the two only the game over hidden cards
	// (engine.Blind) gives: it waits for cards to be turned up, and refuses
	// an opening of other cards.
	if len(eng) != 15 {
		t.Errorf("the engine has %d refusal codes, REFEREE.md 13 and engine.Blind 2 more: %v", len(eng), eng)
	}
	for name, v := range eng {
		if w, ok := wire[name]; !ok || w != v {
			t.Errorf("engine.%s = %q, protocol.%s = %q (present: %v)", name, v, name, w, ok)
		}
	}
	hostOnly := []string{"CodeTableFull", "CodeStarted", "CodeVersion", "CodeBadCode", "CodeBadName", "CodeNotHost"}
	for name, v := range wire {
		if _, ok := eng[name]; !ok && !slices.Contains(hostOnly, name) {
			t.Errorf("protocol.%s = %q is neither the engine's nor a known host-only code", name, v)
		}
	}
	seen := map[string]string{}
	for name, v := range wire {
		if other, ok := seen[v]; ok {
			t.Errorf("protocol.%s and protocol.%s are both %q", name, other, v)
		}
		seen[v] = name
	}

	// The node's conversion keeps each one across the wire: an engine
	// refusal as the host sends it, encoded, decoded and turned back into
	// the engine's, is still the same refusal.
	for name, v := range eng {
		want := &engine.Refusal{Code: engine.Code(v), Msg: "no"}
		body, err := protocol.Encode(protocol.Refusal{Code: string(want.Code), Message: want.Msg, Ref: 7})
		if err != nil {
			t.Fatal(err)
		}
		m, err := protocol.Decode(protocol.TypeRefusal, body)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got := engRefusal(m.(protocol.Refusal))
		if !errors.Is(got, want) || got.Code != want.Code || engine.CodeOf(got) != engine.Code(v) {
			t.Errorf("%s: sent %q, the player has %q", name, want.Code, got.Code)
		}
	}
}
