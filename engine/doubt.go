package engine

import "time"

// judge is a V15 move on the last play of the round: doubt, believe or skip.
func (g *Game) judge(now time.Duration, m Move, seat, no int) error {
	if err := g.checkJudge(m, seat, no); err != nil {
		return err
	}
	switch m {
	case MoveDoubt:
		g.judged(now, m, seat)
		g.settleDoubt(g, seat, g.verdict(g.truth(), m))
	case MoveBelieve:
		g.judged(now, m, seat)
		g.settleBelieve(g, seat, g.verdict(g.truth(), m))
	case MoveSkip:
		g.skip(g, now, seat)
	}
	return nil
}

func capital(s string) string {
	if s == "" {
		return s
	}
	b := []byte(s)
	if b[0] >= 'a' && b[0] <= 'z' {
		b[0] -= 'a' - 'A'
	}
	return string(b)
}
