// Package webwire is the authenticated channel a phone's page and a host
// speak over a WebSocket.
//
// STUB of the host helper's branch: the lead's real package (encrypted,
// the same API) replaces this file at merge. It proves both keys and
// carries the bytes in the clear.
package webwire

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"net"

	"github.com/coder/websocket"
)

// MaxMessage is the largest message read.
const MaxMessage = 64<<10 + 1024

// Conn is the channel: a byte stream, each Write one WebSocket message.
type Conn struct {
	net.Conn
	peer ed25519.PublicKey
}

// Peer is the other side's proven key.
func (c *Conn) Peer() ed25519.PublicKey { return c.peer }

var errHandshake = errors.New("webwire: handshake failed")

const (
	hostCtx   = "webwire-stub host\x00"
	clientCtx = "webwire-stub client\x00"
)

func transcript(label string, nh, nc, pub []byte) []byte {
	b := append([]byte(label), nh...)
	b = append(b, nc...)
	return append(b, pub...)
}

// Accept runs the host's side of the handshake.
func Accept(ctx context.Context, ws *websocket.Conn, key ed25519.PrivateKey) (*Conn, error) {
	ws.SetReadLimit(MaxMessage)
	nh := make([]byte, 32)
	rand.Read(nh)
	if err := ws.Write(ctx, websocket.MessageBinary, append(append([]byte(nil), key.Public().(ed25519.PublicKey)...), nh...)); err != nil {
		return nil, err
	}
	_, b, err := ws.Read(ctx)
	if err != nil {
		return nil, err
	}
	if len(b) != 32+32+ed25519.SignatureSize {
		return nil, errHandshake
	}
	pub, nc, sig := ed25519.PublicKey(b[:32]), b[32:64], b[64:]
	if !ed25519.Verify(pub, transcript(clientCtx, nh, nc, key.Public().(ed25519.PublicKey)), sig) {
		return nil, errHandshake
	}
	if err := ws.Write(ctx, websocket.MessageBinary, ed25519.Sign(key, transcript(hostCtx, nh, nc, pub))); err != nil {
		return nil, err
	}
	nc2 := websocket.NetConn(context.Background(), ws, websocket.MessageBinary)
	ws.SetReadLimit(MaxMessage)
	return &Conn{Conn: nc2, peer: append(ed25519.PublicKey(nil), pub...)}, nil
}

// Dial runs the player's side; host, if not nil, is the key the host must have.
func Dial(ctx context.Context, ws *websocket.Conn, key ed25519.PrivateKey, host ed25519.PublicKey) (*Conn, error) {
	ws.SetReadLimit(MaxMessage)
	_, b, err := ws.Read(ctx)
	if err != nil {
		return nil, err
	}
	if len(b) != 64 {
		return nil, errHandshake
	}
	hpub, nh := ed25519.PublicKey(b[:32]), b[32:]
	if host != nil && !hpub.Equal(host) {
		return nil, errHandshake
	}
	nc := make([]byte, 32)
	rand.Read(nc)
	pub := key.Public().(ed25519.PublicKey)
	msg := append(append(append([]byte(nil), pub...), nc...), ed25519.Sign(key, transcript(clientCtx, nh, nc, hpub))...)
	if err := ws.Write(ctx, websocket.MessageBinary, msg); err != nil {
		return nil, err
	}
	_, sig, err := ws.Read(ctx)
	if err != nil {
		return nil, err
	}
	if !ed25519.Verify(hpub, transcript(hostCtx, nh, nc, pub), sig) {
		return nil, errHandshake
	}
	nc2 := websocket.NetConn(context.Background(), ws, websocket.MessageBinary)
	ws.SetReadLimit(MaxMessage)
	return &Conn{Conn: nc2, peer: append(ed25519.PublicKey(nil), hpub...)}, nil
}
