package engine

import (
	"fmt"
	"slices"
	"strings"
)

// The audit is the end of a game's fairness protocol. Before the deal the
// host commits to the seed; at the end it reveals the seed and the whole
// step log, cards and times included. Every node then replays the game on
// its own engine and holds the replay against what it was actually shown:
// a host that re-dealt, turned up other cards than were played, gave a
// wrong verdict or handed the pile to the wrong seat told that seat
// something the replay does not, and the audit names the first few places
// where the stories part. Checking the commitment against the seed is the
// node's (it holds the signed commitment); the audit takes the revealed
// Config as the committed one.

// AuditLimit is how many differences between what a seat was shown and
// the replay the audit spells out before it only counts the rest.
const AuditLimit = 5

// Audit replays cfg and steps and checks them against received, the events
// seat was delivered during the game (public ones and its own private
// ones), in order; seat -1 is a spectator, who received the public events
// only. It returns what did not match, as sentences a player can read, or
// nil when the game verifies.
//
// Besides the one-by-one comparison, it checks that the deal was left to
// the seed (no fixed hands or first seat), that the steps run forward in
// time, that the engine accepts every step, and, from the step log alone,
// that every turned-up play shows the cards that were placed, that every
// verdict follows from them (R10, V7, V12, V14) and that the pile went to
// the seat the verdict names.
func Audit(cfg Config, steps []Step, seat int, received []Event) []string {
	var out []string
	if seat < -1 || seat >= cfg.Seats {
		return []string{fmt.Sprintf("seat %d is not at this table of %d: there is nothing to check it against.", seat, cfg.Seats)}
	}
	if cfg.Hands != nil {
		out = append(out, "the revealed game deals fixed hands: the deal was not left to the committed seed.")
	}
	if cfg.First != nil {
		out = append(out, fmt.Sprintf("the revealed game names seat %d to play first: the deal was not left to the committed seed.", *cfg.First))
	}
	for i := 1; i < len(steps); i++ {
		if steps[i].At < steps[i-1].At {
			out = append(out, fmt.Sprintf("step %d is dated %v, before step %d at %v: a game's log runs forward in time.",
				i, steps[i].At, i-1, steps[i-1].At))
			break
		}
	}
	_, batches, err := Replay(cfg, steps)
	if err != nil {
		re, ok := err.(*ReplayError)
		if !ok || re.Step < 0 || re.Step >= len(steps) {
			return append(out, fmt.Sprintf("the revealed game can't be dealt: %v", err))
		}
		// What the seat was shown before the broken step still tells
		// where the stories part; after it there is no replay to hold
		// anything against.
		out = append(out, auditVerdicts(steps, batches)...)
		out = append(out, auditSeen(batches, seat, received, true)...)
		return append(out, fmt.Sprintf("step %d, %s, breaks the rules (%s): the log is not a game that could have been played.",
			re.Step, auditCommand(steps[re.Step].Cmd), strings.TrimSuffix(re.Err.Error(), ".")))
	}
	out = append(out, auditVerdicts(steps, batches)...)
	seen := auditSeen(batches, seat, received, false)
	if cut, ok := auditCut(steps, batches); ok && len(seen) > 0 {
		// A game the host ended while its last call's play was being
		// turned up (a blind table waits for its player's node to open
		// it): the seat was shown the call and nothing after it.
		if len(auditSeen(cut, seat, received, false)) == 0 {
			seen = nil
		}
	}
	return append(out, seen...)
}

// auditCut is the replay's events cut just after the call, doubt or
// believe of the log's last command, when there is one: what a seat was
// shown of a game that ended before that play was turned up.
func auditCut(steps []Step, batches [][]Event) ([][]Event, bool) {
	i := len(steps) - 1
	for i >= 0 && steps[i].Cmd == nil {
		i--
	}
	if i < 0 || i+1 >= len(batches) {
		return nil, false
	}
	var t EventType
	switch steps[i].Cmd.Move {
	case MoveCall:
		t = EventCall
	case MoveDoubt:
		t = EventDoubt
	case MoveBelieve:
		t = EventBelieve
	default:
		return nil, false
	}
	b := batches[i+1]
	for j := range b {
		if b[j].Type == t {
			cut := append(batches[:i+1:i+1], b[:j+1])
			return cut, true
		}
	}
	return nil, false
}

