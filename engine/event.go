package engine

import (
	"encoding/json"
	"strconv"
	"time"
)

// EventType is what an event announces. Its value is the word the referee
// protocol and the wire carry, so a new type is a new word, never a renamed one.
type EventType string

// The event types, as Event's doc lists their fields.
const (
	EventDeal    EventType = "deal"
	EventHand    EventType = "hand"
	EventQuads   EventType = "quads"
	EventPlay    EventType = "play"
	EventMine    EventType = "mine"
	EventPass    EventType = "pass"
	EventCall    EventType = "call"
	EventStand   EventType = "stand"
	EventReveal  EventType = "reveal"
	EventTake    EventType = "take"
	EventGive    EventType = "give"
	EventHanded  EventType = "handed"
	EventDoubt   EventType = "doubt"
	EventBelieve EventType = "believe"
	EventSkip    EventType = "skip"
	EventLeave   EventType = "leave"
	EventRound   EventType = "round"
	EventOut     EventType = "out"
	EventWin     EventType = "win"
	EventOver    EventType = "over"
	EventResume  EventType = "resume"
)

// An Event is something a table announces. To is its audience: nil for
// every seat (and spectators), else the seats that may see it. A seat's
// own cards (its deal, its play, a hand-over) go to that seat alone.
//
// The fields used by each type (JSON names in brackets):
//
//	deal    Seat=dealer [dealer], Target=first seat [first], Rank=first required rank, Counts [hands]
//	hand    Seat, Cards: a seat's dealt hand (private)
//	quads   Seat, Rank, Cards: four of a kind laid out of the game (V9)
//	play    Seat, No, Rank, Claim, Out (the hand is empty), Sizes (hand and pile before/after, as seen)
//	mine    Seat, No, Cards: the cards of your own play (private)
//	pass    Seat, No: a seat lets the play go
//	call    Seat (the caller), Target [on] (the player), No
//	stand   Seat (the player), No: the window closed with no call
//	reveal  Seat (the player), No, Rank, Claim, Cards, Truth, Sneaked
//	take    Seat, Count: a seat takes the pile (as seen)
//	give    Seat (giver), Target [on] (the sneaker), Count, Auto (the clock chose)
//	handed  Seat, Target [on], Cards: which cards changed hands (to those two only)
//	doubt, believe, skip   Seat, No (V15)
//	leave   Count, Cards (when they were turned up): cards leave the game (V15)
//	round   Seat: starts a new round (V15)
//	out     Seat, Place: a seat is out (V8, V15)
//	win     Seat
//	over    Places, Seat (winner, -1 for none) [winner], Hands, Cards (the pile)
//	resume  No: a new host restarted the open window's or hand-over's clock
type Event struct {
	Type    EventType
	To      []int
	Seat    int
	Target  int
	No      int
	Rank    Rank
	Claim   int
	Out     bool
	Truth   bool
	Auto    bool
	Sneaked int
	Place   int
	Count   Count
	Cards   []Card
	Sizes   Sizes
	Counts  []Count
	Places  []int
	Hands   [][]Card
}

// Sizes is how a play changed what the table can count: the player's hand
// and the pile, before and after, as seen (rough under V14).
type Sizes struct {
	HandBefore, HandAfter Count
	PileBefore, PileAfter Count
}

// VisibleTo reports whether seat may see the event. A spectator (seat -1)
// sees only the public ones.
func (e *Event) VisibleTo(seat int) bool {
	if e.To == nil {
		return true
	}
	for _, s := range e.To {
		if s == seat {
			return true
		}
	}
	return false
}

// Public reports whether every seat may see the event.
func (e *Event) Public() bool { return e.To == nil }

// The fields of Event a type may carry, as bits: eventFields names the
// ones each type carries, auditSame compares events by them.
const (
	fSeat = 1 << iota
	fTarget
	fNo
	fRank
	fClaim
	fOut
	fTruth
	fAuto
	fSneaked
	fPlace
	fCount
	fCards
	fSizes
	fCounts
	fPlaces
	fHands
	fAll = 1<<iota - 1
)

// eventField is a field an event type carries, under its key in the
// referee protocol's JSON.
type eventField struct {
	key string
	bit int
}

