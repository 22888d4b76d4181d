package mentaltable

import (
	"errors"
	"regexp"
	"strings"

	"github.com/bullshit-game/bullshit/protocol"
	"github.com/bullshit-game/bullshit/protocol/mental"
)

// What a refusal of a party's message says to a person. The table names
// the party by whose node it is; a party's number means nothing on a
// screen, so Said leaves it out.

// said is what each refusal means, in a person's words.
var said = []struct {
	err  error
	text string
}{
	{mental.ErrFalseOpening, "it claimed other cards than they are"},
	{mental.ErrShareProof, "a share in it doesn't prove itself"},
	{mental.ErrNotACard, "it decrypts to no card"},
	{mental.ErrKeyProof, "its deck key's proof doesn't verify"},
	{mental.ErrIdentityKey, "its deck key is no key"},
	{mental.ErrDuplicateKey, "its deck key is another node's"},
	{mental.ErrShuffleCommit, "its shuffle's opening isn't what it committed to"},
	{mental.ErrShuffle, "its shuffle's opening doesn't explain the deck it sent"},
	{mental.ErrSubShare, "a recovery sub-share doesn't match its commitments"},
	{mental.ErrRecovery, "its recovery commitments don't match its deck key"},
	{mental.ErrRecoveryProof, "a recovery share doesn't prove itself"},
	{mental.ErrSealed, "a sealed part doesn't open"},
	{mental.ErrSecret, "its secret isn't its deck key's"},
	{mental.ErrMalformed, "it is malformed"},
	{ErrWrongCards, "it turns up other cards than the ones asked for"},
	{ErrNotHeld, "it hands over a card it wasn't to hand over"},
	{ErrDeck, "the deck isn't every card once"},
}

// faceCopy is the deck and copy a Face's String adds to the card's name
// ("7S/0.0"): which physical card, nothing a person needs.
var faceCopy = regexp.MustCompile(`/[0-9]+\.[0-9]+\b`)

// Said is err, a refusal of a party's message, as a person reads it:
// what was wrong, and where (which card), without the party's number.
func Said(err error) string {
	if err == nil {
		return ""
	}
	for _, s := range said {
		if !errors.Is(err, s.err) {
			continue
		}
		// Where: the last parenthesis, unless it names a party.
		msg := err.Error()
		if i := strings.LastIndex(msg, " ("); i >= 0 && strings.HasSuffix(msg, ")") && !strings.Contains(msg[i:], "party") {
			return s.text + ": " + faceCopy.ReplaceAllString(msg[i+2:len(msg)-1], "")
		}
		return s.text
	}
	msg := err.Error()
	if f := (*mental.Fault)(nil); errors.As(err, &f) {
		msg = f.Err.Error()
	}
	for _, p := range []string{"mental: ", "mentaltable: "} {
		msg = strings.ReplaceAll(msg, p, "")
	}
	return msg
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
