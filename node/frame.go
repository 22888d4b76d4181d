package node

// Stream framing: one length-prefixed envelope per frame.

import (
	"github.com/bullshit-game/bullshit/protocol"
)

// maxFrame bounds what is read from a stream before anything is parsed.
const maxFrame = protocol.MaxSize
