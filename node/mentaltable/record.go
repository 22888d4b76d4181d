package mentaltable

import (
	"errors"
	"fmt"
	"slices"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/protocol"
	"github.com/bullshit-game/bullshit/protocol/mental"
)

// ErrTooLate is an answer to an ask the table no longer waits for: an
// opening of a play that was settled (turned up through the recovery, say)
// is refused, never applied to another.
var ErrTooLate = errors.New("mentaltable: too late: the table no longer waits for that")

// A record is a node's copy of the table's public record and of what the
// table waits for. Every node (the host, each party, a spectator) takes
// the same messages in the order the host relays them, checks each, and
// so holds the same record; a message refused changes nothing. Only the
// host's engine.Blind decides the game; the record is what everyone can
// check of it.
type record struct {
	T      *Public
	n      int
	strict bool // check every share of every deal at once (the host)
	proofs []mental.KeyProof
	keyed  []bool
	split  []bool
	dealt  []bool
	// shares[h][i] is party i's share of h, if has[h][i]: as broadcast at
	// the deal, in an opening, or rebuilt through the recovery.
	shares [][]mental.Share
	has    [][]bool
	// raw[h][i] is party i's share of h as it came in a deal, not yet
	// decoded: a node decodes only the shares it uses (its own cards', a
	// recovered card's, every one at the end), the host all at once.
	raw [][][]byte
	// stepRaw is each shuffle as it came; a node decodes the one it
	// shuffles on and the last, the host each (and checks it) at once.
	stepRaw  [][]byte
	stepDone []bool
	known    map[engine.Handle]mental.Face // turned up for everyone
	asks     []*ask
	sealed   []protocol.DeckHandover // every handover, as broadcast
	// settled is the highest play number the table stopped waiting on.
	settled int
	// published: the secrets and shuffle openings at the end, by party.
	secrets []mental.Secret
	opens   []mental.ShuffleOpening
	pubd    []bool
	gone    []bool // parties that left for good
	// successor[i] is the party that took over from party i.
	successor map[int]int
	// sealedSubs[d][j] is dealer d's sub-share sealed to party j: a
	// successor opens a departed party's with the secret it rebuilt.
	sealedSubs [][][]byte
	// first, if set, checks V10's first card before the record shows it:
	// the host's engine refuses a card the seat doesn't hold or that
	// isn't the rules' first, and a message refused changes nothing.
	first func(seat int, o engine.Opened) error
}

// An ask is an Ask the table waits on, and the answers so far.
type ask struct {
	Ask
	waiting []bool // by party
	// AskRecover: each holder's recovery shares, by handle.
	recs [][]mental.RecoveryShare
}

func (a *ask) done() bool { return !slices.Contains(a.waiting, true) }

func newRecord(t *Public, strict bool) *record {
	n := slices.Max(t.Holder) + 1
	return &record{T: t, n: n, strict: strict, proofs: make([]mental.KeyProof, n), keyed: make([]bool, n),
		split: make([]bool, n), dealt: make([]bool, n), gone: make([]bool, n), successor: map[int]int{}, sealedSubs: make([][][]byte, n), known: map[engine.Handle]mental.Face{}}
}

// Phases, as the record reads them.
func (r *record) keysDone() bool     { return !slices.Contains(r.keyed, false) }
func (r *record) splitDone() bool    { return !slices.Contains(r.split, false) }
func (r *record) shuffled() bool     { return len(r.T.Steps) == r.n }
func (r *record) dealDone() bool     { return !slices.Contains(r.dealt, false) }
func (r *record) shuffler() int      { return len(r.T.Steps) }
func (r *record) inRange(i int) bool { return i >= 0 && i < r.n }

// Waiting is who the table waits for, in party order: the set-up's and
// the deal's laggards, then every party an ask waits on.
func (r *record) Waiting() []int {
	var out []int
	add := func(done []bool) {
		for i, ok := range done {
			if !ok && !slices.Contains(out, i) {
				out = append(out, i)
			}
		}
	}
	switch {
	case !r.keysDone():
		add(r.keyed)
	case !r.splitDone():
		add(r.split)
	case !r.shuffled():
		out = append(out, r.shuffler())
	case !r.dealDone():
		add(r.dealt)
	}
	for _, a := range r.asks {
		for i, w := range a.waiting {
			if w && !slices.Contains(out, i) {
				out = append(out, i)
			}
		}
	}
	slices.Sort(out)
	return out
}

