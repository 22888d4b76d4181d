package protocol

// The mental deck (2.1): what the player nodes send each other to shuffle
// and deal a deck nobody can peek at, turn cards up and hand them over
// (protocol/mental does the cryptography; node/mentaltable the table).
// Every one goes to the host, which checks what it can from the public
// record and passes the sender's signed envelope on unchanged
// (OpenRelayed), so every node checks every message itself and a host
// can't forge one. The bytes fields are protocol/mental's layouts.
//
// From is the sender's party: its place in the table's party order
// (the order of the parties' keys). No is the number of the play a
// message is about, 0 for the set-up and the deal, so that an opening that
// arrives after its play was settled is refused as too late, never
// applied to another.

// The mental deck: party → host → all.
const (
	TypeDeckKey      Type = 80
	TypeDeckSplit    Type = 81
	TypeDeckShuffle  Type = 82
	TypeDeckDeal     Type = 83
	TypeDeckOpen     Type = 84
	TypeDeckHandover Type = 85
	TypeDeckRecover  Type = 86
	TypeDeckPool     Type = 87
	TypeDeckPublish  Type = 88
)

// DeckKey is a party's deck key and the proof that it knows its secret,
// bound to the table, the game and its peer ID.
type DeckKey struct {
	From  int
	Key   []byte // mental.PublicKey
	Proof []byte // mental.KeyProof
}

// DeckSplit is a party's recovery split: the Feldman commitments to its
// secret's sharing, and Sealed[j] its sub-share sealed to party j's deck
// key (empty at its own place).
type DeckSplit struct {
	From   int
	Commit []byte   // mental.RecoveryCommit
	Sealed [][]byte // mental.Sealed each
}

// DeckShuffle is a party's turn at the shuffle, in party order: the deck
// permuted and re-encrypted, and its commitment.
type DeckShuffle struct {
	From int
	Step []byte // mental.ShuffleStep
}

// DeckDeal is a party's partial decryption of every card not dealt to
// it: Shares[h] for handle h, empty where the card is the sender's own.
type DeckDeal struct {
	From   int
	Shares [][]byte // mental.Share each
}

// DeckOpen turns cards up for everyone: Openings[k] proves Handles[k]
// (a called play, quads, V10's first card).
type DeckOpen struct {
	No       int
	From     int
	Handles  []uint16
	Openings [][]byte // mental.Opening each
}

// DeckHandover hands one card to party To privately: its opening sealed
// to To's deck key (a pile to its taker, a V14 hand-over).
type DeckHandover struct {
	No     int
	From   int
	To     int
	Handle uint16
	Sealed []byte // mental.Sealed
}

// DeckRecover is a holder's part in turning up the cards of a party that
// did not open them in time: its recovery share of each, from its
// sub-share of Dealer's secret.
type DeckRecover struct {
	No      int
	From    int
	Dealer  int
	Handles []uint16
	Shares  [][]byte // mental.RecoveryShare each
}

// DeckPool is a holder's sub-share of a departed party's secret, sealed
// to the party that takes its seats over.
type DeckPool struct {
	No     int
	From   int
	To     int
	Dealer int
	Sealed []byte // mental.Sealed
}

// DeckPublish is a party's secret and its shuffle's opening, at the end
// (a departed party's secret by the party that rebuilt it, with no
// shuffle opening: Of names whose secret it is).
type DeckPublish struct {
	No      int
	From    int
	Of      int
	Secret  []byte // mental.Secret
	Shuffle []byte // mental.ShuffleOpening; empty for a rebuilt secret
}

func (DeckKey) Type() Type      { return TypeDeckKey }
func (DeckSplit) Type() Type    { return TypeDeckSplit }
func (DeckShuffle) Type() Type  { return TypeDeckShuffle }
func (DeckDeal) Type() Type     { return TypeDeckDeal }
func (DeckOpen) Type() Type     { return TypeDeckOpen }
func (DeckHandover) Type() Type { return TypeDeckHandover }
func (DeckRecover) Type() Type  { return TypeDeckRecover }
func (DeckPool) Type() Type     { return TypeDeckPool }
func (DeckPublish) Type() Type  { return TypeDeckPublish }
