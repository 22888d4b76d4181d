package webclient

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/assist"
	"github.com/bullshit-game/bullshit/node/mentaltable"
	"github.com/bullshit-game/bullshit/node/record"
	"github.com/bullshit-game/bullshit/protocol"
)

// At a blind table (protocol 2.2, issue 25) the host sees no card, and
// sends the phone no view and no event: only the deal's terms (BlindDeal)
// and its log of every input it took (BlindLog). The phone is a party of
// the mental deck like a laptop's node: its mentaltable.Player runs its
// own copy of the host on the log, answers what the game asks of it by
// itself (its key, its shuffle, its shares, an opening, a hand-over, at
// the end its secret), makes its seat's view and events with the cards
// only it knows, names its moves' cards by handle, and at the end checks
// every shuffle and replays the game against what its seat was shown.
// The page runs no bot: the host gives the bots to the laptops' nodes.
//
// Its deck secret is kept in the tab's storage beside its record
// (DeckKey), written before the key and the shuffle it depends on go: a
// reload is the same party, which replays the host's log (resent whole
// after a reconnection) and sends only what the log shows it still owes.

// DeckKey is the item the deck secret of a blind game takes in the tab's
// storage (the Store): one table's one seat's one game, written over by
// the next.
const DeckKey = "bullshit.deck"

const deckMagic = "bullshit-deck 1"

// ShufflingSlow is how long the deal may take before the page says whom
// it waits for.
var ShufflingSlow = 2 * time.Second

// yieldAfter is how long the phone works through the host's log before
// it lets the page draw and its heartbeat go: every party's checks of a
// deal take a phone a second or more.
const yieldAfter = 40 * time.Millisecond

// blind is this phone's part in the blind game in play. Owned by run,
// under c.mu (Do and State read it there too).
type blind struct {
	pl      *mentaltable.Player
	hostNow time.Duration // the host's clock as it sent the last part of its log
	at      time.Time     // when that part came
	began   time.Time     // when the deal began here
	result  *mentaltable.Result
	// quiet are the numbers of the deck messages sent: a refusal of one
	// (an answer the host took from before a reload) is no move's.
	quiet    map[uint64]bool
	again    int    // the deck answers the host refused as taken already
	replayed bool   // the events of a reload's replay are in: news from here on
	told     string // the failure the news has said
	saved    int    // how much of the log the stored secret covers, -1 never stored
}

// blindDeal is the host's deal of a blind game (c.mu held): a new Player,
// or the one that played it before a reload, made again from the tab's
// storage; the same game again (the host resends it after a
// reconnection) changes nothing. It returns what to send.
func (c *Client) blindDeal(d protocol.BlindDeal) []protocol.Message {
	if c.blind != nil && c.blind.pl.Game() == string(d.Game) {
		return nil
	}
	c.blind = nil
	terms := mentaltable.Terms{Me: c.me, Table: c.tid, Rules: c.set.Rules, Seats: c.set.Seats, Commit: c.lobby.Commit, Nonces: c.lobby.Nonces}
	b := &blind{began: time.Now(), quiet: map[uint64]bool{}, saved: -1}
	var ms []protocol.Message
	var err error
	if kept := c.keptDeck(d.Game); kept != nil {
		if b.pl, err = mentaltable.Restore(d, terms, kept, rand.Reader); err == nil {
			ms, _, err = b.pl.Log(0, nil)
		}
	}
	if b.pl == nil {
		b.replayed = true
		b.pl, ms, err = mentaltable.NewPlayer(d, terms, rand.Reader)
	}
	if err != nil {
		c.tellNews("This blind game can't be played here: " + protocol.Sentence(err))
		return nil
	}
	c.blind = b
	c.newGame()
	c.saveDeck(true)
	time.AfterFunc(ShufflingSlow, c.changed)
	return ms
}

// newGame forgets the last game's sheet and news (c.mu held).
func (c *Client) newGame() {
	c.sheet, c.news, c.notice, c.refusal = nil, nil, "", ""
	c.view, c.closes, c.reveal, c.restored = nil, time.Time{}, nil, 0
	c.pile = assist.Pile{}
}

