package table

import (
	"errors"
	"fmt"
	"github.com/bullshit-game/bullshit/node/journal"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/mentaltable"
	"github.com/bullshit-game/bullshit/protocol"
	"github.com/bullshit-game/bullshit/protocol/mental"
)

// The blind table, host side (issue 25). When every person at the table
// plays from a node that can (a laptop's, protocol 2.2: Settings.Blind
// asks for it), the host deals a game it never sees: it runs
// mentaltable.Host (engine.Blind and its clock over what is public) and
// every player node is a party of a mental deck, which shuffles and deals
// a deck nobody can read alone; each node learns its own hands. The host
// keeps the log of every input it took (a party's message as the signed
// envelope it came in, its own clock and decisions in its words) and
// sends it to every party, whose node runs its own copy of the host on
// it (party.go): it checks every input as the host must, and shows its
// person their seat with the cards only it knows. The bots are spread
// over the party nodes, each known to the node that runs it. A call's
// cards are turned up by their player's node by itself (or by the others
// through the recovery, past OpenBound), a pile goes to its taker card by
// card from each earlier player's node, sealed to the taker; at the end
// every node publishes its secret and checks every shuffle, and audits
// the game it was shown.
//
// A phone's page of 2.2 is a party like a laptop's node (SitPhone) but
// runs no bot: the bots go round the laptops' nodes, and a phone's seat
// the host gives away (GiveToBot) the host plays blind, as an away
// person's. What a blind table can't do yet, and deals in the clear
// instead (the notice says why): seat a page or node of protocol 2.1 or
// older, or run bots with no laptop's node at the table; a table with
// fewer than two player nodes has nobody to hide the cards from.

// BlindPart is what a blind table sends a party's node: the deal's terms
// (with the first part of each game, and again after a reconnection),
// then the host's log from input First on.
type BlindPart struct {
	Deal  *protocol.BlindDeal
	First int
	Log   []protocol.LogInput
	Now   time.Duration // the host's clock as it sent this
}

// blindGame is a blind game on the host (owned by the table goroutine).
type blindGame struct {
	mt     *mentaltable.Table
	h      *mentaltable.Host
	deal   protocol.BlindDeal
	reader *mentaltable.LogReader
	wire   []protocol.LogInput // the log as the nodes are sent it
	owners []string            // party → the owner of its seats ("local": the host's node)
	sent   []int               // how much of the log each seat's node was sent
	late   int                 // Host.Late said so far
	caught int
	done   bool // the end is logged (Finish)
	// The deal's watch (dealWatch): how far the set-up had got when it
	// was last looked at, and its two timers.
	progress    int
	slow, stall *time.Timer
	// waitAt is the log's length when the game began to wait on the
	// nodes waitT will name (waitWatch).
	waitAt  int
	waitT   *time.Timer
	kept    bool         // the revealed game is in the journal (keepBlind)
	leaving map[int]bool // the parties taken over (their secret pooled for a successor), asked once
	// specSent is how much of the log each spectator's node was sent.
	specSent map[*Mailbox]int
	// holding are the takeovers due of away nodes the table waits on
	// (awayHolding), by party.
	holding map[int]*time.Timer
	// The watch on nodes that are there and give nothing (stallWatch):
	// since when the table has waited on each party without a break,
	// and its timer.
	since  map[int]time.Duration
	stallT *time.Timer
	// redealWithout is the old host's party, whose deal a new host took
	// over mid-shuffle: dealt again without it once the others are back
	// (redealDue); -1 none.
	redealWithout int
	// welcome is what a new host says to each node as it comes back with
	// the game (its first part, with the deal's terms).
	welcome string
	// before is the evening before this game counted in it: what it goes
	// back to if the game's deck doesn't check at the end.
	before  Evening
	counted bool
}

// rogueLook, set only in a test build (roguehost.go, tag roguehost), is
// a dishonest host looking at its table after each step (a blind one's,
// or a clear one's); nil in the game.
var rogueLook func(t *Table)

// DealTries is how many times a blind game is dealt again without a node
// that stalled the deal or was caught cheating at it, before the table
// deals in the clear.
const DealTries = 3

