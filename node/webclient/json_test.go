package webclient

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"
)

// nasty are strings encoding/json escapes each its own way.
var nasty = []string{"", "Cleo", "3 of the 4 kings", `"quoted"`, `back\slash`, "tab\there", "line\nfeed\r\b\f",
	"\x00\x01\x1f\x7f", "<b>&amp;</b>", "9–10 · ✔ ♠♥", "sep\u2028para\u2029", "bad \xff\xfe utf-8", "\xe2\x80", "🂡"}

// fill sets every field of v, reached through pointers and slices, to
// something random: nil or not for slices and pointers, so a field the
// hand encoder forgets, or writes out of order, shows.
func fill(r *rand.Rand, v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(nasty[r.IntN(len(nasty))])
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Int, reflect.Int64:
		v.SetInt(r.Int64N(2_000_000_001) - 1_000_000_000)
	case reflect.Struct:
		for i := range v.NumField() {
			fill(r, v.Field(i), depth)
		}
	case reflect.Pointer:
		if depth > 3 || r.IntN(3) == 0 {
			return
		}
		p := reflect.New(v.Type().Elem())
		fill(r, p.Elem(), depth+1)
		v.Set(p)
	case reflect.Slice:
		if depth > 3 || r.IntN(4) == 0 {
			return // nil: null, not []
		}
		s := reflect.MakeSlice(v.Type(), r.IntN(4), 4)
		for i := range s.Len() {
			fill(r, s.Index(i), depth+1)
		}
		v.Set(s)
	default:
		panic("fill: a field of kind " + v.Kind().String() + " (teach fill and json.go about it)")
	}
}

// The page's State and Preview are written by hand (json.go); they must
// be the bytes encoding/json writes, for every field.
func TestJSONAsEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 1))
	check := func(v any, got []byte) {
		t.Helper()
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("by hand:\n%s\nencoding/json:\n%s", got, want)
		}
	}
	check(State{}, State{}.AppendJSON(nil))
	check(Preview{}, Preview{}.AppendJSON(nil))
	for range 500 {
		var s State
		fill(r, reflect.ValueOf(&s).Elem(), 0)
		check(s, s.AppendJSON(nil))
		var p Preview
		fill(r, reflect.ValueOf(&p).Elem(), 0)
		check(p, p.AppendJSON([]byte{}))
	}
	// Appending keeps what was there.
	if got := string(Preview{Label: "x"}.AppendJSON([]byte("a"))); got != `a{"label":"x","problem":"","shows":"","under":""}` {
		t.Errorf("appended to: %s", got)
	}
}

func FuzzJSONString(f *testing.F) {
	for _, s := range nasty {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := appendString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("%q: by hand %s, encoding/json %s", s, got, want)
		}
		var back string
		if err := json.Unmarshal(appendString(nil, s), &back); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
	})
}