// take checks m, sent by party from (the envelope's signer), against the
// record and applies it. It returns the ask m completed, if any, and the
// cards m turned up for everyone.
func (r *record) take(from int, m protocol.Message) (*ask, []engine.Opened, error) {
	if !r.inRange(from) {
		return nil, nil, fmt.Errorf("mentaltable: a message from party %d of %d", from, r.n)
	}
	switch m := m.(type) {
	case protocol.DeckKey:
		return nil, nil, r.takeKey(from, &m)
	case protocol.DeckSplit:
		return nil, nil, r.takeSplit(from, &m)
	case protocol.DeckShuffle:
		return nil, nil, r.takeShuffle(from, &m)
	case protocol.DeckDeal:
		return nil, nil, r.takeDeal(from, &m)
	case protocol.DeckOpen:
		return r.takeOpen(from, &m)
	case protocol.DeckHandover:
		a, err := r.takeHandover(from, &m)
		return a, nil, err
	case protocol.DeckRecover:
		return r.takeRecover(from, &m)
	case protocol.DeckPool:
		a, err := r.takePool(from, &m)
		return a, nil, err
	case protocol.DeckPublish:
		a, err := r.takePublish(from, &m)
		return a, nil, err
	}
	return nil, nil, fmt.Errorf("mentaltable: party %d sent a %T, which no party sends", from, m)
}

func (r *record) takeKey(from int, m *protocol.DeckKey) error {
	if m.From != from {
		return fault(from, ErrNotExpected, "a deck key signed as party %d's", m.From)
	}
	if r.keyed[from] {
		return fault(from, ErrNotExpected, "a second deck key")
	}
	var k mental.PublicKey
	if err := k.UnmarshalBinary(m.Key); err != nil {
		return fault(from, err, "deck key")
	}
	var pf mental.KeyProof
	if err := pf.UnmarshalBinary(m.Proof); err != nil {
		return fault(from, err, "key proof")
	}
	if err := pf.Verify(&k, r.T.KeyCtx(from)); err != nil {
		return fault(from, err, "")
	}
	if r.T.Keys == nil {
		r.T.Keys = make([]mental.PublicKey, r.n)
	}
	r.T.Keys[from], r.proofs[from], r.keyed[from] = k, pf, true
	if !r.keysDone() {
		return nil
	}
	ctxs := make([][]byte, r.n)
	for i := range ctxs {
		ctxs[i] = r.T.KeyCtx(i)
	}
	joint, err := mental.JointKey(r.T.Keys, r.proofs, ctxs)
	if err != nil {
		// The last key names the party whose key repeats or cancels
		// another's: it is refused, and the table waits for it again.
		r.keyed[from] = false
		return err
	}
	r.T.Joint = joint
	r.T.Commits = make([]mental.RecoveryCommit, r.n)
	return nil
}

func (r *record) takeSplit(from int, m *protocol.DeckSplit) error {
	if m.From != from || !r.keysDone() || r.split[from] {
		return fault(from, ErrNotExpected, "a recovery split")
	}
	if len(m.Sealed) != r.n || len(m.Sealed[from]) != 0 {
		return fault(from, mental.ErrMalformed, "a split into %d for %d parties", len(m.Sealed), r.n)
	}
	var rc mental.RecoveryCommit
	if err := rc.UnmarshalBinary(m.Commit); err != nil {
		return fault(from, err, "recovery commitments")
	}
	if err := rc.Check(from, &r.T.Keys[from], mental.DefaultThreshold(r.n)); err != nil {
		return err
	}
	for j, b := range m.Sealed {
		var s mental.Sealed
		if j != from && s.UnmarshalBinary(b) != nil {
			return fault(from, mental.ErrMalformed, "sub-share for party %d", j)
		}
	}
	r.T.Commits[from], r.split[from] = rc, true
	r.sealedSubs[from] = m.Sealed
	return nil
}

