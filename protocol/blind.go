package protocol

// The blind table (2.2): the host runs the game over what is public
// (node/mentaltable) and keeps a log of every input it took, in order; it
// sends the log to every node, which runs its own copy of the host on it.
// A party's input is its own signed envelope, passed on as the bytes it
// came in (OpenRelayed): a host can't put a move or a deck message in a
// party's name. What the host decides itself (the clock, a move it makes
// for a seat whose person is away, a party that left, the end) it says
// in its own words, in the envelope that carries the log.

// The blind table's messages: host → all, and a party's move.
const (
	TypeBlindDeal Type = 89
	TypeBlindLog  Type = 90
	TypeBlindMove Type = 91
)

// BlindDeal starts a blind game: what every node must agree on before the
// first deck message. The host's seed and salt are shown here, not at the
// end: the deck's order is the shuffle's, so the seed picks only the
// dealer (and V10's random start) and the bots', and every node checks it
// against the commitment and the nonces the toss mixed (Lobby.Commit,
// Lobby.Nonces).
type BlindDeal struct {
	Game     []byte   // the game's name: every proof and seal is bound to it
	HostSeed uint64   // the host's part of the toss
	Salt     []byte   // its salt
	Seed     uint64   // the engine's: DealSeed of the host's part, the salt and the nonces
	Holder   []int    // seat → the party that plays it
	Parties  []PeerID // party → the node that signs its messages
	Bots     []string // seat → the bot that plays it ("" for a person's seat)
}

// BlindLog is the host's log from input First on: every node takes each
// input in order, exactly once. NowNS is the host's clock as it sent it.
type BlindLog struct {
	First  int
	NowNS  int64
	Inputs []LogInput
}

// LogInput is one input of the host's log (node/mentaltable.Input). Env
// is a party's envelope as it came (a deck message, or a BlindMove) for
// the inputs parties make; Move is a move the host made for a seat
// itself (its person away or out of time), with no envelope. AtNS is the
// host's clock when it took the input.
type LogInput struct {
	What uint8
	AtNS int64
	Env  []byte
	Move *BlindMove
	Gone int // a party that left for good, and To its successor
	To   int
}

// BlindMove is a seat's move at a blind table: its cards named by handle
// (their faces are its node's alone). Quads come opened (V9: the four are
// laid face up). Pick names the cards of a timed-out hand-over (V14),
// which only the giver's node can choose.
type BlindMove struct {
	No      int
	Seat    int
	Move    uint8 // engine.Move
	Handles []uint16
	Claim   int
	Rank    int8
	Quads   *DeckOpen
	Pick    bool
}

func (BlindDeal) Type() Type { return TypeBlindDeal }
func (BlindLog) Type() Type  { return TypeBlindLog }
func (BlindMove) Type() Type { return TypeBlindMove }