// auditSeen compares, one by one, the events seat received with the
// replay's events that seat may see. A partial replay (cut short by a
// broken step) checks only the events it has.
func auditSeen(batches [][]Event, seat int, received []Event, partial bool) []string {
	var want []Event
	var where []string // where[i] names the moment of want[i]
	no := 0
	for _, b := range batches {
		for i := range b {
			e := &b[i]
			if e.No > 0 {
				no = e.No
			}
			if !auditVisible(e, seat) {
				continue
			}
			want = append(want, *e)
			where = append(where, auditWhere(e, no))
		}
	}
	var out []string
	extra := 0
	report := func(s string) {
		if len(out) < AuditLimit {
			out = append(out, s)
		} else {
			extra++
		}
	}
	before := func(j int) string { // the moment just before want[j]
		if j == 0 {
			return "the deal"
		}
		return where[j-1]
	}
	// One by one, but a single event too many or too few is stepped over,
	// so one inserted or dropped event doesn't make every later one a
	// difference.
	i, j := 0, 0
	for i < len(received) && j < len(want) {
		switch {
		case auditSame(&received[i], &want[j]):
			i, j = i+1, j+1
		case i+1 < len(received) && auditSame(&received[i+1], &want[j]):
			report(fmt.Sprintf("%s: you received %s, which the replay never announces to you.", before(j), auditDescribe(&received[i])))
			i++
		case j+1 < len(want) && auditSame(&received[i], &want[j+1]):
			report(fmt.Sprintf("%s: you never received %s.", where[j], auditDescribe(&want[j])))
			j++
		default:
			report(where[j] + ": " + auditDiff(&received[i], &want[j]))
			i, j = i+1, j+1
		}
	}
	if extra > 0 {
		out = append(out, fmt.Sprintf("… and %d more difference(s).", extra))
	}
	switch {
	case partial:
	case j < len(want):
		out = append(out, fmt.Sprintf("%s: you never received %s, nor the %d event(s) after it that the replay announces to you.",
			where[j], auditDescribe(&want[j]), len(want)-j-1))
	case i < len(received):
		out = append(out, fmt.Sprintf("%s: you received %s and %d more event(s) that the replay never announces to you.",
			"after "+before(j), auditDescribe(&received[i]), len(received)-i-1))
	}
	return out
}

func auditVisible(e *Event, seat int) bool {
	if seat < 0 {
		return e.Public()
	}
	return e.VisibleTo(seat)
}

// auditWhere names the moment of an event for a sentence: "the deal",
// "play 12", "the end".
func auditWhere(e *Event, no int) string {
	switch {
	case e.Type == EventOver:
		return "the end"
	case no == 0:
		return "the deal"
	}
	return fmt.Sprintf("play %d", no)
}

// auditFields are the fields of each event type that auditSame compares:
// the ones its JSON carries (eventFields). Fields a type does not use are
// ignored, so a wire format that drops them can't fail an honest game.
func auditFields(t EventType) int {
	fs := fieldsOf(t)
	if fs == nil {
		return fAll
	}
	bits := 0
	for _, f := range fs {
		bits |= f.bit
	}
	return bits
}

// auditSame reports whether a and b announce the same thing. The audience
// (To) is not compared: that the seat received the event is the point.
// Cards compare in order: the engine announces cards in a fixed order
// (sorted hands, a play's cards as placed), so a reordering is a different
// story too.
func auditSame(a, b *Event) bool {
	if a.Type != b.Type {
		return false
	}
	f := auditFields(a.Type)
	return (f&fSeat == 0 || a.Seat == b.Seat) &&
		(f&fTarget == 0 || a.Target == b.Target) &&
		(f&fNo == 0 || a.No == b.No) &&
		(f&fRank == 0 || a.Rank == b.Rank) &&
		(f&fClaim == 0 || a.Claim == b.Claim) &&
		(f&fOut == 0 || a.Out == b.Out) &&
		(f&fTruth == 0 || a.Truth == b.Truth) &&
		(f&fAuto == 0 || a.Auto == b.Auto) &&
		(f&fSneaked == 0 || a.Sneaked == b.Sneaked) &&
		(f&fPlace == 0 || a.Place == b.Place) &&
		(f&fCount == 0 || a.Count == b.Count) &&
		(f&fCards == 0 || slices.Equal(a.Cards, b.Cards)) &&
		(f&fSizes == 0 || a.Sizes == b.Sizes) &&
		(f&fCounts == 0 || slices.Equal(a.Counts, b.Counts)) &&
		(f&fPlaces == 0 || slices.Equal(a.Places, b.Places)) &&
		(f&fHands == 0 || slices.EqualFunc(a.Hands, b.Hands, slices.Equal[[]Card]))
}

