package gamewire

// The host's journal is a signed chain, so that history is evidence: a
// step a player relays to a new host is one the host that recorded it
// vouched for, and a forged or doctored step is refused. Node's players
// and the phones (node/webclient) keep and check it with this same code.
//
// Step i's hash is
//
//	H_i = SHA-256("bullshit/chain/v1\x00" || H_{i-1} || len || step i's public bytes || term || seal)
//
// with H_{-1} the deal's commitment, so a chain is bound to its deal. The
// public bytes are what a seat may know of the step; the seal commits to
// its hidden cards,
//
//	seal_i = SHA-256("bullshit/seal/v1\x00" || key_i || n || cards),
//	key_i  = SHA-256("bullshit/hidden/v1\x00" || salt || seed || i),
//
// so a player (who holds neither seed nor salt) learns nothing of the
// cards from it, and a new host that rebuilt the seed and the cards from
// the players' shares checks the cards against it.
//
// The host of the term that recorded step i signs, with its ed25519 key,
//
//	"bullshit/step/v1\x00" || table ID || term || i || H_i
//
// and a signature over H_i vouches for every step before it. The host
// signs the last step of each batch it sends. The signer changes only at
// a term boundary, only to that term's host, and an old term's last step
// must carry its host's signature, so a new host can't add steps in the
// old host's name.

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/protocol"
)

const (
	chainDomain  = "bullshit/chain/v1\x00"
	sealDomain   = "bullshit/seal/v1\x00"
	hiddenDomain = "bullshit/hidden/v1\x00"
	stepDomain   = "bullshit/step/v1\x00"
)

// Chain errors.
var (
	ErrChainSig      = errors.New("a step's signature doesn't verify")
	ErrChainTerm     = errors.New("a step's term goes back, or names no host we know")
	ErrChainUnsigned = errors.New("steps no signature vouches for")
)

// stepBytes is the canonical encoding of a step's public part: fixed
// width, in field order, whatever the wire's encoding.
func stepBytes(w protocol.Step) []byte {
	b := make([]byte, 0, 64+len(w.Cards))
	b = binary.BigEndian.AppendUint64(b, uint64(w.AtNS))
	tick := byte(0)
	if w.Tick {
		tick = 1
	}
	b = append(b, tick, w.Move)
	b = binary.BigEndian.AppendUint64(b, uint64(int64(w.Seat)))
	b = binary.BigEndian.AppendUint64(b, uint64(int64(w.Claim)))
	b = append(b, byte(w.Rank))
	b = binary.BigEndian.AppendUint64(b, uint64(int64(w.No)))
	b = binary.BigEndian.AppendUint64(b, uint64(int64(w.Hidden)))
	b = binary.BigEndian.AppendUint32(b, uint32(len(w.Cards)))
	for _, c := range w.Cards {
		b = append(b, byte(c))
	}
	return b
}

// SameStep says whether two steps are one: the same public part, term and
// seal (a signature may be there or not).
func SameStep(a, b protocol.Step) bool {
	return bytes.Equal(stepBytes(a), stepBytes(b)) && a.Term == b.Term && bytes.Equal(a.Seal, b.Seal)
}

// ChainNext is H_i from H_{i-1} and step i as it travels (its Term and
// Seal included, its Sig not).
func ChainNext(prev [32]byte, w protocol.Step) [32]byte {
	h := sha256.New()
	h.Write([]byte(chainDomain))
	h.Write(prev[:])
	sb := stepBytes(w)
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(sb)))
	h.Write(n[:])
	h.Write(sb)
	binary.BigEndian.PutUint64(n[:], w.Term)
	h.Write(n[:])
	h.Write([]byte{byte(len(w.Seal))})
	h.Write(w.Seal)
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// SealCards commits to step i's hidden cards: only whoever knows the seed
// and the salt (the host, or a new host that rebuilt them) can make or
// check a seal.
func SealCards(seed uint64, salt [SaltSize]byte, i int, cards []engine.Card) []byte {
	h := sha256.New()
	h.Write([]byte(hiddenDomain))
	h.Write(salt[:])
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], seed)
	h.Write(n[:])
	binary.BigEndian.PutUint64(n[:], uint64(i))
	h.Write(n[:])
	key := h.Sum(nil)
	h = sha256.New()
	h.Write([]byte(sealDomain))
	h.Write(key)
	h.Write([]byte{byte(len(cards))})
	for _, c := range cards {
		h.Write([]byte{byte(c)})
	}
	return h.Sum(nil)
}

func stepMsg(tid protocol.TableID, term uint64, i int, hash [32]byte) []byte {
	b := make([]byte, 0, len(stepDomain)+len(tid)+16+32)
	b = append(b, stepDomain...)
	b = append(b, tid[:]...)
	b = binary.BigEndian.AppendUint64(b, term)
	b = binary.BigEndian.AppendUint64(b, uint64(i))
	return append(b, hash[:]...)
}

// SignStep is the host's signature of step i, recorded in term, whose
// chain hash is hash.
func SignStep(key ed25519.PrivateKey, tid protocol.TableID, term uint64, i int, hash [32]byte) []byte {
	return ed25519.Sign(key, stepMsg(tid, term, i, hash))
}

