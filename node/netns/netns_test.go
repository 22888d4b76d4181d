package netns

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestLAN makes a pretend LAN of two hosts and checks what the namespace
// tests lean on: each host has its address on lan0 and the multicast route,
// one reaches the other over TCP, a cut link stops that and a heal brings it
// back (with the route), packet loss comes and goes, and Down leaves no
// namespace of the prefix behind.
func TestLAN(t *testing.T) {
	if err := Usable(); err != nil {
		t.Skipf("%v (CI runs this as root, with iproute2)", err)
	}
	prefix := NewPrefix("t")
	t.Cleanup(func() { Down(prefix) })
	l, err := Up(2, prefix)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 2; i++ {
		out, err := l.Command(i, "ip", "-4", "addr", "show", "dev", "lan0").CombinedOutput()
		if err != nil || !strings.Contains(string(out), l.Addr(i)+"/24") {
			t.Fatalf("host %d: lan0 has no %s: %v\n%s", i, l.Addr(i), err, out)
		}
		if !hasMulticastRoute(t, l, i) {
			t.Fatalf("host %d: no 224.0.0.0/4 route on lan0", i)
		}
	}

	// Host 2 listens and host 1 dials it over the bridge (this test binary
	// again, inside each namespace: TestHelper).
	if got := dialFrom(t, l, 1, listenIn(t, l, 2)); got != "hello" {
		t.Fatalf("host 1 dialing host 2 read %q, not hello", got)
	}

	// A stranger speaking from many addresses.
	extra := []string{"10.77.1.100", "10.77.1.101", "10.77.1.102"}
	if err := l.AddAddrs(2, extra); err != nil {
		t.Fatal(err)
	}
	out, err := l.Command(2, "ip", "-4", "addr", "show", "dev", "lan0").CombinedOutput()
	for _, a := range extra {
		if err != nil || !strings.Contains(string(out), a+"/24") {
			t.Fatalf("host 2: lan0 has no %s after AddAddrs: %v\n%s", a, err, out)
		}
	}

	if err := l.Cut(2); err != nil {
		t.Fatal(err)
	}
	if up := linkUp(t, l, 2); up {
		t.Fatal("host 2's lan0 is still up after Cut")
	}
	if got := dialFrom(t, l, 1, l.Addr(2)+":7"); got != "" {
		t.Fatalf("host 1 reached host 2 through a cut link: %q", got)
	}
	if err := l.Heal(2); err != nil {
		t.Fatal(err)
	}
	if !linkUp(t, l, 2) || !hasMulticastRoute(t, l, 2) {
		t.Fatal("host 2's lan0 or its multicast route is not back after Heal")
	}
	if got := dialFrom(t, l, 1, listenIn(t, l, 2)); got != "hello" {
		t.Fatalf("after Heal, host 1 dialing host 2 read %q, not hello", got)
	}

	if _, err := exec.LookPath("nft"); err == nil {
		if err := l.Lossy(1, 10); err != nil {
			t.Fatal(err)
		}
		out, err := l.Command(1, "nft", "list", "table", "inet", "bsloss").CombinedOutput()
		if err != nil || !strings.Contains(string(out), "drop") {
			t.Fatalf("no loss rule after Lossy: %v\n%s", err, out)
		}
		if err := l.Clean(1); err != nil {
			t.Fatal(err)
		}
		if err := l.Clean(1); err != nil {
			t.Fatalf("a second Clean should do nothing: %v", err)
		}
	}

	if err := l.Down(); err != nil {
		t.Fatal(err)
	}
	list, _ := exec.Command("ip", "netns", "list").Output()
	if strings.Contains(string(list), prefix) {
		t.Fatalf("namespaces of %s left after Down:\n%s", prefix, list)
	}
}

