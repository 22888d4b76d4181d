package gamewire

import (
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/protocol"
)

func WireCount(c engine.Count) protocol.Count {
	return protocol.Count{Lo: int16(c.Lo), Hi: int16(c.Hi)}
}
func EngCount(c protocol.Count) engine.Count { return engine.Count{Lo: int(c.Lo), Hi: int(c.Hi)} }

func WireCards(cs []engine.Card) []protocol.Card {
	if cs == nil {
		return nil
	}
	out := make([]protocol.Card, len(cs))
	for i, c := range cs {
		out[i] = protocol.Card(c)
	}
	return out
}

// EngCards refuses nothing: a card byte out of range becomes a value the
// engine refuses (bad_card), so a peer's garbage is answered, not trusted.
func EngCards(cs []protocol.Card) []engine.Card {
	if cs == nil {
		return nil
	}
	out := make([]engine.Card, len(cs))
	for i, c := range cs {
		out[i] = engine.Card(c)
	}
	return out
}

func WireCounts(cs []engine.Count) []protocol.Count {
	if cs == nil {
		return nil
	}
	out := make([]protocol.Count, len(cs))
	for i, c := range cs {
		out[i] = WireCount(c)
	}
	return out
}

func EngCounts(cs []protocol.Count) []engine.Count {
	if cs == nil {
		return nil
	}
	out := make([]engine.Count, len(cs))
	for i, c := range cs {
		out[i] = EngCount(c)
	}
	return out
}

func WireSizes(s engine.Sizes) protocol.Sizes {
	return protocol.Sizes{HandBefore: WireCount(s.HandBefore), HandAfter: WireCount(s.HandAfter),
		PileBefore: WireCount(s.PileBefore), PileAfter: WireCount(s.PileAfter)}
}

func EngSizes(s protocol.Sizes) engine.Sizes {
	return engine.Sizes{HandBefore: EngCount(s.HandBefore), HandAfter: EngCount(s.HandAfter),
		PileBefore: EngCount(s.PileBefore), PileAfter: EngCount(s.PileAfter)}
}

func WireHands(hs [][]engine.Card) [][]protocol.Card {
	if hs == nil {
		return nil
	}
	out := make([][]protocol.Card, len(hs))
	for i, h := range hs {
		out[i] = WireCards(h)
		if out[i] == nil {
			out[i] = []protocol.Card{}
		}
	}
	return out
}

func EngHands(hs [][]protocol.Card) [][]engine.Card {
	if hs == nil {
		return nil
	}
	out := make([][]engine.Card, len(hs))
	for i, h := range hs {
		out[i] = EngCards(h)
	}
	return out
}

func MS(d time.Duration) int64     { return d.Milliseconds() }
func FromMS(n int64) time.Duration { return time.Duration(n) * time.Millisecond }

// secondsMS is a time the engine keeps as Seconds (written in seconds in
// its JSON) as the wire has it, in ms; msSeconds is the way back.
func secondsMS(d engine.Seconds) int64 { return time.Duration(d).Milliseconds() }
func msSeconds(n int64) engine.Seconds { return engine.Seconds(FromMS(n)) }

func WireEvent(e *engine.Event) protocol.Event {
	return protocol.Event{Type: string(e.Type), Seat: e.Seat, Target: e.Target, No: e.No, Rank: int8(e.Rank), Claim: e.Claim,
		Out: e.Out, Truth: e.Truth, Auto: e.Auto, Sneaked: e.Sneaked, Place: e.Place, Count: WireCount(e.Count),
		Cards: WireCards(e.Cards), Sizes: WireSizes(e.Sizes), Counts: WireCounts(e.Counts), Places: e.Places,
		Hands: WireHands(e.Hands)}
}

func EngEvent(e protocol.Event) engine.Event {
	ev := engine.Event{Type: engine.EventType(e.Type), Seat: e.Seat, Target: e.Target, No: e.No, Rank: engine.Rank(e.Rank), Claim: e.Claim,
		Out: e.Out, Truth: e.Truth, Auto: e.Auto, Sneaked: e.Sneaked, Place: e.Place, Count: EngCount(e.Count),
		Cards: EngCards(e.Cards), Sizes: EngSizes(e.Sizes), Counts: EngCounts(e.Counts), Places: e.Places,
		Hands: EngHands(e.Hands)}
	return ev
}

