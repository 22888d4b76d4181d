// Package mentaltable is the blind table: the cryptography of
// protocol/mental put together with the engine over hidden cards
// (engine.Blind, engine.SeatSide), as messages between nodes (issue 25),
// with an in-process wire that plays whole games for its proof (issue 24).
//
// A blind table has one Host and a Node per party (one per player node; a
// party may play two seats, and runs the bots of its seats). Every node
// keeps its own copy of the public record (record): it takes the same
// messages in the order the host relays them, checks each, and refuses,
// naming its sender (a *mental.Fault), whatever doesn't check; a message
// refused changes nothing. The messages are protocol's Deck* types, each
// carrying the play it is about: an answer to an ask the table no longer
// waits for is refused as too late (ErrTooLate), never applied to
// another play.
//
// The set-up and the deal run by themselves: each node sends its key
// (with its proof) and, once every key is in, its recovery split (its
// secret shared among the others, each sub-share sealed to its holder);
// then each shuffles in party order, and after the last shuffle each
// sends its shares of every card not its own; each node learns its hands
// from them. The Host runs engine.Blind and its clock over what is public
// and asks (Ask) for what the game needs: a called play
// turned up by its player's node, V10's first card, a pile handed to its
// taker by each earlier player of a face-down card in it (sealed to the
// taker), a V14 hand-over, the cards of a timed-out hand-over. An opening
// that doesn't come within Host.Bound is asked of the other parties
// through the recovery (each holder's recovery share of the silent
// party's cards: the cards turn up, the rest of its hand stays hidden). A
// node answers an ask only when its own record says the answer is due: it
// turns up only its own newest play, hands over only cards it put down or
// gave, and gives recovery shares only of the newest play of the party
// named. A party that leaves for good is replaced (Host.Leave): the
// others seal their sub-shares of its secret to its successor, which
// rebuilds it, plays its seats with a bot, and so learns what those seats
// saw. At the end every party publishes its secret and shuffle opening
// (a departed one's secret by its successor), every shuffle is checked,
// every card decrypted, and the blind game revealed for engine.Audit.
//
// The Driver is the table in one process: the host, the nodes, a
// spectator, and a wire that carries every message through the protocol's
// encoding, in one deterministic order; its Tamper and Silent are the
// dishonest parties of the tests.
//
// What it must never do: give a node a card identity it did not prove
// (from shares it checked, or an opening it checked); give the host or a
// spectator a secret or a share beyond what is broadcast; read a clock,
// start a goroutine or open a socket (the host's caller gives it the
// time; node moves the messages); draw randomness other than from the
// io.Readers it is given; or panic on a message: a bad one is refused
// with an error that names its sender.
package mentaltable