// blindSeats is who plays a blind game's seats, if the table can deal
// one: the parties (each person's node, the host's own first where it
// sits) and which party runs each bot. why says what keeps it from
// dealing blind, "" when it can.
func (t *Table) blindSeats() (owners []string, holder []int, bots []string, why string) {
	if !t.Set.Blind {
		return nil, nil, nil, "not asked"
	}
	if t.Chain.key == nil {
		return nil, nil, nil, "the host has no key to sign its part with"
	}
	holder = make([]int, len(t.Seats))
	bots = make([]string, len(t.Seats))
	var botSeats []int
	for i, s := range t.Seats {
		switch {
		case s.Owner == "":
			botSeats = append(botSeats, i)
			bots[i] = s.BotName
			if bots[i] == "" {
				bots[i] = "medium"
			}
			continue
		case s.Owner != "local" && (s.box == nil || s.sitOut):
			// Away at the deal, or left out of it (dealWatch): a bot on
			// another node plays the seat this game.
			botSeats = append(botSeats, i)
			bots[i] = "medium"
			continue
		case s.Owner != "local" && !s.blind:
			return nil, nil, nil, fmt.Sprintf("%s plays from an older version, which can't take part in a blind deal", s.name)
		}
		p := slices.Index(owners, s.Owner)
		if p < 0 {
			p = len(owners)
			owners = append(owners, s.Owner)
		}
		holder[i] = p
	}
	if len(owners) < 2 {
		return nil, nil, nil, "there's only one player's node at the table"
	}
	// The bots go round the parties: no node runs them all, and a
	// phone's page none.
	var runs []int
	for p, o := range owners {
		if !slices.ContainsFunc(t.Seats, func(s *seat) bool { return s.Owner == o && s.phone }) {
			runs = append(runs, p)
		}
	}
	if len(botSeats) > 0 && len(runs) == 0 {
		return nil, nil, nil, "a phone runs no bot, and no laptop's node at the table can run the bots"
	}
	for k, i := range botSeats {
		holder[i] = runs[k%len(runs)]
	}
	return owners, holder, bots, ""
}

// SitPhone is SitParty for a phone's page of protocol 2.2: a party of a
// blind deal, which runs no bot.
func (t *Table) SitPhone(owner, name string) (int, *LocalSession, error) {
	return t.sit(owner, name, true, true, true, nil)
}

// blindDeal deals a blind game from the toss (as dealFrom deals a clear
// one): the engine's seed is the toss's, which picks the dealer; the deck
// is the parties' shuffle.
func (t *Table) blindDeal(seed uint64, salt [gamewire.SaltSize]byte, nonces [][gamewire.NonceSize]byte, owners []string, holder []int, bots []string) error {
	ids := make([]protocol.PeerID, len(owners))
	for p, o := range owners {
		if o == "local" {
			id, err := protocol.PeerIDOf(t.Chain.key)
			if err != nil {
				return err
			}
			ids[p] = id
			continue
		}
		id, err := protocol.ParsePeerID(o)
		if err != nil {
			return fmt.Errorf("party %d's node %q: %w", p, o, err)
		}
		ids[p] = id
	}
	commit := gamewire.Commit(seed, salt)
	ds := gamewire.DealSeed(seed, salt, nonces)
	game := fmt.Appendf(nil, "%x/%d", commit[:12], t.blindTry)
	mt := &mentaltable.Table{Rules: t.Set.Rules, Seats: t.Set.Seats, Seed: ds, Holder: holder, Table: []byte(t.ID), Game: game}
	if err := mt.Check(); err != nil {
		return err
	}
	h, err := mentaltable.NewHost(mt)
	if err != nil {
		return err
	}
	bg := &blindGame{mt: mt, h: h, owners: owners, redealWithout: -1, specSent: map[*Mailbox]int{}, leaving: map[int]bool{}, holding: map[int]*time.Timer{}, reader: mentaltable.NewLogReader(t.tid, ids), sent: make([]int, len(t.Seats)),
		deal: protocol.BlindDeal{Game: game, HostSeed: seed, Salt: salt[:], Seed: ds, Holder: slices.Clone(holder), Parties: ids, Bots: bots}}
	t.Seed, t.salt, t.Nonces = seed, salt, nonces
	t.Commit, t.dealtBy = commit, t.hostPeer
	t.sent = make([][]engine.Event, len(t.Seats))
	t.pub, t.early = nil, false
	t.cursor = make([]int, len(t.Seats))
	t.shares = nil
	for i, s := range t.Seats {
		s.bot, s.Covered, s.decided, s.madeFor = nil, false, "", 0
		if bots[i] != "" && s.Owner == "" {
			s.BotName = bots[i]
			if s.name == "" {
				s.name = botLabel(s.BotName, i)
			}
		}
		if bots[i] != "" && s.Owner != "" {
			s.Covered = true // away at the deal: a bot on another node plays it
		}
	}
	t.Game, t.blind = nil, bg
	t.start, t.Phase, t.PausedTill, t.Log, t.held = time.Now(), PhasePlaying, 0, nil, false
	t.chainReset()
	t.phaseChanged()
	if t.notice == "" {
		t.notice = "Shuffling…"
	}
	t.blindChanged(nil)
	return nil
}

// dealWatch keeps the deal moving: while the parties' set-up and deal
// are under way, a fifth of Timing.Deal without progress has every
// screen name whom the deal waits for, and the whole of it deals again
// without them (a node gone quiet, or too slow to take part).
func (t *Table) dealWatch() {
	bg := t.blind
	if bg.h.Dealt() || t.held {
		t.stopDealWatch()
		return
	}
	if bg.slow != nil && bg.progress == bg.h.Len() {
		return // no progress since the timers were set: they run on
	}
	t.stopDealWatch()
	bg.progress = bg.h.Len()
	wait := t.Set.Timing.Deal
	bg.slow = t.after(wait/5, func() {
		if t.blind == bg && !bg.h.Dealt() {
			t.notice = "Shuffling… waiting for " + t.partyNames(bg.h.Waiting()) + "."
			t.blindDeliver(nil, "")
		}
	})
	bg.stall = t.after(wait, func() {
		if t.blind == bg && !bg.h.Dealt() && t.Phase == PhasePlaying {
			who := bg.h.Waiting()
			why := fmt.Sprintf("%s didn't take part in the shuffle in %s.", t.partyNames(who), seconds(wait))
			if len(who) > 0 && !slices.ContainsFunc(who, func(p int) bool { return t.connected(bg.owners[p]) }) {
				why = fmt.Sprintf("%s left mid-deal and didn't come back in %s.", t.partyNames(who), seconds(wait))
			}
			t.blindRedeal(who, why)
		}
	})
}