func (r *record) takeShuffle(from int, m *protocol.DeckShuffle) error {
	if m.From != from || !r.splitDone() || r.shuffled() || from != r.shuffler() {
		return fault(from, ErrNotExpected, "a shuffle out of turn")
	}
	last := len(r.T.Steps)+1 == r.n
	var st mental.ShuffleStep
	if r.strict || last {
		if err := st.UnmarshalBinary(m.Step); err != nil {
			return fault(from, err, "shuffle")
		}
		// Every deck is as long as the first: that is all CheckStep
		// reads of the one before.
		if err := mental.CheckStep(from, r.T.Initial, &st); err != nil {
			return err
		}
	}
	r.T.Steps = append(r.T.Steps, st)
	r.stepRaw = append(r.stepRaw, m.Step)
	r.stepDone = append(r.stepDone, r.strict || last)
	if last {
		r.T.Deck = st.Out
		total := len(r.T.Deck)
		r.shares, r.has, r.raw = make([][]mental.Share, total), make([][]bool, total), make([][][]byte, total)
		for h := range total {
			r.shares[h], r.has[h], r.raw[h] = make([]mental.Share, r.n), make([]bool, r.n), make([][]byte, r.n)
		}
	}
	return nil
}

// step is shuffle i, decoded and checked.
func (r *record) step(i int) (*mental.ShuffleStep, error) {
	if !r.stepDone[i] {
		if err := r.T.Steps[i].UnmarshalBinary(r.stepRaw[i]); err != nil {
			return nil, fault(i, err, "shuffle")
		}
		if err := mental.CheckStep(i, r.T.Initial, &r.T.Steps[i]); err != nil {
			return nil, err
		}
		r.stepDone[i] = true
	}
	return &r.T.Steps[i], nil
}

// share is party i's share of h, decoded, if the record has it.
func (r *record) share(h engine.Handle, i int) (mental.Share, bool, error) {
	if r.has[h][i] {
		return r.shares[h][i], true, nil
	}
	if r.raw[h][i] == nil {
		return mental.Share{}, false, nil
	}
	var sh mental.Share
	if err := sh.UnmarshalBinary(r.raw[h][i]); err != nil {
		return sh, false, fault(i, err, "share of card %d", h)
	}
	r.put(h, i, sh)
	r.raw[h][i] = nil
	return sh, true, nil
}

// sharesOf is every share of h the record has, decoded.
func (r *record) sharesOf(h engine.Handle) ([]mental.Share, error) {
	var out []mental.Share
	for i := range r.n {
		sh, ok, err := r.share(h, i)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, sh)
		}
	}
	return out, nil
}

func (r *record) put(h engine.Handle, i int, sh mental.Share) { r.shares[h][i], r.has[h][i] = sh, true }

// takeDeal reads a party's shares of every card not its own. The host
// (strict) checks each at once, so that a wrong share names its sender
// before anyone learns a hand; a party checks those of its own cards
// when it learns them.
func (r *record) takeDeal(from int, m *protocol.DeckDeal) error {
	if m.From != from || !r.shuffled() || r.dealt[from] {
		return fault(from, ErrNotExpected, "a deal")
	}
	if !r.strict {
		if err := checkDeal(r.T, from, m); err != nil {
			return err
		}
		for h, b := range m.Shares {
			if r.T.Dealt[h] != from {
				r.raw[h][from] = b
			}
		}
		r.dealt[from] = true
		return nil
	}
	got, err := readDeal(r.T, from, m)
	if err != nil {
		return err
	}
	// In one batch (the proofs name their key, not a place, so a list of
	// the sender's key alone checks them); one by one only to name the
	// wrong card.
	var cts []mental.Ciphertext
	var shs [][]mental.Share
	for h := range got {
		if r.T.Dealt[h] != from {
			cts, shs = append(cts, r.T.Deck[h]), append(shs, got[h:h+1])
		}
	}
	if mental.VerifyShares(r.T.Keys[from:from+1], cts, shs, -1, r.T.Ctx) != nil {
		for h := range got {
			if r.T.Dealt[h] == from {
				continue
			}
			if err := got[h].Verify(&r.T.Keys[from], &r.T.Deck[h], r.T.Ctx); err != nil {
				return fault(from, err, "share of card %d", h)
			}
		}
	}
	for h := range got {
		if r.T.Dealt[h] != from {
			r.put(engine.Handle(h), from, got[h])
		}
	}
	r.dealt[from] = true
	return nil
}

