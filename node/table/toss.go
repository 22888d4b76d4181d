package table

import (
	"crypto/rand"
	"fmt"
	"sort"
	"strings"

	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/protocol"
)

// The deal's coin toss, host side (the why and the hashes are in
// gamewire/toss.go). Start does not deal at once when a seat's node can
// toss (a 1.4 player, terminal or phone): the host draws its seed and
// salt, commits, and asks each such seat for a nonce commitment; once all
// are in, or Timing.Toss has passed, it relays them all and asks for the
// nonces; once all are in, or Timing.Toss has passed again, it deals from
// DealSeed.
//
// A deal without a player's nonce is not verified on any client
// (gamewire.MustMix), so a seat late with its commitment is named and the
// toss starts again with a new salt (nobody has revealed yet: no deal has
// been shown to choose from), up to TossTries times; then the deal goes
// ahead without it, the notice naming who stalled and saying the game
// won't verify or be rated. A seat that committed but didn't reveal in
// time is dealt around at once: asking again, after the others revealed,
// would let a host that knows its nonce choose between two deals. A table
// with no person's node but the host's deals at once from the host's seed.

// rogueDeal, set only in a test build (roguehost.go, tag roguehost), deals
// as a dishonest host would, and reports whether it did; nil in the game.
var rogueDeal func(t *Table, seed uint64, salt [gamewire.SaltSize]byte) bool

// TossTries is how many tosses a deal runs before it deals without a seat
// that sent no commitment in time.
const TossTries = 3

// ErrNoToss is a nonce or commitment that comes when the host isn't asking
// for one: no toss, another deal's, the commitments already relayed, or
// one already sent.
var ErrNoToss = protocol.Refuse(protocol.CodeNotAllowed, "no toss asked for", "The host isn't asking for that now.")

// NewNonce draws a nonce from crypto/rand.
func NewNonce() ([gamewire.NonceSize]byte, error) {
	var n [gamewire.NonceSize]byte
	_, err := rand.Read(n[:])
	return n, err
}

// TossAsk is the host asking a seat for its part of the toss: a nonce
// commitment (no Commits) or, with every seat's commitment, the nonce.
type TossAsk struct {
	Round   [32]byte
	Commits [][32]byte
}

// toss is a deal waiting on the players' nonces. Owned by the table
// goroutine.
type toss struct {
	seed    uint64
	salt    [gamewire.SaltSize]byte
	round   [32]byte // gamewire.Commit(seed, salt)
	asked   map[int]bool
	commits [][32]byte
	nonces  [][gamewire.NonceSize]byte
	relayed bool
	stage   int // bumped at each stage, so a stale timer does nothing
	try     int // 1 for the deal's first toss, up to TossTries
}

// tossing reports whether seat s takes part in a toss: a person's node
// that said it can, connected now.
func (s *seat) tossing() bool { return s.tosses && s.box != nil && s.Owner != "" && s.Owner != "local" }

// startToss begins the toss for a deal from seed and salt, its try-th, or
// reports false if no seat can take part.
func (t *Table) startToss(seed uint64, salt [gamewire.SaltSize]byte, try int) bool {
	tt := &toss{seed: seed, salt: salt, round: gamewire.Commit(seed, salt), asked: map[int]bool{}, try: try,
		commits: make([][32]byte, len(t.Seats)), nonces: make([][gamewire.NonceSize]byte, len(t.Seats))}
	for i, s := range t.Seats {
		if s.tossing() {
			tt.asked[i] = true
		}
	}
	if len(tt.asked) == 0 {
		return false
	}
	t.toss = tt
	for i := range tt.asked {
		t.Seats[i].box.Put(Update{Table: t.State(i), At: t.Now(), Toss: &TossAsk{Round: tt.round}})
	}
	t.tossTimer(tt)
	return true
}

// tossTimer bounds the wait of tt's current stage.
func (t *Table) tossTimer(tt *toss) {
	tt.stage++
	stage := tt.stage
	if t.tossWait != nil {
		t.tossWait.Stop()
	}
	t.tossWait = t.after(t.Set.Timing.Toss, func() {
		if t.toss != tt || tt.stage != stage {
			return
		}
		if !tt.relayed {
			t.relay(tt)
		} else {
			t.dealToss(tt)
		}
	})
}

// Nonce takes seat's part of the toss: its commitment (hash) or, once the
// commitments are relayed, its nonce. A late, repeated or changed one is
// refused (ErrNoToss, ErrNonceMismatch) and changes nothing.
func (t *Table) Nonce(seatNo int, round [32]byte, hash *[32]byte, nonce *[gamewire.NonceSize]byte) error {
	var err error
	derr := t.Do(func() { err = t.nonce(seatNo, round, hash, nonce) })
	if derr != nil {
		return derr
	}
	return err
}

