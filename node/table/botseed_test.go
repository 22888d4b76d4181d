package table

import (
	"sync"
	"testing"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/internal/nodetest"
	"github.com/bullshit-game/bullshit/protocol"
)

// A node that takes a table over (an election, a restart from the journal)
// seats each bot with the seed the dealing host gave it: the bots play on
// the same game after a failover.
func TestBotSeedsAgreeAfterRestore(t *testing.T) {
	type seeded struct {
		mu    sync.Mutex
		seeds map[int]uint64
	}
	maker := func(into *seeded) BotMaker {
		return func(name string, seat int, seed uint64) (Player, error) {
			into.mu.Lock()
			defer into.mu.Unlock()
			into.seeds[seat] = seed
			return &nodetest.DumbBot{Seat: seat}, nil
		}
	}
	for _, seed := range []uint64{1, 42, 1 << 63} {
		host := &seeded{seeds: map[int]uint64{}}
		set := Settings{Name: "T", Rules: engine.Standard(), Seats: 4, Bots: []string{"a", "b", "c"}, Seed: seed}
		tb, err := NewTable(set, "Host", maker(host), dumbFallback)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := tb.Sit("local", "Host"); err != nil {
			t.Fatal(err)
		}
		if err := tb.Start(); err != nil {
			t.Fatal(err)
		}
		var seats []SeatInfo
		tb.Do(func() { seats = tb.State(0).Seats })
		tb.Close()

		restored := &seeded{seeds: map[int]uint64{}}
		cfg := engine.Config{Rules: set.Rules, Seats: set.Seats, Seed: seed}
		rt, err := RestoreTable(set, tb.ID, protocol.TableID{}, "New", "new-peer", seats, cfg, [gamewire.SaltSize]byte{}, nil, [32]byte{},
			nil, nil, 2, maker(restored), dumbFallback, "", nil, Evening{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		rt.Close()
		if len(host.seeds) != 3 {
			t.Fatalf("seed %d: the host seated %d bots, want 3", seed, len(host.seeds))
		}
		for seat, want := range host.seeds {
			if got, ok := restored.seeds[seat]; !ok || got != want {
				t.Errorf("seed %d, seat %d: the host's bot has seed %d, the restored table's %d (seated %v)", seed, seat, want, got, ok)
			}
		}
		if host.seeds[1] == host.seeds[2] {
			t.Errorf("seed %d: two seats' bots share a seed", seed)
		}
	}
}
