package protocol

import (
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Refused is an error a player is shown. Its Error is a Go error's text
// (lower case, no full stop: for logs, wrapping and tests); Say is the
// sentence the screen shows, written for a person. Code is the Refusal
// code it travels under, or "" where it never goes on the wire.
//
// The two are separate values so that neither is bent to be the other:
// "table full" wraps well in "joining kitchen: table full", and "This
// table is full." reads well on a screen.
type Refused struct {
	Code string
	Err  string
	Say  string
}

// Refuse makes a Refused.
func Refuse(code, err, say string) *Refused { return &Refused{Code: code, Err: err, Say: say} }

func (r *Refused) Error() string { return r.Err }

// Sentence is what a player reads for err: the Say of the first Refused
// in its chain, or else err's own text made a sentence (its first letter
// upper case, a full stop at the end).
func Sentence(err error) string {
	if err == nil {
		return ""
	}
	var r *Refused
	if errors.As(err, &r) && r.Say != "" {
		return r.Say
	}
	return AsSentence(err.Error())
}

// AsSentence makes s a sentence: its first letter upper case, and a full
// stop unless it ends in one (or in ! or ?).
func AsSentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	s = string(unicode.ToUpper(r)) + s[n:]
	switch s[len(s)-1] {
	case '.', '!', '?':
		return s
	}
	return s + "."
}
