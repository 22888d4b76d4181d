// Package webwire is the secure channel a browser player speaks to a node's
// web entry: what libp2p's Noise handshake is to a terminal player, over one
// WebSocket.
//
// A page served over plain http from a LAN address is not a secure context,
// so the browser offers no TLS of our own and no WebCrypto; the channel is
// built from the standard library instead and runs the same in the node and
// in the page's WebAssembly. Three messages set it up:
//
//	player → host  "BSW2" ‖ eP                     ephemeral ristretto255 key
//	host → player  eH ‖ H ‖ sign_H("…host" ‖ t1)   t1 = SHA-256(label ‖ eP ‖ eH ‖ H)
//	player → host  P ‖ sign_P("…player" ‖ t2)      t2 = SHA-256(t1 ‖ P)
//
// where H and P are the two sides' long-term ed25519 identity keys (the ones
// their libp2p peer IDs name). Each signature covers both fresh ephemeral
// keys, so a recorded handshake can't be replayed into a new one, and the
// player's covers the host's identity, so it can't be relayed to another
// host. The keys of the two directions come from HKDF-SHA-256 over the
// Diffie–Hellman secret (the encoding of x_P·x_H·G in ristretto255, whose
// prime order leaves no small subgroup to check for; the identity is
// refused), salted with t2; after the handshake every WebSocket message is one
// AES-256-GCM box whose nonce is the count of boxes sent before it in that
// direction (a WebSocket is ordered and reliable, so nothing travels with
// it). A box that is dropped, reordered, replayed or altered fails to open
// and ends the connection.
//
// What the channel gives: the host knows which key is at the other end
// (Conn.Peer), and a listener on the Wi-Fi learns nothing of what travels.
// What it doesn't: the page itself comes over plain http, so a player who
// wants to be sure which table they reached compares the host key's
// fingerprint words the page shows with the host's screen.
//
// The exchange is over ristretto255 rather than X25519 because the page
// already carries ristretto255 for the join code's CPace, while crypto/ecdh
// links its NIST curves with X25519 (P-256 alone is 60 kB of the page's
// code). "BSW1" was the X25519 version: an opening with it, from a page
// cached before the change, is told to reload.
//
// A Conn is a net.Conn (outside the browser: the page doesn't import net)
// carrying a byte stream, each Write sealed as one
// WebSocket message (split above MaxPlain), so the node's framing runs over
// it unchanged.
package webwire

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ed25519"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gtank/ristretto255"
)

const (
	magic     = "BSW2"
	oldMagic  = "BSW1"
	label     = "bullshit/web/v1"
	hostCtx   = "bullshit/web/v1 host\x00"
	playerCtx = "bullshit/web/v1 player\x00"

	// MaxPlain is the most plaintext one message carries; a longer Write is
	// split.
	MaxPlain = 64 << 10
	// MaxMessage is the largest WebSocket message either side reads: a
	// sealed MaxPlain. Anything larger ends the connection.
	MaxMessage = MaxPlain + 16

	m1Size = len(magic) + 32
	m2Size = 32 + ed25519.PublicKeySize + ed25519.SignatureSize
	m3Size = ed25519.PublicKeySize + ed25519.SignatureSize
)

// ErrHandshake is wrapped by every refusal of a handshake.
var ErrHandshake = errors.New("web handshake refused")

// ErrBox is returned when a message fails to open: altered, replayed, out of
// order or not from the other side.
var ErrBox = errors.New("web message does not open")

// Conn is an established channel. Reads and writes may run concurrently with
// each other; each side is for one goroutine at a time, like a net.Conn.
type Conn struct {
	ws   Socket
	peer ed25519.PublicKey

	wmu  sync.Mutex
	seal cipher.AEAD
	wn   uint64

	rmu  sync.Mutex
	open cipher.AEAD
	rn   uint64
	rbuf []byte

	rdl, wdl atomic.Int64 // deadlines in Unix nanoseconds; 0 for none
	closed   atomic.Bool
}

// Accept runs the host's side of the handshake on ws, with the host's
// identity key. On success the player's key is proven and c.Peer names it;
// on a refusal ws is closed. ctx bounds the handshake.
func Accept(ctx context.Context, ws Socket, key ed25519.PrivateKey) (*Conn, error) {
	c, err := accept(ctx, ws, key)
	if err != nil {
		refuse(ws, err)
	}
	return c, err
}

// refuse ends a WebSocket whose handshake failed, at once: a close
// handshake would wait up to 5 s for a peer that may never answer (a flood
// of bad openings must cost the host nothing). The reason stays with the
// side that refused.
func refuse(ws Socket, _ error) { ws.CloseNow() }