func WireView(v *engine.View) *protocol.View {
	w := &protocol.View{Seat: v.Seat, Phase: v.Phase.String(), Turn: v.Turn, Rank: int8(v.Rank), No: v.No,
		Hand: WireCards(v.Hand), Hands: WireCounts(v.Hands), Pile: WireCount(v.Pile), NowMS: secondsMS(v.Now),
		Winner: -1, Places: v.Places, Out: v.Gone, Placed: v.Placed, Seen: WireCards(v.Seen), Cap: v.Cap}
	if w.Hand == nil {
		w.Hand = []protocol.Card{}
	}
	for _, r := range v.Ranks {
		w.Ranks = append(w.Ranks, int8(r))
	}
	if v.Last != nil {
		l := v.Last
		w.Last = &protocol.Last{Seat: l.Seat, Rank: int8(l.Rank), Claim: l.Claim, No: l.No, Out: l.Out,
			Cards: WireCards(l.Cards), Sizes: WireSizes(l.Sizes), Shown: l.Shown, Caller: -1}
		if l.Caller != nil {
			w.Last.Caller = *l.Caller
		}
	}
	if v.Window != nil {
		w.Window = &protocol.Window{No: v.Window.No, ClosesMS: secondsMS(v.Window.Closes), Passed: v.Window.Passed,
			Callers: v.Window.Callers}
	}
	if v.Winner != nil {
		w.Winner = *v.Winner
	}
	if v.Give != nil {
		w.Give = &protocol.Owed{From: v.Give.From, To: v.Give.To, Count: v.Give.Count, ClosesMS: secondsMS(v.Give.Closes)}
	}
	if v.Round != nil {
		w.Round = &protocol.Round{Rank: int8(v.Round.Rank), Cards: WireCount(v.Round.Cards), Starter: v.Round.Starter,
			Skips: v.Round.Skips}
	}
	for _, s := range v.Stats {
		w.Stats = append(w.Stats, protocol.Stats{Calls: s.Calls, Right: s.Right, Lies: s.Lies, Caught: s.Caught,
			Sneaks: s.Sneaks, Pickups: s.Pickups})
	}
	if v.Final != nil {
		w.Final = &protocol.Final{Hands: WireHands(v.Final.Hands), Pile: WireCards(v.Final.Pile), Gone: WireCards(v.Final.Gone)}
	}
	return w
}

func EngView(w *protocol.View, rules engine.Rules) engine.View {
	phase := engine.PhasePlay
	for p := engine.PhasePlay; p <= engine.PhaseOver; p++ {
		if p.String() == w.Phase {
			phase = p
		}
	}
	v := engine.View{Seat: w.Seat, Phase: phase, Turn: w.Turn, Rank: engine.Rank(w.Rank), No: w.No,
		Hand: EngCards(w.Hand), Hands: EngCounts(w.Hands), Pile: EngCount(w.Pile), Now: msSeconds(w.NowMS),
		Places: w.Places, Gone: w.Out, Placed: w.Placed, Seen: EngCards(w.Seen), Cap: w.Cap, Rules: rules}
	if v.Hand == nil {
		v.Hand = []engine.Card{}
	}
	for _, r := range w.Ranks {
		v.Ranks = append(v.Ranks, engine.Rank(r))
	}
	if w.Last != nil {
		l := w.Last
		v.Last = &engine.Last{Seat: l.Seat, Rank: engine.Rank(l.Rank), Claim: l.Claim, No: l.No, Out: l.Out,
			Cards: EngCards(l.Cards), Sizes: EngSizes(l.Sizes), Shown: l.Shown}
		if l.Caller >= 0 {
			c := l.Caller
			v.Last.Caller = &c
		}
	}
	if w.Window != nil {
		v.Window = &engine.Window{No: w.Window.No, Closes: msSeconds(w.Window.ClosesMS), Passed: w.Window.Passed,
			Callers: w.Window.Callers}
	}
	if w.Winner >= 0 {
		x := w.Winner
		v.Winner = &x
	}
	if w.Give != nil {
		v.Give = &engine.GiveView{From: w.Give.From, To: w.Give.To, Count: w.Give.Count, Closes: msSeconds(w.Give.ClosesMS)}
	}
	if w.Round != nil {
		v.Round = &engine.RoundView{Rank: engine.Rank(w.Round.Rank), Cards: EngCount(w.Round.Cards),
			Starter: w.Round.Starter, Skips: w.Round.Skips}
	}
	for _, s := range w.Stats {
		v.Stats = append(v.Stats, engine.Stats{Calls: s.Calls, Right: s.Right, Lies: s.Lies, Caught: s.Caught,
			Sneaks: s.Sneaks, Pickups: s.Pickups})
	}
	if w.Final != nil {
		v.Final = &engine.Final{Hands: EngHands(w.Final.Hands), Pile: EngCards(w.Final.Pile), Gone: EngCards(w.Final.Gone)}
	}
	return v
}

