package node

// The host's journal is a signed chain, so that history is evidence: a
// step a player relays to a new host (election.go) is one the host that
// recorded it vouched for, and a forged or doctored step is refused.
//
// Step i's hash is
//
//	H_i = SHA-256("bullshit/chain/v1\x00" || H_{i-1} || step i's public bytes || term || seal)
//
// with H_{-1} the deal's commitment (commit.go), so a chain is bound to its
// deal. The public bytes are what a seat may know of the step (PubStep:
// its time, the command without its hidden cards, how many were hidden);
// the seal commits to the hidden cards,
//
//	seal_i = SHA-256("bullshit/seal/v1\x00" || key_i || n || cards),
//	key_i  = SHA-256("bullshit/hidden/v1\x00" || salt || seed || i),
//
// so a player (who holds neither seed nor salt) learns nothing of the
// cards from it, and a new host that rebuilt the seed and the cards from
// the players' shares checks the cards against it.
//
// The host of the term that recorded step i signs, with its node's ed25519
// key,
//
//	"bullshit/step/v1\x00" || table ID || term || i || H_i
//
// and a signature over H_i vouches for every step before it. The host signs
// the last step of each batch it sends; a player checks the batch against
// its host's key as it arrives, keeps only the last signature of each term
// (compact), and hands its journal, signatures and all, to a new host, which
// checks it against the key of each term's host as it knew them and
// refuses a journal that doesn't verify. After a failover the new host
// signs its own term's steps, chaining on from the last hash of the old
// one: the signer changes only at a term boundary, only to a term's host,
// and the old term's last step must carry its host's signature.

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/protocol"
)

const (
	chainDomain  = "bullshit/chain/v1\x00"
	sealDomain   = "bullshit/seal/v1\x00"
	hiddenDomain = "bullshit/hidden/v1\x00"
	stepDomain   = "bullshit/step/v1\x00"
)

// Link is a journal step's place in its host's chain.
type Link struct {
	Term uint64 // the host term that recorded the step; 0 from a host older than the chain
	Seal []byte // the commitment to its hidden cards, nil when it hides none
	Sig  []byte // the term host's signature over the chain's hash here; nil when a later one vouches for it
}

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
	b = binary.BigEndian.AppendUint64(b, uint64(w.At))
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

// chainNext is H_i from H_{i-1} and step i as it travels (its Term and
// Seal included, its Sig not).
func chainNext(prev [32]byte, w protocol.Step) [32]byte {
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

// hiddenKey is the key that seals step i's hidden cards: only whoever
// knows the seed and the salt (the host, or a new host that rebuilt them)
// can make or check a seal.
func hiddenKey(seed uint64, salt [SaltSize]byte, i int) [32]byte {
	h := sha256.New()
	h.Write([]byte(hiddenDomain))
	h.Write(salt[:])
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], seed)
	h.Write(n[:])
	binary.BigEndian.PutUint64(n[:], uint64(i))
	h.Write(n[:])
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// sealCards commits to a step's hidden cards under its key.
func sealCards(key [32]byte, cards []engine.Card) []byte {
	h := sha256.New()
	h.Write([]byte(sealDomain))
	h.Write(key[:])
	h.Write([]byte{byte(len(cards))})
	for _, c := range cards {
		h.Write([]byte{byte(c)})
	}
	return h.Sum(nil)
}

// stepMsg is what a host signs for step i.
func stepMsg(tid protocol.TableID, term uint64, i int, hash [32]byte) []byte {
	b := make([]byte, 0, len(stepDomain)+len(tid)+16+32)
	b = append(b, stepDomain...)
	b = append(b, tid[:]...)
	b = binary.BigEndian.AppendUint64(b, term)
	b = binary.BigEndian.AppendUint64(b, uint64(i))
	return append(b, hash[:]...)
}

func signStep(key ed25519.PrivateKey, tid protocol.TableID, term uint64, i int, hash [32]byte) []byte {
	return ed25519.Sign(key, stepMsg(tid, term, i, hash))
}

func verifyStep(pub ed25519.PublicKey, tid protocol.TableID, term uint64, i int, hash [32]byte, sig []byte) bool {
	return len(pub) == ed25519.PublicKeySize && len(sig) == ed25519.SignatureSize &&
		ed25519.Verify(pub, stepMsg(tid, term, i, hash), sig)
}

// edPriv is a libp2p ed25519 key as crypto/ed25519 takes it, nil for any
// other kind.
func edPriv(k crypto.PrivKey) ed25519.PrivateKey {
	if k == nil || k.Type() != crypto.Ed25519 {
		return nil
	}
	raw, err := k.Raw()
	if err != nil || len(raw) != ed25519.PrivateKeySize {
		return nil
	}
	return ed25519.PrivateKey(raw)
}

