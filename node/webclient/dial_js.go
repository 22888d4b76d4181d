package webclient

import (
	"context"

	"github.com/bullshit-game/bullshit/node/webwire"
)

// dial opens a WebSocket to url: in the page, the browser's own.
func dial(ctx context.Context, url string) (webwire.Socket, error) {
	return webwire.DialBrowser(ctx, url)
}
