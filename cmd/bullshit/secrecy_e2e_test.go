//go:build linux

package main

// Wire secrecy (R16 on the wire): what a host sends a seat, frame by frame,
// must hold no card that seat may not know at that moment. The truth is the
// host's journal replayed on the engine; a seat may know every card it has
// held (its deal, its plays, what it picked up or was handed) and every
// card turned up for all (reveal, quads, leave), and at the end, every card.
// Each captured frame is opened with the host's key and every card in it,
// wherever it sits in the message, is held against that.

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/journal"
	"github.com/bullshit-game/bullshit/protocol"
)

// cardSet is a set of card values, 0…52 (two decks hold the same values
// twice: a set is weaker there, so the strict checks use one deck).
type cardSet uint64

const allCards cardSet = 1<<53 - 1

func (s *cardSet) add(cs ...engine.Card) {
	for _, c := range cs {
		if c <= engine.Joker {
			*s |= 1 << c
		}
	}
}

func (s cardSet) has(c uint8) bool { return c <= uint8(engine.Joker) && s&(1<<c) != 0 }

// knowledge is what each seat may know after each step of a game.
type knowledge struct {
	cfg    engine.Config
	steps  []engine.Step
	stepMS []int64     // each step's time, ms since the deal
	pub    []cardSet   // pub[k]: turned up for all after the deal (k=0) and after step k
	held   [][]cardSet // held[seat][k]: every card the seat has held by then
	over   int         // the first k at which the game is over
}

// replayKnowledge replays a journal's game.
func replayKnowledge(cfg engine.Config, steps []engine.Step) (*knowledge, error) {
	g, deal, err := engine.New(cfg)
	if err != nil {
		return nil, err
	}
	k := &knowledge{cfg: cfg, steps: steps, held: make([][]cardSet, cfg.Seats), over: -1}
	var pub cardSet
	held := make([]cardSet, cfg.Seats)
	snap := func(events []engine.Event) {
		for _, e := range events {
			switch {
			case e.Public() && (e.Type == "reveal" || e.Type == "quads" || e.Type == "leave"):
				pub.add(e.Cards...)
			case e.Public() && e.Type == "over":
				pub = allCards
			case !e.Public() && (e.Type == "hand" || e.Type == "mine" || e.Type == "handed"):
				for s := range held {
					if e.VisibleTo(s) {
						held[s].add(e.Cards...)
					}
				}
			}
		}
		for s := range held {
			v := g.View(s)
			held[s].add(v.Hand...)
			k.held[s] = append(k.held[s], held[s])
		}
		if g.Over() {
			pub = allCards
			if k.over < 0 {
				k.over = len(k.pub)
			}
		}
		k.pub = append(k.pub, pub)
	}
	snap(deal)
	for i, st := range steps {
		ev := g.Tick(st.At)
		if st.Cmd != nil {
			more, err := g.Apply(st.At, *st.Cmd)
			if err != nil {
				return nil, fmt.Errorf("journal step %d is refused on replay: %v", i, err)
			}
			ev = append(ev, more...)
		}
		k.stepMS = append(k.stepMS, st.At.Milliseconds())
		snap(ev)
	}
	return k, nil
}

// may is what seat (-1: a spectator) may know at ms since the deal.
func (k *knowledge) may(seat int, at int64) cardSet {
	return k.mayAfter(seat, sort.Search(len(k.stepMS), func(i int) bool { return k.stepMS[i] > at }))
}

// mayAfter is what seat may know after n steps.
func (k *knowledge) mayAfter(seat, n int) cardSet {
	s := k.pub[n]
	if seat >= 0 && seat < len(k.held) {
		s |= k.held[seat][n]
	}
	return s
}

func loadKnowledge(t *testing.T, journalPath string) *knowledge {
	t.Helper()
	j, h, steps, err := journal.OpenJournal(journalPath)
	if err != nil {
		t.Fatalf("the host's journal: %v", err)
	}
	j.Close()
	k, err := replayKnowledge(h.Dealt(), steps)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// readCapture reads a --capture file: uvarint length, frame, and again.
// A frame cut short at the very end is one the player was still writing
// when the file was read (or when it was killed): the capture ends before
// it. Anything else out of shape is an error.
func readCapture(path string) ([][]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := bufio.NewReader(f)
	var frames [][]byte
	for {
		n, err := binary.ReadUvarint(r)
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return frames, nil
		}
		if err != nil {
			return frames, err
		}
		if n > protocol.MaxSize {
			return frames, fmt.Errorf("frame %d is %d bytes", len(frames), n)
		}
		b := make([]byte, n)
		if _, err := io.ReadFull(r, b); err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return frames, nil // the tail, still being written
			}
			return frames, fmt.Errorf("frame %d cut short: %w", len(frames), err)
		}
		frames = append(frames, b)
	}
}

