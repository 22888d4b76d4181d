// Package protocol is everything that crosses the network between bullshit
// peers, and nothing else: the catalog of messages, their msgpack encoding,
// the signed envelope every message travels in, the replay guard, the join
// code proof and the seed commitment.
//
// It is plain data. It must never open a socket, start a goroutine, read a
// clock, draw randomness or import the engine: the node owns all of those,
// and two peers running the same version must agree on every byte. It
// imports the standard library and msgpack only, never libp2p, so that a
// client compiled to WebAssembly stays small: keys are crypto/ed25519's and
// a peer is a PeerID, which holds the very bytes of a libp2p peer ID (the
// node converts at its edge). It must never panic on bytes from a peer;
// every refusal is a typed error testable with errors.Is (ErrMalformed,
// ErrMissingField, ErrSignature …).
//
// # Wire format
//
// A message body is msgpack. Every struct is an array of its fields in
// declaration order (no keys), integers take their shortest form, cards are
// single bytes (rank*4 + suit, 52 the joker) and peer IDs are raw bytes
// (libp2p's: the identity multihash of the protobuf-encoded ed25519 key).
// A body travels in an envelope:
//
//	[ [version, sender, table, term, seq, type, body], signature ]
//
// The signature is ed25519, made with the sender's key (the one its libp2p
// host runs on, and the one inside its peer ID) over
// "bullshit/envelope/v1\x00" followed by the bytes of the inner array, so a
// verifier checks exactly the bytes it received and never re-encodes.
//
// # Versions
//
// Current is major.minor. A decoder refuses any other major (ErrVersion,
// a *VersionError naming the peer's version); the envelope and a Refusal
// are laid out alike in every major so far, so a host answers a joiner of
// another major in an envelope of its version (Signer.SealRefusal).
// Within a major, a minor version may add message types and may append
// fields at the end of a struct (or of the envelope's inner array); older
// decoders refuse a type they do not know (ErrUnknownType; Open still
// returns the envelope, so that the node refuses it by sequence number)
// and skip fields they do not know. A field added by a minor version is
// tagged `protocol:"optional"`, as is every field after it, so that newer
// decoders accept bodies from older peers that lack it. Removing, reordering
// or retyping a field needs a new major. 2.0 requires every field it has,
// and 2.1 added message types only (the mental deck's), no field: none is
// optional yet.
package protocol