// TestTwoLANsApart checks what lets namespace tests run at once (the
// end-to-end tests' t.Parallel): two LANs brought up at the same moment get
// namespaces of their own, each made whole (the same interface names and
// addresses, each inside its own namespaces), and neither a TCP listener
// nor a multicast datagram (mDNS's kind) of one is reachable from the other.
func TestTwoLANsApart(t *testing.T) {
	if err := Usable(); err != nil {
		t.Skipf("%v (CI runs this as root, with iproute2)", err)
	}
	var lans [2]*LAN
	var errs [2]error
	prefixes := [2]string{NewPrefix("t"), NewPrefix("t")}
	if prefixes[0] == prefixes[1] {
		t.Fatalf("NewPrefix gave %s twice", prefixes[0])
	}
	var wg sync.WaitGroup
	for k := range lans {
		t.Cleanup(func() { Down(prefixes[k]) })
		wg.Add(1)
		go func() {
			defer wg.Done()
			lans[k], errs[k] = Up(3, prefixes[k])
		}()
	}
	wg.Wait()
	for k, err := range errs {
		if err != nil {
			t.Fatalf("LAN %d (%s), up beside another: %v", k, prefixes[k], err)
		}
	}
	a, b := lans[0], lans[1]
	list, _ := exec.Command("ip", "netns", "list").Output()
	for _, l := range lans {
		for _, ns := range []string{l.sw(), l.NS(1), l.NS(2), l.NS(3)} {
			if !strings.Contains(string(list), ns) {
				t.Fatalf("no namespace %s:\n%s", ns, list)
			}
		}
		for i := 1; i <= 3; i++ {
			out, err := l.Command(i, "ip", "-4", "addr", "show", "dev", "lan0").CombinedOutput()
			if err != nil || !strings.Contains(string(out), l.Addr(i)+"/24") || !hasMulticastRoute(t, l, i) {
				t.Fatalf("%s: lan0 without %s or the multicast route: %v\n%s", l.NS(i), l.Addr(i), err, out)
			}
		}
	}
	// The veths live only in the LANs' namespaces: none in this one.
	out, err := exec.Command("ip", "-o", "link", "show").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) > 1 && (strings.HasPrefix(f[1], "lan0") || strings.HasPrefix(f[1], "port")) {
			t.Errorf("an interface of a LAN in the test's own namespace: %s", line)
		}
	}

	// TCP: host 2 of a listens; a's host 1 reaches it, b's host 1 dialing
	// the same address reaches b's own host 2, where nothing listens.
	addr := listenIn(t, a, 2)
	if got := dialFrom(t, b, 1, addr); got != "" {
		t.Fatalf("LAN b reached LAN a's listener at %s: %q", addr, got)
	}
	if got := dialFrom(t, a, 1, addr); got != "hello" {
		t.Fatalf("host 1 of LAN a dialing its host 2 read %q, not hello", got)
	}

	// Multicast: a datagram from a's host 1 reaches a's host 3 and not b's.
	const group = "224.0.0.251:5354"
	got := make([]chan string, 2)
	for k, l := range lans {
		r := startHelper(t, l, 3, "mlisten "+group)
		if line, err := r.ReadString('\n'); err != nil || line != "ready\n" {
			t.Fatalf("multicast listener in LAN %d: %q, %v", k, line, err)
		}
		got[k] = make(chan string, 1)
		go func() {
			b, _ := io.ReadAll(r)
			s, _, _ := strings.Cut(string(b), "PASS")
			got[k] <- strings.TrimSpace(s)
		}()
	}
	if out, err := helper(a, 1, "msend "+group+" from-a").CombinedOutput(); err != nil {
		t.Fatalf("multicast sender in LAN a: %v\n%s", err, out)
	}
	if s := <-got[0]; s != "from-a" {
		t.Errorf("LAN a's host 3 got %q of its own LAN's multicast, not from-a", s)
	}
	if s := <-got[1]; s != "" {
		t.Errorf("LAN b's host 3 got LAN a's multicast: %q", s)
	}
}

// TestUpRefuses checks the arguments Up refuses before it touches anything.
func TestUpRefuses(t *testing.T) {
	if err := Usable(); err != nil {
		t.Skip(err)
	}
	for _, c := range []struct {
		n      int
		prefix string
	}{{0, "bsok"}, {251, "bsok"}, {2, "bs1"}, {2, "BS"}, {2, "bs-x"}, {2, "bsaverylongprefix"}} {
		if _, err := Up(c.n, c.prefix); err == nil {
			Down(c.prefix)
			t.Errorf("Up(%d, %q) accepted", c.n, c.prefix)
		}
	}
}

func linkUp(t *testing.T, l *LAN, i int) bool {
	t.Helper()
	out, err := l.Command(i, "ip", "link", "show", "dev", "lan0").CombinedOutput()
	if err != nil {
		t.Fatalf("ip link show: %v\n%s", err, out)
	}
	return strings.Contains(string(out), "state UP") || strings.Contains(string(out), ",UP")
}

func hasMulticastRoute(t *testing.T, l *LAN, i int) bool {
	t.Helper()
	out, err := l.Command(i, "ip", "route", "show", "224.0.0.0/4").CombinedOutput()
	if err != nil {
		t.Fatalf("ip route show: %v\n%s", err, out)
	}
	return strings.Contains(string(out), "dev lan0")
}

const helperEnv = "BS_NETNS_TEST_HELPER"