func (t *Table) nonce(seatNo int, round [32]byte, hash *[32]byte, nonce *[gamewire.NonceSize]byte) error {
	tt := t.toss
	if tt == nil || tt.round != round || !tt.asked[seatNo] {
		return ErrNoToss
	}
	switch {
	case hash != nil:
		if tt.relayed || tt.commits[seatNo] != ([32]byte{}) || *hash == ([32]byte{}) {
			return ErrNoToss
		}
		tt.commits[seatNo] = *hash
		for i := range tt.asked {
			if tt.commits[i] == ([32]byte{}) {
				return nil
			}
		}
		t.relay(tt)
	case nonce != nil:
		if !tt.relayed || tt.commits[seatNo] == ([32]byte{}) || tt.nonces[seatNo] != ([gamewire.NonceSize]byte{}) {
			return ErrNoToss
		}
		if !gamewire.CheckNonce(tt.commits[seatNo], round, seatNo, *nonce) || *nonce == ([gamewire.NonceSize]byte{}) {
			return gamewire.ErrNonceMismatch
		}
		tt.nonces[seatNo] = *nonce
		for i, c := range tt.commits {
			if c != ([32]byte{}) && tt.nonces[i] == ([gamewire.NonceSize]byte{}) {
				return nil
			}
		}
		t.dealToss(tt)
	default:
		return ErrNoToss
	}
	return nil
}

// relay sends every commitment to each seat that sent one, and asks for
// the nonces; with none it deals. A seat that sent none is asked again, in
// a toss of its own with a new salt, up to TossTries.
func (t *Table) relay(tt *toss) {
	var late []string
	for i := range tt.asked {
		if tt.commits[i] == ([32]byte{}) {
			late = append(late, t.Seats[i].name)
		}
	}
	if len(late) > 0 && tt.try < TossTries {
		if salt, err := NewSalt(); err == nil {
			sort.Strings(late)
			t.toss = nil
			t.notice = fmt.Sprintf("Dealing again: %s didn't send a part of the toss in time (try %d of %d).", strings.Join(late, " and "), tt.try+1, TossTries)
			if !t.startToss(tt.seed, salt, tt.try+1) {
				t.dealToss(tt)
				return
			}
			t.deliver(nil, "")
			return
		}
	}
	tt.relayed = true
	n := 0
	for i, c := range tt.commits {
		if c == ([32]byte{}) {
			continue
		}
		n++
		if s := t.Seats[i]; s.box != nil {
			s.box.Put(Update{Table: t.State(i), At: t.Now(), Toss: &TossAsk{Round: tt.round, Commits: append([][32]byte(nil), tt.commits...)}})
		}
	}
	if n == 0 {
		t.dealToss(tt)
		return
	}
	t.tossTimer(tt)
}

// dealToss deals from what the toss gathered, naming the seats left out.
func (t *Table) dealToss(tt *toss) {
	t.toss = nil
	if t.tossWait != nil {
		t.tossWait.Stop()
	}
	var late, away []string
	stalled := false // a seat sent no commitment in any of the tries
	for i, s := range t.Seats {
		switch {
		case tt.asked[i] && tt.nonces[i] == ([gamewire.NonceSize]byte{}):
			late = append(late, s.name)
			stalled = stalled || tt.commits[i] == ([32]byte{})
		case !tt.asked[i] && s.Owner != "" && s.Owner != "local":
			away = append(away, s.name) // away, or too old a version to toss
		}
	}
	switch {
	case stalled:
		t.notice = fmt.Sprintf("Dealt without %s's nonce: no answer to the toss, %d tries over. This game won't verify and won't be rated.",
			strings.Join(late, " and "), TossTries)
	case len(late) > 0:
		t.notice = fmt.Sprintf("Dealt without %s's nonce: it didn't come in time. This game won't verify and won't be rated.", strings.Join(late, " and "))
	case len(away) > 0:
		t.notice = fmt.Sprintf("Dealt without %s's nonce: not here to toss. This game won't verify and won't be rated.", strings.Join(away, " and "))
	}
	t.commits = tt.commits
	if err := t.dealFrom(tt.seed, tt.salt, tt.nonces); err != nil {
		t.notice = "The deal failed: " + err.Error()
		t.deliver(nil, "")
	}
}

// Mixed is nonces, or nil if it holds none: a game that mixed no nonce
// looks like one from before the toss.
func Mixed(nonces [][gamewire.NonceSize]byte) [][gamewire.NonceSize]byte {
	for _, n := range nonces {
		if n != ([gamewire.NonceSize]byte{}) {
			return append([][gamewire.NonceSize]byte(nil), nonces...)
		}
	}
	return nil
}

// MustMix is gamewire.MustMix of seats dealt by the node dealer (a peer
// ID), as self's node checks them.
func MustMix(seats []SeatInfo, dealer string, self int) []string {
	ts := make([]gamewire.TossSeat, len(seats))
	for i, s := range seats {
		ts[i] = gamewire.TossSeat{Name: s.Name, Peer: s.Peer, Bot: s.Bot != ""}
	}
	return gamewire.MustMix(ts, dealer, self)
}