func (t *Table) stopDealWatch() {
	if bg := t.blind; bg != nil {
		for _, tm := range []*time.Timer{bg.slow, bg.stall, bg.waitT, bg.stallT} {
			if tm != nil {
				tm.Stop()
			}
		}
		bg.slow, bg.stall, bg.waitT, bg.stallT = nil, nil, nil, nil
	}
}

// waitSaid is how long the dealt game waits on a node, with nothing else
// happening, before every screen names it (waitWatch).
const waitSaid = 5 * time.Second

// waitWatch names the nodes the dealt game waits on (a part of a
// recovery, a card to hand over, an opening) once it has waited
// waitSaid with nothing happening: a table that seems stuck says on whom,
// as the deal does.
func (t *Table) waitWatch() {
	bg := t.blind
	if !bg.h.Dealt() || (bg.waitT != nil && bg.waitAt == bg.h.Len()) {
		return
	}
	if bg.waitT != nil {
		bg.waitT.Stop()
		bg.waitT = nil
	}
	if len(bg.h.Waiting()) == 0 {
		return
	}
	at := bg.h.Len()
	bg.waitAt = at
	bg.waitT = t.after(waitSaid, func() {
		if t.blind != bg || bg.h.Len() != at || t.Phase != PhasePlaying {
			return
		}
		if who := bg.h.Waiting(); len(who) > 0 {
			t.notice = "The game waits for " + t.partyNames(who) + "."
			t.blindDeliver(nil, "")
		}
	})
}

// partyNames says whose nodes parties ps are: "Ben's node", "Ben's and
// Cleo's nodes".
func (t *Table) partyNames(ps []int) string {
	var names []string
	for _, p := range ps {
		names = append(names, t.partyName(p)+"'s")
	}
	if len(names) == 1 {
		return names[0] + " node"
	}
	return strings.Join(names, " and ") + " nodes"
}

// blindRedeal deals the game again without the nodes of parties out (a
// deal they stalled, or cheated at), their seats played by bots on the
// other nodes this game; why says what happened, on every screen.
func (t *Table) blindRedeal(out []int, why string) {
	bg := t.blind
	for _, p := range out {
		if p < 0 || p >= len(bg.owners) || bg.owners[p] == "local" {
			continue
		}
		for _, s := range t.Seats {
			if s.Owner == bg.owners[p] {
				s.sitOut = true
			}
		}
	}
	t.stopDealWatch()
	t.stopTimers()
	t.blindTry++
	if t.blindTry >= DealTries {
		t.Set.Blind = false // for this game: dealFrom turns it on again
		defer func() { t.Set.Blind = true }()
	}
	t.notice = "Dealing again: " + why
	if t.blindTry < DealTries {
		t.notice += " A bot on another node plays their seat this game."
	}
	if err := t.dealFrom(t.Seed, t.salt, t.Nonces); err != nil {
		t.notice = "The deal failed: " + err.Error()
		t.deliver(nil, "")
	}
}

// runBy names the node that runs each bot of a blind game: the person
// whose node it is (SeatInfo.RunBy).
func (t *Table) runBy(seat int) string {
	bg := t.blind
	if bg == nil || (bg.deal.Bots[seat] == "" && !t.takenOver(seat)) {
		return ""
	}
	o := bg.owners[bg.h.Holder(seat)]
	for _, s := range t.Seats {
		if s.Owner == o {
			return s.name
		}
	}
	if o == "local" {
		return t.host
	}
	return ""
}

// takenOver reports whether a person's seat of the blind game in play is
// played by another node now: its own left, and the other rebuilt its
// secret (blindLeave). It stays so for the rest of the game.
func (t *Table) takenOver(seat int) bool {
	bg := t.blind
	return bg != nil && bg.h.Holder(seat) != bg.deal.Holder[seat]
}

// blindCover is a person's node away past the grace at a blind table: no
// node has the seat's cards but its own, so the host plays it blind (a
// card a turn, face down: awayClock) until they're back, when it is theirs
// again; if they aren't back within Timing.Gone, the others take it over
// (blindLeave). What was due of their node meanwhile (a card to hand over)
// waits for it.
func (t *Table) blindCover(seatNo int) {
	t.notice = t.coverBlind(seatNo)
	t.blindChanged(nil)
}

