// Package latency measures what a party feels on the network: the time
// from a shout to every player seeing the verdict (Shout), beside the floor
// of a bare signed echo between two of the game's hosts (Echo). Both run
// real hosts on loopback; `bullshit bench` and this package's benchmarks
// report them.
//
// It is measurement code, not the game: node never imports it, and it must
// never import testing (the shipped binary links it for `bullshit bench`).
package latency
