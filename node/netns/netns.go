// Package netns makes the pretend LAN that the namespace tests and `bullshit
// bench --netns` put processes on, with iproute2 alone: each "host" is a
// network namespace with one interface, lan0, on a bridge in a namespace of
// its own, so multicast (mDNS) works between them and nothing leaves the
// machine. It checks what that needs (root, ip; nft for packet loss), and
// reaps the processes started there. It is test and measurement tooling: it
// must never import testing (the shipped binary links it for the bench), and
// the game's own code never imports it. The project carries it so that a
// clone tests alone, with nothing beside it.
//
// What hashicorp/mdns needs, found by experiment (v1.0.7):
//   - a route for 224.0.0.0/4 on the LAN interface in every namespace that
//     browses: without it the browser's IPv4 multicast listener fails and
//     IPv4 discovery is silently off;
//   - the interface named explicitly (server Config.Iface,
//     QueryParam.Interface), IPv6 disabled (a failing IPv6 send abandons the
//     whole query), the service's host name and IPs passed explicitly
//     (otherwise it does a DNS lookup), and a buffered entries channel;
//   - the browser must poll (the server never announces).
//
// Never run mDNS in the machine's own namespace: its multicast would go out
// of the real network interface. Use hosts made here.
package netns

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Usable says why this machine can't make network namespaces (not root,
// no iproute2), nil when it can.
func Usable() error {
	if os.Geteuid() != 0 {
		return errors.New("needs root to create network namespaces")
	}
	if _, err := exec.LookPath("ip"); err != nil {
		return errors.New("needs iproute2 (the ip command)")
	}
	return nil
}

// UsableLoss says why this machine can't drop packets on a link (Usable's
// reasons, or no nftables), nil when it can.
func UsableLoss() error {
	if err := Usable(); err != nil {
		return err
	}
	if _, err := exec.LookPath("nft"); err != nil {
		return errors.New("needs nftables (the nft command) for packet loss")
	}
	return nil
}

// LAN is N hosts, namespaces Prefix1…PrefixN at 10.77.1.1…N/24 on one
// bridge (in the namespace Prefix+"sw").
type LAN struct {
	Prefix string
	N      int
}

// NewPrefix is a prefix no other run uses: "bs", a kind letter (so that
// .ci/run's sweep of stale "bs…" namespaces finds any a killed run left
// behind), six hex digits, and an "x" so that it never ends in a digit
// (Down matches PREFIX followed by digits).
func NewPrefix(kind string) string {
	var rnd [3]byte
	rand.Read(rnd[:])
	return "bs" + kind + hex.EncodeToString(rnd[:]) + "x"
}

// Up makes n hosts with the given prefix. On an error it takes down what
// it made.
func Up(n int, prefix string) (*LAN, error) {
	if err := Usable(); err != nil {
		return nil, err
	}
	if n < 1 || n > 250 {
		return nil, fmt.Errorf("netns: %d hosts: between 1 and 250", n)
	}
	if !validPrefix.MatchString(prefix) {
		return nil, fmt.Errorf("netns: prefix %q: letters, then letters or digits, not ending in a digit, at most 10", prefix)
	}
	l := &LAN{Prefix: prefix, N: n}
	sw := l.sw()
	steps := [][]string{
		{"netns", "add", sw},
		{"-n", sw, "link", "set", "lo", "up"},
		{"-n", sw, "link", "add", "br0", "type", "bridge"},
		{"-n", sw, "link", "set", "br0", "up"},
	}
	for i := 1; i <= n; i++ {
		ns, port := l.NS(i), "port"+strconv.Itoa(i)
		steps = append(steps,
			[]string{"netns", "add", ns},
			[]string{"link", "add", "lan0", "netns", ns, "type", "veth", "peer", "name", port, "netns", sw},
			[]string{"-n", sw, "link", "set", port, "master", "br0"},
			[]string{"-n", sw, "link", "set", port, "up"},
			[]string{"-n", ns, "link", "set", "lo", "up"},
			[]string{"-n", ns, "addr", "add", l.Addr(i) + "/24", "dev", "lan0"},
			[]string{"-n", ns, "link", "set", "lan0", "multicast", "on", "up"},
			[]string{"-n", ns, "route", "add", "224.0.0.0/4", "dev", "lan0"},
		)
	}
	for _, s := range steps {
		if err := ip(s...); err != nil {
			l.Down()
			return nil, err
		}
	}
	return l, nil
}

