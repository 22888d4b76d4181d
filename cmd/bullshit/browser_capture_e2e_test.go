//go:build linux

package main

// The host's side of a browser call, from a packet capture in the host's
// namespace: when the move reached the host's socket and when the host's
// first message back left it, against the page's own stamps (wireJS), so
// that the worst calls can be told apart: the time before the host had
// the move, at the host, or after the host wrote its answer.

import (
	"bufio"
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// packet is one TCP segment with a payload to or from the host, as
// tcpdump saw it in the host's namespace.
type packet struct {
	at     float64 // ms since the epoch
	phone  string  // the other end's address: a phone's, or the peer's
	toHost bool
	n      int // payload bytes
}

// tcpdump runs tcpdump in host i on its web port, and on its traffic with
// peer (a terminal player's address; "" for none), and returns a function
// that stops it and reads its packets.
func (l *lan) tcpdump(t *testing.T, i int, port int, peer, path string) (stop func() []packet) {
	t.Helper()
	if _, err := exec.LookPath("tcpdump"); err != nil {
		t.Logf("no tcpdump (apt-get install tcpdump): the calls are not split at the host's socket")
		return func() []packet { return nil }
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("ip", "netns", "exec", l.ns(i), "tcpdump", "-i", "any", "-n", "-tt", "-l",
		"tcp and (port "+strconv.Itoa(port)+" or host "+cmp.Or(peer, "0.0.0.0")+")")
	cmd.Stdout = f
	if err := cmd.Start(); err != nil {
		f.Close()
		t.Fatalf("tcpdump in %s: %v", l.ns(i), err)
	}
	time.Sleep(500 * time.Millisecond) // tcpdump opens its socket
	done := false
	stopIt := func() {
		if !done {
			done = true
			cmd.Process.Signal(os.Interrupt)
			cmd.Wait()
			f.Close()
		}
	}
	t.Cleanup(stopIt)
	return func() []packet {
		stopIt()
		return readTcpdump(t, path, port, "10.77.1."+strconv.Itoa(i))
	}
}

// readTcpdump reads tcpdump's lines: "1796138581.293843 lo In IP
// 10.77.1.2.56864 > 10.77.1.1.8080: Flags [P.], …, length 5".
func readTcpdump(t *testing.T, path string, port int, host string) []packet {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ps []packet
	hostEnd := "." + strconv.Itoa(port)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 7 || fs[3] != "IP" {
			continue
		}
		sec, err := strconv.ParseFloat(fs[0], 64)
		if err != nil {
			continue
		}
		src, dst := fs[4], strings.TrimSuffix(fs[6], ":")
		n := 0
		for k := 7; k+1 < len(fs); k++ {
			if fs[k] == "length" {
				n, _ = strconv.Atoi(strings.TrimSuffix(fs[k+1], ":")) // port 8080 is "http-alt": ": HTTP" may follow
				break
			}
		}
		if n == 0 {
			continue
		}
		p := packet{at: sec * 1000, n: n}
		switch {
		case strings.HasSuffix(dst, hostEnd):
			p.toHost, p.phone = true, src[:strings.LastIndexByte(src, '.')]
		case strings.HasSuffix(src, hostEnd):
			p.phone = dst[:strings.LastIndexByte(dst, '.')]
		case strings.HasPrefix(dst, host+"."):
			p.toHost, p.phone = true, src[:strings.LastIndexByte(src, '.')]
		case strings.HasPrefix(src, host+"."):
			p.phone = dst[:strings.LastIndexByte(dst, '.')]
		default:
			continue
		}
		ps = append(ps, p)
	}
	return ps
}

// answers is, for each browser call hostParts found, how much later than
// the phone's first segment back the host's first large segment (≥ 500
// bytes: an update, not a heartbeat) to the terminal player at term left,
// in ms: when the host sent the same verdict to a terminal. Negative:
// the terminal's went first.
func answers(ts []pageTime, ws []wireStamp, ps []packet, origin float64, addr, term string) (lag []float64) {
	for _, c := range hostCalls(ts, ws, ps, origin, addr) {
		for _, k := range ps {
			if k.phone == term && !k.toHost && k.n >= 500 && k.at >= c.arrived && k.at < c.arrived+500 {
				lag = append(lag, k.at-c.left)
				break
			}
		}
	}
	return lag
}

// firstThen is the time of the first stamp a among ws and of the first
// stamp b after it, -1 for one not there.
func firstThen(ws []wireStamp, a, b string) (at, bt float64) {
	at, bt = -1, -1
	for _, w := range ws {
		if w.Ev == a && at < 0 {
			at = w.T
		} else if w.Ev == b && at >= 0 && bt < 0 {
			bt = w.T
		}
	}
	return at, bt
}

// hostCall is one browser call's times, in ms since the epoch: the tap,
// its move handed to the socket, the move at the host's socket, the
// host's first segment back, the page's event for it, the verdict drawn.
type hostCall struct{ tap, out, arrived, left, in, drawn float64 }

// eachCall calls f for each call the page drew a verdict for, with the
// wire stamps made between the call and its verdict, in order.
func eachCall(ts []pageTime, ws []wireStamp, f func(call, verdict pageTime, between []wireStamp)) {
	for i, p := range ts {
		if p.Ev != "call" || i+1 >= len(ts) || ts[i+1].Ev != "verdict" {
			continue
		}
		var between []wireStamp
		for _, w := range ws {
			if w.T >= p.T && w.T <= ts[i+1].T {
				between = append(between, w)
			}
		}
		f(p, ts[i+1], between)
	}
}

func hostCalls(ts []pageTime, ws []wireStamp, ps []packet, origin float64, addr string) (cs []hostCall) {
	eachCall(ts, ws, func(p, verdict pageTime, between []wireStamp) {
		out, in := firstThen(between, "out", "in")
		if in < 0 {
			return
		}
		c := hostCall{tap: origin + p.T, out: origin + out, in: origin + in, drawn: origin + verdict.T, arrived: -1, left: -1}
		for _, k := range ps {
			if k.phone != addr || k.at < c.out-1 || k.at > c.in+1 {
				continue
			}
			if k.toHost && c.arrived < 0 {
				c.arrived = k.at
			} else if !k.toHost && c.arrived >= 0 && c.left < 0 {
				c.left = k.at
			}
		}
		if c.arrived >= 0 && c.left >= 0 {
			cs = append(cs, c)
		}
	})
	return cs
}

// hostParts splits each browser call's time from its move handed to the
// socket to the first message back, at the host's socket: page → the
// move at the host's socket; → the host's first segment back; → the
// page's message event. origin is the page's performance.timeOrigin, addr
// the phone's address. It returns each call in hostPart's parts, in ms,
// and the whole call (tap → verdict drawn) last.
func hostParts(ts []pageTime, ws []wireStamp, ps []packet, origin float64, addr string) (calls [][6]float64) {
	for _, c := range hostCalls(ts, ws, ps, origin, addr) {
		calls = append(calls, [6]float64{c.out - c.tap, c.arrived - c.out, c.left - c.arrived, c.in - c.left, c.drawn - c.in, c.drawn - c.tap})
	}
	return calls
}

// hostPart names hostParts' parts.
var hostPart = []string{"tap → move handed to the socket", "→ at the host's socket", "→ the host's first segment back",
	"→ the page's message event", "→ the verdict drawn", "whole"}

// tailTable is hostParts' calls: every part's median over all of them,
// then each call of the slowest tenth (at least one) by the whole call,
// then every call, as FIGURE text.
func tailTable(calls [][6]float64) string {
	if len(calls) == 0 {
		return "no calls"
	}
	sort.Slice(calls, func(a, b int) bool { return calls[a][5] < calls[b][5] })
	var b strings.Builder
	fmt.Fprintf(&b, "%d calls; parts: %s; medians:", len(calls), strings.Join(hostPart, ", "))
	for k := range hostPart {
		v := make([]float64, len(calls))
		for i, c := range calls {
			v[i] = c[k]
		}
		sort.Float64s(v)
		fmt.Fprintf(&b, " %.1f", v[len(v)/2])
	}
	b.WriteString("; slowest tenth:")
	for _, c := range calls[len(calls)-max(1, len(calls)/10):] {
		fmt.Fprintf(&b, " %.1f", c)
	}
	b.WriteString("; every call:")
	for _, c := range calls {
		fmt.Fprintf(&b, " %.1f", c)
	}
	return b.String()
}

// sendFrames is, for each call that got its verdict, how long the frame
// after its move's send took on the page's thread: from its animation
// frame callbacks to the first task after it (wireJS's "raf" and
// "framed"), in ms; a frame whose "framed" came after the verdict was
// drawn is left out (the verdict's own drawing was in it).
func sendFrames(ts []pageTime, ws []wireStamp) (fs []float64) {
	eachCall(ts, ws, func(_, _ pageTime, between []wireStamp) {
		out, raf := -1.0, -1.0
		for _, w := range between {
			switch {
			case w.Ev == "out" && out < 0:
				out = w.T
			case w.Ev == "raf" && out >= 0 && raf == -1:
				raf = w.T
			case w.Ev == "framed" && raf >= 0:
				fs = append(fs, w.T-raf)
				raf = -2 // only the first
			}
		}
	})
	return fs
}
