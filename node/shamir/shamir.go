package shamir

// Shares of the host's secret: what keeps a game alive when its host
// vanishes, without handing any one player the cards.
//
// What is secret. During a game only the host knows what is face down:
// the other hands, the pile, every play nobody called. All of it follows
// from the seed and the public log of commands, because the engine is
// deterministic: the seed fixes the deal, and each play's face-down cards
// are the cards that seat's hand held and put down, which the deal and the
// earlier public moves determine. (The command a seat sends names its
// cards, so the new host also needs each play's cards; every seat knows
// its own and the replay checks them, see below.) So the secret the host
// splits is small and fixed: the seed (8 bytes, little-endian) and the
// commitment's salt (32 bytes), 40 bytes in all (SplitSeed).
//
// How it is shared. At the deal the host splits the secret into one share
// per seat with a threshold of every player node but its own, and never
// fewer than two (Shamir's scheme over GF(2^8), for every byte a random
// polynomial of degree threshold − 1 through the secret; node/table's journalshare.go)
// and sends each player its own share, privately and signed. If the host
// vanishes, the elected new host asks every other player node for its
// share and combines them with its own: it has the seed and the salt,
// replays the public log, and carries on from the exact state.
// RecoverSeed checks what the shares give against the commitment every
// peer holds, so a wrong share is caught rather than trusted.
//
// What it protects against:
//   - any players short of all of them, pooling what they hold (one person
//     with two seats, or two phones): fewer shares than the threshold are
//     uniformly random byte strings, whatever the secret
//     (TestShamirOneShare shows every secret fits a share equally well),
//     so they learn nothing of the seed, nor of the other hands;
//   - a host that leaves, crashes or loses its network: the player nodes
//     together rebuild the game, with no copy of the hands kept anywhere;
//   - a wrong or forged share: the rebuilt seed must match the commitment.
//
// What it does not protect against:
//   - every other player node together: they hold the secret and can see
//     every hand (at a table of two player nodes, that is a pair). The
//     price of the high threshold is that a failover needs them all
//     (node/doc.go says which kills a table survives);
//   - the new host: once it has combined the shares it knows every hand,
//     exactly as the old host did. Whoever hosts is trusted not to peek;
//     the protocol bounds what a host can change, not what it knows;
//   - a host that cheats during the game (a false verdict, a changed card,
//     a re-deal): the shares don't prevent it; the audit at the end
//     (engine.Audit, after the seed is revealed) catches it;
//   - a table of two people and bots: when the host goes, the one player
//     left has a single share and can't rebuild the game alone; nor can
//     any table that lost a player node's shares with the host.
//
// The shares travel in protocol.StepShare (in an Update and a State).

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/bullshit-game/bullshit/node/gamewire"
)

// A Share is one point of a split: the y of every byte's polynomial at x.
type Share struct {
	X byte   // 1..255; x = 0 would be the secret itself
	K byte   // the threshold: how many shares rebuild the secret
	Y []byte // as long as the secret
}

// Errors from Split and Combine.
var (
	ErrShareCount     = errors.New("shamir: need 2 ≤ threshold ≤ shares ≤ 255")
	ErrEmptySecret    = errors.New("shamir: the secret is empty")
	ErrTooFewShares   = errors.New("shamir: too few shares to rebuild the secret")
	ErrShareX         = errors.New("shamir: a share's x must be 1 to 255")
	ErrDuplicateShare = errors.New("shamir: two shares have the same x")
	ErrShareLength    = errors.New("shamir: shares of different lengths")
	ErrShareThreshold = errors.New("shamir: shares of different thresholds")
	ErrShareMismatch  = errors.New("shamir: the shares are not of one secret")
)

// Split cuts secret into n shares, any k of which rebuild it and fewer
// tell nothing. Random coefficients come from rnd, crypto/rand when nil.
func Split(secret []byte, n, k int, rnd io.Reader) ([]Share, error) {
	if k < 2 || k > n || n > 255 {
		return nil, ErrShareCount
	}
	if len(secret) == 0 {
		return nil, ErrEmptySecret
	}
	if rnd == nil {
		rnd = rand.Reader
	}
	shares := make([]Share, n)
	for i := range shares {
		shares[i] = Share{X: byte(i + 1), K: byte(k), Y: make([]byte, len(secret))}
	}
	coef := make([]byte, k) // coef[0] is the secret byte
	for b, s := range secret {
		coef[0] = s
		if _, err := io.ReadFull(rnd, coef[1:]); err != nil {
			return nil, fmt.Errorf("shamir: drawing coefficients: %w", err)
		}
		for i := range shares {
			shares[i].Y[b] = gfEval(coef, shares[i].X)
		}
	}
	clear(coef)
	return shares, nil
}

