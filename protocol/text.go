package protocol

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Bounds of the names people choose. A name travels in every Lobby the
// host sends, once a seat, so these keep the biggest lobby far under
// MaxSize (node tests one of 10 seats of longest names and addresses), and
// on a screen they fit the seat boxes.
const (
	MaxNick      = 24 // runes in a nickname
	MaxTableName = 32 // runes in a table's name
	// MaxText is the most runes of any other free text a peer sends that is
	// shown to a person: a notice, a refusal's sentence, a leaver's reason.
	MaxText = 300
)

// ErrBadName is what CheckNick and CheckTableName wrap; the error's text is
// a sentence for the person who chose the name.
var ErrBadName = errors.New("protocol: unusable name")

type nameError struct{ msg string }

func (e *nameError) Error() string { return e.msg }
func (e *nameError) Unwrap() error { return ErrBadName }

// CheckNick says whether s can be a nickname: 1 to MaxNick runes of valid
// UTF-8, printable, no control characters (so no terminal escapes), no
// direction overrides, no invisible letters or marks standing alone
// (nick.go), not only spaces. A host also refuses one that reads as a
// name its table has (node: checkNickAmong).
func CheckNick(s string) error { return checkName("A nickname", s, MaxNick) }

// CheckTableName is CheckNick for a table's name, up to MaxTableName runes.
func CheckTableName(s string) error { return checkName("A table's name", s, MaxTableName) }

func checkName(what, s string, max int) error {
	bad := func(format string, args ...any) error {
		return &nameError{what + " " + fmt.Sprintf(format, args...)}
	}
	// Count before anything else walks the string: a 60,000-byte name is
	// refused for its length after reading max+1 runes.
	n := 0
	for range s {
		if n++; n > max {
			return bad("is at most %d letters.", max)
		}
	}
	switch {
	case !utf8.ValidString(s):
		return bad("must be text (UTF-8).")
	case strings.TrimSpace(s) == "":
		return bad("can't be empty.")
	}
	for _, r := range s {
		if !Printable(r) && (isBidi(r) || !Invisible(r)) {
			return bad("can't hold control characters or terminal escapes (%U).", r)
		}
	}
	if r, what := hidden(s); r != 0 {
		return bad("can't hold %s (%U): they make names that look alike.", what, r)
	}
	return nil
}

// Printable says whether r may be shown as it is: no control characters (C0
// and C1, so no ESC or CSI), no direction overrides or marks that make text
// display as something else, no unassigned or private-use runes.
func Printable(r rune) bool {
	switch {
	case r == utf8.RuneError, unicode.IsControl(r), isBidi(r):
		return false
	case r == 0x200C || r == 0x200D: // (non-)joiners, as in emoji sequences
		return true
	case unicode.Is(unicode.Co, r), unicode.Is(unicode.Cs, r), !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Zs):
		return false
	}
	return true
}

// isBidi reports the directional overrides, isolates and marks.
func isBidi(r rune) bool {
	return (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069) || r == 0x200E || r == 0x200F || r == 0x061C
}

// Clean makes text from a peer safe to show: invalid UTF-8 and runes that
// are not Printable dropped (a newline or tab becomes a space), at most max
// runes. A node cleans every string it shows that it did not choose itself.
func Clean(s string, max int) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n >= max {
			break
		}
		switch {
		case r == '\n' || r == '\t':
			r = ' '
		case !Printable(r):
			continue
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}