func verifyStep(pub ed25519.PublicKey, tid protocol.TableID, term uint64, i int, hash [32]byte, sig []byte) bool {
	return len(pub) == ed25519.PublicKeySize && len(sig) == ed25519.SignatureSize &&
		ed25519.Verify(pub, stepMsg(tid, term, i, hash), sig)
}

// VerifyChain checks steps, chained from the deal's commitment, against
// the key of each term's host (keyOf: nil for a term with no host we
// know). It returns how many of steps a signature vouches for (a prefix
// of steps) and why it stops short, if it does. Terms never go down, and
// the last step of a term that another follows is signed.
func VerifyChain(tid protocol.TableID, commit [32]byte, steps []protocol.Step, keyOf func(term uint64) ed25519.PublicKey) (int, error) {
	n, h := 0, commit
	for i, w := range steps {
		if i > 0 && w.Term < steps[i-1].Term {
			return n, fmt.Errorf("step %d: %w", i, ErrChainTerm)
		}
		if i > 0 && w.Term != steps[i-1].Term && n != i {
			// The old term's last step carries no signature of its host.
			return n, fmt.Errorf("step %d: %w", i-1, ErrChainUnsigned)
		}
		h = ChainNext(h, w)
		if w.Sig == nil {
			continue
		}
		pub := keyOf(w.Term)
		if pub == nil {
			return n, fmt.Errorf("step %d, term %d: %w", i, w.Term, ErrChainTerm)
		}
		if !verifyStep(pub, tid, w.Term, i, h, w.Sig) {
			return n, fmt.Errorf("step %d: %w", i, ErrChainSig)
		}
		n = i + 1
	}
	if n < len(steps) {
		return n, fmt.Errorf("steps %d to %d: %w", n+1, len(steps), ErrChainUnsigned)
	}
	return n, nil
}

// Signed says whether a journal comes from a host that keeps the chain:
// any step with a term. An older host's journal has none.
func Signed(steps []protocol.Step) bool {
	for _, w := range steps {
		if w.Term != 0 {
			return true
		}
	}
	return false
}

// Journal is a player's record of its hosts' chain: the steps it was sent
// as far as their signatures vouch for them, who hosted each term, and
// what didn't verify, for the audit. It is never replaced by anyone's
// backlog: a backlog may add to it, or, from a new host that never got
// its last steps, roll those back to a signed prefix.
type Journal struct {
	Steps  []protocol.Step
	Doubt  []string // what didn't verify, for the audit
	Rolled int      // steps rolled back: a new host never got them

	// SeatKey is the key of a seat's person, nil for a bot's seat: the
	// steps' Marks are checked against it (movesig.go). The key a seat
	// had in a deal is kept for the deal: a person who leaves (an old host
	// gone with its node) becomes a bot's seat, but their moves stay
	// theirs.
	SeatKey  func(seat int) ed25519.PublicKey
	seatKeys map[int]ed25519.PublicKey

	hosts  map[uint64]ed25519.PublicKey
	tid    protocol.TableID
	commit [32]byte
	head   [32]byte // the chain's hash at the end of Steps
}

// Reset starts the journal of a new deal, bound to its commitment.
func (j *Journal) Reset(tid protocol.TableID, commit [32]byte) {
	hosts, seatKey := j.hosts, j.SeatKey
	*j = Journal{hosts: hosts, SeatKey: seatKey, tid: tid, commit: commit, head: commit}
}

// Host notes that id hosts term; false when we know another host of it.
func (j *Journal) Host(term uint64, id protocol.PeerID) bool {
	pub, err := id.PublicKey()
	if err != nil {
		return false
	}
	if j.hosts == nil {
		j.hosts = map[uint64]ed25519.PublicKey{}
	}
	if have, ok := j.hosts[term]; ok && !have.Equal(pub) {
		return false
	}
	j.hosts[term] = pub
	return true
}

// Forget drops term's host: we gave hosting it up.
func (j *Journal) Forget(term uint64) { delete(j.hosts, term) }

// KeyOf is the key of term's host, nil when we know none.
func (j *Journal) KeyOf(term uint64) ed25519.PublicKey { return j.hosts[term] }

// Hosts is who hosted each term before term, as we know them.
func (j *Journal) Hosts(before uint64) map[uint64]ed25519.PublicKey {
	out := map[uint64]ed25519.PublicKey{}
	for t, k := range j.hosts {
		if t < before {
			out[t] = k
		}
	}
	return out
}

// Flag notes a doubt for the audit.
func (j *Journal) Flag(why string) {
	if len(j.Doubt) < 8 {
		j.Doubt = append(j.Doubt, why)
	}
}

