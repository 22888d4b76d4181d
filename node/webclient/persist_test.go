package webclient

import (
	"errors"
	"strings"
	"testing"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/record"
	"github.com/bullshit-game/bullshit/protocol"
)

// mapStore is the page's sessionStorage in a map.
type mapStore struct {
	m    map[string]string
	full bool // Set fails, as a full storage does
}

func newMapStore() *mapStore { return &mapStore{m: map[string]string{}} }

func (s *mapStore) Get(k string) string { return s.m[k] }
func (s *mapStore) Remove(k string)     { delete(s.m, k) }
func (s *mapStore) Set(k, v string) error {
	if s.full {
		return errors.New("QuotaExceededError")
	}
	s.m[k] = v
	return nil
}

// A host that showed the phone a lie before a reload and tells the truth
// in its backlog after it: with the record kept in the page's storage the
// phone's audit still covers what it was shown before the reload and
// catches the lie; kept in memory only, the backlog would become the
// record and the lie would pass. An honest host verifies either way, and
// the record the phone takes back is all it had seen.
func TestRecordSurvivesReload(t *testing.T) {
	swapHand := func(evs []engine.Event) []engine.Event {
		for i := range evs {
			if evs[i].Type == engine.EventHand && len(evs[i].Cards) > 1 {
				evs[i].Cards = append([]engine.Card{99 % 52}, evs[i].Cards[1:]...)
			}
		}
		return evs
	}
	for _, c := range []struct {
		name         string
		store, lie   bool
		deferSave    bool // written by Save only, as the page does after drawing
		wantVerified bool
	}{
		{"kept, honest host", true, false, false, true},
		{"kept, lie before the reload", true, true, false, false},
		{"kept by the page's Save, lie before the reload", true, true, true, false},
		// The hole the store closes: the lie passes, but the toss is
		// lost with the page's memory, and so the deal doesn't verify.
		{"in memory only, lie before the reload", false, true, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newFakeHost(t, 11)
			if c.lie {
				h.shown = swapHand
			}
			key := newKey(t)
			var st Store
			if c.store {
				st = newMapStore()
			}
			before := joinStore(t, h.addr(), key, st, c.deferSave)
			cl, ch := before.c, before.ch
			playSome(t, cl, ch, 6)
			// Its turn again: the host's answers to the last move
			// are all in (the deal, from the phone's nonce, differs
			// each run).
			waitFor(t, cl, ch, "its turn", func(s State) bool { return s.Moves.Play || s.Moves.Call })
			seen := cl.State().Record
			h.mu.Lock()
			h.shown = nil
			h.mu.Unlock()
			if c.deferSave {
				// Only the toss is written at once (its nonce must
				// survive a reload); the events wait for Save.
				if r := st.Get(RecordKey); strings.Contains(r, "\nev ") {
					t.Fatalf("the record's events were written (%d bytes) before Save was called", len(r))
				}
				cl.Save() // the page's, after drawing the last change
			}
			cl.Close() // the reload: the page's memory is gone, its storage stays
			after := joinStore(t, h.addr(), key, st, false)
			s := waitFor(t, after.c, after.ch, "the backlog", func(s State) bool { return s.Record >= seen && s.Status == "seated" })
			if c.store && s.Restored != seen {
				t.Errorf("took back %d events of the %d seen before the reload", s.Restored, seen)
			}
			if !c.store && s.Restored != 0 {
				t.Errorf("took back %d events with no store", s.Restored)
			}
			s = playOut(t, after.c, after.ch)
			if s.Sheet.Verified != c.wantVerified {
				t.Errorf("verified %v, want %v; problems %v", s.Sheet.Verified, c.wantVerified, s.Sheet.Problems)
			}
			if !c.store {
				if p := strings.Join(s.Sheet.Problems, " "); strings.Contains(p, "differs at event 2") || !strings.Contains(p, "took no part in the deal's toss") {
					t.Errorf("problems %v: want the lost toss alone", s.Sheet.Problems)
				}
			} else if !c.wantVerified && !strings.Contains(strings.Join(s.Sheet.Problems, " "), "differs at event 2") {
				t.Errorf("problems %v: want the backlog's difference from the kept record named", s.Sheet.Problems)
			}
		})
	}
}

type joined struct {
	c  *Client
	ch chan struct{}
}

func joinStore(t *testing.T, addr string, key []byte, st Store, deferSave bool) joined {
	t.Helper()
	ch, note := watch()
	c, err := Join(t.Context(), Config{Key: key, Nick: "Ada", Addr: addr, OnChange: note, Store: st, DeferSave: deferSave})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return joined{c, ch}
}

