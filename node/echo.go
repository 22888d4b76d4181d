package node

// A baseline for latency: a bare signed echo between two libp2p hosts over
// one stream, each side signing its message with its ed25519 key and the
// other verifying it. A move in the game costs at least this; `bullshit
// bench` prints the figures.

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
	ma "github.com/multiformats/go-multiaddr"
)

// EchoProtocol is the stream protocol of the signed echo.
const EchoProtocol protocol.ID = "/bullshit/echo/1.0.0"

// An echo message is a payload (4-byte sequence number, 32 random bytes),
// one byte of signature length and the signature. The signature covers a
// context string too, so that a request can never pass as a reply.
const (
	echoPayload = 36
	echoIdle    = 30 * time.Second // a server gives up on a silent stream
)

var (
	echoAsk   = []byte("bullshit echo request\x00")
	echoReply = []byte("bullshit echo reply\x00")
)

// ErrEchoMismatch means the reply did not echo the request or its signature
// did not verify.
var ErrEchoMismatch = errors.New("node: echo reply does not match")

// ServeEcho makes h answer signed echoes.
func ServeEcho(h host.Host) {
	key := h.Peerstore().PrivKey(h.ID())
	h.SetStreamHandler(EchoProtocol, func(s network.Stream) {
		defer s.Close()
		pub := s.Conn().RemotePublicKey()
		if key == nil || pub == nil {
			s.Reset()
			return
		}
		for {
			s.SetReadDeadline(time.Now().Add(echoIdle))
			payload, err := readEcho(s, pub, echoAsk)
			if err != nil {
				if !errors.Is(err, io.EOF) {
					s.Reset()
				}
				return
			}
			if err := writeEcho(s, key, echoReply, payload); err != nil {
				s.Reset()
				return
			}
		}
	})
}

// Echo sends n signed echoes to p over one stream and returns each round
// trip time. One unmeasured echo first pays for the stream's set-up.
func Echo(ctx context.Context, h host.Host, p peer.ID, n int) ([]time.Duration, error) {
	if n < 0 {
		return nil, fmt.Errorf("node: %d echoes", n)
	}
	key := h.Peerstore().PrivKey(h.ID())
	if key == nil {
		return nil, errors.New("node: host has no private key")
	}
	s, err := h.NewStream(ctx, p, EchoProtocol)
	if err != nil {
		return nil, fmt.Errorf("open echo stream: %w", err)
	}
	stop := context.AfterFunc(ctx, func() { s.Reset() })
	defer stop()
	defer s.Close()
	pub := s.Conn().RemotePublicKey()
	if pub == nil {
		s.Reset()
		return nil, errors.New("node: peer has no public key")
	}
	samples := make([]time.Duration, 0, n)
	payload := make([]byte, echoPayload)
	for i := 0; i <= n; i++ {
		binary.BigEndian.PutUint32(payload, uint32(i))
		rand.Read(payload[4:])
		start := time.Now()
		if err := writeEcho(s, key, echoAsk, payload); err != nil {
			s.Reset()
			return samples, orCtxErr(ctx, err)
		}
		got, err := readEcho(s, pub, echoReply)
		if err != nil {
			s.Reset()
			return samples, orCtxErr(ctx, err)
		}
		rtt := time.Since(start)
		if !bytes.Equal(got, payload) {
			s.Reset()
			return samples, ErrEchoMismatch
		}
		if i > 0 {
			samples = append(samples, rtt)
		}
	}
	return samples, nil
}

// EchoLoopback starts two hosts on 127.0.0.1 with fresh keys and returns n
// echo round trips between them.
func EchoLoopback(ctx context.Context, n int) ([]time.Duration, error) {
	var hs [2]host.Host
	for i := range hs {
		k, _, err := crypto.GenerateEd25519Key(rand.Reader)
		if err != nil {
			return nil, err
		}
		h, err := NewHost(ctx, HostConfig{Key: k, Listen: []ma.Multiaddr{ma.StringCast("/ip4/127.0.0.1/tcp/0")}})
		if err != nil {
			return nil, err
		}
		defer h.Close()
		hs[i] = h
	}
	ServeEcho(hs[1])
	if err := hs[0].Connect(ctx, peer.AddrInfo{ID: hs[1].ID(), Addrs: hs[1].Addrs()}); err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	return Echo(ctx, hs[0], hs[1].ID(), n)
}

// Percentile is the q-quantile (0 ≤ q ≤ 1) of samples by the nearest-rank
// method; 0 for no samples.
func Percentile(samples []time.Duration, q float64) time.Duration {
	if len(samples) == 0 {
		return 0
	}
	s := slices.Clone(samples)
	slices.Sort(s)
	q = min(max(q, 0), 1)
	i := int(math.Ceil(q*float64(len(s)))) - 1
	return s[min(max(i, 0), len(s)-1)]
}

func writeEcho(w io.Writer, key crypto.PrivKey, ctxStr, payload []byte) error {
	sig, err := key.Sign(append(slices.Clip(ctxStr), payload...))
	if err != nil {
		return err
	}
	if len(sig) > 255 {
		return errors.New("node: signature too long")
	}
	msg := make([]byte, 0, len(payload)+1+len(sig))
	msg = append(msg, payload...)
	msg = append(msg, byte(len(sig)))
	msg = append(msg, sig...)
	_, err = w.Write(msg)
	return err
}

func readEcho(r io.Reader, pub crypto.PubKey, ctxStr []byte) ([]byte, error) {
	buf := make([]byte, echoPayload+1)
	if _, err := io.ReadFull(r, buf); err != nil {
		return nil, err
	}
	payload := buf[:echoPayload]
	sig := make([]byte, buf[echoPayload])
	if _, err := io.ReadFull(r, sig); err != nil {
		return nil, err
	}
	ok, err := pub.Verify(append(slices.Clip(ctxStr), payload...), sig)
	if err != nil || !ok {
		return nil, ErrEchoMismatch
	}
	return payload, nil
}

func orCtxErr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}
