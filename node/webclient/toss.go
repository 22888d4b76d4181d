package webclient

import (
	"crypto/rand"

	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/protocol"
)

// The phone's side of the deal's toss (gamewire/toss.go), as a terminal
// player's: a fresh nonce's commitment when the host asks, the nonce once
// the host relays every commitment with ours among them, never twice in a
// toss. What it did is kept for the audit. The toss outlives a game's
// record (newGame): it comes before the deal.
type toss struct {
	gamewire.Toss
	rerun bool // the host asked again after we had revealed a nonce it never dealt from
}

// answerToss is our reply to the host's Toss, nil for none. Called with
// mu held.
func (c *Client) answerToss(m protocol.Toss) protocol.Message {
	seat := c.seat
	if seat < 0 {
		return nil
	}
	t := &c.toss
	switch {
	case len(m.Commits) == 0:
		if m.Round == t.Round {
			return nil // asked twice: we answered
		}
		rerun := t.Revealed && c.lobby.Commit != t.Round
		var n [gamewire.NonceSize]byte
		if _, err := rand.Read(n[:]); err != nil {
			return nil
		}
		*t = toss{Toss: gamewire.Toss{Round: m.Round, Mine: n}, rerun: rerun}
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

// tossRecord is our toss as the audit of the game just revealed reads it,
// and spends it. Called with mu held.
func (c *Client) tossRecord() (gamewire.Toss, bool) {
	t, rerun := c.toss.Toss, c.toss.rerun
	c.toss = toss{}
	t.Nonces = c.lobby.Nonces
	if !t.Revealed {
		t.Mine = [gamewire.NonceSize]byte{}
	}
	return t, rerun
}
