package gamewire

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"strconv"
	"strings"
)

// The deal's coin toss (protocol 1.4) takes the choice of the deal away
// from the host. The host draws its seed and salt and publishes Commit
// first; every seated player then commits to a fresh 32-byte nonce
// (NonceHash, bound to the host's commitment and the seat), the host
// relays every commitment to every player, and only then does each player
// reveal its nonce. The engine's seed is DealSeed: a hash of the host's
// seed and salt and every revealed nonce in seat order.
//
// So no one can steer the deal. The host is bound to its seed before it
// sees a nonce, and its salt keeps the players from computing the deal
// before the end. A player is bound to its nonce before it sees another's,
// and can't compute the deal (it lacks the host's seed) to decide whether
// to reveal. The host can leave a nonce out (say it came too late): the
// seat that revealed it catches that in its audit, as every seat catches a
// revealed nonce that doesn't match its commitment.

// nonceDomain and dealDomain keep these hashes from equalling any other
// SHA-256 use, and each other.
const (
	nonceDomain = "bullshit/nonce/v1"
	dealDomain  = "bullshit/deal/v1"
)

// NonceSize is the length of a player's nonce.
const NonceSize = 32

// ErrNonceMismatch is a revealed nonce that doesn't hash to the commitment
// its seat sent before it saw the others'.
var ErrNonceMismatch = errors.New("that nonce doesn't match the commitment you sent before the others were shown: a nonce can't change once committed")

// NonceHash is seat's commitment to nonce in the toss whose host
// commitment is round: SHA-256("bullshit/nonce/v1" || round || seat, 4
// bytes little-endian || nonce). Binding round and seat keeps a commitment
// from being copied from another deal or another seat.
func NonceHash(round [32]byte, seat int, nonce [NonceSize]byte) [32]byte {
	var b [len(nonceDomain) + 32 + 4 + NonceSize]byte
	n := copy(b[:], nonceDomain)
	n += copy(b[n:], round[:])
	binary.LittleEndian.PutUint32(b[n:], uint32(seat))
	copy(b[n+4:], nonce[:])
	return sha256.Sum256(b[:])
}

// CheckNonce reports whether nonce is what hash committed seat to.
func CheckNonce(hash, round [32]byte, seat int, nonce [NonceSize]byte) bool {
	h := NonceHash(round, seat, nonce)
	return subtle.ConstantTimeCompare(h[:], hash[:]) == 1
}

// DealSeed is the engine's seed for a deal from the host's seed and salt
// and the players' nonces, one a seat (zero: that seat gave none): the
// first 8 bytes, little-endian, of SHA-256("bullshit/deal/v1" || seed, 8
// bytes little-endian || salt || each seat's byte 1 and nonce, or byte 0,
// in seat order). With no nonce at all (no player took part: a table of
// the host and bots, or a game before protocol 1.4) it is seed itself.
func DealSeed(seed uint64, salt [SaltSize]byte, nonces [][NonceSize]byte) uint64 {
	some := false
	for _, n := range nonces {
		some = some || n != [NonceSize]byte{}
	}
	if !some {
		return seed
	}
	h := sha256.New()
	h.Write([]byte(dealDomain))
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], seed)
	h.Write(b[:])
	h.Write(salt[:])
	for _, n := range nonces {
		if n == ([NonceSize]byte{}) {
			h.Write([]byte{0})
			continue
		}
		h.Write([]byte{1})
		h.Write(n[:])
	}
	return binary.LittleEndian.Uint64(h.Sum(nil)[:8])
}

// Toss is what one seat knows of the deal's coin toss, for its audit.
type Toss struct {
	// Round is the host commitment this seat's toss was bound to (zero: it
	// took no part).
	Round [32]byte
	// Commits are every seat's nonce commitment as the host relayed them
	// before the reveal (nil: this seat never saw them).
	Commits [][32]byte
	// Nonces are the nonces the host says the deal mixed, one a seat.
	Nonces [][NonceSize]byte
	// Mine is this seat's own nonce, if Revealed: it sent it to the host.
	Mine     [NonceSize]byte
	Revealed bool
	// Players are the seats whose nonce the deal must mix (MustMix), by
	// name, one a seat, "" for one it needn't; nil in a record from
	// before the rule, whose toss is checked as it was.
	Players []string
}

