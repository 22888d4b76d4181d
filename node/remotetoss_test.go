package node

import (
	"testing"

	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/internal/nodetest"
	"github.com/bullshit-game/bullshit/node/record"
	"github.com/bullshit-game/bullshit/node/table"
	"github.com/bullshit-game/bullshit/protocol"
)

// A player that revealed its nonce for a deal the host then dealt and
// played, at a table rebuilt after a failover without it (a player held
// back its shares, a new game is dealt): the new table's lobby names no
// deal before its toss, and the new toss is no rerun. A host that asks
// again after our reveal without dealing from it is one
// (nodetest.RerunCases; the phone's side is webclient's TestPhoneTossRerun).
//
// Before Answer was given the last deal shown, the terminal judged by the
// lobby's commitment at the time of the new toss, none at a table dealt
// again, and its audit of the new game said the host chose between deals
// (TestE2EFailoverWithheldShares, 4 runs in 5).
func TestTerminalTossRerun(t *testing.T) {
	for _, c := range nodetest.RerunCases {
		r := &Remote{seat: 1, box: table.NewHeldMailbox()}
		r.toss = record.Toss{Toss: gamewire.Toss{Round: nodetest.First, Revealed: true, Commits: [][32]byte{{}, {9}}}}
		env := &protocol.Envelope{Sender: "host"}
		for _, commit := range c.Lobbies {
			r.takeLobby(env, &protocol.Lobby{You: 1, Commit: commit})
		}
		r.answerToss(protocol.Toss{Round: nodetest.Second})
		if r.toss.Round != nodetest.Second || r.toss.Rerun != c.Rerun {
			t.Errorf("%s: toss %x, rerun %v, want %x, %v", c.Name, r.toss.Round[:1], r.toss.Rerun, nodetest.Second[:1], c.Rerun)
		}
	}
}
