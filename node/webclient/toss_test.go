package webclient

import (
	"testing"

	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/record"
	"github.com/bullshit-game/bullshit/protocol"
)

// The phone's side of node's TestTerminalTossRerun: a new toss after a
// reveal the host dealt from, at a table dealt again after a failover
// (its lobby names no deal), is no rerun; asked again without a deal, it
// is. The phone judged by the lobby's commitment too, and failed the
// first case.
func TestPhoneTossRerun(t *testing.T) {
	first, second, before := [32]byte{1}, [32]byte{2}, [32]byte{3}
	for _, c := range []struct {
		name    string
		lobbies [][32]byte
		rerun   bool
	}{
		{"a new deal after a failover", [][32]byte{first, {}}, false},
		{"a new deal after the game", [][32]byte{first}, false},
		{"asked again, never dealt", [][32]byte{before}, true},
		{"asked again, no deal at all", nil, true},
	} {
		c0 := &Client{seat: 1, term: 1, done: make(chan struct{})}
		c0.toss = record.Toss{Toss: gamewire.Toss{Round: first, Revealed: true, Commits: [][32]byte{{}, {9}}}}
		for _, commit := range c.lobbies {
			c0.take(&protocol.Envelope{Sender: "host", Msg: protocol.Lobby{You: 1, Commit: commit}})
		}
		reply := c0.take(&protocol.Envelope{Sender: "host", Msg: protocol.Toss{Round: second}})
		if _, ok := reply.(protocol.NonceCommit); !ok || c0.toss.Rerun != c.rerun {
			t.Errorf("%s: answered %T, rerun %v, want a commitment, %v", c.name, reply, c0.toss.Rerun, c.rerun)
		}
	}
}
