package protocol

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
)

// blindSamples are the blind table's messages (2.2), as a three-party
// table sends them: the deal's terms, a log of each kind of input, and a
// move of each shape.
func blindSamples() []sample {
	play := BlindMove{No: 7, Seat: 2, Move: 1, Handles: []uint16{12, 40}, Claim: 2, Rank: NoRank}
	env := bytes.Repeat([]byte{0x92}, 40) // a party's envelope, opaque here
	return []sample{
		{"blind-deal", BlindDeal{Game: []byte("game 1f2e"), HostSeed: 1<<63 + 5, Salt: []byte("salt-salt-salt-!"), Seed: 99,
			Holder: []int{0, 1, 2, 0}, Parties: []PeerID{aliceID, bobID, carolID}, Bots: []string{"", "", "", "medium"}}},
		{"blind-log", BlindLog{First: 41, NowNS: 61_250_000_000, Inputs: []LogInput{
			{What: 1, Env: env, Gone: -1, To: -1},
			{What: 2, AtNS: 61_000_000_123, Env: env, Gone: -1, To: -1},
			{What: 2, AtNS: 61_100_000_000, Move: &BlindMove{No: 7, Seat: 1, Move: 1, Handles: []uint16{3}, Claim: 1, Rank: NoRank}, Gone: -1, To: -1},
			{What: 3, AtNS: 61_200_000_000, Gone: -1, To: -1},
			{What: 5, Gone: 2, To: 0},
			{What: 6, Gone: -1, To: -1},
		}}},
		{"blind-move", play},
		{"blind-move-quads", BlindMove{No: 9, Seat: 0, Move: 5, Rank: NoRank,
			Quads: &DeckOpen{No: 9, From: 0, Handles: []uint16{1, 2, 3, 4}, Openings: repeated(4, 32, 0xa0)}}},
		{"lobby-blind", Lobby{Settings: Settings{Name: "Blind", Seats: 3, RevealMS: 1500, BotPace: "brisk", Rules: Rules{Preset: "standard", Sequence: 1, CallWindowMS: 6000, Decks: 1}},
			Players: []Player{{Seat: 0, Nick: "alice", Peer: aliceID, Connected: true}, {Seat: 1, Nick: "bob", Peer: bobID, Connected: true},
				{Seat: 2, Nick: "Cleo", Bot: "medium", Connected: true, RunBy: "bob"}}, Phase: "playing", Host: "alice", You: 1, Blind: true}},
		{"state-blind", State{Logs: [][]byte{bytes.Repeat([]byte{0x92}, 24), bytes.Repeat([]byte{0x93}, 12)}}},
		{"blind-move-pick", BlindMove{No: 11, Seat: 1, Move: 4, Handles: []uint16{8, 9}, Rank: NoRank, Pick: true}},
	}
}

// A 2.1 peer is this package without the blind table's types: it opens a
// 2.2 peer's envelopes of the types it knows, and refuses the blind
// table's as unknown types with the envelope opened, so that its node
// refuses them by number.
func TestBlindUnknownToA21Peer(t *testing.T) {
	all := samples()
	sealed := make([][]byte, len(all))
	for i, s := range all {
		sealed[i] = mustSeal(t, alice, uint64(i+1), s.msg)
	}
	saved := catalog
	defer func() { catalog = saved }()
	for typ := TypeBlindDeal; typ <= TypeBlindMove; typ++ {
		catalog[typ] = nil
	}
	for i, s := range all {
		e, err := Open(sealed[i], aliceID)
		if s.msg.Type() < TypeBlindDeal {
			if err != nil || !reflect.DeepEqual(e.Msg, s.msg) {
				t.Errorf("%s: a 2.1 peer opened %+v, %v", s.name, e, err)
			}
			continue
		}
		if !errors.Is(err, ErrUnknownType) || e == nil || e.Msg != nil || e.Seq != uint64(i+1) {
			t.Errorf("%s: a 2.1 peer opened %+v, %v; want the envelope and ErrUnknownType", s.name, e, err)
		}
	}
}

// A log's inputs carry a party's envelope as the bytes it came in: a
// node opens it as relayed, and its signer is the party, whatever peer
// passed it on.
func TestLogCarriesTheEnvelopeItCameIn(t *testing.T) {
	move := BlindMove{No: 3, Seat: 1, Move: 2, Rank: NoRank}
	env := mustSeal(t, bob, 17, move)
	log := BlindLog{First: 0, NowNS: 1, Inputs: []LogInput{{What: 2, AtNS: 1, Env: env, Gone: -1, To: -1}}}
	relayed := mustSeal(t, alice, 1, log)
	e, err := Open(relayed, aliceID)
	if err != nil {
		t.Fatal(err)
	}
	in := e.Msg.(BlindLog).Inputs[0]
	inner, err := OpenRelayed(in.Env)
	if err != nil || inner.Sender != bobID || inner.Seq != 17 || !reflect.DeepEqual(inner.Msg, move) {
		t.Fatalf("relayed move opened as %+v, %v", inner, err)
	}
	in.Env[len(in.Env)-1] ^= 1
	if _, err := OpenRelayed(in.Env); !errors.Is(err, ErrSignature) {
		t.Fatalf("a relayed envelope changed by its relayer: %v, want ErrSignature", err)
	}
}
