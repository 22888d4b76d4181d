//go:build js && wasm

package jsthrow

import (
	"errors"
	"syscall/js"
	"testing"
)

func parse(s string) (v js.Value, err error) {
	defer Catch(&err)
	return js.Global().Get("JSON").Call("parse", s), nil
}

// A JavaScript exception comes back as the error; a call that doesn't
// throw has none.
func TestCatchJSException(t *testing.T) {
	if v, err := parse(`{"a":1}`); err != nil || v.Get("a").Int() != 1 {
		t.Fatalf("parse of JSON: %v, %v", v, err)
	}
	_, err := parse(`{`)
	var jerr js.Error
	if !errors.As(err, &jerr) {
		t.Fatalf("parse of %q: %v, not a js.Error", `{`, err)
	}
}

// A Go panic is not an exception to take back: it goes on.
func TestCatchLetsGoPanicsThrough(t *testing.T) {
	defer func() {
		if r := recover(); r != "not js" {
			t.Fatalf("recovered %v", r)
		}
	}()
	func() (err error) {
		defer Catch(&err)
		panic("not js")
	}()
	t.Fatal("the panic was swallowed")
}
