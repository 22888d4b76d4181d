package webwire

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
)

func newKey(t *testing.T) ed25519.PrivateKey {
	t.Helper()
	_, k, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// serve runs a web entry on loopback whose handler gets each accepted
// WebSocket; it returns the ws:// address.
func serve(t *testing.T, handle func(*websocket.Conn)) string {
	t.Helper()
	var wg sync.WaitGroup
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		wg.Add(1)
		defer wg.Done()
		handle(ws)
	}))
	t.Cleanup(func() { srv.Close(); wg.Wait() })
	return "ws" + strings.TrimPrefix(srv.URL, "http")
}

// sock is ws as a Socket, as package coderws makes it (which imports this
// package, so the tests can't).
func sock(ws *websocket.Conn) Socket { return coderSocket{ws} }

type coderSocket struct{ ws *websocket.Conn }

func (s coderSocket) Read(ctx context.Context) (bool, []byte, error) {
	typ, b, err := s.ws.Read(ctx)
	return typ == websocket.MessageBinary, b, err
}
func (s coderSocket) Write(ctx context.Context, msg []byte) error {
	return s.ws.Write(ctx, websocket.MessageBinary, msg)
}
func (s coderSocket) SetReadLimit(n int64) { s.ws.SetReadLimit(n) }
func (s coderSocket) Close() error         { return s.ws.Close(websocket.StatusNormalClosure, "") }
func (s coderSocket) CloseNow() error      { return s.ws.CloseNow() }

