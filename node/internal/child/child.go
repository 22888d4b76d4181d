// Package child runs a program that speaks JSON lines on its stdin and
// stdout: it prints a hello first, then answers each command line with one
// JSON object, {"err": "…"} when it refuses. The benchmarks' hosts in a
// process of their own (node/flood, node/latency) are such programs: the
// test binary or `bullshit bench` run again.
package child

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Proc is the running program.
type Proc struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner

	mu sync.Mutex // one command at a time
}

// Start starts cmd and reads its hello into hello, waiting 30 s at most;
// what names the program in an error, with what it printed on stderr
// (unless cmd.Stderr was set).
func Start(cmd *exec.Cmd, hello any, what string) (*Proc, error) {
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr strings.Builder
	if cmd.Stderr == nil {
		cmd.Stderr = &stderr
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &Proc{cmd: cmd, in: in, out: bufio.NewScanner(out)}
	p.out.Buffer(make([]byte, 64<<10), 1<<20)
	said := make(chan error, 1)
	go func() { said <- p.read(hello) }()
	select {
	case err = <-said:
	case <-time.After(30 * time.Second):
		err = errors.New("no hello within 30 s")
	}
	if err != nil {
		p.Close()
		return nil, fmt.Errorf("%s: %w %s", what, err, strings.TrimSpace(stderr.String()))
	}
	return p, nil
}

func (p *Proc) read(v any) error {
	b, err := p.line()
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

func (p *Proc) line() ([]byte, error) {
	if !p.out.Scan() {
		if err := p.out.Err(); err != nil {
			return nil, err
		}
		return nil, io.ErrUnexpectedEOF
	}
	return p.out.Bytes(), nil
}

// Ask sends command cmd and reads its answer into answer; an answer with
// an "err" is that error.
func (p *Proc) Ask(cmd string, answer any) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, err := fmt.Fprintln(p.in, cmd); err != nil {
		return err
	}
	b, err := p.line()
	if err != nil {
		return err
	}
	var refused struct {
		Err string `json:"err"`
	}
	if err := json.Unmarshal(b, &refused); err != nil {
		return err
	}
	if refused.Err != "" {
		return errors.New(refused.Err)
	}
	return json.Unmarshal(b, answer)
}

// Pid is the program's process ID.
func (p *Proc) Pid() int { return p.cmd.Process.Pid }

// Close ends the program (its stdin first; killed if it is still there
// after 5 s) and reaps it.
func (p *Proc) Close() error {
	p.in.Close()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		p.cmd.Process.Kill()
		return <-done
	}
}
