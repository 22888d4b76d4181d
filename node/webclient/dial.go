//go:build !js

package webclient

import (
	"context"

	"github.com/coder/websocket"

	"github.com/bullshit-game/bullshit/node/webwire"
	"github.com/bullshit-game/bullshit/node/webwire/coderws"
)

// dial opens a WebSocket to url: outside a browser (the tests), with
// coder/websocket.
func dial(ctx context.Context, url string) (webwire.Socket, error) {
	ws, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		return nil, err
	}
	return coderws.New(ws), nil
}
