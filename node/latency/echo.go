package latency

import (
	"context"
	"crypto/rand"
	"fmt"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/bullshit-game/bullshit/node"
	"github.com/bullshit-game/bullshit/node/echo"
)

// Echo starts two of the game's hosts on 127.0.0.1 with fresh keys and
// returns n signed echo round trips between them: the floor under every
// move.
func Echo(ctx context.Context, n int) ([]time.Duration, error) {
	var hs [2]host.Host
	for i := range hs {
		h, _, err := LoopHost(ctx)
		if err != nil {
			return nil, err
		}
		defer h.Close()
		hs[i] = h
	}
	echo.Serve(hs[1])
	if err := hs[0].Connect(ctx, peer.AddrInfo{ID: hs[1].ID(), Addrs: hs[1].Addrs()}); err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	return echo.RoundTrips(ctx, hs[0], hs[1].ID(), n)
}

// LoopHost is one of the game's hosts (node.NewHost) on 127.0.0.1 only,
// with a fresh key; the caller closes it.
func LoopHost(ctx context.Context) (host.Host, crypto.PrivKey, error) {
	k, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	h, err := node.NewHost(ctx, node.HostConfig{Key: k, Listen: []ma.Multiaddr{ma.StringCast("/ip4/127.0.0.1/tcp/0")}})
	if err != nil {
		return nil, nil, err
	}
	return h, k, nil
}