// edPub is the ed25519 key a peer ID embeds, nil when it embeds none.
func edPub(id peer.ID) ed25519.PublicKey {
	pk, err := id.ExtractPublicKey()
	if err != nil || pk.Type() != crypto.Ed25519 {
		return nil
	}
	raw, err := pk.Raw()
	if err != nil || len(raw) != ed25519.PublicKeySize {
		return nil
	}
	return ed25519.PublicKey(raw)
}

// verifyChain checks steps[from:], chained on from prev (H_{from-1}, the
// commitment when from is 0), against the key of each term's host. It
// returns how many of steps a signature vouches for (a prefix of steps,
// from 0), the hash at the last of them, and why it stops short, if it
// does. Terms never go down, a step's term has a known host (keyOf not
// nil), and the last step of a term that another follows is signed.
func verifyChain(tid protocol.TableID, prev [32]byte, from int, steps []protocol.Step, keyOf func(term uint64) ed25519.PublicKey) (int, [32]byte, error) {
	n, good, h := from, prev, prev
	for i := from; i < len(steps); i++ {
		w := steps[i]
		if i > 0 && w.Term < steps[i-1].Term {
			return n, good, fmt.Errorf("step %d: %w", i, ErrChainTerm)
		}
		if i > 0 && w.Term != steps[i-1].Term && n != i {
			// The old term's last step carries no signature of its host.
			return n, good, fmt.Errorf("step %d: %w", i-1, ErrChainUnsigned)
		}
		h = chainNext(h, w)
		if w.Sig == nil {
			continue
		}
		pub := keyOf(w.Term)
		if pub == nil {
			return n, good, fmt.Errorf("step %d, term %d: %w", i, w.Term, ErrChainTerm)
		}
		if !verifyStep(pub, tid, w.Term, i, h, w.Sig) {
			return n, good, fmt.Errorf("step %d: %w", i, ErrChainSig)
		}
		n, good = i+1, h
	}
	if n < len(steps) {
		return n, good, fmt.Errorf("steps %d to %d: %w", n, len(steps)-1, ErrChainUnsigned)
	}
	return n, good, nil
}

// chainHead is H at the end of steps, from the commitment, signatures
// unchecked.
func chainHead(commit [32]byte, steps []protocol.Step) [32]byte {
	h := commit
	for _, w := range steps {
		h = chainNext(h, w)
	}
	return h
}

// compact keeps the last signature of each term and drops the others: a
// later signature of the same host vouches for every step before it.
func compact(steps []PubStep) {
	for i := range steps {
		if steps[i].Link.Sig == nil {
			continue
		}
		for j := i + 1; j < len(steps) && steps[j].Link.Term == steps[i].Link.Term; j++ {
			if steps[j].Link.Sig != nil {
				steps[i].Link.Sig = nil
				break
			}
		}
	}
}

// wireLinked is a journal step as it travels, its link included.
func wireLinked(p PubStep) protocol.Step {
	w := wireStep(p)
	w.Term, w.Seal, w.Sig = p.Link.Term, p.Link.Seal, p.Link.Sig
	return w
}

func wireLinkedAll(ps []PubStep) []protocol.Step {
	out := make([]protocol.Step, len(ps))
	for i, p := range ps {
		out[i] = wireLinked(p)
	}
	return out
}

// engLinked is what wireLinked sends.
func engLinked(ws []protocol.Step) []PubStep {
	out := engPubSteps(ws)
	for i, w := range ws {
		out[i].Link = Link{Term: w.Term, Seal: w.Seal, Sig: w.Sig}
	}
	return out
}

// signed says whether a journal comes from a host that keeps the chain:
// any step with a term. An older host's journal has none.
func signed(steps []protocol.Step) bool {
	for _, w := range steps {
		if w.Term != 0 {
			return true
		}
	}
	return false
}

// ---- The host's side ----

// hostChain is a table's chain: a link and a hash per step of its log.
type hostChain struct {
	key    ed25519.PrivateKey // nil: nothing is signed (a table nobody joins over the network)
	links  []Link
	hashes [][32]byte
}

// chainReset starts the chain of a new deal.
func (t *Table) chainReset() {
	t.chain.links, t.chain.hashes = nil, nil
}

// chainAdd links step i (the log's last) into the chain: recorded in term,
// with sig when it came signed from an earlier host.
func (t *Table) chainAdd(i int, s engine.Step, term uint64, sig []byte) {
	term = max(term, 1) // a table that was never elected is term 1's
	p := public(s)
	l := Link{Term: term, Sig: sig}
	if h := hiddenCards(s); len(h) > 0 {
		l.Seal = sealCards(hiddenKey(t.seed, t.salt, i), h)
	}
	p.Link = l
	prev := t.commit
	if i > 0 {
		prev = t.chain.hashes[i-1]
	}
	t.chain.links = append(t.chain.links, l)
	t.chain.hashes = append(t.chain.hashes, chainNext(prev, wireLinked(p)))
}

