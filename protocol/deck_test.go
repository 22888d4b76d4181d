package protocol

import (
	"bytes"
	"encoding"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"

	"github.com/vmihailenco/msgpack/v5"

	"github.com/bullshit-game/bullshit/protocol/mental"
)

// The sizes of protocol/mental's binary layouts (their MarshalBinary), which
// the deck's bytes fields carry. protocol never reads inside them; the
// samples and the size test only need their lengths, and
// TestDeckLayoutsAreMentals checks these against mental's own output.
const (
	mentalKey        = 32      // PublicKey: an element
	mentalProof      = 64      // KeyProof: c, s
	mentalCiphertext = 64      // Ciphertext: two elements
	mentalShare      = 128     // Share: D, R1, R2, s
	mentalSecret     = 32      // Secret: a scalar
	mentalSubShare   = 2 + 32  // SubShare: the holder, a scalar
	mentalSealedOver = 32 + 16 // Sealed: E, then the message and the AEAD's tag
	mentalFace       = 3       // an Opening's face: card, deck, copy
	mentalCount      = 2       // a 2-byte count in front of a list
	mentalCommit     = 32      // ShuffleCommit
	mentalPosition   = 2       // a shuffle opening's position
	mentalScalar     = 32      // a scalar
	mentalElement    = 32      // an element
)

// recoveryShareSize is an assumption: protocol/mental has no RecoveryShare
// yet (DeckRecover names one). A holder's part in turning a card up from
// its sub-share is taken to be a share with its proof, as a party's own
// decryption share is.
const recoveryShareSize = mentalShare

// stepSize is a ShuffleStep of n cards: the deck (a count, n ciphertexts),
// then its commitment.
func stepSize(n int) int { return mentalCount + n*mentalCiphertext + mentalCommit }

// shuffleOpeningSize is a ShuffleOpening of n cards: a count, n positions,
// n scalars.
func shuffleOpeningSize(n int) int { return mentalCount + n*(mentalPosition+mentalScalar) }

// openingSize is an Opening at a table of parties: the face, a count, a
// share each.
func openingSize(parties int) int { return mentalFace + mentalCount + parties*mentalShare }

// sealedSize is msg bytes sealed to one party.
func sealedSize(msg int) int { return mentalSealedOver + msg }

// recoveryCommitSize is the Feldman commitments at threshold t.
func recoveryCommitSize(t int) int { return mentalCount + t*mentalElement }

// filled is n bytes counting up from b: the samples' stand-in for
// mental's bytes, the right length and recognisable in a hex dump.
func filled(n int, b byte) []byte {
	out := make([]byte, n)
	for i := range out {
		out[i] = b + byte(i)
	}
	return out
}

// repeated is n fresh slices of size bytes each.
func repeated(n, size int, b byte) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = filled(size, b+byte(i))
	}
	return out
}

