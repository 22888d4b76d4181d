package node

import (
	"crypto/ed25519"
	"fmt"
	"time"

	"github.com/bullshit-game/bullshit/protocol"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// The node speaks libp2p; protocol names peers and keys without it, so a
// client compiled to WebAssembly need not carry libp2p. The two meet here.
// A protocol.PeerID holds the very bytes of a libp2p peer.ID, so crossing
// is a string conversion, and a bullshit peer's libp2p key is ed25519, the
// key protocol signs with.

// wireID is a libp2p peer as protocol names it; peer.ID(id) goes back.
func wireID(id peer.ID) protocol.PeerID { return protocol.PeerID(id) }

// edKey is the ed25519 key under the libp2p key k. Any other kind of key is
// refused with protocol.ErrKey: its peer ID could not check a signature.
func edKey(k crypto.PrivKey) (ed25519.PrivateKey, error) {
	if _, ok := k.(*crypto.Ed25519PrivateKey); !ok {
		return nil, fmt.Errorf("%w: %T", protocol.ErrKey, k)
	}
	raw, err := k.Raw()
	if err != nil {
		return nil, err
	}
	if len(raw) != ed25519.PrivateKeySize {
		return nil, fmt.Errorf("%w: %d bytes", protocol.ErrKey, len(raw))
	}
	return ed25519.PrivateKey(raw), nil
}

// newSigner signs for the libp2p key k. Its numbers start at the clock in
// nanoseconds, above any a restart with the same key may have used.
func newSigner(k crypto.PrivKey) (*protocol.Signer, error) {
	key, err := edKey(k)
	if err != nil {
		return nil, err
	}
	return protocol.NewSigner(key, uint64(time.Now().UnixNano()))
}

// edKeyOrNil is edKey, nil for a key that isn't ed25519 (a table given it
// doesn't sign its chain).
func edKeyOrNil(k crypto.PrivKey) ed25519.PrivateKey {
	if k == nil {
		return nil
	}
	ek, err := edKey(k)
	if err != nil {
		return nil
	}
	return ek
}
