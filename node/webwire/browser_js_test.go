package webwire

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"testing"
	"time"
)

// The page's WebSocket (DialBrowser) carries the channel to a real host:
// the echo host of TestBrowserSocketInNode, whose address and key come in
// the environment. Run alone (no host), it skips.
func TestBrowserSocket(t *testing.T) {
	url, hostHex := os.Getenv("WEBWIRE_ECHO"), os.Getenv("WEBWIRE_HOST")
	if url == "" {
		t.Skip("no echo host: run by TestBrowserSocketInNode")
	}
	host, err := hex.DecodeString(hostHex)
	if err != nil {
		t.Fatal(err)
	}
	_, key, _ := ed25519.GenerateKey(rand.Reader)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	if _, err := DialBrowser(ctx, "not a url"); err == nil {
		t.Error("a malformed address dialled")
	}
	ws, err := DialBrowser(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Dial(ctx, ws, key, ed25519.PublicKey(host))
	if err != nil {
		t.Fatal(err)
	}
	// Small, and over MaxPlain: split into two boxes, and joined again
	// by the host's echo.
	for _, n := range []int{1, 300, MaxPlain + 1000} {
		msg := make([]byte, n)
		rand.Read(msg)
		if _, err := c.Write(msg); err != nil {
			t.Fatal(err)
		}
		got := make([]byte, n)
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		if _, err := io.ReadFull(c, got); err != nil {
			t.Fatalf("%d bytes: %v", n, err)
		}
		if !bytes.Equal(got, msg) {
			t.Fatalf("%d bytes came back changed", n)
		}
	}
	// A read that runs out ends the connection, as a net.Conn's does.
	c.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	if _, err := c.Read(make([]byte, 1)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("a read past its deadline: %v", err)
	}
	c.SetReadDeadline(time.Time{})
	if _, err := c.Write([]byte("x")); err == nil {
		// The close is under way; the browser may still take one send.
		time.Sleep(100 * time.Millisecond)
		if _, err := c.Write([]byte("x")); err == nil {
			t.Error("writes go on after a read ran out")
		}
	}

	// A fresh channel, closed by us: reads end.
	ws, err = DialBrowser(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	c, err = Dial(ctx, ws, key, ed25519.PublicKey(host))
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	if _, err := c.Read(make([]byte, 1)); err == nil {
		t.Error("a read after Close")
	}
}
