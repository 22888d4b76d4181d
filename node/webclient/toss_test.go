package webclient

import (
	"testing"

	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/internal/nodetest"
	"github.com/bullshit-game/bullshit/node/record"
	"github.com/bullshit-game/bullshit/protocol"
)

// The phone's side of node's TestTerminalTossRerun, on the same cases: a
// new toss after a reveal the host dealt from, at a table dealt again
// after a failover (its lobby names no deal), is no rerun; asked again
// without a deal, it is. The phone judged by the lobby's commitment too,
// and failed the first case.
func TestPhoneTossRerun(t *testing.T) {
	for _, c := range nodetest.RerunCases {
		cl := &Client{seat: 1, term: 1, done: make(chan struct{})}
		cl.toss = record.Toss{Toss: gamewire.Toss{Round: nodetest.First, Revealed: true, Commits: [][32]byte{{}, {9}}}}
		for _, commit := range c.Lobbies {
			cl.take(&protocol.Envelope{Sender: "host", Msg: protocol.Lobby{You: 1, Commit: commit}})
		}
		var reply protocol.Message
		if rs := cl.take(&protocol.Envelope{Sender: "host", Msg: protocol.Toss{Round: nodetest.Second}}); len(rs) == 1 {
			reply = rs[0]
		}
		if _, ok := reply.(protocol.NonceCommit); !ok || cl.toss.Rerun != c.Rerun {
			t.Errorf("%s: answered %T, rerun %v, want a commitment, %v", c.Name, reply, cl.toss.Rerun, c.Rerun)
		}
	}
}
