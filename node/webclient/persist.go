package webclient

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/record"
	"github.com/bullshit-game/bullshit/protocol"
)

// A reload wipes the page's memory: without a copy of its record a phone
// would take the host's backlog for what it was shown, and its audit could
// not catch a rewrite of the game before the reload. So the record (what
// the audit needs of it: the events, a rewrite already caught, the toss)
// is kept in the page's storage after every change, for one table's one
// seat and one deal, and taken back by the next client of that player.

// Store is where the page keeps the record across a reload: the
// browser's sessionStorage in the page (cmd/bullshit-web), a map in tests.
// Set may fail (the storage is full): the record is then kept in memory
// only, as without a Store.
type Store interface {
	Get(key string) string
	Set(key, value string) error
	Remove(key string)
}

// RecordKey is the one item the record takes: a tab keeps one table's
// one deal, and a new deal (or another table) writes over it, so it never
// grows past one game.
const RecordKey = "bullshit.record"

// MaxSaved bounds the saved record, in characters; a game longer than
// this (thousands of plays) is kept in memory only from then on.
const MaxSaved = 1 << 20

const (
	savedMagic = "bullshit-record 1"
	// chunkEvents are the events a saved line holds (one Update, well
	// under protocol.MaxSize): full lines are encoded once, and the last,
	// short one again at every save, so a short line is less to redo.
	chunkEvents = 16
)

// saved is what the record keeps of itself in storage: the table, seat
// and deal it is of, and its lines of events, encoded once each.
type saved struct {
	chunks []string // hex of an Update holding a full chunk of got's events
	// buf is the last record written, its memory reused: a save leaves no
	// garbage but the string the store takes (it ran after every message
	// and made two thirds of the page's garbage, so most of its pauses).
	buf []byte
	off bool // past MaxSaved or the storage refused: no more saving this deal
}

// Save writes the record to the Store if an update changed it since it
// was last written. The client calls it after each message, or, with
// Config.DeferSave, leaves it to the page, which calls it after drawing.
func (c *Client) Save() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.unsaved {
		c.unsaved = false
		c.save()
		c.saveDeck(false)
	}
}

// save writes the record to the store. Called with mu held.
func (c *Client) save() {
	st := c.cfg.Store
	r := &c.rec
	if st == nil || r.saved.off || c.seat < 0 {
		return
	}
	for len(r.saved.chunks)*chunkEvents+chunkEvents <= len(r.Got) {
		i := len(r.saved.chunks) * chunkEvents
		r.saved.chunks = append(r.saved.chunks, string(appendEvents(nil, r.Got[i:i+chunkEvents])))
	}
	b := append(r.saved.buf[:0], savedMagic+"\ntable "...)
	b = hex.AppendEncode(b, c.tid[:])
	b = append(b, "\nseat "...)
	b = strconv.AppendInt(b, int64(c.seat), 10)
	b = append(b, "\ndeal "...)
	b = hex.AppendEncode(b, r.Deal[:])
	b = append(b, "\nrewrote "...)
	b = append(b, oneLine(r.Rewrote)...)
	t := c.toss
	b = append(b, "\ntoss "...)
	b = hex.AppendEncode(b, t.Round[:])
	b = append(b, ' ')
	b = hex.AppendEncode(b, t.Mine[:])
	b = append(b, " "+flag(t.Revealed)+" "+flag(t.Rerun)+" "+flag(t.Commits != nil)...)
	for _, h := range t.Commits {
		b = append(b, ' ')
		b = hex.AppendEncode(b, h[:])
	}
	// Who hosted each term, as this phone learnt it: a page reloaded
	// after a failover (or moved to the new host) is sent a backlog whose
	// first steps the old host signed, and a new client knows only the
	// host it is at.
	b = append(b, "\nhosts"...)
	hosts := r.journal.Hosts(^uint64(0))
	terms := make([]uint64, 0, len(hosts))
	for t := range hosts {
		terms = append(terms, t)
	}
	slices.Sort(terms)
	for _, t := range terms {
		b = append(b, ' ')
		b = strconv.AppendUint(b, t, 10)
		b = append(b, ':')
		b = hex.AppendEncode(b, hosts[t])
	}
	b = append(b, '\n')
	if c.dealt.commit != ([32]byte{}) {
		b = append(b, "dealt "...)
		b = hex.AppendEncode(b, c.dealt.commit[:])
		b = append(b, ' ')
		b = hex.AppendEncode(b, []byte(c.dealt.host))
		b = append(b, '\n')
	}
	for _, ch := range r.saved.chunks {
		b = append(b, "ev "...)
		b = append(b, ch...)
		b = append(b, '\n')
	}
	if tail := r.Got[len(r.saved.chunks)*chunkEvents:]; len(tail) > 0 {
		b = append(b, "ev "...)
		b = appendEvents(b, tail)
		b = append(b, '\n')
	}
	sum := sha256.Sum256(b)
	b = append(b, "sum "...)
	b = hex.AppendEncode(b, sum[:])
	b = append(b, '\n')
	r.saved.buf = b
	if len(b) > MaxSaved || st.Set(RecordKey, string(b)) != nil {
		r.saved.off = true
		st.Remove(RecordKey)
	}
}

