package mentaltable

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/bullshit-game/bullshit/protocol"
	"github.com/bullshit-game/bullshit/protocol/mental"
)

// A player node that restarts mid-game (a phone's page reloaded, a laptop's
// program started again with the same key) is the same party only if it
// still has its deck secret: its key, its recovery split and its shuffle
// are in the host's log, and every card dealt to it is sealed to that
// secret. Everything else a Player knows it worked out from the host's
// log, so Keep is small: the secret, and from its turn at the shuffle on,
// the shuffle's opening (published at the end, it must open the step the
// log holds) and the step itself (5 kB for a deck of 52). Restore makes
// the Player again from it; the host resends its whole log after a
// reconnection, and the Player replays it: it draws no new shuffle (the
// one it made comes again, byte for byte) and sends only what the log
// shows is still owed, never an answer the host already took.
//
// What the Player took of the log before the restart is kept as a count
// and a digest, twice: all it took, and as far as its last answer. A host
// that resends another log than the one the node took up to its last
// answer (a move, a tick or a message changed, left out or put in) is
// caught at that count, before anything it says is believed. What it took
// after its last answer may be another log's: a host that failed may have
// sent its last inputs to this node alone, and the new host goes on from
// the longest log the others gave it. Nothing the node revealed depended
// on those inputs; its audit notes that they went (Result.Notes).

// ErrLostSecret is a game whose log holds a deck key of this node's party
// that isn't its own: the node lost the secret it played with (a page
// whose storage was cleared, another tab), and can't be that party again.
var ErrLostSecret = errors.New("mentaltable: this node's deck secret for the game is lost: the key the host logged for its party isn't its own")

// ErrRewritten is a host's log, resent after a restart, that isn't the
// one the node took before it.
var ErrRewritten = errors.New("mentaltable: the host's log isn't the one this node took before its restart: the host rewrote the game")

// keeping is what a Player keeps for a restart (Keep), and, for one made
// by Restore, what it kept.
type keeping struct {
	sum      [32]byte // the digest of the log's inputs taken so far
	restored bool     // made by Restore: an answer the log shows was taken isn't sent again
	keySent  bool     // a restored player's key, sent again (the log held none)
	checked  bool     // the key the log holds for the party was found to be its own
	// A restored player's count of the log before its restart as far
	// as its last answer (the resent log must be the one it took up to
	// there), and of all it took (a resent log that parts from it after
	// wantAt lost inputs a host that failed sent this node alone:
	// rolled).
	wantAt int
	tookAt int
	rolled bool
	// fps fingerprints each input taken (Keep keeps them); was, a
	// restored player's from before its restart, tells where a resent
	// log parts from the one it took.
	fps, was []uint64
	// ackAt is the count of the log as it stood when the node last sent
	// an answer: what Keep keeps as wantAt.
	ackAt int
	held  []protocol.Message // made due while replaying, sent once it is back where it was
}

// took adds input li, the log's input at, to the digest and the
// fingerprints.
func (k *keeping) took(at int, li *protocol.LogInput) {
	b := inputBytes(at, li)
	h := sha256.New()
	h.Write(k.sum[:])
	h.Write(b)
	h.Sum(k.sum[:0])
	k.fps = append(k.fps, fingerprint(b))
}

// fingerprint is 8 bytes of an input's digest: where a resent log parts
// from the one taken (the digest proper holds the log to the count).
func fingerprint(b []byte) uint64 {
	d := sha256.Sum256(b)
	return binary.LittleEndian.Uint64(d[:8])
}