// A prefix of at most 10 characters keeps "PREFIX" + "sw" and "PREFIX250"
// within a namespace name's limits and names no other namespace.
var validPrefix = regexp.MustCompile(`^[a-z][a-z0-9]{0,8}[a-z]$`)

func (l *LAN) sw() string { return l.Prefix + "sw" }

// NS is host i's namespace.
func (l *LAN) NS(i int) string { return l.Prefix + strconv.Itoa(i) }

// Addr is host i's address on the LAN.
func (l *LAN) Addr(i int) string { return "10.77.1." + strconv.Itoa(i) }

// Command runs name with args inside host i (ip netns exec, which execs in
// place: the process started is the program itself).
func (l *LAN) Command(i int, name string, args ...string) *exec.Cmd {
	return exec.Command("ip", append([]string{"netns", "exec", l.NS(i), name}, args...)...)
}

// Cut takes host i's link down: a laptop that dropped off the Wi-Fi.
func (l *LAN) Cut(i int) error { return ip("-n", l.NS(i), "link", "set", "lan0", "down") }

// Heal brings host i's link back up, and the multicast route with it (the
// kernel drops the route when the link goes down).
func (l *LAN) Heal(i int) error {
	if err := ip("-n", l.NS(i), "link", "set", "lan0", "up"); err != nil {
		return err
	}
	return ip("-n", l.NS(i), "route", "replace", "224.0.0.0/4", "dev", "lan0")
}

// Lossy drops pct % of host i's outgoing packets (nftables: tc netem is not
// in every kernel).
func (l *LAN) Lossy(i, pct int) error {
	if pct < 0 || pct > 100 {
		return fmt.Errorf("netns: %d %% loss: between 0 and 100", pct)
	}
	l.Clean(i)
	ns := l.NS(i)
	for _, s := range [][]string{
		{"add", "table", "inet", "bsloss"},
		{"add", "chain", "inet", "bsloss", "out", "{ type filter hook output priority 0; }"},
		{"add", "rule", "inet", "bsloss", "out", "numgen", "random", "mod", "100", "<", strconv.Itoa(pct), "drop"},
	} {
		if err := run("ip", append([]string{"netns", "exec", ns, "nft"}, s...)...); err != nil {
			return err
		}
	}
	return nil
}

// Clean removes host i's packet loss, if any.
func (l *LAN) Clean(i int) error {
	err := run("ip", "netns", "exec", l.NS(i), "nft", "delete", "table", "inet", "bsloss")
	if err != nil && strings.Contains(err.Error(), "No such file or directory") {
		return nil
	}
	return err
}

// Down deletes every namespace of this LAN's prefix (the bridge's too,
// and any host a half-made Up left), whatever state they are in.
func (l *LAN) Down() error { return Down(l.Prefix) }

// Down deletes the namespaces PREFIX followed by digits, and PREFIX+"sw".
func Down(prefix string) error {
	out, err := exec.Command("ip", "netns", "list").Output()
	if err != nil {
		return fmt.Errorf("ip netns list: %w", err)
	}
	mine := regexp.MustCompile("^" + regexp.QuoteMeta(prefix) + "([0-9]+|sw)$")
	var errs []error
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || !mine.MatchString(f[0]) {
			continue
		}
		if err := ip("netns", "del", f[0]); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func ip(args ...string) error { return run("ip", args...) }

func run(name string, args ...string) error {
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return nil
}

// Reap waits for a started process that was told to end (a signal, its
// stdin closed), and kills it if it is still there after grace.
func Reap(cmd *exec.Cmd, grace time.Duration) {
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(grace):
		cmd.Process.Kill()
		<-done
	}
}

// AddAddrs gives host i more addresses on lan0 (a stranger that speaks
// from many), in one batch.
func (l *LAN) AddAddrs(i int, addrs []string) error {
	var batch strings.Builder
	for _, a := range addrs {
		fmt.Fprintf(&batch, "addr add %s/24 dev lan0\n", a)
	}
	cmd := exec.Command("ip", "-n", l.NS(i), "-batch", "-")
	cmd.Stdin = strings.NewReader(batch.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("ip -n %s -batch (%d addresses): %v: %s", l.NS(i), len(addrs), err, strings.TrimSpace(string(out)))
	}
	return nil
}
