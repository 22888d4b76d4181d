package node

import (
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/protocol"
)

// The protocol keeps its own plain wire types; these convert between them
// and the engine's.

func wireCount(c engine.Count) protocol.Count {
	return protocol.Count{Lo: int16(c.Lo), Hi: int16(c.Hi)}
}
func engCount(c protocol.Count) engine.Count { return engine.Count{Lo: int(c.Lo), Hi: int(c.Hi)} }

func wireCards(cs []engine.Card) []protocol.Card {
	if cs == nil {
		return nil
	}
	out := make([]protocol.Card, len(cs))
	for i, c := range cs {
		out[i] = protocol.Card(c)
	}
	return out
}

// engCards refuses nothing: a card byte out of range becomes a value the
// engine refuses (bad_card), so a peer's garbage is answered, not trusted.
func engCards(cs []protocol.Card) []engine.Card {
	if cs == nil {
		return nil
	}
	out := make([]engine.Card, len(cs))
	for i, c := range cs {
		out[i] = engine.Card(c)
	}
	return out
}

func wireCounts(cs []engine.Count) []protocol.Count {
	if cs == nil {
		return nil
	}
	out := make([]protocol.Count, len(cs))
	for i, c := range cs {
		out[i] = wireCount(c)
	}
	return out
}

func engCounts(cs []protocol.Count) []engine.Count {
	if cs == nil {
		return nil
	}
	out := make([]engine.Count, len(cs))
	for i, c := range cs {
		out[i] = engCount(c)
	}
	return out
}

func wireSizes(s engine.Sizes) protocol.Sizes {
	return protocol.Sizes{HandBefore: wireCount(s.HandBefore), HandAfter: wireCount(s.HandAfter),
		PileBefore: wireCount(s.PileBefore), PileAfter: wireCount(s.PileAfter)}
}

func engSizes(s protocol.Sizes) engine.Sizes {
	return engine.Sizes{HandBefore: engCount(s.HandBefore), HandAfter: engCount(s.HandAfter),
		PileBefore: engCount(s.PileBefore), PileAfter: engCount(s.PileAfter)}
}

func wireHands(hs [][]engine.Card) [][]protocol.Card {
	if hs == nil {
		return nil
	}
	out := make([][]protocol.Card, len(hs))
	for i, h := range hs {
		out[i] = wireCards(h)
		if out[i] == nil {
			out[i] = []protocol.Card{}
		}
	}
	return out
}

func engHands(hs [][]protocol.Card) [][]engine.Card {
	if hs == nil {
		return nil
	}
	out := make([][]engine.Card, len(hs))
	for i, h := range hs {
		out[i] = engCards(h)
	}
	return out
}

// engRefusal is the host's "no" as the engine's: the code as it came (the
// engine's and the protocol's codes are one set, refusal_test.go), the
// sentence cleaned for a screen.
func engRefusal(m protocol.Refusal) *engine.Refusal {
	return &engine.Refusal{Code: engine.Code(m.Code), Msg: protocol.Clean(m.Message, protocol.MaxText)}
}

func ms(d time.Duration) int64        { return d.Milliseconds() }
func fromMS(n int64) time.Duration    { return time.Duration(n) * time.Millisecond }
func secs(d engine.Seconds) int64     { return time.Duration(d).Milliseconds() }
func fromSecs(n int64) engine.Seconds { return engine.Seconds(fromMS(n)) }

func wireEvent(e *engine.Event) protocol.Event {
	return protocol.Event{Type: e.Type, Seat: e.Seat, Target: e.Target, No: e.No, Rank: int8(e.Rank), Claim: e.Claim,
		Out: e.Out, Truth: e.Truth, Auto: e.Auto, Sneaked: e.Sneaked, Place: e.Place, Count: wireCount(e.Count),
		Cards: wireCards(e.Cards), Sizes: wireSizes(e.Sizes), Counts: wireCounts(e.Counts), Places: e.Places,
		Hands: wireHands(e.Hands)}
}

