package node

import (
	"errors"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/bullshit-game/bullshit/node/table"

	"github.com/bullshit-game/bullshit/engine/bot"
	"github.com/bullshit-game/bullshit/node/shamir"
)

// No coalition smaller than every player node but the host's can rebuild
// the seed (and so every hand) or a hidden play: one person holding two
// seats (two phones) at a table of three player nodes once rebuilt the
// seed from the two threshold-2 shares its seats got at the deal. All of
// them together can, which is what a failover needs.
func TestSharesNeedEveryPlayerNode(t *testing.T) {
	for _, players := range []int{1, 2, 3, 5} {
		t.Run(fmt.Sprint(players), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				bots := make([]string, 5-players)
				for i := range bots {
					bots[i] = "medium"
				}
				tb, err := table.NewTable(table.Settings{Name: "T", Seats: 6, Bots: bots}, "host", realMaker, bot.Fallback)
				if err != nil {
					t.Fatal(err)
				}
				defer tb.Close()
				if _, _, err := tb.Sit("local", "Host"); err != nil {
					t.Fatal(err)
				}
				var sess []*table.LocalSession
				for i := range players {
					_, s, err := tb.Sit(fmt.Sprint("peer", i), fmt.Sprint("P", i))
					if err != nil {
						t.Fatal(err)
					}
					sess = append(sess, s)
				}
				if err := tb.Start(); err != nil {
					t.Fatal(err)
				}
				time.Sleep(time.Millisecond)
				var commit [32]byte
				var seed uint64
				tb.Do(func() { commit, seed = tb.Commit, tb.Seed })
				// Each player node's share of the seed, from what it was sent.
				var shares []shamir.Share
				for _, s := range sess {
					var got *shamir.Share
				drain:
					for {
						select {
						case u := <-s.Updates():
							for _, sh := range u.Shares {
								if sh.Step == -1 {
									got = &sh.Share
								}
							}
						default:
							break drain
						}
					}
					if got == nil {
						t.Fatal("a player node was sent no share of the seed")
					}
					shares = append(shares, *got)
				}
				want := max(2, players)
				if int(shares[0].K) != want {
					t.Fatalf("threshold %d at a table of %d player nodes, want %d", shares[0].K, players, want)
				}
				// Every coalition short of all of them fails.
				for drop := range shares {
					some := append(append([]shamir.Share{}, shares[:drop]...), shares[drop+1:]...)
					if _, _, err := shamir.RecoverSeed(commit, some...); !errors.Is(err, shamir.ErrTooFewShares) {
						t.Fatalf("%d of %d player nodes' shares: %v, want too few", len(some), players, err)
					}
				}
				if players < 2 {
					return
				}
				got, _, err := shamir.RecoverSeed(commit, shares...)
				if err != nil || got != seed {
					t.Fatalf("every player node's shares: seed %d, %v; want %d", got, err, seed)
				}
			})
		})
	}
}
