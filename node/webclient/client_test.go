package webclient

import (
	"encoding/hex"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/protocol"
)

// A whole game through the web entry of a table with a join code: the
// phone proves the code, plays every move it is offered, and verifies the
// deal itself at the end.
func TestJoinPlayVerify(t *testing.T) {
	h := newFakeHost(t, 7)
	h.code = "AB-12-CD"
	c, ch := join(t, h.addr(), "ab12cd", newKey(t))
	if c.Seat() != 0 {
		t.Fatalf("seat %d, want 0", c.Seat())
	}
	s := playOut(t, c, ch)
	if !s.Sheet.Verified {
		t.Fatalf("an honest game did not verify: %v", s.Sheet.Problems)
	}
	if len(s.Sheet.Rows) != 2 || s.Sheet.Rows[0].Place != 1 {
		t.Errorf("sheet rows %+v: want two, the winner first", s.Sheet.Rows)
	}
}

// A wrong join code is refused, and said so.
func TestWrongCodeRefused(t *testing.T) {
	h := newFakeHost(t, 7)
	h.code = "AB12CD"
	_, err := Join(t.Context(), Config{Key: newKey(t), Nick: "Ada", Code: "ZZ99CD", Addr: h.addr()})
	var ref *gamewire.Refused
	if !asRefused(err, &ref) || !strings.Contains(ref.Msg, "join code") {
		t.Fatalf("err %v, want the host's refusal of the code", err)
	}
}

// A host of an older major (1.9), whose refusal a 2.0 page can't read, is
// said to be too old, at once.
func TestOldHostToldTooOld(t *testing.T) {
	h := newFakeHost(t, 7)
	h.old = protocol.MakeVersion(1, 9)
	_, err := Join(t.Context(), Config{Key: newKey(t), Nick: "Ada", Addr: h.addr()})
	var ref *gamewire.Refused
	if !asRefused(err, &ref) || ref.Code != protocol.CodeVersion || ref.Msg != protocol.HostVersionRefusal(h.old) {
		t.Fatalf("err %v, want the host too old", err)
	}
}

// A node that seats the phone without proving the code (an impostor that
// doesn't know it, or one with no code at all) is not taken for the table.
func TestImpostorNotTaken(t *testing.T) {
	for _, c := range []struct{ name, code string }{{"wrong confirmation", "AB12CD"}, {"no code asked", ""}} {
		h := newFakeHost(t, 7)
		h.code, h.lie = c.code, true
		_, err := Join(t.Context(), Config{Key: newKey(t), Nick: "Ada", Code: "AB12CD", Addr: h.addr()})
		if !errors.Is(err, ErrImpostor) {
			t.Errorf("%s: err %v, want ErrImpostor", c.name, err)
		}
	}
}

// A host that reveals another seed than it committed to is caught.
func TestRevealedSeedCaught(t *testing.T) {
	h := newFakeHost(t, 7)
	h.revealed = 8
	c, ch := join(t, h.addr(), "", newKey(t))
	s := playOut(t, c, ch)
	if s.Sheet.Verified {
		t.Fatal("a game revealed with another seed verified")
	}
	if !strings.Contains(strings.Join(s.Sheet.Problems, " "), "commitment") {
		t.Errorf("problems %v: want the commitment named", s.Sheet.Problems)
	}
}

func asRefused(err error, ref **gamewire.Refused) bool {
	r, ok := err.(*gamewire.Refused)
	*ref = r
	return ok
}

// playSome plays n of the phone's moves.
func playSome(t *testing.T, c *Client, ch chan struct{}, n int) {
	t.Helper()
	for range n {
		s := waitFor(t, c, ch, "a move", func(s State) bool { return s.Moves.Play || s.Moves.Call })
		m := Move{Kind: "pass"}
		if s.Moves.Play {
			m = Move{Kind: "play", Cards: []int{s.Hand[0].ID}, Rank: -1}
		}
		if err := c.Do(m); err != nil {
			t.Fatal(err)
		}
		waitFor(t, c, ch, "the host's answer", func(n State) bool { return n.Play != s.Play || n.Moves.Call != s.Moves.Call })
	}
}

// A host whose backlog after a reconnection rewrites what the phone was
// shown is not believed: the phone keeps its own record and the deal does
// not verify. An honest backlog (the same host, the same story) does.
func TestBacklogNeverReplacesTheRecord(t *testing.T) {
	for _, lie := range []bool{false, true} {
		h := newFakeHost(t, 11)
		if lie {
			h.backlog = func(evs []engine.Event) []engine.Event {
				for i := range evs {
					if evs[i].Type == "hand" {
						evs[i].Cards = append([]engine.Card{evs[i].Cards[1], evs[i].Cards[0]}, evs[i].Cards[2:]...)
					}
				}
				return evs
			}
		}
		c, ch := join(t, h.addr(), "", newKey(t))
		playSome(t, c, ch, 6)
		h.drop()
		waitFor(t, c, ch, "the rejoin", func(s State) bool { return h.joinCount() == 2 && s.Status == "seated" })
		s := playOut(t, c, ch)
		if s.Sheet.Verified == lie {
			t.Errorf("lying backlog %v: verified %v, problems %v", lie, s.Sheet.Verified, s.Sheet.Problems)
		}
		if lie && !strings.Contains(strings.Join(s.Sheet.Problems, " "), "differs") {
			t.Errorf("problems %v: want the rewritten backlog named", s.Sheet.Problems)
		}
	}
}

