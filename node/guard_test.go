package node

import (
	"bufio"
	"context"
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"

	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/guard"
	"github.com/bullshit-game/bullshit/node/rogue"
	"github.com/bullshit-game/bullshit/node/table"
	"github.com/bullshit-game/bullshit/protocol"
)

// Join codes are counted per source address and for the table, not per
// peer ID: fresh identities from one address get CodeTriesPerAddr wrong
// codes a minute between them, and however many addresses a guesser has,
// the table takes CodeTriesPerWindow every CodeTableWindow.
func TestNetCodeGuessesCountedPerAddress(t *testing.T) {
	hn, _, _ := hostTable(t, table.Settings{Seats: 3, Code: "tulip-42", Bots: []string{"b"}})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// try joins once with a fresh identity from 127.0.0.ip and says what
	// the host answered.
	try := func(ip int, code string) string {
		t.Helper()
		n := newLoopNodeAt(t, ip)
		defer n.h.Close() // its connection goes with it: an address holds ConnsPerAddr
		r, err := Dial(ctx, n.h, n.key, info(hn), "g", code, false, nil)
		if err == nil {
			r.Close()
			return "seated"
		}
		var ref *gamewire.Refused
		if !errors.As(err, &ref) {
			t.Fatalf("from 127.0.0.%d: %v", ip, err)
		}
		return ref.Msg
	}
	const wrong = "That join code is wrong."
	for i := range guard.CodeTriesPerAddr {
		if got := try(40, "nope"); got != wrong {
			t.Fatalf("guess %d from one address: %q", i+1, got)
		}
	}
	// A fresh identity from the same address changes nothing, even with the
	// right code: the address has had its guesses this minute.
	for _, code := range []string{"nope", "tulip-42"} {
		if got := try(40, code); !strings.Contains(got, "from your address") {
			t.Fatalf("a fresh identity from the same address, code %q: %q", code, got)
		}
	}
	// Another address with the right code joins.
	if got := try(41, "tulip-42"); got != "seated" {
		t.Fatalf("the right code from another address: %q", got)
	}
	// Many addresses: the table's count is spent at CodeTriesPerWindow.
	guesses := guard.CodeTriesPerAddr
	for ip := 42; guesses < guard.CodeTriesPerWindow; ip++ {
		for range guard.CodeTriesPerAddr {
			if got := try(ip, "nope"); got != wrong {
				t.Fatalf("guess %d (from 127.0.0.%d): %q", guesses+1, ip, got)
			}
			if guesses++; guesses == guard.CodeTriesPerWindow {
				break
			}
		}
	}
	for _, code := range []string{"nope", "tulip-42"} {
		if got := try(60, code); !strings.Contains(got, "for this table") {
			t.Fatalf("a fresh address once the table's count is spent, code %q: %q", code, got)
		}
	}
}

// rawPlayer is a peer that speaks the wire protocol by hand: it sits at
// the table like anyone, then sends what it likes.
type rawPlayer struct {
	n   loopNode
	st  network.Stream
	w   *bufio.Writer
	tid protocol.TableID
}

// rawStream opens a game stream to hn from a fresh node, with no hello
// sent: what it writes is the test's to choose. The stream is reset when
// the test ends.
func rawStream(t *testing.T, ctx context.Context, hn loopNode) (loopNode, network.Stream) {
	t.Helper()
	n := newLoopNode(t)
	if err := n.h.Connect(ctx, info(hn)); err != nil {
		t.Fatal(err)
	}
	st, err := n.h.NewStream(ctx, hn.h.ID(), ProtocolID)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Reset() })
	return n, st
}

// firstAnswer is the first frame the host sends on st, waiting up to ten
// seconds for it.
func firstAnswer(t *testing.T, st network.Stream) []byte {
	t.Helper()
	st.SetReadDeadline(time.Now().Add(10 * time.Second))
	b, err := gamewire.ReadFrame(bufio.NewReader(st))
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	return b
}

