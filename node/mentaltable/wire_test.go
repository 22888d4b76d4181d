package mentaltable

import (
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/protocol"
)

// A wireTable is a blind table's set-up and deal as a LAN runs it: the
// host and each party node in a goroutine of its own, every message a
// signed envelope, the host passing each party's on as the bytes it came
// in (every node opens it as relayed: its signer is its party, and its
// copy of the host takes it). The parties answer in whatever order the
// scheduler gives: the records must not care.
type wireTable struct {
	t     *Table
	host  *Host
	nodes []*Node
	keys  []ed25519.PrivateKey // [n] is the host's
	ids   map[protocol.PeerID]int
	dealt chan int // each node, once it knows its hands
	errs  chan error
}

func newWireTable(tb testing.TB, seats int, seed uint64) *wireTable {
	tb.Helper()
	r, _ := engine.Preset("standard")
	w := &wireTable{t: &Table{Rules: r, Seats: seats, Seed: seed, Table: []byte("wire"), Game: fmt.Appendf(nil, "game %d", seed)},
		ids: map[protocol.PeerID]int{}, dealt: make(chan int, seats), errs: make(chan error, 4*seats)}
	if err := w.t.Check(); err != nil {
		tb.Fatal(err)
	}
	var err error
	if w.host, err = NewHost(w.t); err != nil {
		tb.Fatal(err)
	}
	for i := range w.t.Parties() + 1 {
		_, k, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			tb.Fatal(err)
		}
		id, err := protocol.PeerIDOf(k)
		if err != nil {
			tb.Fatal(err)
		}
		w.keys, w.ids[id] = append(w.keys, k), i
	}
	for i := range w.t.Parties() {
		nd, err := NewNode(w.t, i, rand.Reader, nil)
		if err != nil {
			tb.Fatal(err)
		}
		w.nodes = append(w.nodes, nd)
	}
	return w
}

var wireID = protocol.TableID{'w', 'i', 'r', 'e'}

// run deals the table and returns once every node knows its hands.
func (w *wireTable) run() error {
	n := len(w.nodes)
	toHost := make(chan []byte, 64*n)
	toNode := make([]chan []byte, n)
	var wg sync.WaitGroup
	defer func() {
		for _, c := range toNode {
			close(c)
		}
		wg.Wait()
	}()
	seal := func(who int, seq *uint64, m protocol.Message) []byte {
		*seq++
		b, err := protocol.Seal(w.keys[who], wireID, 1, *seq, m)
		if err != nil {
			w.errs <- err
		}
		return b
	}
	for i, nd := range w.nodes {
		toNode[i] = make(chan []byte, 64*n)
		wg.Add(1)
		go func() {
			defer wg.Done()
			var seq uint64
			send := func(ms []protocol.Message, err error) {
				if err != nil {
					w.errs <- fmt.Errorf("party %d: %w", i, err)
					return
				}
				for _, m := range ms {
					toHost <- seal(i, &seq, m)
				}
			}
			send(nd.Start())
			told := false
			for data := range toNode[i] {
				env, err := protocol.OpenRelayed(data)
				if err != nil {
					w.errs <- err
					return
				}
				send(nd.Input(Input{What: InputMsg, From: w.ids[env.Sender], Msg: env.Msg}))
				if !told && len(nd.sides) == len(nd.seats) {
					told = true
					w.dealt <- i
				}
			}
		}()
	}
	go func() {
		for data := range toHost {
			env, err := protocol.OpenRelayed(data)
			if err != nil {
				w.errs <- err
				return
			}
			out, err := w.host.Take(w.ids[env.Sender], env.Msg)
			if err != nil {
				w.errs <- fmt.Errorf("host: %w", err)
				return
			}
			// The deal's inputs are the parties' messages: each goes on
			// as it came. (The asks stay with the host: every node's copy
			// of it makes them too.)
			_ = out
			for _, c := range toNode {
				c <- data
			}
		}
	}()
	for range n {
		select {
		case <-w.dealt:
		case err := <-w.errs:
			return err
		case <-time.After(time.Minute):
			return fmt.Errorf("the deal didn't end (waiting for %v)", w.host.Waiting())
		}
	}
	return nil
}

// The set-up and deal over signed envelopes, parties answering in any
// order: every node learns exactly its own hand, the faces agree with
// the host's public deal (each seat's hand is as many cards as the engine
// dealt), and the host knows no card.
func TestWireDeal(t *testing.T) {
	for _, seats := range []int{2, 4, 10} {
		t.Run(fmt.Sprintf("%d seats", seats), func(t *testing.T) {
			w := newWireTable(t, seats, uint64(seats))
			if err := w.run(); err != nil {
				t.Fatal(err)
			}
			seen := map[engine.Card]int{}
			for _, nd := range w.nodes {
				if got, want := len(nd.known), len(w.t.hands[nd.Index]); got != want {
					t.Fatalf("party %d knows %d cards; its hand is %d", nd.Index, got, want)
				}
				for h, f := range nd.known {
					if nd.t.Dealt[h] != nd.Index {
						t.Fatalf("party %d knows card %d, dealt to party %d", nd.Index, h, nd.t.Dealt[h])
					}
					seen[engine.Card(f.Card)]++
				}
			}
			if len(seen) != 52 {
				t.Fatalf("the hands hold %d kinds of card", len(seen))
			}
			if k := len(w.host.rec.known); k != 0 {
				t.Fatalf("the host knows %d cards", k)
			}
			if got := (&Watcher{w.host, w.host.rec}).Decryptable(); len(got) != 0 {
				t.Fatalf("the host's shares turn up %d cards", len(got))
			}
		})
	}
}

// BenchmarkWireDeal is the deal's wall time with every node in its own
// goroutine and every message signed and checked, on this machine's
// cores (a LAN gives each node its own).
func BenchmarkWireDeal(b *testing.B) {
	for _, seats := range []int{4, 10} {
		b.Run(fmt.Sprintf("%d seats", seats), func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				w := newWireTable(b, seats, uint64(seats))
				b.StartTimer()
				if err := w.run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
