package gamewire

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/bullshit-game/bullshit/protocol"
)

// MaxFrame bounds what is read from a stream before anything is parsed.
const MaxFrame = protocol.MaxSize

// ErrFrameTooBig is a frame whose length is over MaxFrame.
var ErrFrameTooBig = errors.New("node: frame over the size limit")

// WriteFrame writes one length-prefixed envelope and flushes it.
func WriteFrame(w *bufio.Writer, b []byte) error {
	var n [binary.MaxVarintLen64]byte
	if _, err := w.Write(n[:binary.PutUvarint(n[:], uint64(len(b)))]); err != nil {
		return err
	}
	if _, err := w.Write(b); err != nil {
		return err
	}
	return w.Flush()
}

// ReadFrame reads one length-prefixed envelope; an oversize length is
// refused before its bytes are read.
func ReadFrame(r *bufio.Reader) ([]byte, error) {
	n, err := binary.ReadUvarint(r)
	if err != nil {
		return nil, err
	}
	if n > MaxFrame {
		return nil, fmt.Errorf("%w: %d bytes", ErrFrameTooBig, n)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, err
	}
	return b, nil
}
