// Package webclient is a player at a table from a browser: what node's
// Remote is for a terminal player, over a node's web entry (GET /ws, a
// WebSocket carrying node/webwire's channel) instead of a libp2p stream.
// It joins (a seat or a spectator's place, proving the join code when the
// table asks), sends its moves signed with its own key, keeps its own
// record of every event it was sent (node/record, as the terminal's
// player does), keeps its journal and Shamir shares for a new host, is
// a party of the mental deck at a blind table (blind.go: its
// node/mentaltable.Player answers the deck by itself and makes its seat's
// view; its deck secret is kept in the tab's storage, so that a reload is
// the same party), follows the table when the host vanishes (to the player nodes' web
// addresses of the last Lobby, with backoff, until one takes it back into
// its seat) and, at the end, checks the game itself: the revealed seed
// against the commitment, then a replay against its record. Its State is
// plain data a page turns into a table.
//
// It must never import package node or libp2p's network stack: it is
// compiled to js/wasm and shipped to phones, so it stays small and speaks
// only through the standard library, protocol, engine, node/gamewire,
// node/record, node/mentaltable and node/webwire. It runs no bot (a host
// gives a blind table's bots to the laptops' nodes), must never host
// (phones never host), and must never let a backlog from any host
// replace what it was shown itself: a host that rewrites the past is
// caught by the audit (at a blind table, by the digest of the log it
// took before a reload), not believed.
//
// # Goroutines
//
// Join starts one goroutine, run, which owns the connection: it plays on
// a link until it drops, then follows the table to the next link, until
// Close. Each link has a heartbeat goroutine that only writes. Everything
// the page reads (the table, the view, the record) sits under Client.mu,
// written by run alone; Move and State are what the page calls.
package webclient
