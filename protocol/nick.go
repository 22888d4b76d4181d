package protocol

import "unicode"

// Names that can't be told apart (issue 21): two seats shown as "Hosty",
// one of them "Hosty" and an invisible Hangul filler, make the table's
// news ("Hosty claims 1 three") useless. A nickname may hold no invisible
// letter (Invisible, refused by CheckNick); the host refuses one that
// reads as a name its table has (node/table/names.go), which needs
// golang.org/x/text's folding, kept out of this package.

// Invisible reports a rune that shows as nothing, or as a blank that isn't
// a space: the Hangul fillers and the other default-ignorable letters,
// format characters (zero-width spaces and joiners, word joiners, the BOM),
// variation selectors out of an emoji, and the blank braille pattern.
func Invisible(r rune) bool {
	return unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) || unicode.Is(unicode.Cf, r) ||
		unicode.Is(unicode.Variation_Selector, r) || r == 0x2800 || r == 0x115F || r == 0x1160 || r == 0x3164 || r == 0xFFA0
}

// emoji reports a symbol a joiner or a variation selector may follow (in
// emoji sequences: 👩‍🚀, ❤️).
func emoji(r rune) bool {
	return unicode.In(r, unicode.So, unicode.Sk) || (r >= 0x1F3FB && r <= 0x1F3FF)
}

// hidden is the first rune of s that would hide in a name, and what it
// is: an invisible one (a joiner or a variation selector after an emoji is
// part of the emoji), or a combining mark with no letter to sit on; 0 for
// none.
func hidden(s string) (rune, string) {
	prev := ' '
	for _, r := range s {
		switch {
		case (r == 0x200D || unicode.Is(unicode.Variation_Selector, r)) && emoji(prev):
			// part of an emoji sequence: shown with its emoji
		case Invisible(r):
			return r, "invisible characters"
		case unicode.Is(unicode.M, r) && (prev == ' ' || unicode.IsSpace(prev)):
			return r, "a combining mark on its own"
		}
		prev = r
	}
	return 0, ""
}
