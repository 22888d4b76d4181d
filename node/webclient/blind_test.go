//go:build !js && !nohost

// nohost leaves these tests out, and with them node and its libp2p: CI
// fuzzes this package with that tag, since fuzzing compiles every package
// a test binary holds with its instrumentation (libp2p's took 95 s).

package webclient

// The phone at a blind table, against a real host: node's server and web
// door on loopback, its table dealing blind, the host's own seat played
// by a bot through its node's party (which also runs the table's bots).
// The phone's Player makes its view, answers the deck by itself and
// audits the end in this process, as the page does in a browser.

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/bot"
	"github.com/bullshit-game/bullshit/node"
	"github.com/bullshit-game/bullshit/node/table"
)

// blindHost is a node hosting a blind table of seats on loopback, its web
// door open, the host seated and played by a bot; bots fill the seats
// past people.
type blindHost struct {
	ho   *node.Hosted
	web  string
	host table.Session
	done chan error
}

func botMaker(name string, seat int, seed uint64) (table.Player, error) {
	return bot.New(name, seat, seed)
}

func newBlindHost(t *testing.T, seats int, bots ...string) *blindHost {
	t.Helper()
	k, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	d, err := node.NewDevice(context.Background(), node.DeviceConfig{Key: k, Name: "Hosty",
		Listen: []ma.Multiaddr{ma.StringCast("/ip4/127.0.0.1/tcp/0")}, Bots: botMaker, Fallback: bot.Fallback,
		Web: &node.WebConfig{Addr: "127.0.0.1:0", Assets: http.NotFoundHandler()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	rules := engine.Standard()
	rules.Window = time.Second
	ho, err := d.Open(table.Settings{Name: "Kitchen", Rules: rules, Seats: seats, Bots: bots, Pace: "fast", Blind: true,
		Timing: table.Timing{Reveal: 50 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ho.Close)
	_, sess, err := ho.Sit("local", "Hosty")
	if err != nil {
		t.Fatal(err)
	}
	return &blindHost{ho: ho, web: d.WebURL(), host: sess, done: make(chan error, 1)}
}

// start deals, the host's seat played by a bot till the end.
func (h *blindHost) start(t *testing.T, ctx context.Context) {
	t.Helper()
	if err := h.ho.Start(); err != nil {
		t.Fatal(err)
	}
	b, _ := bot.New("medium", 0, 1)
	go func() {
		_, err := table.PlayBot(ctx, h.host, b, bot.Fallback, "fast", nil)
		h.done <- err
	}()
}

// blindGame reports whether the host's game in play is blind: it runs no
// clear engine (it sees no card).
func (h *blindHost) blindGame() bool {
	clear := true
	h.ho.Do(func() { clear = h.ho.Game != nil })
	return !clear && h.ho.Config().Blind
}

// phone joins h's table from a "browser" keeping its storage in st;
// seen, if set, sees every state the page would draw.
func (h *blindHost) phone(t *testing.T, key ed25519.PrivateKey, st Store, seen func(State)) (*Client, chan struct{}) {
	t.Helper()
	ch, note := watch()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var c *Client
	var mu sync.Mutex
	changed := func() {
		mu.Lock()
		cl := c
		mu.Unlock()
		if seen != nil && cl != nil {
			seen(cl.State())
		}
		note()
	}
	cl, err := Join(ctx, Config{Key: key, Nick: "Ada", Addr: h.web, OnChange: changed, Store: st})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	c = cl
	mu.Unlock()
	t.Cleanup(func() { cl.Close() })
	return cl, ch
}

// reload is the page going away as a reload takes it: the socket cut,
// no Leave said, nothing more taken.
func reload(c *Client) {
	c.closed.Store(true)
	c.mu.Lock()
	l := c.link
	c.mu.Unlock()
	if l != nil {
		l.close()
	}
	c.cancel()
	<-c.done
}

// playBlind plays the phone's seat, its first card on its turn, calling
// every other window and letting the rest go, till the sheet is checked or stop says so. A
// move the host refuses while a call's cards are shown goes again.
func playBlind(t *testing.T, c *Client, ch chan struct{}, stop func(moves int) bool) State {
	t.Helper()
	for moves := 0; ; moves++ {
		s := waitFor(t, c, ch, "a move or the end", func(s State) bool {
			return s.Moves.Play || s.Moves.Call || (s.Sheet != nil && s.Sheet.Checked)
		})
		if s.Sheet != nil && s.Sheet.Checked || stop != nil && stop(moves) {
			return s
		}
		if s.RevealMS > 0 {
			// As the page does: no move while a call's cards are shown.
			time.Sleep(time.Duration(s.RevealMS) * time.Millisecond)
		}
		m := Move{Kind: "call"} // a true claim called gives us the pile
		if moves%2 == 1 {
			m.Kind = "pass"
		}
		if s.Moves.Play {
			m = Move{Kind: "play", Cards: []int{s.Hand[0].ID}, Rank: -1}
			if s.Moves.Choose {
				m.Rank = s.Moves.Ranks[0].Rank
			}
		}
		if err := c.Do(m); err != nil && !strings.Contains(err.Error(), "Wait") {
			t.Fatalf("move %+v: %v", m, err)
		}
		waitFor(t, c, ch, "the host's answer", func(n State) bool {
			return n.Play != s.Play || n.Moves.Call != s.Moves.Call || n.Moves.Play != s.Moves.Play || n.Refusal != ""
		})
		if r := c.State().Refusal; r != "" && !strings.HasPrefix(r, "Wait") {
			t.Fatalf("refused: %s", r)
		}
	}
}

// A phone at a blind table is a party: it plays a whole game against the
// host and a bot (which the host's node runs, and the phone is told so),
// from a view and events its own Player made, and its own audit of the
// end verifies. The host's game was blind: it ran no clear engine.
func TestBlindPhonePlaysAWholeGame(t *testing.T) {
	h := newBlindHost(t, 3, "medium")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// The most cards the page ever said were on their way to its hand.
	var coming atomic.Int64
	c, ch := h.phone(t, newKey(t), newMapStore(), func(s State) {
		if int64(s.Coming) > coming.Load() {
			coming.Store(int64(s.Coming))
		}
	})
	h.start(t, ctx)
	s := waitFor(t, c, ch, "the deal", func(s State) bool { return len(s.Hand) > 0 })
	if !s.Blind || !h.blindGame() {
		t.Fatalf("the game isn't blind (phone %v, host %v): %v", s.Blind, h.blindGame(), s.News)
	}
	for _, seat := range s.Seats {
		if seat.Bot != "" && seat.RunBy != "Hosty" {
			t.Errorf("the bot of seat %d runs on %q's, want the host's node (a phone runs none)", seat.No, seat.RunBy)
		}
	}
	s = playBlind(t, c, ch, nil)
	if !s.Sheet.Verified {
		t.Fatalf("the phone's audit of an honest blind game: %v", s.Sheet.Problems)
	}
	if s.Record == 0 || len(s.Sheet.Rows) != 3 {
		t.Fatalf("the phone's record holds %d events, its sheet %d rows", s.Record, len(s.Sheet.Rows))
	}
	if !strings.Contains(strings.Join(s.News, " "), "Deal verified in this browser") {
		t.Errorf("the news doesn't say the phone verified the deal: %q", s.News)
	}
	took := deckTakes(c)
	if took > 0 && coming.Load() == 0 {
		t.Errorf("the phone took the pile %d times, and never said cards were coming to its hand", took)
	}
	t.Logf("the phone took the pile %d times; at most %d cards were on their way to it at once", took, coming.Load())
	if err := <-h.done; err != nil {
		t.Fatalf("the host's seat: %v", err)
	}
	if n := deckAgain(c); n != 0 {
		t.Errorf("the host refused %d of the phone's deck answers as taken already", n)
	}
}

// deckTakes is how many times the phone's seat took the pile.
func deckTakes(c *Client) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, e := range c.blind.pl.Events(c.seat) {
		if e.Type == engine.EventTake && e.Seat == c.seat {
			n++
		}
	}
	return n
}

// deckAgain is how many of c's deck answers the host refused as taken
// already.
func deckAgain(c *Client) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.blind == nil {
		return -1
	}
	return c.blind.again
}

// A phone reloaded mid-game is the same party: the new page takes its
// deck secret back from the tab's storage, replays the host's log (sent
// whole after the reconnection) without sending what the host took
// already, and plays on to an end it verifies. Without the storage it
// can't be the party again, and says why.
func TestBlindPhoneReloadKeepsItsParty(t *testing.T) {
	for _, keep := range []bool{true, false} {
		name := map[bool]string{true: "kept", false: "storage lost"}[keep]
		t.Run(name, func(t *testing.T) {
			h := newBlindHost(t, 3, "medium")
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			key, st := newKey(t), newMapStore()
			c, ch := h.phone(t, key, st, nil)
			h.start(t, ctx)
			playBlind(t, c, ch, func(moves int) bool { return moves == 4 })
			before := c.State()
			reload(c)
			if !keep {
				st = newMapStore()
			}
			c, ch = h.phone(t, key, st, nil)
			if !keep {
				s := waitFor(t, c, ch, "the lost secret said", func(s State) bool {
					return strings.Contains(strings.Join(s.News, " "), "lost its deck secret")
				})
				if len(s.Hand) != 0 || s.Moves.Play {
					t.Fatalf("a phone without its secret shows a hand of %d", len(s.Hand))
				}
				return
			}
			s := waitFor(t, c, ch, "the game again, as it was shown", func(s State) bool { return len(s.Hand) > 0 && s.Restored >= before.Record })
			c.mu.Lock()
			restored := c.blind != nil && c.blind.pl.Restored()
			c.mu.Unlock()
			if !restored || before.Record == 0 {
				t.Fatalf("after the reload: restored %v, %d events replayed of the %d shown before", restored, s.Restored, before.Record)
			}
			s = playBlind(t, c, ch, nil)
			if !s.Sheet.Verified {
				t.Fatalf("the reloaded phone's audit: %v", s.Sheet.Problems)
			}
			if n := deckAgain(c); n != 0 {
				t.Errorf("the host refused %d of the reloaded phone's deck answers as taken already", n)
			}
		})
	}
}