// coverBlind is blindCover's seat and clock, and what the screens are told.
func (t *Table) coverBlind(seatNo int) string {
	s := t.Seats[seatNo]
	s.Covered = true
	if s.gone != nil {
		s.gone.Stop()
	}
	bg := t.blind
	s.gone = t.after(t.Set.Timing.Gone-t.Set.Grace, func() {
		// This game's: dealt again without the seat's node, a bot on
		// another node plays it, and nothing of it is taken over.
		if bg != nil && t.blind == bg && s.box == nil && s.Covered {
			t.blindLeave(seatNo)
		}
	})
	return fmt.Sprintf("A bot plays for %s until they're back: the host's, which plays blind (a card a turn, face down), since only %s's node knows their cards.",
		s.name, s.name)
}

// botAway reports whether bot seat i runs on a node that is away past
// the grace (its person's seat is covered): the host plays it blind too,
// till that node is back or taken over.
func (t *Table) botAway(i int) bool {
	bg := t.blind
	o := bg.owners[bg.h.Holder(i)]
	if o == "local" || t.connected(o) {
		return false
	}
	for _, s := range t.Seats {
		if s.Owner == o && s.Covered {
			return true
		}
	}
	return false
}

// holdUp is how long the table waits on an away node (past the grace)
// for what only its node can give (its part of a recovery, a card to hand
// over, its secret at the end) before the others take its seat over.
const holdUp = 2 * time.Second

// awayHolding takes over, after holdUp, the node of an away person (past
// the grace, its seat played blind) that the table waits on: the game
// can't go on without it, and it isn't there to give it.
func (t *Table) awayHolding() {
	bg := t.blind
	for _, p := range bg.h.Waiting() {
		if p < 0 || p >= len(bg.owners) || bg.leaving[p] || bg.holding[p] != nil || t.connected(bg.owners[p]) {
			continue
		}
		seat := -1
		for i, s := range t.Seats {
			if s.Owner == bg.owners[p] && s.Covered && bg.h.Holder(i) == p {
				seat = i
			}
		}
		if seat < 0 {
			continue // away, but within the grace: it may be back yet
		}
		bg.holding[p] = t.after(holdUp, func() {
			bg.holding[p] = nil
			if t.blind == bg && slices.Contains(bg.h.Waiting(), p) && !t.connected(bg.owners[p]) {
				t.notice = fmt.Sprintf("The table waits on %s's node, which is away.", t.partyName(p))
				t.blindLeave(seat)
			}
		})
	}
}

// blindLeave is a person's node gone for good at a blind table: no
// other node knows the seat's cards, so the others rebuild its secret for
// one of them (the successor: the node with the fewest seats), which
// plays the seat with a bot from then on and so learns its cards. Every
// screen says so; it stands for the rest of the game, even if the person
// comes back.
func (t *Table) blindLeave(seatNo int) {
	if bg := t.blind; bg.owners[bg.h.Holder(seatNo)] != t.Seats[seatNo].Owner {
		return // a bot on another node plays it: the game was dealt without its node
	}
	t.takeOver(seatNo, "%s is gone", nil)
}

// takeOver is blindLeave, the screens told why (a format of the party's
// name: "%s is gone"), and none of the parties avoid the successor.
func (t *Table) takeOver(seatNo int, why string, avoid []int) {
	bg := t.blind
	gone := bg.h.Holder(seatNo)
	if t.takenOver(seatNo) || bg.owners[gone] == "local" || bg.leaving[gone] {
		return
	}
	seats := map[int]int{}
	succ := -1
	for i := range t.Seats {
		seats[bg.h.Holder(i)]++
	}
	for p, o := range bg.owners {
		if p == gone || !t.connected(o) || bg.leaving[p] || slices.Contains(avoid, p) {
			continue
		}
		if succ < 0 || seats[p] < seats[succ] {
			succ = p
		}
	}
	if succ < 0 {
		return
	}
	if len(bg.leaving) > 0 {
		// A second party gone: its secret is rebuilt from every other
		// party's sub-share (the threshold), and one of them left before.
		// Nothing can turn its cards up or hand them over, so the game is
		// void, and dealt again without the parties gone.
		out := []int{gone}
		var before []string
		for p := range bg.leaving {
			out = append(out, p)
			before = append(before, t.partyName(p))
		}
		slices.Sort(before)
		t.blindRedeal(out, fmt.Sprintf(why+", after %s: a blind game can rebuild the cards of one node that leaves, not two, so this game is void.",
			t.partyName(gone), strings.Join(before, " and ")))
		return
	}
	for _, s := range t.Seats {
		if s.Owner == bg.owners[gone] {
			s.Covered = true
		}
	}
	name, by := t.partyName(gone), t.partyName(succ)
	t.notice = fmt.Sprintf(why+": a bot on %s's node plays their seat for the rest of the game, and so %s's node now knows its cards.", name, by, by)
	bg.leaving[gone] = true
	t.blindOut(bg.h.Leave(gone, succ), nil)
}