func dialWS(t *testing.T, url string) *websocket.Conn {
	t.Helper()
	ws, _, err := websocket.Dial(context.Background(), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

// echo is a host that accepts the handshake, reports the peer it proved,
// and echoes the stream back.
func echo(t *testing.T, key ed25519.PrivateKey, peers chan<- ed25519.PublicKey, errs chan<- error) func(*websocket.Conn) {
	return func(ws *websocket.Conn) {
		c, err := Accept(context.Background(), sock(ws), key)
		if err != nil {
			errs <- err
			ws.CloseNow()
			return
		}
		peers <- c.Peer()
		io.Copy(c, c)
		c.Close()
	}
}

func TestHandshakeProvesBothKeysAndCarriesTheStream(t *testing.T) {
	host, player := newKey(t), newKey(t)
	peers, errs := make(chan ed25519.PublicKey, 1), make(chan error, 1)
	url := serve(t, echo(t, host, peers, errs))

	c, err := Dial(context.Background(), sock(dialWS(t, url)), player, host.Public().(ed25519.PublicKey))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if !c.Peer().Equal(host.Public()) {
		t.Fatal("Dial's Peer is not the host's key")
	}
	if got := <-peers; !got.Equal(player.Public()) {
		t.Fatal("Accept's Peer is not the player's key")
	}
	// A message over MaxPlain is split and comes back whole.
	want := make([]byte, 2*MaxPlain+123)
	rand.Read(want)
	go c.Write(want)
	got := make([]byte, len(want))
	if _, err := io.ReadFull(c, got); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("the stream came back changed")
	}
}

func TestDialRefusesAnotherHost(t *testing.T) {
	host, other, player := newKey(t), newKey(t), newKey(t)
	url := serve(t, echo(t, host, make(chan ed25519.PublicKey, 1), make(chan error, 1)))
	_, err := Dial(context.Background(), sock(dialWS(t, url)), player, other.Public().(ed25519.PublicKey))
	if !errors.Is(err, ErrHandshake) || !strings.Contains(err.Error(), "not the one expected") {
		t.Fatalf("err = %v, want the host's key refused", err)
	}
}

// A host that signs with a key other than the one it names is refused.
func TestDialRefusesAForgedHostSignature(t *testing.T) {
	named, signer, player := newKey(t), newKey(t), newKey(t)
	url := serve(t, func(ws *websocket.Conn) {
		_, m1, err := ws.Read(context.Background())
		if err != nil {
			return
		}
		eh := freshKey(t)
		H := named.Public().(ed25519.PublicKey)
		t1 := transcript1(m1[len(magic):], eh, H)
		m2 := append(append(eh, H...), ed25519.Sign(signer, append([]byte(hostCtx), t1...))...)
		ws.Write(context.Background(), websocket.MessageBinary, m2)
		ws.Read(context.Background())
	})
	_, err := Dial(context.Background(), sock(dialWS(t, url)), player, nil)
	if !errors.Is(err, ErrHandshake) || !strings.Contains(err.Error(), "host's signature") {
		t.Fatalf("err = %v, want the host's signature refused", err)
	}
}

// A player's proof recorded from one handshake does not pass in another:
// the host's fresh ephemeral key is under the signature.
func TestAcceptRefusesAReplayedProof(t *testing.T) {
	host, player := newKey(t), newKey(t)
	errs := make(chan error, 2)
	url := serve(t, func(ws *websocket.Conn) {
		_, err := Accept(context.Background(), sock(ws), host)
		errs <- err
		ws.CloseNow()
	})
	// An honest handshake, made by hand to keep its proof.
	ctx := context.Background()
	ws := dialWS(t, url)
	eph := freshKey(t)
	ws.Write(ctx, websocket.MessageBinary, append([]byte(magic), eph...))
	_, m2, err := ws.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	P := player.Public().(ed25519.PublicKey)
	t2 := transcript2(transcript1(eph, m2[:32], ed25519.PublicKey(m2[32:64])), P)
	proof := append(bytes.Clone(P), ed25519.Sign(player, append([]byte(playerCtx), t2...))...)
	ws.Write(ctx, websocket.MessageBinary, proof)
	if err := <-errs; err != nil {
		t.Fatalf("the honest proof: %v", err)
	}

	// The replay: a fresh opening, then the recorded proof.
	ws2 := dialWS(t, url)
	eph = freshKey(t)
	ws2.Write(ctx, websocket.MessageBinary, append([]byte(magic), eph...))
	if _, _, err := ws2.Read(ctx); err != nil {
		t.Fatal(err)
	}
	ws2.Write(ctx, websocket.MessageBinary, proof)
	if err := <-errs; !errors.Is(err, ErrHandshake) || !strings.Contains(err.Error(), "player's signature") {
		t.Fatalf("err = %v, want the replayed proof refused", err)
	}
}

func TestAcceptRefusesGarbage(t *testing.T) {
	host := newKey(t)
	errs := make(chan error, 1)
	url := serve(t, func(ws *websocket.Conn) {
		_, err := Accept(context.Background(), sock(ws), host)
		errs <- err
		ws.CloseNow()
	})
	for _, tc := range []struct {
		name string
		msg  []byte
		want string
	}{
		{"short", []byte("BSW2"), "the opening is 4 bytes"},
		{"magic", append([]byte("HTTP"), make([]byte, 32)...), "not a bullshit web client"},
		{"older page", append([]byte("BSW1"), make([]byte, 32)...), "older version of the game: reload it"},
		// The identity (all zeros) would make the secret known to anyone;
		// 0xff… is no canonical encoding.
		{"identity", append([]byte(magic), make([]byte, 32)...), "the player's ephemeral key: the identity element"},
		{"not a point", append([]byte(magic), bytes.Repeat([]byte{0xff}, 32)...), "the player's ephemeral key: invalid"},
	} {
		ws := dialWS(t, url)
		ws.Write(context.Background(), websocket.MessageBinary, tc.msg)
		if err := <-errs; !errors.Is(err, ErrHandshake) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
		ws.CloseNow()
	}
}

// A box altered on the way fails to open and ends the connection; so does
// a box replayed.
func TestAlteredOrReplayedMessageEndsTheConnection(t *testing.T) {
	host, player := newKey(t), newKey(t)
	for _, mode := range []string{"altered", "replayed"} {
		t.Run(mode, func(t *testing.T) {
			got := make(chan error, 1)
			url := serve(t, func(ws *websocket.Conn) {
				c, err := Accept(context.Background(), sock(ws), host)
				if err != nil {
					got <- err
					return
				}
				buf := make([]byte, 64)
				_, err = c.Read(buf) // the honest first message
				if err == nil {
					_, err = c.Read(buf)
				}
				got <- err
			})
			ws := dialWS(t, url)
			c, err := Dial(context.Background(), sock(ws), player, nil)
			if err != nil {
				t.Fatal(err)
			}
			box := c.seal.Seal(nil, nonce(0), []byte("hello"), nil)
			ctx := context.Background()
			ws.Write(ctx, websocket.MessageBinary, box)
			if mode == "altered" {
				bad := c.seal.Seal(nil, nonce(1), []byte("hello"), nil)
				bad[0] ^= 1
				ws.Write(ctx, websocket.MessageBinary, bad)
			} else {
				ws.Write(ctx, websocket.MessageBinary, box)
			}
			if err := <-got; !errors.Is(err, ErrBox) {
				t.Fatalf("err = %v, want ErrBox", err)
			}
		})
	}
}

func TestReadDeadlineIsANetTimeout(t *testing.T) {
	host, player := newKey(t), newKey(t)
	hold := make(chan struct{})
	url := serve(t, func(ws *websocket.Conn) {
		if _, err := Accept(context.Background(), sock(ws), host); err == nil {
			<-hold
		}
	})
	defer close(hold)
	c, err := Dial(context.Background(), sock(dialWS(t, url)), player, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.SetReadDeadline(time.Now().Add(-time.Second))
	if _, err := c.Read(make([]byte, 1)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("err = %v, want os.ErrDeadlineExceeded", err)
	}
}

// freshKey is an honest ephemeral public key.
func freshKey(t *testing.T) []byte {
	t.Helper()
	e, err := newEphemeral()
	if err != nil {
		t.Fatal(err)
	}
	return e.pub
}

// A host that answers with the identity as its ephemeral key is refused
// before the player signs anything.
func TestDialRefusesAnIdentityHostKey(t *testing.T) {
	host, player := newKey(t), newKey(t)
	proofs := make(chan int, 1)
	url := serve(t, func(ws *websocket.Conn) {
		_, m1, err := ws.Read(context.Background())
		if err != nil {
			return
		}
		eh := make([]byte, 32)
		H := host.Public().(ed25519.PublicKey)
		t1 := transcript1(m1[len(magic):], eh, H)
		m2 := append(append(eh, H...), ed25519.Sign(host, append([]byte(hostCtx), t1...))...)
		ws.Write(context.Background(), websocket.MessageBinary, m2)
		_, m3, _ := ws.Read(context.Background())
		proofs <- len(m3)
	})
	_, err := Dial(context.Background(), sock(dialWS(t, url)), player, nil)
	if !errors.Is(err, ErrHandshake) || !strings.Contains(err.Error(), "the host's ephemeral key: the identity element") {
		t.Fatalf("err = %v, want the identity refused", err)
	}
	if n := <-proofs; n != 0 {
		t.Fatalf("the player sent a %d-byte proof to a host whose key it refused", n)
	}
}
