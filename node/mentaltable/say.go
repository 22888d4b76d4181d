package mentaltable

import (
	"errors"
	"strings"

	"github.com/bullshit-game/bullshit/protocol"
	"github.com/bullshit-game/bullshit/protocol/mental"
)

// What a refusal of a party's message says to a person. The table names
// the party by whose node it is; a party's number means nothing on a
// screen, so Said leaves it out.

// said is what each refusal means, in a person's words.
var said = []struct {
	err  *error // a pointer: the table is then data, laid out by the linker, not 2 kB of code run at start
	text string
}{
	{&mental.ErrFalseOpening, "it claimed other cards than they are"},
	{&mental.ErrShareProof, "a share in it doesn't prove itself"},
	{&mental.ErrNotACard, "it decrypts to no card"},
	{&mental.ErrKeyProof, "its deck key's proof doesn't verify"},
	{&mental.ErrIdentityKey, "its deck key is no key"},
	{&mental.ErrDuplicateKey, "its deck key is another node's"},
	{&mental.ErrShuffleCommit, "its shuffle's opening isn't what it committed to"},
	{&mental.ErrShuffle, "its shuffle's opening doesn't explain the deck it sent"},
	{&mental.ErrSubShare, "a recovery sub-share doesn't match its commitments"},
	{&mental.ErrRecovery, "its recovery commitments don't match its deck key"},
	{&mental.ErrRecoveryProof, "a recovery share doesn't prove itself"},
	{&mental.ErrSealed, "a sealed part doesn't open"},
	{&mental.ErrSecret, "its secret isn't its deck key's"},
	{&mental.ErrMalformed, "it is malformed"},
	{&ErrWrongCards, "it turns up other cards than the ones asked for"},
	{&ErrNotHeld, "it hands over a card it wasn't to hand over"},
	{&ErrDeck, "the deck isn't every card once"},
}

// dropCopies takes out the deck and copy a Face's String adds to a
// card's name ("7S/0.0" → "7S"): which physical card, nothing a person
// needs. (A hand scan: regexp would add some 100 kB to a phone's page.)
func dropCopies(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '/' {
			if n := copyLen(s[i+1:]); n > 0 {
				i += n
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// copyLen is the length of the "deck.copy" s begins with (digits, a dot,
// digits, then no more of a word), or 0.
func copyLen(s string) int {
	digits := func(i int) int {
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		return j - i
	}
	a := digits(0)
	if a == 0 || a >= len(s) || s[a] != '.' {
		return 0
	}
	b := digits(a + 1)
	n := a + 1 + b
	if b == 0 || n < len(s) && (s[n] == '_' || s[n] >= '0' && s[n] <= '9' || s[n]|0x20 >= 'a' && s[n]|0x20 <= 'z') {
		return 0
	}
	return n
}

// Said is err, a refusal of a party's message, as a person reads it:
// what was wrong, and where (which card), without the party's number.
func Said(err error) string {
	if err == nil {
		return ""
	}
	for _, s := range said {
		if !errors.Is(err, *s.err) {
			continue
		}
		// Where: the last parenthesis, unless it names a party.
		msg := err.Error()
		if i := lastParen(msg); i >= 0 && strings.HasSuffix(msg, ")") && !strings.Contains(msg[i:], "party") {
			return s.text + ": " + dropCopies(msg[i+2:len(msg)-1])
		}
		return s.text
	}
	msg := err.Error()
	if f := (*mental.Fault)(nil); errors.As(err, &f) {
		msg = f.Err.Error()
	}
	for _, p := range []string{"mental: ", "mentaltable: "} {
		for i := strings.Index(msg, p); i >= 0; i = strings.Index(msg, p) {
			msg = msg[:i] + msg[i+len(p):]
		}
	}
	return msg
}

// lastParen is where the last " (" in s begins, or -1. (By hand, as
// dropCopies: strings.LastIndex and ReplaceAll are 7 kB of the page.)
func lastParen(s string) int {
	for i := len(s) - 2; i >= 0; i-- {
		if s[i] == ' ' && s[i+1] == '(' {
			return i
		}
	}
	return -1
}

// ShuffleCheat is why a game's end can't be revealed, as a person reads
// it: with every secret in, a shuffle that doesn't check (or a deck that
// isn't every card once) names the node that shuffled it, by name.
func ShuffleCheat(err error, name func(party int) string) string {
	if i, ok := mental.Blame(err); ok {
		return name(i) + "'s node cheated at the shuffle (" + Said(err) + "): this game can't be checked."
	}
	return protocol.Sentence(err)
}