// auditDiff says how what the seat was shown (got) differs from the
// replay (want), the differences a cheating host would make first.
func auditDiff(got, want *Event) string {
	if got.Type == want.Type {
		switch got.Type {
		case EventHand:
			if got.Seat == want.Seat {
				return fmt.Sprintf("your dealt hand differs from the committed deal: you were dealt %s, the seed deals %s.",
					auditCards(got.Cards), auditCards(want.Cards))
			}
		case EventReveal:
			if !slices.Equal(got.Cards, want.Cards) {
				return fmt.Sprintf("you were shown a reveal of %s, the replay turned up %s.", auditCards(got.Cards), auditCards(want.Cards))
			}
			if got.Truth != want.Truth {
				return fmt.Sprintf("you were told seat %d's claim was %s, the replay finds it %s.",
					want.Seat, auditTruth(got.Truth), auditTruth(want.Truth))
			}
		case EventTake:
			if got.Seat != want.Seat {
				return fmt.Sprintf("you were told seat %d took the pile, the replay gives it to seat %d.", got.Seat, want.Seat)
			}
		case EventMine:
			if !slices.Equal(got.Cards, want.Cards) {
				return fmt.Sprintf("your own play was shown to you as %s, the log says you placed %s.",
					auditCards(got.Cards), auditCards(want.Cards))
			}
		case EventHanded:
			if !slices.Equal(got.Cards, want.Cards) {
				return fmt.Sprintf("the hand-over was shown to you as %s, the replay hands over %s.",
					auditCards(got.Cards), auditCards(want.Cards))
			}
		case EventOver:
			if !slices.EqualFunc(got.Hands, want.Hands, slices.Equal[[]Card]) || !slices.Equal(got.Cards, want.Cards) {
				return "the cards shown at the end differ from the replay's: " + auditDescribe(got) + " against " + auditDescribe(want) + "."
			}
		}
	}
	return "you were shown " + auditDescribe(got) + ", the replay has " + auditDescribe(want) + "."
}

func auditTruth(t bool) string {
	if t {
		return "true"
	}
	return "a lie"
}

// auditDescribe is an event in a few words.
func auditDescribe(e *Event) string {
	switch e.Type {
	case EventDeal:
		return fmt.Sprintf("a deal by seat %d with seat %d to play first and hands of %s", e.Seat, e.Target, auditCounts(e.Counts))
	case EventHand:
		return fmt.Sprintf("seat %d dealt %s", e.Seat, auditCards(e.Cards))
	case EventQuads:
		return fmt.Sprintf("seat %d laying out %s", e.Seat, auditCards(e.Cards))
	case EventPlay:
		return fmt.Sprintf("seat %d claiming %d × %s (play %d)", e.Seat, e.Claim, e.Rank, e.No)
	case EventMine:
		return fmt.Sprintf("your play %d of %s", e.No, auditCards(e.Cards))
	case EventPass:
		return fmt.Sprintf("seat %d letting play %d go", e.Seat, e.No)
	case EventCall:
		return fmt.Sprintf("seat %d calling play %d by seat %d", e.Seat, e.No, e.Target)
	case EventStand:
		return fmt.Sprintf("play %d by seat %d standing uncalled", e.No, e.Seat)
	case EventReveal:
		return fmt.Sprintf("a reveal of %s for %d × %s, %s", auditCards(e.Cards), e.Claim, e.Rank, auditTruth(e.Truth))
	case EventTake:
		return fmt.Sprintf("seat %d taking the pile (%s cards)", e.Seat, e.Count)
	case EventGive:
		return fmt.Sprintf("seat %d handing seat %d %s card(s)", e.Seat, e.Target, e.Count)
	case EventHanded:
		return fmt.Sprintf("seat %d handing seat %d %s", e.Seat, e.Target, auditCards(e.Cards))
	case EventDoubt, EventBelieve, EventSkip:
		return fmt.Sprintf("seat %d's %s on play %d", e.Seat, e.Type, e.No)
	case EventLeave:
		return fmt.Sprintf("%s card(s) leaving the game", e.Count)
	case EventRound:
		return fmt.Sprintf("seat %d starting a round", e.Seat)
	case EventOut:
		return fmt.Sprintf("seat %d out in place %d", e.Seat, e.Place)
	case EventWin:
		return fmt.Sprintf("seat %d winning", e.Seat)
	case EventOver:
		hands := make([]string, len(e.Hands))
		for i, h := range e.Hands {
			hands[i] = auditCards(h)
		}
		return fmt.Sprintf("the end with places %v, hands %s and pile %s", e.Places, strings.Join(hands, " "), auditCards(e.Cards))
	}
	return fmt.Sprintf("a %q event", e.Type)
}

