package node

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/node/table"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/protocol"
)

// A player who is never elected answers the new host's state request
// with a journal it rewrote: a call another seat never made, added at the
// end, or a step of the host's doctored. The new host refuses that journal
// (the host's signatures don't cover it), rebuilds from the honest ones,
// and the game ends verified for everyone, the forgery nowhere in it
// (issue 13, items 1 and 2). And should a step the host's key signed not
// replay (the liar had the key), the new host rebuilds from the next
// journal instead of stalling.
func TestChainForgedJournalRefused(t *testing.T) {
	var hostKey ed25519.PrivateKey
	type lie struct {
		f       func(r *Remote, st *protocol.State) protocol.Step
		refused bool // refused at the signature, not at the replay
	}
	lies := map[string]lie{
		"extra call": {refused: true, f: func(r *Remote, st *protocol.State) protocol.Step {
			last := st.Steps[len(st.Steps)-1]
			no := 0
			for _, w := range st.Steps {
				if w.Move == uint8(engine.MovePlay) {
					no++
				}
			}
			f := protocol.Step{AtNS: last.AtNS + int64(time.Millisecond), Move: uint8(engine.MoveCall), Seat: 1,
				Rank: protocol.NoRank, No: no, Term: last.Term}
			st.Steps = append(st.Steps, f)
			return f
		}},
		"doctored step": {refused: true, f: func(r *Remote, st *protocol.State) protocol.Step {
			for i := range st.Steps {
				if w := &st.Steps[i]; w.Move == uint8(engine.MoveCall) || w.Move == uint8(engine.MovePass) {
					w.Seat = (w.Seat + 1) % 4
					return *w
				}
			}
			w := &st.Steps[len(st.Steps)-1]
			w.AtNS += int64(time.Millisecond)
			return *w
		}},
		// A move of another seat's, its seat's signature doctored: the
		// host's chain still verifies (the mark is the seat's word, not
		// the host's), the seat's signature doesn't.
		"doctored seat signature": {refused: true, f: func(r *Remote, st *protocol.State) protocol.Step {
			for i := len(st.Steps) - 1; i >= 0; i-- {
				if w := &st.Steps[i]; len(w.Mark) > 0 && w.Seat != r.seat {
					w.Mark = append([]byte(nil), w.Mark...)
					w.Mark[0] ^= 1
					return *w
				}
			}
			panic("no move of another seat's in the journal")
		}},
		"signed step that doesn't replay": {f: func(r *Remote, st *protocol.State) protocol.Step {
			// Cut back to before the liar's last hidden step: the host
			// may have died sending it, to the liar alone, and a step
			// whose cards can't be rebuilt puts a journal behind every
			// whole one, never tried. Then several forged steps, so
			// that this journal is the longest even if the liar lags
			// the new host by a batch (under -race).
			pub := engPubSteps(st.Steps)
			for i := len(pub) - 1; i > 0; i-- {
				if pub[i].Hidden > 0 {
					st.Steps = st.Steps[:i]
					break
				}
			}
			last := st.Steps[len(st.Steps)-1]
			f := protocol.Step{AtNS: last.AtNS + int64(time.Millisecond), Move: uint8(engine.MoveCall), Seat: 3,
				Rank: protocol.NoRank, No: 999, Term: last.Term}
			for range 12 {
				st.Steps = append(st.Steps, f)
			}
			i := len(st.Steps) - 1
			h := r.table.Commit
			for _, w := range st.Steps {
				h = gamewire.ChainNext(h, w)
			}
			st.Steps[i].Sig = gamewire.SignStep(hostKey, r.tid, f.Term, i, h)
			return f
		}},
	}
	for name, lie := range lies {
		t.Run(name, func(t *testing.T) {
			rules := engine.Standard()
			rules.Window = 300 * time.Millisecond
			hn, tb, srv := hostTable(t, table.Settings{Name: "Kitchen", Rules: rules, Seats: 4, Bots: []string{"x"},
				Timing: table.Timing{Reveal: 20 * time.Millisecond}})
			hostKey = mustEd(t, hn.key)
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			remotes := seatPlayers(t, ctx, hn, 3, dumbMaker)
			// The liar sorts last: never elected, always asked.
			ids := []peer.ID{}
			for _, r := range remotes {
				ids = append(ids, r.h.ID())
			}
			sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
			liar := ids[len(ids)-1]
			var mu sync.Mutex
			var forged []protocol.Step
			stateHook = func(r *Remote, st *protocol.State) {
				if r.h.ID() != liar || len(st.Steps) == 0 {
					return
				}
				mu.Lock()
				forged = append(forged, lie.f(r, st))
				mu.Unlock()
			}
			defer func() { stateHook = nil }()
			if err := tb.Start(); err != nil {
				t.Fatal(err)
			}
			played := playEach(ctx, remotes, slowly(remotes), "brisk", nil)
			dropHostAfter(tb, srv, hn, 5)
			ends := played()

			var host *Remote
			for _, r := range remotes {
				if r.Hosting() {
					host = r
				}
			}
			if host == nil {
				t.Fatal("nobody hosts")
			}
			mu.Lock()
			if len(forged) == 0 {
				t.Fatal("the liar was never asked for its state")
			}
			mu.Unlock()
			hosted := serverOf(host)
			rec := hosted.rec
			rec.mu.Lock()
			refused := append([]string(nil), rec.refused...)
			replayErr := rec.err
			rec.mu.Unlock()
			if lie.refused && len(refused) == 0 {
				t.Fatal("the new host took the forged journal")
			}
			if !lie.refused && replayErr == nil {
				t.Fatal("the journal that doesn't replay was never tried")
			}
			t.Logf("refused: %q; replay: %v", refused, replayErr)
			for i, u := range ends {
				if u.View.Phase != engine.PhaseOver {
					t.Fatalf("player %d: the game did not end (phase %v)", i, u.View.Phase)
				}
				if u.Audit == nil || !u.Audit.Verified {
					t.Fatalf("player %d: audit %+v", i, u.Audit)
				}
			}
			// The game the new host played is the honest one: the forged
			// step is in no place of its journal.
			var log []engine.Step
			var links []table.Link
			hosted.tbl().Do(func() {
				log = append(log, hosted.tbl().Log...)
				links = append(links, hosted.tbl().Chain.Links...)
			})
			for _, f := range forged {
				for i, st := range log {
					w := table.WireStep(table.Public(st))
					if f.Mark != nil && (i >= len(links) || !bytes.Equal(links[i].Mark, f.Mark)) {
						continue // the same move, its seat's own signature
					}
					if w.AtNS == f.AtNS && w.Move == f.Move && w.Seat == f.Seat && w.No == f.No {
						t.Fatalf("the forged step %+v is step %d of the rebuilt game", f, i)
					}
				}
			}
		})
	}
}
