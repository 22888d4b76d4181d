package node

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/node/table"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/vmihailenco/msgpack/v5"

	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/protocol"
)

// A hello that names another major inside a 2.0 envelope is told the
// table needs 2.0: a refusal, not a hang.
func TestNetOldJoinerToldToUpdate(t *testing.T) {
	hn, _, _ := hostTable(t, table.Settings{Seats: 3, Code: "tulip-42", Bots: []string{"b"}})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	n, st := rawStream(t, ctx, hn)
	p := &rawPlayer{n: n, st: st, w: bufio.NewWriter(st)}
	p.write(t, p.seal(t, protocol.TableID{}, 1, 1, protocol.Hello{Version: protocol.MakeVersion(1, 9), Nick: "old"}))
	env, err := protocol.Open(firstAnswer(t, st), wireID(hn.h.ID()))
	if err != nil {
		t.Fatal(err)
	}
	ref, ok := env.Msg.(protocol.Refusal)
	if !ok || ref.Code != protocol.CodeVersion || ref.Message != "This table needs bullshit "+protocol.Current.String()+" or newer." {
		t.Fatalf("answered %#v, want a version refusal", env.Msg)
	}
}

// envDomain is what every major so far signs in front of an envelope's
// frame (protocol: envelope.go).
const envDomain = "bullshit/envelope/v1\x00"

// sealed19 is an envelope as a 1.9 peer seals it: the frame every major so
// far shares, saying 1.9, around body, a message of type typ as 1.9 lays
// it out.
func sealed19(t *testing.T, key ed25519.PrivateKey, seq uint64, typ protocol.Type, body []any) []byte {
	t.Helper()
	id, err := protocol.PeerIDOf(key)
	if err != nil {
		t.Fatal(err)
	}
	b, err := msgpack.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	inner, err := msgpack.Marshal([]any{uint16(protocol.MakeVersion(1, 9)), []byte(id), make([]byte, 8), uint64(1), seq, uint8(typ), b})
	if err != nil {
		t.Fatal(err)
	}
	sig := ed25519.Sign(key, append([]byte(envDomain), inner...))
	return append(append(append([]byte{0x92}, inner...), 0xc4, ed25519.SignatureSize), sig...)
}

// opened19 reads an envelope as a 1.9 peer does: its version and type,
// the fields of its body, and whether from's key signed it.
func opened19(t *testing.T, b []byte, from ed25519.PublicKey) (v protocol.Version, typ protocol.Type, body []any, signed bool) {
	t.Helper()
	var outer []msgpack.RawMessage
	if err := msgpack.Unmarshal(b, &outer); err != nil || len(outer) != 2 {
		t.Fatalf("not an envelope: %v", err)
	}
	var inner struct {
		_       struct{} `msgpack:",as_array"`
		Version uint16
		Sender  []byte
		Table   []byte
		Term    uint64
		Seq     uint64
		Type    uint8
		Body    []byte
	}
	var sig []byte
	if err := msgpack.Unmarshal(outer[0], &inner); err != nil {
		t.Fatal(err)
	}
	if err := msgpack.Unmarshal(outer[1], &sig); err != nil {
		t.Fatal(err)
	}
	if err := msgpack.Unmarshal(inner.Body, &body); err != nil {
		t.Fatal(err)
	}
	return protocol.Version(inner.Version), protocol.Type(inner.Type), body,
		ed25519.Verify(from, append([]byte(envDomain), outer[0]...), sig)
}

// A 1.9 joiner's hello, in its 1.9 envelope, at a 2.0 host: the host
// answers in an envelope that says 1.9, which the joiner opens, signed
// by the host: version, "This table needs bullshit 2.0 or newer.", by the
// hello's number. The phone's page is told to reload as well.
func TestNet19JoinerRefused(t *testing.T) {
	hn, _, _ := hostTable(t, table.Settings{Seats: 3, Bots: []string{"b"}})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	pn, st := rawStream(t, ctx, hn)
	w := bufio.NewWriter(st)
	hello19 := []any{uint16(protocol.MakeVersion(1, 9)), "old", -1, false, nil, "", make([]byte, protocol.NonceSize), nil}
	if err := gamewire.WriteFrame(w, sealed19(t, mustEd(t, pn.key), 41, protocol.TypeHello, hello19)); err != nil {
		t.Fatal(err)
	}
	b := firstAnswer(t, st)
	var other *protocol.VersionError
	if _, err := protocol.Open(b, wireID(hn.h.ID())); !errors.As(err, &other) || other.Peer != protocol.MakeVersion(1, 9) {
		t.Fatalf("the answer opens at 2.0: %v", err)
	}
	v, typ, body, signed := opened19(t, b, mustEd(t, hn.key).Public().(ed25519.PublicKey))
	if v != protocol.MakeVersion(1, 9) || typ != protocol.TypeRefusal || !signed || len(body) != 3 ||
		body[0] != protocol.CodeVersion || body[1] != "This table needs bullshit "+protocol.Current.String()+" or newer." || fmt.Sprint(body[2]) != "41" {
		t.Fatalf("a 1.9 joiner reads %s %s %v (signed %v)", v, typ, body, signed)
	}
}

