// Package echo is a baseline for latency: a bare signed echo between two
// libp2p hosts over one stream, each side signing its message with its
// ed25519 key and the other verifying it. A move in the game costs at least
// this; `bullshit bench` prints the figures (through node/latency), and the
// namespace tests use it to prove a table found is one they can reach.
//
// It is measurement code, not the game: node never imports it, and it
// never imports node (node's own tests use it).
package echo

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
)

// Protocol is the stream protocol of the signed echo.
const Protocol protocol.ID = "/bullshit/echo/1.0.0"

// An echo message is a payload (4-byte sequence number, 32 random bytes),
// one byte of signature length and the signature. The signature covers a
// context string too, so that a request can never pass as a reply.
const (
	payloadSize = 36
	echoIdle    = 30 * time.Second // a server gives up on a silent stream
)

var (
	ask   = []byte("bullshit echo request\x00")
	reply = []byte("bullshit echo reply\x00")
)

// ErrMismatch means the reply did not echo the request or its signature
// did not verify.
var ErrMismatch = errors.New("echo: reply does not match")

// Serve makes h answer signed echoes.
func Serve(h host.Host) {
	key := h.Peerstore().PrivKey(h.ID())
	h.SetStreamHandler(Protocol, func(s network.Stream) {
		defer s.Close()
		pub := s.Conn().RemotePublicKey()
		if key == nil || pub == nil {
			s.Reset()
			return
		}
		for {
			s.SetReadDeadline(time.Now().Add(echoIdle))
			payload, err := readSigned(s, pub, ask)
			if err != nil {
				if !errors.Is(err, io.EOF) {
					s.Reset()
				}
				return
			}
			if err := writeSigned(s, key, reply, payload); err != nil {
				s.Reset()
				return
			}
		}
	})
}

// RoundTrips sends n signed echoes to p over one stream and returns each
// round trip time. One unmeasured echo first pays for the stream's set-up.
func RoundTrips(ctx context.Context, h host.Host, p peer.ID, n int) ([]time.Duration, error) {
	if n < 0 {
		return nil, fmt.Errorf("echo: %d echoes", n)
	}
	key := h.Peerstore().PrivKey(h.ID())
	if key == nil {
		return nil, errors.New("echo: host has no private key")
	}
	s, err := h.NewStream(ctx, p, Protocol)
	if err != nil {
		return nil, fmt.Errorf("open echo stream: %w", err)
	}
	stop := context.AfterFunc(ctx, func() { s.Reset() })
	defer stop()
	defer s.Close()
	pub := s.Conn().RemotePublicKey()
	if pub == nil {
		s.Reset()
		return nil, errors.New("echo: peer has no public key")
	}
	samples := make([]time.Duration, 0, n)
	payload := make([]byte, payloadSize)
	for i := 0; i <= n; i++ {
		binary.BigEndian.PutUint32(payload, uint32(i))
		rand.Read(payload[4:])
		start := time.Now()
		if err := writeSigned(s, key, ask, payload); err != nil {
			s.Reset()
			return samples, orCtxErr(ctx, err)
		}
		got, err := readSigned(s, pub, reply)
		if err != nil {
			s.Reset()
			return samples, orCtxErr(ctx, err)
		}
		rtt := time.Since(start)
		if !bytes.Equal(got, payload) {
			s.Reset()
			return samples, ErrMismatch
		}
		if i > 0 {
			samples = append(samples, rtt)
		}
	}
	return samples, nil
}

func writeSigned(w io.Writer, key crypto.PrivKey, ctxStr, payload []byte) error {
	sig, err := key.Sign(append(slices.Clip(ctxStr), payload...))
	if err != nil {
		return err
	}
	if len(sig) > 255 {
		return errors.New("echo: signature too long")
	}
	msg := make([]byte, 0, len(payload)+1+len(sig))
	msg = append(msg, payload...)
	msg = append(msg, byte(len(sig)))
	msg = append(msg, sig...)
	_, err = w.Write(msg)
	return err
}

func readSigned(r io.Reader, pub crypto.PubKey, ctxStr []byte) ([]byte, error) {
	buf := make([]byte, payloadSize+1)
	if _, err := io.ReadFull(r, buf); err != nil {
		return nil, err
	}
	payload := buf[:payloadSize]
	sig := make([]byte, buf[payloadSize])
	if _, err := io.ReadFull(r, sig); err != nil {
		return nil, err
	}
	ok, err := pub.Verify(append(slices.Clip(ctxStr), payload...), sig)
	if err != nil || !ok {
		return nil, ErrMismatch
	}
	return payload, nil
}

func orCtxErr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}
