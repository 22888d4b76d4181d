package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/bullshit-game/bullshit/engine/bench"
)

// The shipped binary never links testing (STYLE.md): `bullshit bench`
// runs the benchmark bodies under engine/bench's own runner.
func TestBinaryLinksNoTesting(t *testing.T) {
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command: %v", err)
	}
	out, err := exec.Command(gotool, "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/bullshit-game/bullshit/engine/bench") {
		t.Fatalf("go list -deps does not list engine/bench; the check reads the wrong list: %v", deps)
	}
	for _, d := range deps {
		if d == "testing" || strings.HasPrefix(d, "testing/") {
			t.Errorf("the binary links %s", d)
		}
	}
}

// A refusing body is an error of the run, not a zero figure.
func TestBenchMedian(t *testing.T) {
	r, err := median(3, 0, func(b bench.B) {
		for b.Loop() {
		}
	})
	if err != nil || r.N < 1 {
		t.Fatalf("%v, %d iterations", err, r.N)
	}
	if _, err := median(3, 0, func(b bench.B) { b.Fatal("no") }); err == nil {
		t.Fatal("a failing body gave a figure")
	}
}
