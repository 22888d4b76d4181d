package bot

import (
	"math"

	"github.com/bullshit-game/bullshit/engine"
)

// noticeRate is how often a level sees what the counts give away.
var noticeRate = [...]float64{0.5, 0.85, 1}

// shouldCall decides whether to shout on the open play.
func (b *Bot) shouldCall(v *engine.View) bool {
	l := v.Last
	if shows(l, v.Rules.Rough) && b.rng.Float64() < noticeRate[b.level] {
		return true
	}
	o := b.pLie(v)
	if o.sure {
		return b.level > Easy || b.rng.Float64() < 0.6
	}
	if l.Out {
		// Let it stand and it wins: call unless it is surely true. Hard
		// also minds that taking the pile over a true last play costs its
		// place behind the others, where there are others.
		if b.level == Hard && len(v.Hands) > 2 && seqRules(&v.Rules) {
			return o.p > lastBar
		}
		return o.p > 0.001
	}
	switch b.level {
	case Hard:
		if seqRules(&v.Rules) {
			return b.worth(v, o.p)
		}
		fallthrough
	case Medium:
		theta := 0.62 - b.style.Eager + 0.005*float64(min(b.mem.pileSize(), 30))
		if b.mem.size(l.Seat) <= 3 {
			theta -= 0.15
		}
		if len(v.Hand) <= 3 {
			theta += 0.08
		}
		return o.p+0.08*(b.rng.Float64()-0.5) > theta
	}
	// Easy: a hunch more than a reading, shared among those listening.
	want := math.Max(0, math.Min(0.9, 0.22+0.5*(o.p-0.3)+b.style.Eager))
	listening := max(1, len(v.Window.Callers))
	return b.rng.Float64() < 1-math.Pow(1-want, 1/float64(listening))
}

// lastBar is how likely a lie hard needs to call a play that empties a
// hand at three seats or more.
var lastBar = 0.2

// tau is how fast a hand's chance of winning falls with its size, for hard's
// weighing of a call: a seat's share of the table's chances is
// exp(-size/tau) over the sum of every seat's. Measured against medium at
// three seats: 3 gave 56 % head to head, 5 gave 58 %, 10 gave 60 % (calling
// less, and right four times in five); flatter changed nothing.
const tau = 10.0

// worth weighs a call as hard does: the chance of winning if the caller is
// right (the player takes the pile), if wrong (this bot takes it), against
// letting the play stand.
func (b *Bot) worth(v *engine.View, p float64) bool {
	m := &b.mem
	me, s := b.seat, v.Last.Seat
	pile := m.pileSize()
	var base, mine, theirs float64
	wMe := math.Exp(-float64(len(v.Hand)) / tau)
	wS := math.Exp(-m.size(s) / tau)
	for t := range m.seats {
		if t == me || t == s || (v.Placed != nil && t < len(v.Placed) && v.Placed[t] != 0) {
			continue
		}
		base += math.Exp(-m.size(t) / tau)
	}
	stand := wMe / (wMe + wS + base)
	wS2 := math.Exp(-(m.size(s) + pile) / tau)
	mine = wMe / (wMe + wS2 + base)
	wMe2 := math.Exp(-(float64(len(v.Hand)) + pile) / tau)
	theirs = wMe2 / (wMe2 + wS + base)
	call := p*mine + (1-p)*theirs
	return call > stand*(1+0.02-b.style.Eager)
}
