package gamewire

import (
	"crypto/rand"
	"errors"

	"github.com/bullshit-game/bullshit/protocol"
)

// ErrOldHost is a private table whose host proves join codes the 1.1
// way, which would give the code away to anyone listening: not answered.
var ErrOldHost = errors.New("this table's host runs an older version of the game: it must update before anyone joins with a code")

// Refused is a host's refusal to seat us, the terminal's and the
// phone's: its code and words, and the refusing node's term from its
// envelope.
type Refused struct {
	Code, Msg string
	Term      uint64
}

func (e *Refused) Error() string { return e.Msg }

// RefusedBy is the host's refusal m, in env, with its words cleaned.
func RefusedBy(env *protocol.Envelope, m protocol.Refusal) *Refused {
	return &Refused{Code: m.Code, Msg: protocol.Clean(m.Message, protocol.MaxText), Term: env.Term}
}

// RefusedVersion is a node of another major version (its refusal of our
// hello): it can't seat us, and its words can't be read.
func RefusedVersion(other *protocol.VersionError) *Refused {
	return &Refused{Code: protocol.CodeVersion, Msg: protocol.HostVersionRefusal(other.Peer)}
}

// AnswerChallenge is the joiner's side of the join code exchange
// (protocol.Pake), the terminal's and the phone's: its share and
// confirmation for the host's challenge in env, for code and the hello it
// sent, between joiner me and host. The table ID is the one the host's
// envelope names.
func AnswerChallenge(code string, hello protocol.Hello, env *protocol.Envelope, me, host string) (*protocol.Pake, error) {
	m := env.Msg.(protocol.Challenge)
	if len(m.Share) == 0 {
		return nil, ErrOldHost
	}
	secret := make([]byte, protocol.SecretSize)
	rand.Read(secret)
	px, err := protocol.NewPake(protocol.Joiner, code, protocol.PakeContext{Joiner: me, Host: host, Table: env.Table,
		JoinerNonce: hello.Nonce, HostNonce: m.Nonce}, secret)
	if err != nil {
		return nil, err
	}
	if err := px.Meet(m.Share); err != nil {
		return nil, err
	}
	return px, nil
}
