package node

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/protocol"
)

// A phone page of 2.1 (a tab opened before its host updated) at a table
// asking for blind deals is seated as before and the game is dealt in the
// clear, the notice saying why: the page gets its view and hand as at any
// clear table, never a blind deal it can't read. A page of 2.2 at the
// same table would be a party (node/webclient's TestBlindPhonePlaysAWholeGame).
func TestWebOldPageGetsAClearTable(t *testing.T) {
	set := kitchen(3, "a")
	set.Blind = true
	hn, tb, _, w := webTable(t, set, dumbMaker)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, host, err := tb.Sit("local", "host")
	if err != nil {
		t.Fatal(err)
	}
	p := dialPhone(ctx, t, w.URL(), newPhoneKey(t), hn.key.GetPublic(), "")
	if err := p.send(protocol.Hello{Version: protocol.MakeVersion(2, 1), Nick: "Ada"}); err != nil {
		t.Fatal(err)
	}
	for p.seat < 0 {
		env, err := p.next()
		if err != nil {
			t.Fatal(err)
		}
		if m, ok := env.Msg.(protocol.Seated); ok {
			p.seat, p.tid, p.term = m.Seat, m.Table, env.Term
		}
	}
	go p.readLoop()
	go p.heartbeat()
	if err := tb.Start(); err != nil {
		t.Fatal(err)
	}
	why := ""
	for why == "" {
		select {
		case u := <-host.Updates():
			if strings.Contains(u.Notice, "blind") {
				why = u.Notice
			}
		case <-ctx.Done():
			t.Fatal("the host's screen never said why the deal isn't blind")
		}
	}
	if !strings.Contains(why, "Ada plays from an older version") {
		t.Errorf("the host says %q", why)
	}
	for {
		select {
		case u := <-p.Updates():
			if len(u.View.Hand) > 0 {
				var clear bool
				tb.Do(func() { clear = tb.Game != nil })
				if !clear {
					t.Fatal("the phone has a hand, and the host runs no clear game")
				}
				return
			}
		case <-ctx.Done():
			t.Fatal("the 2.1 page never got its hand")
		}
	}
}
