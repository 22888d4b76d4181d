package latency

// The host's own CPU per shout (issue 25: "host CPU per call round"). In
// one process the host's work can't be told from the players' (each
// player node of a blind table runs a copy of the host), so the table is
// hosted in a process of its own (ServeHost there, SpawnHost here), which
// says its CPU time when asked; ShoutSpawned reads it either side of each
// stretch of shouts.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/bullshit-game/bullshit/node/internal/child"
)

// HostEnv, in a process's environment, asks it to host the table Shout
// measures and answer on stdin and stdout (ServeHost): its value is the
// seats, with " blind" after them for a blind table. SpawnHost sets it;
// `bullshit bench` and this package's test binary look for it.
const HostEnv = "BS_BENCH_SHOUT_HOST"

// hostHello is the first line a hosting process prints.
type hostHello struct {
	Addr peer.AddrInfo `json:"addr"`
}

// hostAnswer is its answer to a command.
type hostAnswer struct {
	Err string        `json:"err,omitempty"`
	CPU time.Duration `json:"cpu,omitempty"` // ns
}

// ServeHost hosts the table HostEnv asks for (as Shout hosts it) and
// answers commands, one a line: "deal" deals a game, "cpu" says the
// process's CPU time so far (user and system). It prints where the table
// is first, and returns when in ends.
func ServeHost(ctx context.Context, in io.Reader, out io.Writer) error {
	f := strings.Fields(os.Getenv(HostEnv))
	seats, err := 0, errors.New("empty")
	if len(f) > 0 {
		seats, err = strconv.Atoi(f[0])
	}
	blind := len(f) == 2 && f[1] == "blind"
	if err != nil || len(f) > 2 || len(f) == 2 && !blind {
		return fmt.Errorf("latency: %s=%q is not seats, with \" blind\" or not", HostEnv, os.Getenv(HostEnv))
	}
	if err := shoutArgs(seats, 1, blind); err != nil {
		return err
	}
	h, err := serveTable(ctx, seats, blind)
	if err != nil {
		return err
	}
	defer h.Close()
	enc := json.NewEncoder(out)
	if err := enc.Encode(hostHello{Addr: h.Addr()}); err != nil {
		return err
	}
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		var a hostAnswer
		switch cmd := strings.TrimSpace(sc.Text()); cmd {
		case "deal":
			if err := h.Deal(); err != nil {
				a.Err = err.Error()
			}
		case "cpu":
			a.CPU = processCPU()
		default:
			a.Err = fmt.Sprintf("no command %q", cmd)
		}
		if err := enc.Encode(a); err != nil {
			return err
		}
	}
	return sc.Err()
}

// Child is the measured table's host in a process of its own, answering
// on its stdin and stdout (ServeHost).
type Child struct {
	p    *child.Proc
	addr peer.AddrInfo
}

// SpawnHost starts cmd (a program that runs ServeHost when HostEnv is
// set: `bullshit bench`, or a test binary) to host a table of seats, blind
// or not, and waits until it is there.
func SpawnHost(cmd *exec.Cmd, seats int, blind bool) (*Child, error) {
	env := strconv.Itoa(seats)
	if blind {
		env += " blind"
	}
	cmd.Env = append(cmd.Environ(), HostEnv+"="+env)
	var h hostHello
	p, err := child.Start(cmd, &h, "latency: the hosting process")
	if err != nil {
		return nil, err
	}
	return &Child{p: p, addr: h.Addr}, nil
}

// Addr is where the table is.
func (c *Child) Addr() peer.AddrInfo { return c.addr }

// Deal deals a game: the first, or the next once one is over.
func (c *Child) Deal() error { return c.p.Ask("deal", &hostAnswer{}) }

// CPU is the hosting process's CPU time so far, user and system.
func (c *Child) CPU() (time.Duration, error) {
	var a hostAnswer
	err := c.p.Ask("cpu", &a)
	return a.CPU, err
}

// Close ends the hosting process and reaps it.
func (c *Child) Close() error { return c.p.Close() }

// ShoutSpawned is Shout with the table hosted by cmd in a process of its
// own (SpawnHost), and the host's CPU over the shouts in the result
// (HostCPU): the CPU the hosting process spent in the bracket's stretches
// (WithBracket), which leave the deals out.
func ShoutSpawned(ctx context.Context, cmd *exec.Cmd, seats, rounds int, opts ...Option) (*ShoutResult, error) {
	var o shoutOpts
	for _, opt := range opts {
		opt(&o)
	}
	if err := shoutArgs(seats, rounds, o.blind); err != nil {
		return nil, err
	}
	c, err := SpawnHost(cmd, seats, o.blind)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	var cpu, cpu0 time.Duration
	var cpuErr error
	measure := WithBracket(func(begin bool) {
		now, err := c.CPU()
		if err != nil {
			cpuErr = err
		}
		if begin {
			cpu0 = now
		} else {
			cpu += now - cpu0
		}
		if o.bracket != nil {
			o.bracket(begin)
		}
	})
	res, err := shoutAt(ctx, c, seats, rounds, o.blind, append(opts, measure))
	if err == nil && cpuErr != nil {
		err = fmt.Errorf("latency: the host's CPU: %w", cpuErr)
	}
	if res != nil {
		res.HostCPU = cpu
	}
	return res, err
}