// shareBytes is a share's length on the wire.
const shareBytes = 3*mental.ElementSize + mental.ScalarSize

// checkDeal is what a deal must be before any share is decoded: a share
// of every card not the sender's, of a share's length, none of its own.
func checkDeal(t *Public, from int, d *protocol.DeckDeal) error {
	if len(d.Shares) != len(t.Deck) {
		return fault(from, mental.ErrMalformed, "deal of %d cards", len(d.Shares))
	}
	for h, b := range d.Shares {
		switch {
		case t.Dealt[h] == from && len(b) != 0:
			return fault(from, ErrNotExpected, "a share of its own card %d", h)
		case t.Dealt[h] != from && len(b) != shareBytes:
			return fault(from, mental.ErrMalformed, "a share of %d bytes for card %d", len(b), h)
		}
	}
	return nil
}

// readDeal decodes party from's deal: a share of every card not its own,
// none of its own.
func readDeal(t *Public, from int, d *protocol.DeckDeal) ([]mental.Share, error) {
	if len(d.Shares) != len(t.Deck) {
		return nil, fault(from, mental.ErrMalformed, "deal of %d cards", len(d.Shares))
	}
	got := make([]mental.Share, len(d.Shares))
	for h, b := range d.Shares {
		if t.Dealt[h] == from {
			if len(b) != 0 {
				return nil, fault(from, ErrNotExpected, "a share of its own card %d", h)
			}
			continue
		}
		if err := got[h].UnmarshalBinary(b); err != nil {
			return nil, fault(from, err, "share of card %d", h)
		}
	}
	return got, nil
}

// Ask records a host's ask: every node takes the host's asks as it takes
// the parties' messages, and refuses one that names no party or card.
func (r *record) Ask(a Ask) error {
	if !r.inRange(a.Party) || (a.What == AskPool && (!r.inRange(a.To) || a.To == a.Party)) {
		return fmt.Errorf("mentaltable: an ask of party %d for party %d of %d", a.Party, a.To, r.n)
	}
	if a.What < AskOpen || a.What > AskShow {
		return fmt.Errorf("mentaltable: an ask of kind %d", a.What)
	}
	for _, h := range a.Handles {
		if int(h) >= len(r.T.Deck) {
			return fmt.Errorf("mentaltable: an ask of card %d of %d", h, len(r.T.Deck))
		}
	}
	r.ask(a)
	return nil
}

// ask records an ask known to be well formed (the host's own).
func (r *record) ask(a Ask) {
	a.Handles = slices.Clone(a.Handles) // the record's own: answers strike handles off
	x := &ask{Ask: a, waiting: make([]bool, r.n)}
	switch a.What {
	case AskOpen, AskFirst, AskHand, AskPick, AskShow:
		x.waiting[a.Party] = true
	case AskRecover:
		// It replaces the opening asked of that party: an opening that
		// comes now is too late.
		for _, o := range slices.Clone(r.asks) {
			if o.What == AskOpen && o.No == a.No && o.Party == a.Party {
				r.drop(o)
			}
		}
		for i := range x.waiting {
			x.waiting[i] = i != a.Party // a departed holder's by its successor
		}
		x.recs = make([][]mental.RecoveryShare, len(a.Handles))
	case AskPool:
		for i := range x.waiting {
			x.waiting[i] = i != a.Party && i != a.To && !r.gone[i]
		}
	case AskPublish:
		for i := range x.waiting {
			x.waiting[i] = true // a departed party's by its successor
		}
		r.secrets, r.opens, r.pubd = make([]mental.Secret, r.n), make([]mental.ShuffleOpening, r.n), make([]bool, r.n)
	}
	r.asks = append(r.asks, x)
}

