package mentaltable

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/protocol"
	"github.com/bullshit-game/bullshit/protocol/mental"
)

// A node that never turns its called plays up (its person gone quiet, its
// build modified): past the host's bound, every other party gives its
// recovery shares of those cards, the cards turn up for everyone and the
// verdict follows, the rest of its hand still hidden (the watch holds
// every party's knowledge to what its seats saw, and the host's to what
// was turned up, at every action). The game goes on to its end and the
// audit passes. In I Doubt It and at two seats as well.
func TestSilentOpener(t *testing.T) {
	for _, c := range underRace([]struct {
		preset  string
		seats   int
		silent  int
		minLate int
	}{{"standard", 4, 2, 1}, {"doubt", 5, 0, 1}, {"standard", 2, 1, 1}, {"twist", 6, 3, 1}}) {
		t.Run(fmt.Sprintf("%s/%d seats", c.preset, c.seats), func(t *testing.T) {
			r, _ := engine.Preset(c.preset)
			d := newDriver(t, r, c.seats, uint64(900+c.seats), nil)
			d.Silent = func(party int, m protocol.Message) bool {
				o, ok := m.(protocol.DeckOpen)
				return ok && party == c.silent && o.No > 0
			}
			if err := d.Shuffle(); err != nil {
				t.Fatal(err)
			}
			w := newWatch(t, d)
			w.playAll(-1, 0, 0)
			late := 0
			for _, p := range d.H.Late {
				if p != c.silent {
					t.Fatalf("party %d named late; only party %d was silent", p, c.silent)
				}
				late++
			}
			if late < c.minLate {
				t.Fatalf("%d of party %d's plays were turned up through the recovery; want at least %d", late, c.silent, c.minLate)
			}
			if _, _, err := d.Finish(); err != nil {
				t.Fatal(err)
			}
			t.Logf("%d plays of party %d's turned up through the recovery in %d actions", late, c.silent, d.Actions())
		})
	}
}

// An opening that comes after the recovery turned its play up is refused
// as too late, by the host and by every node, and changes nothing.
func TestOpeningTooLate(t *testing.T) {
	r, _ := engine.Preset("standard")
	d := newDriver(t, r, 4, 31, nil)
	var held []protocol.DeckOpen
	d.Silent = func(party int, m protocol.Message) bool {
		o, ok := m.(protocol.DeckOpen)
		if ok && o.No > 0 { // every call's opening: the first is recovered
			held = append(held, o)
			return true
		}
		return false
	}
	if err := d.Shuffle(); err != nil {
		t.Fatal(err)
	}
	playUntil(t, d, func() bool { return len(d.H.Late) > 0 && d.H.calling == nil })
	o := held[0]
	before := d.B.View(-1)
	if _, err := d.H.Take(o.From, o); !errors.Is(err, ErrTooLate) || !errorsNames(err, o.From) {
		t.Fatalf("the host took a late opening of play %d: %v", o.No, err)
	}
	for _, nd := range d.Nodes {
		if _, err := nd.Input(Input{What: InputMsg, From: o.From, Msg: o}); !errors.Is(err, ErrTooLate) {
			t.Fatalf("party %d took a late opening of play %d: %v", nd.Index, o.No, err)
		}
	}
	if after := d.B.View(-1); !reflect.DeepEqual(before, after) {
		t.Fatal("a late opening changed the game")
	}
	t.Logf("refused: %v", func() error { _, err := d.H.Take(o.From, o); return err }())
}

// A recovery share that is wrong (another card's, under the right proof
// of the wrong card) is refused by the host, naming its holder, before
// any card turns up.
func TestDishonestRecoveryShare(t *testing.T) {
	r, _ := engine.Preset("standard")
	var err error
	cheat := -1
	for seed := uint64(33); cheat < 0 && seed < 60; seed++ {
		d := newDriver(t, r, 4, seed, nil)
		d.Silent = func(party int, m protocol.Message) bool {
			o, ok := m.(protocol.DeckOpen)
			return ok && o.No > 0 // every call's opening: each is recovered
		}
		d.Tamper = func(m any) {
			rm, ok := m.(*protocol.DeckRecover)
			if !ok || cheat >= 0 {
				return
			}
			cheat = rm.From
			// The holder's share of another card of the dealer's, proved
			// for that card.
			other := -1
			for h, p := range d.T.Dealt {
				if p == rm.Dealer && h != int(rm.Handles[0]) {
					other = h
					break
				}
			}
			sh, err := mental.RecoverShare(d.Parties[cheat].rand, rm.Dealer, ptr(d.Parties[cheat].subs[rm.Dealer]), &d.T.Deck[other], d.T.Ctx)
			if err != nil {
				t.Fatal(err)
			}
			rm.Shares[0], _ = sh.MarshalBinary()
		}
		err = run(d)
	}
	if cheat < 0 {
		t.Fatal("no recovery to cheat at")
	}
	caught(t, err, mental.ErrRecoveryProof, cheat)
}