// blindLog takes inputs of the host's log, part of BlindLog m from its
// k-th input on (c.mu held), and returns what the phone sends in answer.
func (c *Client) blindLog(m *protocol.BlindLog, k, n int, now time.Time) []protocol.Message {
	b := c.blind
	if b == nil {
		return nil
	}
	b.hostNow, b.at = time.Duration(m.NowNS), now
	before := 0
	if c.view != nil {
		before = len(c.view.Hand)
	}
	send, shown, err := b.pl.Log(m.First+k, m.Inputs[k:k+n])
	if err != nil && b.told == "" {
		b.told = err.Error()
		switch {
		case errors.Is(err, mentaltable.ErrLostSecret):
			c.tellNews("This tab lost its deck secret for this game (its storage was cleared, or it played in another tab): it can't play this game's cards.")
		default:
			c.tellNews("The host's record of this game doesn't check, so this phone takes no more of it: " + protocol.Sentence(err))
		}
	}
	c.blindView()
	var evs []engine.Event
	for _, sh := range shown {
		if sh.Seat == c.seat {
			evs = append(evs, sh.Event)
		}
	}
	switch {
	case b.replayed:
		c.tell(evs, now, before)
	default:
		// A reload's replay of what the phone was shown before it: the
		// counts it knew, taken again quietly; news from where it was.
		b.replayed = !b.pl.Replaying()
		c.restored += len(evs)
		hand := 0
		if c.view != nil {
			hand = len(c.view.Hand)
		}
		for _, e := range evs {
			c.pile.Event(e, c.seat, before, hand)
		}
	}
	if c.view != nil {
		c.pile.Check(c.view, false)
	}
	if !b.pl.Replaying() {
		if m, ok := b.pl.Pick(); ok {
			send = append(send, m)
		}
	}
	if r := b.pl.Finish(c.partyName); r != nil {
		b.result = r
		c.blindSheet(r)
		c.blindView()
	}
	if slices.ContainsFunc(send, func(m protocol.Message) bool {
		t := m.Type()
		return t == protocol.TypeDeckKey || t == protocol.TypeDeckShuffle
	}) {
		c.saveDeck(true) // what a reload must answer for, before it goes
	}
	c.unsaved = true
	return send
}

// blindView is the seat's view as the phone's Player completes it, and
// when the open window or hand-over closes on our clock (c.mu held).
func (c *Client) blindView() {
	b := c.blind
	if c.seat < 0 || !b.pl.Dealt() {
		return
	}
	v, err := b.pl.View(c.seat)
	if err != nil {
		return
	}
	c.view = &v
	c.closes = time.Time{}
	if d, ok := b.pl.Deadline(); ok {
		c.closes = b.at.Add(d - b.hostNow)
	}
}

// blindSheet is the end as this phone checked it (c.mu held).
func (c *Client) blindSheet(r *mentaltable.Result) {
	c.sheet = &auditResult{Verified: r.Verified(), Problems: slices.Clone(r.Problems), Notes: slices.Clone(r.Notes), Plays: r.Plays}
	c.addNews(record.News(*c.sheet, "in this browser"))
}

// partyName says whose node party i is: the person of its first seat that
// isn't a bot's (c.mu held).
func (c *Client) partyName(i int) string {
	if b := c.blind; b != nil {
		d := b.pl.Deal
		for s, h := range d.Holder {
			if h == i && s < len(d.Bots) && d.Bots[s] == "" && s < len(c.lobby.Players) {
				if n := protocol.Clean(c.lobby.Players[s].Nick, protocol.MaxText); n != "" {
					return n
				}
			}
		}
	}
	return "Party " + strconv.Itoa(i+1)
}

// blindMove is a move of ours as the blind table takes it: its cards
// named by handle (c.mu held).
func (c *Client) blindMove(cmd engine.Command) (protocol.Message, error) {
	m, err := c.blind.pl.Move(cmd)
	if err != nil {
		var ref *engine.Refusal
		if errors.As(err, &ref) {
			return nil, protocol.Refuse(string(ref.Code), ref.Msg, protocol.AsSentence(ref.Msg))
		}
		return nil, protocol.Refuse(protocol.CodeBadCommand, err.Error(), "Your node can't name those cards: "+protocol.Sentence(err))
	}
	return m, nil
}

