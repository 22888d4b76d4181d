package mentaltable

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/protocol"
	"github.com/bullshit-game/bullshit/protocol/mental"
)

// A sentMsg is a party's message as it went on the wire, in its own copy.
type sentMsg struct {
	from int
	m    protocol.Message
}

// sender is a deck message's From (every one a party sends has one).
func sender(m protocol.Message) int {
	if f := reflect.ValueOf(m).FieldByName("From"); f.IsValid() && f.CanInt() {
		return int(f.Int())
	}
	return -1
}

// wireCopy is m as it crosses the wire: a copy that shares no slice with
// the sender's.
func wireCopy(tb testing.TB, m protocol.Message) protocol.Message {
	b, err := protocol.Encode(m)
	if err != nil {
		tb.Fatal(err)
	}
	c, err := protocol.Decode(m.Type(), b)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// capture keeps a copy of every party's message d's wire carries (Tamper
// sees a pointer to the sender's own value: it is copied, not kept).
func capture(tb testing.TB, d *Driver, into *[]sentMsg) {
	d.Tamper = func(p any) {
		m := reflect.ValueOf(p).Elem().Interface().(protocol.Message)
		*into = append(*into, sentMsg{sender(m), wireCopy(tb, m)})
	}
}

// The states the fuzzer feeds: a dealt table a few plays in, waiting on
// nothing; one waiting on a called play's opening; one waiting on a
// handover of a pile to its taker; one (V10) waiting on the first card.
// In each, the message withheld (held) is the one thing the table waits
// for.
const (
	scenQuiet = iota
	scenOpen
	scenHand
	scenFirst
	scens
)

// A recTable is a 3-party table in one of those states, with every
// party's message so far and every card's true face (from every secret).
type recTable struct {
	d     *Driver
	sent  []sentMsg
	held  *sentMsg
	truth []mental.Face
	// asked is the ask this input gave the node before its message, if
	// the node's record kept it: an answer to it is due as well.
	asked *protocol.DeckAsk
	// dirty: a call changed the table (an answer applied, an ask kept):
	// the next input gets a fresh one. A refusal changes nothing, which
	// is what the checks hold, so a table is reused until then.
	dirty bool
}

// recSeed is a game whose first call comes at its 15th action, mid-game.
const recSeed = 2

func newRecTable(tb testing.TB, scen int) *recTable {
	tb.Helper()
	preset := "standard"
	if scen == scenFirst {
		preset = "cheat" // V10: the holder of the 3 of clubs plays first
	}
	r, _ := engine.Preset(preset)
	x := &recTable{d: newDriver(tb, r, 3, recSeed, nil)}
	d := x.d
	capture(tb, d, &x.sent)
	withhold := func(ok func(protocol.Message) bool) {
		d.Silent = func(from int, m protocol.Message) bool {
			if x.held == nil && ok(m) {
				x.held = &sentMsg{from, wireCopy(tb, m)}
				return true
			}
			return false
		}
	}
	switch scen {
	case scenOpen:
		withhold(func(m protocol.Message) bool { o, ok := m.(protocol.DeckOpen); return ok && o.No > 0 })
	case scenHand:
		withhold(func(m protocol.Message) bool { _, ok := m.(protocol.DeckHandover); return ok })
	case scenFirst:
		withhold(func(m protocol.Message) bool { _, ok := m.(protocol.DeckOpen); return ok })
	}
	if err := d.Shuffle(); err != nil {
		tb.Fatal(err)
	}
	secrets := make([]mental.Secret, len(d.Parties))
	for i, p := range d.Parties {
		secrets[i] = p.x
	}
	for h := range d.T.Deck {
		f, err := d.T.CB.Decrypt(&d.T.Deck[h], secrets)
		if err != nil {
			tb.Fatal(err)
		}
		x.truth = append(x.truth, f)
	}
	done := func() bool {
		if scen != scenQuiet {
			return x.held != nil
		}
		var open, hand bool
		for _, s := range x.sent {
			switch m := s.m.(type) {
			case protocol.DeckOpen:
				open = open || m.No > 0
			case protocol.DeckHandover:
				hand = true
			}
		}
		return open && hand
	}
	for !done() {
		if d.Over() || d.Actions() > 2000 {
			tb.Fatalf("scene %d: the game never came to it", scen)
		}
		if err := d.Step(); err != nil {
			// The taker of a pile whose handover is withheld still waits
			// for it: the step says so once the wire is quiet.
			if scen == scenHand && x.held != nil && strings.Contains(err.Error(), "still waits") {
				break
			}
			tb.Fatalf("scene %d, action %d: %v", scen, d.Actions(), err)
		}
	}
	return x
}

// due reports whether m, from party from, is what the table waits for:
// the withheld message's kind, sender and play (not necessarily its
// bytes: a handover's seal only its receiver can check).
func (x *recTable) due(from int, m protocol.Message) bool {
	if x.asked != nil && answers(x.asked, from, m) {
		return true
	}
	if x.held == nil || from != x.held.from || m.Type() != x.held.m.Type() || sender(m) != from {
		return false
	}
	no := func(m protocol.Message) int64 { return reflect.ValueOf(m).FieldByName("No").Int() }
	return no(m) == no(x.held.m)
}

// answers reports whether m, from party from, is of the kind a asks of
// that party, for a's play.
func answers(a *protocol.DeckAsk, from int, m protocol.Message) bool {
	if sender(m) != from {
		return false
	}
	switch m := m.(type) {
	case protocol.DeckOpen:
		return (a.What == protocol.AskOpen || a.What == protocol.AskFirst) && from == a.Party && m.No == a.No
	case protocol.DeckHandover:
		return a.What == protocol.AskHand && from == a.Party && m.No == a.No
	case protocol.DeckPool:
		return a.What == protocol.AskPool && from != a.Party && from != a.To && m.No == a.No
	case protocol.DeckPublish:
		return a.What == protocol.AskPublish && m.No == a.No
	}
	return false
}

// trueFaces fails t if who knows a card as other than it is.
func (x *recTable) trueFaces(t *testing.T, who string, known map[engine.Handle]mental.Face) {
	t.Helper()
	for h, f := range known {
		if f != x.truth[h] {
			t.Fatalf("%s thinks card %d is %v; it is %v", who, h, f, x.truth[h])
		}
	}
}

// What a call to the host may change, and must not when it refuses.
type hostSnap struct {
	View    engine.View
	Known   map[engine.Handle]mental.Face
	Asks    int
	Settled int
	Sealed  int
	Waiting []int
}

func snapHost(h *Host) hostSnap {
	return hostSnap{h.B.View(-1), maps.Clone(h.rec.known), len(h.rec.asks), h.rec.settled, len(h.rec.sealed), h.rec.Waiting()}
}

// What a call to a node may change, and must not when it refuses.
type nodeSnap struct {
	Known, RecKnown map[engine.Handle]mental.Face
	Asks            int
	Settled, Sealed int
}

func snapNode(n *Node) nodeSnap {
	return nodeSnap{maps.Clone(n.known), maps.Clone(n.rec.known), len(n.rec.asks), n.rec.settled, len(n.rec.sealed)}
}

func (x *recTable) takeHost(t *testing.T, from int, m protocol.Message) {
	t.Helper()
	h := x.d.H
	before := snapHost(h)
	_, err := h.Take(from, m)
	if err != nil {
		if after := snapHost(h); !reflect.DeepEqual(before, after) {
			x.dirty = true
			t.Fatalf("the host refused party %d's %T (%v) and changed:\n%+v\nto\n%+v", from, m, err, before, after)
		}
		return
	}
	x.dirty = true
	if !x.due(from, m) {
		t.Fatalf("the host took party %d's %T %+v, which nothing waits for", from, m, m)
	}
	x.trueFaces(t, "the host", h.rec.known)
	if _, err := h.Take(from, m); err == nil {
		t.Fatalf("the host took party %d's %T twice", from, m)
	}
}

func (x *recTable) takeNode(t *testing.T, n *Node, from int, m protocol.Message) {
	t.Helper()
	before := snapNode(n)
	_, err := n.Take(from, m)
	if err != nil {
		after := snapNode(n)
		if reflect.DeepEqual(before, after) {
			return
		}
		x.dirty = true
		// A handover's seal only its receiver can open: every record
		// takes one that decodes, the receiver's with the others', and
		// the receiver then refuses what it opens to, naming the sender.
		// What it knows doesn't change.
		hm, ok := m.(protocol.DeckHandover)
		if !ok || hm.To != n.Index || !x.due(from, m) || !errorsNames(err, from) ||
			!maps.Equal(before.Known, after.Known) || !maps.Equal(before.RecKnown, after.RecKnown) {
			t.Fatalf("party %d refused party %d's %T (%v) and changed:\n%+v\nto\n%+v", n.Index, from, m, err, before, after)
		}
		return
	}
	x.dirty = true
	if !x.due(from, m) {
		t.Fatalf("party %d took party %d's %T %+v, which nothing waits for", n.Index, from, m, m)
	}
	x.trueFaces(t, fmt.Sprintf("party %d", n.Index), n.known)
	x.trueFaces(t, fmt.Sprintf("party %d's record", n.Index), n.rec.known)
	if _, err := n.Take(from, m); err == nil {
		t.Fatalf("party %d took party %d's %T twice", n.Index, from, m)
	}
}

// reachesStub reports whether n's answer to a would draw a recovery
// share: mental's recovery is a stub for now (it panics), so such an ask
// is skipped.
func reachesStub(n *Node, a protocol.DeckAsk) bool {
	if a.What != protocol.AskRecover || a.Party == n.Index || len(a.Handles) == 0 {
		return false
	}
	_, sub := n.subs[a.Party]
	p, ok := n.table[a.No]
	return sub && ok && a.No == n.last && p.party == a.Party && slices.Equal(p.handles, handles(a.Handles))
}

func (x *recTable) ask(t *testing.T, n *Node, a protocol.DeckAsk) {
	t.Helper()
	if reachesStub(n, a) {
		return
	}
	before := snapNode(n)
	out, err := n.Ask(a)
	after := snapNode(n)
	if !maps.Equal(before.Known, after.Known) || !maps.Equal(before.RecKnown, after.RecKnown) {
		x.dirty = true
		t.Fatalf("party %d learned a card from the ask %+v", n.Index, a)
	}
	switch after.Asks - before.Asks {
	case 0:
		if err == nil {
			t.Fatalf("party %d took the ask %+v and didn't keep it", n.Index, a)
		}
		if !reflect.DeepEqual(before, after) {
			x.dirty = true
			t.Fatalf("party %d refused the ask %+v (%v) and changed:\n%+v\nto\n%+v", n.Index, a, err, before, after)
		}
	case 1:
		// A well-formed ask is kept, even one the node won't answer: the
		// table waits on it (TestDishonestHostAsks), and the host's clock
		// ends it.
		x.dirty, x.asked = true, &a
	default:
		x.dirty = true
		t.Fatalf("party %d's asks went from %d to %d on the ask %+v", n.Index, before.Asks, after.Asks, a)
	}
	if err != nil && len(out) > 0 {
		t.Fatalf("party %d refused the ask %+v (%v) and answered %v", n.Index, a, err, out)
	}
	for _, m := range out {
		if sender(m) != n.Index {
			t.Fatalf("party %d answered the ask %+v with a %T from party %d", n.Index, a, m, sender(m))
		}
	}
}

// FuzzRecordTake feeds a 3-party table's host (Take), a node (Take) and a
// node's asks (Ask, then Take) messages decoded from arbitrary bytes, from
// any party or none, in four states of the table. Nothing panics; a
// refusal changes nothing the host or the node checked (the game's view,
// what is known, the asks); a message is taken only if it is what the
// table waits for, then teaches only true faces, and is refused when it
// comes again. The seeds are the table's honest messages, each from its
// sender and with a byte flipped, the message withheld to each target,
// and asks honest and not.
func FuzzRecordTake(f *testing.F) {
	var tables [scens]*recTable
	flip := func(b []byte) []byte {
		b = slices.Clone(b)
		if len(b) > 0 {
			b[len(b)/2] ^= 0x40
		}
		return b
	}
	for s := range tables {
		x := newRecTable(f, s)
		tables[s] = x
		for _, sm := range x.sent {
			b, err := protocol.Encode(sm.m)
			if err != nil {
				f.Fatal(err)
			}
			k := uint8(sm.m.Type() - protocol.TypeDeckKey)
			f.Add(uint8(s), uint8(0), int8(sm.from+2), k, []byte(nil), b)
			f.Add(uint8(s), uint8(1), int8(sm.from+2), k, []byte(nil), flip(b))
		}
		if x.held != nil {
			b, _ := protocol.Encode(x.held.m)
			k := uint8(x.held.m.Type() - protocol.TypeDeckKey)
			for _, target := range []uint8{0, 1, 4, 7} { // the host, nodes 0, 1, 2 by Take
				f.Add(uint8(s), target, int8(x.held.from+2), k, []byte(nil), b)
				f.Add(uint8(s), target, int8(x.held.from+2), k, []byte(nil), flip(b))
			}
		}
	}
	// V10 answered with a true opening of another card of the seat's:
	// the asked party cheating with its own cards.
	for _, o := range wrongFirsts(f, tables[scenFirst]) {
		b, _ := protocol.Encode(o)
		f.Add(uint8(scenFirst), uint8(0), int8(o.From+2), uint8(o.Type()-protocol.TypeDeckKey), []byte(nil), b)
		f.Add(uint8(scenFirst), uint8(1), int8(o.From+2), uint8(o.Type()-protocol.TypeDeckKey), []byte(nil), b)
	}
	// Asks: party 0's newest play turned up (honest), then one of another
	// party's cards; a pool, a publish, a handover of party 1's, with an
	// answer after each.
	x := tables[scenQuiet]
	n0 := x.d.Nodes[0]
	var open protocol.Message
	for _, sm := range x.sent {
		if o, ok := sm.m.(protocol.DeckOpen); ok && o.No > 0 {
			open = o
		}
	}
	ob, _ := protocol.Encode(open)
	for _, a := range []protocol.DeckAsk{
		{What: protocol.AskOpen, Party: 0, No: n0.last, Handles: wireHandles(n0.plays[n0.last])},
		{What: protocol.AskOpen, Party: 0, No: n0.last + 1, Handles: wireHandles(x.d.B.Hand(1)[:1])},
		{What: protocol.AskPool, Party: 1, To: 0},
		{What: protocol.AskPublish, No: 99},
		{What: protocol.AskHand, Party: 1, To: 0, Handles: wireHandles(x.d.B.Hand(1)[:1])},
		{What: protocol.AskRecover, Party: 1, No: 1},
		{What: 9},
	} {
		b, _ := protocol.Encode(a)
		f.Add(uint8(scenQuiet), uint8(2), int8(sender(open)+2), uint8(open.Type()-protocol.TypeDeckKey), b, ob)
	}
	// The newest play's party asked to turn it up, and its true opening:
	// an ask the node keeps, and its answer, taken.
	for k, n := range x.d.Nodes {
		if hs, ok := n.plays[n.last]; ok {
			o, err := n.open(hs)
			if err != nil {
				f.Fatal(err)
			}
			o.No = n.last
			a, _ := protocol.Encode(protocol.DeckAsk{What: protocol.AskOpen, Party: k, No: n.last, Handles: wireHandles(hs)})
			b, _ := protocol.Encode(o)
			f.Add(uint8(scenQuiet), uint8(2+3*k), int8(k+2), uint8(o.Type()-protocol.TypeDeckKey), a, b)
		}
	}
	f.Fuzz(func(t *testing.T, scen, target uint8, from8 int8, kind uint8, askBody, body []byte) {
		s := int(scen) % scens
		if tables[s] == nil || tables[s].dirty {
			tables[s] = newRecTable(t, s)
		}
		x := tables[s]
		x.asked = nil
		from := (int(from8)%7+7)%7 - 2 // -2 … 4 at a table of 3
		n := x.d.Nodes[int(target/3)%3]
		m, err := protocol.Decode(protocol.TypeDeckKey+protocol.Type(kind%10), body)
		switch target % 3 {
		case 0:
			if err == nil {
				x.takeHost(t, from, m)
			}
		case 1:
			if err == nil {
				x.takeNode(t, n, from, m)
			}
		case 2:
			if a, err := protocol.Decode(protocol.TypeDeckAsk, askBody); err == nil {
				x.ask(t, n, a.(protocol.DeckAsk))
			}
			if err == nil {
				x.takeNode(t, n, from, m)
			}
		}
	})
}

// TestReplayRefused plays a whole game, keeping every party's message as
// it was sent, and then gives each again to the host and to every node:
// each is refused (none is applied twice), and the refusal changes
// nothing.
func TestReplayRefused(t *testing.T) {
	r, _ := engine.Preset("standard")
	d := newDriver(t, r, 3, 12, nil) // a game with calls, takes and hand-overs
	var sent []sentMsg
	capture(t, d, &sent)
	if err := run(d); err != nil {
		t.Fatal(err)
	}
	kinds := map[protocol.Type]int{}
	for _, sm := range sent {
		kinds[sm.m.Type()]++
		before := snapHost(d.H)
		if _, err := d.H.Take(sm.from, sm.m); err == nil {
			t.Fatalf("the host took party %d's %T %+v again", sm.from, sm.m, sm.m)
		}
		if after := snapHost(d.H); !reflect.DeepEqual(before, after) {
			t.Fatalf("the host refused party %d's %T again and changed:\n%+v\nto\n%+v", sm.from, sm.m, before, after)
		}
		for _, n := range d.Nodes {
			before := snapNode(n)
			if _, err := n.Take(sm.from, sm.m); err == nil {
				t.Fatalf("party %d took party %d's %T %+v again", n.Index, sm.from, sm.m, sm.m)
			}
			if after := snapNode(n); !reflect.DeepEqual(before, after) {
				t.Fatalf("party %d refused party %d's %T again and changed:\n%+v\nto\n%+v", n.Index, sm.from, sm.m, before, after)
			}
		}
	}
	for _, k := range []protocol.Type{protocol.TypeDeckKey, protocol.TypeDeckSplit, protocol.TypeDeckShuffle, protocol.TypeDeckDeal,
		protocol.TypeDeckOpen, protocol.TypeDeckHandover, protocol.TypeDeckPublish} {
		if kinds[k] == 0 {
			t.Errorf("the game sent no message of type %d", k)
		}
	}
	t.Logf("%d messages replayed, by type %v", len(sent), kinds)
}

// wrongFirsts is V10's asked party's true openings of the asked seat's
// cards that aren't the rules' first card.
func wrongFirsts(tb testing.TB, x *recTable) []protocol.DeckOpen {
	tb.Helper()
	d := x.d
	s, ok := d.B.Asked()
	if !ok {
		tb.Fatal("V10 asks nobody")
	}
	p := d.Parties[d.T.Holder[s]]
	var out []protocol.DeckOpen
	for _, h := range d.B.Hand(s) {
		if engine.Card(x.truth[h].Card) == d.rules.First.Card || len(out) == 3 {
			continue
		}
		o, err := p.open([]engine.Handle{h})
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, o)
	}
	return out
}

// V10's asked party shows, as the first card, a true opening of another
// card of its seat's. The host refuses it, naming the party, before its
// record shows the card or ends the ask; the honest answer is taken after
// it. (The record used to show the card and end the ask before the
// engine refused it, leaving the table waiting for an answer the record
// no longer took.)
func TestWrongFirstCard(t *testing.T) {
	x := newRecTable(t, scenFirst)
	wrong := wrongFirsts(t, x)
	if len(wrong) == 0 {
		t.Fatal("the asked seat holds only the first card")
	}
	h := x.d.H
	before := snapHost(h)
	_, err := h.Take(wrong[0].From, wrong[0])
	caught(t, err, ErrWrongCards, wrong[0].From)
	if after := snapHost(h); !reflect.DeepEqual(before, after) {
		t.Fatalf("the refusal changed the host:\n%+v\nto\n%+v", before, after)
	}
	if _, err := h.Take(x.held.from, x.held.m); err != nil {
		t.Fatalf("the honest answer after the cheat: %v", err)
	}
}