// deckSamples are the deck's messages at a table of three parties and a
// short deck of six cards, so that golden.txt stays readable; every bytes
// field has the length mental gives it there. TestDeckMessagesFitMaxSize
// takes them to the biggest table.
func deckSamples() []sample {
	const parties, cards = 3, 6
	sub := sealedSize(mentalSubShare)
	return []sample{
		{"deck-key", DeckKey{From: 1, Key: filled(mentalKey, 0x10), Proof: filled(mentalProof, 0x30)}},
		// Party 1's split: its own place is empty.
		{"deck-split", DeckSplit{From: 1, Commit: filled(recoveryCommitSize(mental.DefaultThreshold(parties)), 0x50),
			Sealed: [][]byte{filled(sub, 0x60), nil, filled(sub, 0x70)}}},
		{"deck-shuffle", DeckShuffle{From: 2, Step: filled(stepSize(cards), 0x80)}},
		// Party 0 holds cards 0 and 3: no share of them.
		{"deck-deal", DeckDeal{From: 0, Shares: [][]byte{nil, filled(mentalShare, 0x91), filled(mentalShare, 0x92),
			nil, filled(mentalShare, 0x94), filled(mentalShare, 0x95)}}},
		{"deck-open", DeckOpen{No: 12, From: 1, Handles: []uint16{4, 5}, Openings: repeated(2, openingSize(parties), 0xa0)}},
		{"deck-handover", DeckHandover{No: 13, From: 2, To: 0, Handle: 3, Sealed: filled(sealedSize(openingSize(parties)), 0xb0)}},
		{"deck-recover", DeckRecover{No: 14, From: 0, Dealer: 2, Handles: []uint16{1, 5}, Shares: repeated(2, recoveryShareSize, 0xc0)}},
		{"deck-pool", DeckPool{No: 14, From: 0, To: 1, Dealer: 2, Sealed: filled(sub, 0xd0)}},
		{"deck-publish", DeckPublish{No: 20, From: 1, Of: 1, Secret: filled(mentalSecret, 0xe0), Shuffle: filled(shuffleOpeningSize(cards), 0xf0)}},
		// Party 2 left; party 0 pooled the sub-shares and publishes its secret.
		{"deck-publish-rebuilt", DeckPublish{No: 20, From: 0, Of: 2, Secret: filled(mentalSecret, 0xe8)}},
	}
}

func marshal(t *testing.T, what string, m encoding.BinaryMarshaler) int {
	t.Helper()
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return len(b)
}

// The sizes above are mental's: a real three-party table with a full deck
// (seeded, so the same every run) marshals to exactly them. If mental's
// layouts change, this fails before the size test measures stale lengths.
func TestDeckLayoutsAreMentals(t *testing.T) {
	var seed [32]byte
	copy(seed[:], "protocol deck layouts")
	r := rand.NewChaCha8(seed)
	const parties = 3
	ctx := []byte("table b5115eed00010203 / game 1")
	secrets := make([]mental.Secret, parties)
	keys := make([]mental.PublicKey, parties)
	proofs := make([]mental.KeyProof, parties)
	ctxs := make([][]byte, parties)
	for i := range parties {
		var err error
		if secrets[i], err = mental.NewSecret(r); err != nil {
			t.Fatal(err)
		}
		keys[i] = secrets[i].Public()
		ctxs[i] = fmt.Appendf(nil, "%s / party %d", ctx, i)
		if proofs[i], err = mental.ProveKey(r, &secrets[i], ctxs[i]); err != nil {
			t.Fatal(err)
		}
	}
	joint, err := mental.JointKey(keys, proofs, ctxs)
	if err != nil {
		t.Fatal(err)
	}
	cb, err := mental.NewCodebook(1, 2)
	if err != nil {
		t.Fatal(err)
	}
	step, opening, err := mental.Shuffle(r, &joint, cb.Deck(), ctx)
	if err != nil {
		t.Fatal(err)
	}
	op := mental.Opening{Face: cb.Faces()[0]}
	for i := range parties {
		sh, err := mental.DecryptShare(r, &secrets[i], &step.Out[0], ctx)
		if err != nil {
			t.Fatal(err)
		}
		op.Shares = append(op.Shares, sh)
	}
	sealedOp, err := mental.SealOpening(r, &keys[1], ctx, &op)
	if err != nil {
		t.Fatal(err)
	}
	split, err := mental.Split(r, &secrets[0], 0, parties, mental.DefaultThreshold(parties))
	if err != nil {
		t.Fatal(err)
	}
	sub, err := split.Subs[1].MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	sealedSub, err := mental.Seal(r, &keys[1], ctx, sub)
	if err != nil {
		t.Fatal(err)
	}
	// An opening's length is its count of shares, whatever they hold: ten
	// zero shares stand for the biggest table's.
	op10 := mental.Opening{Face: cb.Faces()[0], Shares: make([]mental.Share, 10)}

	n := cb.Len()
	for _, c := range []struct {
		what      string
		got, want int
	}{
		{"deck key", marshal(t, "key", &keys[0]), mentalKey},
		{"key proof", marshal(t, "proof", &proofs[0]), mentalProof},
		{"ciphertext", marshal(t, "ciphertext", &step.Out[0]), mentalCiphertext},
		{"shuffle step", marshal(t, "step", &step), stepSize(n)},
		{"shuffle opening", marshal(t, "shuffle opening", &opening), shuffleOpeningSize(n)},
		{"share", marshal(t, "share", &op.Shares[0]), mentalShare},
		{"opening", marshal(t, "opening", &op), openingSize(parties)},
		{"opening at 10 parties", marshal(t, "opening", &op10), openingSize(10)},
		{"sealed opening", marshal(t, "sealed opening", &sealedOp), sealedSize(openingSize(parties))},
		{"recovery commitments", marshal(t, "commit", &split.Commit), recoveryCommitSize(mental.DefaultThreshold(parties))},
		{"sub-share", len(sub), mentalSubShare},
		{"sealed sub-share", marshal(t, "sealed sub-share", &sealedSub), sealedSize(mentalSubShare)},
		{"secret", marshal(t, "secret", &secrets[0]), mentalSecret},
	} {
		if c.got != c.want {
			t.Errorf("%s: mental marshals %d bytes, the deck's samples assume %d", c.what, c.got, c.want)
		}
	}
}