func engEvent(e protocol.Event) engine.Event {
	ev := engine.Event{Type: e.Type, Seat: e.Seat, Target: e.Target, No: e.No, Rank: engine.Rank(e.Rank), Claim: e.Claim,
		Out: e.Out, Truth: e.Truth, Auto: e.Auto, Sneaked: e.Sneaked, Place: e.Place, Count: engCount(e.Count),
		Cards: engCards(e.Cards), Sizes: engSizes(e.Sizes), Counts: engCounts(e.Counts), Places: e.Places,
		Hands: engHands(e.Hands)}
	return ev
}

func wireView(v *engine.View) *protocol.View {
	w := &protocol.View{Seat: v.Seat, Phase: v.Phase.String(), Turn: v.Turn, Rank: int8(v.Rank), No: v.No,
		Hand: wireCards(v.Hand), Hands: wireCounts(v.Hands), Pile: wireCount(v.Pile), Now: secs(v.Now),
		Winner: -1, Places: v.Places, Out: v.Gone, Placed: v.Placed, Seen: wireCards(v.Seen), Cap: v.Cap}
	if w.Hand == nil {
		w.Hand = []protocol.Card{}
	}
	for _, r := range v.Ranks {
		w.Ranks = append(w.Ranks, int8(r))
	}
	if v.Last != nil {
		l := v.Last
		w.Last = &protocol.Last{Seat: l.Seat, Rank: int8(l.Rank), Claim: l.Claim, No: l.No, Out: l.Out,
			Cards: wireCards(l.Cards), Sizes: wireSizes(l.Sizes), Shown: l.Shown, Caller: -1}
		if l.Caller != nil {
			w.Last.Caller = *l.Caller
		}
	}
	if v.Window != nil {
		w.Window = &protocol.Window{No: v.Window.No, Closes: secs(v.Window.Closes), Passed: v.Window.Passed,
			Callers: v.Window.Callers}
	}
	if v.Winner != nil {
		w.Winner = *v.Winner
	}
	if v.Give != nil {
		w.Give = &protocol.Owed{From: v.Give.From, To: v.Give.To, Count: v.Give.Count, Closes: secs(v.Give.Closes)}
	}
	if v.Round != nil {
		w.Round = &protocol.Round{Rank: int8(v.Round.Rank), Cards: wireCount(v.Round.Cards), Starter: v.Round.Starter,
			Skips: v.Round.Skips}
	}
	for _, s := range v.Stats {
		w.Stats = append(w.Stats, protocol.Stats{Calls: s.Calls, Right: s.Right, Lies: s.Lies, Caught: s.Caught,
			Sneaks: s.Sneaks, Pickups: s.Pickups})
	}
	if v.Final != nil {
		w.Final = &protocol.Final{Hands: wireHands(v.Final.Hands), Pile: wireCards(v.Final.Pile), Gone: wireCards(v.Final.Gone)}
	}
	return w
}

