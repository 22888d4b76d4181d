//go:build linux

package main

// End-to-end tests (issue 8, "Proof under load and faults"): the real
// bullshit binary, built once, run as several processes that find each
// other and play whole games. Most of them run each process on its own
// pretend host, a network namespace on a bridge made by node/netns,
// so mDNS, links going down and packet loss are real and nothing leaves the
// machine; they need root, iproute2 and (for packet loss) nftables, and skip
// without them. The wire-secrecy test runs on loopback and needs nothing.
//
//	sudo go test ./cmd/bullshit/ -run E2E -v -timeout 10m
//	sudo BS_E2E_LOGS=/tmp/e2e go test ./cmd/bullshit/ -run E2EDiscovery -v   # keep every program's output
//
// The tests print their figures (discovery time, game length, latency calm
// and under a flood, refusals by kind) with t.Log; BENCHMARKS.md "End to end"
// is written from them.
//
// Each namespace test makes a LAN of its own (node/netns: namespaces,
// bridge and veths under a prefix of its own; TestTwoLANsApart), so most run
// beside each other (t.Parallel), parallelTests at a time unless -parallel
// says otherwise: their programs mostly wait on the network's timers. The
// tests that measure CPU or latency under a flood (TestE2ERogue,
// TestE2ELockoutFloods, TestE2EBrowserFigures, the bench's), and three that
// once failed beside the others on a loaded machine (TestE2EFirstFrameState,
// TestBrowserPageSheetAndEnd, TestBrowserPageHelpAndRename), call no
// t.Parallel, so they run alone, before the parallel ones start. The
// door's and the web rogue's floods run beside the quiet tests but never
// beside each other (oneFloodAtATime). A parallel test's figures are taken
// beside its neighbours' load: for BENCHMARKS.md's, run with -parallel 1.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/node/flood"
	"github.com/bullshit-game/bullshit/node/latency"
	"github.com/bullshit-game/bullshit/node/netns"
)

// bsBin is the bullshit binary, built on first use into bsDir.
var (
	bsDir      string
	bsOnce     sync.Once
	bsBin      string
	bsBuildErr error
)

