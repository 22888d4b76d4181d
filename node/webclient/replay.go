package webclient

import (
	"crypto/ed25519"

	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/protocol"
)

// Replay is what a phone of key (a spectator's place when watch)
// concludes from a recorded stream of its host's envelopes, each taken as
// the client takes one it read, with no link, no store and no answer
// sent: the state it would show after the last. toss is its part in the
// deal's toss as a reload finds it kept (the stream's Toss messages would
// draw a new nonce). node's test that the phone and the terminal draw the
// same conclusions from the same messages feeds this and the terminal's
// player one stream.
func Replay(key ed25519.PrivateKey, watch bool, toss gamewire.Toss, envs []*protocol.Envelope) State {
	c := &Client{cfg: Config{Key: key, Watch: watch}, seat: -1, term: 1, status: "seated", done: make(chan struct{})}
	c.toss.Toss = toss
	c.rec.journal.SeatKey = func(seat int) ed25519.PublicKey { return gamewire.PlayerKey(c.lobby.Players, seat) }
	for _, env := range envs {
		c.take(env)
	}
	return c.State()
}