// eventFields are the fields each event type carries, in the order its
// JSON has them: the one list REFEREE.md's is read against, and what
// the audit compares. A table of constants, which the linker lays out
// as data (a map literal is 8 kB of code in a phone's page).
var eventFields = [...]struct {
	t      EventType
	fields []eventField
}{
	{EventDeal, []eventField{{"dealer", fSeat}, {"first", fTarget}, {"rank", fRank}, {"hands", fCounts}}},
	{EventHand, []eventField{{"seat", fSeat}, {"cards", fCards}}},
	{EventQuads, []eventField{{"seat", fSeat}, {"rank", fRank}, {"cards", fCards}}},
	{EventPlay, []eventField{{"seat", fSeat}, {"no", fNo}, {"rank", fRank}, {"claim", fClaim}, {"out", fOut}, {"sizes", fSizes}}},
	{EventMine, []eventField{{"seat", fSeat}, {"no", fNo}, {"cards", fCards}}},
	{EventResume, []eventField{{"no", fNo}}},
	{EventPass, []eventField{{"seat", fSeat}, {"no", fNo}}},
	{EventDoubt, []eventField{{"seat", fSeat}, {"no", fNo}}},
	{EventBelieve, []eventField{{"seat", fSeat}, {"no", fNo}}},
	{EventSkip, []eventField{{"seat", fSeat}, {"no", fNo}}},
	{EventStand, []eventField{{"seat", fSeat}, {"no", fNo}}},
	{EventCall, []eventField{{"seat", fSeat}, {"on", fTarget}, {"no", fNo}}},
	{EventReveal, []eventField{{"seat", fSeat}, {"no", fNo}, {"rank", fRank}, {"claim", fClaim}, {"cards", fCards}, {"truth", fTruth}, {"sneaked", fSneaked}}},
	{EventTake, []eventField{{"seat", fSeat}, {"count", fCount}}},
	{EventGive, []eventField{{"seat", fSeat}, {"on", fTarget}, {"count", fCount}, {"auto", fAuto}}},
	{EventHanded, []eventField{{"seat", fSeat}, {"on", fTarget}, {"cards", fCards}}},
	{EventLeave, []eventField{{"count", fCount}, {"cards", fCards}}}, // cards only when they were turned up
	{EventRound, []eventField{{"seat", fSeat}}},
	{EventWin, []eventField{{"seat", fSeat}}},
	{EventOut, []eventField{{"seat", fSeat}, {"place", fPlace}}},
	{EventOver, []eventField{{"winner", fSeat}, {"places", fPlaces}, {"hands", fHands}, {"pile", fCards}}},
}

// fieldsOf are the fields events of type t carry (eventFields).
func fieldsOf(t EventType) []eventField {
	for _, e := range eventFields {
		if e.t == t {
			return e.fields
		}
	}
	return nil
}

// MarshalJSON writes the event as the referee protocol does: "type", "to"
// ("all" or a list of seats), then the fields its type carries
// (eventFields).
func (e Event) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 128)
	b = append(b, `{"type":`...)
	b = strconv.AppendQuote(b, string(e.Type))
	b = append(b, `,"to":`...)
	if e.To == nil {
		b = append(b, `"all"`...)
	} else {
		b = appendInts(b, e.To)
	}
	for _, f := range fieldsOf(e.Type) {
		if f.bit == fCards && e.Type == EventLeave && e.Cards == nil {
			continue
		}
		b = append(b, ',', '"')
		b = append(b, f.key...)
		b = append(b, '"', ':')
		b = e.appendField(b, f.bit)
	}
	b = append(b, '}')
	return b, nil
}

// appendField appends the JSON of the field bit names.
func (e *Event) appendField(b []byte, bit int) []byte {
	var v any
	switch bit {
	case fSeat:
		if e.Type == EventOver && e.Seat < 0 {
			return append(b, "null"...) // no winner
		}
		return strconv.AppendInt(b, int64(e.Seat), 10)
	case fTarget:
		return strconv.AppendInt(b, int64(e.Target), 10)
	case fNo:
		return strconv.AppendInt(b, int64(e.No), 10)
	case fClaim:
		return strconv.AppendInt(b, int64(e.Claim), 10)
	case fSneaked:
		return strconv.AppendInt(b, int64(e.Sneaked), 10)
	case fPlace:
		return strconv.AppendInt(b, int64(e.Place), 10)
	case fOut:
		return strconv.AppendBool(b, e.Out)
	case fTruth:
		return strconv.AppendBool(b, e.Truth)
	case fAuto:
		return strconv.AppendBool(b, e.Auto)
	case fRank:
		v = e.Rank
	case fCount:
		v = e.Count
	case fCards:
		v = e.Cards
	case fSizes:
		v = e.Sizes
	case fCounts:
		v = e.Counts
	case fPlaces:
		v = e.Places
	case fHands:
		v = e.Hands
	}
	j, _ := json.Marshal(v)
	return append(b, j...)
}

// MarshalJSON writes the sizes as {"hand":[before,after],"pile":[before,after]}.
func (s Sizes) MarshalJSON() ([]byte, error) {
	return json.Marshal(map[string][2]Count{
		"hand": {s.HandBefore, s.HandAfter},
		"pile": {s.PileBefore, s.PileAfter},
	})
}

func appendInts(b []byte, xs []int) []byte {
	b = append(b, '[')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return append(b, ']')
}

// MarshalJSON writes a rank as in the referee protocol, null for NoRank.
func (r Rank) MarshalJSON() ([]byte, error) {
	if !r.Valid() {
		return []byte("null"), nil
	}
	return []byte(`"` + r.String() + `"`), nil
}

// UnmarshalJSON reads a rank string or null.
func (r *Rank) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*r = NoRank
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, ok := ParseRank(s)
	if !ok {
		return &json.UnmarshalTypeError{Value: s}
	}
	*r = v
	return nil
}

// Seconds is a game time written as seconds in JSON.
type Seconds time.Duration

// MarshalJSON writes seconds with millisecond precision.
func (s Seconds) MarshalJSON() ([]byte, error) {
	ms := time.Duration(s).Milliseconds()
	return strconv.AppendFloat(nil, float64(ms)/1000, 'f', -1, 64), nil
}

// UnmarshalJSON reads seconds.
func (s *Seconds) UnmarshalJSON(b []byte) error {
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return err
	}
	*s = Seconds(time.Duration(f * float64(time.Second)))
	return nil
}
