package node

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/bullshit-game/bullshit/node/journal"
	"github.com/bullshit-game/bullshit/node/record"
	"github.com/bullshit-game/bullshit/protocol"
)

// The deal's coin toss, player side: a player node's answers to the
// host's toss (the host's side is node/table's toss.go).

// answerToss is a player node's side of the toss: a fresh nonce's
// commitment when asked, the nonce once every commitment is relayed with
// ours among them. It never reveals twice in a toss, nor to a host that
// left its commitment out.
func (r *Remote) answerToss(m protocol.Toss) {
	if r.local != nil {
		return
	}
	asked := r.toss.Commits == nil
	reply := r.toss.Answer(m, r.seat, r.dealt.commit)
	if reply != nil || (asked && r.toss.Commits != nil) {
		// Before the commitment goes: a crash after it still has the nonce.
		r.keepToss()
	}
	if reply != nil {
		r.send(reply)
	}
}

// keptToss is a player's toss as it keeps it on disk, so that a node that
// started again mid-game (a crash, a laptop restarted) still holds the
// nonce it gave the deal, and audits the game as the others do.
type keptToss struct {
	Table protocol.TableID
	Seat  int
	Toss  journal.Toss
}

// keptTossIn is where a seat keeps its part of each deal's toss in dir (a
// profile's directory, which must exist), and the one kept there before,
// for the deal it belongs to (Setup.Keep): a node that started again
// mid-game is then no seat that "took no part in the deal's toss". A file
// that can't be read or written keeps nothing, as before.
func keptTossIn(dir string) (string, *keptToss) {
	path := filepath.Join(dir, "toss.json")
	var k keptToss
	if b, err := os.ReadFile(path); err == nil && json.Unmarshal(b, &k) == nil {
		return path, &k
	}
	return path, nil
}

// keepToss writes the toss now held, for the table r sits at.
func (r *Remote) keepToss() {
	if r.tossFile == "" {
		return
	}
	b, err := json.Marshal(keptToss{Table: r.tid, Seat: r.seat, Toss: r.toss.Toss})
	if err != nil {
		return
	}
	tmp := r.tossFile + ".new"
	if os.WriteFile(tmp, b, 0o600) == nil {
		os.Rename(tmp, r.tossFile)
	}
}

// ownToss is the toss this seat took part in for the deal in play: the one
// held, or the one kept on disk before this program started again, when it
// is for this table, this seat and this deal.
func (r *Remote) ownToss() record.Toss {
	if r.toss.Round == ([32]byte{}) && r.kept != nil && r.kept.Table == r.tid && r.kept.Seat == r.seat &&
		r.kept.Toss.Round == r.table.Commit && r.table.Commit != ([32]byte{}) {
		return record.Toss{Toss: r.kept.Toss}
	}
	return r.toss
}
