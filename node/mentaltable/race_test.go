//go:build race

package mentaltable

// Under the race detector (CI runs ./node/... so) the games are 5–10 times
// slower and have no goroutine to race: a handful is enough.
const raceEnabled = true