// stallWatch bounds what the dealt game waits on a node that is at the
// table for (a share of a recovery, a card to hand over, a first card,
// its secret): those are its program's answers, never its person's, and
// take it milliseconds, so a node the table has waited on without a break
// for Timing.Held (its program stuck, or holding back on purpose) has its
// seat taken over, as a gone node's is. Of several, the one waited on
// longest goes first: the others may be waiting on it (a card it owes
// them, which they are asked to turn up), and none goes while a node is
// away or once one has been taken over: with every other party's
// sub-share needed, its secret couldn't be rebuilt. An away node is
// awayHolding's.
func (t *Table) stallWatch() {
	bg := t.blind
	if bg.stallT != nil {
		bg.stallT.Stop()
		bg.stallT = nil
	}
	if !bg.h.Dealt() || t.held || bg.h.Revealed() {
		bg.since = nil // a pause doesn't count; the deal has its own watch (dealWatch)
		return
	}
	now := t.Now()
	waiting := bg.h.Waiting()
	if bg.since == nil {
		bg.since = map[int]time.Duration{}
	}
	for p := range bg.since {
		if !slices.Contains(waiting, p) {
			delete(bg.since, p)
		}
	}
	first := time.Duration(-1)
	for _, p := range waiting {
		if p < 0 || p >= len(bg.owners) || bg.owners[p] == "local" || bg.leaving[p] || !t.connected(bg.owners[p]) {
			continue
		}
		if _, ok := bg.since[p]; !ok {
			bg.since[p] = now
		}
		if first < 0 || bg.since[p] < first {
			first = bg.since[p]
		}
	}
	if first < 0 || len(bg.leaving) > 0 {
		// After a takeover no other can be pooled: the party that left
		// gives no sub-share, and the threshold is every other party's
		// ("fewer recovery sub-shares than the threshold: 2 of 3").
		bg.since = nil
		return
	}
	for q, o := range bg.owners {
		if !bg.leaving[q] && !t.connected(o) {
			// An away node's sub-shares are in every other party's
			// secret (the threshold is every other party): nothing is
			// rebuilt till it is back or taken over (awayHolding).
			bg.since = nil
			return
		}
	}
	held := t.Set.Timing.Held
	if due := first + held; due > now {
		bg.stallT = t.after(due-now, func() {
			if t.blind == bg && t.Phase == PhasePlaying {
				t.stallWatch()
			}
		})
		return
	}
	var stalled []int
	for p, at := range bg.since {
		if at == first {
			stalled = append(stalled, p)
		}
	}
	// One only, the first: a game has one takeover (above); the others
	// waited on as long are no successor to it.
	slices.Sort(stalled)
	for i := range t.Seats {
		if bg.h.Holder(i) == stalled[0] {
			t.takeOver(i, "%s's node kept the game waiting "+seconds(held)+" for what only it can give", stalled)
			return
		}
	}
}

// connected reports whether the node of owner o is at the table now.
func (t *Table) connected(o string) bool {
	if o == "local" {
		return true
	}
	for _, s := range t.Seats {
		if s.Owner == o && s.box != nil {
			return true
		}
	}
	return false
}

// ErrNoParty refuses a deck message or a move by handle from a node that
// takes no part in the blind game in play.
var ErrNoParty = protocol.Refuse(protocol.CodeNotAllowed, "no party", "Your node takes no part in this game's deal.")

// PartyMsg takes a party's message at a blind table: a deck message, or a
// move by handle (BlindMove), in env, verified as sender's, which came as
// the bytes raw (what the log relays). A refusal changes nothing.
func (t *Table) PartyMsg(env *protocol.Envelope, raw []byte) error {
	var err error
	derr := t.Do(func() { err = t.partyMsg(env, raw) })
	if derr != nil {
		return derr
	}
	return err
}

func (t *Table) partyMsg(env *protocol.Envelope, raw []byte) error {
	bg := t.blind
	if bg == nil {
		return ErrNoParty
	}
	now := t.Now()
	if m, ok := env.Msg.(protocol.BlindMove); ok && !m.Pick {
		if err := t.blindMoveOK(m); err != nil {
			return err
		}
		t.blindDue(now)
		if t.blind != bg {
			return engine.ErrGameOver
		}
	}
	in, err := bg.reader.Envelope(bg.h, env, now)
	if err != nil {
		if errors.Is(err, mentaltable.ErrLogInput) && bg.reader.Party(env.Sender) < 0 {
			return ErrNoParty
		}
		return refusalOf(err)
	}
	out, err := bg.h.Input(in)
	if err != nil {
		if p, ok := mental.Blame(err); ok && !bg.h.Dealt() && cheated(err) {
			// A set-up message that doesn't check (a key's proof, a
			// shuffle, a share): the deal can't go on with it.
			t.blindRedeal([]int{p}, fmt.Sprintf("%s's node was caught sending a false part of the deal (%s).", t.partyName(p), mentaltable.Said(err)))
			return refusalOf(err)
		}
		return refusalOf(err)
	}
	if in.What == mentaltable.InputMove {
		if s := t.Seats[in.Cmd.Seat]; s.Covered && s.box != nil && bg.deal.Bots[in.Cmd.Seat] == "" && bg.owners[bg.h.Holder(in.Cmd.Seat)] == s.Owner {
			// A person the host gave to a bot plays again: theirs. (Their
			// own node runs that bot, and so does nothing new here.)
			if ownMoves[in.Cmd.Move] {
				s.Covered = false
				t.notice = fmt.Sprintf("%s plays their own seat again.", s.name)
			}
		}
	}
	t.blindOut(out, raw)
	return nil
}

