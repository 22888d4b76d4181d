// Package mentaltable is the blind table: the cryptography of
// protocol/mental put together with the engine over hidden cards
// (engine.Blind, engine.SeatSide), as messages between nodes (issue 25),
// with an in-process wire that plays whole games for its proof (issue 24).
//
// A blind table has one Host and a Node per party (one per player node; a
// party may play two seats, and runs the bots of its seats). The host
// runs engine.Blind and its clock over what is public. Everything it takes
// goes into its log, in order (Input): each party's message (protocol's
// Deck* types, each naming the play it is about), each seat's move (its
// cards named by handle), each tick of the clock. The log is public and
// is what every node is sent; every node runs its own copy of the host
// on it (Node.Input), so it checks each input as the host must, and makes
// the same asks (Ask) the host makes: what the game needs next of the
// parties. No ask crosses the wire. A node answers what its own copy asks
// of it and nothing else, so a host can't make it turn up a card the game
// doesn't turn up, or publish its secret before the game is over; and a
// new host needs nothing but the log (Replay): a failover relays nothing
// hidden. An answer to an ask the table no longer waits for is refused as
// too late (ErrTooLate), never applied to another play; any message a
// record refuses changes nothing and names its sender (a *mental.Fault).
//
// The set-up and the deal run by themselves: each node sends its key
// (with its proof) and, once every key is in, its recovery split (its
// secret shared among the others, each sub-share sealed to its holder);
// then each shuffles in party order, and after the last shuffle each
// sends its shares of every card not its own; each node learns its hands
// from them. The host checks every share as it comes (one batch per
// deal); a node decodes and checks the ones it uses. Then the asks: a
// called play turned up by its player's node, V10's first card, a pile
// handed to its taker by each earlier player of a face-down card in it
// (sealed to the taker), a V14 hand-over, the cards of a timed-out
// hand-over. An opening that doesn't come within Host.Bound, or that is
// false (its node named: Host.Caught), is asked of the other parties
// instead: each holder's recovery share of the silent party's own cards
// turns them up (the rest of its hand stays hidden), and a card it took
// in a pile is turned up by the party it was dealt to (AskShow), whose
// share is the one the record lacks. A false opening's play goes against
// its player (engine.Blind.Forfeit, R10b). A card turned up before is
// held to its face when it is opened again: the share the recovery made
// proves nothing of its party. A party that leaves for good is replaced
// (Host.Leave): the others seal their sub-shares of its secret to its
// successor, which rebuilds it, plays its seats with a bot, and so learns
// what those seats saw. At the end every party publishes its secret and shuffle opening
// (a departed one's secret by its successor), every shuffle is checked,
// every card decrypted, and the blind game revealed for engine.Audit; a
// shuffle that doesn't check names its shuffler in every node's audit
// (Reveal's error, ShuffleCheat), every secret taken all the same.
//
// The Driver is the table in one process: the host, the nodes, a
// spectator (a copy of the host with no secret), and a wire that carries
// every message through the protocol's encoding, in one deterministic
// order; its Tamper and Silent are the dishonest parties of the tests,
// and Failover swaps the host for one replayed from its log.
//
// What it must never do: give a node a card identity it did not prove
// (from shares it checked, or an opening it checked); give the host or a
// spectator a secret or a share beyond what is broadcast; read a clock,
// start a goroutine or open a socket (the host's caller gives it the
// time; node moves the messages); draw randomness other than from the
// io.Readers it is given; or panic on a message: a bad one is refused
// with an error that names its sender.
package mentaltable
