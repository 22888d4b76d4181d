package node

import (
	"testing"

	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/record"
	"github.com/bullshit-game/bullshit/node/table"
	"github.com/bullshit-game/bullshit/protocol"
)

// A player that revealed its nonce for a deal the host then dealt and
// played, at a table rebuilt after a failover without it (a player held
// back its shares, a new game is dealt): the new table's lobby names no
// deal before its toss, and the new toss is no rerun. A host that asks
// again after our reveal without dealing from it is one.
//
// Before Answer was given the last deal shown, the terminal judged by the
// lobby's commitment at the time of the new toss, none at a table dealt
// again, and its audit of the new game said the host chose between deals
// (TestE2EFailoverWithheldShares, one seat in two).
func TestTerminalTossRerun(t *testing.T) {
	first, second, before := [32]byte{1}, [32]byte{2}, [32]byte{3}
	for _, c := range []struct {
		name    string
		lobbies [][32]byte // the lobbies' commitments after our reveal
		rerun   bool
	}{
		{"a new deal after a failover", [][32]byte{first, {}}, false},
		{"a new deal after the game", [][32]byte{first}, false},
		{"asked again, never dealt", [][32]byte{before}, true},
		{"asked again, no deal at all", nil, true},
	} {
		r := &Remote{seat: 1, box: table.NewHeldMailbox()}
		r.toss = record.Toss{Toss: gamewire.Toss{Round: first, Revealed: true, Commits: [][32]byte{{}, {9}}}}
		env := &protocol.Envelope{Sender: "host"}
		for _, commit := range c.lobbies {
			r.takeLobby(env, &protocol.Lobby{You: 1, Commit: commit})
		}
		r.answerToss(protocol.Toss{Round: second})
		if r.toss.Round != second || r.toss.Rerun != c.rerun {
			t.Errorf("%s: toss %x, rerun %v, want %x, %v", c.name, r.toss.Round[:1], r.toss.Rerun, second[:1], c.rerun)
		}
	}
}