// blindMoveOK refuses a move the table takes from no seat now: the game
// paused, over, or the reveal still showing the cards.
func (t *Table) blindMoveOK(m protocol.BlindMove) error {
	switch {
	case t.Phase == PhaseOver:
		return engine.ErrGameOver
	case t.held:
		return &engine.Refusal{Code: engine.CodeNotYourTurn, Msg: PausedText}
	case t.Now() < t.PausedTill && HeldByReveal(engine.Move(m.Move)):
		// Told again when the cards have been shown (pauseOver), so that
		// it moves anew.
		if t.waiting == nil {
			t.waiting = map[int]bool{}
		}
		if m.Seat >= 0 && m.Seat < len(t.Seats) {
			t.waiting[m.Seat] = true
		}
		return &engine.Refusal{Code: engine.CodeNotYourTurn, Msg: "Wait: the cards are still being shown."}
	}
	return nil
}

// refusalOf is an error of the blind table's as a player is told it.
func refusalOf(err error) error {
	var ref *engine.Refusal
	if errors.As(err, &ref) {
		return ref
	}
	msg := err.Error()
	msg, _ = strings.CutPrefix(msg, "mentaltable: ")
	return &engine.Refusal{Code: engine.CodeBadCommand, Msg: protocol.Sentence(errors.New(msg))}
}

// blindDue ticks the host's clock if a deadline passed before a move
// came: a window closed, an opening late.
func (t *Table) blindDue(now time.Duration) {
	bg := t.blind
	if d, ok := bg.h.Deadline(); ok && d <= now {
		t.blindOut(bg.h.Tick(now), nil)
	}
}

// blindTick is the host's clock firing.
func (t *Table) blindTick() {
	bg := t.blind
	if bg == nil || t.Phase != PhasePlaying || t.held {
		return
	}
	if d, ok := bg.h.Deadline(); !ok || d > t.Now() {
		t.blindChanged(nil)
		return
	}
	t.blindOut(bg.h.Tick(t.Now()), nil)
}

// blindOut is what a step of the host's made: its inputs logged for the
// nodes (env, the party's envelope, is the last one's), what it caught,
// and the table moved on.
func (t *Table) blindOut(out mentaltable.Out, env []byte) {
	bg := t.blind
	for bg.h.Len() > len(bg.wire) {
		i := len(bg.wire)
		e := env
		if i != bg.h.Len()-1 {
			e = nil
		}
		bg.wire = append(bg.wire, mentaltable.WireInput(bg.h.Logged(i), e))
		if t.OnLog != nil {
			t.OnLog(bg.wire[i])
		}
	}
	for ; bg.late < len(bg.h.Late); bg.late++ {
		t.notice = fmt.Sprintf("%s's node didn't turn its play up in time: the others turn it up.", t.partyName(bg.h.Late[bg.late]))
	}
	for ; bg.caught < len(bg.h.Caught); bg.caught++ {
		if p, ok := faultParty(bg.h.Caught[bg.caught]); ok {
			t.notice = fmt.Sprintf("%s's node turned its play up falsely: caught. The others turn it up, and it goes against its player.", t.partyName(p))
		}
	}
	t.blindChanged(out.Events)
}

// partyName is the person whose node party p is.
func (t *Table) partyName(p int) string {
	bg := t.blind
	if p < 0 || p >= len(bg.owners) {
		return fmt.Sprintf("Party %d", p+1)
	}
	if bg.owners[p] == "local" {
		return t.host
	}
	for _, s := range t.Seats {
		if s.Owner == bg.owners[p] {
			return s.name
		}
	}
	return fmt.Sprintf("Party %d", p+1)
}