// WireMove is a seat's command as a message.
func WireMove(c engine.Command, seat int) protocol.Message {
	switch c.Move {
	case engine.MovePlay:
		return protocol.Play{No: c.No, Seat: seat, Cards: WireCards(c.Cards), Claim: c.Claim, Rank: int8(c.Rank)}
	case engine.MoveCall:
		return protocol.Call{No: c.No, Seat: seat}
	case engine.MovePass:
		return protocol.Pass{No: c.No, Seat: seat}
	case engine.MoveGive:
		return protocol.Give{No: c.No, Seat: seat, Cards: WireCards(c.Cards)}
	case engine.MoveQuads:
		return protocol.Quads{No: c.No, Seat: seat, Cards: WireCards(c.Cards)}
	case engine.MoveDoubt:
		return protocol.Doubt{No: c.No, Seat: seat}
	case engine.MoveBelieve:
		return protocol.Believe{No: c.No, Seat: seat}
	case engine.MoveSkip:
		return protocol.Skip{No: c.No, Seat: seat}
	}
	return nil
}

// EngMove is a move message as the engine's command; ok is false for a
// message that is not a move.
func EngMove(m protocol.Message) (c engine.Command, seat int, ok bool) {
	c.Rank = engine.NoRank
	switch m := m.(type) {
	case protocol.Play:
		c = engine.Command{Move: engine.MovePlay, Cards: EngCards(m.Cards), Claim: m.Claim, Rank: engine.Rank(m.Rank), No: m.No}
		if m.Claim < 0 {
			c.Claim = -1
		}
		// A play's No is the last play its sender saw: the engine doesn't
		// need it, but the seat's signature names it (movesig.go).
		return c, m.Seat, true
	case protocol.Call:
		return engine.Command{Move: engine.MoveCall, No: m.No, Rank: engine.NoRank}, m.Seat, true
	case protocol.Pass:
		return engine.Command{Move: engine.MovePass, No: m.No, Rank: engine.NoRank}, m.Seat, true
	case protocol.Give:
		return engine.Command{Move: engine.MoveGive, Cards: EngCards(m.Cards), Rank: engine.NoRank, No: m.No}, m.Seat, true
	case protocol.Quads:
		return engine.Command{Move: engine.MoveQuads, Cards: EngCards(m.Cards), Rank: engine.NoRank, No: m.No}, m.Seat, true
	case protocol.Doubt:
		return engine.Command{Move: engine.MoveDoubt, No: m.No, Rank: engine.NoRank}, m.Seat, true
	case protocol.Believe:
		return engine.Command{Move: engine.MoveBelieve, No: m.No, Rank: engine.NoRank}, m.Seat, true
	case protocol.Skip:
		return engine.Command{Move: engine.MoveSkip, No: m.No, Rank: engine.NoRank}, m.Seat, true
	}
	return c, 0, false
}