// TossSeat is a seat as MustMix reads it: its name, its node's peer ID
// ("" for none) and whether a bot holds it.
type TossSeat struct {
	Name, Peer string
	Bot        bool
}

// MustMix is, one a seat, the name of each seat whose nonce a deal at
// seats must mix, "" for the others: every seat of a person's node but
// the dealer's (the host that dealt: its seed is its part), and self, the
// seat of the node checking, whatever the host says of it (-1: a
// spectator, or the host's own screen).
func MustMix(seats []TossSeat, dealer string, self int) []string {
	out := make([]string, len(seats))
	for i, s := range seats {
		if (s.Peer != "" && !s.Bot && s.Peer != dealer) || i == self {
			out[i] = s.Name
			if out[i] == "" {
				out[i] = "seat " + strconv.Itoa(i+1)
			}
		}
	}
	return out
}

// checkToss is Verify's part for the toss: problems, and notes that are
// no fault of the host's (a seat left out that may have been late).
func checkToss(commitment [32]byte, seats, seat int, t Toss) (problems, notes []string) {
	if len(t.Nonces) != 0 && len(t.Nonces) != seats {
		return []string{"the host's list of nonces doesn't have one for each seat."}, nil
	}
	if t.Round != ([32]byte{}) && t.Round != commitment {
		problems = append(problems, "the host's commitment changed after the players' nonces were asked for: it could have picked its seed after seeing them.")
	}
	if t.Commits != nil && len(t.Commits) != seats {
		problems = append(problems, "the host relayed a list of commitments that doesn't have one for each seat.")
	}
	must := func(i int) bool { return i >= 0 && i < len(t.Players) && t.Players[i] != "" }
	switch {
	case !must(seat) && t.Round != ([32]byte{}) && !t.Revealed && seat >= 0:
		notes = append(notes, "this seat's nonce wasn't part of the deal: the host said its commitment came too late.")
	case must(seat) && t.Round == ([32]byte{}):
		problems = append(problems, "this seat took no part in the deal's toss (the host never asked it for its nonce, or this node started again since): the deal may be the host's alone, and it could have chosen the cards.")
	case must(seat) && !t.Revealed:
		problems = append(problems, "this seat's nonce wasn't part of the deal (the host said it came too late): the deal is the host's alone, and it could have chosen the cards.")
	}
	mixed := func(i int) bool { return i < len(t.Nonces) && t.Nonces[i] != [NonceSize]byte{} }
	if t.Revealed && seat >= 0 && seat < seats && (!mixed(seat) || t.Nonces[seat] != t.Mine) {
		problems = append(problems, "the host dealt without the nonce this seat revealed: it could have chosen which nonces to use.")
	}
	var unmixed []string
	for i := range seats {
		var c [32]byte
		if i < len(t.Commits) {
			c = t.Commits[i]
		}
		switch {
		case mixed(i) && t.Commits != nil && (c == [32]byte{} || !CheckNonce(c, commitment, i, t.Nonces[i])):
			problems = append(problems, "seat "+strconv.Itoa(i+1)+"'s nonce doesn't match the commitment relayed before the reveal.")
		case !mixed(i) && must(i) && i != seat:
			unmixed = append(unmixed, t.Players[i]+" (seat "+strconv.Itoa(i+1)+")")
		case !mixed(i) && c != [32]byte{} && i != seat:
			notes = append(notes, "seat "+strconv.Itoa(i+1)+" committed to a nonce the deal didn't use (not revealed in time, the host says).")
		}
	}
	if len(unmixed) > 0 {
		problems = append(problems, "the deal didn't mix the nonce of "+strings.Join(unmixed, ", ")+": whatever the host says of why, it could have chosen the cards.")
	}
	return problems, notes
}
