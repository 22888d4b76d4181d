package table

import (
	"context"
	"time"

	"github.com/bullshit-game/bullshit/engine"
)

// PlayBot plays a session's seat with a bot until the game ends or ctx is
// done: the headless player of `bullshit join --headless`, and of tests.
// Every update is handed to show first (nil to skip). Think times are
// honoured, and a decision is made again only when the situation changes.
func PlayBot(ctx context.Context, s Session, p Player, fallback func(*engine.View) (engine.Command, bool), pace string, show func(Update)) (Update, error) {
	b := &botPlay{s: s, p: p, fallback: fallback, pace: pace}
	var last Update
	defer b.stop()
	for {
		select {
		case <-ctx.Done():
			return last, ctx.Err()
		case <-b.fire:
			b.fire = nil
			if s.Send(b.pending) != nil {
				b.decided = "" // lost on the way (the host was changing): decide again
			}
		case u, ok := <-s.Updates():
			if !ok {
				return last, nil
			}
			last = u
			if show != nil {
				show(u)
			}
			b.observe(u)
			if u.View.Phase == engine.PhaseOver {
				return awaitAudit(ctx, s, last, show), nil
			}
			if u.Table.Phase == PhaseOver {
				// The table says the game is over: the final view follows
				// (or the host ended it early and none will).
				return awaitAudit(ctx, s, last, show), nil
			}
			b.decide(u)
		}
	}
}

// botPlay is PlayBot's bot at its seat, owned by PlayBot's loop: what it
// decided last and the move it is thinking over.
type botPlay struct {
	s        Session
	p        Player
	fallback func(*engine.View) (engine.Command, bool)
	pace     string

	decided string
	timer   *time.Timer
	fire    <-chan time.Time
	pending engine.Command
	// hold is when the reveal pause of the last call ends, on this
	// clock: the table refuses a new play until then.
	hold time.Time
}

// stop forgets the move being thought over.
func (b *botPlay) stop() {
	if b.timer != nil {
		b.timer.Stop()
	}
	b.fire = nil
}

// observe shows the bot what happened, and notes a reveal's pause.
func (b *botPlay) observe(u Update) {
	if b.p != nil {
		for i := range u.Events {
			b.p.Observe(&u.Events[i])
		}
	}
	if !u.Backlog && revealIn(u.Events) {
		b.hold = time.Now().Add(u.Table.RevealPause())
	}
}

// decide has the bot think over its move when the situation is new: the
// move is sent when its think time is up (PlayBot's loop), a refused one
// replaced at once by the fallback.
func (b *botPlay) decide(u Update) {
	if b.p == nil || u.Table.You < 0 || u.Table.Phase != PhasePlaying {
		return
	}
	if u.Backlog {
		// Back at the table (maybe a new host's): whatever we had
		// decided may never have arrived.
		b.decided = ""
	}
	key := u.View.Situation()
	if u.Refusal != nil {
		key += "/refused"
	}
	if key == b.decided {
		return
	}
	b.decided = key
	b.stop()
	if u.Refusal != nil && b.fallback != nil {
		// Our move was refused: the always-legal move instead.
		if cmd, ok := b.fallback(&u.View); ok {
			b.s.Send(cmd)
		}
		return
	}
	cmd, think, ok := b.p.Act(&u.View)
	if !ok {
		return
	}
	b.pending = cmd
	think = Paced(think, b.pace)
	if HeldByReveal(cmd.Move) {
		think = max(think, time.Until(b.hold))
	}
	b.timer = time.NewTimer(think)
	b.fire = b.timer.C
}

// revealIn says whether a call's cards were turned up in events.
func revealIn(events []engine.Event) bool {
	for i := range events {
		if events[i].Type == engine.EventReveal {
			return true
		}
	}
	return false
}

// awaitAudit waits a little for the fairness audit that follows the end of
// a game over the network (a table on this machine sends it with the end).
func awaitAudit(ctx context.Context, s Session, last Update, show func(Update)) Update {
	if last.Audit != nil && (last.View.Phase == engine.PhaseOver || last.Audit.Early) {
		return last
	}
	t := time.NewTimer(5 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return last
		case <-t.C:
			return last
		case u, ok := <-s.Updates():
			if !ok {
				return last
			}
			if show != nil {
				show(u)
			}
			if u.View.Phase == engine.PhaseOver || last.View.Phase != engine.PhaseOver {
				audit := last.Audit
				last = u
				if last.Audit == nil {
					last.Audit = audit
				}
			}
			if u.Audit != nil {
				last.Audit = u.Audit
				if u.Notice != "" {
					last.Notice = u.Notice
				}
				return last
			}
		}
	}
}
