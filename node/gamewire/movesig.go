package gamewire

// A move carries its seat's own signature, so that a move in a seat's
// name is evidence of the seat, not only of the host that recorded it.
// The seat signs what the table sees of the move (a play's cards are
// face down), bound to the table and the deal:
//
//	"bullshit/move/v1\x00" || table ID || deal commitment || seat || move ||
//	No || claim || rank || number of cards || the cards, when they are shown
//
// No is the play the move is about (a play's, the last play its sender
// saw). The host checks the signature against the seat's peer key before
// it applies the move and keeps it in the journal as the step's Mark; a
// player checks every Mark it is sent, and a new host refuses a journal
// with one that doesn't verify. A step in a person's seat without a Mark
// is one the host made for them (away, or out of time), and the audit
// says how many. Which cards went face down is bound by the host's seal
// (chain.go); the seat itself sees its own hand.

import (
	"crypto/ed25519"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/protocol"
)

const moveDomain = "bullshit/move/v1\x00"

// ErrMark is a step whose seat's signature doesn't verify: a move made up
// in a seat's name.
var ErrMark = errors.New("a seat's signature of its move doesn't verify")

// HiddenMove says whether move m's cards are face down: a play's, and a
// card handed over after a sneak (V14).
func HiddenMove(m engine.Move) bool { return m == engine.MovePlay || m == engine.MoveGive }

// markMsg is what a seat signs of a move: n cards, shown when shown.
func markMsg(tid protocol.TableID, commit [32]byte, move engine.Move, seat, no, claim int, rank engine.Rank, n int, shown []engine.Card) []byte {
	b := make([]byte, 0, len(moveDomain)+len(tid)+32+40+len(shown))
	b = append(b, moveDomain...)
	b = append(b, tid[:]...)
	b = append(b, commit[:]...)
	b = binary.BigEndian.AppendUint64(b, uint64(int64(seat)))
	b = append(b, byte(move))
	b = binary.BigEndian.AppendUint64(b, uint64(int64(no)))
	b = binary.BigEndian.AppendUint64(b, uint64(int64(claim)))
	b = append(b, byte(rank))
	b = binary.BigEndian.AppendUint32(b, uint32(n))
	for _, c := range shown {
		b = append(b, byte(c))
	}
	return b
}

// commandMsg is what a seat signs of c, a command as the host records it
// (its Seat set).
func commandMsg(tid protocol.TableID, commit [32]byte, c engine.Command) []byte {
	var shown []engine.Card
	if !HiddenMove(c.Move) {
		shown = c.Cards
	}
	return markMsg(tid, commit, c.Move, c.Seat, c.No, c.Claim, c.Rank, len(c.Cards), shown)
}

// Mark is key's signature of c as its seat's move at the table tid, in the
// deal commit bound.
func Mark(key ed25519.PrivateKey, tid protocol.TableID, commit [32]byte, c engine.Command) []byte {
	return ed25519.Sign(key, commandMsg(tid, commit, c))
}

// MarkOK says whether mark is pub's signature of c (its Seat set).
func MarkOK(pub ed25519.PublicKey, tid protocol.TableID, commit [32]byte, c engine.Command, mark []byte) bool {
	return len(pub) == ed25519.PublicKeySize && len(mark) == ed25519.SignatureSize &&
		ed25519.Verify(pub, commandMsg(tid, commit, c), mark)
}

// StepMarkOK says whether a journal step's Mark is pub's signature of the
// move: the step as it travels, its hidden cards left out or not.
func StepMarkOK(pub ed25519.PublicKey, tid protocol.TableID, commit [32]byte, w protocol.Step) bool {
	if w.Tick || len(pub) != ed25519.PublicKeySize || len(w.Mark) != ed25519.SignatureSize {
		return false
	}
	move := engine.Move(w.Move)
	n, shown := w.Hidden+len(w.Cards), EngCards(w.Cards)
	if HiddenMove(move) {
		shown = nil
	}
	msg := markMsg(tid, commit, move, w.Seat, w.No, w.Claim, engine.Rank(w.Rank), n, shown)
	return ed25519.Verify(pub, msg, w.Mark)
}

