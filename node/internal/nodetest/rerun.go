package nodetest

// RerunCase is a player's toss after it revealed its nonce for deal
// First: the lobbies it is shown after the reveal (their commitments),
// then the host's new toss, and whether the audit must call that a rerun.
// The terminal's player (node) and the phone's client (webclient) take
// the same cases: they must judge a toss alike.
type RerunCase struct {
	Name    string
	Lobbies [][32]byte
	Rerun   bool
}

// First is the deal the player revealed for, Second the new toss's.
var First, Second = [32]byte{1}, [32]byte{2}

// RerunCases: a table dealt again after a failover names no deal before
// its toss, and its new toss is no rerun; a host that asks again after
// our reveal without dealing from it reruns the toss.
var RerunCases = []RerunCase{
	{"a new deal after a failover", [][32]byte{First, {}}, false},
	{"a new deal after the game", [][32]byte{First}, false},
	{"asked again, never dealt", [][32]byte{{3}}, true},
	{"asked again, no deal at all", nil, true},
}