// notCards are the byte-slice fields that are not cards (protocol.Card is
// a byte, so the type can't tell; Y is a Shamir share, checked apart; Seal
// and Sig are a step's hash commitment to its hidden cards and the host's
// signature, or a move's seat signature, and Mark that signature kept in a
// step): anything else that is a []byte in a message is taken for
// cards, so a new card field is checked unasked.
//
// A blind table's messages (2.2) carry no card in the clear: the deck's
// fields are group elements and proofs (Key, Commit, Step, Shares, Secret,
// Shuffle), sealed to one party (Sealed), or openings of cards turned up
// for everyone (Openings); Game names the game; Env and Logs are a party's
// (or the old host's) envelopes relayed as they came, holding the same.
var notCards = map[string]bool{"Salt": true, "Proof": true, "Nonce": true, "Data": true, "Y": true, "Seal": true, "Sig": true, "Mark": true,
	"Game": true, "Env": true, "Logs": true, "Key": true, "Commit": true, "Step": true, "Shares": true, "Secret": true, "Shuffle": true,
	"Sealed": true, "Openings": true}

// walkCards calls visit with every card slice in v, by field path.
func walkCards(v reflect.Value, path string, visit func(path string, cards []byte)) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walkCards(v.Elem(), path, visit)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			if !f.IsExported() {
				continue
			}
			if notCards[f.Name] && f.Type.Kind() == reflect.Slice && (f.Type.Elem().Kind() == reflect.Uint8 ||
				(f.Type.Elem().Kind() == reflect.Slice && f.Type.Elem().Elem().Kind() == reflect.Uint8)) {
				continue
			}
			walkCards(v.Field(i), path+"."+f.Name, visit)
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			visit(path, v.Bytes())
			return
		}
		for i := 0; i < v.Len(); i++ {
			walkCards(v.Index(i), path+"["+strconv.Itoa(i)+"]", visit)
		}
	}
}

// checkFrames holds every frame a seat received against what it may know.
// It returns the seat (from Seated) and every problem, at most a few per
// frame: a frame that doesn't open as the host's or comes out of sequence,
// a card that isn't one, a card the seat may not know yet.
func checkFrames(frames [][]byte, host protocol.PeerID, k *knowledge) (seat int, problems []string, cards int) {
	seat = -2 // not seated yet: may know nothing
	var now int64
	var shares, plain int // shares of other seats' hidden cards; those that are the cards themselves
	var lastTerm, lastSeq uint64
	for i, b := range frames {
		env, err := protocol.Open(b, host)
		if err != nil {
			problems = append(problems, fmt.Sprintf("frame %d does not open as the host's: %v", i, err))
			continue
		}
		// Not secrecy, but only the capture can see it: a frame numbered
		// below one already received is dropped by the player as a replay,
		// and whatever it said is lost.
		if env.Term == lastTerm && env.Seq <= lastSeq {
			problems = append(problems, fmt.Sprintf("frame %d (%s) is numbered %d, after %d: the player drops it as a replay",
				i, env.Msg.Type(), env.Seq, lastSeq))
		}
		lastTerm, lastSeq = env.Term, env.Seq
		switch m := env.Msg.(type) {
		case protocol.Seated:
			seat = m.Seat
		case protocol.Update:
			now = max(now, m.AtMS)
			for _, sh := range m.Shares {
				if sh.Step < 0 || sh.Step >= len(k.steps) || k.steps[sh.Step].Cmd == nil || k.steps[sh.Step].Cmd.Seat == seat {
					continue
				}
				if c := k.steps[sh.Step].Cmd; c.Move == engine.MovePlay || c.Move == engine.MoveGive {
					shares++
					if bytes.Equal(sh.Y, wireCardsOf(c.Cards)) {
						plain++
					}
				}
			}
		case protocol.Heartbeat:
			now = max(now, m.NowMS)
		}
		var may cardSet
		if seat >= -1 {
			may = k.may(seat, now)
		}
		n := 0
		walkCards(reflect.ValueOf(env.Msg), env.Msg.Type().String(), func(path string, cs []byte) {
			for _, c := range cs {
				cards++
				switch {
				case c > uint8(engine.Joker):
					problems = append(problems, fmt.Sprintf("frame %d, %s: %d is not a card", i, path, c))
				case !may.has(c) && n < 3:
					n++
					problems = append(problems, fmt.Sprintf("frame %d (host clock %d ms), %s: seat %d may not know %s yet",
						i, now, path, seat, engine.Card(c)))
				}
			}
		})
	}
	// A share of one card is that card by chance once in 256; a share
	// scheme that hands out the secret itself does so every time.
	if plain >= 5 && plain*4 >= shares {
		problems = append(problems, fmt.Sprintf("%d of %d shares of other seats' hidden cards are the cards themselves", plain, shares))
	}
	return seat, problems, cards
}

