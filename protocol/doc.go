// Package protocol is everything that crosses the network between bullshit
// peers, and nothing else: the catalog of messages, their msgpack encoding,
// the signed envelope every message travels in, the replay guard, the join
// code proof and the seed commitment.
//
// It is plain data. It must never open a socket, start a goroutine, read a
// clock, draw randomness or import the engine: the node owns all of those,
// and two peers running the same version must agree on every byte. It must
// never panic on bytes from a peer; every refusal is a typed error testable
// with errors.Is (ErrMalformed, ErrMissingField, ErrSignature …).
//
// # Wire format
//
// A message body is msgpack. Every struct is an array of its fields in
// declaration order (no keys), integers take their shortest form, cards are
// single bytes (rank*4 + suit, 52 the joker) and peer IDs are raw bytes.
// A body travels in an envelope:
//
//	[ [version, sender, table, term, seq, type, body], signature ]
//
// The signature is ed25519, made with the sender's libp2p key over
// "bullshit/envelope/v1\x00" followed by the bytes of the inner array, so a
// verifier checks exactly the bytes it received and never re-encodes.
//
// # Versions
//
// Current is major.minor. A decoder refuses any other major (ErrVersion).
// Within a major, a minor version may add message types and may append
// fields at the end of a struct (or of the envelope's inner array); older
// decoders skip fields they do not know. A field added by a minor version is
// tagged `protocol:"optional"`, as is every field after it, so that newer
// decoders accept bodies from older peers that lack it. Removing, reordering
// or retyping a field needs a new major.
package protocol