// The biggest table the game plays: 10 parties, two decks and 4 jokers.
const (
	bigParties = 10
	bigCards   = 2*52 + 4
)

type deckCase struct {
	name string
	msg  Message
}

func handles(n int) []uint16 {
	h := make([]uint16, n)
	for i := range h {
		h[i] = uint16(bigCards - 1 - i) // high numbers: the widest ints
	}
	return h
}

// bigDeckMessages are the biggest honest deck messages at the biggest
// table, with a play number of a long game.
func bigDeckMessages() []deckCase {
	const no = 100_000
	split := make([][]byte, bigParties)
	for j := range split[1:] {
		split[j+1] = filled(sealedSize(mentalSubShare), byte(j))
	}
	return []deckCase{
		{"DeckKey", DeckKey{From: bigParties - 1, Key: filled(mentalKey, 1), Proof: filled(mentalProof, 2)}},
		{"DeckSplit at 10 parties", DeckSplit{From: 0, Commit: filled(recoveryCommitSize(mental.DefaultThreshold(bigParties)), 3), Sealed: split}},
		{"DeckShuffle of 108 cards", DeckShuffle{From: bigParties - 1, Step: filled(stepSize(bigCards), 4)}},
		// Every card's share: the most a deal can carry (a party holds a
		// few of them itself, which it leaves empty).
		{"DeckDeal of 108 shares", DeckDeal{From: bigParties - 1, Shares: repeated(bigCards, mentalShare, 5)}},
		{"DeckOpen of 8 cards at 10 parties", DeckOpen{No: no, From: bigParties - 1, Handles: handles(8), Openings: repeated(8, openingSize(bigParties), 6)}},
		{"DeckHandover at 10 parties", DeckHandover{No: no, From: bigParties - 1, To: bigParties - 2, Handle: bigCards - 1, Sealed: filled(sealedSize(openingSize(bigParties)), 7)}},
		// A departed party that held every card.
		{"DeckRecover of 108 cards", DeckRecover{No: no, From: bigParties - 1, Dealer: bigParties - 2, Handles: handles(bigCards), Shares: repeated(bigCards, recoveryShareSize, 8)}},
		{"DeckPool", DeckPool{No: no, From: bigParties - 1, To: 0, Dealer: bigParties - 2, Sealed: filled(sealedSize(mentalSubShare), 9)}},
		{"DeckPublish of a 108-card shuffle", DeckPublish{No: no, From: bigParties - 1, Of: bigParties - 1, Secret: filled(mentalSecret, 10), Shuffle: filled(shuffleOpeningSize(bigCards), 11)}},
	}
}

