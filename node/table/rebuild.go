package table

import (
	"crypto/ed25519"
	"fmt"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/journal"
	"github.com/bullshit-game/bullshit/node/shamir"
	"github.com/bullshit-game/bullshit/protocol"
)

// A table rebuilt from a journal: after an election (node/restore.go
// gathers the journal and its shares) or when a host restarts from its
// journal file (Device.Resume).

// RestoreTable builds a playing table from a whole journal: after an
// election, or when a host restarts from its journal file. cfg.Seed is the
// host's seed, the one commit bound (the shares rebuild it); the engine
// replays from it mixed with nonces, the players' (toss.go), which every
// player holds from the lobby. evening is the table's running score as the
// players had it: a new host carries it on.
func RestoreTable(set Settings, id string, tid protocol.TableID, host, hostPeer string, seats []SeatInfo,
	cfg engine.Config, salt [gamewire.SaltSize]byte, nonces [][gamewire.NonceSize]byte, commit [32]byte, steps []engine.Step, links []Link, term uint64,
	bots BotMaker, fall func(*engine.View) (engine.Command, bool), notice string, jour *journal.Journal, evening Evening,
	key ed25519.PrivateKey) (*Table, error) {
	if len(nonces) != 0 && len(nonces) != len(seats) {
		return nil, fmt.Errorf("the journal's nonces are %d for %d seats", len(nonces), len(seats))
	}
	dealt := cfg
	dealt.Seed = gamewire.DealSeed(cfg.Seed, salt, nonces)
	g, evs, err := engine.Replay(dealt, steps)
	if err != nil {
		return nil, fmt.Errorf("the journal doesn't replay: %w", err)
	}
	set.defaults()
	t := &Table{tableID: tableID{ID: id, tid: tid, host: host, term: term, hostPeer: hostPeer, dealtBy: hostPeer},
		tableRules:  tableRules{Set: set, makeBot: bots, fall: fall},
		actor:       actor{in: make(chan func(), 64), quit: make(chan struct{})},
		seating:     seating{specs: map[*Mailbox]string{}},
		dealing:     dealing{Phase: PhasePlaying, Game: g, Seed: cfg.Seed, salt: salt, Nonces: Mixed(nonces), Commit: commit},
		tableRecord: tableRecord{jour: jour, evening: evening.Clone()}}
	if jour != nil {
		t.jpath = jour.Path()
	}
	var last time.Duration
	for _, st := range steps {
		last = max(last, st.At)
	}
	t.start = time.Now().Add(-last)
	t.Log = append([]engine.Step(nil), steps...)
	// The chain as the steps' hosts signed it (links, from a verified
	// journal); a step with no link (a journal file's) is of our term,
	// and we sign it when we send it.
	t.signWith(key)
	for i, st := range t.Log {
		var l Link
		if i < len(links) {
			l = links[i]
		}
		if l.Term == 0 {
			l.Term = term
		}
		t.chainAdd(i, st, l)
	}
	t.cursor = make([]int, len(seats))
	t.sent = make([][]engine.Event, len(seats))
	if t.Seats, err = restoreSeats(seats, hostPeer, bots, cfg.Seed); err != nil {
		return nil, err
	}
	// Every hidden part shared anew among the players of this term (the
	// threshold counts them, so the seats come first).
	t.shares = map[int][]shamir.Share{}
	if sh, err := shamir.SplitSeed(cfg.Seed, salt, len(seats), t.threshold(), nil); err == nil {
		t.shares[-1] = sh
	}
	for i, st := range t.Log {
		t.split(i, st)
	}
	t.resent(evs)
	go t.run()
	return t, t.Do(func() { t.playOn(notice) })
}

// restoreSeats seats a table rebuilt from a journal: its people (the new
// host's own seat is "local") away until they rejoin, its bots seated with
// the seeds the dealing host gave them.
func restoreSeats(seats []SeatInfo, hostPeer string, bots BotMaker, seed uint64) ([]*seat, error) {
	out := make([]*seat, len(seats))
	for i, si := range seats {
		s := &seat{name: si.Name, away: -1, madeFor: si.MadeFor}
		if si.Peer != "" && si.Bot == "" {
			s.Owner = si.Peer
			s.away = 0 // until they rejoin this host
			if si.Peer == hostPeer {
				s.Owner, s.away = "local", -1
			}
		} else {
			s.BotName, s.was = si.Bot, si.Peer
			if s.BotName == "" {
				s.BotName = "medium"
			}
			b, err := bots(s.BotName, i, botSeed(seed, i))
			if err != nil {
				return nil, err
			}
			s.bot = b
		}
		out[i] = s
	}
	return out, nil
}

