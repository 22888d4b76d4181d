package mentaltable

import (
	"errors"
	"maps"
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

// A dishonest host tries to make a node give up what it may not: no ask
// comes over the wire, so it can only feed the node's copy of the host
// inputs the game doesn't have. It says the game is over mid-game (to
// collect every secret), relays an opening of a seat's hand nobody asked
// for, and makes up a call on a play after its window closed and a move
// out of turn. The node refuses each, sends nothing, and what it knows
// doesn't change.
func TestDishonestHostInputs(t *testing.T) {
	d := standard(t, 4, 21)
	if err := d.Shuffle(); err != nil {
		t.Fatal(err)
	}
	// Until a play's window has closed and the next seat is to play.
	playUntil(t, d, func() bool { return d.B.Phase() == engine.PhasePlay && d.B.View(-1).Last != nil && d.Actions() > 6 })
	nd := d.Nodes[1]
	last := d.B.View(-1).Last
	other := (d.B.Turn() + 1) % 4
	hand := d.B.Hand(1)
	open, err := nd.open(hand[:1])
	if err != nil {
		t.Fatal(err)
	}
	open.No = last.No + 5
	for _, c := range []struct {
		name string
		in   Input
		want string
	}{
		{"the end, mid-game", Input{What: InputFinish}, "the game isn't over"},
		{"an opening of a hand nobody asked for", Input{What: InputMsg, From: 1, Msg: open}, "nothing of party 1's is due"},
		{"a call after the window", Input{What: InputMove, At: d.now, Cmd: engine.BlindCommand{Move: engine.MoveCall, Seat: other, No: last.No}}, "refused seat"},
		{"a play out of turn", Input{What: InputMove, At: d.now, Cmd: engine.BlindCommand{Move: engine.MovePlay, Seat: other, Handles: d.B.Hand(other)[:1]}}, "refused seat"},
	} {
		t.Run(c.name, func(t *testing.T) {
			known, asks, log := maps.Clone(nd.known), len(nd.rec.asks), len(nd.h.log)
			out, err := nd.Input(c.in)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("the node took it: %v, %v; want a refusal saying %q", out, err, c.want)
			}
			if len(out) != 0 {
				t.Fatalf("the node sent %v", out)
			}
			if !maps.Equal(known, nd.known) || len(nd.rec.asks) != asks || len(nd.h.log) != log {
				t.Fatal("the input changed the node")
			}
			t.Logf("refused: %v", err)
		})
	}
	// And the game goes on, the node never having published.
	if err := d.Play(20000); err != nil {
		t.Fatal(err)
	}
	if _, _, err := d.Finish(); err != nil {
		t.Fatal(err)
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
