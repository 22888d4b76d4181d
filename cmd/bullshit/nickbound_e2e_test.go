package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/protocol"
)

// TestE2ELongNickRefused is issue 13's attack 4 against the real binary:
// a player on another machine says hello with a 65,236-byte nickname (it
// fits one frame; a lobby carrying it would not). The host refuses it at
// the hello for its length, with a clear message, and the two honest
// players, each on its own machine, play the whole game and see it end
// verified: nothing the host builds from peers' data outgrows a frame.
func TestE2ELongNickRefused(t *testing.T) {
	t.Parallel()
	l := newLAN(t, 4, false)
	dir := t.TempDir()
	name := "nick-" + l.prefix[len(l.prefix)-5:]
	host, table := l.startHost(dir, name, 2, 1)
	nick := strings.Repeat("x", 65236)
	rogue := l.startRogue(4, "long-nick", rogueEnv+"=shares", rogueAddrEnv+"="+hostAddr(t, table), lieNickEnv+"="+nick)
	refused := rogue.waitFor(60*time.Second, "the rogue's refusal", isType("error"))
	want := protocol.CheckNick(nick).Error()
	if text := refused.str("text"); !strings.Contains(text, want) {
		t.Errorf("the 65,236-byte nickname was refused with %q; want %q", clip(text, 300), want)
	}
	var players []*proc
	for i := 2; i <= 3; i++ {
		players = append(players, l.start(i, "join"+string(rune('0'+i)), joinArgs(filepath.Join(dir, string(rune('0'+i))), name)...))
	}
	finishGame(t, 4, 1, append([]*proc{host}, players...), 2*time.Minute)
}
