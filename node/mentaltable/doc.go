// Package mentaltable is a mental-card table in one process: the
// cryptography of protocol/mental put together with the engine over
// hidden cards (engine.Blind, engine.SeatSide), as the blind table of
// issue 25 will run it over the network. It is the first step of that
// table, and its proof (issue 24).
//
// A Driver holds the table's parties, one per player node, each with its
// own deck secret (mental.Secret) and the SeatSide of each seat it plays
// (a party may play two); a host, which runs engine.Blind over public data
// only and holds no secret; and a spectator, who sees what is public. The
// parties talk only in messages (Key, ShuffleMsg, Deal, Open, Handover,
// SubShares, Publish), values holding the mental package's marshalled
// bytes, which the driver moves between them in order: every message
// public but a handover's sealed opening (which only its receiver can
// open, so it is broadcast too) and a recovery sub-share (sealed to its
// holder). Every party checks what it receives and refuses, naming the
// sender (a *mental.Fault), whatever doesn't check.
//
// The game: keys with their proofs; each party shuffles in turn; the deal
// by handle, each party's shares of the cards not its own broadcast, each
// seat's party learning its hand from them; every play by handle, the
// moves chosen by the engine's bots on each seat's side; a call's, a
// doubt's or a believe's verdict from the cards the player's party opens;
// V9's quads from the four opened; V10's first player from the holder's
// opening; a pile handed to its taker by each earlier player of a
// face-down card in it, sealed to the taker (a V14 hand-over the same
// way). At the end every secret is published, every shuffle checked,
// every card decrypted, and the blind game revealed for engine.Audit. A
// party that leaves for good is replaced (Leave): the others seal it their
// sub-shares of its secret to its successor, which rebuilds it, plays its
// seats with a bot, and so learns what those seats saw (the record says
// so; its shuffle can no longer be opened, and the deck's decryption to
// every card once stands in for that check).
//
// What it must never do: give a party a card identity it did not prove
// (from shares it checked, or an opening it checked); give the host or the
// spectator a secret or a share beyond what is broadcast; read a clock,
// start a goroutine or open a socket (the node moves its messages over
// libp2p later: here the driver moves them, in one deterministic order);
// draw randomness other than from the io.Readers it is given; or panic on
// a message: a bad one is refused with an error that names its sender.
package mentaltable