// The biggest honest deck message fits one envelope with room to spare:
// at most half of MaxSize, so a third deck or a longer play still fits.
// The sizes go to the test log.
func TestDeckMessagesFitMaxSize(t *testing.T) {
	seen := map[Type]bool{}
	for _, c := range bigDeckMessages() {
		seen[c.msg.Type()] = true
		env := mustSeal(t, alice, 1<<40, c.msg)
		t.Logf("%-36s %6d bytes sealed (%4.1f%% of MaxSize)", c.name, len(env), 100*float64(len(env))/MaxSize)
		if len(env) > MaxSize/2 {
			t.Errorf("%s: %d bytes sealed, over half of MaxSize (%d)", c.name, len(env), MaxSize)
		}
		if e, err := Open(env, aliceID); err != nil || !reflect.DeepEqual(e.Msg, c.msg) {
			t.Errorf("%s: opened %v", c.name, err)
		}
	}
	for typ := TypeDeckKey; typ <= TypeDeckPublish; typ++ {
		if !seen[typ] {
			t.Errorf("no biggest %s measured", typ)
		}
	}
	// How far each list could grow before an envelope refuses it.
	most := func(build func(n int) Message) int {
		return sort.Search(4096, func(n int) bool {
			_, err := Seal(alice, testTable, 3, 1<<40, build(n+1))
			return errors.Is(err, ErrTooBig)
		})
	}
	open := most(func(n int) Message {
		return DeckOpen{No: 100_000, From: 9, Handles: handles(n), Openings: repeated(n, openingSize(bigParties), 0)}
	})
	deal := most(func(n int) Message { return DeckDeal{From: 9, Shares: repeated(n, mentalShare, 0)} })
	shuffle := most(func(n int) Message { return DeckShuffle{From: 9, Step: make([]byte, stepSize(n))} })
	t.Logf("one envelope holds at most: %d openings at 10 parties, %d shares in a deal, a shuffle of %d cards", open, deal, shuffle)
	if open < 2*8 || deal < 2*bigCards || shuffle < 2*bigCards {
		t.Errorf("MaxSize leaves no room: %d openings, %d shares, %d cards shuffled", open, deal, shuffle)
	}
}

// deckFields are the deck's messages field by field as msgpack values,
// to be spoiled one field at a time.
func deckFields(t testing.TB, m Message) []msgpack.RawMessage {
	t.Helper()
	b, err := Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	var fields []msgpack.RawMessage
	if err := msgpack.Unmarshal(b, &fields); err != nil {
		t.Fatal(err)
	}
	return fields
}

// spoiled is the body of m with field i replaced by v.
func spoiled(t testing.TB, m Message, i int, v any) []byte {
	fields := deckFields(t, m)
	fields[i] = mp(t, v)
	return mp(t, fields)
}

// wrongValues are values of the wrong type (or range) for field f, and the
// field path a decoder must name ("" for the field itself, else the suffix).
func wrongValues(f reflect.StructField) []struct {
	v    any
	path string
} {
	type wrong = struct {
		v    any
		path string
	}
	switch {
	case f.Type.Kind() == reflect.Int:
		return []wrong{{"1", ""}, {1.5, ""}, {nil, ""}, {[]byte{1}, ""}, {uint64(1 << 63), ""}}
	case f.Type.Kind() == reflect.Uint16:
		return []wrong{{"1", ""}, {-1, ""}, {70000, ""}, {nil, ""}}
	case f.Type == reflect.TypeOf([]byte(nil)):
		return []wrong{{7, ""}, {"bytes", ""}, {[]int{1, 2}, ""}}
	case f.Type == reflect.TypeOf([][]byte(nil)):
		return []wrong{{7, ""}, {[]byte{1}, ""}, {[]any{"x"}, "[0]"}, {[]any{nil, 3}, "[1]"}}
	case f.Type == reflect.TypeOf([]uint16(nil)):
		return []wrong{{7, ""}, {[]byte{1}, ""}, {[]any{"x"}, "[0]"}, {[]any{1, -1}, "[1]"}, {[]any{70000}, "[0]"}}
	}
	panic("deck_test: no wrong values for " + f.Type.String())
}