// inputBytes is input li, the log's input at, as the digest takes it.
func inputBytes(at int, li *protocol.LogInput) []byte {
	b := binary.AppendUvarint(nil, uint64(at))
	b = append(b, li.What)
	b = binary.AppendVarint(b, li.AtNS)
	b = binary.AppendUvarint(b, uint64(len(li.Env)))
	b = append(b, li.Env...)
	if li.Move != nil {
		mb, _ := protocol.Encode(*li.Move)
		b = binary.AppendUvarint(b, uint64(len(mb))+1)
		b = append(b, mb...)
	} else {
		b = append(b, 0)
	}
	b = binary.AppendVarint(b, int64(li.Gone))
	return binary.AppendVarint(b, int64(li.To))
}

// keptMagic heads what Keep writes: its version and what it is.
const keptMagic = "mentaltable keep 2\n"

// Keep is what the node must keep to be this party again after a restart
// (Restore): its deck secret, its shuffle's opening (and the step itself
// until the log holds it), and the count and digest of the log it took.
// It is secret: whoever has it can read every card dealt to the party.
// Keep it where only this node reads it, and write it before sending
// what NewPlayer or Log returned: a key or a shuffle sent but not kept
// can't be answered for after a restart.
func (p *Player) Keep() []byte {
	n := p.node
	if n == nil {
		return nil // a watcher has no secret to keep
	}
	k := kept{game: p.Deal.Game, party: n.Index, x: n.x, taken: p.next, sum: p.keep.sum, acked: p.keep.ackAt, fps: p.keep.fps}
	if n.kept != nil {
		// The step too, though the log may hold it: a replay comes to
		// the node's turn before it comes to the step.
		k.shuf, _ = n.shuf.MarshalBinary()
		k.step = n.kept
	}
	return k.append(nil)
}

// Restore is the player of the blind game d dealt at the table of terms,
// made again from what Keep wrote: no message is due yet. Give it the
// host's log from its first input (Log): it replays it, sending only what
// the log shows is still owed (its key again if the log holds none). rand
// is for what it draws from now on.
func Restore(d protocol.BlindDeal, terms Terms, kept []byte, rand io.Reader) (*Player, error) {
	k, err := readKept(kept)
	if err != nil {
		return nil, err
	}
	if string(k.game) != string(d.Game) {
		return nil, fmt.Errorf("mentaltable: the kept secret is of game %q, not %q", k.game, d.Game)
	}
	if me := slices.Index(d.Parties, terms.Me); me != k.party {
		return nil, fmt.Errorf("mentaltable: the kept secret is party %d's, and this node is party %d", k.party, me)
	}
	p, _, err := NewPlayer(d, terms, rand) // its key, of a secret drawn anew, is not sent
	if err != nil {
		return nil, err
	}
	n := p.node
	n.x, n.kept = k.x, k.step
	if k.step != nil {
		n.shuf = k.shufOpening
	}
	p.keep = keeping{restored: true, wantAt: k.acked, tookAt: k.taken, was: k.fps, ackAt: k.acked}
	return p, nil
}

// Restored reports whether the player was made by Restore.
func (p *Player) Restored() bool { return p.keep.restored }

// kept is Keep's bytes read.
type kept struct {
	game        []byte
	party       int
	x           mental.Secret
	taken       int
	sum         [32]byte
	acked       int      // the count as far as the last answer
	fps         []uint64 // each input's fingerprint
	shuf, step  []byte
	shufOpening mental.ShuffleOpening
}

var errKept = errors.New("mentaltable: the kept secret is damaged")

// append appends k as Keep writes it.
func (k *kept) append(b []byte) []byte {
	b = append(b, keptMagic...)
	b = appendBytes(b, k.game)
	b = binary.AppendUvarint(b, uint64(k.party))
	x, _ := k.x.MarshalBinary()
	b = appendBytes(b, x)
	b = binary.AppendUvarint(b, uint64(k.taken))
	b = append(b, k.sum[:]...)
	b = binary.AppendUvarint(b, uint64(k.acked))
	b = binary.AppendUvarint(b, uint64(len(k.fps)))
	for _, f := range k.fps {
		b = binary.LittleEndian.AppendUint64(b, f)
	}
	b = appendBytes(b, k.shuf)
	return appendBytes(b, k.step)
}

