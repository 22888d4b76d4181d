package engine

// The rules of this file need no card's identity: what a play may claim,
// how many cards it may put down, what a turned-up play's cards say, how
// seats are placed at the end and which cards a timed-out hand-over gives.
// The clear Game and the engine over hidden cards (engine/blind) both ask
// them, so the two can't part on a rule.

// Claims is what decides the rank and count the next play may claim: the
// rules, the sequence so far and, in I Doubt It, the round's rank.
type Claims struct {
	Rules *Rules
	Cap   int  // the most cards a claim may hold (CapFor)
	Start Rank // the first required rank (R4, V3, V10's random rank)
	Plays int  // plays made so far
	Prev  Rank // the rank last claimed (V4), NoRank for none
	Round Rank // the V15 round's rank, NoRank before its first play
}

// RankAt is the rank required of play number no (R5, V2, V3).
func (c *Claims) RankAt(no int) Rank {
	step := (no - 1) % NumRanks
	if c.Rules.Sequence == SeqDown {
		step = -step
	}
	return Rank(((int(c.Start)+step)%NumRanks + NumRanks) % NumRanks)
}

// Required is the rank the next play must claim, NoRank where it is free.
func (c *Claims) Required() Rank {
	if c.Rules.Doubt {
		return c.Round
	}
	switch c.Rules.Sequence {
	case SeqUp, SeqDown:
		return c.RankAt(c.Plays + 1)
	}
	return NoRank
}

// Allowed reports whether the next play may claim r.
func (c *Claims) Allowed(r Rank) bool {
	if !r.Valid() {
		return false
	}
	if c.Rules.Doubt {
		return c.Round == NoRank || r == c.Round
	}
	switch c.Rules.Sequence {
	case SeqUp, SeqDown:
		return r == c.Required()
	case SeqNear, SeqNearStrict:
		if c.Prev == NoRank {
			return true
		}
		d := (int(r) - int(c.Prev) + NumRanks) % NumRanks
		return d == 1 || d == NumRanks-1 || (d == 0 && c.Rules.Sequence == SeqNear)
	}
	return true
}

// AllowedRanks lists the ranks the next play may claim; nil when one rank
// is required or any rank goes.
func (c *Claims) AllowedRanks() []Rank {
	if c.Rules.Doubt || (c.Rules.Sequence != SeqNear && c.Rules.Sequence != SeqNearStrict) || c.Prev == NoRank {
		return nil
	}
	var out []Rank
	for _, d := range []int{-1, 0, 1} {
		if d == 0 && c.Rules.Sequence == SeqNearStrict {
			continue
		}
		out = append(out, Rank((int(c.Prev)+d+NumRanks)%NumRanks))
	}
	return out
}

// Claim checks a play of k cards claimed as claim (0: k) of rank (NoRank:
// the required one) against R6, V4, V5, V12, V14 and V15, and returns the
// claim and rank as they stand.
func (c *Claims) Claim(k, claim int, rank Rank) (int, Rank, error) {
	if claim == 0 {
		claim = k
	}
	if err := c.CheckCount(k, claim); err != nil {
		return 0, NoRank, err
	}
	if rank == NoRank {
		rank = c.Required()
		if rank == NoRank {
			if c.Rules.Doubt {
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
func (c *Claims) CheckCount(k, claim int) error {
	if k == 0 {
		return refuse(CodeBadCount, "Pick at least one card to play.")
	}
	if claim < 1 || claim > c.Cap {
		return refusef(CodeBadCount, "Claim 1 to %d cards.", c.Cap)
	}
	s := c.Rules.Sneak
	switch {
	case c.Rules.CountLies:
		if k > c.Cap+s {
			return refusef(CodeBadCount, "Put down 1 to %d cards.", c.Cap+s)
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
		if k > c.Cap {
			return refusef(CodeBadCount, "Play 1 to %d cards.", c.Cap)
		}
		if claim != k {
			return refuse(CodeBadCount, "Your claim is the number of cards you put down.")
		}
	}
	return nil
}

func (c *Claims) badRank(r Rank) error {
	if c.Rules.Doubt {
		return refusef(CodeBadRank, "This round is %s: add cards claimed as %s.", c.Round.Word(2), c.Round.Word(2))
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

// Sneaked is how many of k cards claimed as claim were sneaked under it
// (V14). Under V12 alone more cards than claimed is a count lie, not a
// sneak: a lie when called, with no hand-over (V14's penalty).
func Sneaked(r *Rules, k, claim int) int {
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

// Quad checks four cards laid face up as V9's four of a kind and returns
// their rank.
func Quad(cards []Card) (Rank, error) {
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