// link is step i's link to send, signed when sign (the last of a batch)
// and the step is of our own term.
func (t *Table) link(i int, sign bool) Link {
	if i < 0 || i >= len(t.chain.links) {
		return Link{}
	}
	l := t.chain.links[i]
	term := max(t.term, 1)
	if l.Term != term {
		return l // an earlier host's: as it signed it
	}
	if !sign {
		l.Sig = nil
		return l
	}
	if l.Sig == nil && t.chain.key != nil {
		l.Sig = signStep(t.chain.key, t.wireID(), term, i, t.chain.hashes[i])
		t.chain.links[i].Sig = l.Sig
	}
	return l
}

// signWith makes the table sign its journal's chain with key, its node's.
func (t *Table) signWith(key crypto.PrivKey) {
	t.chain.key = edPriv(key)
}

// ---- A player's side ----

// remoteChain is what a player knows of the chain: who hosted each term,
// and whether anything it was sent failed to verify.
type remoteChain struct {
	hosts  map[uint64]peer.ID
	doubt  []string // what didn't verify, for the audit
	commit [32]byte // the deal our journal chains from
}

func (c *remoteChain) keyOf(term uint64) ed25519.PublicKey {
	id, ok := c.hosts[term]
	if !ok {
		return nil
	}
	return edPub(id)
}

// host notes that id hosts term; false when another did.
func (c *remoteChain) host(term uint64, id peer.ID) bool {
	if c.hosts == nil {
		c.hosts = map[uint64]peer.ID{}
	}
	if have, ok := c.hosts[term]; ok && have != id {
		return false
	}
	c.hosts[term] = id
	return true
}

func (c *remoteChain) flag(why string) {
	if len(c.doubt) < 8 {
		c.doubt = append(c.doubt, why)
	}
}

// sameEvents says whether got is a prefix of (or equal to) all, as the
// wire carries events.
func sameEvents(got, all []engine.Event) bool {
	if len(got) > len(all) {
		return false
	}
	for i := range got {
		if fmt.Sprint(wireEvent(&got[i])) != fmt.Sprint(wireEvent(&all[i])) {
			return false
		}
	}
	return true
}

// takeBacklog is a host's backlog, every event it says we were sent: it
// becomes our record only when it extends the one we kept ourselves (the
// same events first); otherwise ours stands and the audit is told. A
// backlog of a new game (another deal) starts the record afresh, and so
// does a rollback: a new host that could rebuild only a signed prefix of
// the journal we hold (the old host died sending its last step) plays on
// from there. r.mu is held.
func (r *Remote) takeBacklog(events []engine.Event, rollback bool) {
	switch {
	case sameEvents(r.got, events) || rollback:
		r.got = append([]engine.Event(nil), events...)
	case len(events) > 0 && events[0].Type == "deal" && (len(r.got) == 0 || !sameEvents(r.got[:1], events[:1])):
		r.got = append([]engine.Event(nil), events...)
	default:
		r.chain.flag("the host's backlog rewrote events we had been sent")
	}
}

// takeSteps takes an update's journal steps into ours, from the host that
// sent them (id, hosting term): kept only as far as that host's chain
// verifies, ours never rewritten (a backlog must agree with what we hold).
// It reports a rollback: a backlog that verifies and is a prefix of our
// journal, from an earlier term's step on. r.mu is held.
func (r *Remote) takeSteps(id peer.ID, term uint64, ws []protocol.Step, backlog bool) (rollback bool) {
	if !r.chain.host(term, id) {
		r.chain.flag(fmt.Sprintf("two hosts for term %d", term))
		return false
	}
	if r.chain.commit != r.table.Commit {
		// Another deal: another chain, and another audit.
		r.chain.commit, r.chain.doubt, r.journal = r.table.Commit, nil, nil
	}
	own := wireLinkedAll(r.journal)
	all := ws
	if backlog {
		// The whole journal again: ours must be its start, or, after a
		// failover, it a start of ours.
		for i := range min(len(own), len(ws)) {
			a, b := own[i], ws[i]
			if !bytes.Equal(stepBytes(a), stepBytes(b)) || a.Term != b.Term || !bytes.Equal(a.Seal, b.Seal) {
				r.chain.flag(fmt.Sprintf("the host's backlog rewrote step %d of the journal", i))
				return false
			}
		}
		rollback = len(ws) < len(own)
	} else {
		all = append(own, ws...)
	}
	if !signed(all) {
		// A host older than the chain: taken as it comes.
		r.journal = engLinked(all)
		return rollback
	}
	n, _, err := verifyChain(r.tid, r.table.Commit, 0, all, r.chain.keyOf)
	if err != nil {
		r.chain.flag("the host's journal: " + err.Error())
		return false
	}
	if n < len(own) && !rollback {
		return false // never shorter than what verified before
	}
	r.journal = engLinked(all[:n])
	compact(r.journal)
	return rollback
}
