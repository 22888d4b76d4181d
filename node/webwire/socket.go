package webwire

import "context"

// Socket is the WebSocket a Conn runs over, as much of it as the channel
// uses: the node's side is github.com/coder/websocket (package
// webwire/coderws), the page's is the browser's own WebSocket (DialBrowser,
// in js/wasm only), so that the page carries no HTTP client of Go's: the
// js build of coder/websocket brings net/http and crypto/tls along, a
// third of the page's download.
type Socket interface {
	// Read returns the next message and whether it is binary (else text).
	// A read whose ctx ends closes the Socket.
	Read(ctx context.Context) (binary bool, msg []byte, err error)
	// Write sends msg as one binary message.
	Write(ctx context.Context, msg []byte) error
	// SetReadLimit is the largest message Read accepts: a larger one
	// closes the Socket and fails the Read.
	SetReadLimit(n int64)
	// Close ends the Socket with a normal closure; CloseNow ends it at
	// once, without waiting for the other side.
	Close() error
	CloseNow() error
}
