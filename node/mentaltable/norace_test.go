//go:build !race

package mentaltable

const raceEnabled = false
