package webclient

import (
	"crypto/ed25519"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/bullshit-game/bullshit/protocol"
)

// The protocol names peers by libp2p's ed25519 peer-ID bytes and signs
// with libp2p's key type; these are the only places the browser client
// meets them (protocol is to get its own PeerID and take ed25519 keys,
// and then this file shrinks to nothing).

type peerID = peer.ID

// newSigner is the protocol's signer for key, and the peer ID it signs as.
func newSigner(key ed25519.PrivateKey) (*protocol.Signer, peerID, error) {
	k, err := crypto.UnmarshalEd25519PrivateKey(key)
	if err != nil {
		return nil, "", err
	}
	id, err := peer.IDFromPrivateKey(k)
	if err != nil {
		return nil, "", err
	}
	s, err := protocol.NewSigner(k, uint64(nowNano()))
	return s, id, err
}

// peerOf is the peer ID of a public key.
func peerOf(pub ed25519.PublicKey) (peerID, error) {
	k, err := crypto.UnmarshalEd25519PublicKey(pub)
	if err != nil {
		return "", err
	}
	return peer.IDFromPublicKey(k)
}

// PeerOf is the peer ID a key plays as, as text (the page shows its end).
func PeerOf(pub ed25519.PublicKey) string {
	id, err := peerOf(pub)
	if err != nil {
		return ""
	}
	return id.String()
}