// drop ends an ask that is answered, or that the table no longer waits on
// (the recovery replaces a silent opener's opening).
func (r *record) drop(a *ask) {
	r.asks = slices.DeleteFunc(r.asks, func(x *ask) bool { return x == a })
	if a.What != AskHand && !slices.ContainsFunc(r.asks, func(x *ask) bool { return x.No == a.No }) {
		r.settled = max(r.settled, a.No)
	}
}

// find is the ask of kind what that waits on party from for play no.
func (r *record) find(from int, no int, what ...AskKind) (*ask, error) {
	return r.findFor(from, from, no, what...)
}

// findFor is find of an answer party from sends for party slot (itself,
// or a departed party it took over from).
func (r *record) findFor(from, slot int, no int, what ...AskKind) (*ask, error) {
	for _, a := range r.asks {
		if a.No == no && slices.Contains(what, a.What) && a.waiting[slot] {
			return a, nil
		}
	}
	if no <= r.settled {
		return nil, fault(from, ErrTooLate, "play %d is settled", no)
	}
	return nil, fault(from, ErrNotExpected, "nothing of party %d's is due for play %d", from, no)
}

func handles(hs []uint16) []engine.Handle {
	out := make([]engine.Handle, len(hs))
	for i, h := range hs {
		out[i] = engine.Handle(h)
	}
	return out
}

func wireHandles(hs []engine.Handle) []uint16 {
	out := make([]uint16, len(hs))
	for i, h := range hs {
		out[i] = uint16(h)
	}
	return out
}

func (r *record) takeOpen(from int, m *protocol.DeckOpen) (*ask, []engine.Opened, error) {
	if m.From != from {
		return nil, nil, fault(from, ErrNotExpected, "an opening signed as party %d's", m.From)
	}
	a, _, err := r.findAs(from, m.No, AskOpen, AskFirst, AskShow)
	if err != nil {
		return nil, nil, err
	}
	want := handles(a.Handles)
	if a.What == AskFirst {
		// V10: the first card, or none; the engine checks the card's face
		// and that the seat holds it.
		if len(m.Handles) > 1 {
			return nil, nil, fault(from, ErrWrongCards, "%d cards for the first card", len(m.Handles))
		}
		want = handles(m.Handles)
	}
	os, err := r.checkOpen(m, want)
	if err != nil {
		return nil, nil, err
	}
	hs := handles(m.Handles)
	if a.What == AskFirst && r.first != nil && len(hs) == 1 {
		if err := r.first(a.Seat, opened(hs, os)[0]); err != nil {
			return nil, nil, fault(from, err, "")
		}
	}
	r.show(hs, os)
	r.drop(a)
	return a, opened(hs, os), nil
}

// show keeps an opening's identities and shares as public.
func (r *record) show(hs []engine.Handle, os []mental.Opening) {
	for k, h := range hs {
		r.known[h] = os[k].Face
		for i := range os[k].Shares {
			r.put(h, i, os[k].Shares[i])
		}
	}
}

func (r *record) takeHandover(from int, m *protocol.DeckHandover) (*ask, error) {
	if m.From != from {
		return nil, fault(from, ErrNotExpected, "a handover signed as party %d's", m.From)
	}
	a, slot, err := r.findAs(from, m.No, AskHand)
	if err != nil {
		return nil, err
	}
	if m.To != a.To || !slices.Contains(a.Handles, m.Handle) {
		return nil, fault(from, ErrNotHeld, "card %d to party %d", m.Handle, m.To)
	}
	var s mental.Sealed
	if err := s.UnmarshalBinary(m.Sealed); err != nil {
		return nil, fault(from, err, "handover of card %d", m.Handle)
	}
	a.Handles = slices.DeleteFunc(a.Handles, func(h uint16) bool { return h == m.Handle })
	r.sealed = append(r.sealed, *m)
	if len(a.Handles) == 0 {
		a.waiting[slot] = false
		r.drop(a)
		return a, nil
	}
	return nil, nil
}

