package protocol

import (
	"bufio"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.txt")

const goldenFile = "testdata/golden.txt"

// goldenLines seals every sample with alice's fixed key: the wire format,
// byte for byte.
func goldenLines(t *testing.T) []string {
	lines := []string{
		"# The wire format, byte for byte. Rewrite with: go test ./protocol -update",
		"# A change here is a change of protocol: bump Current (a new major unless",
		"# only optional fields or types were added).",
		"#",
		"# Each line: name, then the hex of the envelope sealed by alice",
		"# (ed25519 seed SHA-256(\"bullshit test key alice\"), peer " + aliceID.String() + ")",
		"# on table " + testTable.String() + ", term 3, sequence number = line number among the envelopes.",
	}
	for i, s := range samples() {
		lines = append(lines, fmt.Sprintf("%s %x", s.name, mustSeal(t, alice, uint64(i+1), s.msg)))
	}
	return lines
}

func TestGolden(t *testing.T) {
	want := goldenLines(t)
	if *update {
		if err := os.MkdirAll(filepath.Dir(goldenFile), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(goldenFile, []byte(strings.Join(want, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(goldenFile)
	if err != nil {
		t.Fatalf("%v (run go test ./protocol -update once)", err)
	}
	got := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	for i := range max(len(got), len(want)) {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			t.Errorf("%s:%d: the wire format drifted\n file: %s\n  now: %s", goldenFile, i+1, g, w)
		}
	}
}

// The golden envelopes open to the samples: the file is read back, not just
// compared.
func TestGoldenOpens(t *testing.T) {
	env := goldenEnvelopes(t)
	for i, s := range samples() {
		e, err := Open(env[s.name], aliceID)
		if err != nil {
			t.Errorf("%s: %v", s.name, err)
			continue
		}
		if !reflect.DeepEqual(e.Msg, s.msg) || e.Seq != uint64(i+1) || e.Term != 3 || e.Table != testTable {
			t.Errorf("%s: opened %+v", s.name, e)
		}
	}
}

func goldenEnvelopes(t testing.TB) map[string][]byte {
	f, err := os.Open(goldenFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	env := map[string][]byte{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		name, h, ok := strings.Cut(sc.Text(), " ")
		if !ok || name == "#" || name == "commitment" {
			continue
		}
		b, err := hex.DecodeString(h)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		env[name] = b
	}
	return env
}
