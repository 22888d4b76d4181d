package cli

import (
	"strings"
	"testing"
)

// The page's help says each key it shares with the terminal in the
// terminal's help's own words, and fits the columns it is given.
func TestPageHelpText(t *testing.T) {
	km := tableKeys
	for _, w := range []int{30, 78} {
		lines := PageHelpText(w)
		text := strings.Join(lines, "\n")
		for _, b := range []struct{ key, desc string }{
			{km.Claim.Help().Key, km.Claim.Help().Desc}, {km.Sneak.Help().Key, km.Sneak.Help().Desc},
			{km.Call.Help().Key, km.Call.Help().Desc}, {km.Pass.Help().Key, km.Pass.Help().Desc},
			{km.Doubt.Help().Key, km.Doubt.Help().Desc}, {km.Believe.Help().Key, km.Believe.Help().Desc},
			{km.Skip.Help().Key, km.Skip.Help().Desc}, {km.HandOver.Help().Key, km.HandOver.Help().Desc},
			{km.Sort.Help().Key, "sort the hand"}, {appKeys.Rules.Help().Key, appKeys.Rules.Help().Desc},
			{km.Help.Help().Key, km.Help.Help().Desc},
		} {
			if !strings.Contains(strings.Join(strings.Fields(text), " "), b.key+" "+b.desc) {
				t.Errorf("at %d columns the page's help has no %q:\n%s", w, b.key+"  "+b.desc, text)
			}
		}
		for _, l := range lines {
			if width(l) > w {
				t.Errorf("at %d columns a line is %d: %q", w, width(l), l)
			}
		}
		if !strings.Contains(text, "Rename") || !strings.Contains(text, "Leave") {
			t.Errorf("the page's help says nothing of Rename or Leave:\n%s", text)
		}
	}
}
