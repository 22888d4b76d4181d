package mentaltable

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gtank/ristretto255"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/protocol"
	"github.com/bullshit-game/bullshit/protocol/mental"
)

// run plays d through, from the shuffle to the audit, and returns the
// first refusal.
func run(d *Driver) error {
	if err := d.Shuffle(); err != nil {
		return err
	}
	if err := d.Deal(); err != nil {
		return err
	}
	if err := d.Play(20000); err != nil {
		return err
	}
	_, _, err := d.Finish()
	return err
}

// caught checks that err is want and names party, in the error's words
// as well as in its Fault.
func caught(t *testing.T, err, want error, party int) {
	t.Helper()
	if err == nil {
		t.Fatalf("the cheat went through; want %v naming party %d", want, party)
	}
	if !errors.Is(err, want) {
		t.Fatalf("got %v; want %v", err, want)
	}
	if p, ok := mental.Blame(err); !ok || p != party {
		t.Fatalf("got %v, blaming %d (%v); want party %d", err, p, ok, party)
	}
	if !strings.Contains(err.Error(), fmt.Sprintf("party %d", party)) {
		t.Fatalf("%q doesn't name party %d", err, party)
	}
	t.Logf("caught: %v", err)
}

func standard(t *testing.T, seats int, seed uint64) *Driver {
	r, _ := engine.Preset("standard")
	return newDriver(t, r, seats, seed, nil)
}

// At set-up: a key copied from another party, with its proof (bound to
// the other party's place, so it doesn't verify as the copier's), and a
// key chosen to cancel another's (X_1 − X_0, so that the joint key is
// party 1's own), each named by the proof it can't make.
func TestDishonestKey(t *testing.T) {
	t.Run("reused", func(t *testing.T) {
		var first protocol.DeckKey
		_, err := newTampered(4, 1, func(m any) {
			if k, ok := m.(*protocol.DeckKey); ok {
				if k.From == 0 {
					first = *k
				} else if k.From == 2 {
					k.Key, k.Proof = first.Key, first.Proof
				}
			}
		})
		caught(t, err, mental.ErrKeyProof, 2)
	})
	t.Run("cancelling", func(t *testing.T) {
		var first protocol.DeckKey
		_, err := newTampered(3, 2, func(m any) {
			if k, ok := m.(*protocol.DeckKey); ok {
				if k.From == 0 {
					first = *k
					return
				}
				if k.From == 1 {
					var x0, x1 ristretto255.Element
					if x0.Decode(first.Key) != nil || x1.Decode(k.Key) != nil {
						t.Fatal("keys don't decode")
					}
					k.Key = x1.Subtract(&x1, &x0).Encode(nil)
				}
			}
		})
		caught(t, err, mental.ErrKeyProof, 1)
	})
}

// newTampered is New with tamper on the wire from the start (the keys
// are sent inside New).
func newTampered(seats int, seed uint64, tamper func(any)) (*Driver, error) {
	r, _ := engine.Preset("standard")
	d, err := New(Config{Rules: r, Seats: seats, Seed: seed, Rand: seeded(seed), Table: []byte("t"), Game: []byte("g"), Tamper: tamper})
	if err != nil {
		return nil, err
	}
	return d, d.Shuffle()
}

// A wrong partial share at the deal: party 1 sends party 0, for one of
// its cards, its share of another card. Party 0 checks it when it learns
// its hand, and names party 1.
func TestDishonestShare(t *testing.T) {
	d := standard(t, 5, 3)
	d.Tamper = func(m any) {
		if m, ok := m.(*protocol.DeckDeal); ok && m.From == 1 {
			h := slices.Index(d.T.Dealt, 0)
			sh, err := mental.DecryptShare(d.Parties[1].rand, &d.Parties[1].x, &d.T.Deck[h+1], d.T.Ctx)
			if err != nil {
				t.Fatal(err)
			}
			m.Shares[h], _ = sh.MarshalBinary()
		}
	}
	caught(t, run(d), mental.ErrShareProof, 1)
}

