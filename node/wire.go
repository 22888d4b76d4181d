package node

import (
	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/shamir"
	"github.com/bullshit-game/bullshit/node/table"
	"github.com/bullshit-game/bullshit/protocol"
)

// The protocol keeps its own plain wire types; package gamewire converts
// between them and the engine's (a browser player uses it too). What is
// here converts the table's own types (Update, PubStep, TableState,
// Reveal) with it.

// engRefusal is the host's "no" as the engine's: the code as it came (the
// engine's and the protocol's codes are one set, refusal_test.go), the
// sentence cleaned for a screen.
func engRefusal(m protocol.Refusal) *engine.Refusal {
	return &engine.Refusal{Code: engine.Code(m.Code), Msg: protocol.Clean(m.Message, protocol.MaxText)}
}

func wireUpdate(u *table.Update) protocol.Update {
	w := protocol.Update{View: gamewire.WireView(&u.View), Notice: u.Notice, AtMS: gamewire.MS(u.At), DeadlineMS: gamewire.MS(u.Deadline), Backlog: u.Backlog}
	for i := range u.Events {
		w.Events = append(w.Events, gamewire.WireEvent(&u.Events[i]))
	}
	for _, p := range u.Journal {
		w.Steps = append(w.Steps, table.WireStep(p))
	}
	for _, sh := range u.Shares {
		w.Shares = append(w.Shares, protocol.StepShare{Step: sh.Step, X: sh.Share.X, Y: sh.Share.Y, K: sh.Share.K})
	}
	return w
}

func engPubSteps(ws []protocol.Step) []table.PubStep {
	out := make([]table.PubStep, len(ws))
	for i, st := range gamewire.EngSteps(ws) {
		out[i] = table.PubStep{Step: st, Hidden: ws[i].Hidden, Link: table.Link{Term: ws[i].Term, Seal: ws[i].Seal, Sig: ws[i].Sig, Mark: ws[i].Mark}}
	}
	return out
}

func engShares(ws []protocol.StepShare) []table.StepShare {
	out := make([]table.StepShare, len(ws))
	for i, w := range ws {
		k := w.K
		if k == 0 {
			k = 2 // a 1.0 peer's, always threshold 2
		}
		out[i] = table.StepShare{Step: w.Step, Share: shamir.Share{X: w.X, K: k, Y: w.Y}}
	}
	return out
}

func wireLobby(t *table.TableState) protocol.Lobby {
	l := protocol.Lobby{Settings: gamewire.WireSettings(gamewire.Settings{Name: t.Name, Rules: t.Rules, Seats: len(t.Seats),
		Reveal: t.Reveal, TurnClock: t.TurnClock, Grace: t.Grace, BotPace: t.Pace}),
		Phase: string(t.Phase), Host: t.Host, You: t.You, Commit: t.Commit, Evening: table.WireEvening(t.Evening),
		Nonces: t.Nonces, Commits: t.Commits, Paused: t.Paused, Blind: t.Blind}
	for i, s := range t.Seats {
		p := protocol.Player{Seat: i, Nick: s.Name, Bot: s.Bot, Connected: s.Connected, Covered: s.Covered, Addrs: s.Addrs,
			Web: s.Web, WebAddr: s.WebAddr, MadeFor: s.MadeFor, RunBy: s.RunBy}
		if id, err := protocol.ParsePeerID(s.Peer); err == nil {
			p.Peer = id
		}
		l.Players = append(l.Players, p)
	}
	return l
}

// auditPart is how many steps go in one Audit message, well under MaxSize.
const auditPart = 1500

// wireAudit is the host's reveal, in parts.
func wireAudit(r *table.Reveal) []protocol.Audit {
	steps := make([]protocol.Step, len(r.Steps))
	for i, st := range r.Steps {
		w := protocol.Step{AtNS: int64(st.At), Tick: st.Cmd == nil, Rank: protocol.NoRank}
		if c := st.Cmd; c != nil {
			w.Move, w.Seat, w.Cards, w.Claim, w.Rank, w.No = uint8(c.Move), c.Seat, gamewire.WireCards(c.Cards), c.Claim, int8(c.Rank), c.No
		}
		steps[i] = w
	}
	parts := max(1, (len(steps)+auditPart-1)/auditPart)
	out := make([]protocol.Audit, parts)
	for p := range out {
		lo, hi := p*auditPart, min(len(steps), (p+1)*auditPart)
		out[p] = protocol.Audit{Seed: r.Config.Seed, Salt: r.Salt[:], Steps: steps[lo:hi], Part: p, Parts: parts}
	}
	return out
}

func engLobby(l *protocol.Lobby) table.TableState {
	// The host's strings are shown as they are cleaned: a host (or whoever
	// was elected) is a peer like any other (gamewire.EngSettings).
	set := gamewire.EngSettings(l.Settings)
	t := table.TableState{Name: set.Name, Preset: set.Rules.Preset, Rules: set.Rules,
		You: l.You, Host: protocol.Clean(l.Host, protocol.MaxNick),
		Phase: table.TablePhase(l.Phase), Reveal: set.Reveal, TurnClock: set.TurnClock, Grace: set.Grace, Pace: set.BotPace,
		Commit: l.Commit, Evening: table.EngEvening(l.Evening), Nonces: l.Nonces, Commits: l.Commits, Paused: l.Paused, Blind: l.Blind}
	if len(t.Nonces) == 0 {
		t.Nonces = nil
	}
	if len(t.Commits) == 0 {
		t.Commits = nil
	}
	for _, p := range l.Players {
		si := table.SeatInfo{Name: protocol.Clean(p.Nick, protocol.MaxNick), Bot: protocol.Clean(p.Bot, protocol.MaxNick),
			Connected: p.Connected, Covered: p.Covered, Addrs: p.Addrs, Web: p.Web, WebAddr: webAddrOK(p.WebAddr), MadeFor: max(p.MadeFor, 0),
			RunBy: protocol.Clean(p.RunBy, protocol.MaxNick)}
		if p.Peer != "" {
			si.Peer = p.Peer.String()
		}
		t.Seats = append(t.Seats, si)
	}
	return t
}
