//go:build !race

package mentaltable

const raceEnabled = false

func underRace[T any](cases []T) []T { return cases }