// Take takes steps, of the deal that commit bound, sent by the host of term (sender): an update's new
// steps, or, when backlog, the whole journal again after a rejoin. They
// are kept only as far as the chain verifies. A backlog must agree with
// every step we hold, except that a new host may lack our last steps of
// an older term (the old host died sending them to it): those are rolled
// back, and their count returned. What is refused is kept for the audit.
func (j *Journal) Take(tid protocol.TableID, commit [32]byte, sender protocol.PeerID, term uint64, ws []protocol.Step, backlog bool) (rolled int) {
	if commit != j.commit || tid != j.tid {
		j.Reset(tid, commit) // another deal: another chain
	}
	if !j.Host(term, sender) {
		j.Flag(fmt.Sprintf("two hosts for term %d", term))
		return 0
	}
	if !backlog {
		// Appended in place: the steps held are never changed, only
		// extended, and a copy of the whole journal at every update was a
		// game's worth of garbage many times over (3.3 MB in a phone's).
		all := append(j.Steps, ws...)
		if !Signed(all) {
			j.Steps = all // a host older than the chain: taken as it comes
			return 0
		}
		n, err := j.verifyFrom(all)
		if err != nil {
			j.Flag("the host's journal: " + err.Error())
		}
		if n > len(j.Steps) {
			j.checkMarks(all[:n], len(j.Steps))
			j.Steps = all[:n]
		}
		return 0
	}
	if !Signed(j.Steps) && !Signed(ws) {
		j.Steps = append([]protocol.Step(nil), ws...) // hosts older than the chain
		return 0
	}
	// The whole journal again: ours must be its start, or, from a new
	// host, a signed start of ours plus steps of its own term.
	i := 0
	for i < len(j.Steps) && i < len(ws) && SameStep(j.Steps[i], ws[i]) {
		i++
	}
	if i < len(j.Steps) {
		for k := i; k < len(j.Steps); k++ {
			if j.Steps[k].Term >= term || (i < len(ws) && ws[i].Term < term) || !Signed(ws) {
				j.Flag(fmt.Sprintf("the host's backlog rewrote step %d of the journal", i+1))
				return 0
			}
		}
	}
	n, err := VerifyChain(j.tid, j.commit, ws, j.KeyOf)
	if err != nil || n < i {
		j.Flag("the host's backlog: " + fmt.Sprint(err))
		return 0
	}
	rolled = len(j.Steps) - i
	j.checkMarks(ws, 0)
	ours := j.Steps
	j.Steps = append([]protocol.Step(nil), ws...)
	for k := range i {
		if len(j.Steps[k].Mark) == 0 {
			j.Steps[k].Mark = ours[k].Mark // a seat's signature we were sent stays ours
		}
	}
	j.head = j.commit
	for _, w := range j.Steps {
		j.head = ChainNext(j.head, w)
	}
	j.Rolled += rolled
	return rolled
}

// checkMarks flags a step of steps, from from on, whose seat's signature
// doesn't verify: the host kept a move its seat didn't make.
func (j *Journal) checkMarks(steps []protocol.Step, from int) {
	if j.SeatKey == nil {
		return
	}
	if err := CheckMarks(j.tid, j.commit, steps, from, j.keyOfSeat); err != nil {
		j.Flag("the host's journal: " + err.Error())
	}
}

// keyOfSeat is the key of seat's person in this deal, as we first knew it.
func (j *Journal) keyOfSeat(seat int) ed25519.PublicKey {
	if pub, ok := j.seatKeys[seat]; ok {
		return pub
	}
	pub := j.SeatKey(seat)
	if pub != nil {
		if j.seatKeys == nil {
			j.seatKeys = map[int]ed25519.PublicKey{}
		}
		j.seatKeys[seat] = pub
	}
	return pub
}

// verifyFrom checks all, whose start is our Steps (verified, ending at
// head), from there on; it returns how many of all verify.
func (j *Journal) verifyFrom(all []protocol.Step) (int, error) {
	from := len(j.Steps)
	n, h, good := from, j.head, j.head
	for i := from; i < len(all); i++ {
		w := all[i]
		if i > 0 && w.Term < all[i-1].Term {
			return n, fmt.Errorf("step %d: %w", i+1, ErrChainTerm)
		}
		if i > 0 && w.Term != all[i-1].Term && n != i {
			return n, fmt.Errorf("step %d: %w", i, ErrChainUnsigned)
		}
		h = ChainNext(h, w)
		if w.Sig == nil {
			continue
		}
		pub := j.KeyOf(w.Term)
		if pub == nil {
			return n, fmt.Errorf("step %d, term %d: %w", i+1, w.Term, ErrChainTerm)
		}
		if !verifyStep(pub, j.tid, w.Term, i, h, w.Sig) {
			return n, fmt.Errorf("step %d: %w", i+1, ErrChainSig)
		}
		n, good = i+1, h
	}
	j.head = good
	if n < len(all) {
		return n, fmt.Errorf("steps %d to %d: %w", n+1, len(all), ErrChainUnsigned)
	}
	return n, nil
}

// RollNote is what the audit says of steps rolled back, "" when none.
func (j *Journal) RollNote() string {
	if j.Rolled == 0 {
		return ""
	}
	return fmt.Sprintf("rolled back %d steps the new host never got (the old host left while sending them); the journal up to there is the old host's, signed.", j.Rolled)
}
