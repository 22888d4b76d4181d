// Package gamewire is what a player's program needs of the wire besides
// the protocol's messages: the engine's data in the protocol's plain
// types and back, the length-prefixed frames a game's stream carries, and
// the end-of-game check of a host (the seed against its commitment, then
// the replay against what the seat was shown). Package node uses it for
// its libp2p streams and the browser client (node/webclient) for its
// WebSocket, so both speak and check the game the same way.
//
// It must never import libp2p or open a socket: it compiles to js/wasm,
// and it holds no state.
package gamewire
