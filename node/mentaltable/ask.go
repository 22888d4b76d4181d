package mentaltable

// AskKind is what an Ask asks for.
type AskKind uint8

// The asks.
const (
	AskOpen    AskKind = 1 // Party turns Handles up (a called play, quads)
	AskFirst   AskKind = 2 // V10: Party shows the first card if Seat holds it (a DeckOpen of it, or of none)
	AskHand    AskKind = 3 // Party hands Handles to party To, one DeckHandover each
	AskRecover AskKind = 4 // every other party: recovery shares of Party's Handles (Party did not open them)
	AskPool    AskKind = 5 // every other party but To: its sub-share of Party's secret, to To (Party left)
	AskPick    AskKind = 6 // V14: Party names Count cards of Seat's to give (the hand-over ran out)
	AskPublish AskKind = 7 // every party: its secret and its shuffle's opening (the game is over)
	AskShow    AskKind = 8 // Party turns Handles up, dealt to it, of a play another party did not turn up (it took them in a pile)
)

// An Ask is what the game needs next of the parties. The host and every
// node's copy of it make the same asks from the same inputs, so no ask
// crosses the wire: each node answers what its own copy asks, and every
// record refuses an answer nobody asked for.
type Ask struct {
	No      int
	What    AskKind
	Party   int
	To      int
	Seat    int
	Count   int
	Handles []uint16
}
