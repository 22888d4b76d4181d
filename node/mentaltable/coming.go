package mentaltable

// Coming is how many cards the node's seats took and are still to be
// handed: a pile on its way to its taker, card by card from each earlier
// player's node, sealed to the taker's. A screen says so meanwhile.
func (p *Player) Coming() int { return p.node.Pending() }