// findAs is find for party from, or for a party that left whose seats
// from took over: its successor answers what was still due of it (a
// card to hand over, a play to turn up), with the secret it rebuilt. It
// says whose place the answer takes.
func (r *record) findAs(from int, no int, what ...AskKind) (*ask, int, error) {
	a, err := r.find(from, no, what...)
	if err == nil {
		return a, from, nil
	}
	for g, s := range r.successor {
		if s != from {
			continue
		}
		if b, gerr := r.findFor(from, g, no, what...); gerr == nil {
			return b, g, nil
		}
	}
	return nil, from, err
}

// takeRecover reads a holder's recovery shares of a silent party's cards;
// once every holder's are in, the cards turn up for everyone.
func (r *record) takeRecover(from int, m *protocol.DeckRecover) (*ask, []engine.Opened, error) {
	if m.From != from {
		return nil, nil, fault(from, ErrNotExpected, "recovery shares signed as party %d's", m.From)
	}
	got := make([]mental.RecoveryShare, len(m.Shares))
	for k, b := range m.Shares {
		if err := got[k].UnmarshalBinary(b); err != nil {
			return nil, nil, fault(from, err, "recovery share of card %d", k)
		}
	}
	// The holder is the sender, or a party that left, whose sub-shares
	// its successor opened with the secret it rebuilt.
	holder := from
	if len(got) > 0 {
		holder = got[0].Holder
	}
	if holder != from && (!r.inRange(holder) || !r.gone[holder] || r.successor[holder] != from) {
		return nil, nil, fault(from, ErrNotExpected, "recovery shares of holder %d", holder)
	}
	a, err := r.findFor(from, holder, m.No, AskRecover)
	if err != nil {
		return nil, nil, err
	}
	if m.Dealer != a.Party || !slices.Equal(m.Handles, a.Handles) || len(m.Shares) != len(a.Handles) {
		return nil, nil, fault(from, ErrWrongCards, "recovery shares of party %d's %v", m.Dealer, m.Handles)
	}
	rc := &r.T.Commits[a.Party]
	for k := range got {
		if got[k].Holder != holder {
			return nil, nil, fault(from, ErrNotExpected, "recovery share of holder %d among holder %d's", got[k].Holder, holder)
		}
		if err := rc.VerifyRecoveryShare(a.Party, &r.T.Deck[m.Handles[k]], &got[k], r.T.Ctx); err != nil {
			return nil, nil, err
		}
	}
	for k := range got {
		a.recs[k] = append(a.recs[k], got[k])
	}
	a.waiting[holder] = false
	if !a.done() {
		return nil, nil, nil
	}
	hs := handles(a.Handles)
	cts := make([]mental.Ciphertext, len(hs))
	for k, h := range hs {
		cts[k] = r.T.Deck[h]
	}
	shs, err := mental.CombineRecoveries(a.Party, rc, cts, a.recs, r.T.Ctx)
	if err != nil {
		return nil, nil, err
	}
	out := make([]engine.Opened, len(hs))
	for k, h := range hs {
		r.put(h, a.Party, shs[k])
		all, err := r.sharesOf(h)
		if err != nil {
			return nil, nil, err
		}
		f, err := r.T.CB.Reveal(&r.T.Deck[h], all)
		if err != nil {
			return nil, nil, fmt.Errorf("mentaltable: party %d's card %d, recovered: %w", a.Party, h, err)
		}
		r.known[h] = f
		out[k] = engine.Opened{Handle: h, Card: engine.Card(f.Card)}
	}
	r.drop(a)
	return a, out, nil
}

