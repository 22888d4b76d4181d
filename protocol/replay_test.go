package protocol

import (
	"errors"
	"sync"
	"testing"
)

func TestReplay(t *testing.T) {
	type check struct {
		who  string
		term uint64
		seq  uint64
		want error
	}
	ids := map[string]PeerID{"alice": aliceID, "bob": bobID}
	for _, c := range []struct {
		name   string
		checks []check
	}{
		// Sequence numbers only go up, per sender.
		{"in order", []check{{"alice", 1, 1, nil}, {"alice", 1, 2, nil}, {"alice", 1, 9, nil}}},
		{"replayed", []check{{"alice", 1, 5, nil}, {"alice", 1, 5, ErrReplay}}},
		{"older", []check{{"alice", 1, 5, nil}, {"alice", 1, 4, ErrReplay}, {"alice", 1, 6, nil}}},
		{"refusal records nothing", []check{{"alice", 1, 5, nil}, {"alice", 1, 3, ErrReplay}, {"alice", 1, 4, ErrReplay}}},
		{"per sender", []check{{"alice", 1, 5, nil}, {"bob", 1, 5, nil}, {"bob", 1, 1, ErrReplay}}},
		// Terms: the highest seen for the table, from anyone, is the floor.
		{"stale term", []check{{"alice", 2, 1, nil}, {"alice", 1, 9, ErrStaleTerm}}},
		{"stale term from another sender", []check{{"bob", 2, 1, nil}, {"alice", 1, 9, ErrStaleTerm}, {"alice", 2, 1, nil}}},
		{"a new term starts the numbers afresh", []check{{"alice", 1, 9, nil}, {"alice", 2, 3, nil}, {"alice", 2, 3, ErrReplay}}},
		{"stale term beats replay", []check{{"alice", 1, 9, nil}, {"bob", 2, 1, nil}, {"alice", 1, 9, ErrStaleTerm}}},
		{"zero values", []check{{"alice", 0, 0, nil}, {"alice", 0, 0, ErrReplay}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var r Replay
			for i, k := range c.checks {
				if err := r.Check(ids[k.who], k.term, k.seq); !errors.Is(err, k.want) {
					t.Fatalf("check %d (%s term %d seq %d) = %v, want %v", i, k.who, k.term, k.seq, err, k.want)
				}
			}
		})
	}
}

func TestReplayForget(t *testing.T) {
	var r Replay
	_ = r.Check(aliceID, 1, 5)
	r.Forget(aliceID)
	if err := r.Check(aliceID, 1, 1); err != nil {
		t.Errorf("after Forget: %v", err)
	}
	_ = r.Check(bobID, 4, 1)
	if r.Term() != 4 {
		t.Errorf("Term = %d, want 4", r.Term())
	}
}

// Concurrent checks of the same numbers let each through exactly once.
func TestReplayConcurrent(t *testing.T) {
	var r Replay
	var wg sync.WaitGroup
	var mu sync.Mutex
	passed := 0
	for range 4 {
		wg.Go(func() {
			for seq := range uint64(200) {
				if r.Check(aliceID, 1, seq+1) == nil {
					mu.Lock()
					passed++
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	if passed < 200 || passed > 4*200 {
		t.Errorf("%d passed", passed)
	}
	// Every number up to 200 is now refused.
	for seq := range uint64(200) {
		if r.Check(aliceID, 1, seq+1) == nil {
			t.Fatalf("seq %d passed twice", seq+1)
		}
	}
}
