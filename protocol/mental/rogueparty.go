//go:build rogueparty

package mental

// RogueCommit is the commitment to opening o of a shuffle from in to out,
// as Shuffle makes it. Only a test build has it (tag rogueparty: the
// dishonest party of node/mentaltable's rogueparty.go): a shuffler that
// substituted a card in out recommits to the deck it sends, so that its
// commitment checks at the end and only its opening's re-encryption
// gives the substitution away.
func RogueCommit(o *ShuffleOpening, in, out Deck, ctx []byte) ShuffleCommit {
	return o.commit(in, out, ctx)
}
