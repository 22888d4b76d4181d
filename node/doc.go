// Package node is a device on the LAN: it owns every socket and timer of a
// player's program. It runs the libp2p host (TCP, LAN addresses only), finds
// tables by mDNS (or an in-memory network in tests), hosts a table (the
// authoritative engine, its only clock, the bots that fill seats) and joins
// one as a player or a spectator. It turns engine refusals into signed
// replies and never drops a connection over a refused move.
//
// It must never talk beyond the local network (no DHT, bootstrap peers,
// relays, NAT port mapping, AutoNAT probes or DNS), never send a seat a
// card it may not see, and never let a message of an older host term be
// obeyed.
//
// # The host can vanish
//
// A host keeps a journal of its table (node/journal): the rules, the seats,
// the seed and every accepted step with its time, fsynced per step. The
// engine is deterministic, so the journal is the whole game: a host that
// crashes and restarts with the same identity picks the table up from it
// (Device.Resume) and its players reconnect to their seats.
//
// Before the deal the host commits to the seed (node/table's toss.go). Every update a
// seat receives also carries the journal as that seat may know it (each
// play's and hand-over's cards left out) and the seat's Shamir share of
// every hidden part and of the seed, at a threshold of every player node
// but the host's (node/table's journalshare.go, node/shamir): one person with two seats
// learns nothing from pooling them. When the host goes silent past
// Timing.DeadAfter, the player nodes elect the one with the lowest peer ID
// (election.go); it asks each player that rejoins for its shares, and with
// every other player's rebuilds the exact journal, checks the seed against
// the commitment, replays the game and plays on from the same play, with
// an open call window given its whole time again (restore.go). The term goes up by one and envelopes of an older term are
// refused, so two hosts are never both obeyed. Two nodes that take over
// the same term at once (on a busy machine one could not reach the other
// in time) each wait for the other's shares; the one later in line looks
// ahead while it rebuilds, finds the other hosting, yields, and joins it
// with its shares (newhost.go).
//
// History is evidence (node/table's chain.go, gamewire/chain.go): the journal is a
// hash chain from the deal's commitment, each step's hidden cards sealed
// under a key only the seed and salt give, and the host signs the chain
// with its node's key as it sends it. A player (terminal or phone, with
// the same code) keeps only what its hosts' chain vouches for, and a
// host's backlog may add to what a player was sent, never rewrite it (the
// audit says so), save one case: a new host that never got the old host's
// last steps plays on from a signed start of the player's journal, and the
// audit notes the steps rolled back. A new host takes a journal only when
// every step of it is signed by the host of its term, so a step a player
// forged or doctored is refused with its journal; it rebuilds from the
// longest that verifies and rebuilds whole, cut to its last signed step,
// checks the combined cards against their seals, falls back to the next
// journal when one doesn't replay, and signs its own term on from the old
// host's last signed step. Its screen says whose record it refused and
// why. A player takes a node's term only when that node seats it, so a
// new host that gave up leaves nobody deaf to the old host. A move is
// vouched for by its seat too (gamewire/movesig.go, protocol 1.6): a
// player signs what the table sees of each move it makes, bound to the
// table and the deal; the host checks that signature against the seat's
// peer key before it applies the move (another's, or none from a player
// that signs, is refused) and keeps it in the journal as the step's Mark;
// every player checks the Marks it is sent and a new host refuses a
// journal with one that doesn't verify. A move in a person's seat without
// one is the host's (a bot or the fallback while they were away or out of
// time), and each audit counts those moves by name: a host can't pass off
// a move of its own as a person's.
//
// What this protects against: a host that leaves (the lid closes), and
// players who pool their shares short of all of them (one person with two
// seats, or two phones, learns nothing of a card it may not see: the
// threshold counts every player node but the host's, so only all of them
// together can). What it does not: all the other player nodes together
// see every hidden card, which is what lets them rebuild the game; at a
// table of two player nodes that is one pair. Whoever hosts sees
// everything, as the first host did; a host that cheats during the game
// is not prevented, only caught at the end, when it reveals the seed and
// every card and every node replays the game against what it was shown
// (engine.Audit: "deal verified", or what didn't match).
//
// So a failover needs every player node's shares, and what it survives
// follows (TestFailoverWhichKillsResume measures it; BENCHMARKS.md,
// "Failover and the journal"): the host alone going, or the host after a
// player that left and came back (its shares are sent again with its
// seat), resumes at once under the new host. The host and a player node
// at once, or the host after a player node that is still gone (a bot
// playing its seat), can't: the new host waits Timing.RebuildWait (30 s)
// for the missing shares, which only a node whose link dropped still
// holds (a program that restarted has none), says "No other player came
// back to rebuild the table: waiting for the host." and tries again each
// RebuildWait; the game goes on when the old host is back from its journal
// (host --resume), and every player returns to it. With one player node
// left there is no second share, and the table waits for its host too.
//
// # Strangers
//
// What a stranger may cost a node is bounded per address and in total
// (node/guard). A host checks an envelope's table, term, sequence number
// and type on its header before it verifies the signature or decodes the
// body (protocol.OpenChecked, gates.go), decodes nothing but a hello
// before a peer's hello, bounds every name a peer chooses where it enters
// (protocol.CheckNick), refuses a nickname that reads as one at the table
// (node/table's names.go), and cleans every other string it shows. Seated
// players' connections are never trimmed for a crowd.
//
// # Phones
//
// A node with web on (web.go) serves the page and /ws on its LAN address.
// A browser's player proves its own ed25519 key over webwire and is served
// through the same Server.serve as a libp2p stream, under the same checks;
// the entry itself answers private sources only, and a Host of its own
// addresses only (not a rebinding name), refuses a foreign Origin
// and bounds what one address may open (and closes, as it accepts them,
// the connections of one that connects too fast). Its seat is a phone's (Lobby Web):
// it holds shares and rebuilds a table like any player, but is never a
// candidate to host. The Lobby carries every player node's web address, so
// that after a failover the phones find the new host, whose own /ws takes
// them back; a node that doesn't host answers /ws with CodeNotHost.
//
// # Where things are
//
// Packages, each with its own doc: node/table (the host's table actor,
// its sessions, clock, toss, chain and shares; no libp2p in it),
// node/journal (what a host and a seat write to disk), node/shamir (the
// seed's shares), node/lan (interfaces, mDNS, discovery), node/guard (what
// a stranger may cost). They import each other in one direction: node
// imports them all, lan imports table (for the phase words), table
// imports journal and shamir, and none imports node.
//
// Here, the host's side: device.go (a player's program: its host, its
// tables), host.go (the libp2p host, LAN addresses only), server.go
// (Server and one srvConn per player: join, read, pump, heartbeat),
// gates.go (what a connection must pass), web.go (the door for phones),
// restore.go (a new host's rebuild of the table from the players'
// journals and shares). The player's side is an actor too: remote.go
// (Remote: who owns what, its roles and the one goroutine that runs them,
// the calls), join.go (one attempt to be seated, and the reader of the
// link it gives), player.go (the player's role: what the host sends, the
// audit, kept by node/record as the phone keeps its own), remotetoss.go (its part of the deal's toss), election.go (the
// candidate's role: the walk of the line, the standby answer to a rejoin,
// the takeover), newhost.go (the new host's role: the rebuild wait, our
// own seat). Between them: wire.go (the table's types as they travel,
// with gamewire), ids.go (libp2p's peers and keys as protocol names
// them).
//
// This package stays larger than the others (about 5k lines) because what
// is left in it is one thing seen from two sides: the libp2p host and the
// Server that serves a table on it, and the Remote that plays at one and
// becomes its Server when the host is gone (election.go, newhost.go and
// restore.go hand a Server and its recovery from one to the other). Cut
// apart, the two would have to export their insides to each other.
package node
