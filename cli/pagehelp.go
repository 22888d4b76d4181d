package cli

import (
	bkey "charm.land/bubbles/v2/key"
)

// PageHelpText is the help screen of the phone's page (cmd/bullshit serves
// it at /help): what its buttons do and the keys it shares with the
// terminal, each said in the terminal's help's own words (tableKeys), in
// plain text wrapped to width columns.
func PageHelpText(width int) []string {
	if width <= 0 {
		width = RulesWidth
	}
	km := tableKeys
	var out []string
	say := func(text string) { out = append(out, wrap("", text, width)...) }
	// key is a key of the terminal's with its words, and the page's button
	// for it where it has one.
	key := func(b bkey.Binding, desc, button string) {
		if desc == "" {
			desc = b.Help().Desc
		}
		line := b.Help().Key + "  " + desc
		if button != "" {
			line += " (" + button + ")"
		}
		out = append(out, hang("  ", "     ", line, width)...)
	}
	say("Help · buttons and keys")
	say("")
	say("Your turn: tap cards to pick them (the cards of the rank called are picked for you), then Claim. Keys on a keyboard:")
	key(km.Claim, "", "Claim")
	key(km.Sneak, "", "the − + beside the claim")
	say("Call window: the bar is the time left to call.")
	key(km.Call, "", "BULLSHIT!")
	key(km.Pass, "", "Let it go")
	say("I Doubt It:")
	key(km.Doubt, "", "Doubt")
	key(km.Believe, "", "Believe")
	key(km.Skip, "", "Skip")
	say("Hand-over: pick the card (one is picked for you), then")
	key(km.HandOver, "", "Hand over")
	say("Any time:")
	key(km.Sort, "sort the hand", "the button over the hand")
	key(appKeys.Rules, "", "Rules")
	key(km.Help, "", "Help")
	say("Leave: leave the table; once the game is on, a bot plays your seat until you come back.")
	say("Rename, in the waiting room: sit on under another name; the table refuses one that reads as another player's.")
	return out
}