// A false opening at a call, three ways: the right card named as another
// face; the play's card swapped for another card the player holds (its
// true opening, under the play's handle); another card's handle in place
// of the play's. The host refuses each, naming the player's party, before
// any verdict; the other parties turn the play up through the recovery,
// the play goes against its player (R10b: a lie, whatever its cards), and
// the game goes on to an audited end.
func TestDishonestOpening(t *testing.T) {
	for _, how := range underRace([]string{"face", "shares", "handle"}) {
		t.Run(how, func(t *testing.T) {
			// The first game with a call whose player has a card left.
			var d *Driver
			var err error
			cheat, forged := -1, 0
			for seed := uint64(11); cheat < 0 && seed < 60; seed++ {
				d = standard(t, 4, seed)
				d.Tamper = func(m any) {
					o, ok := m.(*protocol.DeckOpen)
					if _, asked := d.B.Opening(); !ok || !asked || cheat >= 0 {
						return
					}
					p := d.Parties[o.From]
					var other engine.Handle
					found := false
					for _, s := range p.seats {
						for _, h := range d.B.Hand(s) {
							if _, shown := d.Host.rec.known[h]; !shown {
								other, found = h, true
							}
						}
					}
					if !found {
						return
					}
					cheat, forged = o.From, o.No
					switch how {
					case "face":
						var op mental.Opening
						if err := op.UnmarshalBinary(o.Openings[0]); err != nil {
							t.Fatal(err)
						}
						op.Face.Card = (op.Face.Card + 1) % 52
						o.Openings[0], _ = op.MarshalBinary()
					case "shares":
						op, _ := p.opening(other)
						o.Openings[0], _ = op.MarshalBinary()
					case "handle":
						op, _ := p.opening(other)
						o.Handles[0] = uint16(other)
						o.Openings[0], _ = op.MarshalBinary()
					}
				}
				err = run(d)
			}
			if cheat < 0 {
				t.Fatalf("no call to cheat at: %v", err)
			}
			if err != nil {
				t.Fatalf("the game didn't go on past the false opening: %v", err)
			}
			if len(d.Caught) != 1 || len(d.H.Caught) != 1 {
				t.Fatalf("caught %v (host %v); want the one false opening", d.Caught, d.H.Caught)
			}
			want := map[string]error{"face": mental.ErrFalseOpening, "shares": mental.ErrShareProof, "handle": ErrWrongCards}[how]
			caught(t, d.Caught[0], want, cheat)
			for _, e := range d.Received[0] {
				if e.Type == engine.EventReveal && e.No == forged && e.Truth {
					t.Fatalf("play %d, turned up falsely, was judged true: %+v", forged, e)
				}
			}
		})
	}
}

// A card substituted in a shuffle, two ways. Party 2 replaces one card of
// its output with a fresh encryption of another card (a second ace): it
// plays as a card, and the end's check of the shuffles names party 2.
// Or with an encryption of no card: its holder turns it up as no card at
// the deal, the game is void, every shuffle is opened, and the check
// names party 2.
func TestDishonestShuffle(t *testing.T) {
	for _, how := range []string{"a card twice", "no card"} {
		t.Run(how, func(t *testing.T) {
			d := standard(t, 4, 5)
			d.Tamper = func(m any) {
				if m, ok := m.(*protocol.DeckShuffle); ok && m.From == 2 {
					var st mental.ShuffleStep
					if err := st.UnmarshalBinary(m.Step); err != nil {
						t.Fatal(err)
					}
					f := mental.Face{Card: 3}
					if how == "no card" {
						f.Card = 200
					}
					ct, err := mental.Encrypt(d.Parties[2].rand, &d.T.Joint, f)
					if err != nil {
						t.Fatal(err)
					}
					st.Out[7] = ct
					m.Step, _ = st.MarshalBinary()
				}
			}
			err := run(d)
			caught(t, err, mental.ErrShuffleCommit, 2)
			if how == "a card twice" && !d.Over() {
				t.Fatalf("caught before the end: %v", err)
			}
			if how == "no card" && d.Over() {
				t.Fatalf("played on past a card that is none: %v", err)
			}
		})
	}
}

// A shuffler that opens at the end another permutation than it committed
// (two positions swapped): named by its commitment.
func TestDishonestPermutation(t *testing.T) {
	d := standard(t, 3, 8)
	d.Tamper = func(m any) {
		if m, ok := m.(*protocol.DeckPublish); ok && m.From == 1 && m.Shuffle != nil {
			b := slices.Clone(m.Shuffle)
			copy(b[2:4], m.Shuffle[4:6])
			copy(b[4:6], m.Shuffle[2:4])
			m.Shuffle = b
		}
	}
	err := run(d)
	if !d.Over() {
		t.Fatalf("caught before the end: %v", err)
	}
	caught(t, err, mental.ErrShuffleCommit, 1)
}