// A saved record is taken back only by the same table, seat and deal; a
// new deal writes over it; one damaged anywhere is refused whole, never a
// panic; one past MaxSaved, or refused by a full storage, is dropped.
// Pure: runs natively and under js/wasm.
func TestSavedRecordKeyed(t *testing.T) {
	tid := protocol.TableID{1, 2, 3}
	deal := [32]byte{9}
	evs := []engine.Event{{Type: engine.EventDeal}, {Type: engine.EventHand, To: []int{1}, Cards: []engine.Card{3, 4}}}
	for i := range 70 { // past a chunk
		evs = append(evs, engine.Event{Type: engine.EventPlay, Seat: i % 3, Claim: 1})
	}
	mk := func(st *mapStore) *Client {
		c := &Client{cfg: Config{Store: st}, seat: 1, tid: tid}
		c.rec.Got, c.rec.Deal, c.rec.Rewrote = evs, deal, "a\nrewrite\nsum x"
		c.toss.Round, c.toss.Revealed, c.toss.Commits = deal, true, [][32]byte{{1}, {2}}
		return c
	}
	st := newMapStore()
	mk(st).save()
	saved := st.Get(RecordKey)
	ev := (&Client{seat: 1}).evOf
	r, tt, ok := parseSaved(saved, tid, 1, deal, ev)
	if !ok || len(r.Got) != len(evs) || r.Rewrote != "a rewrite sum x" || !tt.Revealed || len(tt.Commits) != 2 || tt.Round != deal {
		t.Fatalf("round trip: ok %v, %d events, rewrote %q, toss %+v", ok, len(r.Got), r.Rewrote, tt)
	}
	if !record.SameEvent(r.Got[1], evs[1]) || r.Got[1].To[0] != 1 || !record.SameEvent(r.Got[71], evs[71]) {
		t.Errorf("events changed on the way: %+v", r.Got[1])
	}
	for _, c := range []struct {
		name string
		tid  protocol.TableID
		seat int
		deal [32]byte
	}{
		{"another table", protocol.TableID{7}, 1, deal},
		{"another seat", tid, 2, deal},
		{"another deal", tid, 1, [32]byte{8}},
	} {
		if r, _, _ := parseSaved(saved, c.tid, c.seat, c.deal, ev); len(r.Got) != 0 {
			t.Errorf("%s: took back %d events", c.name, len(r.Got))
		}
	}
	for i := range len(saved) {
		for _, bad := range []string{saved[:i], saved[:i] + "x" + saved[i+1:]} {
			if _, _, ok := parseSaved(bad, tid, 1, deal, ev); ok && strings.TrimSuffix(bad, "\n") != strings.TrimSuffix(saved, "\n") {
				t.Fatalf("damaged at byte %d of %d: taken back", i, len(saved))
			}
		}
	}
	// A new deal writes over the old.
	c := mk(st)
	c.rec = kept{Record: record.Record{Deal: [32]byte{8}, Got: evs[:2]}, journal: c.rec.journal}
	c.save()
	if r, _, _ := parseSaved(st.Get(RecordKey), tid, 1, deal, ev); len(r.Got) != 0 {
		t.Error("the old deal's record survived the new deal")
	}
	// Full storage, or a record too long to keep: nothing stays.
	full := newMapStore()
	full.m[RecordKey] = saved
	full.full = true
	mk(full).save()
	if _, ok := full.m[RecordKey]; ok {
		t.Error("a stale record stayed when the storage refused the new one")
	}
	long := newMapStore()
	c = mk(long)
	for range MaxSaved / 8 {
		c.rec.Got = append(c.rec.Got, engine.Event{Type: engine.EventPlay, Seat: 2, Claim: 3})
	}
	c.save()
	if _, ok := long.m[RecordKey]; ok || !c.rec.saved.off {
		t.Error("a record past MaxSaved was kept")
	}
}

// The audit's notes (no fault of the host's) reach the sheet beside its
// problems, so the page can show them. Pure.
func TestSheetCarriesNotes(t *testing.T) {
	c := &Client{seat: 0, view: &engine.View{Phase: engine.PhaseOver, Hands: make([]engine.Count, 2)},
		sheet: &auditResult{Verified: true, Notes: []string{"seat 2 committed to a nonce the deal didn't use."}}}
	sh := c.State().Sheet
	if sh == nil || !sh.Checked || !sh.Verified || len(sh.Notes) != 1 || !strings.Contains(sh.Notes[0], "seat 2") {
		t.Fatalf("sheet %+v: want the note on a verified sheet", sh)
	}
	if !strings.Contains(string(c.State().AppendJSON(nil)), `"notes":["seat 2`) {
		t.Error("the note is not in the page's JSON")
	}
}
