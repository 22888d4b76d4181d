package mentaltable

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/protocol"
)

// playUntil steps d until stop says so (or the game ends: a failure).
func playUntil(t *testing.T, d *Driver, stop func() bool) {
	t.Helper()
	for !stop() {
		if d.Over() {
			t.Fatal("the game ended first")
		}
		if err := d.Step(); err != nil {
			t.Fatalf("action %d: %v", d.Actions(), err)
		}
	}
}

// A dishonest host asks a node for what it may not have: to turn up, as
// its play, cards of its hand it never played; to hand over a card it
// still holds; to give its recovery shares of its own cards as another
// party's. Each node refuses, sends nothing, and its record and what it
// knows don't change: the host learns no card by asking.
func TestDishonestHostAsks(t *testing.T) {
	d := standard(t, 4, 21)
	if err := d.Shuffle(); err != nil {
		t.Fatal(err)
	}
	// Until party 1 has a play on the table and cards in its hand.
	playUntil(t, d, func() bool { return len(d.Nodes[1].plays) > 0 && d.B.HandSize(1) > 1 })
	nd := d.Nodes[1]
	if d.H.rec.n != 4 {
		t.Fatal("a table of four parties, one a seat")
	}
	var no int
	var played []engine.Handle
	for k, hs := range nd.plays {
		no, played = k, hs
	}
	hand := d.B.Hand(1)
	for _, c := range []struct {
		name string
		ask  protocol.DeckAsk
		want string
	}{
		{"open its hand as its play", protocol.DeckAsk{What: protocol.AskOpen, Party: 1, No: no, Handles: wireHandles(hand[:len(played)])}, "asks for cards it may not see"},
		{"open its play and a card more", protocol.DeckAsk{What: protocol.AskOpen, Party: 1, No: no, Handles: wireHandles(append(slices.Clone(played), hand[0]))}, "asks for cards it may not see"},
		{"hand over a card it holds", protocol.DeckAsk{What: protocol.AskHand, Party: 1, To: 2, Seat: 2, Handles: wireHandles(hand[:1])}, "asks for cards it may not see"},
		{"recover party 2's hand as a play", protocol.DeckAsk{What: protocol.AskRecover, Party: 2, No: no, Handles: wireHandles(d.B.Hand(2)[:2])}, "asks for cards it may not see"},
		{"recover party 1's own play as party 2's", protocol.DeckAsk{What: protocol.AskRecover, Party: 2, No: no, Handles: wireHandles(played)}, "asks for cards it may not see"},
	} {
		t.Run(c.name, func(t *testing.T) {
			asks, known := len(nd.rec.asks), maps.Clone(nd.known)
			out, err := nd.Ask(c.ask)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("the node answered %v, %v; want a refusal saying %q", out, err, c.want)
			}
			if len(out) != 0 {
				t.Fatalf("the node sent %v", out)
			}
			if !maps.Equal(known, nd.known) {
				t.Fatal("the ask changed what the node knows")
			}
			// The ask stays in the record as one the node refused: the
			// table waits on it, and the host's clock, not the node, ends it.
			nd.rec.asks = nd.rec.asks[:asks]
			t.Logf("refused: %v", err)
		})
	}
}

// A message whose From isn't its signer's party is refused by every
// record, the host's first: a party can't answer for another.
func TestMessageFromAnotherParty(t *testing.T) {
	d := standard(t, 3, 5)
	d.Tamper = func(m any) {
		if k, ok := m.(*protocol.DeckKey); ok && k.From == 1 {
			k.From = 2
		}
	}
	err := d.Shuffle()
	if err == nil || !errorsNames(err, 1) || !errors.Is(err, ErrNotExpected) {
		t.Fatalf("got %v; want party 1 refused for a key signed as party 2's", err)
	}
}