// restore takes back the record a previous client of this player saved,
// if it is of this table, seat and deal: the record then starts from it
// and the host's backlog can only extend it. Called with mu held, once,
// with the table's lobby known and nothing in the record yet.
func (c *Client) restore() {
	st := c.cfg.Store
	if st == nil || c.seat < 0 || len(c.rec.Got) > 0 {
		return
	}
	s := st.Get(RecordKey)
	if s == "" {
		return
	}
	rec, tt, ok := parseSaved(s, c.tid, c.seat, c.lobby.Commit, c.evOf)
	if !ok {
		return
	}
	if rec.Deal != ([32]byte{}) && len(rec.Got) > 0 {
		rec.journal.SeatKey = c.rec.journal.SeatKey
		for t, pub := range c.rec.journal.Hosts(^uint64(0)) {
			if id, err := protocol.NewPeerID(pub); err == nil {
				rec.journal.Host(t, id)
			}
		}
		c.rec = rec
		c.restored = len(rec.Got)
		if rec.dealtBy.commit == c.lobby.Commit {
			c.dealt = rec.dealtBy
		}
	}
	if tt.Round != ([32]byte{}) && tt.Round == c.lobby.Commit {
		c.toss = tt
	}
}

// parseSaved reads a saved record, ok only when it is whole and of this
// table, seat and deal commitment. The toss comes back whenever it is of
// this table and seat (the caller checks its round): it comes before the
// deal it is for.
func parseSaved(s string, tid protocol.TableID, seat int, deal [32]byte, ev func(protocol.Event) engine.Event) (kept, record.Toss, bool) {
	var r kept
	var t record.Toss
	// The last line sums the rest: a record damaged anywhere is refused.
	body, last, ok := strings.Cut(strings.TrimSuffix(s, "\n"), "\nsum ")
	sum := sha256.Sum256([]byte(body + "\n"))
	if !ok || last != hex.EncodeToString(sum[:]) {
		return r, t, false
	}
	lines := strings.Split(body, "\n")
	if len(lines) < 6 || lines[0] != savedMagic {
		return r, t, false
	}
	field := func(i int, name string) (string, bool) { return strings.CutPrefix(lines[i], name+" ") }
	tab, ok1 := field(1, "table")
	se, ok2 := field(2, "seat")
	de, ok3 := field(3, "deal")
	rw, ok4 := field(4, "rewrote")
	ts, ok5 := field(5, "toss")
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || tab != hex.EncodeToString(tid[:]) || se != strconv.Itoa(seat) {
		return r, t, false
	}
	tf := strings.Fields(ts)
	if len(tf) < 5 || !unhex(tf[0], t.Round[:]) || !unhex(tf[1], t.Mine[:]) {
		return r, t, false
	}
	t.Revealed, t.Rerun = tf[2] == "1", tf[3] == "1"
	if tf[4] == "1" {
		t.Commits = make([][32]byte, len(tf)-5)
		for i, h := range tf[5:] {
			if !unhex(h, t.Commits[i][:]) {
				return r, t, false
			}
		}
	}
	if !unhex(de, r.Deal[:]) || r.Deal != deal {
		return kept{}, t, true // another deal's: only the toss may serve
	}
	r.Rewrote = rw
	evLines := lines[6:]
	if len(evLines) > 0 && strings.HasPrefix(evLines[0], "hosts") {
		hs := strings.TrimPrefix(evLines[0], "hosts")
		evLines = evLines[1:]
		for _, f := range strings.Fields(hs) {
			ts, pk, _ := strings.Cut(f, ":")
			term, err := strconv.ParseUint(ts, 10, 64)
			pub := make([]byte, 32)
			if err != nil || !unhex(pk, pub) {
				return kept{}, t, false
			}
			id, err := protocol.NewPeerID(pub)
			if err != nil || !r.journal.Host(term, id) {
				return kept{}, t, false
			}
		}
	}
	if len(evLines) > 0 && strings.HasPrefix(evLines[0], "dealt ") {
		f := strings.Fields(strings.TrimPrefix(evLines[0], "dealt "))
		evLines = evLines[1:]
		if len(f) != 2 || !unhex(f[0], r.dealtBy.commit[:]) {
			return kept{}, t, false
		}
		host, err := hex.DecodeString(f[1])
		if err != nil {
			return kept{}, t, false
		}
		r.dealtBy.host = protocol.PeerID(host)
	}
	for _, l := range evLines {
		b64, ok := strings.CutPrefix(l, "ev ")
		if !ok {
			return kept{}, t, false
		}
		body, err := hex.DecodeString(b64)
		if err != nil {
			return kept{}, t, false
		}
		m, err := protocol.Decode(protocol.TypeUpdate, body)
		if err != nil {
			return kept{}, t, false
		}
		for _, e := range m.(protocol.Update).Events {
			r.Got = append(r.Got, ev(e))
		}
	}
	return r, t, true
}

// appendEvents appends evs as the hex of an Update holding them.
func appendEvents(dst []byte, evs []engine.Event) []byte {
	u := protocol.Update{Events: make([]protocol.Event, len(evs))}
	for i := range evs {
		u.Events[i] = gamewire.WireEvent(&evs[i])
	}
	b, err := protocol.Encode(u)
	if err != nil {
		return dst // not decodable: the restore refuses the whole record
	}
	return hex.AppendEncode(dst, b)
}

func unhex(s string, dst []byte) bool {
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != len(dst) {
		return false
	}
	copy(dst, b)
	return true
}

func flag(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
}
