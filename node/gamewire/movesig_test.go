package gamewire

import (
	"crypto/ed25519"
	"strings"
	"testing"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/protocol"
)

// The step a host keeps of a move message, as it travels: the seat set,
// the hidden cards left out, the seat's signature as its Mark.
func keptStep(t *testing.T, m protocol.Message) protocol.Step {
	t.Helper()
	c, seat, ok := EngMove(m)
	if !ok {
		t.Fatalf("%T is not a move", m)
	}
	w := protocol.Step{AtNS: 9, Move: uint8(c.Move), Seat: seat, Claim: c.Claim, Rank: int8(c.Rank), No: c.No,
		Cards: WireCards(c.Cards), Mark: MoveSig(m), Term: 1}
	if HiddenMove(c.Move) {
		w.Cards, w.Hidden = nil, len(c.Cards)
	}
	return w
}

// A seat's signature of a move checks on the step the host keeps of it
// (its hidden cards left out), and on nothing else: another seat, play,
// claim, rank, count, shown card, table or deal, or another key.
func TestMarkBindsTheMove(t *testing.T) {
	seat := ed25519.NewKeyFromSeed(make32(4))
	pub := seat.Public().(ed25519.PublicKey)
	other := ed25519.NewKeyFromSeed(make32(5)).Public().(ed25519.PublicKey)
	moves := map[string]protocol.Message{
		"play":    protocol.Play{No: 7, Seat: 2, Cards: []protocol.Card{0, 13}, Claim: 3, Rank: 5},
		"call":    protocol.Call{No: 7, Seat: 2},
		"pass":    protocol.Pass{No: 7, Seat: 2},
		"give":    protocol.Give{No: 7, Seat: 2, Cards: []protocol.Card{40}},
		"quads":   protocol.Quads{No: 7, Seat: 2, Cards: []protocol.Card{1, 14, 27, 40}},
		"doubt":   protocol.Doubt{No: 7, Seat: 2},
		"believe": protocol.Believe{No: 7, Seat: 2},
		"skip":    protocol.Skip{No: 7, Seat: 2},
	}
	for name, m := range moves {
		t.Run(name, func(t *testing.T) {
			if MoveSig(m) != nil {
				t.Fatal("signed before signing")
			}
			signed := SignedMove(seat, testTID, testCommit, m)
			if len(MoveSig(signed)) != ed25519.SignatureSize {
				t.Fatalf("SignedMove gave %+v", signed)
			}
			w := keptStep(t, signed)
			if !StepMarkOK(pub, testTID, testCommit, w) {
				t.Fatal("the kept step's mark doesn't verify")
			}
			c, s, _ := EngMove(signed)
			c.Seat = s
			if !MarkOK(pub, testTID, testCommit, c, MoveSig(signed)) {
				t.Fatal("the move's mark doesn't verify on its command")
			}
			if StepMarkOK(other, testTID, testCommit, w) {
				t.Error("verifies under another key")
			}
			if StepMarkOK(pub, protocol.TableID{9}, testCommit, w) || StepMarkOK(pub, testTID, [32]byte{1}, w) {
				t.Error("verifies at another table or deal")
			}
			changes := map[string]func(w *protocol.Step){
				"seat":  func(w *protocol.Step) { w.Seat = 1 },
				"no":    func(w *protocol.Step) { w.No = 8 },
				"claim": func(w *protocol.Step) { w.Claim++ },
				"rank":  func(w *protocol.Step) { w.Rank = 6 },
				"move":  func(w *protocol.Step) { w.Move ^= 0x10 },
				"count": func(w *protocol.Step) { w.Hidden++ },
				"tick":  func(w *protocol.Step) { w.Tick = true },
			}
			if len(w.Cards) > 0 {
				changes["a shown card"] = func(w *protocol.Step) {
					w.Cards = append([]protocol.Card(nil), w.Cards...)
					w.Cards[0] = 51
				}
			}
			for what, change := range changes {
				d := w
				change(&d)
				if StepMarkOK(pub, testTID, testCommit, d) {
					t.Errorf("verifies with another %s", what)
				}
			}
			// The hidden cards themselves are the host's seal's to bind:
			// the step with them (the reveal's) checks the same.
			if HiddenMove(engine.Move(w.Move)) {
				c, _, _ := EngMove(signed)
				full := w
				full.Cards, full.Hidden = WireCards(c.Cards), 0
				if !StepMarkOK(pub, testTID, testCommit, full) {
					t.Error("the step with its cards shown doesn't verify")
				}
			}
		})
	}
}

