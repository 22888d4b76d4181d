//go:build linux

package node

// The one real mDNS test: three network namespaces on a pretend LAN made by
// node/netns, one advertising a table and two browsing. mDNS never
// runs in the machine's own namespace. The processes in the namespaces are
// this test binary again (TestNetnsHelper), so nothing extra is built.
//
//	sudo go test ./node/ -run TestNetnsMDNS -v
//	sudo go test ./node/ -run XXX -bench NetnsDiscovery -benchtime 20x

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/bullshit-game/bullshit/engine/bench"
	"github.com/bullshit-game/bullshit/node/echo"
	"github.com/bullshit-game/bullshit/node/lan"
	"github.com/bullshit-game/bullshit/node/netns"
	"github.com/bullshit-game/bullshit/node/table"
)

// helperEnv selects what TestNetnsHelper does: "advertise" or "browse".
const helperEnv = "BS_NODE_NETNS_HELPER"

// parentNetnsEnv carries the test's own namespace to the helpers, which
// refuse to run in it.
const parentNetnsEnv = "BS_NODE_NETNS_PARENT"

// Functional limits: a table shows within 2 s and goes within ~2 s.
const (
	maxDiscovery = 2 * time.Second
	maxDrop      = 2500 * time.Millisecond
)

func TestNetnsMDNS(t *testing.T) {
	found, dropped := runNetnsDiscovery(t, 8)
	t.Logf("time to discovery over %d sightings: median %v, worst %v",
		len(found), bench.Percentile(found, 0.5), bench.Percentile(found, 1))
	t.Logf("time to drop after stop: %v", dropped)
}

// BenchmarkNetnsDiscovery reports how long a new table takes to show in a
// browser on another host (b.N tables, two browsers each).
func BenchmarkNetnsDiscovery(b *testing.B) {
	found, _ := runNetnsDiscovery(b, b.N)
	b.ReportMetric(float64(bench.Percentile(found, 0.5).Microseconds())/1000, "median_ms")
	b.ReportMetric(float64(bench.Percentile(found, 1).Microseconds())/1000, "worst_ms")
}

// needNetns skips when this machine cannot make namespaces.
func needNetns(tb testing.TB) {
	tb.Helper()
	if testing.Short() {
		tb.Skip("network namespace test skipped in -short mode")
	}
	if err := netns.Usable(); err != nil {
		tb.Skipf("%v (CI runs this as root, with iproute2): sudo go test ./node/ -run Netns", err)
	}
}

// nsEvent is one line a helper printed: "BS kind unixnano rest".
type nsEvent struct {
	from int // namespace number: 1 advertises, 2 and 3 browse
	kind string
	at   time.Time
	rest string
}

// nsTable is how a browser helper reports a table.
type nsTable struct {
	ID, Name, HostPeer string
	Addrs              []string
}