// checkCapture checks one player's capture against the host's journal.
func checkCapture(t *testing.T, name, capture, hostID, journal string) {
	t.Helper()
	id, err := protocol.ParsePeerID(hostID)
	if err != nil {
		t.Fatalf("host peer ID %q: %v", hostID, err)
	}
	frames, err := readCapture(capture)
	if err != nil {
		t.Errorf("%s's capture: %v", name, err)
	}
	k := loadKnowledge(t, journal)
	seat, problems, cards := checkFrames(frames, id, k)
	watcher := strings.HasPrefix(name, "watch")
	if seat < 0 && !(watcher && seat == -1) {
		t.Errorf("%s's capture (%d frames) has no seat", name, len(frames))
	}
	// A blind game's journal names its deck (the parties' shuffle): its
	// host sends a party no card at all, only its log (each node makes
	// its seat's view), so a card in the clear is a leak whatever it is.
	// A laptop's spectator follows the same log (a phone's is sent the
	// public game, the cards turned up with it).
	blind := k.cfg.Deck != nil
	switch {
	case len(frames) < 10 || (cards == 0 && !blind):
		t.Errorf("%s's capture has %d frames and %d cards: not a game", name, len(frames), cards)
	case blind && cards > 0:
		t.Errorf("%s's capture of a blind game has %d cards in the clear: its host sends none", name, cards)
	}
	for _, p := range problems[:min(len(problems), 10)] {
		t.Errorf("%s: wire secrecy: %s", name, p)
	}
	if len(problems) > 10 {
		t.Errorf("%s: … and %d more", name, len(problems)-10)
	}
	if testing.Verbose() && len(problems) == 0 {
		t.Logf("%s: %d frames, %d cards, seat %d: nothing it may not know", name, len(frames), cards, seat)
	}
}

// TestE2EWireSecrecy plays a game on loopback (no namespaces: it runs
// without root) with every player capturing what the host sends, and
// checks every frame; then it shows the check would catch a leaking host,
// by slipping doctored frames into a real capture.
func TestE2EWireSecrecy(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end test skipped in -short mode")
	}
	dir := t.TempDir()
	journal := filepath.Join(dir, "journal")
	local := []string{"--no-mdns", "--listen", "/ip4/127.0.0.1/tcp/0"}
	args := append(hostArgs(filepath.Join(dir, "host"), "secrets", 3, 0, "--journal", journal), local...)
	host := startProc(t, "host", nil, bullshitBin(t), args...)
	table := host.waitFor(20*time.Second, "the table line", isType("table"))
	addr := hostAddr(t, table)
	var players []*proc
	for i := 1; i <= 3; i++ {
		a := append([]string{"join", "--headless", "--json", "--config", filepath.Join(dir, strconv.Itoa(i)), "--pace", "fast",
			"--capture", filepath.Join(dir, fmt.Sprintf("capture%d", i))}, local...)
		players = append(players, startProc(t, fmt.Sprintf("join%d", i), nil, bullshitBin(t), append(a, addr)...))
	}
	// A spectator captures too: it may know what is turned up, no more.
	watch := startProc(t, "watcher", nil, bullshitBin(t), append(append([]string{"join", "--headless", "--json", "--watch",
		"--config", filepath.Join(dir, "watch"), "--capture", filepath.Join(dir, "capture-watch")}, local...), addr)...)
	finishGame(t, 4, 1, append([]*proc{host}, players...), 2*time.Minute)
	for i, p := range players {
		checkCapture(t, p.name, filepath.Join(dir, fmt.Sprintf("capture%d", i+1)), hostPeer(t, table), journal)
	}
	if _, err := watch.await(30*time.Second, isType("result")); err != nil {
		t.Errorf("the spectator printed no result: %v", err)
	}
	checkCapture(t, "watcher", filepath.Join(dir, "capture-watch"), hostPeer(t, table), journal)
	t.Run("a leaking host is caught", func(t *testing.T) {
		frames, err := readCapture(filepath.Join(dir, "capture1"))
		if err != nil {
			t.Fatal(err)
		}
		leakSelfTest(t, frames, hostPeer(t, table), loadKnowledge(t, journal))
	})
}