// blindChanged is changed for a blind game: every party is sent the log
// so far, spectators the public events, the clocks set.
func (t *Table) blindChanged(events []engine.BlindEvent) {
	bg := t.blind
	now := t.Now()
	for _, e := range events {
		if e.Type == engine.EventReveal {
			t.PausedTill = now + t.Set.Timing.Reveal
			t.after(t.Set.Timing.Reveal, func() {
				if t.Phase == PhasePlaying && t.Now() >= t.PausedTill {
					t.pauseOver()
				}
			})
		}
	}
	if bg.h.B.Over() && !bg.done {
		out, err := bg.h.Finish()
		if err == nil {
			bg.done = true
			t.blindOut(out, nil)
			return
		}
	}
	if bg.h.B.Over() && t.Phase == PhasePlaying {
		t.Phase = PhaseOver
		bg.before = t.evening.Clone()
		bg.counted = t.evening.Add(t.Commit, t.State(-1).Seats, bg.h.B.Places(), bg.h.B.Winner())
		t.phaseChanged()
	}
	if (bg.h.B.Over() || bg.h.B.Ended()) && !bg.h.Revealed() {
		// The end waits on every node's secret: one away past the grace
		// won't be back to give its own in time, so the others give it.
		for i, s := range t.Seats {
			if s.Covered && s.box == nil && s.Owner != "" && !t.takenOver(i) && !bg.leaving[bg.h.Holder(i)] {
				t.blindLeave(i) // which delivers its own step
			}
		}
	}
	t.awayHolding()
	if bg.h.Revealed() && !bg.kept {
		bg.kept = true
		if _, _, _, err := bg.h.Reveal(); err != nil {
			// A shuffle that doesn't check: the cards were never the
			// deck, so neither are the places; the evening goes back.
			t.notice = mentaltable.ShuffleCheat(err, t.partyName)
			if bg.counted {
				t.evening, bg.counted = bg.before, false
				t.notice += " It doesn't count in the evening's score."
			}
		} else {
			t.keepBlind()
		}
	}
	t.plays.Store(int64(bg.h.B.Plays()))
	if !t.start.IsZero() {
		t.startNS.Store(t.start.UnixNano())
	}
	t.blindDeliver(events, "")
	if rogueLook != nil {
		rogueLook(t)
	}
	if t.Phase != PhasePlaying {
		t.stopTimers()
		t.stopDealWatch()
		return
	}
	t.dealWatch()
	t.waitWatch()
	t.stallWatch()
	if t.held {
		return
	}
	if t.timer != nil {
		t.timer.Stop()
	}
	if d, ok := bg.h.Deadline(); ok {
		t.timer = t.after(d-now, t.blindTick)
	}
	t.schedule()
}

// blindDeliver sends each party's node the log it hasn't had, and each
// spectator what it may see.
func (t *Table) blindDeliver(events []engine.BlindEvent, notice string) {
	bg := t.blind
	if notice == "" {
		notice = t.notice
	}
	t.notice = ""
	now := t.Now()
	var pub []engine.Event
	for _, e := range events {
		if e.Public() && e.Type != engine.EventOver {
			pub = append(pub, e.Event)
		}
	}
	t.pub = append(t.pub, pub...)
	for i, s := range t.Seats {
		if s.box == nil || s.Owner == "" {
			continue
		}
		part := &BlindPart{First: bg.sent[i], Log: bg.wire[bg.sent[i]:], Now: now}
		say := notice
		if bg.sent[i] == 0 {
			part.Deal = &bg.deal
			if say == "" {
				say = bg.welcome
			}
		}
		bg.sent[i] = len(bg.wire)
		s.box.Put(Update{Table: t.State(i), Notice: say, At: now, Blind: part})
	}
	for m := range t.specs {
		if !t.specNodes[m] {
			t.sendSpec(m, pub, nil, nil)
			continue
		}
		// A spectator's node follows the log as a party's does, with no
		// secret, and audits the game at its end.
		sent := bg.specSent[m]
		part := &BlindPart{First: sent, Log: bg.wire[sent:], Now: now}
		if sent == 0 {
			part.Deal = &bg.deal
		}
		bg.specSent[m] = len(bg.wire)
		m.Put(Update{Table: t.State(-1), Notice: notice, At: now, Blind: part})
	}
}

// blindFallback is the move the host makes for a person's seat whose
// turn ran out (or who is away): it can see no card, so it plays one by
// handle, claimed as the rank called; in a window it lets the play go. A
// hand-over that runs out is the engine's, whose cards the giver's node
// names (Pick).
func (t *Table) blindFallback(seat int, notice string) {
	bg := t.blind
	if bg == nil || t.held || t.Phase != PhasePlaying {
		return
	}
	v := bg.h.B.View(seat)
	hand := bg.h.B.Hand(seat)
	bc := engine.BlindCommand{Seat: seat, Rank: engine.NoRank}
	switch {
	case v.Phase == engine.PhaseCall && v.Window != nil && slices.Contains(v.Window.Callers, seat):
		bc.Move, bc.No = engine.MovePass, v.Window.No
	case v.Phase == engine.PhasePlay && v.Turn == seat && len(hand) > 0:
		if v.Round != nil && v.Last != nil && v.Rules.Doubt {
			bc.Move = engine.MoveSkip
			break
		}
		rank := v.Rank
		if !rank.Valid() {
			rank = engine.Rank(0)
			if len(v.Ranks) > 0 {
				rank = v.Ranks[0]
			}
		}
		// A card its node can read: one still being handed to it (a
		// pile it took while away) would be a play its node can't show
		// it, and can't turn up. With none yet, the turn waits for one:
		// its hand-over is looked at again as it comes (awayClock).
		i := slices.IndexFunc(hand, func(x engine.Handle) bool { return !mentaltable.Owed(bg.h, seat, x) })
		if i < 0 {
			t.Seats[seat].decided = ""
			return
		}
		bc.Move, bc.Handles, bc.Claim, bc.Rank = engine.MovePlay, hand[i:i+1], 1, rank
	default:
		return
	}
	now := t.Now()
	t.blindDue(now)
	if t.blind != bg || t.Phase != PhasePlaying {
		return
	}
	out, err := bg.h.Apply(now, bc, nil)
	if err != nil {
		return
	}
	if ownMoves[bc.Move] {
		t.Seats[seat].madeFor++
	}
	if notice != "" {
		t.notice = notice
	}
	t.blindOut(out, nil)
}