func TestMain(m *testing.M) {
	// The rogue peer is this test binary again, started inside a namespace.
	if mode := os.Getenv(rogueEnv); mode != "" {
		os.Exit(rogueMain(mode))
	}
	// The host of the bench's floods is this test binary again, too, and
	// so is the host whose CPU per call round the bench reads.
	if os.Getenv(flood.HostEnv) != "" {
		if err := flood.ServeLines(context.Background(), os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if os.Getenv(latency.HostEnv) != "" {
		if err := latency.ServeHost(context.Background(), os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", strconv.Itoa(parallelTests))
	}
	dir, err := os.MkdirTemp("", "bullshit-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bsDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	// A program the tests ran writes only where it was told: a game saved
	// in the working directory (this package's folder) is a program that
	// saved without --save.
	if strays, _ := filepath.Glob("game-*.json"); len(strays) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: %d games saved in the working directory by a program not asked to save (%s): removed\n", len(strays), strays[0])
		for _, f := range strays {
			os.Remove(f)
		}
		code = 1
	}
	os.Exit(code)
}

// parallelTests is how many parallel tests run at once when -parallel
// doesn't say (go test's own default is the number of cores, 2 on CI's
// machine, where four namespace tests fit).
const parallelTests = 4

// floods is held by a parallel test whose stranger floods the host with
// thousands of connections or frames: two at once would take each other's
// CPU, and what they count (a phone's tries under the flood, the attack's
// reports before the game ends) leans on the host having its share.
var floods = make(chan struct{}, 1)

// oneFloodAtATime waits until no other flood runs and holds floods until
// the test and its cleanups (its programs killed, its LAN down) are done.
func oneFloodAtATime(t *testing.T) {
	floods <- struct{}{}
	t.Cleanup(func() { <-floods })
}

// bullshitBin builds cmd/bullshit once per test binary run (not at all when no
// end-to-end test runs, so `go test -run Verify` stays quick).
func bullshitBin(t *testing.T) string {
	t.Helper()
	bsOnce.Do(func() {
		goTool, err := exec.LookPath("go")
		if err != nil {
			goTool = "go" // the error names what is missing
		}
		bsBin = filepath.Join(bsDir, "bullshit")
		cmd := exec.Command(goTool, "build", "-o", bsBin, ".")
		out, err := cmd.CombinedOutput()
		if err != nil {
			bsBuildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if bsBuildErr != nil {
		t.Fatal(bsBuildErr)
	}
	return bsBin
}

// fast are the host's settings that make a game take seconds: bots think a
// tenth of their usual time, the call window is a second, a reveal 100 ms.
var fast = []string{"--pace", "fast", "--rules", "window=1", "--reveal", "100ms"}

// ---- the pretend LAN ----

// lan is N namespaces on one bridge, PREFIX1…PREFIXN at 10.77.1.1…N
// (node/netns).
type lan struct {
	t      *testing.T
	net    *netns.LAN
	prefix string
	n      int
}

// needNetns skips unless this machine can make namespaces; nft says whether
// the test needs nftables too (packet loss).
func needNetns(t *testing.T, nft bool) {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end namespace test skipped in -short mode")
	}
	check := netns.Usable
	if nft {
		check = netns.UsableLoss
	}
	if err := check(); err != nil {
		t.Skipf("%v (CI runs this as root, with iproute2 and nftables): sudo go test ./cmd/bullshit/ -run E2E", err)
	}
}

// newLAN makes n namespaces with a prefix of the test's own, and takes them
// down when the test ends (after its programs are killed: cleanups run last
// registered first).
func newLAN(t *testing.T, n int, nft bool) *lan {
	t.Helper()
	needNetns(t, nft)
	prefix := netns.NewPrefix("e")
	t.Cleanup(func() {
		if err := netns.Down(prefix); err != nil {
			t.Logf("namespaces %s down: %v", prefix, err)
		}
	})
	net, err := netns.Up(n, prefix)
	if err != nil {
		t.Fatalf("pretend LAN of %d: %v", n, err)
	}
	return &lan{t: t, net: net, prefix: prefix, n: n}
}

// sh changes a host's link, in the words netns.sh used: "cut I", "heal I",
// "lossy I PCT", "clean I"; it fails the test if that fails.
func (l *lan) sh(args ...string) {
	l.t.Helper()
	num := func(k int) int {
		if k >= len(args) {
			l.t.Fatalf("lan %s: missing argument %d", strings.Join(args, " "), k)
		}
		v, err := strconv.Atoi(args[k])
		if err != nil {
			l.t.Fatalf("lan %s: %v", strings.Join(args, " "), err)
		}
		return v
	}
	var err error
	switch args[0] {
	case "cut":
		err = l.net.Cut(num(1))
	case "heal":
		err = l.net.Heal(num(1))
	case "lossy":
		err = l.net.Lossy(num(1), num(2))
	case "clean":
		err = l.net.Clean(num(1))
	default:
		l.t.Fatalf("lan: no such change %q", args[0])
	}
	if err != nil {
		l.t.Fatalf("lan %s: %v", strings.Join(args, " "), err)
	}
}

// strangerAddrs are n addresses for a stranger on the pretend LAN,
// 10.77.1.100 up (the hosts are 10.77.1.1 up), and addAddrs gives them to
// host i.
func strangerAddrs(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("10.77.1.%d", 100+i)
	}
	return out
}

func (l *lan) addAddrs(i int, addrs []string) {
	l.t.Helper()
	if err := l.net.AddAddrs(i, addrs); err != nil {
		l.t.Fatalf("adding the stranger's %d addresses: %v", len(addrs), err)
	}
}

// addrsFromEnv reads the addresses a test handed a rogue in $name,
// comma-separated.
func addrsFromEnv(name string) ([]net.IP, error) {
	var from []net.IP
	for _, s := range strings.Split(os.Getenv(name), ",") {
		ip := net.ParseIP(s)
		if ip == nil {
			return nil, fmt.Errorf("%s: %q is no address", name, s)
		}
		from = append(from, ip)
	}
	return from, nil
}

// honestBin is the binary the honest programs run: $BS_E2E_HONEST_BIN (an
// older build, to show a test fails on it), else this tree's.
func honestBin(t *testing.T) string {
	if bin := os.Getenv(honestBinEnv); bin != "" {
		return bin
	}
	return bullshitBin(t)
}

func (l *lan) ns(i int) string { return l.prefix + strconv.Itoa(i) }

// startHost starts the host of table name on machine 1, its files under
// dir/host, for players and bots (and more of hostArgs' flags), and waits
// for its table line.
func (l *lan) startHost(dir, name string, players, bots int, more ...string) (*proc, outLine) {
	l.t.Helper()
	host := l.start(1, "host", hostArgs(filepath.Join(dir, "host"), name, players, bots, more...)...)
	return host, host.waitFor(20*time.Second, "the table line", isType("table"))
}

// start runs bullshit inside host i.
func (l *lan) start(i int, name string, args ...string) *proc {
	l.t.Helper()
	return startProc(l.t, name, nil, "ip", append([]string{"netns", "exec", l.ns(i), bullshitBin(l.t)}, args...)...)
}

// startRogue runs this test binary as the rogue peer inside host i.
func (l *lan) startRogue(i int, name string, env ...string) *proc {
	l.t.Helper()
	exe, err := os.Executable()
	if err != nil {
		l.t.Fatal(err)
	}
	return startProc(l.t, name, env, "ip", "netns", "exec", l.ns(i), exe)
}

// ---- programs and their output ----

// proc is one program the test started, and the lines it printed, each
// with the time it arrived.
type proc struct {
	t       *testing.T
	name    string
	cmd     *exec.Cmd
	started time.Time

	mu     sync.Mutex
	lines  []outLine
	more   chan struct{} // closed (and replaced) when a line comes or the program ends
	ended  bool
	err    error
	stderr bytes.Buffer
}

// outLine is a line of output: JSON (v) or not (raw only).
type outLine struct {
	at  time.Time
	raw string
	v   map[string]any
}

func (o outLine) typ() string         { s, _ := o.v["type"].(string); return s }
func (o outLine) str(k string) string { s, _ := o.v[k].(string); return s }
func (o outLine) num(k string) int {
	f, ok := o.v[k].(float64)
	if !ok {
		return -1
	}
	return int(f)
}

type lockedWriter struct {
	mu *sync.Mutex
	b  *bytes.Buffer
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func startProc(t *testing.T, name string, env []string, prog string, args ...string) *proc {
	t.Helper()
	p := &proc{t: t, name: name, more: make(chan struct{})}
	p.cmd = exec.Command(prog, args...)
	p.cmd.Env = append(os.Environ(), env...)
	// ip netns exec execs the program in place: it dies with the test,
	// whatever happens to the test.
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	p.cmd.Stderr = lockedWriter{&p.mu, &p.stderr}
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p.started = time.Now()
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), 4<<20)
		for sc.Scan() {
			l := outLine{at: time.Now(), raw: sc.Text()}
			if strings.HasPrefix(l.raw, "{") {
				json.Unmarshal([]byte(l.raw), &l.v)
			}
			p.mu.Lock()
			p.lines = append(p.lines, l)
			close(p.more)
			p.more = make(chan struct{})
			p.mu.Unlock()
		}
		err := p.cmd.Wait()
		p.mu.Lock()
		p.ended, p.err = true, err
		close(p.more)
		p.more = make(chan struct{})
		p.mu.Unlock()
	}()
	t.Cleanup(func() {
		p.kill()
		p.waitEnd(5 * time.Second)
		if dir := os.Getenv("BS_E2E_LOGS"); dir != "" {
			os.MkdirAll(dir, 0o755)
			base := filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "_")+"-"+name)
			var b strings.Builder
			for _, l := range p.snapshot() {
				fmt.Fprintf(&b, "%s %s\n", l.at.Format("15:04:05.000"), l.raw)
			}
			os.WriteFile(base+".out", []byte(b.String()), 0o644)
			p.mu.Lock()
			os.WriteFile(base+".err", p.stderr.Bytes(), 0o644)
			p.mu.Unlock()
		}
		if t.Failed() {
			ls := p.snapshot()
			var b strings.Builder
			for _, l := range ls[max(0, len(ls)-12):] {
				fmt.Fprintf(&b, "  %s %s\n", l.at.Format("15:04:05.000"), clip(l.raw, 300))
			}
			p.mu.Lock()
			stderr := p.stderr.String()
			p.mu.Unlock()
			t.Logf("%s (%d lines, exit %v), last lines:\n%s  stderr: %s", name, len(ls), p.err, b.String(), clip(stderr, 2000))
		}
	})
	return p
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func (p *proc) snapshot() []outLine {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.lines)
}