func sitRaw(t *testing.T, ctx context.Context, hn loopNode) *rawPlayer {
	t.Helper()
	n, st := rawStream(t, ctx, hn)
	p := &rawPlayer{n: n}
	p.st, p.w = st, bufio.NewWriter(st)
	p.write(t, p.seal(t, protocol.TableID{}, 1, 1, protocol.Hello{Version: protocol.Current, Nick: "raw"}))
	br := bufio.NewReader(st)
	for {
		b, err := gamewire.ReadFrame(br)
		if err != nil {
			t.Fatal(err)
		}
		env, err := protocol.Open(b, wireID(hn.h.ID()))
		if err != nil {
			t.Fatal(err)
		}
		if s, ok := env.Msg.(protocol.Seated); ok {
			p.tid = s.Table
			break
		}
	}
	// Everything else the host sends is read and thrown away, unverified.
	go func() {
		for {
			if _, err := gamewire.ReadFrame(br); err != nil {
				return
			}
		}
	}()
	return p
}

func (p *rawPlayer) seal(t *testing.T, tid protocol.TableID, term, seq uint64, m protocol.Message) []byte {
	t.Helper()
	b, err := protocol.Seal(mustEd(t, p.n.key), tid, term, seq, m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func (p *rawPlayer) write(t *testing.T, b []byte) {
	t.Helper()
	if err := gamewire.WriteFrame(p.w, b); err != nil {
		t.Fatal(err)
	}
}

// cpu is the process's CPU time so far.
func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Refuse before you work: a seated peer's flood of large envelopes that
// the host refuses anyway (another table; a message only a host sends,
// decoding to megabytes; a replay) costs the host no signature
// verification and no decode, and the flood is read no faster than the
// connection's budget.
func TestNetFloodRefusedBeforeVerifying(t *testing.T) {
	hn, _, srv := hostTable(t, table.Settings{Seats: 3, Bots: []string{"b"}})
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	p := sitRaw(t, ctx, hn)

	// A 60 KiB update, all events: the kind of body that decodes to
	// megabytes of Go values.
	big := rogue.BigUpdate()
	other := protocol.TableID{7, 7, 7}
	const each = 24
	seq := uint64(10)
	floods := []struct {
		name   string
		frames func() [][]byte
	}{
		{"another table", func() [][]byte {
			b := p.seal(t, other, 1, 99, big)
			out := make([][]byte, each)
			for i := range out {
				out[i] = b // one frame, sent again and again
			}
			return out
		}},
		{"a host's message", func() [][]byte {
			var out [][]byte
			for range each {
				seq++
				out = append(out, p.seal(t, p.tid, 1, seq, big))
			}
			return out
		}},
		{"replays", func() [][]byte {
			seq++
			b := p.seal(t, p.tid, 1, seq, protocol.Heartbeat{})
			out := [][]byte{b}
			for range each - 1 {
				out = append(out, b)
			}
			return out
		}},
	}
	for _, f := range floods {
		frames := f.frames()
		bytes := 0
		for _, b := range frames {
			bytes += len(b)
		}
		refused, verified, used := srv.Refused.Load(), protocol.Verifications(), cpu()
		start := time.Now()
		for _, b := range frames {
			p.write(t, b)
		}
		want := int64(len(frames))
		if f.name == "replays" {
			want-- // the first is genuine
		}
		for srv.Refused.Load()-refused < want {
			select {
			case <-ctx.Done():
				t.Fatalf("%s: %d of %d refused", f.name, srv.Refused.Load()-refused, want)
			case <-time.After(10 * time.Millisecond):
			}
		}
		took := time.Since(start)
		v := protocol.Verifications() - verified
		t.Logf("%s: %d frames, %d KiB, refused in %v; %d signatures verified; process CPU %v",
			f.name, len(frames), bytes>>10, took.Round(time.Millisecond), v, (cpu() - used).Round(time.Millisecond))
		// The genuine first replayed heartbeat is verified, and nothing else.
		if max := uint64(len(frames)) - uint64(want); v > max {
			t.Errorf("%s: %d signatures verified for %d refused frames, want %d", f.name, v, want, max)
		}
	}

}