// The host vanishes: the phone goes to the player nodes' web addresses of
// the last Lobby, passes over one that doesn't host the table, answers the
// new host's StateRequest with its journal and shares, gets its seat back
// at the next term, and finishes and verifies the game there.
func TestFollowTheHost(t *testing.T) {
	a := newFakeHost(t, 5)
	b := newFakeHost(t, 5)
	other := newFakeHost(t, 5)
	other.refuse = CodeNotHost
	a.players = []protocol.Player{
		{Seat: 1, Nick: "Cleo", Peer: b.id, Connected: true, WebAddr: b.addr()},
		{Seat: 2, Nick: "Dev", Peer: other.id, Connected: true, WebAddr: other.addr()}}
	c, ch := join(t, a.addr(), "", newKey(t))
	playSome(t, c, ch, 5)

	a.mu.Lock()
	b.mu.Lock()
	b.g, b.cfg, b.now, b.steps, b.sent, b.salt, b.revealed = a.g, a.cfg, a.now, a.steps, a.sent, a.salt, a.revealed
	b.nonces, b.commits = a.nonces, a.commits
	b.players, b.settings, b.term, b.askState, b.joins = a.players, a.settings, 2, true, 1
	hidden, steps := 0, len(a.steps)
	for _, st := range a.steps {
		if st.Cmd != nil && len(st.Cmd.Cards) > 0 {
			hidden++
		}
	}
	b.mu.Unlock()
	a.mu.Unlock()
	a.srv.Close()
	a.drop()

	var st protocol.State
	select {
	case st = <-b.states:
	case <-time.After(20 * time.Second):
		t.Fatal("the new host never got the phone's state")
	}
	// (The test host takes a State only in an envelope of its term, 2.)
	if len(st.Steps) != steps || len(st.Shares) != hidden {
		t.Errorf("state: %d steps, %d shares; want %d, %d", len(st.Steps), len(st.Shares), steps, hidden)
	}
	for _, s := range st.Steps {
		if len(s.Cards) > 0 && s.Hidden > 0 {
			t.Errorf("the journal the phone holds shows hidden cards: %+v", s)
		}
	}
	waitFor(t, c, ch, "the seat back", func(s State) bool { return s.Status == "seated" })
	if c.Seat() != 0 {
		t.Fatalf("seat %d after the new host, want 0", c.Seat())
	}
	s := playOut(t, c, ch)
	if !s.Sheet.Verified {
		t.Fatalf("the game did not verify after an honest failover: %v", s.Sheet.Problems)
	}
}

// A phone that sat at a table with a code, back (a reload) at a node
// whose host has since opened a new table with no code, is told so, not
// that the node may be an impostor; it isn't seated there unasked. The
// same table claiming no code, or any table failing the code's proof,
// is still an impostor.
func TestNewTableToldFromAnImpostor(t *testing.T) {
	h := newFakeHost(t, 7)
	other := "0908070605040302"
	_, err := Join(t.Context(), Config{Key: newKey(t), Nick: "Ada", Code: "AB12CD", CodeTable: other, Addr: h.addr()})
	if !errors.Is(err, ErrNewTable) {
		t.Errorf("a new open table at the node: err %v, want ErrNewTable", err)
	}
	same := hex.EncodeToString(h.tid[:])
	_, err = Join(t.Context(), Config{Key: newKey(t), Nick: "Ada", Code: "AB12CD", CodeTable: same, Addr: h.addr()})
	if !errors.Is(err, ErrImpostor) {
		t.Errorf("our own table asking no code: err %v, want ErrImpostor", err)
	}
	h2 := newFakeHost(t, 7)
	h2.code, h2.lie = "AB12CD", true
	_, err = Join(t.Context(), Config{Key: newKey(t), Nick: "Ada", Code: "AB12CD", CodeTable: other, Addr: h2.addr()})
	if !errors.Is(err, ErrImpostor) {
		t.Errorf("a table failing the code's proof: err %v, want ErrImpostor", err)
	}
	// A table that proved the code gives its ID for the next time.
	h3 := newFakeHost(t, 7)
	h3.code = "AB12CD"
	c, _ := join(t, h3.addr(), "AB12CD", newKey(t))
	if c.Table() != same {
		t.Errorf("Table() = %s, want %s", c.Table(), same)
	}
}

// A move the phone can't send is a Go error with the player's sentence
// beside it (protocol.Sentence is what the page shows).
func TestDoRefusalsSay(t *testing.T) {
	for _, w := range []struct {
		name string
		c    *Client
		m    Move
		say  string
	}{
		{"before the deal", &Client{}, Move{Kind: "play"}, "The game hasn't started."},
		{"a spectator", &Client{seat: -1, view: &engine.View{}}, Move{Kind: "pass"}, "You're watching: spectators don't play."},
		{"no window", &Client{seat: 0, view: &engine.View{}}, Move{Kind: "call"}, "There's nothing to call right now."},
	} {
		err := w.c.Do(w.m)
		var r *protocol.Refused
		if !errors.As(err, &r) || protocol.Sentence(err) != w.say || err.Error() == w.say {
			t.Errorf("%s: %v (%q), want the sentence %q beside a Go error", w.name, err, protocol.Sentence(err), w.say)
		}
	}
}
