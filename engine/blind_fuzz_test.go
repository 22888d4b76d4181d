package engine_test

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/enginetest"
)

// FuzzBlind feeds a blind game commands and proven inputs decoded from the
// fuzz bytes — seats, kind, seed (8 bytes), then ops of an op byte and its
// fields, handles as indexes into a hand or raw — the honest and the
// dishonest alike: openings of the wrong cards, picks and hand-overs of
// cards not held, V10 answers out of turn. Nothing may panic; an input
// refused changes nothing; every handle is in exactly one place (R17);
// and the host never holds a card that no opening turned up (R15).
func FuzzBlind(f *testing.F) {
	f.Add([]byte{3, 2, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 1, 0, 1, 7, 1, 6, 200})
	f.Add([]byte{4, 1, 9, 9, 9, 9, 9, 9, 9, 9, 9, 0, 9, 0, 0, 9, 1, 0, 0, 0, 0, 9, 2, 2})
	f.Add([]byte{2, 3, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 5, 1, 7, 0, 0, 1, 4, 0, 0, 1, 2, 3})
	f.Add([]byte{5, 6, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 2, 0, 1, 0, 2, 0, 1, 1, 7, 1, 3, 0, 0, 8, 0, 0, 6, 255, 8, 1, 1, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		next := func() int {
			if len(data) == 0 {
				return 0
			}
			b := data[0]
			data = data[1:]
			return int(b)
		}
		seats := 2 + next()%9
		kind := kinds[next()%len(kinds)]
		var sb [8]byte
		for i := range sb {
			sb[i] = byte(next())
		}
		seed := binary.LittleEndian.Uint64(sb[:])
		r, ok := enginetest.Rules(kind, rand.New(rand.NewPCG(seed, 1)))
		if !ok {
			return
		}
		b, _, err := engine.NewBlind(engine.BlindConfig{Rules: r, Seats: seats, Seed: seed})
		if err != nil {
			return
		}
		deck := shuffled(r, seats, rand.New(rand.NewPCG(seed, 2)))
		handles := func(seat int) []engine.Handle {
			var hs, hand []engine.Handle
			if seat < seats {
				hand = b.Hand(seat)
			}
			for k := next() % 6; k > 0; k-- {
				x := next()
				if x < 200 && len(hand) > 0 {
					hs = append(hs, hand[x%len(hand)])
				} else {
					hs = append(hs, engine.Handle(x*3))
				}
			}
			return hs
		}
		now := time.Duration(0)
		for ops := 0; len(data) > 0 && ops < 400; ops++ {
			before := snapshot(b)
			op, seat := next()%11, next()%(seats+1) // seat == seats: no such seat
			if op == 0 && next()%2 == 0 {
				seat = b.Turn() // deeper games: mostly the seat whose turn it is plays
			}
			var err error
			switch op {
			case 0, 1, 2, 3, 4, 5:
				moves := []engine.Move{engine.MovePlay, engine.MoveCall, engine.MovePass, engine.MoveGive, engine.MoveDoubt, engine.MoveSkip}
				c := engine.BlindCommand{Move: moves[op], Seat: seat, Handles: handles(seat), Claim: next() % 6, Rank: engine.Rank(next()%15 - 1), No: b.Plays() - next()%2}
				if c.Move == engine.MoveDoubt && next()%2 == 0 {
					c.Move = engine.MoveBelieve
				}
				_, err = b.Apply(now, c)
			case 6:
				now += time.Duration(next()) * 100 * time.Millisecond
				b.Tick(now)
			case 7: // an opening, honest or not
				hs, _ := b.Opening()
				open := opened(deck, hs)
				switch next() % 4 {
				case 1:
					open = opened(deck, handles(seat))
				case 2:
					if len(open) > 0 {
						open[0].Card = engine.Card(next() % 60)
					}
				case 3:
					open = append(open, open...)
				}
				_, err = b.Open(open)
			case 8: // a pick, maybe of cards not held
				_, k, _ := b.Picking()
				hs := handles(seat)
				if next()%2 == 0 && seat < seats {
					hs = b.Hand(seat)[:min(k, b.HandSize(seat))]
				}
				_, err = b.Pick(seat, hs)
			case 9: // V10's answer, honest or not
				var open []engine.Opened
				if seat < seats && next()%2 == 0 {
					open = engine.NewSeatSide(seat, opened(deck, b.Hand(seat))...).Holder(r, b.Hand(seat))
				} else if hs := handles(seat); len(hs) > 0 {
					open = opened(deck, hs)
				}
				_, err = b.Holder(seat, open)
			case 10:
				_, err = b.Apply(now, engine.BlindCommand{Move: engine.Move(next()), Seat: seat, Open: opened(deck, handles(seat))})
			}
			if err != nil && snapshot(b) != before {
				t.Fatalf("op %d: refused (%v) but changed the game", op, err)
			}
			conservedBlind(t, b)
			shown := map[engine.Card]bool{}
			for _, o := range b.Shown() {
				shown[o.Card] = true
			}
			for _, fc := range blindCards(b, false) {
				if !shown[fc.card] {
					t.Fatalf("op %d: the host holds %s, which no opening turned up", op, fc.card)
				}
			}
		}
	})
}

// conservedBlind is R17 for handles: every handle of the deck is in
// exactly one hand, the pile or out of the game.
func conservedBlind(t *testing.T, b *engine.Blind) {
	t.Helper()
	seen := make([]bool, b.Total())
	n := 0
	mark := func(hs []engine.Handle) {
		for _, h := range hs {
			if int(h) >= len(seen) || seen[h] {
				t.Fatalf("handle %d is in two places, or no card", h)
			}
			seen[h] = true
			n++
		}
	}
	for s := range b.Seats() {
		mark(b.Hand(s))
	}
	pile, _ := b.Pile()
	mark(pile)
	if n+b.View(-1).Gone != b.Total() {
		t.Fatalf("%d handles in hands and pile, %d gone, of %d", n, b.View(-1).Gone, b.Total())
	}
}
