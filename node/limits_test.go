package node

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"net/netip"
	"strings"
	"testing"
	"time"
)

// A bucket lends its burst, then a token per 1/rate, in the order asked.
func TestBucket(t *testing.T) {
	t0 := time.Unix(1000, 0)
	b := newBucket(10, 5, t0)
	for i := range 5 {
		if d := b.take(1, t0); d != 0 {
			t.Fatalf("take %d of the burst waits %v", i, d)
		}
	}
	if d := b.take(1, t0); d != 100*time.Millisecond {
		t.Fatalf("the first past the burst waits %v, want 100ms", d)
	}
	if d := b.take(1, t0); d != 200*time.Millisecond {
		t.Fatalf("the next waits %v, want 200ms (behind the first)", d)
	}
	// A second later ten tokens came: the debt of 2 is paid, 5 at most kept.
	if d := b.take(1, t0.Add(time.Second)); d != 0 {
		t.Fatalf("after a second: waits %v", d)
	}
	if d := b.take(10, t0.Add(10*time.Second)); d != 500*time.Millisecond {
		t.Fatalf("10 tokens of a full bucket of 5 wait %v, want 500ms", d)
	}
}

// The frame reader waits out its budget before it reads a body, and
// refuses an oversize frame from its length alone.
func TestFrameLimitRead(t *testing.T) {
	var in bytes.Buffer
	frame := func(n int) {
		var p [binary.MaxVarintLen64]byte
		in.Write(p[:binary.PutUvarint(p[:], uint64(n))])
		in.Write(make([]byte, n))
	}
	for range 3 {
		frame(10)
	}
	t0 := time.Unix(1000, 0)
	l := &frameLimit{frames: newBucket(1, 1, t0), bytes: newBucket(1e9, 1e9, t0), now: func() time.Time { return t0 }}
	var slept []time.Duration
	l.sleep = func(d time.Duration) { slept = append(slept, d) }
	r := bufio.NewReader(&in)
	for range 3 {
		if b, err := l.read(r, nil, time.Second); err != nil || len(b) != 10 {
			t.Fatalf("read %d bytes, %v", len(b), err)
		}
	}
	if len(slept) != 2 || slept[0] != time.Second || slept[1] != 2*time.Second {
		t.Fatalf("slept %v, want [1s 2s]", slept)
	}
	// A length over the limit: refused with the body never read.
	var p [binary.MaxVarintLen64]byte
	in.Reset()
	in.Write(p[:binary.PutUvarint(p[:], maxFrame+1)])
	if _, err := l.read(bufio.NewReader(&in), nil, time.Second); !errors.Is(err, errFrameTooBig) {
		t.Fatalf("oversize: %v", err)
	}
	// Spectators share one budget: two of them wait for each other.
	w := &watchers{frames: newBucket(1, 1, t0), bytes: newBucket(1e9, 1e9, t0)}
	var waits []time.Duration
	for range 2 {
		l := &frameLimit{frames: newBucket(100, 100, t0), bytes: newBucket(1e9, 1e9, t0), shared: w,
			now: func() time.Time { return t0 }, sleep: func(d time.Duration) { waits = append(waits, d) }}
		l.wait(10)
	}
	if len(waits) != 1 || waits[0] != time.Second {
		t.Fatalf("the second spectator waited %v, want [1s]", waits)
	}
}

// Join code exchanges are counted per address and for the table, never
// per peer ID, from when they start: a guesser with 150 addresses gets
// CodeTriesPerWindow checked every CodeTableWindow (CodeTriesPerTable a
// minute), one address CodeTriesPerAddr a minute, however many it opens
// at once; a right code or an unanswered exchange gives its place back.
func TestCodeGuard(t *testing.T) {
	now := time.Unix(1000, 0)
	g := newCodeGuard()
	g.now = func() time.Time { return now }
	one := netip.MustParseAddr("192.168.1.50")
	// Opened together, before any answer: only CodeTriesPerAddr start.
	for i := range CodeTriesPerAddr {
		if why := g.begin(one); why != "" {
			t.Fatalf("exchange %d blocked: %s", i, why)
		}
	}
	if why := g.begin(one); !strings.Contains(why, "from your address") {
		t.Fatalf("exchange %d from one address, the others running: %q", CodeTriesPerAddr+1, why)
	}
	// One right, one unanswered: their places come back; three wrong.
	g.end(one, false)
	g.end(one, false)
	for range 3 {
		g.end(one, true)
	}
	for range 2 {
		if why := g.begin(one); why != "" {
			t.Fatalf("a place given back: %s", why)
		}
	}
	if why := g.begin(one); !strings.Contains(why, "from your address") {
		t.Fatalf("three wrong and two running: %q", why)
	}
	g.end(one, true)
	g.end(one, true)
	// Other addresses go on, all at once, until the table's count is spent.
	started := CodeTriesPerAddr
	var running []netip.Addr
	for i := 0; i < 150; i++ {
		a := netip.AddrFrom4([4]byte{192, 168, 2, byte(i)})
		if g.begin(a) != "" {
			break
		}
		running = append(running, a)
		started++
	}
	if started != CodeTriesPerWindow {
		t.Fatalf("150 addresses started %d exchanges, want %d in all", started, CodeTriesPerWindow)
	}
	if why := g.begin(netip.MustParseAddr("192.168.3.1")); !strings.Contains(why, "for this table") {
		t.Fatalf("a fresh address once the table's count is spent: %q", why)
	}
	for _, a := range running {
		g.end(a, true)
	}
	// A span on, the table's count is free again; the address's minute not.
	now = now.Add(CodeTableWindow)
	if why := g.begin(netip.MustParseAddr("192.168.3.1")); why != "" {
		t.Fatalf("a span later: %s", why)
	}
	g.end(netip.MustParseAddr("192.168.3.1"), false)
	if why := g.begin(one); !strings.Contains(why, "from your address") {
		t.Fatalf("one address within its minute: %q", why)
	}
	// A minute on, every count is gone.
	now = now.Add(codeWindow)
	if why := g.begin(one); why != "" {
		t.Fatalf("a minute later: %s", why)
	}
	g.end(one, false)
	if len(g.byAddr) != 0 || g.table.running != 0 {
		t.Fatalf("%d addresses still kept, %d running", len(g.byAddr), g.table.running)
	}
}
