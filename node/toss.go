package node

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/record"
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
var rogueDeal func(t *Table, seed uint64, salt [SaltSize]byte) bool

// TossTries is how many tosses a deal runs before it deals without a seat
// that sent no commitment in time.
const TossTries = 3

// NonceSize is the length of a player's nonce.
const NonceSize = gamewire.NonceSize

// ErrNonceMismatch is a revealed nonce that doesn't match its commitment.
var ErrNonceMismatch = gamewire.ErrNonceMismatch

// ErrNoToss is a nonce or commitment that comes when the host isn't asking
// for one: no toss, another deal's, the commitments already relayed, or
// one already sent.
var ErrNoToss = errors.New("The host isn't asking for that now.")

// NonceHash is gamewire.NonceHash.
func NonceHash(round [32]byte, seat int, nonce [NonceSize]byte) [32]byte {
	return gamewire.NonceHash(round, seat, nonce)
}

// DealSeed is gamewire.DealSeed: the engine's seed from the host's seed
// and salt and the players' nonces.
func DealSeed(seed uint64, salt [SaltSize]byte, nonces [][NonceSize]byte) uint64 {
	return gamewire.DealSeed(seed, salt, nonces)
}

// NewNonce draws a nonce from crypto/rand.
func NewNonce() ([NonceSize]byte, error) {
	var n [NonceSize]byte
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
	salt    [SaltSize]byte
	round   [32]byte // Commit(seed, salt)
	asked   map[int]bool
	commits [][32]byte
	nonces  [][NonceSize]byte
	relayed bool
	stage   int // bumped at each stage, so a stale timer does nothing
	try     int // 1 for the deal's first toss, up to TossTries
}

// tossing reports whether seat s takes part in a toss: a person's node
// that said it can, connected now.
func (s *seat) tossing() bool { return s.tosses && s.box != nil && s.owner != "" && s.owner != "local" }

// startToss begins the toss for a deal from seed and salt, its try-th, or
// reports false if no seat can take part.
func (t *Table) startToss(seed uint64, salt [SaltSize]byte, try int) bool {
	tt := &toss{seed: seed, salt: salt, round: Commit(seed, salt), asked: map[int]bool{}, try: try,
		commits: make([][32]byte, len(t.seats)), nonces: make([][NonceSize]byte, len(t.seats))}
	for i, s := range t.seats {
		if s.tossing() {
			tt.asked[i] = true
		}
	}
	if len(tt.asked) == 0 {
		return false
	}
	t.toss = tt
	for i := range tt.asked {
		t.seats[i].box.put(Update{Table: t.state(i), At: t.now(), Toss: &TossAsk{Round: tt.round}})
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
	t.tossWait = t.after(t.set.Timing.Toss, func() {
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
func (t *Table) Nonce(seatNo int, round [32]byte, hash *[32]byte, nonce *[NonceSize]byte) error {
	var err error
	derr := t.do(func() { err = t.nonce(seatNo, round, hash, nonce) })
	if derr != nil {
		return derr
	}
	return err
}

func (t *Table) nonce(seatNo int, round [32]byte, hash *[32]byte, nonce *[NonceSize]byte) error {
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
		if !tt.relayed || tt.commits[seatNo] == ([32]byte{}) || tt.nonces[seatNo] != ([NonceSize]byte{}) {
			return ErrNoToss
		}
		if !gamewire.CheckNonce(tt.commits[seatNo], round, seatNo, *nonce) || *nonce == ([NonceSize]byte{}) {
			return ErrNonceMismatch
		}
		tt.nonces[seatNo] = *nonce
		for i, c := range tt.commits {
			if c != ([32]byte{}) && tt.nonces[i] == ([NonceSize]byte{}) {
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
			late = append(late, t.seats[i].name)
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
		if s := t.seats[i]; s.box != nil {
			s.box.put(Update{Table: t.state(i), At: t.now(), Toss: &TossAsk{Round: tt.round, Commits: append([][32]byte(nil), tt.commits...)}})
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
	for i, s := range t.seats {
		switch {
		case tt.asked[i] && tt.nonces[i] == ([NonceSize]byte{}):
			late = append(late, s.name)
			stalled = stalled || tt.commits[i] == ([32]byte{})
		case !tt.asked[i] && s.owner != "" && s.owner != "local":
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

// mixed is nonces, or nil if it holds none: a game that mixed no nonce
// looks like one from before the toss.
func mixed(nonces [][NonceSize]byte) [][NonceSize]byte {
	for _, n := range nonces {
		if n != ([NonceSize]byte{}) {
			return append([][NonceSize]byte(nil), nonces...)
		}
	}
	return nil
}

// answerToss is a player node's side of the toss: a fresh nonce's
// commitment when asked, the nonce once every commitment is relayed with
// ours among them. It never reveals twice in a toss, nor to a host that
// left its commitment out.
func (r *Remote) answerToss(m protocol.Toss) {
	if r.local != nil {
		return
	}
	asked := r.toss.Commits == nil
	reply := r.toss.Answer(m, r.seat, r.table.Commit)
	if reply != nil || (asked && r.toss.Commits != nil) {
		// Before the commitment goes: a crash after it still has the nonce.
		r.keepToss()
	}
	if reply != nil {
		r.send(reply)
	}
}

// mustMix is gamewire.MustMix of seats dealt by the node dealer (a peer
// ID), as self's node checks them.
func mustMix(seats []SeatInfo, dealer string, self int) []string {
	ts := make([]gamewire.TossSeat, len(seats))
	for i, s := range seats {
		ts[i] = gamewire.TossSeat{Name: s.Name, Peer: s.Peer, Bot: s.Bot != ""}
	}
	return gamewire.MustMix(ts, dealer, self)
}

// keptToss is a player's toss as it keeps it on disk, so that a node that
// started again mid-game (a crash, a laptop restarted) still holds the
// nonce it gave the deal, and audits the game as the others do.
type keptToss struct {
	Table protocol.TableID
	Seat  int
	Toss  Toss
}

// KeepTossIn has r keep its part of each deal's toss in dir (a profile's
// directory, which must exist), and takes back the one kept there before,
// for the deal it belongs to: a node that started again mid-game is then
// no seat that "took no part in the deal's toss". A file that can't be
// read or written keeps nothing, as before.
func (r *Remote) KeepTossIn(dir string) {
	path := filepath.Join(dir, "toss.json")
	var k keptToss
	if b, err := os.ReadFile(path); err == nil && json.Unmarshal(b, &k) == nil {
		r.do(func() { r.kept = &k })
	}
	r.do(func() { r.tossFile = path })
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