// readKept reads what Keep wrote; anything else is refused (errKept).
func readKept(b []byte) (kept, error) {
	var k kept
	rest, ok := cutPrefix(b, keptMagic)
	if !ok {
		return k, errKept
	}
	r := keptReader{b: rest}
	k.game = r.bytes()
	k.party = r.int()
	xb := r.bytes()
	k.taken = r.int()
	copy(k.sum[:], r.take(len(k.sum)))
	k.acked = r.int()
	n := r.int()
	if n != k.taken || k.acked > k.taken || n < 0 || n > len(r.b)/8 {
		return kept{}, errKept
	}
	k.fps = make([]uint64, n)
	for i := range k.fps {
		k.fps[i] = binary.LittleEndian.Uint64(r.take(8))
	}
	k.shuf, k.step = r.bytes(), r.bytes()
	if r.bad || len(r.b) != 0 {
		return kept{}, errKept
	}
	if err := k.x.UnmarshalBinary(xb); err != nil {
		return kept{}, fmt.Errorf("%w: %v", errKept, err)
	}
	if (k.shuf == nil) != (k.step == nil) {
		return kept{}, errKept // a shuffle is kept whole or not at all
	}
	if k.shuf != nil {
		if err := k.shufOpening.UnmarshalBinary(k.shuf); err != nil {
			return kept{}, fmt.Errorf("%w: %v", errKept, err)
		}
	}
	return k, nil
}

func cutPrefix(b []byte, p string) ([]byte, bool) {
	if len(b) < len(p) || string(b[:len(p)]) != p {
		return nil, false
	}
	return b[len(p):], true
}

