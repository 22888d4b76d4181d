package webwire

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"syscall/js"

	"github.com/bullshit-game/bullshit/node/webwire/jsthrow"
)

// browser is the page's own WebSocket as a Socket, driven through
// syscall/js. Its event handlers run on the page's event loop and never
// block: they queue what arrives and signal; Read and Dial wait on the
// signals from their own goroutines.
type browser struct {
	ws    js.Value
	limit atomic.Int64

	mu     sync.Mutex
	queue  []message     // arrived, not yet read
	signal chan struct{} // cap 1: queue may have grown
	err    error         // why it closed, once closed
	closed chan struct{}
	funcs  []js.Func
}

type message struct {
	binary bool
	data   []byte
	size   int // the message's length, when it was over the limit and not copied
}

// ErrTooBig is a message over the read limit.
var ErrTooBig = errors.New("web message over the read limit")

// DialBrowser opens a WebSocket to url with the browser's WebSocket and
// waits, bounded by ctx, until it is open.
func DialBrowser(ctx context.Context, url string) (_ Socket, err error) {
	// The constructor throws on a malformed URL.
	defer jsthrow.Catch(&err)
	s := &browser{signal: make(chan struct{}, 1), closed: make(chan struct{})}
	s.limit.Store(MaxMessage)
	s.ws = js.Global().Get("WebSocket").New(url)
	s.ws.Set("binaryType", "arraybuffer")
	opened := make(chan struct{})
	var once sync.Once
	s.on("open", func(js.Value) { once.Do(func() { close(opened) }) })
	s.on("message", s.arrived)
	s.on("error", func(js.Value) {
		// A close event follows; the browser says nothing more.
		s.mu.Lock()
		if s.err == nil {
			s.err = errors.New("the WebSocket to " + url + " failed")
		}
		s.mu.Unlock()
	})
	s.on("close", s.gone)
	select {
	case <-opened:
		return s, nil
	case <-s.closed:
		return nil, s.why()
	case <-ctx.Done():
		s.CloseNow()
		return nil, ctx.Err()
	}
}

func (s *browser) on(event string, f func(js.Value)) {
	fn := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) > 0 {
			f(args[0])
		}
		return nil
	})
	s.funcs = append(s.funcs, fn)
	s.ws.Call("addEventListener", event, fn)
}

// arrived queues a message, copied into Go unless it is over the limit.
func (s *browser) arrived(e js.Value) {
	d := e.Get("data")
	var m message
	if d.Type() == js.TypeString {
		m.data = []byte(d.String())
	} else {
		m.binary = true
		if n := d.Get("byteLength").Int(); int64(n) > s.limit.Load() {
			m.size = n
		} else {
			m.data = make([]byte, n)
			js.CopyBytesToGo(m.data, js.Global().Get("Uint8Array").New(d))
		}
	}
	s.mu.Lock()
	s.queue = append(s.queue, m)
	s.mu.Unlock()
	select {
	case s.signal <- struct{}{}:
	default:
	}
}

func (s *browser) gone(e js.Value) {
	s.mu.Lock()
	if s.err == nil {
		s.err = errClosed
	}
	if s.isClosed() {
		s.mu.Unlock()
		return
	}
	close(s.closed)
	funcs := s.funcs
	s.funcs = nil
	s.mu.Unlock()
	for _, f := range funcs {
		f.Release()
	}
}

func (s *browser) isClosed() bool {
	select {
	case <-s.closed:
		return true
	default:
		return false
	}
}

func (s *browser) why() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

func (s *browser) Read(ctx context.Context) (bool, []byte, error) {
	for {
		s.mu.Lock()
		if len(s.queue) > 0 {
			m := s.queue[0]
			s.queue[0] = message{}
			s.queue = s.queue[1:]
			s.mu.Unlock()
			if m.size > 0 || int64(len(m.data)) > s.limit.Load() {
				s.CloseNow()
				return false, nil, ErrTooBig
			}
			return m.binary, m.data, nil
		}
		s.mu.Unlock()
		select {
		case <-s.signal:
		case <-s.closed:
			s.mu.Lock()
			empty := len(s.queue) == 0
			s.mu.Unlock()
			if empty {
				return false, nil, errClosed
			}
		case <-ctx.Done():
			s.CloseNow()
			return false, nil, ctx.Err()
		}
	}
}

func (s *browser) Write(_ context.Context, msg []byte) (err error) {
	if s.isClosed() {
		return errClosed
	}
	// send throws while the socket is still connecting, never after.
	defer jsthrow.Catch(&err)
	b := js.Global().Get("Uint8Array").New(len(msg))
	js.CopyBytesToJS(b, msg)
	s.ws.Call("send", b)
	return nil
}

func (s *browser) SetReadLimit(n int64) { s.limit.Store(n) }

// Close starts the closing handshake with a normal closure; the browser
// finishes it. CloseNow does the same without a code: a page can't drop
// a WebSocket without the handshake, and may send no code but 1000 and
// 3000–4999 (anything else throws and leaves the socket open).
func (s *browser) Close() error { return s.close(1000) }

func (s *browser) CloseNow() error { return s.close(0) }

func (s *browser) close(code int) error {
	if s.isClosed() {
		return errClosed
	}
	if code == 0 {
		s.ws.Call("close")
	} else {
		s.ws.Call("close", code)
	}
	return nil
}