// resent is what every seat of a rebuilt table was sent, as an honest host
// sent it; the bots remember the game they watched.
func (t *Table) resent(evs [][]engine.Event) {
	for _, batch := range evs {
		for _, e := range batch {
			for i, s := range t.Seats {
				if e.VisibleTo(i) {
					t.sent[i] = append(t.sent[i], e)
					if s.bot != nil {
						ev := e
						s.bot.Observe(&ev)
					}
				}
			}
		}
	}
}

// playOn starts a rebuilt table's clocks, on its goroutine: a person not
// back within the grace period is covered by a bot, and an open window (or
// hand-over) gets its whole time again.
func (t *Table) playOn(notice string) {
	for i, s := range t.Seats {
		if s.Owner != "" && s.Owner != "local" {
			seatNo := i
			s.clock = t.after(t.Set.Grace, func() { t.cover(seatNo) })
		}
	}
	now := t.Now()
	var events []engine.Event
	if t.Game.Over() {
		t.Phase = PhaseOver
		t.tally() // if the old host went before it could
	} else if ph := t.Game.Phase(); ph == engine.PhaseCall || ph == engine.PhaseGive {
		c := engine.Command{Move: engine.MoveResume, Seat: -1, Rank: engine.NoRank}
		if ev, err := t.Game.Apply(now, c); err == nil {
			t.record(Entry{At: now, Cmd: &c}, nil)
			events = ev
		}
	}
	t.notice = notice
	if t.Phase == PhasePlaying {
		t.changed(events)
	}
}

// DealOnceBack deals t's first game once the players in returning have
// sat down again, or wait has passed (who isn't back by then is covered by
// a bot, as at any deal); why goes with the deal, on every screen.
func DealOnceBack(t *Table, returning []string, wait time.Duration, why string) {
	for end := time.Now().Add(wait); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		back := true
		if t.Do(func() {
			for _, s := range t.Seats {
				if s.Owner != "" && s.Owner != "local" && s.box == nil {
					back = false
				}
			}
		}) != nil {
			return
		}
		if back {
			break
		}
	}
	t.Do(func() { t.notice = why })
	t.Start()
}

// Reseat seats a table dealt anew by a new host that couldn't rebuild the
// old game (a redeal): as table id of term, hosted by self (its peer ID,
// web its web address, key what signs its chain), its seats as the old
// table had them, those in out played by a bot, the players' own seats
// kept for their return (returning). why goes with the deal.
func (t *Table) Reseat(id string, tid protocol.TableID, term uint64, self string, evening Evening, web string, key ed25519.PrivateKey,
	seats []SeatInfo, out map[string]bool, why string) (returning []string, err error) {
	err = t.Do(func() {
		t.ID, t.tid, t.term, t.hostPeer = id, tid, term, self
		t.evening = evening.Clone()
		t.WebURL = web
		t.signWith(key)
		for i, si := range seats {
			s := &seat{name: si.Name, away: -1}
			switch {
			case si.Peer == "" || si.Bot != "":
				s.BotName = si.Bot
			case si.Peer == self:
				s.Owner = "local"
			case out[si.Peer]:
				s.BotName = "medium" // a bot plays for the one who held the game up, or left
			default:
				s.Owner = si.Peer
				returning = append(returning, si.Peer)
			}
			if s.Owner == "" && s.BotName == "" {
				s.BotName = "medium"
			}
			t.Seats[i] = s
		}
		t.notice = why
	})
	return returning, err
}

// SetWeb sets the web address the table's Lobby gives for its host.
func (t *Table) SetWeb(u string) { t.Do(func() { t.WebURL = u }) }

// SetDealer sets the peer ID of the node whose deal the game is.
func (t *Table) SetDealer(d string) { t.Do(func() { t.dealtBy = d }) }
