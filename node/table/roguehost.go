//go:build roguehost

package table

// A dishonest host, for the end-to-end tests of issue 21 only: built with
// the tag roguehost (cmd/bullshit's tests build such a binary beside the
// real one), never in the game. BS_ROGUE_HOST chooses how it cheats at the
// deal:
//
//   - grind: it never asks the players for their nonces, and tries seeds
//     until its own hand holds all four aces and all four kings, then deals
//     that hand from that seed alone.
//   - toolate: it asks for the players' commitments, then calls every one
//     of them too late and deals from its own seed alone.
//   - dump: it plays honestly, and once BS_ROGUE_DUMP_AT plays (6 by
//     default) are made, writes everything its process knows of the
//     cards to the file BS_ROGUE_DUMP (dump.go's Dump): what a host that
//     tries to read could read.

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"sync/atomic"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
)

// RogueHostEnv chooses the rogue host's cheat.
const RogueHostEnv = "BS_ROGUE_HOST"

func init() {
	switch os.Getenv(RogueHostEnv) {
	case "grind":
		rogueDeal = grindDeal
	case "toolate":
		rogueDeal = tooLateDeal
	case "dump":
		rogueLook = dumpOnce
	}
}

// grindDeal deals the host the four aces and the four kings.
func grindDeal(t *Table, seed uint64, salt [gamewire.SaltSize]byte) bool {
	mine := -1
	for i, s := range t.Seats {
		if s.Owner == "local" {
			mine = i
		}
	}
	if mine < 0 {
		return false
	}
	best, most := seed, -1
	for try := range uint64(5_000_000) {
		s := binary.LittleEndian.Uint64(salt[:8]) ^ try*0x9e3779b97f4a7c15
		g, _, err := engine.New(engine.Config{Rules: t.Set.Rules, Seats: t.Set.Seats, Seed: s})
		if err != nil {
			return false
		}
		n := 0
		for _, c := range g.View(mine).Hand {
			if r := c.Rank(); c != engine.Joker && (r == 0 || r == 12) {
				n++
			}
		}
		if n > most {
			best, most = s, n
		}
		if n >= 8 {
			break
		}
	}
	t.Seed, t.commits = best, nil
	fmt.Fprintf(os.Stderr, "rogue host: dealt itself %d of the four aces and four kings (seed %d)\n", most, best)
	if err := t.dealFrom(best, salt, nil); err != nil {
		t.notice = "The deal failed: " + err.Error()
	}
	return true
}

// tooLateDeal asks for the players' commitments, and takes none.
func tooLateDeal(t *Table, seed uint64, salt [gamewire.SaltSize]byte) bool {
	if t.startToss(seed, salt, TossTries) {
		t.toss.asked = map[int]bool{} // every commitment is "too late"
		return true
	}
	return false
}

// RogueDumpEnv is where a dumping host writes what it knows (dump), and
// RogueDumpAtEnv after how many plays.
const (
	RogueDumpEnv   = "BS_ROGUE_DUMP"
	RogueDumpAtEnv = "BS_ROGUE_DUMP_AT"
)

// Dump is everything a host's process knows of the cards, mid-game, as a
// host that tries to read writes it. Cards are named as the engine
// prints them ("AS"), handles (a blind table's physical cards) by number.
type Dump struct {
	Blind    bool
	Plays    int
	HostSeat int
	Owners   []string // each seat's: "local", a peer ID, "" a bot's
	// A blind table: each seat's hand by handle (public), every card the
	// process can turn up from all it holds (its node's secret, every
	// share it took, the host's record), and what it may know: what its
	// own seat and the bots it runs were shown, and what was turned up
	// for everyone.
	Hands    [][]int
	Readable map[int]string
	Legit    map[int]string
	// A clear table: each seat's hand, which its engine holds.
	Clear [][]string
}

var dumped atomic.Bool

// dumpOnce writes the dump once the game is far enough in (on the table
// goroutine; the node's knowledge is read off it, since the party may be
// waiting on the table).
func dumpOnce(t *Table) {
	at, _ := strconv.Atoi(os.Getenv(RogueDumpAtEnv))
	if at == 0 {
		at = 6
	}
	path := os.Getenv(RogueDumpEnv)
	if path == "" || t.Phase != PhasePlaying || dumped.Load() {
		return
	}
	d := Dump{HostSeat: -1}
	for i, s := range t.Seats {
		d.Owners = append(d.Owners, s.Owner)
		if s.Owner == "local" {
			d.HostSeat = i
		}
	}
	if g := t.Game; g != nil {
		if d.Plays = g.Plays(); d.Plays < at {
			return
		}
		dumped.Store(true)
		for i := range t.Seats {
			var cs []string
			for _, c := range g.View(i).Hand {
				cs = append(cs, c.String())
			}
			d.Clear = append(d.Clear, cs)
		}
		go writeDump(path, d)
		return
	}
	bg := t.blind
	if bg == nil || !bg.h.Dealt() {
		return
	}
	if d.Plays = bg.h.B.Plays(); d.Plays < at {
		return
	}
	dumped.Store(true)
	d.Blind = true
	for i := range t.Seats {
		var hs []int
		for _, h := range bg.h.B.Hand(i) {
			hs = append(hs, int(h))
		}
		d.Hands = append(d.Hands, hs)
	}
	d.Readable, d.Legit = map[int]string{}, map[int]string{}
	for h, c := range bg.h.Decryptable() {
		d.Readable[int(h)] = c.String()
	}
	own := t.ownParty
	go func() {
		if own != nil {
			k, ok, err := own.Knowledge()
			if err != nil || !ok {
				fmt.Fprintf(os.Stderr, "rogue host: its node's knowledge: %v (%v)\n", err, ok)
			}
			for h, c := range k.Decryptable {
				d.Readable[int(h)] = c.String()
			}
			for h, c := range k.Public {
				d.Legit[int(h)] = c.String()
			}
			for _, seen := range k.Seen { // its own seat's, and its bots'
				for h, c := range seen {
					d.Legit[int(h)] = c.String()
				}
			}
		}
		writeDump(path, d)
	}()
}

func writeDump(path string, d Dump) {
	b, err := json.Marshal(d)
	if err == nil {
		err = os.WriteFile(path+".tmp", b, 0o644)
	}
	if err == nil {
		err = os.Rename(path+".tmp", path)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "rogue host: the dump: %v\n", err)
		return
	}
	fmt.Fprintf(os.Stderr, "rogue host: dumped what it knows after %d plays to %s\n", d.Plays, path)
}