func appendBytes(b, s []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// keptReader reads Keep's fields; a short or malformed field sets bad.
type keptReader struct {
	b   []byte
	bad bool
}

func (r *keptReader) uvarint() uint64 {
	v, k := binary.Uvarint(r.b)
	if k <= 0 {
		r.bad = true
		return 0
	}
	r.b = r.b[k:]
	return v
}

func (r *keptReader) int() int {
	v := r.uvarint()
	if v > 1<<31 {
		r.bad = true
		return 0
	}
	return int(v)
}

func (r *keptReader) take(n int) []byte {
	if r.bad || n > len(r.b) {
		r.bad = true
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *keptReader) bytes() []byte {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.bad = true
		return nil
	}
	if n == 0 {
		return nil
	}
	return slices.Clone(r.take(int(n)))
}

// sending is what Log sends of the messages the node's copy of the host
// made due: the shuffle it made is kept (Keep) and, once made, never
// drawn anew; a restored player sends only what the log shows is still
// owed. It also checks what the log says of the party against the node:
// the key the log holds for it must be its own (ErrLostSecret), and a
// restored player's log must be the one it took before (ErrRewritten).
func (p *Player) sending(send []protocol.Message) []protocol.Message {
	n := p.node
	if n == nil {
		return send // a watcher sends nothing
	}
	for _, m := range send {
		if s, ok := m.(protocol.DeckShuffle); ok && s.From == n.Index {
			n.kept = s.Step
		}
	}
	if !p.keep.checked && n.rec.keyed[n.Index] {
		mine := n.x.Public()
		if !n.t.Keys[n.Index].Equal(&mine) {
			p.failed = ErrLostSecret
		}
		p.keep.checked = true
	}
	if p.failed != nil {
		return nil
	}
	if !p.keep.restored {
		return send
	}
	// What was made due before the replay got back to where the node
	// was is held till then: the node may have sent it before the
	// restart, and the log, still to come, say so.
	var held []protocol.Message
	for _, m := range append(p.keep.held, send...) {
		if p.owed(m) {
			held = append(held, m)
		}
	}
	p.keep.held = held
	if p.Replaying() {
		return nil
	}
	var out []protocol.Message
	if !n.rec.keyed[n.Index] && !p.keep.keySent {
		m, err := n.keyMsg()
		if err != nil {
			p.failed = err
			return nil
		}
		out = append(out, m)
		p.keep.keySent = true
	}
	out = append(out, p.keep.held...)
	p.keep.held = nil
	return out
}

// Replaying reports whether a restored player is still replaying the log
// it took before its restart: it sends nothing till it is back where it
// was, and its caller makes no move or pick for it meanwhile.
func (p *Player) Replaying() bool { return p.keep.restored && p.next < p.keep.tookAt }

// parts tells, before a restored player takes input li at at, whether the
// resent log parts there from the one it took: before its last answer,
// the host rewrote the game (ErrRewritten); after it, the inputs it took
// from there were lost with a host that failed, and the node goes on from
// the new host's log, sending from now on (rolled). li nil is the host's
// log ending at at (an empty part after the whole log), shorter than the
// one the node took: past its last answer it goes on from there too,
// rather than wait for inputs the host may be waiting on it to make;
// before it, it waits.
func (p *Player) parts(at int, li *protocol.LogInput) {
	k := &p.keep
	if !k.restored || k.rolled || at >= len(k.was) || li != nil && fingerprint(inputBytes(at, li)) == k.was[at] {
		return
	}
	if at < k.wantAt {
		if li != nil {
			p.failed = ErrRewritten
		}
		return
	}
	k.rolled, k.tookAt = true, at
}

// owed reports whether m, made due as the node replayed the log, is still
// owed by the record as it stands: what the log already took is not.
func (p *Player) owed(m protocol.Message) bool {
	n := p.node
	r, me := n.rec, n.Index
	switch m := m.(type) {
	case protocol.DeckKey:
		return !r.keyed[me]
	case protocol.DeckSplit:
		return !r.split[me]
	case protocol.DeckShuffle:
		return r.shuffler() == me && !r.shuffled()
	case protocol.DeckDeal:
		return !r.dealt[me]
	case protocol.DeckOpen:
		return p.waitsOn(m.No, func(a *ask) bool {
			return (a.What == AskOpen || a.What == AskFirst || a.What == AskShow) && n.mine(a.Party)
		})
	case protocol.DeckHandover:
		return p.waitsOn(m.No, func(a *ask) bool { return a.What == AskHand && n.mine(a.Party) && a.To == m.To })
	case protocol.DeckRecover:
		return p.waitsOn(m.No, func(a *ask) bool { return a.What == AskRecover && a.Party == m.Dealer })
	case protocol.DeckPool:
		return p.waitsOn(m.No, func(a *ask) bool { return a.What == AskPool && a.Party == m.Dealer && a.To == m.To })
	case protocol.DeckPublish:
		return p.waitsOn(m.No, func(a *ask) bool { return a.What == AskPublish })
	}
	return true
}

// waitsOn reports whether the record waits on this party for an ask
// numbered no that is matches: on it, or on a party that left whose
// place it took (as Node.pending).
func (p *Player) waitsOn(no int, is func(*ask) bool) bool {
	n := p.node
	for _, a := range n.rec.asks {
		if a.No == no && is(a) && (a.waiting[n.Index] || n.standsFor(a.Party) && a.waiting[a.Party]) {
			return true
		}
	}
	return false
}

// rollTo is the player made again as it stood before the log's input at:
// kept and restored (restore.go), it replays the inputs it took up to
// there, and takes the new host's from there on as a restored player
// takes a log that parts from its own after its last answer. What the
// replay shows again is not returned: the screen saw it.
func (p *Player) rollTo(at int) (*Player, error) {
	q, err := Restore(p.Deal, p.terms, p.Keep(), p.rand)
	if err != nil {
		return nil, err
	}
	if _, _, err := q.Log(0, p.wire[:at]); err != nil {
		return nil, err
	}
	return q, nil
}