// A 2.0 joiner at a 1.9 host, which refuses its envelope in one of 1.9's
// (as 1.9 does: bad_command, "Refused: …") and hangs up, is told at once
// that the host is too old.
func TestNet19HostRefused(t *testing.T) {
	hn := newLoopNode(t)
	hn.h.SetStreamHandler(ProtocolID, func(st network.Stream) {
		defer st.Close()
		br, w := bufio.NewReader(st), bufio.NewWriter(st)
		if _, err := gamewire.ReadFrame(br); err != nil {
			return
		}
		ref := []any{protocol.CodeBadCommand, "Refused: protocol: incompatible major version: peer speaks " + protocol.Current.String() + ", we speak 1.9", 0}
		gamewire.WriteFrame(w, sealed19(t, mustEd(t, hn.key), 1, protocol.TypeRefusal, ref))
	})
	pn := newLoopNode(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	r, err := Dial(ctx, pn.h, pn.key, info(hn), "p", "", false, nil)
	if err == nil {
		r.Close()
	}
	var ref *gamewire.Refused
	want := "This table's host runs bullshit 1.9, older than yours (" + protocol.Current.String() + "): the host needs to update."
	if !errors.As(err, &ref) || ref.Code != protocol.CodeVersion || ref.Msg != want {
		t.Fatalf("err %v, want %q", err, want)
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

// A 1.9 page at a 2.0 node's web entry (a phone whose page is from before
// the node was updated) is refused in an envelope it reads and told to
// reload: the node serves the 2.0 page.
func TestWeb19PageToldToReload(t *testing.T) {
	hn, _, _, w := webTable(t, table.Settings{Seats: 3, Bots: []string{"b", "c"}}, stillMaker)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p := dialPhone(ctx, t, w.URL(), newPhoneKey(t), hn.key.GetPublic(), "")
	hello19 := []any{uint16(protocol.MakeVersion(1, 9)), "old", -1, false, nil, "", make([]byte, protocol.NonceSize), nil}
	if err := p.write(sealed19(t, mustEd(t, p.key), 9, protocol.TypeHello, hello19)); err != nil {
		t.Fatal(err)
	}
	p.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	b, err := gamewire.ReadFrame(p.br)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	v, typ, body, signed := opened19(t, b, mustEd(t, hn.key).Public().(ed25519.PublicKey))
	want := "This table needs bullshit " + protocol.Current.String() + " or newer. Reload the page."
	if v != protocol.MakeVersion(1, 9) || typ != protocol.TypeRefusal || !signed || len(body) != 3 ||
		body[0] != protocol.CodeVersion || body[1] != want {
		t.Fatalf("a 1.9 page reads %s %s %v (signed %v), want %q", v, typ, body, signed, want)
	}
}

// Garbage that begins like an envelope of another major (version 0, and
// no header after it) is refused as garbage, in the host's own version:
// only a whole header is answered in the sender's.
func TestNetGarbageOfAnotherMajorRefusedAsGarbage(t *testing.T) {
	hn, _, _ := hostTable(t, table.Settings{Seats: 3, Bots: []string{"b"}})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, st := rawStream(t, ctx, hn)
	if err := gamewire.WriteFrame(bufio.NewWriter(st), []byte{0x92, 0x91, 0x00, 0xc0}); err != nil {
		t.Fatal(err)
	}
	b := firstAnswer(t, st)
	env, err := protocol.Open(b, wireID(hn.h.ID()))
	if err != nil {
		t.Fatalf("the answer is not in 2.0: %v", err)
	}
	if ref, ok := env.Msg.(protocol.Refusal); !ok || ref.Code != protocol.CodeBadCommand || !strings.Contains(ref.Message, "protocol:") {
		t.Fatalf("answered %#v, want garbage refused", env.Msg)
	}
}
