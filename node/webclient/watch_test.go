package webclient

import (
	"crypto/ed25519"
	"crypto/rand"
	"strings"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/protocol"
)

// watchedGame is a 3-seat game with a nonce from seats 0 and 1, played for
// a few plays (every seat puts down a card and lets every play go), as a
// host would reveal it, with the public events a spectator is sent.
func watchedGame(t *testing.T) (lobby protocol.Lobby, steps []engine.Step, public []engine.Event, reveal protocol.Audit) {
	t.Helper()
	var salt [gamewire.SaltSize]byte
	salt[0] = 7
	const seed = 99
	round := gamewire.Commit(seed, salt)
	nonces := [][32]byte{{1}, {2}, {}}
	commits := [][32]byte{gamewire.NonceHash(round, 0, nonces[0]), gamewire.NonceHash(round, 1, nonces[1]), {}}
	rules := engine.Standard()
	cfg := engine.Config{Rules: rules, Seats: 3, Seed: gamewire.DealSeed(seed, salt, nonces)}
	g, evs, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	keep := func(evs []engine.Event) {
		for _, e := range evs {
			if e.Public() {
				public = append(public, e)
			}
		}
	}
	keep(evs)
	now := time.Duration(0)
	for g.Plays() < 4 && !g.Over() {
		now += time.Second
		moved := false
		for seat := range 3 {
			v := g.View(seat)
			var cmd engine.Command
			switch {
			case v.Phase == engine.PhaseCall && v.Window != nil && len(v.Window.Callers) > 0 && v.Window.Callers[0] == seat:
				cmd = engine.Command{Move: engine.MovePass, Seat: seat, No: v.Window.No, Rank: engine.NoRank}
			case v.Phase == engine.PhasePlay && v.Turn == seat:
				cmd = engine.Command{Move: engine.MovePlay, Seat: seat, Cards: v.Hand[:1], Rank: engine.NoRank}
			default:
				continue
			}
			evs, err := g.Apply(now, cmd)
			if err != nil {
				t.Fatalf("seat %d: %v", seat, err)
			}
			steps = append(steps, engine.Step{At: now, Cmd: &cmd})
			keep(evs)
			moved = true
			break
		}
		if !moved {
			evs := g.Tick(now + rules.Window)
			now += rules.Window
			steps = append(steps, engine.Step{At: now})
			keep(evs)
		}
	}
	lobby = protocol.Lobby{Settings: gamewire.WireSettings(gamewire.Settings{Name: "Kitchen", Seats: 3, Rules: rules}),
		Players: []protocol.Player{{Seat: 0, Nick: "Ada"}, {Seat: 1, Nick: "Ben"}, {Seat: 2, Nick: "Cleo", Bot: "medium"}},
		Phase:   "playing", Host: "Ada", You: -1, Commit: round, Nonces: nonces, Commits: commits}
	ws := make([]protocol.Step, len(steps))
	for i, s := range steps {
		ws[i] = wireStep(s)
	}
	return lobby, steps, public, protocol.Audit{Seed: seed, Salt: salt[:], Steps: ws, Parts: 1}
}

// A phone that watches gets no hidden card, and when the host ends the game
// early it still audits it from the reveal: the seed against the
// commitment, the nonces against the commitments published with the deal,
// the replay against the public record. Its sheet says "ended early after
// N plays; deal verified", or what didn't match.
func TestWatchAuditsAGameEndedEarly(t *testing.T) {
	lobby, steps, public, reveal := watchedGame(t)
	_, hostKey, _ := ed25519.GenerateKey(rand.Reader)
	host, err := protocol.PeerIDOf(hostKey)
	if err != nil {
		t.Fatal(err)
	}
	run := func(lobby protocol.Lobby, reveal protocol.Audit) *Sheet {
		c := &Client{seat: -1}
		c.take(&protocol.Envelope{Sender: host, Term: 1, Msg: lobby})
		var wev []protocol.Event
		for i := range public {
			wev = append(wev, gamewire.WireEvent(&public[i]))
		}
		c.take(&protocol.Envelope{Sender: host, Term: 1, Msg: protocol.Update{Events: wev, Backlog: true}})
		over := lobby
		over.Phase = "over"
		c.take(&protocol.Envelope{Sender: host, Term: 1, Msg: over})
		c.take(&protocol.Envelope{Sender: host, Term: 1, Msg: protocol.Update{Notice: "The host ended the game early."}})
		c.take(&protocol.Envelope{Sender: host, Term: 1, Msg: reveal})
		c.view = &engine.View{No: 4, Phase: engine.PhasePlay}
		return c.State().Sheet
	}
	sh := run(lobby, reveal)
	if sh == nil || !sh.Checked || !sh.Verified || !sh.Early {
		t.Fatalf("the watcher's sheet: %+v", sh)
	}
	if want := "ended early after 4 plays; deal verified"; sh.Summary != want || len(steps) == 0 {
		t.Fatalf("summary %q, want %q", sh.Summary, want)
	}

	// A nonce the host swapped after the commitments: caught.
	swapped := lobby
	swapped.Nonces = [][32]byte{{1}, {3}, {}}
	// Another seed than the one committed: caught.
	reseeded := reveal
	reseeded.Seed++
	for name, c := range map[string]struct {
		l    protocol.Lobby
		a    protocol.Audit
		want string
	}{
		"a swapped nonce": {swapped, reveal, "seat 2's nonce doesn't match"},
		"another seed":    {lobby, reseeded, "the deal is not the one promised"},
	} {
		sh := run(c.l, c.a)
		if sh == nil || !sh.Checked || sh.Verified || !strings.Contains(strings.Join(sh.Problems, " | "), c.want) {
			t.Errorf("%s: %+v; want a problem with %q", name, sh, c.want)
		}
	}
}