// cheated reports whether a party's message was refused for not
// checking, not for coming out of turn or too late (which an honest node
// may do, its network being slow).
func cheated(err error) bool {
	return !errors.Is(err, mentaltable.ErrNotExpected) && !errors.Is(err, mentaltable.ErrTooLate) && !errors.Is(err, mentaltable.ErrLogInput)
}

// faultParty is the party a refusal names.
func faultParty(err error) (int, bool) { return mental.Blame(err) }

// awayClock plays an away person's turn at a blind table, whose seat no
// node can play for them (or a phone's the host gave away: the page runs
// no bot): the host's blind move, a second after the turn came (a call
// window just closes without them).
func (t *Table) awayClock(i int, s *seat) {
	v := t.gameView(i)
	key := v.Situation()
	if key == s.decided {
		return
	}
	s.decided = key
	if s.clock != nil {
		s.clock.Stop()
		s.clock = nil
	}
	if v.Phase != engine.PhasePlay || v.Turn != i {
		return
	}
	s.clock = t.after(Paced(time.Second, t.Set.Pace)+max(t.PausedTill-t.Now(), 0), func() {
		if t.blind != nil && t.Phase == PhasePlaying && s.decided == key && (s.Covered || (s.Owner == "" && t.botAway(i))) {
			t.blindFallback(i, "")
		}
	})
}

// localParty is the party of the host's own node, in front of its seat's
// mailbox box: its screen is the host's. p, if not nil, is the node's
// party already (a node that took the table over): its messages come here
// from now on.
func (t *Table) localParty(box *Mailbox, p *Party) *Party {
	id := func() protocol.PeerID {
		var id protocol.PeerID
		t.Do(func() {
			if t.Chain.key != nil {
				id, _ = protocol.PeerIDOf(t.Chain.key)
			}
		})
		return id
	}
	if p == nil {
		p = NewParty(id, NewMailbox(), t.localSend, t.makeBot, t.fall)
	} else {
		p.SetSend(t.localSend)
	}
	go func() {
		for u := range box.Out {
			p.Put(u)
		}
		p.post(p.Close)
	}()
	return p
}

// localSend is a message of the host's own party: sealed with the host's
// key, as every party's is, and taken as a party's.
func (t *Table) localSend(m protocol.Message) (uint64, error) {
	var seq uint64
	var err error
	derr := t.Do(func() {
		if t.Chain.key == nil {
			err = errors.New("the host has no key to sign with")
			return
		}
		if t.localSigner == nil {
			if t.localSigner, err = protocol.NewSigner(t.Chain.key, uint64(time.Now().UnixNano())); err != nil {
				return
			}
		}
		var raw []byte
		raw, seq, err = t.localSigner.Seal(t.tid, t.term, m)
		if err != nil {
			return
		}
		env := &protocol.Envelope{Version: protocol.Current, Sender: t.localSigner.ID(), Table: t.tid, Term: t.term, Seq: seq, Msg: m}
		err = t.partyMsg(env, raw)
	})
	if derr != nil {
		return 0, derr
	}
	return seq, err
}

// keepBlind writes the blind game to the table's journal once every
// secret is in (Keep): the game revealed, as a clear table's journal holds
// it, its deck the parties' shuffle (what `bullshit verify` and the tests
// replay). Nothing of it is known before then, to the host either.
func (t *Table) keepBlind() {
	bg := t.blind
	if t.jpath == "" {
		return
	}
	cfg, steps, deck, err := bg.h.Reveal()
	if err != nil {
		t.notice = "The journal could not be written: " + err.Error()
		return
	}
	cfg.Seed, cfg.Deck = t.Seed, deck // the host's part of the toss, as a clear journal has it
	if t.jour != nil {
		t.jour.Close()
		t.jour = nil
	}
	names := make([]string, len(t.Seats))
	owners := make([]string, len(t.Seats))
	botNames := make([]string, len(t.Seats))
	for i, s := range t.Seats {
		names[i], owners[i] = s.name, s.Owner
		if s.Owner == "" {
			botNames[i] = s.BotName
		}
	}
	os.Remove(t.jpath) // a game before this one at the same seats
	j, err := journal.CreateJournal(t.jpath, journal.JournalHeader{Table: t.ID, Name: t.Set.Name, Config: cfg, Seats: names, Salt: t.salt,
		Nonces: Mixed(t.Nonces), Started: t.start, Owners: owners, Bots: botNames, Listen: t.listen,
		Settings: journal.SettingsJSON{Reveal: t.Set.Timing.Reveal, TurnClock: t.Set.TurnClock, Pace: t.Set.Pace, Private: t.Set.Code != "",
			Grace: t.Set.Grace}})
	if err == nil {
		for _, st := range steps {
			if err = j.Append(st); err != nil {
				break
			}
		}
		j.Close()
	}
	if err != nil {
		t.notice = "The journal could not be written: " + err.Error()
	}
}
