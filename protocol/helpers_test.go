package protocol

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"testing"
)

// Fixed keys from fixed seeds: ed25519 signatures are deterministic, so
// everything these keys seal is byte for byte the same on every run.
var (
	alice, aliceID = testKey("alice")
	bob, bobID     = testKey("bob")
	_, carolID     = testKey("carol")
	testTable      = TableID{0xb5, 0x11, 0x5e, 0xed, 0x00, 0x01, 0x02, 0x03}
)

func testKey(name string) (ed25519.PrivateKey, PeerID) {
	seed := sha256.Sum256([]byte("bullshit test key " + name))
	k := ed25519.NewKeyFromSeed(seed[:])
	id, err := PeerIDOf(k)
	if err != nil {
		panic(err)
	}
	return k, id
}

// sample is one message of every type with every field set, so that the
// golden vectors pin every field's encoding.
type sample struct {
	name string
	msg  Message
}

func samples() []sample {
	settings := Settings{
		Name: "Friday night",
		Rules: Rules{Preset: "twist", Sequence: 3, Start: 1, Cap: 0, CCW: true, Jokers: 2, Places: true, Quads: true,
			First: First{Holder: true, Card: 3}, NextOnly: true, CountLies: true, Rapid: true, Sneak: 2, Rough: true,
			CallWindowMS: 6000, Decks: 2, Doubt: false},
		Seats:       5,
		RevealMS:    1500,
		TurnClockMS: 30000,
		GraceMS:     45000,
		BotPace:     "relaxed",
	}
	players := []Player{
		{Seat: 0, Nick: "alice", Peer: aliceID},
		{Seat: 1, Nick: "bob", Peer: bobID, WebAddr: "http://192.168.1.20:8080"},
		{Seat: 2, Nick: "carol", Peer: carolID, Web: true},
		{Seat: 3, Nick: "Ruth", Bot: "sharp/liar"},
	}
	view := &View{
		Seat:   2,
		Phase:  "call",
		Turn:   1,
		Rank:   1,
		Ranks:  []int8{0, 1, 2},
		No:     7,
		Hand:   []Card{8, 10, 35, Joker},
		Hands:  []Count{{11, 11}, {9, 12}, {4, 4}, {9, -1}},
		Pile:   Count{4, 6},
		Last:   &Last{Seat: 0, Rank: 0, Claim: 2, No: 7, Out: false, Cards: []Card{1, 2}, Sizes: Sizes{Count{13, 13}, Count{11, 11}, Count{2, 2}, Count{4, 6}}},
		Window: &Window{No: 7, ClosesMS: 63_500, Passed: []int{3}},
		NowMS:  61_250,
		Winner: -1,
		Places: []int{2, 1, 3, 3},
		Give:   &Owed{From: 1, To: 0, ClosesMS: 73_250},
		Round:  &Round{Rank: 12, Cards: Count{5, 5}, Starter: 2, Skips: 1},
		Out:    4,
		Stats:  []Stats{{Calls: 3, Right: 2, Caught: 1, Sneaks: -1}, {Calls: 0, Right: 0, Caught: 0, Sneaks: 2}},
	}
	var hash [32]byte
	for i := range hash {
		hash[i] = byte(i * 7)
	}
	return append([]sample{
		{"hello", Hello{Version: Current, Nick: "bob", Watch: false, WebAddr: "http://192.168.1.21:8080", Nonce: []byte("fedcba9876543210")}},
		{"hello-share", Hello{Version: Current, Nick: "bob", Proof: bytes.Repeat([]byte{0xa1}, 64),
			Nonce: []byte("fedcba9876543210"), Share: bytes.Repeat([]byte{0x5a}, 32)}},
		{"challenge", Challenge{Nonce: []byte("0123456789abcdef"), Share: bytes.Repeat([]byte{0x5b}, 32)}},
		{"seated", Seated{Seat: 1, Nick: "bob (2)", Table: testTable}},
		{"seated-proof", Seated{Seat: 1, Nick: "bob (2)", Table: testTable, Proof: bytes.Repeat([]byte{0xb2}, 64)}},
		{"lobby", Lobby{Settings: settings, Players: players, Phase: "playing"}},
		{"leave", Leave{}},
		{"play", Play{No: 41, Seat: 2, Cards: []Card{0, 13, 26, 51}, Claim: 4, Rank: NoRank}},
		{"call", Call{No: 42, Seat: 3}},
		{"pass", Pass{No: 42, Seat: 4}},
		{"give", Give{No: 42, Seat: 1, Cards: []Card{33}}},
		{"quads", Quads{No: 42, Seat: 1, Cards: []Card{20, 21, 22, 23}}},
		{"doubt", Doubt{No: 9, Seat: 0}},
		{"believe", Believe{No: 9, Seat: 0}},
		{"skip", Skip{No: 9, Seat: 0}},
		{"update", Update{Events: []Event{
			{Type: "play", Seat: 0, Target: -1, No: 7, Rank: 0, Claim: 2, Sneaked: -1, Count: Count{2, 2}, Sizes: Sizes{HandBefore: Count{9, 10}, HandAfter: Count{7, 7}, PileBefore: Count{4, 6}, PileAfter: Count{7, 10}}},
			{Type: "reveal", Seat: 0, Target: 1, No: 7, Rank: 0, Claim: 2, Out: true, Truth: true, Sneaked: 1, Count: Count{3, 3}, Auto: true, Place: 2, Counts: []Count{{1, 1}, {30, -1}}, Hands: [][]Card{{1, 2}, {}}, Cards: []Card{0, 1, 2}, Places: []int{1, 2}},
		}, View: view}},
		{"refusal", Refusal{Code: CodeNotYourTurn, Message: "It is bob's turn.", Ref: 1<<32 + 5}},
		{"heartbeat", Heartbeat{No: 12, NowMS: 1<<40 + 3}},
		{"staterequest", StateRequest{}},
		{"state", State{Shares: []StepShare{{Step: -1, X: 2, Y: []byte("a share of the seed"), K: 3}}}},
		{"toss", Toss{Round: hash}},
		{"toss-reveal", Toss{Round: hash, Commits: [][32]byte{{}, hash, {1, 2, 3}}}},
		{"noncecommit", NonceCommit{Round: hash, Hash: [32]byte{9, 9, 9}}},
		{"noncereveal", NonceReveal{Round: hash, Nonce: [32]byte{7, 7, 7}}},
		{"lobby-nonces", Lobby{Settings: settings, Players: players, Phase: "playing", Commit: hash, Nonces: [][32]byte{{}, {4, 5, 6}}}},
		{"audit", Audit{Seed: 1<<64 - 1, Salt: []byte("salt-salt-salt-!"), Hidden: []Hidden{{No: 1, Cards: []Card{4, 5}}, {No: 2, Cards: []Card{52}}}, Steps: []Step{{AtNS: 1500000000, Move: 1, Seat: 2, Cards: []Card{0, 1}, Claim: 2, Rank: -1}, {AtNS: 7500000000, Tick: true, Rank: -1}}, Part: 0, Parts: 1}},
		{"lobby-evening", Lobby{Settings: settings, Players: players, Phase: "over", Host: "alice", You: 1, Commit: hash,
			Evening: &Evening{Games: 2, Last: hash, Lines: []EveningLine{
				{Key: "peer:" + bobID.String(), Name: "bob", Games: 2, Wins: 1, Halves: 9, Places: []int{1, 2}},
				{Key: "bot:2:medium", Name: "Cleo", Bot: "medium", Games: 2, Wins: 1, Halves: 7, Places: []int{2, 1}},
			}}}},
		// 1.6: a move signed by its seat, and a journal step keeping it.
		{"play-signed", Play{No: 41, Seat: 2, Cards: []Card{0, 13}, Claim: 2, Rank: NoRank, Sig: bytes.Repeat([]byte{0xa5}, 64)}},
		{"state-marked", State{Steps: []Step{{AtNS: 1500000000, Move: 1, Seat: 2, Claim: 2, Rank: -1, No: 41, Hidden: 2,
			Term: 3, Seal: hash[:], Sig: bytes.Repeat([]byte{0x5a}, 64), Mark: bytes.Repeat([]byte{0xa5}, 64)}}}},
	}, append(deckSamples(), blindSamples()...)...) // 2.1: the mental deck (deck_test.go); 2.2: the blind table (blind_test.go)
}

func sampleOf(t testing.TB, typ Type) Message {
	for _, s := range samples() {
		if s.msg.Type() == typ {
			return s.msg
		}
	}
	t.Fatalf("no sample of %s", typ)
	return nil
}

func mustSeal(t testing.TB, key ed25519.PrivateKey, seq uint64, m Message) []byte {
	t.Helper()
	b, err := Seal(key, testTable, 3, seq, m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
