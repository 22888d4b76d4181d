package table

import (
	"fmt"
	"strings"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/assist"
	"github.com/bullshit-game/bullshit/protocol"
)

// Evening is a table's running score across the games dealt at the same
// seats ("new game with the same seats"): games played, and each player's
// games, wins, places and points. It rides in TableState, so every player
// has it, and a new host elected from among them carries it on.
//
// Points: in a game of n seats, first place scores n−1 and last 0; seats
// that share a place share the points of the places they cover (two
// sharing first of four score (3+2)/2 = 2½ each). They are kept in
// halves, which any tie comes out in exactly.
//
// A game the host ended early isn't counted.
type Evening struct {
	Games int           // finished games counted
	Last  [32]byte      // the commitment of the last game counted: never counted twice
	Lines []EveningLine // one a player, in the order they first finished a game
}

// EveningLine is one player's evening.
type EveningLine struct {
	// Key tells players apart across games: "peer:ID" for a person,
	// "bot:SEAT:NAME" for a bot (seat from 0), "seat:SEAT" for a person
	// known by no peer ID (a table on one machine).
	Key    string
	Name   string // the name last shown
	Bot    string // the bot's level, "" for a person
	Games  int
	Wins   int
	Halves int   // points, in halves
	Places []int // the places of the last EveningPlaces games, oldest first
}

// Bounds on an evening, so a long one stays small on the wire.
const (
	EveningLines  = 40 // players kept (the oldest who played least go first)
	EveningPlaces = 12 // places kept a line
)

// Points is the line's points as a player reads them: "7", "4½".
func (l EveningLine) Points() string { return assist.HalvesText(l.Halves) }

// PlaceHalves is the points, in halves, that place p (1 first, ties
// sharing it as engine.View.Places has them) scores at a table of the
// given places.
func PlaceHalves(places []int, p int) int {
	n, k := len(places), 0
	for _, q := range places {
		if q == p {
			k++
		}
	}
	if p < 1 || k == 0 {
		return 0
	}
	// The k tied seats cover places p … p+k−1, worth n−p … n−p−k+1.
	return 2*(n-p) - (k - 1)
}

// SeatKey is the evening's key for a seat as the table shows it.
func SeatKey(i int, s SeatInfo) string {
	switch {
	case s.Bot != "":
		return fmt.Sprintf("bot:%d:%s", i, strings.ToLower(s.Bot))
	case s.Peer != "":
		return "peer:" + s.Peer
	}
	return fmt.Sprintf("seat:%d", i)
}

// Clone is a copy that shares nothing with e.
func (e Evening) Clone() Evening {
	c := e
	c.Lines = make([]EveningLine, len(e.Lines))
	for i, l := range e.Lines {
		l.Places = append([]int(nil), l.Places...)
		c.Lines[i] = l
	}
	if len(e.Lines) == 0 {
		c.Lines = nil
	}
	return c
}

// Line is the line of key, or nil.
func (e *Evening) Line(key string) *EveningLine {
	for i := range e.Lines {
		if e.Lines[i].Key == key {
			return &e.Lines[i]
		}
	}
	return nil
}

// Add counts a finished game: its commitment (a game already counted is
// not counted again), the seats as the table shows them, and each seat's
// place (engine.View.Places). winner is the winning seat, -1 for none. It
// reports whether the game was counted.
func (e *Evening) Add(commit [32]byte, seats []SeatInfo, places []int, winner int) bool {
	if len(places) != len(seats) || len(seats) == 0 || (commit != [32]byte{} && commit == e.Last) {
		return false
	}
	e.Games++
	e.Last = commit
	for i, s := range seats {
		key := SeatKey(i, s)
		l := e.Line(key)
		if l == nil {
			e.Lines = append(e.Lines, EveningLine{Key: key})
			l = &e.Lines[len(e.Lines)-1]
		}
		l.Name, l.Bot = s.Name, s.Bot
		l.Games++
		if i == winner {
			l.Wins++
		}
		l.Halves += PlaceHalves(places, places[i])
		l.Places = append(l.Places, places[i])
		if len(l.Places) > EveningPlaces {
			l.Places = append([]int(nil), l.Places[len(l.Places)-EveningPlaces:]...)
		}
	}
	for len(e.Lines) > EveningLines {
		// The line of fewest games goes, the oldest of those first.
		drop := 0
		for i, l := range e.Lines {
			if l.Games < e.Lines[drop].Games {
				drop = i
			}
		}
		e.Lines = append(e.Lines[:drop], e.Lines[drop+1:]...)
	}
	return true
}

// tallyGame counts g's end into e for the table's seats: what a host does
// when a game ends.
func (e *Evening) tallyGame(commit [32]byte, seats []SeatInfo, g *engine.Game) bool {
	if g == nil || !g.Over() {
		return false
	}
	return e.Add(commit, seats, g.Places(), g.Winner())
}

// tally counts the game that just ended into the table's evening, with
// the seats as every player is shown them. It runs on the table goroutine.
func (t *Table) tally() { t.evening.tallyGame(t.Commit, t.State(-1).Seats, t.Game) }

// WireEvening is e as the Lobby carries it; nil when there is none.
func WireEvening(e Evening) *protocol.Evening {
	if e.Games == 0 && len(e.Lines) == 0 {
		return nil
	}
	w := &protocol.Evening{Games: e.Games, Last: e.Last}
	for _, l := range e.Lines {
		w.Lines = append(w.Lines, protocol.EveningLine{Key: l.Key, Name: l.Name, Bot: l.Bot, Games: l.Games,
			Wins: l.Wins, Halves: l.Halves, Places: append([]int(nil), l.Places...)})
	}
	return w
}

// EngEvening is a Lobby's evening, bounded and cleaned as anything a peer
// sends: a host (or whoever was elected) is a peer like any other.
func EngEvening(w *protocol.Evening) Evening {
	if w == nil {
		return Evening{}
	}
	e := Evening{Games: max(w.Games, 0), Last: w.Last}
	for _, l := range w.Lines {
		if len(e.Lines) >= EveningLines {
			break
		}
		places := l.Places
		if len(places) > EveningPlaces {
			places = places[len(places)-EveningPlaces:]
		}
		e.Lines = append(e.Lines, EveningLine{Key: protocol.Clean(l.Key, 128), Name: protocol.Clean(l.Name, protocol.MaxNick),
			Bot: protocol.Clean(l.Bot, protocol.MaxNick), Games: max(l.Games, 0), Wins: max(l.Wins, 0), Halves: max(l.Halves, 0),
			Places: append([]int(nil), places...)})
	}
	return e
}