func accept(ctx context.Context, ws Socket, key ed25519.PrivateKey) (*Conn, error) {
	ws.SetReadLimit(MaxMessage)
	m1, err := readExact(ctx, ws, m1Size, "the opening")
	if err != nil {
		return nil, err
	}
	switch string(m1[:len(magic)]) {
	case magic:
	case oldMagic:
		return nil, fmt.Errorf("%w: a page from an older version of the game: reload it", ErrHandshake)
	default:
		return nil, fmt.Errorf("%w: not a bullshit web client", ErrHandshake)
	}
	eP := m1[len(magic):]
	eh, err := newEphemeral()
	if err != nil {
		return nil, err
	}
	shared, err := eh.shared(eP)
	if err != nil {
		return nil, fmt.Errorf("%w: the player's ephemeral key: %v", ErrHandshake, err)
	}
	H := key.Public().(ed25519.PublicKey)
	t1 := transcript1(eP, eh.pub, H)
	m2 := make([]byte, 0, m2Size)
	m2 = append(append(m2, eh.pub...), H...)
	m2 = append(m2, ed25519.Sign(key, append([]byte(hostCtx), t1...))...)
	if err := ws.Write(ctx, m2); err != nil {
		return nil, err
	}
	m3, err := readExact(ctx, ws, m3Size, "the player's proof")
	if err != nil {
		return nil, err
	}
	P := ed25519.PublicKey(bytes.Clone(m3[:ed25519.PublicKeySize]))
	t2 := transcript2(t1, P)
	if !ed25519.Verify(P, append([]byte(playerCtx), t2...), m3[ed25519.PublicKeySize:]) {
		return nil, fmt.Errorf("%w: the player's signature does not verify", ErrHandshake)
	}
	return newConn(ws, P, shared, t2, "s2c", "c2s")
}

// Dial runs the player's side of the handshake on ws, with the player's
// identity key. host, when not nil, is the key the host must prove; nil
// takes whichever host answers (the page shows its fingerprint). On a
// refusal ws is closed.
func Dial(ctx context.Context, ws Socket, key ed25519.PrivateKey, host ed25519.PublicKey) (*Conn, error) {
	c, err := dial(ctx, ws, key, host)
	if err != nil {
		refuse(ws, err)
	}
	return c, err
}

func dial(ctx context.Context, ws Socket, key ed25519.PrivateKey, host ed25519.PublicKey) (*Conn, error) {
	ws.SetReadLimit(MaxMessage)
	ep, err := newEphemeral()
	if err != nil {
		return nil, err
	}
	if err := ws.Write(ctx, append([]byte(magic), ep.pub...)); err != nil {
		return nil, err
	}
	m2, err := readExact(ctx, ws, m2Size, "the host's answer")
	if err != nil {
		return nil, err
	}
	eH := m2[:32]
	H := ed25519.PublicKey(bytes.Clone(m2[32 : 32+ed25519.PublicKeySize]))
	if host != nil && !H.Equal(host) {
		return nil, fmt.Errorf("%w: the host's key is not the one expected", ErrHandshake)
	}
	t1 := transcript1(ep.pub, eH, H)
	if !ed25519.Verify(H, append([]byte(hostCtx), t1...), m2[32+ed25519.PublicKeySize:]) {
		return nil, fmt.Errorf("%w: the host's signature does not verify", ErrHandshake)
	}
	shared, err := ep.shared(eH)
	if err != nil {
		return nil, fmt.Errorf("%w: the host's ephemeral key: %v", ErrHandshake, err)
	}
	P := key.Public().(ed25519.PublicKey)
	t2 := transcript2(t1, P)
	m3 := append(bytes.Clone(P), ed25519.Sign(key, append([]byte(playerCtx), t2...))...)
	if err := ws.Write(ctx, m3); err != nil {
		return nil, err
	}
	return newConn(ws, H, shared, t2, "c2s", "s2c")
}

func transcript1(eP, eH []byte, H ed25519.PublicKey) []byte {
	h := sha256.New()
	h.Write([]byte(label))
	h.Write(eP)
	h.Write(eH)
	h.Write(H)
	return h.Sum(nil)
}

func transcript2(t1 []byte, P ed25519.PublicKey) []byte {
	h := sha256.New()
	h.Write(t1)
	h.Write(P)
	return h.Sum(nil)
}

func readExact(ctx context.Context, ws Socket, n int, what string) ([]byte, error) {
	binary, b, err := ws.Read(ctx)
	if err != nil {
		return nil, err
	}
	if !binary || len(b) != n {
		return nil, fmt.Errorf("%w: %s is %d bytes, not %d", ErrHandshake, what, len(b), n)
	}
	return b, nil
}

func newConn(ws Socket, peer ed25519.PublicKey, shared, salt []byte, send, recv string) (*Conn, error) {
	aead := func(info string) (cipher.AEAD, error) {
		k, err := hkdf.Key(sha256.New, shared, salt, label+" "+info, 32)
		if err != nil {
			return nil, err
		}
		b, err := aes.NewCipher(k)
		if err != nil {
			return nil, err
		}
		return cipher.NewGCM(b)
	}
	s, err := aead(send)
	if err != nil {
		return nil, err
	}
	o, err := aead(recv)
	if err != nil {
		return nil, err
	}
	return &Conn{ws: ws, peer: peer, seal: s, open: o}, nil
}

