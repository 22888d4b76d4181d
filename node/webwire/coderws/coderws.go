// Package coderws is a github.com/coder/websocket connection as a
// webwire.Socket: the node's side of the phones' channel, and the tests'.
// It must never be imported by anything compiled for the page (js/wasm):
// coder/websocket's browser build brings net/http with it.
package coderws

import (
	"context"

	"github.com/coder/websocket"

	"github.com/bullshit-game/bullshit/node/webwire"
)

type socket struct{ ws *websocket.Conn }

// New is ws as a webwire.Socket.
func New(ws *websocket.Conn) webwire.Socket { return socket{ws} }

func (s socket) Read(ctx context.Context) (bool, []byte, error) {
	typ, b, err := s.ws.Read(ctx)
	return typ == websocket.MessageBinary, b, err
}

func (s socket) Write(ctx context.Context, msg []byte) error {
	return s.ws.Write(ctx, websocket.MessageBinary, msg)
}

func (s socket) SetReadLimit(n int64) { s.ws.SetReadLimit(n) }
func (s socket) Close() error         { return s.ws.Close(websocket.StatusNormalClosure, "") }
func (s socket) CloseNow() error      { return s.ws.CloseNow() }
