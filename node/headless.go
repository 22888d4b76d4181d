package node

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
	var (
		last    Update
		decided string
		timer   *time.Timer
		fire    <-chan time.Time
		pending engine.Command
		// hold is when the reveal pause of the last call ends, on this
		// clock: the table refuses a new play until then.
		hold time.Time
	)
	stop := func() {
		if timer != nil {
			timer.Stop()
		}
		fire = nil
	}
	defer stop()
	for {
		select {
		case <-ctx.Done():
			return last, ctx.Err()
		case <-fire:
			fire = nil
			if s.Send(pending) != nil {
				decided = "" // lost on the way (the host was changing): decide again
			}
		case u, ok := <-s.Updates():
			if !ok {
				return last, nil
			}
			last = u
			if show != nil {
				show(u)
			}
			if p != nil {
				for i := range u.Events {
					p.Observe(&u.Events[i])
				}
			}
			if !u.Backlog && revealIn(u.Events) {
				hold = time.Now().Add(u.Table.RevealPause())
			}
			if u.View.Phase == engine.PhaseOver {
				return awaitAudit(ctx, s, last, show), nil
			}
			if u.Table.Phase == PhaseOver {
				// The table says the game is over: the final view follows
				// (or the host ended it early and none will).
				return awaitAudit(ctx, s, last, show), nil
			}
			if p == nil || u.Table.You < 0 || u.Table.Phase != PhasePlaying {
				continue
			}
			if u.Backlog {
				// Back at the table (maybe a new host's): whatever we had
				// decided may never have arrived.
				decided = ""
			}
			key := u.View.Situation()
			if u.Refusal != nil {
				key += "/refused"
			}
			if key == decided {
				continue
			}
			decided = key
			stop()
			if u.Refusal != nil && fallback != nil {
				// Our move was refused: the always-legal move instead.
				if cmd, ok := fallback(&u.View); ok {
					s.Send(cmd)
				}
				continue
			}
			cmd, think, ok := p.Act(&u.View)
			if !ok {
				continue
			}
			pending = cmd
			think = Paced(think, pace)
			if HeldByReveal(cmd.Move) {
				think = max(think, time.Until(hold))
			}
			timer = time.NewTimer(think)
			fire = timer.C
		}
	}
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
