package node

// Stream framing: one length-prefixed envelope per frame.

import (
	"bufio"

	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/protocol"
)

// maxFrame bounds what is read from a stream before anything is parsed.
const maxFrame = protocol.MaxSize

// writeFrame writes one length-prefixed envelope (gamewire.WriteFrame).
func writeFrame(w *bufio.Writer, b []byte) error { return gamewire.WriteFrame(w, b) }

var errFrameTooBig = gamewire.ErrFrameTooBig

// readFrame reads one length-prefixed envelope (gamewire.ReadFrame): an
// oversize length is refused before its bytes are read.
func readFrame(r *bufio.Reader) ([]byte, error) { return gamewire.ReadFrame(r) }