// A player's journal flags a step whose seat signature doesn't verify,
// keeps the signatures it was sent when a backlog comes without them, and
// the audit's notes count the moves the host made in a person's name.
func TestJournalChecksMarks(t *testing.T) {
	h := newTestHost(t, 1, 1)
	seat := ed25519.NewKeyFromSeed(make32(4))
	keyOf := func(s int) ed25519.PublicKey {
		if s == 2 {
			return seat.Public().(ed25519.PublicKey)
		}
		return nil
	}
	mv := SignedMove(seat, testTID, testCommit, protocol.Call{No: 1, Seat: 2})
	honest := []protocol.Step{step(1, 0, 1), keptStep(t, mv), step(3, 2, 1)}
	hosts := map[uint64]testHost{1: h}
	newJournal := func() *Journal {
		j := &Journal{SeatKey: keyOf}
		j.Reset(testTID, testCommit)
		return j
	}

	j := newJournal()
	j.Take(testTID, testCommit, h.id, 1, signedSteps(honest, hosts), false)
	if len(j.Doubt) != 0 || len(j.Steps) != 3 {
		t.Fatalf("honest steps: %d kept, doubts %q", len(j.Steps), j.Doubt)
	}

	bad := append([]protocol.Step(nil), honest...)
	bad[1].Mark = append([]byte(nil), bad[1].Mark...)
	bad[1].Mark[3] ^= 1
	j = newJournal()
	j.Take(testTID, testCommit, h.id, 1, signedSteps(bad, hosts), false)
	if len(j.Doubt) != 1 || !strings.Contains(j.Doubt[0], "seat 3") || !strings.Contains(j.Doubt[0], ErrMark.Error()) {
		t.Fatalf("a doctored mark: doubts %q", j.Doubt)
	}

	// The same steps again as a backlog, the mark stripped: ours stays.
	j = newJournal()
	j.Take(testTID, testCommit, h.id, 1, signedSteps(honest, hosts), false)
	stripped := signedSteps(honest, hosts)
	stripped[1].Mark = nil
	j.Take(testTID, testCommit, h.id, 1, stripped, true)
	if len(j.Doubt) != 0 || len(j.Steps[1].Mark) == 0 {
		t.Fatalf("a backlog without the seat's signature: mark %x, doubts %q", j.Steps[1].Mark, j.Doubt)
	}

	names := []string{"", "Bo", "Ada"}
	if n := MarkNotes(j.Steps, names, 2); len(n) != 1 || !strings.Contains(n[0], "the host moved once in your name") {
		t.Fatalf("notes for seat 3 itself: %q", n)
	}
	if n := MarkNotes(j.Steps, names, 1); len(n) != 1 || !strings.Contains(n[0], "once in Ada's name") {
		t.Fatalf("notes for another seat: %q", n)
	}
	if n := MarkNotes(j.Steps[:2], names, 2); len(n) != 0 {
		t.Fatalf("every move of a person's signed, still notes %q", n)
	}
}

// What a seat's signature costs: the player signs each move, the host and
// every player check it once.
func BenchmarkMark(b *testing.B) {
	key := ed25519.NewKeyFromSeed(make32(4))
	c := engine.Command{Move: engine.MovePlay, Seat: 2, Cards: []engine.Card{0, 13}, Claim: 2, Rank: engine.NoRank, No: 41}
	b.ReportAllocs()
	for b.Loop() {
		Mark(key, testTID, testCommit, c)
	}
}

func BenchmarkStepMarkOK(b *testing.B) {
	key := ed25519.NewKeyFromSeed(make32(4))
	pub := key.Public().(ed25519.PublicKey)
	c := engine.Command{Move: engine.MovePlay, Seat: 2, Cards: []engine.Card{0, 13}, Claim: 2, Rank: engine.NoRank, No: 41}
	w := protocol.Step{Move: uint8(c.Move), Seat: 2, Claim: 2, Rank: protocol.NoRank, No: 41, Hidden: 2, Mark: Mark(key, testTID, testCommit, c)}
	b.ReportAllocs()
	for b.Loop() {
		if !StepMarkOK(pub, testTID, testCommit, w) {
			b.Fatal("doesn't verify")
		}
	}
}
