package flood

// The table a flood is thrown at: hosted here (Serve) or in a process of
// its own (ServeLines there, Spawn here), as `bullshit host` hosts one,
// with its web entry.

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/bullshit-game/bullshit/engine/bench"
	"github.com/bullshit-game/bullshit/node"
	"github.com/bullshit-game/bullshit/node/internal/child"
	"github.com/bullshit-game/bullshit/node/lan"
	"github.com/bullshit-game/bullshit/node/latency"
	"github.com/bullshit-game/bullshit/protocol"
)

// A Target is the host under the flood.
type Target interface {
	// Addr is where the game's stream is.
	Addr() peer.AddrInfo
	// Web is the web entry's base URL (http://127.0.0.1:PORT).
	Web() string
	// Deal deals a game (the first, or the next once one is over).
	Deal() error
	// Stats are the host's counters so far.
	Stats() (Stats, error)
}

// Stats are a host's counters so far; a flood's are the difference.
type Stats struct {
	CPU      time.Duration `json:"cpu"`      // the host process's CPU time, user and system
	Refused  int64         `json:"refused"`  // envelopes the server refused (node.Server.Refused)
	Verified uint64        `json:"verified"` // envelope signatures the process verified
}

// turnClock backs up the rogue's seat: while its own flood is queued ahead
// of its move, the fallback plays for it, and the measured game goes on.
// The measured players play within milliseconds of their turn (should one
// not, the fallback plays the same card for it).
const turnClock = 200 * time.Millisecond

// Host is a table hosted in this process, as `bullshit host` hosts one
// (node.Device): on 127.0.0.1 with its web entry, the host's own seat a
// quiet bot (latency.Bots), the table latency measures on.
type Host struct {
	dev *node.Device
	ho  *node.Hosted
}

// Serve hosts a table of seats; Deal deals once the players are seated.
func Serve(ctx context.Context, seats int) (*Host, error) {
	k, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		return nil, err
	}
	dev, err := node.NewDevice(ctx, node.DeviceConfig{Key: k, Name: "host",
		Listen: []ma.Multiaddr{ma.StringCast("/ip4/127.0.0.1/tcp/0")}, Bots: latency.Bots, Fallback: latency.Fallback,
		Web: &node.WebConfig{Addr: "127.0.0.1:0"}})
	if err != nil {
		return nil, err
	}
	set := latency.Settings(seats)
	set.TurnClock = turnClock
	ho, err := dev.Open(set)
	if err != nil {
		dev.Close()
		return nil, err
	}
	return &Host{dev: dev, ho: ho}, nil
}

func (h *Host) Addr() peer.AddrInfo {
	return peer.AddrInfo{ID: h.dev.Host().ID(), Addrs: h.dev.Host().Addrs()}
}

func (h *Host) Web() string { return h.dev.WebURL() }

func (h *Host) Deal() error { return h.ho.Start() }

// Stats counts this whole process: run it alone in a process (ServeLines)
// for the host's own CPU.
func (h *Host) Stats() (Stats, error) {
	return Stats{CPU: bench.CPUTime(), Refused: h.ho.Server.Refused.Load(),
		Verified: protocol.Verifications()}, nil
}

// Close closes the table, the web entry and the host.
func (h *Host) Close() {
	h.ho.Close()
	h.dev.Close()
}

// ---- a host in a process of its own ----

// HostEnv, in a process's environment, asks it to host the table (its
// value the seats) and answer on stdin and stdout (ServeLines): Spawn sets
// it, and `bullshit bench` (or a test binary's TestMain) looks for it.
const HostEnv = "BS_BENCH_FLOOD_HOST"

// hostHello is the first line a hosting process prints.
type hostHello struct {
	Addr string `json:"addr"` // /ip4/127.0.0.1/tcp/…/p2p/…
	Web  string `json:"web"`
}

type hostAnswer struct {
	Err   string `json:"err,omitempty"`
	Stats *Stats `json:"stats,omitempty"`
}

// ServeLines hosts a table (seats from HostEnv) and answers commands, one
// a line: "deal" and "stats". It prints where it is first, and returns
// when in ends.
func ServeLines(ctx context.Context, in io.Reader, out io.Writer) error {
	seats, err := strconv.Atoi(os.Getenv(HostEnv))
	if err != nil {
		return fmt.Errorf("flood: %s=%q is no number of seats", HostEnv, os.Getenv(HostEnv))
	}
	h, err := Serve(ctx, seats)
	if err != nil {
		return err
	}
	defer h.Close()
	enc := json.NewEncoder(out)
	addrs := lan.JoinAddrs(h.dev.Host())
	if len(addrs) == 0 {
		return errors.New("flood: the host listens nowhere")
	}
	if err := enc.Encode(hostHello{Addr: addrs[0], Web: h.Web()}); err != nil {
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
		case "stats":
			s, _ := h.Stats()
			a.Stats = &s
		default:
			a.Err = fmt.Sprintf("no command %q", cmd)
		}
		if err := enc.Encode(a); err != nil {
			return err
		}
	}
	return sc.Err()
}

// Child is a host in a process of its own, answering on its stdin and
// stdout (ServeLines).
type Child struct {
	p    *child.Proc
	addr peer.AddrInfo
	web  string
}

// Spawn starts cmd (a program that runs ServeLines when HostEnv is set:
// `bullshit bench`) to host a table of seats, and waits until it is there.
func Spawn(cmd *exec.Cmd, seats int) (*Child, error) {
	cmd.Env = append(cmd.Environ(), fmt.Sprintf("%s=%d", HostEnv, seats))
	var h hostHello
	p, err := child.Start(cmd, &h, "flood: the hosting process")
	if err != nil {
		return nil, err
	}
	addr, err := lan.ParseAddr(h.Addr)
	if err != nil {
		p.Close()
		return nil, fmt.Errorf("flood: the hosting process: %w", err)
	}
	return &Child{p: p, addr: addr, web: h.Web}, nil
}

func (c *Child) Addr() peer.AddrInfo { return c.addr }

func (c *Child) Web() string { return c.web }

func (c *Child) Deal() error { return c.p.Ask("deal", &hostAnswer{}) }

func (c *Child) Stats() (Stats, error) {
	var a hostAnswer
	if err := c.p.Ask("stats", &a); err != nil {
		return Stats{}, err
	}
	if a.Stats == nil {
		return Stats{}, errors.New("flood: no stats in the answer")
	}
	return *a.Stats, nil
}

// Pid is the hosting process's.
func (c *Child) Pid() int { return c.p.Pid() }

// Close ends the hosting process (its stdin first; killed if it is still
// there after 5 s) and reaps it.
func (c *Child) Close() error { return c.p.Close() }