// kill sends SIGKILL if the program still runs.
func (p *proc) kill() { p.signal(syscall.SIGKILL) }

func (p *proc) signal(sig syscall.Signal) {
	p.mu.Lock()
	ended := p.ended
	p.mu.Unlock()
	if !ended && p.cmd.Process != nil {
		p.cmd.Process.Signal(sig)
	}
}

// endedLines waits up to d for p to end, failing the test if it does
// not, and is the lines it printed of type typ.
func (p *proc) endedLines(d time.Duration, typ string) []outLine {
	p.t.Helper()
	if !p.waitEnd(d) {
		p.t.Fatalf("the %s did not end", p.name)
	}
	var ls []outLine
	for _, l := range p.snapshot() {
		if l.typ() == typ {
			ls = append(ls, l)
		}
	}
	return ls
}

// waitEnd waits for the program to exit; false on timeout.
func (p *proc) waitEnd(d time.Duration) bool {
	deadline := time.After(d)
	for {
		p.mu.Lock()
		ended, more := p.ended, p.more
		p.mu.Unlock()
		if ended {
			return true
		}
		select {
		case <-more:
		case <-deadline:
			return false
		}
	}
}

// waitFor waits for a line that pred accepts (looking at the lines already
// printed first) and fails the test if none comes in time or the program
// ends first.
func (p *proc) waitFor(d time.Duration, what string, pred func(outLine) bool) outLine {
	p.t.Helper()
	l, err := p.await(d, pred)
	if err != nil {
		p.t.Fatalf("%s: waiting for %s: %v", p.name, what, err)
	}
	return l
}

