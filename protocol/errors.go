package protocol

import (
	"errors"
	"fmt"
)

// Refusals of bytes from the network. Decoding errors come wrapped in a
// *DecodeError whose Kind is one of the first five; verification errors wrap
// one of the others. Test them with errors.Is.
var (
	ErrTooBig       = errors.New("protocol: message over the size limit")
	ErrMalformed    = errors.New("protocol: malformed message")
	ErrUnknownType  = errors.New("protocol: unknown message type")
	ErrVersion      = errors.New("protocol: incompatible major version")
	ErrMissingField = errors.New("protocol: missing field")

	ErrSignature = errors.New("protocol: bad signature")
	ErrSender    = errors.New("protocol: sender is not the remote peer")
	ErrReplay    = errors.New("protocol: replayed sequence number")
	ErrStaleTerm = errors.New("protocol: stale host term")
	ErrKey       = errors.New("protocol: key is not ed25519")
)

// DecodeError says why bytes could not be decoded, and where.
type DecodeError struct {
	Kind  error  // ErrTooBig, ErrMalformed, ErrUnknownType, ErrVersion or ErrMissingField
	Type  Type   // the message type, when it was known
	Field string // the path of the field, e.g. "View.Last.Sizes", when known
	Err   error  // the underlying cause, if any
}

func (e *DecodeError) Error() string {
	s := e.Kind.Error()
	if e.Type != 0 {
		s += " (" + e.Type.String()
		if e.Field != "" {
			s += "." + e.Field
		}
		s += ")"
	} else if e.Field != "" {
		s += " (" + e.Field + ")"
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap lets errors.Is match both the kind and the cause.
func (e *DecodeError) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Err}
}

func decodeErr(kind error, field string, format string, args ...any) *DecodeError {
	e := &DecodeError{Kind: kind, Field: field}
	if format != "" {
		e.Err = fmt.Errorf(format, args...)
	}
	return e
}
