//go:build js && wasm

// Package jsthrow takes back, as an error, an exception that JavaScript
// throws into a Go call through syscall/js (which panics with a
// js.Error): a WebSocket's constructor on a malformed URL, its send while
// it still connects, JSON.parse on what isn't JSON, setItem on a full
// storage. The page's Go half and its WebSocket both call into JavaScript
// that may throw.
package jsthrow

import "syscall/js"

// Catch, deferred, makes a JavaScript exception thrown in the function
// that defers it that function's error; any other panic goes on.
//
//	func parse(s string) (v js.Value, err error) {
//		defer jsthrow.Catch(&err)
//		return js.Global().Get("JSON").Call("parse", s), nil
//	}
func Catch(err *error) {
	if r := recover(); r != nil {
		jerr, ok := r.(js.Error)
		if !ok {
			panic(r)
		}
		*err = jerr
	}
}
