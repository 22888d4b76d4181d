//go:build race

package mentaltable

// Under the race detector (CI runs ./node/... so) the games are 5–10 times
// slower and have no goroutine to race: a handful is enough.
const raceEnabled = true

// underRace is the cases a test plays under the race detector: the first
// one (the whole table runs on one goroutine, the detector has nothing to
// find), all of them otherwise.
func underRace[T any](cases []T) []T { return cases[:1] }