// shuffling is what the page says while the deal runs: "" once this
// phone knows its hand (c.mu held).
func (c *Client) shuffling(now time.Time) string {
	b := c.blind
	if b == nil || b.pl.Dealt() || b.pl.Failed() != nil || c.seat < 0 {
		return ""
	}
	if now.Sub(b.began) < ShufflingSlow {
		return "Shuffling…"
	}
	// Whom it waits for, but this phone: it answers as soon as it can.
	var who []string
	for _, i := range b.pl.Waiting() {
		if i != b.pl.Party() {
			who = append(who, c.partyName(i))
		}
	}
	if len(who) == 0 {
		return "Shuffling…"
	}
	return "Shuffling… waiting for " + strings.Join(who, ", ")
}

// tellNews puts a line in the news and the notice (c.mu held).
func (c *Client) tellNews(line string) {
	c.notice = line
	c.addNews(line)
}

// saveDeck writes the deck secret to the store (c.mu held): at once when
// must (a key or a shuffle about to go), else when the log it covers
// grew.
func (c *Client) saveDeck(must bool) {
	b, st := c.blind, c.cfg.Store
	if b == nil || st == nil || c.seat < 0 || (!must && b.saved == b.pl.Taken()) {
		return
	}
	b.saved = b.pl.Taken()
	var sb strings.Builder
	sb.WriteString(deckMagic + "\ntable ")
	sb.WriteString(hex.EncodeToString(c.tid[:]))
	sb.WriteString("\nseat " + strconv.Itoa(c.seat) + "\ngame ")
	sb.WriteString(hex.EncodeToString(b.pl.Deal.Game))
	sb.WriteString("\nkept ")
	sb.WriteString(hex.EncodeToString(b.pl.Keep()))
	sum := sha256.Sum256([]byte(sb.String() + "\n"))
	sb.WriteString("\nsum " + hex.EncodeToString(sum[:]) + "\n")
	st.Set(DeckKey, sb.String())
}

// keptDeck is the deck secret a client of this player kept for game at
// this table and seat, nil if none (c.mu held).
func (c *Client) keptDeck(game []byte) []byte {
	st := c.cfg.Store
	if st == nil || c.seat < 0 {
		return nil
	}
	s := st.Get(DeckKey)
	body, last, ok := strings.Cut(strings.TrimSuffix(s, "\n"), "\nsum ")
	sum := sha256.Sum256([]byte(body + "\n"))
	if !ok || last != hex.EncodeToString(sum[:]) {
		return nil
	}
	want := []string{deckMagic, "table " + hex.EncodeToString(c.tid[:]), "seat " + strconv.Itoa(c.seat), "game " + hex.EncodeToString(game)}
	lines := strings.Split(body, "\n")
	if len(lines) != 5 || !slices.Equal(lines[:4], want) {
		return nil
	}
	k, ok := strings.CutPrefix(lines[4], "kept ")
	b, err := hex.DecodeString(k)
	if !ok || err != nil {
		return nil
	}
	return b
}

// playLog takes a part of the host's log that came on link l, an input at
// a time: a phone takes a second or more over a deal's checks, so every
// yieldAfter it lets the page draw and its heartbeat go.
func (c *Client) playLog(l *link, env *protocol.Envelope, m *protocol.BlindLog) {
	start := time.Now()
	// A part of none is taken too: the host's log ends there.
	for k := 0; k < max(len(m.Inputs), 1); k++ {
		c.mu.Lock()
		send := c.blindLog(m, k, min(len(m.Inputs), 1), time.Now())
		c.mu.Unlock()
		c.answer(l, env, send)
		if k+1 < len(m.Inputs) && time.Since(start) >= yieldAfter {
			c.changed()
			time.Sleep(time.Millisecond) // in the page: back to the browser's event loop
			start = time.Now()
		}
	}
	if !c.cfg.DeferSave {
		c.Save()
	}
	c.changed()
}

// answer sends ms, our answers to env's message, on link l. A deck
// message's number (or a pick's) is kept: the host's refusal of one, an
// answer it took before a reload, is no move's.
func (c *Client) answer(l *link, env *protocol.Envelope, ms []protocol.Message) {
	for _, m := range ms {
		seq, err := c.sendSeq(l, env.Table, env.Term, m)
		if err != nil {
			return
		}
		bm, pick := m.(protocol.BlindMove)
		if t := m.Type(); t >= protocol.TypeDeckKey && t <= protocol.TypeDeckPublish || pick && bm.Pick {
			c.mu.Lock()
			if c.blind != nil {
				c.blind.quiet[seq] = true
			}
			c.mu.Unlock()
		}
	}
}