func (p *proc) await(d time.Duration, pred func(outLine) bool) (outLine, error) {
	l, _, err := p.awaitFrom(0, d, pred)
	return l, err
}

// awaitFrom is await from line from on; it also returns the line's index.
func (p *proc) awaitFrom(from int, d time.Duration, pred func(outLine) bool) (outLine, int, error) {
	deadline := time.After(d)
	seen := from
	for {
		p.mu.Lock()
		lines, ended, more, err := p.lines[min(seen, len(p.lines)):], p.ended, p.more, p.err
		p.mu.Unlock()
		for i, l := range lines {
			if pred(l) {
				return l, seen + i, nil
			}
		}
		seen += len(lines)
		if ended {
			return outLine{}, -1, fmt.Errorf("it ended (%v) first", err)
		}
		select {
		case <-more:
		case <-deadline:
			return outLine{}, -1, fmt.Errorf("none after %v", d)
		}
	}
}

func isType(typ string) func(outLine) bool {
	return func(l outLine) bool { return l.typ() == typ }
}

// find returns the first line pred accepts so far.
func (p *proc) find(pred func(outLine) bool) (outLine, bool) {
	for _, l := range p.snapshot() {
		if pred(l) {
			return l, true
		}
	}
	return outLine{}, false
}

// ---- games ----

// result is a seat's "result" line.
type result struct {
	You        int
	Places     []int
	Left       []int
	Plays      int
	Unfinished bool
	Early      bool // ended by its host before its end: audited as far as it went
	Blind      bool
	Audit      *struct {
		Verified bool
		Problems []string
		Notes    []string
	}
}