// SignedMove is m, a seat's move message, with the seat's signature. A
// message that is not a move comes back as it was.
func SignedMove(key ed25519.PrivateKey, tid protocol.TableID, commit [32]byte, m protocol.Message) protocol.Message {
	mv, isMove := m.(protocol.Move)
	c, seat, ok := EngMove(m)
	if !isMove || !ok {
		return m
	}
	c.Seat = seat
	return mv.WithSig(Mark(key, tid, commit, c))
}

// MoveSig is the seat's signature a move message carries; nil for none.
func MoveSig(m protocol.Message) []byte {
	if mv, ok := m.(protocol.Move); ok {
		return mv.MoveSig()
	}
	return nil
}

// CheckMarks checks the Mark of every step of steps from from on that
// carries one, against the key of its seat's person (keyOf). A seat with
// no person we know of (keyOf nil: a bot's) has no one a mark could speak
// for, and is passed over.
func CheckMarks(tid protocol.TableID, commit [32]byte, steps []protocol.Step, from int, keyOf func(seat int) ed25519.PublicKey) error {
	for i := from; i < len(steps); i++ {
		w := steps[i]
		if len(w.Mark) == 0 {
			continue
		}
		if pub := keyOf(w.Seat); pub != nil && !StepMarkOK(pub, tid, commit, w) {
			return fmt.Errorf("step %d, seat %d: %w", i+1, w.Seat+1, ErrMark)
		}
	}
	return nil
}

// MarkNotes are the audit's words on the moves the host made in a
// person's name (no Mark): names[seat] is the person's, "" for a bot's
// seat; you is our seat (-1 for a spectator).
func MarkNotes(steps []protocol.Step, names []string, you int) []string {
	counts := Unmarked(steps, func(seat int) bool { return seat >= 0 && seat < len(names) && names[seat] != "" })
	var out []string
	for seat, name := range names {
		n := counts[seat]
		switch {
		case n == 0:
		case seat == you:
			out = append(out, fmt.Sprintf("the host moved %s in your name (you were away or out of time): they carry no signature of yours.", times(n)))
		default:
			out = append(out, fmt.Sprintf("the host moved %s in %s's name (away or out of time): they carry no signature of theirs.", times(n), name))
		}
	}
	return out
}

func times(n int) string {
	if n == 1 {
		return "once"
	}
	return fmt.Sprintf("%d times", n)
}

// Unmarked counts, per seat, the moves in steps that carry no Mark, for
// the seats whose person signs (signs[seat]): the moves the host made for
// them.
func Unmarked(steps []protocol.Step, signs func(seat int) bool) map[int]int {
	out := map[int]int{}
	for _, w := range steps {
		if !w.Tick && len(w.Mark) == 0 && signs(w.Seat) {
			out[w.Seat]++
		}
	}
	return out
}

// PlayerKey is the key of the person at seat among a lobby's players, nil
// for a bot's seat or none: what a step's Mark is checked against.
func PlayerKey(players []protocol.Player, seat int) ed25519.PublicKey {
	for _, p := range players {
		if p.Seat == seat && p.Bot == "" && len(p.Peer) > 0 {
			if pub, err := p.Peer.PublicKey(); err == nil {
				return pub
			}
		}
	}
	return nil
}

// PlayerNames names the people among a lobby's players by seat, "" for a
// bot's seat: MarkNotes' names.
func PlayerNames(players []protocol.Player, seats int) []string {
	out := make([]string, seats)
	for _, p := range players {
		if p.Seat >= 0 && p.Seat < seats && p.Bot == "" && len(p.Peer) > 0 {
			out[p.Seat] = protocol.Clean(p.Nick, protocol.MaxNick)
		}
	}
	return out
}
