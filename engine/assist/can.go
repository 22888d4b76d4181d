package assist

import (
	"slices"

	"github.com/bullshit-game/bullshit/engine"
)

// Can is what a seat may do now, as far as its view tells.
type Can struct {
	Play   bool // a play (its turn; or rapid play over a window, V13)
	Call   bool // call or let go the open window
	Judge  bool // doubt, believe or skip (V15)
	Give   bool // hand over a card (V14)
	Quads  bool // lay out four of a kind (V9)
	Choose bool // name the rank to claim (V1, V4, V15's starter)
	Ranks  []engine.Rank
}

// Now is what seat me may do with view v; nothing for a spectator (me
// -1), a seat that is out or a game that is over.
func Now(v *engine.View, me int) Can {
	var c Can
	if v == nil || me < 0 || v.Phase == engine.PhaseOver || Out(v, me) {
		return c
	}
	myTurn := v.Turn == me
	switch v.Phase {
	case engine.PhasePlay:
		c.Play = myTurn && len(v.Hand) > 0
		c.Judge = myTurn && v.Rules.Doubt && v.Round != nil && v.Last != nil && v.No > 0 && v.Last.Seat != me
		c.Quads = myTurn && v.Rules.Quads && len(v.Hand) > 4 && len(QuadsIn(v.Hand, v.Rules)) > 0
	case engine.PhaseCall:
		c.Call = v.Window != nil && slices.Contains(v.Window.Callers, me)
		c.Play = myTurn && v.Rules.Rapid && v.Last != nil && !v.Last.Out && len(v.Hand) > 0
	case engine.PhaseGive:
		c.Give = v.Give != nil && v.Give.From == me
	}
	if c.Play {
		switch {
		case len(v.Ranks) > 0:
			c.Choose, c.Ranks = true, v.Ranks
		case !v.Rank.Valid():
			c.Choose, c.Ranks = true, AllRanks()
		}
	}
	return c
}