// Every field of every deck message, given a value of the wrong type or
// out of range, is refused and named, never half read.
func TestDeckDecodeRefusesWrongTypes(t *testing.T) {
	for _, s := range deckSamples() {
		typ := reflect.TypeOf(s.msg)
		for i := range typ.NumField() {
			f := typ.Field(i)
			for _, w := range wrongValues(f) {
				body := spoiled(t, s.msg, i, w.v)
				m, err := Decode(s.msg.Type(), body)
				var de *DecodeError
				if !errors.Is(err, ErrMalformed) || !errors.As(err, &de) || m != nil {
					t.Errorf("%s.%s = %#v: decoded %#v, %v", s.name, f.Name, w.v, m, err)
					continue
				}
				if de.Field != f.Name+w.path || de.Type != s.msg.Type() {
					t.Errorf("%s.%s = %#v: refused at %s.%s, want %s", s.name, f.Name, w.v, de.Type, de.Field, f.Name+w.path)
				}
			}
		}
	}
}

// negativeBodies are each deck message with every int field (From, No,
// To, Dealer, Of) at -1 and at the least int64: the codec's int takes
// them, and what the party order or a play number makes of them is the
// node's to refuse.
func negativeBodies(t testing.TB) []struct {
	name string
	typ  Type
	body []byte
	want Message
} {
	var out []struct {
		name string
		typ  Type
		body []byte
		want Message
	}
	for _, s := range deckSamples() {
		for _, v := range []int64{-1, math.MinInt64} {
			m := reflect.New(reflect.TypeOf(s.msg)).Elem()
			m.Set(reflect.ValueOf(s.msg))
			for i := range m.NumField() {
				if m.Field(i).Kind() == reflect.Int {
					m.Field(i).SetInt(v)
				}
			}
			want := m.Interface().(Message)
			b, err := Encode(want)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, struct {
				name string
				typ  Type
				body []byte
				want Message
			}{fmt.Sprintf("%s at %d", s.name, v), s.msg.Type(), b, want})
		}
	}
	return out
}

func TestDeckDecodeTakesNegativeInts(t *testing.T) {
	for _, c := range negativeBodies(t) {
		m, err := Decode(c.typ, c.body)
		if err != nil || !reflect.DeepEqual(m, c.want) {
			t.Errorf("%s: decoded %#v, %v", c.name, m, err)
		}
	}
}

// Every deck message cut short anywhere is refused (a *DecodeError, no
// message), and so is one with a byte too many.
func TestDeckDecodeRefusesTruncated(t *testing.T) {
	for _, s := range deckSamples() {
		b, _ := Encode(s.msg)
		for n := range len(b) {
			m, err := Decode(s.msg.Type(), b[:n])
			var de *DecodeError
			if !errors.As(err, &de) || m != nil {
				t.Fatalf("%s cut to %d of %d bytes: %#v, %v", s.name, n, len(b), m, err)
			}
		}
		if m, err := Decode(s.msg.Type(), append(bytes.Clone(b), 0xc0)); !errors.Is(err, ErrMalformed) || m != nil {
			t.Errorf("%s with a trailing byte: %#v, %v", s.name, m, err)
		}
	}
}

// Bytes fields travel as they are: protocol checks lengths against the
// message, never against mental's layouts (mental's decoders do). A
// deck message with empty or odd-sized bytes decodes, and the node's
// mental.Unmarshal… refuses it.
func TestDeckBytesAreOpaque(t *testing.T) {
	for _, m := range []Message{
		DeckKey{From: 0},
		DeckKey{From: 0, Key: []byte{}, Proof: []byte{1}},
		DeckDeal{From: 1, Shares: [][]byte{{}, nil, {1, 2, 3}}},
		DeckOpen{No: 1, From: 1, Handles: []uint16{0, 65535}, Openings: [][]byte{nil}},
	} {
		b, _ := Encode(m)
		if got, err := Decode(m.Type(), b); err != nil || !reflect.DeepEqual(got, m) {
			t.Errorf("%#v: decoded %#v, %v", m, got, err)
		}
	}
}
