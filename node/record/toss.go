package record

import (
	"crypto/rand"

	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/protocol"
)

// Toss is this seat's side of the deal's toss (gamewire/toss.go): a fresh
// nonce's commitment when the host asks, the nonce once the host relays
// every commitment with ours among them, never twice in a toss, nor to a
// host that left our commitment out. What it did is kept for the audit.
// A toss outlives a game's record: it comes before the deal.
type Toss struct {
	gamewire.Toss
	// Rerun: the host asked again after we had revealed a nonce it never
	// dealt from.
	Rerun bool
}

// Answer is our reply to the host's Toss at seat, nil for none; dealt is
// the last deal a host showed us (the last non-zero Lobby.Commit): a new
// toss after a reveal the host dealt from is no rerun. Not the lobby's
// commitment now: a table dealt again after a failover names none until
// it deals, and a toss after a game that was played is no rerun. An
// answer changes the toss: keep it (a reload, a crash) before it is sent.
func (t *Toss) Answer(m protocol.Toss, seat int, dealt [32]byte) protocol.Message {
	if seat < 0 {
		return nil
	}
	switch {
	case len(m.Commits) == 0:
		if m.Round == t.Round {
			return nil // asked twice: we answered
		}
		rerun := t.Revealed && dealt != t.Round
		var n [gamewire.NonceSize]byte
		if _, err := rand.Read(n[:]); err != nil {
			return nil
		}
		*t = Toss{Toss: gamewire.Toss{Round: m.Round, Mine: n}, Rerun: rerun}
		return protocol.NonceCommit{Round: m.Round, Hash: gamewire.NonceHash(m.Round, seat, n)}
	case m.Round == t.Round && t.Commits == nil:
		t.Commits = append([][32]byte(nil), m.Commits...)
		if seat < len(m.Commits) && m.Commits[seat] == gamewire.NonceHash(m.Round, seat, t.Mine) {
			t.Revealed = true
			return protocol.NonceReveal{Round: m.Round, Nonce: t.Mine}
		}
	}
	return nil
}

// Spent is the toss as the audit of the game just revealed reads it,
// with the nonces the host says the deal mixed: our own nonce only if we
// revealed it.
func (t Toss) Spent(nonces [][gamewire.NonceSize]byte) gamewire.Toss {
	g := t.Toss
	g.Nonces = nonces
	if !g.Revealed {
		g.Mine = [gamewire.NonceSize]byte{}
	}
	return g
}