// runNetnsDiscovery makes the pretend LAN, starts the helpers and plays
// rounds: each round the advertiser restarts with a new table and both
// browsers must see it; at the end the advertiser stops and both browsers
// must drop it. It returns every time to discovery and the drop times.
func runNetnsDiscovery(tb testing.TB, rounds int) (found, dropped []time.Duration) {
	needNetns(tb)
	exe, err := os.Executable()
	if err != nil {
		tb.Fatal(err)
	}
	prefix := netns.NewPrefix("n")
	ownNetns, err := os.Readlink("/proc/self/ns/net")
	if err != nil {
		tb.Skipf("cannot tell which network namespace this is: %v", err)
	}

	// Cleanups run last-registered first: helpers die, then namespaces go.
	tb.Cleanup(func() {
		if err := netns.Down(prefix); err != nil {
			tb.Logf("namespaces %s down: %v", prefix, err)
		}
	})
	nsLAN, err := netns.Up(3, prefix)
	if err != nil {
		if strings.Contains(err.Error(), "Operation not permitted") {
			tb.Skipf("cannot create network namespaces here: %v", err)
		}
		tb.Fatalf("pretend LAN of 3: %v", err)
	}

	// Fail on our own clock, before go test's -timeout panics: a panic skips
	// the cleanups and would leave the namespaces behind.
	deadline := time.Now().Add(20*time.Second + time.Duration(rounds)*time.Second)
	if d, ok := tb.(interface{ Deadline() (time.Time, bool) }); ok {
		if end, ok := d.Deadline(); ok && end.Add(-5*time.Second).Before(deadline) {
			deadline = end.Add(-5 * time.Second)
		}
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	tb.Cleanup(cancel)
	events := make(chan nsEvent, 256)
	var stdin io.WriteCloser
	for i := 1; i <= 3; i++ {
		mode := "browse"
		if i == 1 {
			mode = "advertise"
		}
		cmd := nsLAN.Command(i, exe, "-test.run=^TestNetnsHelper$", "-test.timeout=2m")
		cmd.Env = append(os.Environ(), helperEnv+"="+mode, parentNetnsEnv+"="+ownNetns)
		// ip netns exec execs the helper in place, so it inherits this: the
		// helper dies with the test, whatever happens to the test.
		cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		in, err := cmd.StdinPipe()
		if err != nil {
			tb.Fatal(err)
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			tb.Fatal(err)
		}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			tb.Fatal(err)
		}
		if i == 1 {
			stdin = in
		}
		tb.Cleanup(func() {
			in.Close() // the helper's cue to stop
			netns.Reap(cmd, 3*time.Second)
			if tb.Failed() && stderr.Len() > 0 {
				tb.Logf("helper %d (%s) stderr:\n%s", i, mode, stderr.String())
			}
		})
		go readHelper(ctx, i, out, events)
	}

	next := func(what string) nsEvent {
		tb.Helper()
		select {
		case e := <-events:
			if e.kind == "fatal" {
				tb.Fatalf("helper %d: %s", e.from, e.rest)
			}
			return e
		case <-ctx.Done():
			tb.Fatalf("timed out waiting for %s", what)
		}
		return nsEvent{}
	}

	// Everyone up; the advertiser tells its peer ID.
	var advPeer string
	for ready := 0; ready < 3; {
		e := next("helpers to start")
		if e.kind == "ready" {
			ready++
			if e.from == 1 {
				advPeer, _, _ = strings.Cut(e.rest, " ")
			}
			if testing.Verbose() {
				tb.Logf("helper %d ready: %s", e.from, e.rest)
			}
		}
	}

	echoed := map[int]bool{}
	note := func(e nsEvent) {
		switch e.kind {
		case "echo":
			if e.rest != "ok" {
				tb.Errorf("browser %d could not play with the table's host: %s", e.from, e.rest)
			}
			echoed[e.from] = true
		case "mdnserr":
			tb.Logf("browser %d: mDNS query error: %s", e.from, e.rest)
		}
	}

	// acted reads events, noting the others, until the advertiser says
	// kind, and is when it did.
	acted := func(what, kind string) time.Time {
		for {
			e := next(what)
			if e.kind == kind {
				return e.at
			}
			note(e)
		}
	}

	// wait reads events until both browsers pass test, returning when each
	// did; sent is when the advertiser acted.
	wait := func(what string, sent time.Time, test func([]nsTable) bool) map[int]time.Duration {
		got := map[int]time.Duration{}
		for len(got) < 2 {
			e := next(what)
			note(e)
			if e.kind != "tables" || e.from == 1 {
				continue
			}
			if _, ok := got[e.from]; ok {
				continue
			}
			var ts []nsTable
			if err := json.Unmarshal([]byte(e.rest), &ts); err != nil {
				tb.Fatalf("browser %d printed %q: %v", e.from, e.rest, err)
			}
			if test(ts) {
				got[e.from] = e.at.Sub(sent)
			}
		}
		return got
	}

	for r := 1; r <= rounds; r++ {
		// Start at a random point of the browsers' poll cycle.
		time.Sleep(mrand.N(lan.DefaultPoll))
		id := fmt.Sprintf("t%d", r)
		fmt.Fprintf(stdin, "adv %s\n", id)
		sent := acted("advertiser", "adv")
		got := wait("table "+id, sent, func(ts []nsTable) bool {
			for _, t := range ts {
				if t.ID != id {
					continue
				}
				if t.HostPeer != advPeer || t.Name != "Table "+id ||
					len(t.Addrs) != 1 || !strings.HasPrefix(t.Addrs[0], "/ip4/10.77.1.1/tcp/") {
					tb.Errorf("browser sees %+v, want name %q, peer %s at 10.77.1.1", t, "Table "+id, advPeer)
				}
				return true
			}
			return false
		})
		for b, d := range got {
			if d > maxDiscovery {
				tb.Errorf("round %d: browser %d saw the table after %v, want ≤ %v", r, b, d, maxDiscovery)
			}
			found = append(found, d)
		}
	}

	fmt.Fprintf(stdin, "stop\n")
	stopped := acted("advertiser to stop", "stop")
	for b, d := range wait("tables to be dropped", stopped, func(ts []nsTable) bool { return len(ts) == 0 }) {
		if d > maxDrop {
			tb.Errorf("browser %d dropped the stopped table after %v, want ≤ %v", b, d, maxDrop)
		}
		dropped = append(dropped, d)
	}
	for len(echoed) < 2 {
		note(next("browsers to dial the table"))
	}
	return found, dropped
}

