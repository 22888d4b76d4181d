// Package bench holds the bodies of the engine's and the simulator's
// benchmarks, and a small runner for them, so that `go test -bench` and
// `bullshit bench` measure the very same code (hashicorp/raft keeps its
// shared benchmark bodies in one package, raft/bench, for the same reason).
//
// A body takes a B, which *testing.B is; Run is the runner the shipped
// binary uses. This package must never import testing: `bullshit bench`
// links it, and the shipped binary never links testing. Neither engine nor
// engine/sim imports it; their external tests do.
package bench
