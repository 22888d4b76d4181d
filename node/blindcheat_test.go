package node

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/internal/nodetest"
	"github.com/bullshit-game/bullshit/node/table"
	"github.com/bullshit-game/bullshit/protocol"
	"github.com/bullshit-game/bullshit/protocol/mental"
)

// A player's node swaps two cards of the deck its shuffle sends (no card
// lost or doubled, so its step checks when it comes; its commitment is to
// the deck it drew). The game is played to its end; when every secret is
// in, every node checks every shuffle: every audit fails naming the
// player, every screen says so, and the game, whose cards were never the
// deck's, doesn't count in the evening's score. (Before, the host refused
// the last secret and no node audited the game at all.)
func TestBlindShuffleCheatNamed(t *testing.T) {
	set := kitchen(4, "medium")
	set.Blind = true
	hn, tb, _ := hostTable(t, set)
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	_, hostSess, err := tb.Sit("local", "host")
	if err != nil {
		t.Fatal(err)
	}
	remotes := dialPlayers(t, ctx, hn, 2)
	for _, r := range remotes {
		r.UseBots(dumbMaker, dumbFallback)
	}
	cheat := remotes[1]
	swapped := false
	var mu sync.Mutex
	cheat.party.SetSend(func(m protocol.Message) (uint64, error) {
		if sh, ok := m.(protocol.DeckShuffle); ok {
			var st mental.ShuffleStep
			if st.UnmarshalBinary(sh.Step) == nil {
				st.Out[0], st.Out[1] = st.Out[1], st.Out[0]
				sh.Step, _ = st.MarshalBinary()
				m = sh
				mu.Lock()
				swapped = true
				mu.Unlock()
			}
		}
		return cheat.partySend(m)
	})
	if err := tb.Start(); err != nil {
		t.Fatal(err)
	}
	var notices []string
	sessions := []table.Session{hostSess, remotes[0], cheat}
	ends := playEach(ctx, sessions, func(i int) table.Player { return &nodetest.DumbBot{Seat: i} }, "fast",
		func(i int, u table.Update) {
			mu.Lock()
			defer mu.Unlock()
			if u.Notice != "" {
				notices = append(notices, fmt.Sprint(i, ": ", u.Notice))
			}
		})()
	mu.Lock()
	defer mu.Unlock()
	if !swapped {
		t.Fatal("the cheating node never shuffled")
	}
	const named = "p2's node cheated at the shuffle"
	for i, u := range ends {
		if u.View.Phase != engine.PhaseOver || u.Audit == nil || u.Audit.Verified {
			t.Fatalf("seat %d: phase %v, audit %+v: the cheated game's audit should fail; notices %q", i, u.View.Phase, u.Audit, notices)
		}
		if len(u.Audit.Problems) != 1 || !strings.HasPrefix(u.Audit.Problems[0], named) {
			t.Fatalf("seat %d's audit doesn't name the shuffler: %q", i, u.Audit.Problems)
		}
	}
	said := 0
	for _, n := range notices {
		if strings.Contains(n, named) && strings.HasSuffix(n, "It doesn't count in the evening's score.") {
			said++
		}
	}
	if said < len(sessions) {
		t.Fatalf("%d of the %d screens were told the game doesn't count: %q", said, len(sessions), notices)
	}
	var games int
	tb.Do(func() { games = tb.State(-1).Evening.Games })
	if games != 0 {
		t.Fatalf("the evening counts %d games; the cheated one doesn't count", games)
	}
}
