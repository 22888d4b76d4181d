// Package assist is the arithmetic a player's screen does from a view
// and the events it was shown: the order of the hand, which rank a seat
// will be asked for when, what a claim can't be, whether a sneak will
// show, what the seat may do now, the counts it knows exactly where the
// table sees them roughly (Pile); and the sentences the table's events
// are told in (Teller). The terminal client and the browser client share
// it, so a phone and a terminal say the same things at the same moments.
//
// It must never decide a rule: what is legal is the engine's to say, and
// these are only what a screen offers and warns about before the press. It
// imports the engine and the standard library only.
package assist
