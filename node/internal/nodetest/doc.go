// Package nodetest holds what node's tests and its packages' tests share:
// a dumb bot that plays the simplest legal moves (so table and network
// tests don't depend on engine/bot) and checks of a game's end.
//
// It is for tests only, and must never import a package of node: node's
// packages' own tests import it, and a cycle would forbid that.
package nodetest