func engView(w *protocol.View, rules engine.Rules) engine.View {
	phase := engine.PhasePlay
	for p := engine.PhasePlay; p <= engine.PhaseOver; p++ {
		if p.String() == w.Phase {
			phase = p
		}
	}
	v := engine.View{Seat: w.Seat, Phase: phase, Turn: w.Turn, Rank: engine.Rank(w.Rank), No: w.No,
		Hand: engCards(w.Hand), Hands: engCounts(w.Hands), Pile: engCount(w.Pile), Now: fromSecs(w.Now),
		Places: w.Places, Gone: w.Out, Placed: w.Placed, Seen: engCards(w.Seen), Cap: w.Cap, Rules: rules}
	if v.Hand == nil {
		v.Hand = []engine.Card{}
	}
	for _, r := range w.Ranks {
		v.Ranks = append(v.Ranks, engine.Rank(r))
	}
	if w.Last != nil {
		l := w.Last
		v.Last = &engine.Last{Seat: l.Seat, Rank: engine.Rank(l.Rank), Claim: l.Claim, No: l.No, Out: l.Out,
			Cards: engCards(l.Cards), Sizes: engSizes(l.Sizes), Shown: l.Shown}
		if l.Caller >= 0 {
			c := l.Caller
			v.Last.Caller = &c
		}
	}
	if w.Window != nil {
		v.Window = &engine.Window{No: w.Window.No, Closes: fromSecs(w.Window.Closes), Passed: w.Window.Passed,
			Callers: w.Window.Callers}
	}
	if w.Winner >= 0 {
		x := w.Winner
		v.Winner = &x
	}
	if w.Give != nil {
		v.Give = &engine.GiveView{From: w.Give.From, To: w.Give.To, Count: w.Give.Count, Closes: fromSecs(w.Give.Closes)}
	}
	if w.Round != nil {
		v.Round = &engine.RoundView{Rank: engine.Rank(w.Round.Rank), Cards: engCount(w.Round.Cards),
			Starter: w.Round.Starter, Skips: w.Round.Skips}
	}
	for _, s := range w.Stats {
		v.Stats = append(v.Stats, engine.Stats{Calls: s.Calls, Right: s.Right, Lies: s.Lies, Caught: s.Caught,
			Sneaks: s.Sneaks, Pickups: s.Pickups})
	}
	if w.Final != nil {
		v.Final = &engine.Final{Hands: engHands(w.Final.Hands), Pile: engCards(w.Final.Pile), Gone: engCards(w.Final.Gone)}
	}
	return v
}

// wireMove is a seat's command as a message.
func wireMove(c engine.Command, seat int) protocol.Message {
	switch c.Move {
	case engine.MovePlay:
		return protocol.Play{No: c.No, Seat: seat, Cards: wireCards(c.Cards), Claim: c.Claim, Rank: int8(c.Rank)}
	case engine.MoveCall:
		return protocol.Call{No: c.No, Seat: seat}
	case engine.MovePass:
		return protocol.Pass{No: c.No, Seat: seat}
	case engine.MoveGive:
		return protocol.Give{No: c.No, Seat: seat, Cards: wireCards(c.Cards)}
	case engine.MoveQuads:
		return protocol.Quads{No: c.No, Seat: seat, Cards: wireCards(c.Cards)}
	case engine.MoveDoubt:
		return protocol.Doubt{No: c.No, Seat: seat}
	case engine.MoveBelieve:
		return protocol.Believe{No: c.No, Seat: seat}
	case engine.MoveSkip:
		return protocol.Skip{No: c.No, Seat: seat}
	}
	return nil
}

// engMove is a move message as the engine's command; ok is false for a
// message that is not a move.
func engMove(m protocol.Message) (c engine.Command, seat int, ok bool) {
	c.Rank = engine.NoRank
	switch m := m.(type) {
	case protocol.Play:
		c = engine.Command{Move: engine.MovePlay, Cards: engCards(m.Cards), Claim: m.Claim, Rank: engine.Rank(m.Rank)}
		if m.Claim < 0 {
			c.Claim = -1
		}
		// A play's No is the last play its sender saw; the engine doesn't need it.
		return c, m.Seat, true
	case protocol.Call:
		return engine.Command{Move: engine.MoveCall, No: m.No, Rank: engine.NoRank}, m.Seat, true
	case protocol.Pass:
		return engine.Command{Move: engine.MovePass, No: m.No, Rank: engine.NoRank}, m.Seat, true
	case protocol.Give:
		return engine.Command{Move: engine.MoveGive, Cards: engCards(m.Cards), Rank: engine.NoRank}, m.Seat, true
	case protocol.Quads:
		return engine.Command{Move: engine.MoveQuads, Cards: engCards(m.Cards), Rank: engine.NoRank}, m.Seat, true
	case protocol.Doubt:
		return engine.Command{Move: engine.MoveDoubt, No: m.No, Rank: engine.NoRank}, m.Seat, true
	case protocol.Believe:
		return engine.Command{Move: engine.MoveBelieve, No: m.No, Rank: engine.NoRank}, m.Seat, true
	case protocol.Skip:
		return engine.Command{Move: engine.MoveSkip, No: m.No, Rank: engine.NoRank}, m.Seat, true
	}
	return c, 0, false
}
