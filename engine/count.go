package engine

import (
	"encoding/json"
	"strconv"
)

// Count is a number of cards as a seat sees it: exact (Lo == Hi), or a range
// as a table would see a hand or a pile too big to count at a glance (V14);
// Hi is -1 for "Lo or more".
type Count struct {
	Lo, Hi int
}

// Exact is a count that can be seen exactly.
func Exact(n int) Count { return Count{n, n} }

// IsExact reports whether the count is one number.
func (c Count) IsExact() bool { return c.Lo == c.Hi }

// Has reports whether n cards would look like c.
func (c Count) Has(n int) bool { return n >= c.Lo && (c.Hi < 0 || n <= c.Hi) }

func (c Count) String() string {
	switch {
	case c.Lo == c.Hi:
		return strconv.Itoa(c.Lo)
	case c.Hi < 0:
		return strconv.Itoa(c.Lo) + "+"
	}
	return strconv.Itoa(c.Lo) + "–" + strconv.Itoa(c.Hi)
}

// MarshalJSON writes an exact count as a number and a range as [lo, hi],
// hi null for "or more".
func (c Count) MarshalJSON() ([]byte, error) {
	if c.Lo == c.Hi {
		return strconv.AppendInt(nil, int64(c.Lo), 10), nil
	}
	if c.Hi < 0 {
		return []byte("[" + strconv.Itoa(c.Lo) + ",null]"), nil
	}
	return []byte("[" + strconv.Itoa(c.Lo) + "," + strconv.Itoa(c.Hi) + "]"), nil
}

// UnmarshalJSON reads what MarshalJSON writes.
func (c *Count) UnmarshalJSON(b []byte) error {
	var n int
	if err := json.Unmarshal(b, &n); err == nil {
		*c = Exact(n)
		return nil
	}
	var r [2]*int
	if err := json.Unmarshal(b, &r); err != nil || r[0] == nil {
		return &json.UnmarshalTypeError{Value: string(b), Type: nil}
	}
	c.Lo, c.Hi = *r[0], -1
	if r[1] != nil {
		c.Hi = *r[1]
	}
	return nil
}

// How big a hand or the pile looks across a table (V14, rough counts). A
// hand can be counted up to 8 cards and a pile up to 3; past that a player
// sees a thickness, and the buckets widen as the stack grows, the way a
// stack of 9 or 10 looks alike but 10 and 14 don't. The last bucket is open.
// These are the only buckets: bots, views and hints all use Seen.
var (
	HandExact   = 8
	HandBuckets = []Count{{9, 10}, {11, 13}, {14, 17}, {18, 22}, {23, 29}, {30, -1}}
	PileExact   = 3
	PileBuckets = []Count{{4, 6}, {7, 10}, {11, 15}, {16, 22}, {23, 31}, {32, -1}}
)

// Seen is how n cards look: exact when counts are exact or n is small enough
// to count, else the bucket n falls in. pile picks the pile's buckets.
func Seen(n int, pile, rough bool) Count {
	if !rough {
		return Exact(n)
	}
	exact, buckets := HandExact, HandBuckets
	if pile {
		exact, buckets = PileExact, PileBuckets
	}
	if n <= exact {
		return Exact(n)
	}
	for _, b := range buckets {
		if b.Has(n) {
			return b
		}
	}
	return buckets[len(buckets)-1]
}

// LooksClean reports whether a count seen as before, then after, could have
// changed by exactly delta cards (negative: down). False means anyone
// watching could tell the change was not delta: a sneak that shows.
func LooksClean(before, after Count, delta int, pile, rough bool) bool {
	hi := before.Hi
	if hi < 0 {
		hi = before.Lo + 64
	}
	for n := before.Lo; n <= hi; n++ {
		m := n + delta
		if m >= 0 && Seen(m, pile, rough) == after {
			return true
		}
	}
	return false
}
