package node

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"strings"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/node/internal/nodetest"
	"github.com/bullshit-game/bullshit/node/table"
	"github.com/bullshit-game/bullshit/node/webclient"
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

// A phone's seat the host gives away at a blind table is the host's to
// play blind, a card a turn (the page runs no bot, and no other node
// knows the seat's cards): its turns go on without it, and the table says
// so.
func TestWebBlindPhoneGivenAway(t *testing.T) {
	set := kitchen(2)
	set.Blind = true
	_, tb, _, w := webTable(t, set, dumbMaker)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, host, err := tb.Sit("local", "host")
	if err != nil {
		t.Fatal(err)
	}
	_, key, _ := ed25519.GenerateKey(rand.Reader)
	c, err := webclient.Join(ctx, webclient.Config{Key: key, Nick: "Ada", Addr: w.URL()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := tb.Start(); err != nil {
		t.Fatal(err)
	}
	go table.PlayBot(ctx, host, &nodetest.DumbBot{Seat: 0}, dumbFallback, "fast", nil)
	for s := c.State(); len(s.Hand) == 0 || !s.Blind; s = c.State() {
		if ctx.Err() != nil {
			t.Fatalf("the phone never had its blind hand: %+v", s)
		}
		time.Sleep(20 * time.Millisecond)
	}
	seat := c.Seat()
	if err := tb.GiveToBot(seat); err != nil {
		t.Fatal(err)
	}
	for {
		var si table.SeatInfo
		tb.Do(func() { si = tb.State(-1).Seats[seat] })
		if si.Covered && si.MadeFor > 0 {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("nobody played the given-away phone's seat: %+v", si)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if news := strings.Join(c.State().News, " "); !strings.Contains(news, "The host plays Ada's seat blind") {
		t.Errorf("the phone wasn't told the host plays its seat: %q", news)
	}
}
