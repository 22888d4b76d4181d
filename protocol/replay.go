package protocol

import (
	"fmt"
	"sync"
)

// Replay refuses envelopes seen before. It keeps, for one table, the highest
// term seen and each sender's highest sequence number in its latest term.
// Check envelopes only after Open verified them, or a forger could move the
// marks. The zero value is ready; it is safe for concurrent use.
//
// Raising the term is up to whoever signs a higher one: the node decides
// which senders may (a new host, an election), before calling Check.
type Replay struct {
	mu   sync.Mutex
	term uint64
	last map[PeerID]mark
}

type mark struct{ term, seq uint64 }

// Check refuses a term lower than the highest seen for the table
// (ErrStaleTerm) and a sequence number not above the last one seen from the
// sender in the same term (ErrReplay). Otherwise it records both.
func (r *Replay) Check(sender PeerID, term, seq uint64) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.peek(sender, term, seq); err != nil {
		return err
	}
	if r.last == nil {
		r.last = make(map[PeerID]mark)
	}
	r.last[sender] = mark{term, seq}
	r.term = term
	return nil
}

// Peek is Check without recording: what Check would say now. A node asks
// it before it verifies an envelope's signature, to refuse a replay without
// the work, and calls Check once the envelope is verified.
func (r *Replay) Peek(sender PeerID, term, seq uint64) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.peek(sender, term, seq)
}

func (r *Replay) peek(sender PeerID, term, seq uint64) error {
	if term < r.term {
		return fmt.Errorf("%w: term %d from %s, table is at %d", ErrStaleTerm, term, sender, r.term)
	}
	if m, ok := r.last[sender]; ok && m.term == term && seq <= m.seq {
		return fmt.Errorf("%w: %d from %s, last was %d", ErrReplay, seq, sender, m.seq)
	}
	return nil
}

// Term is the highest term seen.
func (r *Replay) Term() uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.term
}

// Forget drops a sender's mark, for a peer that left the table.
func (r *Replay) Forget(sender PeerID) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.last, sender)
}
