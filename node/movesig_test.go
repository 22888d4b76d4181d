package node

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/table"
	"github.com/bullshit-game/bullshit/protocol"
)

// A player's move carries its own signature (issue 13: "a move made in a
// seat's name carries that seat's own signature, kept in the journal").
// The host refuses a move signed by another key, and an unsigned one from
// a player that signs; the move it takes is kept with the seat's
// signature, which the other players get in their journals and check.
func TestSeatSignsItsMoves(t *testing.T) {
	hn, tb, _ := hostTableWith(t, table.Settings{Seats: 2}, stillMaker)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rs := dialPlayers(t, ctx, hn, 2)
	if err := tb.Start(); err != nil {
		t.Fatal(err)
	}
	views := make([]engine.View, 2)
	for i, r := range rs {
		views[i] = waitFor(t, ctx, r, func(u table.Update) bool { return len(u.View.Hand) > 0 }).View
	}
	mover := -1
	for i, r := range rs {
		if views[i].Turn == r.Seat() {
			mover = i
		}
	}
	if mover < 0 {
		t.Fatalf("seat %d leads, and neither player sits there", views[0].Turn)
	}
	r, other := rs[mover], rs[1-mover]
	cmd := engine.Command{Move: engine.MovePlay, Cards: views[mover].Hand[:1], Rank: engine.NoRank}
	var tid protocol.TableID
	var commit [32]byte
	r.do(func() { tid, commit = r.tid, r.table.Commit })
	m := gamewire.WireMove(cmd, r.Seat())
	refused := func(what string, msg protocol.Message, want string) {
		t.Helper()
		var err error
		r.do(func() { err = r.send(msg) })
		if err != nil {
			t.Fatal(err)
		}
		u := waitFor(t, ctx, r, func(u table.Update) bool { return u.Refusal != nil })
		if u.Refusal.Code != engine.CodeBadCommand || !strings.Contains(u.Refusal.Msg, want) {
			t.Fatalf("%s: refused %s %q, want bad_command %q", what, u.Refusal.Code, u.Refusal.Msg, want)
		}
		if tb.Plays() != 0 {
			t.Fatalf("%s: the move was taken", what)
		}
	}
	refused("another's signature", gamewire.SignedMove(mustEd(t, other.key), tid, commit, m), "signature doesn't verify")
	refused("no signature", m, "carries no signature")
	// Signed for another deal, or another claim than the one sent.
	refused("another deal", gamewire.SignedMove(mustEd(t, r.key), tid, [32]byte{1}, m), "signature doesn't verify")
	lie := gamewire.SignedMove(mustEd(t, r.key), tid, commit, m).(protocol.Play)
	lie.Claim = 3
	refused("a claim it didn't sign", lie, "signature doesn't verify")

	if err := r.Send(cmd); err != nil {
		t.Fatal(err)
	}
	for tb.Plays() != 1 {
		time.Sleep(10 * time.Millisecond)
	}
	var link table.Link
	var step engine.Step
	tb.Do(func() {
		i := len(tb.Log) - 1
		link, step = tb.Chain.Links[i], tb.Log[i]
	})
	pub, err := wireID(r.h.ID()).PublicKey()
	if err != nil {
		t.Fatal(err)
	}
	if step.Cmd == nil || !gamewire.MarkOK(pub, tid, commit, *step.Cmd, link.Mark) {
		t.Fatalf("the host kept step %+v with mark %x: not the seat's signature", step.Cmd, link.Mark)
	}
	// The other player is sent the step, its card left out, with the
	// seat's signature, and checks it.
	var w protocol.Step
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		var doubt []string
		other.do(func() {
			for _, s := range other.chain.Steps {
				if !s.Tick && s.Move == uint8(engine.MovePlay) {
					w = s
				}
			}
			doubt = append(doubt, other.chain.Doubt...)
		})
		if len(doubt) > 0 {
			t.Fatalf("the other player doubts the journal: %q", doubt)
		}
		if w.Mark != nil {
			break
		}
		select {
		case <-other.Updates():
		case <-time.After(50 * time.Millisecond):
		}
	}
	if w.Cards != nil || w.Hidden != 1 {
		t.Fatalf("the other player got the play's card: %+v", w)
	}
	if !gamewire.StepMarkOK(pub, tid, commit, w) {
		t.Fatalf("the other player's journal holds %+v: not the seat's signature", w)
	}
}
