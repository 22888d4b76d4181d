package mentaltable

import (
	"maps"
	"slices"
	"testing"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/protocol"
)

// FuzzPeerMessage feeds a party bytes from a peer as each message that
// carries the mental package's layouts: a deal, an opening of the last
// play, a handover. None panics; each is refused unless it is the honest
// bytes, naming its sender; and a refused one changes nothing the party
// knows.
func FuzzPeerMessage(f *testing.F) {
	r, _ := engine.Preset("standard")
	d := newDriver(f, r, 3, 9, nil)
	if err := d.Shuffle(); err != nil {
		f.Fatal(err)
	}
	if err := d.Deal(); err != nil {
		f.Fatal(err)
	}
	p, q := d.Parties[0], d.Parties[1]
	h := d.B.Hand(1)[0] // a card of party 1's
	honest, err := q.open([]engine.Handle{h})
	if err != nil {
		f.Fatal(err)
	}
	sealed, err := q.hand(h, 0)
	if err != nil {
		f.Fatal(err)
	}
	deal, err := q.deal()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(uint8(0), deal.Shares[d.B.Hand(0)[0]])
	f.Add(uint8(1), honest.Openings[0])
	f.Add(uint8(2), sealed.Sealed)
	f.Add(uint8(1), []byte{})
	f.Fuzz(func(t *testing.T, kind uint8, b []byte) {
		known := maps.Clone(p.known)
		var err error
		switch kind % 3 {
		case 0:
			m := protocol.DeckDeal{From: 1, Shares: slices.Clone(deal.Shares)}
			m.Shares[d.B.Hand(0)[0]] = b
			err = p.take(&m)
			if err == nil {
				// A share that decodes is checked where it counts: at
				// the owner's Learn (TestDishonestShare).
				p.take(&deal)
				return
			}
		case 1:
			m := protocol.DeckOpen{From: 1, Handles: []uint16{uint16(h)}, Openings: [][]byte{b}}
			_, err = checkOpen(d.T, &m, []engine.Handle{h})
			if err == nil && !slices.Equal(b, honest.Openings[0]) {
				return // another true opening of the same card (fresh proofs)
			}
		case 2:
			m := protocol.DeckHandover{From: 1, To: 0, Handle: uint16(h), Sealed: b}
			err = p.receive(&m, 0, []engine.Handle{h}, nil)
			if err == nil {
				delete(p.known, h)
				p.has[h][1] = false
				return
			}
		}
		if err == nil {
			return
		}
		if !maps.Equal(known, p.known) {
			t.Fatalf("a refused message changed what party 0 knows: %v", err)
		}
		if !errorsNames(err, 1) {
			t.Fatalf("%v doesn't name party 1", err)
		}
	})
}
