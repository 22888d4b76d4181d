package guard

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/protocol"
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
	l := &FrameLimit{frames: newBucket(1, 1, t0), bytes: newBucket(1e9, 1e9, t0), now: func() time.Time { return t0 }}
	var slept []time.Duration
	l.sleep = func(d time.Duration) { slept = append(slept, d) }
	r := bufio.NewReader(&in)
	for range 3 {
		if b, err := l.ReadFrame(r, nil, time.Second); err != nil || len(b) != 10 {
			t.Fatalf("read %d bytes, %v", len(b), err)
		}
	}
	if len(slept) != 2 || slept[0] != time.Second || slept[1] != 2*time.Second {
		t.Fatalf("slept %v, want [1s 2s]", slept)
	}
	// A length over the limit: refused with the body never read.
	var p [binary.MaxVarintLen64]byte
	in.Reset()
	in.Write(p[:binary.PutUvarint(p[:], protocol.MaxSize+1)])
	if _, err := l.ReadFrame(bufio.NewReader(&in), nil, time.Second); !errors.Is(err, gamewire.ErrFrameTooBig) {
		t.Fatalf("oversize: %v", err)
	}
	// Spectators share one budget: two of them wait for each other.
	w := &Watchers{frames: newBucket(1, 1, t0), bytes: newBucket(1e9, 1e9, t0)}
	var waits []time.Duration
	for range 2 {
		l := &FrameLimit{frames: newBucket(100, 100, t0), bytes: newBucket(1e9, 1e9, t0), Shared: w,
			now: func() time.Time { return t0 }, sleep: func(d time.Duration) { waits = append(waits, d) }}
		l.wait(10)
	}
	if len(waits) != 1 || waits[0] != time.Second {
		t.Fatalf("the second spectator waited %v, want [1s]", waits)
	}
}

// Join codes are counted per address and for the table, never per peer
// ID, when they are checked: a guesser with 150 addresses gets
// CodeTriesPerWindow checked every CodeTableWindow (CodeTriesPerTable a
// minute), one address CodeTriesPerAddr a minute, however many exchanges
// it has open; a hello takes no place, and a right code gives its back.
func TestCodeGuard(t *testing.T) {
	now := time.Unix(1000, 0)
	g := NewCodeGuard()
	g.now = func() time.Time { return now }
	one := netip.MustParseAddr("192.168.1.50")
	// Many hellos, none answered yet: each may start, none takes a place.
	for i := range 3 * CodeTriesPerAddr {
		if why := g.Blocked(one); why != "" {
			t.Fatalf("hello %d blocked: %s", i, why)
		}
	}
	// Their answers, all at once: only CodeTriesPerAddr are checked.
	var at []time.Time
	for i := range CodeTriesPerAddr {
		a, why := g.Take(one)
		if why != "" {
			t.Fatalf("answer %d refused: %s", i, why)
		}
		at = append(at, a)
	}
	if _, why := g.Take(one); !strings.Contains(why, "from your address") {
		t.Fatalf("answer %d from one address: %q", CodeTriesPerAddr+1, why)
	}
	if why := g.Blocked(one); !strings.Contains(why, "from your address") {
		t.Fatalf("a hello from a spent address: %q", why)
	}
	// A right code gives its place back.
	g.Give(one, at[0])
	if _, why := g.Take(one); why != "" {
		t.Fatalf("a place given back: %s", why)
	}
	// Other addresses go on until the table's count is spent.
	checked := CodeTriesPerAddr
	for i := 0; i < 150; i++ {
		if _, why := g.Take(netip.AddrFrom4([4]byte{192, 168, 2, byte(i)})); why != "" {
			break
		}
		checked++
	}
	if checked != CodeTriesPerWindow {
		t.Fatalf("150 addresses had %d codes checked, want %d in all", checked, CodeTriesPerWindow)
	}
	fresh := netip.MustParseAddr("192.168.3.1")
	if why := g.Blocked(fresh); !strings.Contains(why, "for this table") {
		t.Fatalf("a fresh address once the table's count is spent: %q", why)
	}
	// A span on, the table's count is free again; the address's minute not.
	now = now.Add(CodeTableWindow)
	if _, why := g.Take(fresh); why != "" {
		t.Fatalf("a span later: %s", why)
	}
	if why := g.Blocked(one); !strings.Contains(why, "from your address") {
		t.Fatalf("one address within its minute: %q", why)
	}
	// A minute on, every count is gone.
	now = now.Add(codeWindow)
	if why := g.Blocked(one); why != "" {
		t.Fatalf("a minute later: %s", why)
	}
	if len(g.byAddr) != 0 || len(g.table) != 0 {
		t.Fatalf("%d addresses, %d codes still kept", len(g.byAddr), len(g.table))
	}
}