// TestHelper is not a test: run by TestLAN inside a namespace, it listens
// ("listen ADDR": prints the address, answers one connection with hello)
// or dials ("dial ADDR": prints what it read, nothing if it could not).
func TestHelper(t *testing.T) {
	mode, addr, ok := strings.Cut(os.Getenv(helperEnv), " ")
	if !ok {
		t.Skip("helper of TestLAN, run inside a namespace")
	}
	switch mode {
	case "listen":
		ln, err := net.Listen("tcp", addr+":0")
		if err != nil {
			t.Fatal(err)
		}
		fmt.Println(ln.Addr())
		ln.(*net.TCPListener).SetDeadline(time.Now().Add(30 * time.Second))
		c, err := ln.Accept()
		if err != nil {
			t.Fatal(err)
		}
		c.Write([]byte("hello"))
		c.Close()
	case "mlisten":
		// listens on lan0 for one multicast datagram to addr: prints
		// "ready", then what it got (nothing after 3 s)
		ifi, err := net.InterfaceByName("lan0")
		if err != nil {
			t.Fatal(err)
		}
		ua, err := net.ResolveUDPAddr("udp4", addr)
		if err != nil {
			t.Fatal(err)
		}
		c, err := net.ListenMulticastUDP("udp4", ifi, ua)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Println("ready")
		c.SetReadDeadline(time.Now().Add(3 * time.Second))
		b := make([]byte, 100)
		if n, _, err := c.ReadFrom(b); err == nil {
			os.Stdout.Write(b[:n])
		}
	case "msend":
		// sends what it is given after "msend ADDR " to addr, five times
		// 100 ms apart (one datagram may meet a listener not yet joined)
		addr, msg, _ := strings.Cut(addr, " ")
		c, err := net.Dial("udp4", addr)
		if err != nil {
			t.Fatal(err)
		}
		for range 5 {
			c.Write([]byte(msg))
			time.Sleep(100 * time.Millisecond)
		}
	case "dial":
		c, err := net.DialTimeout("tcp", addr, 2*time.Second)
		if err != nil {
			return
		}
		c.SetDeadline(time.Now().Add(5 * time.Second))
		b, _ := io.ReadAll(c)
		os.Stdout.Write(b)
	}
}

func helper(l *LAN, i int, arg string) *exec.Cmd {
	exe, _ := os.Executable()
	c := l.Command(i, exe, "-test.run=^TestHelper$")
	c.Env = append(os.Environ(), helperEnv+"="+arg)
	return c
}

// startHelper starts the helper doing arg in host i, killed when the test
// ends, and is what it writes.
func startHelper(t *testing.T, l *LAN, i int, arg string) *bufio.Reader {
	t.Helper()
	c := helper(l, i, arg)
	out, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Process.Kill(); c.Wait() })
	return bufio.NewReader(out)
}

// listenIn starts a listener in host i and returns its address.
func listenIn(t *testing.T, l *LAN, i int) string {
	t.Helper()
	line, err := startHelper(t, l, i, "listen "+l.Addr(i)).ReadString('\n')
	if err != nil {
		t.Fatalf("listener in host %d: %v", i, err)
	}
	return strings.TrimSpace(line)
}

// dialFrom dials addr from host i and returns what it read.
func dialFrom(t *testing.T, l *LAN, i int, addr string) string {
	t.Helper()
	out, err := helper(l, i, "dial "+addr).Output()
	if err != nil {
		t.Fatalf("dialer in host %d: %v", i, err)
	}
	got := string(out)
	// the test binary prints PASS (and ok lines) after the helper's output
	got, _, _ = strings.Cut(got, "PASS")
	return strings.TrimSpace(got)
}

// TestNothingOutsideTheRepo keeps the project testing alone, from a clone
// with nothing beside it: no Go file of the module names a path in
// ../shared (the namespace script the tests once ran from there, or
// anything else), as a literal "../shared…" or as the pieces "..",
// "shared" of one filepath.Join.
func TestNothingOutsideTheRepo(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not at %s: %v", root, err)
	}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if n.Kind == token.STRING && strings.Contains(n.Value, ".."+"/shared") {
					t.Errorf("%s: the path %s is outside the repository", fset.Position(n.Pos()), n.Value)
				}
			case *ast.CallExpr:
				var dots, shared bool
				for _, a := range n.Args {
					if lit, ok := a.(*ast.BasicLit); ok {
						dots = dots || lit.Value == `".."`
						shared = shared || lit.Value == `"shared"`
					}
				}
				if dots && shared {
					t.Errorf("%s: a path joined from \"..\" and \"shared\" is outside the repository", fset.Position(n.Pos()))
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