func nonce(n uint64) []byte {
	var b [12]byte
	binary.BigEndian.PutUint64(b[4:], n)
	return b[:]
}

// Peer is the other side's proven identity key.
func (c *Conn) Peer() ed25519.PublicKey { return c.peer }

func (c *Conn) ctx(dl *atomic.Int64) (context.Context, context.CancelFunc) {
	if d := dl.Load(); d != 0 {
		return context.WithDeadline(context.Background(), time.Unix(0, d))
	}
	// No Done channel: a Socket then sets no timer at all.
	return context.Background(), func() {}
}

// Read reads the stream: what is left of the last message opened, else the
// next message. A message that doesn't open ends the connection.
func (c *Conn) Read(p []byte) (int, error) {
	c.rmu.Lock()
	defer c.rmu.Unlock()
	for len(c.rbuf) == 0 {
		if err := c.next(); err != nil {
			return 0, err
		}
	}
	n := copy(p, c.rbuf)
	c.rbuf = c.rbuf[n:]
	return n, nil
}

func (c *Conn) next() error {
	ctx, cancel := c.ctx(&c.rdl)
	defer cancel()
	binary, b, err := c.ws.Read(ctx)
	if err != nil {
		return c.fail(ctx, err)
	}
	if !binary {
		c.ws.CloseNow()
		return fmt.Errorf("%w: a text message", ErrBox)
	}
	plain, err := c.open.Open(b[:0], nonce(c.rn), b, nil)
	if err != nil {
		c.ws.CloseNow()
		return fmt.Errorf("%w: message %d", ErrBox, c.rn)
	}
	c.rn++
	c.rbuf = plain
	return nil
}

// fail turns a deadline that ran out into os.ErrDeadlineExceeded, as a
// net.Conn reports it (a Socket closes when a read's context ends, so the
// Conn is finished either way).
func (c *Conn) fail(ctx context.Context, err error) error {
	if ctx.Err() == context.DeadlineExceeded {
		return fmt.Errorf("%w: %v", os.ErrDeadlineExceeded, err)
	}
	if c.closed.Load() {
		return errClosed
	}
	return err
}

// Write seals p as one message, or several when it is over MaxPlain.
func (c *Conn) Write(p []byte) (int, error) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	ctx, cancel := c.ctx(&c.wdl)
	defer cancel()
	n := 0
	for len(p) > 0 {
		chunk := p[:min(len(p), MaxPlain)]
		box := c.seal.Seal(make([]byte, 0, len(chunk)+c.seal.Overhead()), nonce(c.wn), chunk, nil)
		if err := c.ws.Write(ctx, box); err != nil {
			return n, c.fail(ctx, err)
		}
		c.wn++
		n += len(chunk)
		p = p[len(chunk):]
	}
	return n, nil
}

// Close ends the connection with a normal closure.
func (c *Conn) Close() error {
	if c.closed.Swap(true) {
		return nil
	}
	return c.ws.Close()
}

// Reset ends the connection at once, as a libp2p stream's Reset does.
func (c *Conn) Reset() error {
	c.closed.Store(true)
	return c.ws.CloseNow()
}

// SetDeadline sets both deadlines.
func (c *Conn) SetDeadline(t time.Time) error {
	c.SetReadDeadline(t)
	return c.SetWriteDeadline(t)
}

// SetReadDeadline bounds the reads that start after it; a zero t removes it.
// As with the Socket itself, a read that runs out ends the connection.
func (c *Conn) SetReadDeadline(t time.Time) error { store(&c.rdl, t); return nil }

// SetWriteDeadline bounds the writes that start after it.
func (c *Conn) SetWriteDeadline(t time.Time) error { store(&c.wdl, t); return nil }

func store(a *atomic.Int64, t time.Time) {
	if t.IsZero() {
		a.Store(0)
		return
	}
	a.Store(t.UnixNano())
}

// ephemeral is one side's fresh key for the exchange: a scalar and its
// point's encoding.
type ephemeral struct {
	x   *ristretto255.Scalar
	pub []byte
}

func newEphemeral() (ephemeral, error) {
	var b [64]byte
	if _, err := rand.Read(b[:]); err != nil {
		return ephemeral{}, err
	}
	x := ristretto255.NewScalar().FromUniformBytes(b[:])
	return ephemeral{x: x, pub: ristretto255.NewElement().ScalarBaseMult(x).Encode(nil)}, nil
}

// errIdentity is an ephemeral key that is the group's identity: it would
// make the secret known to anyone.
var errIdentity = errors.New("the identity element")

// shared is the secret with the other side's ephemeral key peer: refused
// when peer is not a canonical ristretto255 encoding or is the identity.
func (e ephemeral) shared(peer []byte) ([]byte, error) {
	P := ristretto255.NewElement()
	if err := P.Decode(peer); err != nil {
		return nil, err
	}
	if P.Equal(ristretto255.NewElement().Zero()) == 1 {
		return nil, errIdentity
	}
	return ristretto255.NewElement().ScalarMult(e.x, P).Encode(nil), nil
}