// Combine rebuilds the secret from at least K shares. Shares beyond the
// first K are checked against the polynomial the first K give, so a share
// from another split or a damaged one is an error, not a wrong secret.
func Combine(shares []Share) ([]byte, error) {
	if len(shares) == 0 {
		return nil, ErrTooFewShares
	}
	k := int(shares[0].K)
	size := len(shares[0].Y)
	seen := [256]bool{}
	for _, s := range shares {
		switch {
		case s.X == 0:
			return nil, ErrShareX
		case seen[s.X]:
			return nil, fmt.Errorf("%w (x = %d)", ErrDuplicateShare, s.X)
		case int(s.K) != k:
			return nil, ErrShareThreshold
		case len(s.Y) != size || size == 0:
			return nil, ErrShareLength
		}
		seen[s.X] = true
	}
	if k < 2 {
		return nil, ErrShareCount
	}
	if len(shares) < k {
		return nil, fmt.Errorf("%w: %d of %d", ErrTooFewShares, len(shares), k)
	}
	base := shares[:k]
	secret := make([]byte, size)
	for b := range secret {
		secret[b] = gfInterpolate(base, b, 0)
	}
	for _, s := range shares[k:] {
		for b := range secret {
			if gfInterpolate(base, b, s.X) != s.Y[b] {
				return nil, fmt.Errorf("%w (x = %d)", ErrShareMismatch, s.X)
			}
		}
	}
	return secret, nil
}

// MarshalBinary writes a share as x, k, then y.
func (s Share) MarshalBinary() ([]byte, error) {
	return append([]byte{s.X, s.K}, s.Y...), nil
}

// UnmarshalBinary reads what MarshalBinary writes.
func (s *Share) UnmarshalBinary(b []byte) error {
	if len(b) < 3 {
		return ErrShareLength
	}
	if b[0] == 0 {
		return ErrShareX
	}
	*s = Share{X: b[0], K: b[1], Y: append([]byte(nil), b[2:]...)}
	return nil
}

// seedSecretSize is the seed and the salt.
const seedSecretSize = 8 + gamewire.SaltSize

// SplitSeed shares a game's seed and salt among n players, threshold k.
func SplitSeed(seed uint64, salt [gamewire.SaltSize]byte, n, k int, rnd io.Reader) ([]Share, error) {
	var secret [seedSecretSize]byte
	binary.LittleEndian.PutUint64(secret[:], seed)
	copy(secret[8:], salt[:])
	defer clear(secret[:])
	return Split(secret[:], n, k, rnd)
}

// RecoverSeed rebuilds a game's seed and salt from shares and checks them
// against the commitment published before the deal: a wrong share gives
// gamewire.ErrCommitMismatch, never a wrong game.
func RecoverSeed(commitment [32]byte, shares ...Share) (uint64, [gamewire.SaltSize]byte, error) {
	var salt [gamewire.SaltSize]byte
	secret, err := Combine(shares)
	if err != nil {
		return 0, salt, err
	}
	if len(secret) != seedSecretSize {
		return 0, salt, fmt.Errorf("%w: %d bytes, a seed and salt are %d", ErrShareLength, len(secret), seedSecretSize)
	}
	seed := binary.LittleEndian.Uint64(secret)
	copy(salt[:], secret[8:])
	if !gamewire.CheckCommit(commitment, seed, salt) {
		return 0, [gamewire.SaltSize]byte{}, gamewire.ErrCommitMismatch
	}
	return seed, salt, nil
}

// GF(2^8) with the AES polynomial x^8 + x^4 + x^3 + x + 1. Addition is
// xor. Multiplication is done bit by bit, with masks rather than branches
// or tables, so its time does not depend on the secret bytes.

func gfMul(a, b byte) byte {
	var p byte
	for range 8 {
		p ^= a & -(b & 1)
		hi := -(a >> 7)
		a = a<<1 ^ 0x1b&hi
		b >>= 1
	}
	return p
}

// gfInv is a^254 = a^-1 (and 0 for 0).
func gfInv(a byte) byte {
	r := byte(1)
	for e := 254; e > 0; e >>= 1 {
		if e&1 == 1 {
			r = gfMul(r, a)
		}
		a = gfMul(a, a)
	}
	return r
}

// gfEval is the polynomial coef (lowest degree first) at x, by Horner.
func gfEval(coef []byte, x byte) byte {
	var y byte
	for i := len(coef) - 1; i >= 0; i-- {
		y = gfMul(y, x) ^ coef[i]
	}
	return y
}

// gfInterpolate is, for byte b, the value at x of the polynomial through
// the points of shares (Lagrange). The xs are distinct and non-zero.
func gfInterpolate(shares []Share, b int, x byte) byte {
	var y byte
	for i, si := range shares {
		num, den := byte(1), byte(1)
		for j, sj := range shares {
			if i == j {
				continue
			}
			num = gfMul(num, x^sj.X)
			den = gfMul(den, si.X^sj.X)
		}
		y ^= gfMul(si.Y[b], gfMul(num, gfInv(den)))
	}
	return y
}
