package node

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/node/table"

	"github.com/libp2p/go-libp2p/core/network"

	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/protocol"
)

// A 1.1 joiner, whose hello carries no nonce for the code exchange, is
// told the table needs a newer version: a refusal, not a hang.
func TestNetOldJoinerToldToUpdate(t *testing.T) {
	hn, _, _ := hostTable(t, table.Settings{Seats: 3, Code: "tulip-42", Bots: []string{"b"}})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	p := &rawPlayer{n: newLoopNode(t)}
	if err := p.n.h.Connect(ctx, info(hn)); err != nil {
		t.Fatal(err)
	}
	st, err := p.n.h.NewStream(ctx, hn.h.ID(), ProtocolID)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Reset()
	p.st, p.w = st, bufio.NewWriter(st)
	p.write(t, p.seal(t, protocol.TableID{}, 1, 1, protocol.Hello{Version: protocol.MakeVersion(1, 1), Nick: "old", Seat: -1}))
	st.SetReadDeadline(time.Now().Add(10 * time.Second))
	b, err := gamewire.ReadFrame(bufio.NewReader(st))
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	env, err := protocol.Open(b, wireID(hn.h.ID()))
	if err != nil {
		t.Fatal(err)
	}
	ref, ok := env.Msg.(protocol.Refusal)
	if !ok || ref.Code != protocol.CodeVersion || !strings.Contains(ref.Message, "newer version") {
		t.Fatalf("answered %#v, want a version refusal", env.Msg)
	}
}

// fakeTable serves the game's stream on a loop node by hand: answer gets
// the joiner's first hello and says what to send back, in order; each
// further message read from the joiner is thrown away.
func fakeTable(t *testing.T, answer func(protocol.Hello) []protocol.Message) loopNode {
	n := newLoopNode(t)
	n.h.SetStreamHandler(ProtocolID, func(st network.Stream) {
		defer st.Close()
		br, w := bufio.NewReader(st), bufio.NewWriter(st)
		b, err := gamewire.ReadFrame(br)
		if err != nil {
			return
		}
		env, err := protocol.Open(b, wireID(st.Conn().RemotePeer()))
		if err != nil {
			return
		}
		hello, _ := env.Msg.(protocol.Hello)
		key, err := edKey(n.key)
		if err != nil {
			return
		}
		for i, m := range answer(hello) {
			b, err := protocol.Seal(key, protocol.TableID{7}, 1, uint64(i+1), m)
			if err != nil || gamewire.WriteFrame(w, b) != nil {
				return
			}
			if _, ok := m.(protocol.Challenge); ok {
				if _, err := gamewire.ReadFrame(br); err != nil {
					return
				}
			}
		}
		gamewire.ReadFrame(br) // until the joiner hangs up
	})
	return n
}

// A joiner with a code takes no table that doesn't prove it knows the
// code: an impostor that seats it at once, one that guesses, and a 1.1
// host (whose challenge the joiner must not answer: its proof would give
// the code away).
func TestNetJoinerRefusesImpostors(t *testing.T) {
	nonce := []byte("0123456789abcdef")
	for _, c := range []struct {
		name   string
		answer func(protocol.Hello) []protocol.Message
		want   error
	}{
		{"seats without a challenge", func(protocol.Hello) []protocol.Message {
			return []protocol.Message{protocol.Seated{Seat: 1, Nick: "p"}}
		}, ErrImpostor},
		{"challenges, then seats with a made-up proof", func(h protocol.Hello) []protocol.Message {
			px, _ := protocol.NewPake(protocol.Hosting, "guess-1", protocol.PakeContext{JoinerNonce: h.Nonce, HostNonce: nonce}, bytes.Repeat([]byte{7}, protocol.SecretSize))
			return []protocol.Message{protocol.Challenge{Nonce: nonce, Share: px.Share()}, protocol.Seated{Seat: 1, Nick: "p", Proof: make([]byte, 64)}}
		}, ErrImpostor},
		{"a 1.1 host's challenge", func(protocol.Hello) []protocol.Message {
			return []protocol.Message{protocol.Challenge{Nonce: nonce}}
		}, ErrOldHost},
	} {
		t.Run(c.name, func(t *testing.T) {
			hn := fakeTable(t, c.answer)
			pn := newLoopNode(t)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			r, err := Dial(ctx, pn.h, pn.key, info(hn), "p", "tulip-42", false, nil)
			if err == nil {
				r.Close()
			}
			if !errors.Is(err, c.want) {
				t.Fatalf("err %v, want %v", err, c.want)
			}
		})
	}
}

// A code too short to hold for an evening is refused before the table is
// served.
func TestNetShortCodeRefused(t *testing.T) {
	n := newLoopNode(t)
	tb, err := table.NewTable(table.Settings{Seats: 3, Code: "1234", Bots: []string{"b"}}, "host", dumbMaker, dumbFallback)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	if _, err := Serve(n.h, n.key, tb); !errors.Is(err, protocol.ErrShortCode) {
		t.Fatalf("Serve with code 1234: %v, want ErrShortCode", err)
	}
}
