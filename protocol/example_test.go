package protocol_test

import (
	"crypto/ed25519"
	"errors"
	"fmt"

	"github.com/bullshit-game/bullshit/protocol"
)

// A seat seals a play; the host opens it, checks it is not a replay, and
// switches on the message.
func Example() {
	seed := make([]byte, ed25519.SeedSize) // a real node uses its libp2p host's key
	key := ed25519.NewKeyFromSeed(seed)
	seat, _ := protocol.NewSigner(key, 1)
	table := protocol.TableID{1, 2, 3, 4, 5, 6, 7, 8}

	data, _, _ := seat.Seal(table, 1, protocol.Play{No: 4, Seat: 2, Cards: []protocol.Card{0, 13}, Rank: protocol.NoRank})

	// On the host, from is the stream's remote peer.
	from := seat.ID()
	var replay protocol.Replay
	env, err := protocol.Open(data, from)
	if err != nil {
		fmt.Println("refused:", err)
		return
	}
	if err := replay.Check(env.Sender, env.Term, env.Seq); err != nil {
		fmt.Println("refused:", err)
		return
	}
	switch m := env.Msg.(type) {
	case protocol.Play:
		fmt.Printf("seat %d plays %d cards after play %d (%d bytes)\n", m.Seat, len(m.Cards), m.No, len(data))
	}
	// The same bytes again still verify, but the guard refuses them.
	env, _ = protocol.Open(data, from)
	fmt.Println(errors.Is(replay.Check(env.Sender, env.Term, env.Seq), protocol.ErrReplay))
	// Output:
	// seat 2 plays 2 cards after play 4 (136 bytes)
	// true
}
