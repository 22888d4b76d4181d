package mental

import (
	"errors"
	"fmt"
	"strings"
)

// The refusals. Each check that finds a party at fault returns a *Fault
// wrapping one of these, so errors.Is tells what went wrong and Blame tells
// who.
var (
	ErrMalformed     = errors.New("mental: malformed encoding")
	ErrIdentityKey   = errors.New("mental: deck key is the identity")
	ErrDuplicateKey  = errors.New("mental: deck key already taken by another party")
	ErrKeyProof      = errors.New("mental: proof of the deck secret does not verify")
	ErrShareProof    = errors.New("mental: partial decryption proof does not verify")
	ErrNotACard      = errors.New("mental: ciphertext decrypts to no card of the deck")
	ErrFalseOpening  = errors.New("mental: opening decrypts to another card than it claims")
	ErrShuffleCommit = errors.New("mental: shuffle opening does not match its commitment")
	ErrShuffle       = errors.New("mental: shuffle opening does not explain the shuffled deck")
	ErrSubShare      = errors.New("mental: recovery sub-share does not match its commitments")
	ErrRecovery      = errors.New("mental: recovery commitments do not match the deck key")
	ErrTooFew        = errors.New("mental: fewer recovery sub-shares than the threshold")
	ErrRecoveryProof = errors.New("mental: recovery share proof does not verify")
	ErrHolder        = errors.New("mental: recovery share from a party that holds no sub-share")
	ErrHolderTwice   = errors.New("mental: two recovery shares from one holder")
	ErrSealed        = errors.New("mental: sealed message does not open")
	ErrSecret        = errors.New("mental: published secret does not match the deck key")
	ErrParties       = errors.New("mental: wrong number of parties")
)

// A Fault is a refusal that names the party to blame: its index in the
// table's list of player nodes (the order of the keys given to JointKey).
type Fault struct {
	Party int
	Err   error // wraps one of the Err… values above
}

func (f *Fault) Error() string {
	return fmt.Sprintf("mental: party %d: %s", f.Party, strings.TrimPrefix(f.Err.Error(), "mental: "))
}
func (f *Fault) Unwrap() error { return f.Err }

// Blame returns the party an error names, if it is a Fault.
func Blame(err error) (party int, ok bool) {
	var f *Fault
	if errors.As(err, &f) {
		return f.Party, true
	}
	return -1, false
}

func blame(party int, err error, format string, args ...any) error {
	if format != "" {
		err = fmt.Errorf("%w ("+format+")", append([]any{err}, args...)...)
	}
	return &Fault{Party: party, Err: err}
}
