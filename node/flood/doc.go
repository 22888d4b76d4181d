// Package flood measures what a flood costs a host (issue 13, "refuse
// before you work"): for each thing an outsider or a seated rogue can
// throw at a table (frames that aren't envelopes, frames over the size
// limit, megabyte-decoding bodies, forged signatures, replays, another
// table's or term's envelopes, a connect flood, half-open connections, a
// swarm of spectators, a flood at the web entry's /ws), the host process's
// CPU over the flood, beside the honest players' shout to verdict
// (node/latency) and a calm baseline, and what the host answered.
//
// Run is on loopback; a stranger's flood alone (NewAttack) can be thrown
// at any host from any addresses of this machine, as the end-to-end tests
// throw them from a namespace of many LAN addresses at the real binary.
// The host is best run in a process of its own
// (Spawn, ServeLines: `bullshit bench` runs itself), so that its CPU is
// its own and not the flooders' or the players'. The flooders come from
// addresses of 127/8 other than 127.0.0.1, which the host exempts from its
// per-address limits (node/guard/budget.go): Linux routes all of 127/8 to
// loopback; elsewhere Run says it can't.
//
// It is measurement and attack code, not the game: node never imports it,
// and it must never import testing (the shipped binary links it for
// `bullshit bench`).
package flood
