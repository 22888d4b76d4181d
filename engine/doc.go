// Package engine is the game of Bullshit (Cheat, I Doubt It) and nothing
// else: the rules of ../shared/RULES.md (R1–R17 and the variants V1–V15), the
// deal, what each seat may see, and the events a table announces.
//
// A game is a pure function of its rules, its seats, its seed and the
// commands applied to it with their times. The engine never reads a clock,
// never starts a goroutine, never touches a socket and never draws on global
// randomness: time comes in as an argument (now, since the game began), the
// engine reports its next deadline, and Tick fires what is due. The same
// inputs give the same game, byte for byte, on every peer; that is what lets
// a host be replaced mid-game and a finished game be audited.
//
// A refused command changes nothing and returns a *Refusal with a code for
// the wire (the codes of ../shared/REFEREE.md) and a sentence a player can
// read. Nothing a peer or a user sends can make the engine panic.
//
// What a seat may see is View(seat) and the events whose audience includes
// it; nothing else of the game may leave the host.
//
// Blind is the same game over hidden cards: its host tracks handles, not
// cards, and takes every identity the rules need as a proven opening; a
// seat's own node (SeatSide) makes the decisions that need its cards. Game
// and Blind share one table of rules (table.go, turn.go, claims.go), so
// the two can't part on a rule; at the end a blind game's revealed deck
// and journal replay in the clear as the same game.
package engine
