package table

import (
	"crypto/ed25519"
	"fmt"
	"slices"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/mentaltable"
	"github.com/bullshit-game/bullshit/protocol"
)

// ResumeBlind is a new host's table for the blind game in play, after the
// host it followed vanished: built from its own node's record of the game
// alone (the deal's terms and the host's log, which every party holds:
// nothing hidden is relayed, nobody is asked for a share), its table as it
// knew it (seats, the toss's nonces and the commitment), and hosted by
// hostPeer (this node) at term. The old host's party (gone, a peer ID) is
// taken over by this node's: the others rebuild its secret for it, and
// its seat is a bot's here for the rest of the game, every screen saying
// so. Its seats' people are away until they rejoin; this node's own seat
// is sat with SitParty, its party playing on from where it is.
func ResumeBlind(set Settings, id string, tid protocol.TableID, host, hostPeer string, seats []SeatInfo,
	nonces [][gamewire.NonceSize]byte, commit [32]byte, d protocol.BlindDeal, log []protocol.LogInput, gone string, term uint64,
	bots BotMaker, fall func(*engine.View) (engine.Command, bool), notice string, evening Evening, key ed25519.PrivateKey) (*Table, error) {
	set.defaults()
	set.Blind = true
	mt := &mentaltable.Table{Rules: set.Rules, Seats: len(seats), Seed: d.Seed, Holder: slices.Clone(d.Holder), Table: []byte(id), Game: slices.Clone(d.Game)}
	if err := mt.Check(); err != nil {
		return nil, err
	}
	h, err := mentaltable.NewHost(mt)
	if err != nil {
		return nil, err
	}
	reader := mentaltable.NewLogReader(tid, d.Parties)
	var last time.Duration
	for i, li := range log {
		in, err := reader.Input(h, li)
		if err == nil {
			_, err = h.Input(in)
		}
		if err != nil {
			return nil, fmt.Errorf("the host's log doesn't replay at input %d of %d: %w", i+1, len(log), err)
		}
		last = max(last, time.Duration(li.AtNS))
	}
	owners := make([]string, len(d.Parties))
	for p, pid := range d.Parties {
		owners[p] = pid.String()
		if owners[p] == hostPeer {
			owners[p] = "local"
		}
	}
	var salt [gamewire.SaltSize]byte
	copy(salt[:], d.Salt)
	t := &Table{tableID: tableID{ID: id, tid: tid, host: host, term: term, hostPeer: hostPeer},
		tableRules:  tableRules{Set: set, makeBot: bots, fall: fall},
		actor:       actor{in: make(chan func(), 64), quit: make(chan struct{})},
		seating:     seating{specs: map[*Mailbox]string{}, specNodes: map[*Mailbox]bool{}},
		dealing:     dealing{Phase: PhasePlaying, Seed: d.HostSeed, salt: salt, Nonces: Mixed(nonces), Commit: commit},
		tableRecord: tableRecord{evening: evening.Clone()}}
	t.dealtBy = hostPeer
	t.start = time.Now().Add(-last)
	t.signWith(key)
	bg := &blindGame{mt: mt, h: h, deal: d, redealWithout: -1, specSent: map[*Mailbox]int{}, leaving: map[int]bool{}, holding: map[int]*time.Timer{}, reader: reader, wire: slices.Clone(log), owners: owners, sent: make([]int, len(seats)),
		late: len(h.Late), caught: len(h.Caught), done: h.B.Over() && h.Len() > 0 && log[len(log)-1].What == uint8(mentaltable.InputFinish)}
	for _, li := range log {
		if li.What == uint8(mentaltable.InputFinish) {
			bg.done = true
		}
	}
	t.blind = bg
	t.cursor = make([]int, len(seats))
	t.sent = make([][]engine.Event, len(seats))
	t.Seats = make([]*seat, len(seats))
	for i, si := range seats {
		s := &seat{name: si.Name, away: -1, madeFor: si.MadeFor, blind: true, Covered: si.Covered}
		switch {
		case si.Peer == hostPeer && si.Bot == "":
			s.Owner = "local"
		case si.Peer != "" && si.Bot == "":
			s.Owner, s.away = si.Peer, 0 // until they rejoin this host
		default:
			s.BotName = si.Bot // run by a party's node, not here
			if s.BotName == "" {
				s.BotName = "medium"
			}
		}
		t.Seats[i] = s
	}
	go t.run()
	return t, t.Do(func() { t.blindPlayOn(notice, gone) })
}

// blindPlayOn starts a resumed blind table on its goroutine: the old
// host's party taken over, every away person given the grace, and the
// log sent on.
func (t *Table) blindPlayOn(notice, gone string) {
	bg := t.blind
	for i, s := range t.Seats {
		if s.Owner != "" && s.Owner != "local" && s.Owner != gone {
			seatNo := i
			s.clock = t.after(t.Set.Grace, func() { t.cover(seatNo) })
		}
	}
	t.notice = notice
	if bg.h.B.Over() {
		t.Phase = PhaseOver
	}
	// The old host's seat is an away person's: played blind by this
	// host till its person is back (started again, with the deck secret
	// its node kept), taken over after Timing.Gone or at the end.
	for i, s := range t.Seats {
		if gone != "" && s.Owner == gone {
			s.away = t.Now()
			notice += " " + t.coverBlind(i)
		}
	}
	// Said to each node as it comes back to this host, with the game.
	t.notice, bg.welcome = notice, notice
	if p := slices.Index(bg.owners, gone); p >= 0 && !bg.h.Dealt() {
		// The old host's node was a party of a deal still under way: it
		// won't take its turn, so the deal goes again without it, once
		// the other nodes are back (redealDue), or when the deal's watch
		// runs out.
		bg.redealWithout = p
	}
	t.blindChanged(nil)
}

// redealDue deals a blind game again without the old host's node, whose
// deal a new host took over mid-shuffle, once every other node is back.
func (t *Table) redealDue() {
	bg := t.blind
	if bg == nil || bg.redealWithout < 0 || bg.h.Dealt() {
		return
	}
	p := bg.redealWithout
	for q, o := range bg.owners {
		if q != p && !t.connected(o) {
			return
		}
	}
	bg.redealWithout = -1
	t.blindRedeal([]int{p}, fmt.Sprintf("%s, the host, left during the shuffle; %s hosts now.", t.partyName(p), t.host))
}

// SitLocalParty seats this node's own party at the table it now hosts (the
// table of ResumeBlind): its messages go to the table from now on, and
// what the table sends its seat goes to it, as a local seat's does.
func (t *Table) SitLocalParty(name string, p *Party) (int, *LocalSession, error) {
	no, l, err := t.sit("local", name, false, false, false, p)
	return no, l, err
}