// overEvent is the "over" event: every hand and the pile at the end.
type overEvent struct {
	Places []int
	Hands  [][]string
	Pile   []string
}

// seatGame is what one seated program saw of a game.
type seatGame struct {
	p      *proc
	seated int // the seat its "seated" line named (-1 for the host, which sits at 0)
	res    result
	over   overEvent
}

// hostArgs are the arguments of a headless host on a namespace's LAN.
func hostArgs(dir, name string, players, bots int, more ...string) []string {
	a := []string{"host", "--headless", "--json", "--config", dir, "--name", name,
		"--players", strconv.Itoa(players), "--bots", strconv.Itoa(bots), "--wait", "90s"}
	return append(append(a, fast...), more...)
}

// joinArgs are a headless player's, finding the table by name over mDNS.
func joinArgs(dir, table string, more ...string) []string {
	a := []string{"join", "--headless", "--json", "--config", dir, "--table", table, "--pace", "fast", "--wait", "60s"}
	return append(a, more...)
}

// finishGame waits for every program to print its result and exit, then
// checks the game: everyone finished the same game (same places, same
// cards left), every seat's audit verified, every card of the decks is in a
// hand or the pile (R17), and each seat is one of the table's.
func finishGame(t *testing.T, seats, decks int, ps []*proc, wait time.Duration) []seatGame {
	t.Helper()
	var out []seatGame
	deadline := time.Now().Add(wait)
	for _, p := range ps {
		if _, err := p.await(time.Until(deadline), isType("result")); err != nil {
			t.Fatalf("%s printed no result: %v", p.name, err)
		}
		if !p.waitEnd(10 * time.Second) {
			t.Errorf("%s printed its result but did not exit", p.name)
		}
		p.mu.Lock()
		err := p.err
		p.mu.Unlock()
		if err != nil {
			t.Errorf("%s exited with %v", p.name, err)
		}
		sg := seatGame{p: p, seated: -1}
		for _, l := range p.snapshot() {
			switch l.typ() {
			case "seated":
				sg.seated = l.num("seat")
			case "result":
				json.Unmarshal([]byte(l.raw), &sg.res)
			case "over":
				json.Unmarshal([]byte(l.raw), &sg.over)
			}
		}
		out = append(out, sg)
	}
	checkGame(t, seats, decks, out)
	return out
}

func checkGame(t *testing.T, seats, decks int, sgs []seatGame) {
	t.Helper()
	taken := map[int]string{}
	for i, sg := range sgs {
		r := sg.res
		name := sg.p.name
		if r.Unfinished {
			t.Errorf("%s: the game did not finish", name)
		}
		if r.Audit == nil || !r.Audit.Verified {
			t.Errorf("%s (seat %d): audit not verified: %+v", name, r.You, r.Audit)
		}
		if r.You < 0 || r.You >= seats {
			t.Errorf("%s: result for seat %d at a table of %d", name, r.You, seats)
		} else if other, ok := taken[r.You]; ok {
			t.Errorf("%s and %s both ended in seat %d", other, name, r.You)
		}
		taken[r.You] = name
		if sg.seated >= 0 && sg.seated != r.You {
			t.Errorf("%s was seated at %d but its result is for seat %d", name, sg.seated, r.You)
		}
		if len(r.Places) != seats {
			t.Errorf("%s: places %v for %d seats", name, r.Places, seats)
		}
		if i > 0 && (!slices.Equal(r.Places, sgs[0].res.Places) || !slices.Equal(r.Left, sgs[0].res.Left)) {
			t.Errorf("%s ends with places %v, cards left %v; %s with %v, %v", name, r.Places, r.Left,
				sgs[0].p.name, sgs[0].res.Places, sgs[0].res.Left)
		}
		checkCards(t, name, decks, sg.over, r.Left)
	}
}

