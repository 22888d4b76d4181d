//go:build !js

package webwire

import "net"

// errClosed is what a closed Conn's reads and writes return.
var errClosed = net.ErrClosed

// Addr is the address a Conn reports for either end: the WebSocket, not an
// IP (the web server has the request's remote address).
type Addr struct{}

func (Addr) Network() string { return "websocket" }
func (Addr) String() string  { return "websocket" }

// LocalAddr and RemoteAddr make Conn a net.Conn.
func (c *Conn) LocalAddr() net.Addr  { return Addr{} }
func (c *Conn) RemoteAddr() net.Addr { return Addr{} }

var _ net.Conn = (*Conn)(nil)
