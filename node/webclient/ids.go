package webclient

import (
	"crypto/ed25519"

	"github.com/bullshit-game/bullshit/protocol"
)

// PeerOf is the peer ID a key plays as, as text (the page shows its end).
func PeerOf(pub ed25519.PublicKey) string {
	id, err := protocol.NewPeerID(pub)
	if err != nil {
		return ""
	}
	return id.String()
}
