package engine

// goOut is a seat emptying its hand for good: the winner (R12, R13), or
// under V8 the next place, the game going on until one seat is left.
func (g *Game) goOut(seat int) {
	g.nOut++
	g.placed[seat] = g.nOut
	if g.winner < 0 {
		g.winner = seat
		g.emit(Event{Type: EventWin, Seat: seat})
	}
	if g.rules.Places {
		g.emit(Event{Type: EventOut, Seat: seat, Place: g.nOut})
		if g.in() > 1 {
			return
		}
	}
	g.end()
}

// end places every seat and ends the game (R13, R14, V8). Seats already out
// keep their places; the rest are placed after them by cards left, fewest
// first, ties sharing a place.
func (g *Game) end() {
	g.phase = PhaseOver
	g.win.open = false
	g.places = make([]int, g.n)
	copy(g.places, g.placed)
	for s := range g.n {
		if g.places[s] != 0 {
			continue
		}
		better := 0
		for t := range g.n {
			if g.placed[t] == 0 && len(g.hands[t]) < len(g.hands[s]) {
				better++
			}
		}
		g.places[s] = g.nOut + 1 + better
	}
	if g.winner < 0 {
		// The safety net (R14): first place wins, unless it is shared.
		first := -1
		for s, p := range g.places {
			if p == 1 {
				if first >= 0 {
					first = -1
					break
				}
				first = s
			}
		}
		g.winner = first
	}
	hands := make([][]Card, g.n)
	for s, h := range g.hands {
		hands[s] = append([]Card{}, h...)
	}
	g.emit(Event{Type: EventOver, Seat: g.winner, Places: append([]int(nil), g.places...), Hands: hands,
		Cards: append([]Card{}, g.pile...)})
}