func ptr[T any](v T) *T { return &v }

// A party leaves for good, and later a play is recovered: the threshold
// is every other party, the departed one included, so its successor gives
// its recovery shares in its place, from its sub-shares opened with the
// secret it rebuilt. The game goes on to an audited end.
func TestRecoverAfterLeave(t *testing.T) {
	r, _ := engine.Preset("standard")
	for seed := uint64(40); seed < 60; seed++ {
		d := newDriver(t, r, 4, seed, nil)
		var byGone int
		d.Silent = func(party int, m protocol.Message) bool {
			o, ok := m.(protocol.DeckOpen)
			return d.Nodes[1].gone && ok && o.No > 0 // every call's opening after the departure
		}
		d.Tamper = func(m any) {
			if rm, ok := m.(*protocol.DeckRecover); ok && rm.From == 3 && len(rm.Shares) > 0 {
				var rs mental.RecoveryShare
				if rs.UnmarshalBinary(rm.Shares[0]) == nil && rs.Holder == 1 {
					byGone++
				}
			}
		}
		if err := d.Shuffle(); err != nil {
			t.Fatal(err)
		}
		w := newWatch(t, d)
		w.playAll(1, 3, 10)
		if _, _, err := d.Finish(); err != nil {
			t.Fatal(err)
		}
		if byGone > 0 {
			t.Logf("seed %d: %d recoveries answered by party 3 for party 1, which left; late %v", seed, byGone, d.H.Late)
			return
		}
	}
	t.Fatal("no recovery after the departure in 20 games")
}

// A play its player didn't turn up holds cards it took in a pile: their
// deal left out the share of the party each was dealt to, not the
// player's, so the player's recovery can't turn them up. That party,
// which knows them since the deal, turns them up instead (AskShow), the
// player's own cards come up through the recovery, and the game goes on
// to an audited end, nobody's knowledge beyond its seats' (the watch).
// Before, the recovery found no card and the table stalled. And a card
// turned up so, played again by the party that took it, is opened
// honestly with the recovered share, which proves nothing of its party:
// it is held to the face it was turned up as, not caught as false (as it
// was before). Played on for places, so that piles change hands.
func TestSilentOpenerTookThePile(t *testing.T) {
	r, _ := engine.Preset("standard")
	r.Places = true
	shown, late := 0, 0
	for seed := range underRace([]uint64{1, 2, 3, 4, 5, 6, 7, 8}) {
		d := newDriver(t, r, 4, uint64(seed+1), nil)
		d.Silent = func(party int, m protocol.Message) bool {
			o, ok := m.(protocol.DeckOpen)
			return ok && party == 2 && o.No > 0
		}
		d.Tamper = func(m any) {
			// An opening of a play by another party than its player's.
			if o, ok := m.(*protocol.DeckOpen); ok && o.No > 0 {
				if last := d.B.View(-1).Last; last != nil && last.No == o.No && d.T.Holder[last.Seat] != o.From {
					shown++
				}
			}
		}
		if err := d.Shuffle(); err != nil {
			t.Fatal(err)
		}
		w := newWatch(t, d)
		w.playAll(-1, 0, 0)
		if _, _, err := d.Finish(); err != nil {
			t.Fatal(err)
		}
		for _, p := range d.H.Late {
			if p != 2 {
				t.Fatalf("seed %d: party %d named late; only party 2 was silent", seed+1, p)
			}
		}
		if len(d.H.Caught) > 0 {
			t.Fatalf("seed %d: an honest opening was caught as false: %v", seed+1, d.H.Caught)
		}
		late += len(d.H.Late)
	}
	if shown == 0 {
		t.Fatal("no silent play held a taken card: nothing was tested")
	}
	t.Logf("%d plays of party 2's turned up without it; %d cards of them by the party each was dealt to", late, shown)
}
