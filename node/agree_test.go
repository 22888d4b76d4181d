package node

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/journal"
	"github.com/bullshit-game/bullshit/node/table"
	"github.com/bullshit-game/bullshit/node/webclient"
	"github.com/bullshit-game/bullshit/protocol"
	"github.com/libp2p/go-libp2p/core/peer"
)

// The phone and the terminal draw the same conclusions from the same
// messages. A spectator's stream of a real game (its first update a
// backlog that only adds, to an empty record), and copies of it doctored
// as a host could (a second backlog that only adds, one that rewrites an
// event, one that starts with another deal's first event under the same
// commitment, a journal step changed), go to the terminal's player
// (Remote.take, as readHost hands it what it read) and to the phone's
// client (webclient.Replay, as its reader does): their audits agree,
// problem for problem, note for note, in the same sentences.
//
// Before both clients called node/record this failed on "another deal's
// first event": the terminal took that backlog as a new game's record,
// and its audit found the replay differing from it; the phone kept its
// record and named the backlog's rewrite. And every rewrite was said in
// other words ("the host's backlog rewrote events we had been sent" on
// the terminal, "... what this phone was shown differs at event 4 ..." on
// the phone).
func TestPhoneAndTerminalAgree(t *testing.T) {
	rules := engine.Standard()
	rules.Window = 200 * time.Millisecond
	hn, tb, _ := hostTableWith(t, table.Settings{Name: "Kitchen", Rules: rules, Seats: 3, Bots: []string{"x"},
		Timing: table.Timing{Reveal: 20 * time.Millisecond}}, dumbMaker)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// The player's and the spectator's streams, as their readers read them.
	var (
		mu              sync.Mutex
		seatFr, watchFr [][]byte
	)
	keep := func(to *[][]byte) func([]byte) {
		return func(b []byte) {
			mu.Lock()
			*to = append(*to, slices.Clone(b))
			mu.Unlock()
		}
	}
	pn := newLoopNode(t)
	dir := t.TempDir() // the seat's part in the toss, kept for its replays
	p, err := DialWith(ctx, pn.h, pn.key, info(hn), "p1", "", false, keep(&seatFr), Setup{Keep: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	rs := []*Remote{p, dialPlayer(t, ctx, hn, "p2")}
	if err := tb.Start(); err != nil {
		t.Fatal(err)
	}
	played := playEach(ctx, rs, dumbly(rs), "fast", nil)
	for tb.Plays() < 3 && ctx.Err() == nil {
		time.Sleep(5 * time.Millisecond)
	}
	wn := newLoopNode(t)
	w, err := Dial(ctx, wn.h, wn.key, info(hn), "w", "", true, keep(&watchFr))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := table.PlayBot(ctx, w, nil, nil, "fast", nil); err != nil {
		t.Fatal(err)
	}
	for i, u := range played() {
		if u.Audit == nil || !u.Audit.Verified {
			t.Fatalf("player %d's own audit: %+v", i, u.Audit)
		}
	}
	var kept keptToss
	if b, err := os.ReadFile(filepath.Join(dir, "toss.json")); err != nil || json.Unmarshal(b, &kept) != nil || !kept.Toss.Revealed {
		t.Fatalf("the player's toss was not kept: %v %+v", err, kept)
	}
	_, phoneKey, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, who := range []struct {
		name   string
		frames [][]byte
		seat   int
		toss   journal.Toss
	}{{"the spectator", watchFr, -1, journal.Toss{}}, {"the player", seatFr, kept.Seat, kept.Toss}} {
		for _, c := range doctored(t, opened(who.frames), who.seat >= 0) {
			term := terminalReplay(t, c.stream, who.seat, who.toss)
			phone := webclient.Replay(phoneKey, who.seat < 0, who.toss, c.stream).Sheet
			if term == nil || phone == nil || !phone.Checked {
				t.Fatalf("%s, %s: no audit (terminal %+v, phone %+v)", who.name, c.name, term, phone)
			}
			t.Logf("%s, %s: %s", who.name, c.name, term)
			if term.Verified != c.verified {
				t.Errorf("%s, %s: the terminal's audit verified %v, want %v: %q", who.name, c.name, term.Verified, c.verified, term.Problems)
			}
			if term.Verified != phone.Verified || !slices.Equal(term.Problems, phone.Problems) || !slices.Equal(term.Notes, phone.Notes) ||
				term.String() != phone.Summary || term.Early != phone.Early {
				t.Errorf("%s, %s: the terminal and the phone disagree:\nterminal %v %q notes %q (%s)\nphone    %v %q notes %q (%s)", who.name, c.name,
					term.Verified, term.Problems, term.Notes, term, phone.Verified, phone.Problems, phone.Notes, phone.Summary)
			}
		}
	}
}

// opened is the host's envelopes among frames that a player's record
// takes: lobbies, updates, the reveal.
func opened(frames [][]byte) []*protocol.Envelope {
	var stream []*protocol.Envelope
	for _, b := range frames {
		env, err := protocol.OpenRelayed(b)
		if err != nil {
			continue
		}
		switch env.Msg.(type) {
		case protocol.Lobby, protocol.Update, protocol.Audit:
			stream = append(stream, env)
		}
	}
	return stream
}

// doctoredStream is a stream as a host could send it, and whether an
// audit of it verifies.
type doctoredStream struct {
	name     string
	stream   []*protocol.Envelope
	verified bool
}

// doctored is stream as recorded and changed as a host could change it:
// a backlog after its middle update that only adds, one that rewrites an
// event, one whose first event is another deal's under the same
// commitment, and (steps: a player's stream, which carries the journal)
// a journal step changed.
func doctored(t *testing.T, stream []*protocol.Envelope, steps bool) []doctoredStream {
	t.Helper()
	var ups []int // the updates with events that are not backlogs
	for i, env := range stream {
		if u, ok := env.Msg.(protocol.Update); ok && !u.Backlog && len(u.Events) > 0 {
			ups = append(ups, i)
		}
	}
	if len(ups) < 4 {
		t.Fatalf("the stream holds %d updates with events", len(ups))
	}
	mid := ups[len(ups)/2]
	// backlog is what a host's backlog after stream[mid] says was sent:
	// every event and journal step so far, changed by doctor.
	backlog := func(doctor func(evs []protocol.Event)) []*protocol.Envelope {
		var evs []protocol.Event
		var steps []protocol.Step
		for _, env := range stream[:mid+1] {
			if u, ok := env.Msg.(protocol.Update); ok {
				evs = append(evs, u.Events...)
				steps = append(steps, u.Steps...)
			}
		}
		if doctor != nil {
			doctor(evs)
		}
		last := stream[mid].Msg.(protocol.Update)
		b := *stream[mid]
		b.Msg = protocol.Update{View: last.View, Events: evs, Steps: steps, Backlog: true, AtMS: last.AtMS}
		return slices.Concat(stream[:mid+1], []*protocol.Envelope{&b}, stream[mid+1:])
	}
	out := []doctoredStream{
		{"as recorded", stream, true},
		{"a backlog that only adds", backlog(nil), true},
		{"a backlog that rewrites", backlog(func(evs []protocol.Event) { evs[3].Seat = (evs[3].Seat + 1) % 3 }), false},
		{"another deal's first event", backlog(func(evs []protocol.Event) { evs[0].Seat = (evs[0].Seat + 1) % 3 }), false},
	}
	if !steps {
		return out
	}
	s := slices.Clone(stream)
	for _, i := range ups[len(ups)/2:] {
		u := s[i].Msg.(protocol.Update)
		if len(u.Steps) == 0 {
			continue
		}
		u.Steps = slices.Clone(u.Steps)
		u.Steps[0].Claim++
		e := *s[i]
		e.Msg = u
		s[i] = &e
		return append(out, doctoredStream{"a doctored step", s, false})
	}
	t.Fatal("no update with a journal step")
	return nil
}

// terminalReplay is the audit a terminal at seat (-1: a spectator) makes
// of stream, its part in the toss kept as toss, each envelope taken as
// readHost hands one to run.
func terminalReplay(t *testing.T, stream []*protocol.Envelope, seat int, toss journal.Toss) *table.AuditResult {
	t.Helper()
	n := newLoopNode(t)
	r := &Remote{h: n.h, seat: seat, watch: seat < 0, term: 1, box: table.NewHeldMailbox(), link: &hostLink{}}
	r.chain.SeatKey = func(seat int) ed25519.PublicKey { return table.SeatPubKey(r.table.Seats, seat) }
	if len(stream) > 0 {
		r.tid = stream[0].Table
		r.kept = &keptToss{Table: r.tid, Seat: seat, Toss: toss} // as a node started again finds it
		r.info.ID = peer.ID(stream[0].Sender)
	}
	for _, env := range stream {
		r.take(hostMsg{link: r.link, env: env})
	}
	var res *table.AuditResult
	for _, u := range r.box.Held() {
		if u.Audit != nil {
			res = u.Audit
		}
	}
	return res
}
