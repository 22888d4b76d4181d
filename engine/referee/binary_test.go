package referee_test

import (
	"bufio"
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine"
)

// TestBinary builds the real command and plays a scripted session through
// `bullshit referee`, a line at a time over pipes: each command gets its
// reply before the next is sent, garbage gets bad_command and the process
// goes on, and it exits cleanly when its input ends.
func TestBinary(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "bullshit")
	build := exec.Command(gobin, "build", "-o", bin, "github.com/bullshit-game/bullshit/cmd/bullshit")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	cmd := exec.Command(bin, "referee")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	replies := bufio.NewReader(stdout)

	for i, step := range []struct {
		line string
		want string // "ok", a refusal code, or an exact reply
	}{
		{`{"cmd":"new","seats":3,"seed":7,"hands":[["AS","KD"],["2C","2H"],["3C"]],"first":0}`, "ok"},
		{`hello, referee`, "bad_command"},
		{`{"cmd":"play","seat":0,"cards":["KD"]}`, `{"ok":true,"events":[{"type":"play","to":"all","seat":0,"no":1,"rank":"A","claim":1,"out":false,"sizes":{"hand":[2,1],"pile":[0,1]}},{"type":"mine","to":[0],"seat":0,"no":1,"cards":["KD"]}]}`},
		{`{"cmd":"play","seat":1,"cards":["2C"]}`, "not_your_turn"},
		{`{"cmd":"call","seat":0,"no":1}`, "own_play"},
		{`{"oops"`, "bad_command"},
		{`{"cmd":"call","seat":2,"no":1}`, `{"ok":true,"events":[{"type":"call","to":"all","seat":2,"on":0,"no":1},{"type":"reveal","to":"all","seat":0,"no":1,"rank":"A","claim":1,"cards":["KD"],"truth":false,"sneaked":0},{"type":"take","to":"all","seat":0,"count":1}]}`},
		{`{"cmd":"call","seat":1,"no":1}`, "too_late"},
		{`{"cmd":"play","seat":1,"cards":["2C","2H"]}`, "ok"},
		{`{"cmd":"tick","t":6}`, `{"ok":true,"events":[{"type":"stand","to":"all","seat":1,"no":2},{"type":"win","to":"all","seat":1},{"type":"over","to":"all","winner":1,"places":[3,1,2],"hands":[["AS","KD"],[],["3C"]],"pile":["2C","2H"]}]}`},
		{`{"cmd":"play","seat":2,"cards":["3C"]}`, "game_over"},
		{`{"cmd":"view","seat":0}`, "ok"},
	} {
		if _, err := io.WriteString(stdin, step.line+"\n"); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		got := readLine(t, replies)
		var r struct {
			OK    bool        `json:"ok"`
			Error engine.Code `json:"error"`
		}
		if err := json.Unmarshal([]byte(got), &r); err != nil {
			t.Fatalf("line %d %s: reply %q is not JSON", i, step.line, got)
		}
		switch {
		case strings.HasPrefix(step.want, "{"):
			if got != step.want {
				t.Errorf("line %d %s:\n got %s\nwant %s", i, step.line, got, step.want)
			}
		case step.want == "ok":
			if !r.OK {
				t.Errorf("line %d %s: %s", i, step.line, got)
			}
		default:
			if r.OK || string(r.Error) != step.want {
				t.Errorf("line %d %s: %s, want %s", i, step.line, got, step.want)
			}
		}
	}
	stdin.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("bullshit referee exited with %v: %s", err, stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("bullshit referee didn't exit when its input ended")
	}
}

// readLine reads one reply, failing rather than hanging if none comes.
func readLine(t *testing.T, r *bufio.Reader) string {
	t.Helper()
	type res struct {
		s   string
		err error
	}
	ch := make(chan res, 1)
	go func() {
		s, err := r.ReadString('\n')
		ch <- res{s, err}
	}()
	select {
	case x := <-ch:
		if x.err != nil {
			t.Fatalf("no reply: %v", x.err)
		}
		return strings.TrimSuffix(x.s, "\n")
	case <-time.After(20 * time.Second):
		t.Fatal("no reply within 20s")
		return ""
	}
}
