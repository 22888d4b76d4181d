package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// hostDump is node/table's Dump (roguehost.go) as the rogue host writes it.
type hostDump struct {
	Blind    bool
	Plays    int
	HostSeat int
	Owners   []string
	Hands    [][]int
	Readable map[int]string
	Legit    map[int]string
	Clear    [][]string
}

// A host that tries to read (issue 25): the real binary, built with the
// tag roguehost, dumps everything its process knows of the cards mid-game
// (BS_ROGUE_HOST=dump: node/table/roguehost.go): its engine, every share
// and opening it took (the host's record), and its own node's party (its
// deck secret and what it was dealt). At a blind table it can read no card
// of another person's seat it wasn't shown by the rules: not at 2 seats,
// not at 4, not at 10. The same dump at a clear table (--blind=false)
// holds every seat's hand: the test sees a reading host where there is
// one.
func TestE2EHostReadsNothing(t *testing.T) {
	t.Parallel()
	bin := bullshitBin(t)
	rogue := rogueHostBin(t)
	for _, c := range []struct {
		seats, players int
		blind          bool
	}{{2, 1, true}, {4, 2, true}, {10, 4, true}, {4, 2, false}} {
		name := strconv.Itoa(c.seats) + "-seats"
		if !c.blind {
			name += "-clear"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			dumpPath := filepath.Join(dir, "dump.json")
			args := []string{"host", "--headless", "--json", "--config", filepath.Join(dir, "host"), "--name", "Host",
				"--players", strconv.Itoa(c.players), "--bots", strconv.Itoa(c.seats - 1 - c.players), "--wait", "60s", "--no-mdns",
				"--listen", "/ip4/127.0.0.1/tcp/0", "--pace", "fast", "--reveal", "50ms", "--rules", "window=1"}
			if !c.blind {
				args = append(args, "--blind=false")
			}
			host := startProc(t, "host", []string{rogueHostEnv + "=dump", "BS_ROGUE_DUMP=" + dumpPath, "BS_ROGUE_DUMP_AT=6"},
				rogue, args...)
			line := host.waitFor(30*time.Second, "the table line", isType("table"))
			var players []*proc
			for i := range c.players {
				players = append(players, startProc(t, "player"+strconv.Itoa(i+1), nil, bin, "join", "--headless", "--json",
					"--config", filepath.Join(dir, "p"+strconv.Itoa(i)), "--pace", "fast", "--wait", "30s", "--no-mdns",
					"--listen", "/ip4/127.0.0.1/tcp/0", hostAddr(t, line)))
			}
			for _, p := range append([]*proc{host}, players...) {
				if _, err := p.await(3*time.Minute, isType("result")); err != nil {
					t.Fatalf("%s printed no result: %v; last lines: %s", p.name, err, tail(p, 4))
				}
			}
			checkHostDump(t, dumpPath, host, c.blind, c.seats)
		})
	}
}

// checkHostDump reads the rogue host's dump and fails t if, at a blind
// table, the host can read a card hidden in another person's hand (or
// reads one as what no rule showed it); at a clear table, if it reads
// none (the dump would then not see what a host knows).
func checkHostDump(t *testing.T, dumpPath string, host *proc, blind bool, seats int) {
	t.Helper()
	b, err := os.ReadFile(dumpPath)
	if err != nil {
		t.Fatalf("the host wrote no dump (the game too short?): %v; stderr: %s", err, tail(host, 2))
	}
	var d hostDump
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	// Another person's card the host can read: one in their hand
	// now that it was never shown, nor saw turned up.
	read, hidden := 0, 0
	for s, owner := range d.Owners {
		if s == d.HostSeat || owner == "" {
			continue // its own seat, or a bot's
		}
		if !d.Blind {
			read += len(d.Clear[s])
			hidden += len(d.Clear[s])
			continue
		}
		for _, h := range d.Hands[s] {
			if _, shown := d.Legit[h]; shown {
				continue
			}
			hidden++
			if _, ok := d.Readable[h]; ok {
				read++
			}
		}
	}
	if hidden == 0 {
		t.Fatalf("no card of another person's seat was hidden from the host at play %d: nothing was tested", d.Plays)
	}
	if blind {
		if read > 0 {
			t.Fatalf("the host can read %d of the %d cards hidden in other people's hands at play %d", read, hidden, d.Plays)
		}
		for h, card := range d.Readable {
			if d.Legit[h] != card {
				t.Errorf("the host reads card %d as %s, which no rule showed it", h, card)
			}
		}
		t.Logf("%d seats, play %d: the host reads none of the %d cards in other people's hands; it reads %d cards in all, each its own seat's, its bots' or turned up",
			seats, d.Plays, hidden, len(d.Readable))
		return
	}
	if read == 0 {
		t.Fatal("the clear table's dump shows no other seat's card: the dump doesn't see what a host knows")
	}
	t.Logf("clear table, play %d: the host reads all %d cards in other people's hands (what the blind table stops)", d.Plays, read)
}

// TestE2EHostReadsNothingWithPhones: the reading host again, at a table
// in namespaces where two of the players are phones (their pages in
// Chromium hold their deck secrets), beside a terminal player and a bot:
// the host's dump, taken mid-game, reads no card of a phone's hand nor
// the terminal's, and both phones end on a verified sheet.
func TestE2EHostReadsNothingWithPhones(t *testing.T) {
	t.Parallel()
	l := newLAN(t, 4, false)
	chromium(t)
	dir := t.TempDir()
	name := "reads-" + l.prefix
	dumpPath := filepath.Join(dir, "dump.json")
	bt := &browserTable{l: l, dir: dir, url: "http://10.77.1.1:8080/"}
	bt.host = startProc(t, "host", []string{rogueHostEnv + "=dump", "BS_ROGUE_DUMP=" + dumpPath, "BS_ROGUE_DUMP_AT=6"},
		"ip", append([]string{"netns", "exec", l.ns(1), rogueHostBin(t)},
			hostArgs(filepath.Join(dir, "host"), name, 3, 1, "--web", "10.77.1.1:8080")...)...)
	bt.host.waitFor(20*time.Second, "the table line", isType("table"))
	bt.player = l.start(4, "player", joinArgs(filepath.Join(dir, "player"), name)...)
	bt.phones[0] = l.startBrowser(2, "phone", 360, 740)
	bt.phones[1] = l.startBrowser(3, "desktop", 1280, 800)
	bt.phones[0].sit(bt.url, "Ana")
	bt.phones[1].sit(bt.url, "Ben")
	bt.player.waitFor(60*time.Second, "a seat", isType("seated"))
	res := bt.play(t, nil)
	bt.sheetsVerified(t, res, "")
	endedVerified(t, bt.player, time.Minute, "the terminal player")
	if _, err := bt.host.await(time.Minute, isType("result")); err != nil {
		t.Fatalf("the host printed no result: %v", err)
	}
	checkHostDump(t, dumpPath, bt.host, true, 5)
}