// checkCards is R17 at the end: the hands and the pile hold every card of
// the decks exactly once per deck, and agree with the cards left.
func checkCards(t *testing.T, name string, decks int, o overEvent, left []int) {
	t.Helper()
	if o.Hands == nil {
		t.Errorf("%s printed no over event", name)
		return
	}
	count := map[string]int{}
	total := len(o.Pile)
	for i, h := range o.Hands {
		total += len(h)
		if i < len(left) && left[i] != len(h) {
			t.Errorf("%s: seat %d has %d cards at the end but %d left in the result", name, i, len(h), left[i])
		}
		for _, c := range h {
			count[c]++
		}
	}
	for _, c := range o.Pile {
		count[c]++
	}
	if total != 52*decks {
		t.Errorf("%s: %d cards in hands and pile at the end, want %d (%d deck(s))", name, total, 52*decks, decks)
	}
	for c, n := range count {
		if n != decks {
			t.Errorf("%s: card %s is there %d times, want %d", name, c, n, decks)
		}
	}
}

// ---- figures ----

func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := int(p*float64(len(s))+0.5) - 1
	return s[min(max(i, 0), len(s)-1)]
}

func fmtMS(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 1, 64) + " ms"
}

// gameLength is from the host's deal to its result line.
func gameLength(host *proc) time.Duration {
	deal, ok1 := host.find(isType("deal"))
	res, ok2 := host.find(isType("result"))
	if !ok1 || !ok2 {
		return 0
	}
	return res.at.Sub(deal.at)
}

// ---- the tests ----

// TestE2EDiscovery: one host and K players, each on its own host of the
// pretend LAN, who find the table by its name over mDNS alone (no address
// is given) and play a whole game with bots in every seat; at 4 processes,
// and at 10 (ten seats play with two decks).
func TestE2EDiscovery(t *testing.T) {
	t.Parallel()
	for _, n := range []int{4, 10} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			t.Parallel()
			l := newLAN(t, n, false)
			dir := t.TempDir()
			name := "e2e-" + l.prefix
			host := l.start(1, "host", hostArgs(filepath.Join(dir, "host"), name, n-1, 0,
				"--journal", filepath.Join(dir, "journal"))...)
			table := host.waitFor(20*time.Second, "the table line", isType("table"))
			var players []*proc
			for i := 2; i <= n; i++ {
				players = append(players, l.start(i, fmt.Sprintf("join%d", i), joinArgs(filepath.Join(dir, strconv.Itoa(i)), name,
					"--capture", filepath.Join(dir, fmt.Sprintf("capture%d", i)))...))
			}
			var found []time.Duration
			for _, p := range players {
				s := p.waitFor(60*time.Second, "a seat", isType("seated"))
				found = append(found, s.at.Sub(p.started))
			}
			decks := 1
			if n >= 7 {
				decks = 2
			}
			finishGame(t, n, decks, append([]*proc{host}, players...), 2*time.Minute)
			for i, p := range players {
				checkCapture(t, p.name, filepath.Join(dir, fmt.Sprintf("capture%d", i+2)), hostPeer(t, table), filepath.Join(dir, "journal"))
			}
			t.Logf("FIGURE discovery n=%d: joiner start to seated over mDNS: median %s, worst %s (%d joiners)",
				n, fmtMS(percentile(found, 0.5)), fmtMS(percentile(found, 1)), len(found))
			t.Logf("FIGURE game n=%d: deal to result at the host: %s", n, fmtMS(gameLength(host)))
		})
	}
}

// hostPeer is the host's peer ID from its table line's address.
func hostPeer(t *testing.T, table outLine) string {
	t.Helper()
	addrs, _ := table.v["addrs"].([]any)
	for _, a := range addrs {
		s, _ := a.(string)
		if _, id, ok := strings.Cut(s, "/p2p/"); ok {
			return id
		}
	}
	t.Fatalf("no /p2p/ address in the host's table line: %s", table.raw)
	return ""
}

// hostAddr is the host's first join address.
func hostAddr(t *testing.T, table outLine) string {
	t.Helper()
	addrs, _ := table.v["addrs"].([]any)
	if len(addrs) == 0 {
		t.Fatalf("no address in the host's table line: %s", table.raw)
	}
	s, _ := addrs[0].(string)
	return s
}
