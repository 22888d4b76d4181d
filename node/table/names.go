package table

import (
	"fmt"
	"strings"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
	"golang.org/x/text/width"

	"github.com/bullshit-game/bullshit/protocol"
)

// A table refuses a nickname that reads as one it has (issue 21: "Hosty"
// beside "Hosty" and an invisible filler, news no one could tell apart):
// the same once case, width and compatibility forms are folded
// (golang.org/x/text) and the common Latin, Cyrillic and Greek look-alikes
// mapped to one letter (confusable: a small part of Unicode's
// confusables, UTS #39, which x/text has no table of).

// confusable maps the commonest look-alikes of Latin letters and digits
// (Cyrillic, Greek, a few Latin and digit forms) to the Latin letter they
// pass for. It is applied before and after case folding, so upper-case
// forms that fold to a letter of another look (Cyrillic Н to н) are mapped
// while they still look alike.
var confusable = map[rune]rune{
	// Cyrillic
	'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P', 'С': 'C', 'Т': 'T',
	'У': 'Y', 'Х': 'X', 'Ѕ': 'S', 'І': 'I', 'Ј': 'J', 'Ԛ': 'Q', 'Ԝ': 'W', 'Ү': 'Y', 'Һ': 'H', 'Ӏ': 'I',
	'а': 'a', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'у': 'y', 'х': 'x', 'ѕ': 's', 'і': 'i', 'ј': 'j',
	'һ': 'h', 'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w', 'ӏ': 'l', 'ү': 'y', 'ɡ': 'g',
	// Greek
	'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O',
	'Ρ': 'P', 'Τ': 'T', 'Υ': 'Y', 'Χ': 'X', 'ο': 'o', 'ν': 'v', 'ρ': 'p', 'ι': 'i', 'κ': 'k', 'υ': 'u',
	'χ': 'x', 'α': 'a', 'ϲ': 'c', 'ϳ': 'j', 'Ϲ': 'C',
	// Latin and digits
	'ı': 'i', 'ȷ': 'j', 'ɑ': 'a', 'ǀ': 'l', '|': 'l', '1': 'l', '0': 'O',
}

// nickKeys are the two forms a nickname is compared in: case folded (Ada,
// ADA, Ａｄａ and Аda with a Cyrillic А are one), and with a capital I
// read as an l before folding (Ian and lan are one). Two nicknames clash
// when either form is the same.
func nickKeys(s string) [2]string {
	s = width.Fold.String(norm.NFKC.String(s))
	return [2]string{nickKey(s, false), nickKey(s, true)}
}

func nickKey(s string, capitalI bool) string {
	look := func(s string) string {
		return strings.Map(func(r rune) rune {
			if protocol.Invisible(r) {
				return -1 // nothing shows of it
			}
			if t, ok := confusable[r]; ok {
				r = t
			}
			if capitalI && r == 'I' {
				r = 'l'
			}
			return r
		}, s)
	}
	s = look(cases.Fold().String(look(s))) // a Caser is not for two goroutines
	s = strings.NewReplacer("rn", "m", "vv", "w").Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

// ErrNameTaken is what a table's refusal of a nickname that reads as one
// it has wraps; its text is the sentence for the player.
var ErrNameTaken = fmt.Errorf("%w: taken", protocol.ErrBadName)

type nameTaken struct{ msg string }

func (e *nameTaken) Error() string { return e.msg }
func (e *nameTaken) Unwrap() error { return ErrNameTaken }

// CheckNickAmong says whether nick may sit at a table where others are the
// names already seated (people's and bots'): protocol.CheckNick, and not
// one that reads as one of them.
func CheckNickAmong(nick string, others []string) error {
	if err := protocol.CheckNick(nick); err != nil {
		return err
	}
	k := nickKeys(nick)
	for _, o := range others {
		ok := nickKeys(o)
		if k[0] != ok[0] && k[1] != ok[1] {
			continue
		}
		shown := protocol.Clean(o, protocol.MaxNick)
		if o == nick {
			return &nameTaken{fmt.Sprintf("%s is already at this table: choose another nickname.", shown)}
		}
		return &nameTaken{fmt.Sprintf("That nickname looks too much like %s, who is already at this table: choose another.", shown)}
	}
	return nil
}
