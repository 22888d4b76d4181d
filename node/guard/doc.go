// Package guard bounds what a stranger on the LAN may cost a node. Anyone
// on the LAN can connect, and identities are free, so every bound is per
// address and in total, never per peer ID alone: libp2p's resource and
// connection managers set for a card table, the handshake cut short, how
// fast an address may open connections and streams of any protocol
// (budget.go); how fast a connection's frames are read, a budget the
// spectators share, how often an address may open the game's stream, and
// wrong join codes per address and per table (limits.go).
//
// It only counts and says no: it must never read a message's meaning
// (node checks envelopes and refuses them; guard meters bytes, frames,
// connections and tries), never keep a stranger's state past its window
// (every count is pruned), and never trim a seated player's connection
// for a crowd (node tags those connections, and the connection manager
// spares them).
package guard