func auditCards(cs []Card) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, c := range cs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(c.String())
	}
	b.WriteByte(']')
	return b.String()
}

func auditCounts(cs []Count) string {
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = c.String()
	}
	return "[" + strings.Join(s, " ") + "]"
}

func auditCommand(c *Command) string {
	if c == nil {
		return "a tick"
	}
	switch c.Move {
	case MovePlay, MoveGive, MoveQuads:
		return fmt.Sprintf("seat %d's %s of %s", c.Seat, c.Move, auditCards(c.Cards))
	}
	return fmt.Sprintf("seat %d's %s", c.Seat, c.Move)
}

// auditVerdicts checks every showdown of the replay against the step log
// and the rules as written, apart from the engine's own bookkeeping: the
// cards turned up are the cards the play placed, the verdict is what
// those cards say, and the pile goes where the verdict sends it.
func auditVerdicts(steps []Step, batches [][]Event) []string {
	type placed struct {
		seat  int
		cards []Card
	}
	plays := map[int]placed{}
	forfeit := map[int]bool{} // plays their player forfeited (R10b)
	var out []string
	bad := func(format string, args ...any) {
		if len(out) < AuditLimit {
			out = append(out, fmt.Sprintf(format, args...))
		}
	}
	// batches[0] is the deal; batches[i+1] are steps[i]'s events.
	for i := 1; i < len(batches) && i <= len(steps); i++ {
		cmd := steps[i-1].Cmd
		b := batches[i]
		if cmd != nil && cmd.Move == MoveForfeit {
			forfeit[cmd.No] = true
		}
		for j := range b {
			e := &b[j]
			switch e.Type {
			case EventPlay:
				if cmd != nil && cmd.Move == MovePlay && cmd.Seat == e.Seat {
					plays[e.No] = placed{e.Seat, cmd.Cards}
				}
			case EventReveal:
				p, ok := plays[e.No]
				if !ok || p.seat != e.Seat {
					bad("play %d: a reveal turned up a play the log never made.", e.No)
					continue
				}
				if !slices.Equal(e.Cards, p.cards) {
					bad("play %d: the reveal turned up %s, the log says seat %d placed %s.", e.No, auditCards(e.Cards), p.seat, auditCards(p.cards))
				}
				truth := Truth(p.cards, e.Claim, e.Rank, e.Sneaked)
				if forfeit[e.No] {
					truth = auditBelieved(b[:j], e)
				}
				if truth != e.Truth {
					bad("play %d: %s for a claim of %d × %s was judged %s; the rules make it %s.",
						e.No, auditCards(p.cards), e.Claim, e.Rank, auditTruth(e.Truth), auditTruth(truth))
				}
				if taker, ok := auditTaker(b[:j], e, truth); ok {
					if t := auditNextTake(b[j+1:]); t >= 0 && t != taker {
						bad("play %d: seat %d took the pile, but the verdict gives it to seat %d.", e.No, t, taker)
					}
				}
			}
		}
	}
	return out
}

// auditTaker is who must take the pile after reveal r, given the truth
// of the claim, found from what turned it up: a call or a doubt sends it
// to the caller when the claim was true and to the player when it was a
// lie; a believe that finds a lie gives it to the believer (V15). ok is
// false when no one takes it.
func auditTaker(before []Event, r *Event, truth bool) (int, bool) {
	for k := len(before) - 1; k >= 0; k-- {
		e := &before[k]
		if e.No != r.No {
			continue
		}
		switch e.Type {
		case EventCall, EventDoubt:
			if truth {
				return e.Seat, true
			}
			return r.Seat, true
		case EventBelieve:
			if truth {
				return 0, false // the round leaves the game
			}
			return e.Seat, true
		}
	}
	return 0, false
}

// auditBelieved reports whether reveal r was a believe's: a forfeited
// play is judged the truth then, a lie when called or doubted (R10b).
func auditBelieved(before []Event, r *Event) bool {
	for k := len(before) - 1; k >= 0; k-- {
		if e := &before[k]; e.No == r.No && (e.Type == EventCall || e.Type == EventDoubt || e.Type == EventBelieve) {
			return e.Type == EventBelieve
		}
	}
	return false
}

// auditNextTake is the seat of the first take in events, -1 if none.
func auditNextTake(events []Event) int {
	for _, e := range events {
		if e.Type == EventTake {
			return e.Seat
		}
		if e.Type == EventReveal {
			break
		}
	}
	return -1
}