// A seat handing over a card it doesn't hold, two ways, at the first pile
// taken: the handle of another card than the ones it played into the pile
// (the receiver knows from the public record which it is owed); or the
// right handle with the sealed opening of another card it holds. The
// receiver refuses each, naming the giver.
func TestDishonestHandover(t *testing.T) {
	for _, how := range []string{"handle", "opening"} {
		t.Run(how, func(t *testing.T) {
			var d *Driver
			var err error
			cheat := -1
			for seed := uint64(13); cheat < 0 && seed < 60; seed++ {
				d = standard(t, 4, seed)
				d.Tamper = func(m any) {
					h, ok := m.(*protocol.DeckHandover)
					if !ok || cheat >= 0 {
						return
					}
					p := d.Parties[h.From]
					var other engine.Handle
					found := false
					for _, s := range p.seats {
						for _, x := range d.B.Hand(s) {
							if x != engine.Handle(h.Handle) {
								other, found = x, true
							}
						}
					}
					if !found {
						return
					}
					cheat = h.From
					switch how {
					case "handle":
						h.Handle = uint16(other)
					case "opening":
						forged, err := p.hand(other, h.To)
						if err != nil {
							t.Fatal(err)
						}
						h.Sealed = forged.Sealed
					}
				}
				err = run(d)
			}
			if cheat < 0 {
				t.Fatal("no handover to cheat at")
			}
			want := map[string]error{"handle": ErrNotHeld, "opening": mental.ErrShareProof}[how]
			caught(t, err, want, cheat)
		})
	}
}

func errorsNames(err error, party int) bool {
	p, ok := mental.Blame(err)
	return ok && p == party
}

// A false opening of a play that was true (its node claims each card as
// another of the same rank: it would pass as true, if it passed) goes
// against its player all the same (R10b): the host catches it, the others
// turn the true cards up, the call finds a lie and the player takes the
// pile; the clear replay holds every seat's audit to that verdict.
func TestFalseOpeningOfATruth(t *testing.T) {
	for seed := uint64(11); seed < 60; seed++ {
		d := standard(t, 4, seed)
		forged, player := 0, -1
		d.Tamper = func(m any) {
			o, ok := m.(*protocol.DeckOpen)
			last := d.B.View(-1).Last
			if _, asked := d.B.Opening(); !ok || !asked || forged > 0 || last == nil || o.No != last.No {
				return
			}
			p := d.Parties[o.From]
			var cards []engine.Card
			for _, h := range o.Handles {
				cards = append(cards, engine.Card(p.known[engine.Handle(h)].Card))
			}
			if !engine.Truth(cards, last.Claim, last.Rank, 0) {
				return
			}
			var op mental.Opening
			if err := op.UnmarshalBinary(o.Openings[0]); err != nil {
				t.Fatal(err)
			}
			op.Face.Card = op.Face.Card/4*4 + (op.Face.Card+1)%4 // another suit, the same rank
			o.Openings[0], _ = op.MarshalBinary()
			forged, player = o.No, last.Seat
		}
		if err := run(d); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if forged == 0 {
			continue
		}
		if len(d.H.Caught) != 1 {
			t.Fatalf("caught %v; want the one false opening", d.H.Caught)
		}
		for i, e := range d.Received[0] {
			if e.Type != engine.EventReveal || e.No != forged {
				continue
			}
			if e.Truth || !engine.Truth(e.Cards, e.Claim, e.Rank, 0) {
				t.Fatalf("play %d, true cards %v turned up falsely: judged %v", forged, e.Cards, e.Truth)
			}
			if take := d.Received[0][i+1]; take.Type != engine.EventTake || take.Seat != player {
				t.Fatalf("after play %d, judged a lie, %+v: its player (seat %d) takes the pile", forged, take, player)
			}
			t.Logf("seed %d: play %d, %v, true, turned up falsely: judged a lie, seat %d took the pile; the audit holds", seed, forged, e.Cards, player)
			return
		}
		t.Fatalf("play %d was never turned up", forged)
	}
	t.Fatal("no true play was called in 49 games")
}
