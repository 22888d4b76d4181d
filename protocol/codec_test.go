package protocol

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/vmihailenco/msgpack/v5"
)

// mp encodes any values with plain msgpack, to build bodies by hand.
func mp(t testing.TB, v any) []byte {
	t.Helper()
	b, err := msgpack.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCatalogHasASampleOfEveryType(t *testing.T) {
	have := map[Type]bool{}
	for _, s := range samples() {
		have[s.msg.Type()] = true
	}
	for _, typ := range Types() {
		if !have[typ] {
			t.Errorf("%s has no sample: the golden vectors do not pin it", typ)
		}
	}
	if len(have) != len(Types()) {
		t.Errorf("%d samples for %d types", len(have), len(Types()))
	}
}

func TestRoundTrip(t *testing.T) {
	for _, s := range samples() {
		zero := reflect.Zero(reflect.TypeOf(s.msg)).Interface().(Message)
		for _, m := range []Message{s.msg, zero} {
			b, err := Encode(m)
			if err != nil {
				t.Fatalf("%s: %v", s.name, err)
			}
			got, err := Decode(m.Type(), b)
			if err != nil {
				t.Fatalf("%s: %v", s.name, err)
			}
			if !reflect.DeepEqual(got, m) {
				t.Errorf("%s: decoded\n%#v\nwant\n%#v", s.name, got, m)
			}
		}
	}
}

func TestEncodeTakesPointers(t *testing.T) {
	play := sampleOf(t, TypePlay).(Play)
	a, err1 := Encode(play)
	b, err2 := Encode(&play)
	if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
		t.Fatalf("Encode(Play) = %x, %v; Encode(*Play) = %x, %v", a, err1, b, err2)
	}
	if _, err := Encode((*Play)(nil)); !errors.Is(err, ErrUnknownType) {
		t.Errorf("Encode(nil *Play) = %v, want ErrUnknownType", err)
	}
}

// A message type defined elsewhere is not in the catalog, even if its
// number is.
type impostor struct{ No int }

func (impostor) Type() Type { return TypePlay }

func TestEncodeRefusesTypesOutsideTheCatalog(t *testing.T) {
	if _, err := Encode(impostor{}); !errors.Is(err, ErrUnknownType) {
		t.Errorf("got %v, want ErrUnknownType", err)
	}
	if _, err := Encode(State{Shares: []StepShare{{Y: make([]byte, MaxSize)}}}); !errors.Is(err, ErrTooBig) {
		t.Errorf("got %v, want ErrTooBig", err)
	}
}

// The body is plain msgpack: a struct is the array of its fields.
func TestBodyIsPlainMsgpack(t *testing.T) {
	type play struct {
		//lint:ignore U1000 msgpack reads the tag
		_msgpack struct{} `msgpack:",as_array"`
		No       int
		Seat     int
		Cards    []byte
		Claim    int
		Rank     int8
		Sig      []byte
	}
	p := sampleOf(t, TypePlay).(Play)
	var buf bytes.Buffer
	e := msgpack.NewEncoder(&buf)
	e.UseCompactInts(true)
	if err := e.Encode(play{No: p.No, Seat: p.Seat, Cards: p.Cards, Claim: p.Claim, Rank: p.Rank, Sig: p.Sig}); err != nil {
		t.Fatal(err)
	}
	ours, _ := Encode(p)
	if !bytes.Equal(ours, buf.Bytes()) {
		t.Errorf("ours %x, msgpack's %x", ours, buf.Bytes())
	}
}

