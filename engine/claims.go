package engine

// The rules of this file need no card's identity, or take the cards as
// given: what a play may claim, how many cards it may put down, what a
// turned-up play's cards say, what makes four of a kind and how seats are
// placed at the end. The clear Game and the game over hidden cards (Blind)
// both ask them, so the two can't part on a rule.

// claimRules is what decides the rank and count the next play may claim: the
// rules, the sequence so far and, in I Doubt It, the round's rank.
type claimRules struct {
	rules *Rules
	cap   int  // the most cards a claim may hold (CapFor)
	start Rank // the first required rank (R4, V3, V10's random rank)
	plays int  // plays made so far
	prev  Rank // the rank last claimed (V4), NoRank for none
	round Rank // the V15 round's rank, NoRank before its first play
}

// RankAt is the rank required of play number no (R5, V2, V3).
func (c *claimRules) RankAt(no int) Rank {
	step := (no - 1) % NumRanks
	if c.rules.Sequence == SeqDown {
		step = -step
	}
	return Rank(((int(c.start)+step)%NumRanks + NumRanks) % NumRanks)
}

// Required is the rank the next play must claim, NoRank where it is free.
func (c *claimRules) Required() Rank {
	if c.rules.Doubt {
		return c.round
	}
	switch c.rules.Sequence {
	case SeqUp, SeqDown:
		return c.RankAt(c.plays + 1)
	}
	return NoRank
}

// Allowed reports whether the next play may claim r.
func (c *claimRules) Allowed(r Rank) bool {
	if !r.Valid() {
		return false
	}
	if c.rules.Doubt {
		return c.round == NoRank || r == c.round
	}
	switch c.rules.Sequence {
	case SeqUp, SeqDown:
		return r == c.Required()
	case SeqNear, SeqNearStrict:
		if c.prev == NoRank {
			return true
		}
		d := (int(r) - int(c.prev) + NumRanks) % NumRanks
		return d == 1 || d == NumRanks-1 || (d == 0 && c.rules.Sequence == SeqNear)
	}
	return true
}

// AllowedRanks lists the ranks the next play may claim; nil when one rank
// is required or any rank goes.
func (c *claimRules) AllowedRanks() []Rank {
	if c.rules.Doubt || (c.rules.Sequence != SeqNear && c.rules.Sequence != SeqNearStrict) || c.prev == NoRank {
		return nil
	}
	var out []Rank
	for _, d := range []int{-1, 0, 1} {
		if d == 0 && c.rules.Sequence == SeqNearStrict {
			continue
		}
		out = append(out, Rank((int(c.prev)+d+NumRanks)%NumRanks))
	}
	return out
}

// Claim checks a play of k cards claimed as claim (0: k) of rank (NoRank:
// the required one) against R6, V4, V5, V12, V14 and V15, and returns the
// claim and rank as they stand.
func (c *claimRules) Claim(k, claim int, rank Rank) (int, Rank, error) {
	if claim == 0 {
		claim = k
	}
	if err := c.CheckCount(k, claim); err != nil {
		return 0, NoRank, err
	}
	if rank == NoRank {
		rank = c.Required()
		if rank == NoRank {
			if c.rules.Doubt {
				return 0, NoRank, refuse(CodeBadRank, "Name the rank this round is played in.")
			}
			return 0, NoRank, refuse(CodeBadRank, "Name the rank you claim.")
		}
	}
	if !c.Allowed(rank) {
		return 0, NoRank, c.badRank(rank)
	}
	return claim, rank, nil
}

// CheckCount is R6's count rules with V5, V12 and V14.
func (c *claimRules) CheckCount(k, claim int) error {
	if k == 0 {
		return refuse(CodeBadCount, "Pick at least one card to play.")
	}
	if claim < 1 || claim > c.cap {
		return refusef(CodeBadCount, "Claim 1 to %d cards.", c.cap)
	}
	s := c.rules.Sneak
	switch {
	case c.rules.CountLies:
		if k > c.cap+s {
			return refusef(CodeBadCount, "Put down 1 to %d cards.", c.cap+s)
		}
	case s > 0:
		if k < claim {
			return refuse(CodeBadCount, "You can't claim more cards than you put down.")
		}
		if k-claim > s {
			if s == 1 {
				return refuse(CodeBadCount, "You can sneak 1 extra card at most.")
			}
			return refusef(CodeBadCount, "You can sneak %d extra cards at most.", s)
		}
	default:
		if k > c.cap {
			return refusef(CodeBadCount, "Play 1 to %d cards.", c.cap)
		}
		if claim != k {
			return refuse(CodeBadCount, "Your claim is the number of cards you put down.")
		}
	}
	return nil
}

func (c *claimRules) badRank(r Rank) error {
	if c.rules.Doubt {
		return refusef(CodeBadRank, "This round is %s: add cards claimed as %s.", c.round.Word(2), c.round.Word(2))
	}
	if ranks := c.AllowedRanks(); ranks != nil {
		s := ""
		for i, x := range ranks {
			if i > 0 {
				s += ", "
			}
			s += x.String()
		}
		return refusef(CodeBadRank, "Claim %s: one of the ranks next to the last claim.", s)
	}
	if req := c.Required(); req != NoRank {
		return refusef(CodeBadRank, "This play must claim %s, not %s.", req.Word(2), r.Word(2))
	}
	return refuse(CodeBadRank, "That isn't a rank.")
}

// sneakedOf is how many of k cards claimed as claim were sneaked under it
// (V14). Under V12 alone more cards than claimed is a count lie, not a
// sneak: a lie when called, with no hand-over (V14's penalty).
func sneakedOf(r *Rules, k, claim int) int {
	if k-claim < 0 || r.Sneak == 0 {
		return 0
	}
	return k - claim
}

// Truth reports whether a play's turned-up cards are what it claimed: every
// card the rank (a joker matches any, V7), as many as claimed (V12),
// nothing sneaked under it (V14).
func Truth(cards []Card, claim int, rank Rank, sneaked int) bool {
	if sneaked > 0 || len(cards) != claim {
		return false
	}
	for _, c := range cards {
		if !c.Matches(rank) {
			return false
		}
	}
	return true
}

// quadOf checks four cards laid face up as V9's four of a kind and returns
// their rank.
func quadOf(cards []Card) (Rank, error) {
	if len(cards) != 4 {
		return NoRank, refuse(CodeBadCount, "Four of a kind is four cards.")
	}
	r := cards[0].Rank()
	for _, c := range cards {
		if c == Joker || c.Rank() != r {
			return NoRank, refuse(CodeBadRank, "Only four cards of one rank, jokers aside, make four of a kind.")
		}
	}
	return r, nil
}

// standings places every seat at the end (R13, R14, V8): seats already out
// (placed, the first nOut places) keep their places; the rest are placed
// after them by cards left (p's sizes), fewest first, ties sharing a place.
// The winner is the one already found, or else (R14) the seat in first
// place unless it is shared (-1).
func standings(placed []int, nOut int, p pieces, winner int) ([]int, int) {
	n := len(placed)
	places := make([]int, n)
	copy(places, placed)
	for s := range n {
		if places[s] != 0 {
			continue
		}
		better := 0
		for t := range n {
			if placed[t] == 0 && p.size(t) < p.size(s) {
				better++
			}
		}
		places[s] = nOut + 1 + better
	}
	if winner < 0 {
		first := -1
		for s, p := range places {
			if p == 1 {
				if first >= 0 {
					first = -1
					break
				}
				first = s
			}
		}
		winner = first
	}
	return places, winner
}