func (r *record) takePool(from int, m *protocol.DeckPool) (*ask, error) {
	if m.From != from {
		return nil, fault(from, ErrNotExpected, "a sub-share signed as party %d's", m.From)
	}
	a, err := r.find(from, m.No, AskPool)
	if err != nil {
		return nil, err
	}
	if m.Dealer != a.Party || m.To != a.To {
		return nil, fault(from, ErrNotExpected, "party %d's sub-share to party %d", m.Dealer, m.To)
	}
	var s mental.Sealed
	if err := s.UnmarshalBinary(m.Sealed); err != nil {
		return nil, fault(from, err, "sub-share of party %d's secret", m.Dealer)
	}
	a.waiting[from] = false
	if a.done() {
		r.drop(a)
		r.leave(a.Party, a.To)
		return a, nil
	}
	return nil, nil
}

// leave gives party gone's seats to its successor.
func (r *record) leave(gone, successor int) {
	r.gone[gone], r.successor[gone] = true, successor
	for s, p := range r.T.Holder {
		if p == gone {
			r.T.Holder[s] = successor
		}
	}
}

// takePublish reads a party's secret and shuffle opening at the end (or,
// Of another, a departed party's rebuilt secret). Each is checked against
// its key as it comes; the shuffles and the deck once all are in (end).
func (r *record) takePublish(from int, m *protocol.DeckPublish) (*ask, error) {
	if m.From != from {
		return nil, fault(from, ErrNotExpected, "a secret signed as party %d's", m.From)
	}
	if !r.inRange(m.Of) || r.pubd == nil || r.pubd[m.Of] || (m.Of != from && r.successor[m.Of] != from) {
		return nil, fault(from, ErrNotExpected, "party %d's secret", m.Of)
	}
	of := m.Of
	if !r.gone[of] {
		of = from
	} else if of == from {
		return nil, fault(from, ErrNotExpected, "a secret from a party that left")
	}
	a, err := r.find(of, m.No, AskPublish)
	if err != nil {
		return nil, err
	}
	var x mental.Secret
	if err := x.UnmarshalBinary(m.Secret); err != nil {
		return nil, fault(from, err, "published secret of party %d", m.Of)
	}
	if err := mental.CheckSecret(m.Of, &x, &r.T.Keys[m.Of]); err != nil {
		return nil, fault(from, err, "published secret of party %d", m.Of)
	}
	var o mental.ShuffleOpening
	if m.Of == from {
		if err := o.UnmarshalBinary(m.Shuffle); err != nil {
			return nil, fault(from, err, "shuffle opening")
		}
	} else if len(m.Shuffle) != 0 {
		return nil, fault(from, ErrNotExpected, "a shuffle opening of party %d's", m.Of)
	}
	r.secrets[m.Of], r.opens[m.Of], r.pubd[m.Of] = x, o, true
	a.waiting[of] = false
	if !slices.Contains(r.pubd, false) {
		for i := range a.waiting {
			a.waiting[i] = false
		}
		r.drop(a)
		return a, nil
	}
	return nil, nil
}

// deck checks every shuffle that can be (a departed party's opening is
// gone with it: its secret, rebuilt, still decrypts the deck) and turns
// every card up under the published secrets: each card once.
func (r *record) deck() ([]engine.Card, error) {
	for i := range r.T.Steps {
		if _, err := r.step(i); err != nil {
			return nil, err
		}
	}
	gone := r.gone
	in := r.T.Initial
	if !slices.Contains(gone, true) {
		if err := mental.CheckShuffles(&r.T.Joint, r.T.Initial, r.T.Steps, r.opens, r.T.Ctx); err != nil {
			return nil, err
		}
	} else {
		for i := range r.T.Steps {
			if !gone[i] {
				if err := r.opens[i].Check(&r.T.Joint, in, &r.T.Steps[i], r.T.Ctx); err != nil {
					return nil, fault(i, err, "")
				}
			}
			in = r.T.Steps[i].Out
		}
	}
	deck := make([]engine.Card, len(r.T.Deck))
	seen := map[mental.Face]bool{}
	for h := range r.T.Deck {
		f, err := r.T.CB.Decrypt(&r.T.Deck[h], r.secrets)
		if err != nil || seen[f] {
			return nil, fmt.Errorf("%w: card %d is %v (%v)", ErrDeck, h, f, err)
		}
		seen[f] = true
		deck[h] = engine.Card(f.Card)
	}
	return deck, nil
}