func TestDecodeRefusals(t *testing.T) {
	full := []any{41, 2, []byte{0, 13, 26, 39}, 2, -1, nil}
	view, _ := Encode(Update{View: &View{Last: &Last{}}})
	// A peer ID is checked where it is decoded: a seat's in a lobby.
	badPeer, _ := Encode(Lobby{Players: []Player{{Nick: "ada", Peer: "not a multihash"}}})
	// The Sizes of the Last of the View sits at the end of the body: 4
	// Counts of 2 zeros each, "94 92 00 00 …". Make it 3 Counts.
	i := bytes.LastIndex(view, []byte{0x94, 0x92, 0, 0})
	shortSizes := append(append(append([]byte{}, view[:i]...), 0x93), view[i+1+3:]...)

	for _, c := range []struct {
		name  string
		typ   Type
		body  []byte
		kind  error
		field string
	}{
		// Unknown types are refused, not guessed at.
		{"type 0", 0, mp(t, full), ErrUnknownType, ""},
		{"type from a later version", 99, mp(t, full), ErrUnknownType, ""},
		// A body over the limit is refused before it is read.
		{"oversize", TypePlay, make([]byte, MaxSize+1), ErrTooBig, ""},
		// Every field this version knows must be there, at every depth.
		{"missing field", TypePlay, mp(t, full[:4]), ErrMissingField, "Rank"},
		{"no fields", TypePlay, mp(t, []any{}), ErrMissingField, "No"},
		{"missing nested field", TypeUpdate, shortSizes, ErrMissingField, "View.Last.Sizes.PileAfter"},
		// Wrong shapes.
		{"empty", TypePlay, nil, ErrMalformed, ""},
		{"truncated", TypePlay, mp(t, full)[:8], ErrMalformed, "Cards"},
		{"trailing bytes", TypePlay, append(mp(t, full), 0), ErrMalformed, ""},
		{"map for a struct", TypePlay, mp(t, map[string]int{"No": 1}), ErrMalformed, ""},
		{"nil for a struct", TypeUpdate, mp(t, []any{nil, []any{0, "", 0, 0, nil, 0, nil, nil, nil, nil, nil, 0, 0, nil, nil, nil, 0, nil, nil, nil, 0, nil}, "", 0, 0, false, nil, nil}), ErrMalformed, "View.Pile"},
		{"string for an int", TypePlay, mp(t, []any{"41", 2, []byte{}, 2, -1, nil}), ErrMalformed, "No"},
		{"float for an int", TypePlay, mp(t, []any{41.0, 2, []byte{}, 2, -1, nil}), ErrMalformed, "No"},
		{"nil for an int", TypePlay, mp(t, []any{nil, 2, []byte{}, 2, -1, nil}), ErrMalformed, "No"},
		{"string for bytes", TypePlay, mp(t, []any{41, 2, "ab", 2, -1, nil}), ErrMalformed, "Cards"},
		{"bytes for a string", TypeRefusal, mp(t, []any{[]byte("x"), "y", 1}), ErrMalformed, "Code"},
		{"int for a bool", TypeHello, mp(t, []any{512, "bob", 1, nil, "", nil, nil}), ErrMalformed, "Watch"},
		{"array of ints for bytes", TypePlay, mp(t, []any{41, 2, []int{1, 2}, 2, -1, nil}), ErrMalformed, "Cards"},
		{"ext", TypePlay, mp(t, []any{41, 2, []byte{}, 2, -1, msgpack.RawMessage{0xd4, 1, 1}}), ErrMalformed, "Sig"},
		// Integers out of their field's range are refused, never truncated.
		{"rank over int8", TypePlay, mp(t, []any{41, 2, []byte{}, 2, 200, nil}), ErrMalformed, "Rank"},
		{"negative uint", TypeRefusal, mp(t, []any{"x", "y", -1}), ErrMalformed, "Ref"},
		{"int16 overflow", TypeUpdate, mp(t, []any{nil, []any{0, "", 0, 0, nil, 0, nil, nil, []any{40000, 0}, nil, nil, 0, 0, nil, nil, nil, 0, nil, nil, nil, 0, nil}, "", 0, 0, false, nil, nil}), ErrMalformed, "View.Pile.Lo"},
		{"uint64 into int", TypePlay, mp(t, []any{uint64(1 << 63), 2, []byte{}, 2, -1, nil}), ErrMalformed, "No"},
		// Lengths that overrun the message are refused before allocating.
		{"bin32 overrun", TypePlay, append(mp(t, full)[:3], 0xc6, 0x7f, 0xff, 0xff, 0xff), ErrMalformed, "Cards"},
		{"array32 overrun", TypeUpdate, []byte{0x98, 0xdd, 0x7f, 0xff, 0xff, 0xff, 0xc0, 0xc0, 0xc0}, ErrMalformed, "Events"},
		{"short fixed bytes", TypeNonceCommit, mp(t, []any{make([]byte, 31), make([]byte, 32)}), ErrMalformed, "Round"},
		{"bad peer ID", TypeLobby, badPeer, ErrMalformed, "Players[0].Peer"},
		{"deep nesting in a skipped field", TypeLeave, append([]byte{0x92, 0xa0}, bytes.Repeat([]byte{0x91}, 100)...), ErrMalformed, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := Decode(c.typ, c.body)
			if !errors.Is(err, c.kind) {
				t.Fatalf("Decode = %#v, %v; want %v", m, err, c.kind)
			}
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("%T is not a *DecodeError", err)
			}
			if de.Field != c.field {
				t.Errorf("field %q, want %q (%v)", de.Field, c.field, err)
			}
			if m != nil {
				t.Errorf("returned %#v with the error", m)
			}
		})
	}
}

// A newer minor version may append fields; this one skips them.
func TestDecodeSkipsFieldsFromANewerMinor(t *testing.T) {
	body := mp(t, []any{41, 2, []byte{0, 13}, 2, -1, []byte{7}, "new", map[string]any{"x": []any{1, nil, true, 2.5}}})
	m, err := Decode(TypePlay, body)
	if err != nil {
		t.Fatal(err)
	}
	want := Play{No: 41, Seat: 2, Cards: []Card{0, 13}, Claim: 2, Rank: -1, Sig: []byte{7}}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("got %#v, want %#v", m, want)
	}
}

// A field tagged optional may be missing; fields before it may not.
func TestOptionalFields(t *testing.T) {
	type later struct {
		A int
		B string `protocol:"optional"`
		C []int  `protocol:"optional"`
	}
	s := compile(reflect.TypeOf(later{}))
	for _, c := range []struct {
		body []byte
		want later
		err  error
	}{
		{mp(t, []any{1}), later{A: 1}, nil},
		{mp(t, []any{1, "b"}), later{A: 1, B: "b"}, nil},
		{mp(t, []any{1, "b", []int{3}}), later{1, "b", []int{3}}, nil},
		{mp(t, []any{}), later{}, ErrMissingField},
	} {
		var got later
		rd := getReader(c.body)
		err := rd.decode(s, reflect.ValueOf(&got).Elem())
		putReader(rd)
		if !errors.Is(err, c.err) || c.err == nil && !reflect.DeepEqual(got, c.want) {
			t.Errorf("%x: got %#v, %v; want %#v, %v", c.body, got, err, c.want, c.err)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("a required field after an optional one compiled")
		}
	}()
	type bad struct {
		A int `protocol:"optional"`
		B int
	}
	compile(reflect.TypeOf(bad{}))
}

func TestDecodeErrorText(t *testing.T) {
	_, err := Decode(TypeUpdate, []byte{0x98, 0xdd, 0x7f, 0xff, 0xff, 0xff, 0xc0, 0xc0, 0xc0})
	want := "protocol: malformed message (Update.Events): length 2147483647 overruns the message"
	if err == nil || err.Error() != want {
		t.Errorf("got %q, want %q", err, want)
	}
}