// leakSelfTest re-signs a real capture with a stand-in host key (so the
// frames go through Open as the real ones do), checks it still passes, and
// then that each doctored capture is flagged for what was done to it:
// another seat's dealt hand slipped in, the cards of another seat's play
// that were never turned up, a frame the host never signed, two frames
// swapped.
func leakSelfTest(t *testing.T, frames [][]byte, hostID string, k *knowledge) {
	t.Helper()
	id, err := protocol.ParsePeerID(hostID)
	if err != nil {
		t.Fatal(err)
	}
	key := key2(t)
	fake, _ := protocol.PeerIDOf(key)
	var msgs []protocol.Message
	var env0 *protocol.Envelope
	seat := -1
	for i, b := range frames {
		env, err := protocol.Open(b, id)
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if s, ok := env.Msg.(protocol.Seated); ok {
			seat = s.Seat
			env0 = env
		}
		msgs = append(msgs, env.Msg)
	}
	if seat < 0 || len(msgs) < 10 {
		t.Fatal("no seat in the capture, or no game")
	}
	// seal numbers the messages afresh, in order; a message for signer
	// "other" is signed by a key that isn't the host's.
	other := key2(t)
	seal := func(ms []protocol.Message, by map[int]ed25519.PrivateKey) [][]byte {
		var out [][]byte
		for i, m := range ms {
			k := key
			if by[i] != nil {
				k = by[i]
			}
			b, err := protocol.Seal(k, env0.Table, env0.Term, uint64(i+1), m)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, b)
		}
		return out
	}
	if _, problems, _ := checkFrames(seal(msgs, nil), fake, k); len(problems) > 0 {
		t.Fatalf("the re-signed capture no longer passes: %v", problems)
	}

	// The truth to leak: another seat's deal, and a play of another seat's
	// that stayed face down until the end.
	them := (seat + 1) % k.cfg.Seats
	g, _, err := engine.New(k.cfg)
	if err != nil {
		t.Fatal(err)
	}
	theirHand := g.View(them).Hand
	var hidden *engine.Step
	for i := range k.steps {
		st := &k.steps[i]
		if st.Cmd == nil || st.Cmd.Move != engine.MovePlay || st.Cmd.Seat == seat || k.over < 1 || i+1 >= k.over {
			continue
		}
		before := k.mayAfter(seat, k.over-1)
		for _, c := range st.Cmd.Cards {
			if !before.has(uint8(c)) {
				hidden = st
			}
		}
		if hidden != nil {
			break
		}
	}
	at := len(msgs) / 3 // well into the game; a doctored update's time is its own
	cases := []struct {
		name, want string
		frames     func() [][]byte
	}{
		{"another seat's hand", "Update.Events[0].Cards", func() [][]byte {
			m := protocol.Update{AtMS: k.stepMS[0], Events: []protocol.Event{{Type: "hand", Seat: them, Cards: wireCardsOf(theirHand)}}}
			return seal(slices.Insert(slices.Clone(msgs), 3, protocol.Message(m)), nil)
		}},
		{"a face-down play never turned up", "Update.View.Last.Cards", func() [][]byte {
			if hidden == nil {
				t.Skip("every play in this game was turned up or came back to this seat")
			}
			m := protocol.Update{AtMS: hidden.At.Milliseconds(), View: &protocol.View{Seat: seat, Phase: "call",
				Last: &protocol.Last{Seat: hidden.Cmd.Seat, Cards: wireCardsOf(hidden.Cmd.Cards), Claim: len(hidden.Cmd.Cards), Caller: -1}}}
			return seal(slices.Insert(slices.Clone(msgs), at, protocol.Message(m)), nil)
		}},
		{"a frame the host never signed", "does not open as the host's", func() [][]byte {
			return seal(msgs, map[int]ed25519.PrivateKey{at: other})
		}},
		{"two frames swapped", "drops it as a replay", func() [][]byte {
			fs := seal(msgs, nil)
			fs[at], fs[at+1] = fs[at+1], fs[at]
			return fs
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, problems, _ := checkFrames(c.frames(), fake, k)
			for _, p := range problems {
				if strings.Contains(p, c.want) {
					t.Logf("flagged: %s", p)
					return
				}
			}
			t.Fatalf("the check let %s through (problems: %v)", c.name, problems)
		})
	}
}

func key2(t *testing.T) ed25519.PrivateKey {
	_, k, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func wireCardsOf(cs []engine.Card) []protocol.Card {
	out := make([]protocol.Card, len(cs))
	for i, c := range cs {
		out[i] = protocol.Card(c)
	}
	return out
}
