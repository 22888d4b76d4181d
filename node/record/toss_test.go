package record

import (
	"testing"

	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/protocol"
)

// The toss: a commitment when asked, the nonce once ours is among the
// relayed commitments, nothing twice; a new toss after our reveal, for a
// deal we never saw, is a rerun the audit names.
func TestTossAnswer(t *testing.T) {
	var tt Toss
	round := [32]byte{9}
	c, ok := tt.Answer(protocol.Toss{Round: round}, 1, [32]byte{}).(protocol.NonceCommit)
	if !ok || c.Hash != gamewire.NonceHash(round, 1, tt.Mine) {
		t.Fatalf("asked for a commitment: %+v", c)
	}
	if m := tt.Answer(protocol.Toss{Round: round}, 1, [32]byte{}); m != nil {
		t.Errorf("asked twice, answered twice: %+v", m)
	}
	if m := tt.Answer(protocol.Toss{Round: round, Commits: [][32]byte{{}, {5}}}, 1, [32]byte{}); m != nil || tt.Revealed {
		t.Errorf("our commitment left out, yet revealed: %+v", m)
	}
	var t2 Toss
	c2 := t2.Answer(protocol.Toss{Round: round}, 1, [32]byte{}).(protocol.NonceCommit)
	rv, ok := t2.Answer(protocol.Toss{Round: round, Commits: [][32]byte{{}, c2.Hash}}, 1, [32]byte{}).(protocol.NonceReveal)
	if !ok || rv.Nonce != t2.Mine || !t2.Revealed {
		t.Fatalf("the reveal: %+v", rv)
	}
	if m := t2.Answer(protocol.Toss{Round: round, Commits: [][32]byte{{}, c2.Hash}}, 1, [32]byte{}); m != nil {
		t.Errorf("revealed twice: %+v", m)
	}
	t2.Answer(protocol.Toss{Round: [32]byte{10}}, 1, [32]byte{})
	if !t2.Rerun {
		t.Error("a new toss after our reveal, with no deal from it, is no rerun")
	}
	// A failover's new deal: the host dealt from our reveal, the game
	// was played, and the table rebuilt without it deals again. Its lobby
	// names no deal before the toss; the last deal shown is ours.
	var t3 Toss
	c3 := t3.Answer(protocol.Toss{Round: round}, 1, [32]byte{}).(protocol.NonceCommit)
	t3.Answer(protocol.Toss{Round: round, Commits: [][32]byte{{}, c3.Hash}}, 1, [32]byte{})
	if _, ok := t3.Answer(protocol.Toss{Round: [32]byte{11}}, 1, round).(protocol.NonceCommit); !ok || t3.Rerun {
		t.Errorf("a new toss after a deal from our reveal was called a rerun (or not answered): %+v", t3)
	}
	if g := tt.Spent(nil); g.Mine != ([gamewire.NonceSize]byte{}) {
		t.Error("an unrevealed nonce went into the audit")
	}
	if m := tt.Answer(protocol.Toss{Round: [32]byte{3}}, -1, [32]byte{}); m != nil {
		t.Errorf("a spectator answered a toss: %+v", m)
	}
}