// readHelper turns a helper's "BS …" lines into events; the test
// framework's own lines are ignored.
func readHelper(ctx context.Context, from int, r io.Reader, events chan<- nsEvent) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		f := strings.SplitN(sc.Text(), " ", 4)
		if len(f) < 3 || f[0] != "BS" {
			continue
		}
		ns, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil {
			continue
		}
		e := nsEvent{from: from, kind: f[1], at: time.Unix(0, ns)}
		if len(f) == 4 {
			e.rest = f[3]
		}
		select {
		case events <- e:
		case <-ctx.Done():
			return
		}
	}
}

// TestNetnsHelper is not a test: it is the program runNetnsDiscovery starts
// inside a namespace.
func TestNetnsHelper(t *testing.T) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		return
	}
	var mu sync.Mutex
	say := func(kind, format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Printf("BS %s %d %s\n", kind, time.Now().UnixNano(), fmt.Sprintf(format, args...))
	}
	if err := netnsHelper(mode, say); err != nil {
		say("fatal", "%v", err)
	}
}

func netnsHelper(mode string, say func(kind, format string, args ...any)) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// mDNS must never run in the machine's own namespace, whatever the
	// environment says: refuse unless started by the test from another
	// namespace than this one.
	self, err := os.Readlink("/proc/self/ns/net")
	if parent := os.Getenv(parentNetnsEnv); err != nil || parent == "" || parent == self {
		return errors.New("refusing to run mDNS outside a test network namespace")
	}
	ifaces, err := lan.LAN("") // lan0 must win on its own: this tests the choice too
	if err != nil {
		return err
	}
	if ifaces[0].Name != "lan0" {
		return fmt.Errorf("picked %s, not the pretend LAN's lan0", ifaces[0].Name)
	}
	k, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		return err
	}
	h, err := NewHost(ctx, HostConfig{Key: k, Ifaces: ifaces})
	if err != nil {
		return err
	}
	defer h.Close()
	echo.Serve(h)
	say("ready", "%s %s %v", h.ID(), ifaces[0].Name, h.Addrs())

	switch mode {
	case "advertise":
		adv := lan.NewMDNSAdvertiser(ifaces[0])
		defer adv.Stop()
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() { // until the test closes stdin
			cmd, arg, _ := strings.Cut(sc.Text(), " ")
			switch cmd {
			case "adv":
				// A fresh server each time: the path a new table takes.
				adv.Stop()
				say("adv", "%s", arg)
				err := adv.Advertise(lan.TableInfo{
					ID: arg, Name: "Table " + arg, Host: "ann", HostPeer: h.ID(),
					Seats: 6, Taken: 1, Preset: "classic", Phase: table.PhaseWaiting, Version: "1",
					Addrs: h.Addrs(),
				})
				if err != nil {
					return err
				}
			case "stop":
				if err := adv.Stop(); err != nil {
					return err
				}
				say("stop", "")
			}
		}
		return nil

	case "browse":
		go func() { // until the test closes stdin
			io.Copy(io.Discard, os.Stdin)
			cancel()
		}()
		b := lan.NewMDNSBrowser(ifaces[0])
		b.OnError = func(err error) {
			if err != nil {
				say("mdnserr", "%v", err)
			}
		}
		dialled := false
		for ts := range b.Browse(ctx) {
			out := []nsTable{}
			for _, t := range ts {
				nt := nsTable{ID: t.ID, Name: t.Name, HostPeer: t.HostPeer.String()}
				for _, a := range t.Addrs {
					nt.Addrs = append(nt.Addrs, a.String())
				}
				out = append(out, nt)
			}
			j, _ := json.Marshal(out)
			say("tables", "%s", j)
			if len(ts) > 0 && !dialled {
				// Once: a table found must be one we can play at.
				dialled = true
				go func(ti lan.TableInfo) {
					dctx, dcancel := context.WithTimeout(ctx, 5*time.Second)
					defer dcancel()
					err := h.Connect(dctx, ti.AddrInfo())
					if err == nil {
						_, err = echo.RoundTrips(dctx, h, ti.HostPeer, 1)
					}
					if err != nil {
						say("echo", "%v", err)
						return
					}
					say("echo", "ok")
				}(ts[0])
			}
		}
		return nil
	}
	return errors.New("unknown helper mode " + mode)
}
