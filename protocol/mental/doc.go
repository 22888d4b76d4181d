// Package mental is the cryptography of a deck nobody can peek at: a
// mental card game in the style of Barnett and Smart (“Mental Poker
// Revisited”, IMA Cryptography and Coding 2003), ElGamal on a joint key
// over ristretto255, with the commutative-encryption idea of Shamir, Rivest
// and Adleman (“Mental Poker”, 1981) that started the field.
//
// What it promises, at a table of n player nodes (parties, numbered 0…n−1
// in an order the table agrees):
//
//   - Keys. Each party draws a deck secret x_i (NewSecret) and announces
//     X_i = x_i·G with a KeyProof bound to a context the caller gives (the
//     table, the game and the party's peer ID). JointKey refuses an
//     identity key, a key another party already holds, and a proof that
//     does not verify under its party's context; so no party can pick its
//     key to cancel another's (X_j = T − X_i has no known discrete log).
//     The joint key Y = Σ X_i.
//   - Cards. Each physical card is a Face (value as engine.Card numbers it,
//     deck, copy), and its point is hash-to-group of its name (Face.Point).
//     A Codebook maps faces to points and back, in the engine's deck order.
//   - Shuffle. Each party in turn permutes and re-encrypts the deck
//     (Shuffle) and publishes the result with a commitment to its
//     permutation and randomness. At the end each opens its commitment and
//     anyone checks the whole chain (CheckShuffles). One honest shuffler is
//     enough for nobody to know the order; a dishonest one (a card
//     substituted, dropped or doubled, an opening that is not what it
//     committed) is caught at the end and named. A step with a card
//     dropped, doubled or left in the clear is refused when it arrives
//     (CheckStep); this is not a verifiable shuffle, so until the end a
//     card substituted under fresh randomness is seen only when it is
//     turned up (it decrypts to no card, or to a card twice).
//   - Decryption. Each party's partial decryption of a card (DecryptShare)
//     carries a Chaum–Pedersen proof; a wrong share fails VerifyShares at
//     once and names its sender. A seat combines the shares of its own
//     cards with its own (Learn) and learns them; without the seat's share
//     nobody else can (it is an ElGamal decryption under the seat's key:
//     DDH).
//   - Openings. An Opening (a card's face and all n shares with their
//     proofs) proves the card to anyone holding the deck keys and the
//     ciphertext (VerifyOpenings); a false claim names the opener. Sealed
//     to one party's deck key (SealOpening: ECDH, HKDF-SHA-256 and
//     AES-256-GCM), it hands a card over privately.
//   - Recovery. Each x_i is split among the other parties (Split: Shamir
//     over the scalar field, Feldman commitments), so that a party that
//     leaves for good does not leave its cards unopenable: any t holders
//     rebuild x_i (Recover). The threshold t is a parameter, by default
//     every other party (DefaultThreshold, n − 1): those together know the
//     departed seat's hand by elimination anyway once all cards are dealt,
//     so it costs nothing in secrecy. Fewer than t holders learn nothing
//     of x_i. A wrong sub-share names its dealer when it arrives
//     (VerifySub), and its holder when presented (Recover). Rebuilt, x_i
//     is known to whoever pooled the sub-shares (by default everyone
//     else): the departed seat's cards are then open to them, everyone
//     else's still need their own seat's share. So Recover is for a party
//     that left for good; a party that is still seated but will not open
//     a card it played has that card opened alone, by threshold decryption
//     from the sub-shares (RecoverShare by each holder, with a proof that
//     names a wrong one; CombineRecovery), which reveals nothing of its
//     other cards. The share this makes carries no proof of its party: it
//     turns the card up (Reveal) but never passes as the party's own in an
//     Opening.
//
// Every check that blames a party returns a *Fault (Blame gives the
// party); errors.Is tells what failed (ErrShareProof, ErrFalseOpening …).
//
// What it must never do: draw randomness of its own (every function that
// needs chance takes an io.Reader; the node gives crypto/rand, the tests a
// seeded one, so test vectors pin bytes), start a goroutine, read a clock,
// open a socket, import libp2p or the engine (it speaks of cards as the
// engine's bytes, so it builds small for js/wasm beside protocol), or panic
// on bytes from a peer: every decoder refuses malformed input with
// ErrMalformed and changes nothing. It never keeps a secret it was not
// given, and it never sends anything: the caller moves the values, in
// their fixed binary layouts (MarshalBinary), between the parties.
//
// What it leaves to its caller: signing what each party sends (the
// protocol envelope does), agreeing on the party order, the deal (which
// positions of the deck are whose), publishing every x_i at the end (then
// CheckSecret, CheckShuffles, and Codebook.Decrypt turns every card up for
// the audit), and sealing each sub-share to its holder (Seal).
package mental
