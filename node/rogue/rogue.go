// Package rogue is a rogue peer: it takes a seat like anyone (its own key,
// the game's stream protocol, over libp2p or a phone's webwire channel)
// and plays it, badly but legally, so the game goes on, and then sends
// whatever it is told to: forged signatures, a sender that isn't itself,
// replays of its own envelopes, stale and future terms, another table's
// ID, moves for another seat, calls on plays long settled, garbage, bodies
// that don't decode, messages only a host sends, a frame over the size
// limit. It sorts the host's refusals by the attack they answer and says
// whether each gave the right reason (RefusedRightly).
//
// The end-to-end rogue tests (cmd/bullshit) script it in a namespace of
// its own; `bullshit bench` floods a host with it (node/flood). It is
// attack and measurement code, not the game: node's own code never
// imports it (node's tests do), it never imports node, and it must never
// import testing (the shipped binary links it for the bench).
package rogue

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	libp2pproto "github.com/libp2p/go-libp2p/core/protocol"
	"github.com/vmihailenco/msgpack/v5"

	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/protocol"
)

// Kinds are the attacks of a seated rogue, each refused for its own
// reason (RefusedRightly).
var Kinds = []string{
	"forged-signature", "forged-sender", "replay", "stale-term", "future-term", "other-table",
	"other-seat", "late-call", "garbage", "bad-body", "unknown-type", "not-a-move",
}

// Big is one more kind, out of Kinds: a message only a host sends, just
// under the size limit, of the kind that decodes to megabytes of Go values
// (issue 13's work before refusal). Oversize is a frame's length over the
// limit (Rogue.Oversize): the host refuses it and hangs up.
const (
	Big      = "big"
	Oversize = "oversize"
)

// FutureTerm is the term of the future-term attack; the table is at 1.
const FutureTerm = 7

// RefusedRightly reports whether the host's refusal r gives the reason an
// attack of kind must be refused for. Honest moves ("honest") may be
// refused for any reason (during a reveal, say).
func RefusedRightly(kind string, r protocol.Refusal) bool {
	m := r.Message
	switch kind {
	case "forged-signature":
		return strings.Contains(m, "bad signature")
	case "forged-sender":
		return strings.Contains(m, "sender is not the remote peer")
	case "replay":
		return strings.Contains(m, "replayed sequence number")
	case "stale-term":
		return strings.Contains(m, "term 0, the table is at term 1")
	case "future-term":
		return strings.Contains(m, fmt.Sprintf("term %d, the table is at term 1", FutureTerm))
	case "other-table":
		return strings.Contains(m, "another table")
	case "other-seat":
		return r.Code == protocol.CodeBadSeat
	case "late-call":
		return r.Code == protocol.CodeTooLate
	case "garbage":
		return r.Code == protocol.CodeBadCommand && r.Ref == 0 && strings.Contains(m, "protocol:")
	case "bad-body":
		return r.Code == protocol.CodeBadCommand && strings.Contains(m, "malformed")
	case "unknown-type":
		return strings.Contains(m, "unknown message type")
	case "not-a-move", Big:
		return strings.Contains(m, "A player can't send that message")
	case Oversize:
		return strings.Contains(m, "over the size limit")
	}
	return true
}

// Reusable are the attacks refused before the host looks at the sequence
// number (a sender, a table or a term that is wrong, a replay, bytes that
// aren't an envelope): a flood makes each once and sends it again and
// again (Cached), so that the rogue's own signing doesn't eat the CPU the
// host and the honest players share with it. A forged signature or a
// message of the wrong type is not: the host checks the number before the
// signature and the type (issue 13: refuse before you work), so such an
// envelope sent twice is refused the second time as a replay.
var Reusable = map[string]bool{"forged-sender": true, "stale-term": true,
	"future-term": true, "other-table": true, "replay": true, "garbage": true}

// A Maker makes the frame of an attack (or a move) with sequence number seq.
type Maker func(seq uint64) ([]byte, error)

// Link is the rogue's line to the host: a libp2p stream, or a phone's
// webwire channel.
type Link interface {
	io.ReadWriter
	SetReadDeadline(time.Time) error
	Reset() error
}

// Rogue is the rogue's state. Every write to the host goes through Write
// (or Writes), which numbers envelopes in the order they go out (the host
// refuses a number not above the last it accepted).
type Rogue struct {
	Key, Other ed25519.PrivateKey // its own key, and another it signs forgeries with
	ID         protocol.PeerID
	// Again is how soon the rogue looks at its seat again when nothing
	// changed: a move the host refused (during a reveal) is made again
	// then. Zero is half a second.
	Again time.Duration

	say func(typ string, kv map[string]any)

	wmu sync.Mutex
	w   *bufio.Writer
	seq uint64

	mu         sync.Mutex
	hostID     peer.ID
	link       Link
	tid        protocol.TableID
	commit     [32]byte // the deal's, as the lobby gave it: what a move's own signature names
	seat       int
	seats      int
	view       *protocol.View
	over       *protocol.Event
	kinds      map[uint64]string // sequence number → the attack it carried
	refused    map[string]int    // refusals that gave the right reason, by kind
	wrong      map[string][]string
	lastMove   []byte // an honest move already sent: what the replays resend
	lastSeq    uint64 // the highest sequence number the host sent us
	disorder   int    // frames that came numbered below one already received
	disordered []string
	answeredAt time.Time // when the last refusal of an attack came
	answers    chan string
	changed    chan struct{}
	lost       chan struct{}
	toss       struct { // its part in the deal's toss, played honestly: a deal without it is not verified
		round [32]byte
		nonce [gamewire.NonceSize]byte
	}
}

// New is a rogue with fresh keys, checked against protocol (SelfCheck).
// say, if not nil, is told of errors in what the host sends.
func New(say func(typ string, kv map[string]any)) (*Rogue, error) {
	r := &Rogue{say: say, seat: -1, kinds: map[uint64]string{}, refused: map[string]int{},
		wrong: map[string][]string{}, answers: make(chan string, 1<<16), changed: make(chan struct{}, 1),
		seq: uint64(time.Now().UnixNano())}
	var err error
	if _, r.Key, err = ed25519.GenerateKey(rand.Reader); err != nil {
		return nil, err
	}
	if _, r.Other, err = ed25519.GenerateKey(rand.Reader); err != nil {
		return nil, err
	}
	if r.ID, err = protocol.PeerIDOf(r.Key); err != nil {
		return nil, err
	}
	if err := r.SelfCheck(); err != nil {
		return nil, err
	}
	return r, nil
}

// HostKey is the rogue's key as libp2p takes it, for its own host.
func (r *Rogue) HostKey() (crypto.PrivKey, error) { return crypto.UnmarshalEd25519PrivateKey(r.Key) }

func (r *Rogue) tell(typ string, kv map[string]any) {
	if r.say != nil {
		r.say(typ, kv)
	}
}

// ---- envelopes, made by hand where protocol.Seal won't ----

const envDomain = "bullshit/envelope/v1\x00"

// SealRaw signs any type and body as an envelope, as protocol.Seal does
// for catalogued messages: for bodies that don't decode and types that
// don't exist. It names the sender as libp2p does, so SelfCheck also
// checks that protocol's peer IDs are libp2p's.
func SealRaw(key ed25519.PrivateKey, table protocol.TableID, term, seq uint64, typ protocol.Type, body []byte) ([]byte, error) {
	pub, err := crypto.UnmarshalEd25519PublicKey(key.Public().(ed25519.PublicKey))
	if err != nil {
		return nil, err
	}
	id, err := peer.IDFromPublicKey(pub)
	if err != nil {
		return nil, err
	}
	var inner bytes.Buffer
	e := msgpack.NewEncoder(&inner)
	e.EncodeArrayLen(7)
	e.EncodeUint(uint64(protocol.Current))
	e.EncodeBytes([]byte(id))
	e.EncodeBytes(table[:])
	e.EncodeUint(term)
	e.EncodeUint(seq)
	e.EncodeUint(uint64(typ))
	e.EncodeBytes(body)
	sig := ed25519.Sign(key, append([]byte(envDomain), inner.Bytes()...))
	var out bytes.Buffer
	out.WriteByte(0x92)
	out.Write(inner.Bytes())
	msgpack.NewEncoder(&out).EncodeBytes(sig)
	return out.Bytes(), nil
}

// Split reads an envelope's sequence number and message without checking
// the signature: a rogue reads thousands of refusals a second and trusts
// the host.
func Split(b []byte) (protocol.Message, uint64, error) {
	d := msgpack.NewDecoder(bytes.NewReader(b))
	if n, err := d.DecodeArrayLen(); err != nil || n != 2 {
		return nil, 0, fmt.Errorf("not an envelope (%v)", err)
	}
	if n, err := d.DecodeArrayLen(); err != nil || n < 7 {
		return nil, 0, fmt.Errorf("not an envelope (%v)", err)
	}
	for range 4 { // version, sender, table, term
		if err := d.Skip(); err != nil {
			return nil, 0, err
		}
	}
	seq, err := d.DecodeUint64()
	if err != nil {
		return nil, 0, err
	}
	typ, err := d.DecodeUint64()
	if err != nil {
		return nil, 0, err
	}
	body, err := d.DecodeBytes()
	if err != nil {
		return nil, 0, err
	}
	m, err := protocol.Decode(protocol.Type(typ), body)
	return m, seq, err
}

// SelfCheck: the hand-made envelope is one protocol.Open accepts, and the
// quick reader reads what Seal wrote. Otherwise the attacks prove nothing.
func (r *Rogue) SelfCheck() error {
	body, err := protocol.Encode(protocol.Pass{No: 3, Seat: 1})
	if err != nil {
		return err
	}
	b, err := SealRaw(r.Key, protocol.TableID{1}, 1, 5, protocol.TypePass, body)
	if err != nil {
		return err
	}
	env, err := protocol.Open(b, r.ID)
	if err != nil || !reflect.DeepEqual(env.Msg, protocol.Pass{No: 3, Seat: 1}) || env.Seq != 5 {
		return fmt.Errorf("self-check: a hand-made envelope doesn't open: %v %+v", err, env)
	}
	b, _ = protocol.Seal(r.Key, protocol.TableID{1}, 1, 6, protocol.Refusal{Code: "x", Message: "y", Ref: 9})
	if m, seq, err := Split(b); err != nil || m != (protocol.Refusal{Code: "x", Message: "y", Ref: 9}) || seq != 6 {
		return fmt.Errorf("self-check: the quick reader misreads an envelope: %v %+v", err, m)
	}
	return nil
}

// ---- the connection ----

// writeFrame writes one length-prefixed frame, unflushed: a flood writes
// many before it flushes.
func writeFrame(w *bufio.Writer, b []byte) error {
	var n [binary.MaxVarintLen64]byte
	w.Write(n[:binary.PutUvarint(n[:], uint64(len(b)))])
	_, err := w.Write(b)
	return err
}

// ReadFrame reads one length-prefixed frame.
func ReadFrame(r *bufio.Reader) ([]byte, error) {
	n, err := binary.ReadUvarint(r)
	if err != nil {
		return nil, err
	}
	if n > protocol.MaxSize {
		return nil, fmt.Errorf("frame of %d bytes", n)
	}
	b := make([]byte, n)
	_, err = io.ReadFull(r, b)
	return b, err
}

// Write sends the frame mk makes, which gets the next sequence number; kind
// names the attack it carries ("" for an honest move, which the replays
// resend). It flushes.
func (r *Rogue) Write(kind string, mk Maker) error {
	return r.Writes(func(write func(string, Maker) error) error { return write(kind, mk) })
}

// Writes runs f with the connection to itself: every frame f writes goes
// out in order, flushed when f returns.
func (r *Rogue) Writes(f func(write func(kind string, mk Maker) error) error) error {
	r.wmu.Lock()
	defer r.wmu.Unlock()
	if err := f(r.writeLocked); err != nil {
		return err
	}
	if r.w == nil {
		return errors.New("not connected")
	}
	return r.w.Flush()
}

func (r *Rogue) writeLocked(kind string, mk Maker) error {
	if r.w == nil {
		return errors.New("not connected")
	}
	r.seq++
	seq := r.seq
	b, err := mk(seq)
	if err != nil {
		return err
	}
	r.mu.Lock()
	if kind != "" {
		r.kinds[seq] = kind
	} else if b != nil {
		r.lastMove = b
	}
	r.mu.Unlock()
	return writeFrame(r.w, b)
}

// Send sends m sealed, as no attack and no move to replay (a heartbeat).
func (r *Rogue) Send(m protocol.Message) error {
	r.wmu.Lock()
	defer r.wmu.Unlock()
	if r.w == nil {
		return errors.New("not connected")
	}
	r.seq++
	b, err := r.Sealed(m)(r.seq)
	if err != nil {
		return err
	}
	if err := writeFrame(r.w, b); err != nil {
		return err
	}
	return r.w.Flush()
}

// Oversize sends the length of a frame over the size limit, and nothing
// after it: the host refuses it from the length alone and hangs up.
func (r *Rogue) Oversize() error {
	r.wmu.Lock()
	defer r.wmu.Unlock()
	if r.w == nil {
		return errors.New("not connected")
	}
	var n [binary.MaxVarintLen64]byte
	r.w.Write(n[:binary.PutUvarint(n[:], protocol.MaxSize+1)])
	return r.w.Flush()
}

// Sealed is a Maker for an ordinary message at the table's term; a move
// signed as the seat's own, as an honest player's is (protocol 1.6).
func (r *Rogue) Sealed(m protocol.Message) Maker {
	return func(seq uint64) ([]byte, error) {
		r.mu.Lock()
		tid, commit := r.tid, r.commit
		r.mu.Unlock()
		return protocol.Seal(r.Key, tid, 1, seq, gamewire.SignedMove(r.Key, tid, commit, m))
	}
}

// Connect takes a seat at the table at (again, after the host hung up)
// over h, on the game's stream protocol proto (node.ProtocolID), with
// hello.
func (r *Rogue) Connect(ctx context.Context, h host.Host, at peer.AddrInfo, proto libp2pproto.ID, hello protocol.Hello) error {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := h.Connect(cctx, at); err != nil {
		return err
	}
	st, err := h.NewStream(cctx, at.ID, proto)
	if err != nil {
		return err
	}
	if err := r.Join(st, at.ID, hello); err != nil {
		st.Reset()
		return err
	}
	return nil
}

// Join says hello on link, to the host whose ID is hostID, and waits for
// a seat; then it reads everything the host sends, until the link ends
// (Lost).
func (r *Rogue) Join(link Link, hostID peer.ID, hello protocol.Hello) error {
	br := bufio.NewReader(link)
	r.wmu.Lock()
	r.w = bufio.NewWriter(link)
	r.wmu.Unlock()
	r.mu.Lock()
	r.hostID, r.link = hostID, link
	r.mu.Unlock()
	if err := r.Write("", r.Sealed(hello)); err != nil {
		return err
	}
	link.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		b, err := ReadFrame(br)
		if err != nil {
			return err
		}
		env, err := protocol.Open(b, protocol.PeerID(hostID))
		if err != nil {
			return fmt.Errorf("the host's first answer: %w", err)
		}
		switch m := env.Msg.(type) {
		case protocol.Refusal:
			return fmt.Errorf("refused a seat: %s", m.Message)
		case protocol.Seated:
			link.SetReadDeadline(time.Time{})
			lost := make(chan struct{})
			r.mu.Lock()
			r.tid, r.seat, r.lost = m.Table, m.Seat, lost
			r.mu.Unlock()
			go r.read(br, lost)
			return nil
		}
	}
}

// Reset ends the rogue's link at once, unsent bytes and all (a flood
// queued behind it is dropped): Lost closes, and Connect or Join takes
// the seat back.
func (r *Rogue) Reset() {
	r.mu.Lock()
	l := r.link
	r.mu.Unlock()
	if l != nil {
		l.Reset()
	}
}

// read takes in everything the host sends: views, the end, and refusals,
// which it sorts by the attack they answer.
func (r *Rogue) read(br *bufio.Reader, lost chan struct{}) {
	defer close(lost)
	for {
		b, err := ReadFrame(br)
		if err != nil {
			r.wmu.Lock()
			r.w = nil
			r.wmu.Unlock()
			return
		}
		m, seq, err := Split(b)
		if err != nil {
			r.tell("error", map[string]any{"text": "from the host: " + err.Error()})
			continue
		}
		// A player drops a frame numbered below the last it took.
		r.mu.Lock()
		if seq <= r.lastSeq {
			r.disorder++
			if len(r.disordered) < 3 {
				r.disordered = append(r.disordered, fmt.Sprintf("%s numbered %d after %d", m.Type(), seq, r.lastSeq))
			}
		}
		r.lastSeq = max(r.lastSeq, seq)
		r.mu.Unlock()
		switch m := m.(type) {
		case protocol.Lobby:
			r.mu.Lock()
			r.seats, r.commit = len(m.Players), m.Commit
			r.mu.Unlock()
		case protocol.Update:
			r.mu.Lock()
			if m.View != nil {
				r.view = m.View
			}
			for i := range m.Events {
				switch m.Events[i].Type {
				case "over":
					r.over = &m.Events[i]
				case "deal":
					r.over = nil
				}
			}
			r.mu.Unlock()
			r.poke()
		case protocol.Refusal:
			r.refusal(m)
		case protocol.Toss:
			if a := r.answerToss(m); a != nil {
				r.Send(a)
			}
		}
	}
}

// answerToss is the rogue's part in the deal's toss (protocol 1.4), played
// by the book: a fresh nonce's commitment, then the nonce once the host
// relays the commitments with its own among them; nil for no answer. A
// seat whose nonce no deal mixed makes every honest audit fail, which
// would hide what the rogue's attacks do.
func (r *Rogue) answerToss(m protocol.Toss) protocol.Message {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case len(m.Commits) == 0 && m.Round != r.toss.round:
		r.toss.round = m.Round
		rand.Read(r.toss.nonce[:])
		return protocol.NonceCommit{Round: m.Round, Hash: gamewire.NonceHash(m.Round, r.seat, r.toss.nonce)}
	case len(m.Commits) > 0 && m.Round == r.toss.round && r.seat >= 0 && r.seat < len(m.Commits) &&
		m.Commits[r.seat] == gamewire.NonceHash(m.Round, r.seat, r.toss.nonce):
		return protocol.NonceReveal{Round: m.Round, Nonce: r.toss.nonce}
	}
	return nil
}

// refusal sorts the host's refusal m by the attack it answers (the one
// sent with its Ref, else the one its words say), and counts it as given
// for the right reason or not.
func (r *Rogue) refusal(m protocol.Refusal) {
	r.mu.Lock()
	kind, ok := r.kinds[m.Ref]
	if !ok || m.Ref == 0 {
		switch {
		case strings.Contains(m.Message, "bad signature"):
			kind = "forged-signature"
		case strings.Contains(m.Message, "sender is not"):
			kind = "forged-sender"
		case strings.Contains(m.Message, "size limit"):
			kind = Oversize
		case m.Ref == 0:
			kind = "garbage"
		default:
			kind = "honest"
		}
	}
	if kind != "honest" {
		r.answeredAt = time.Now()
	}
	if RefusedRightly(kind, m) {
		r.refused[kind]++
	} else if len(r.wrong[kind]) < 3 {
		r.wrong[kind] = append(r.wrong[kind], m.Code+": "+m.Message)
	}
	r.mu.Unlock()
	if kind == "honest" {
		r.poke()
	}
	// WaitAnswer's news; none is kept once nobody reads them.
	select {
	case r.answers <- kind:
	default:
	}
}

func (r *Rogue) poke() {
	select {
	case r.changed <- struct{}{}:
	default:
	}
}

// Play plays the rogue's seat just well enough (Move), until ctx ends. A
// move the host refused (during a reveal) is made again after Again.
func (r *Rogue) Play(ctx context.Context) {
	again := r.Again
	if again <= 0 {
		again = 500 * time.Millisecond
	}
	PlayLoop(ctx, r.changed, again, func() protocol.Message {
		r.mu.Lock()
		defer r.mu.Unlock()
		return Move(r.view, r.seat)
	}, func(m protocol.Message) { r.Write("", r.Sealed(m)) })
}

// PlayLoop plays a seat until ctx ends: whenever changed says the seat's
// view changed, and every again besides, it asks move for the move to
// make (nil for none) and sends it. A move goes once, and again only
// after a quiet again: one the host refused (during a reveal) is made
// again then.
func PlayLoop(ctx context.Context, changed <-chan struct{}, again time.Duration, move func() protocol.Message, send func(protocol.Message)) {
	done := ""
	for {
		select {
		case <-ctx.Done():
			return
		case <-changed:
		case <-time.After(again): // and look again now and then
			done = ""
		}
		m := move()
		if m == nil {
			continue
		}
		key := fmt.Sprintf("%v", m)
		if key == done {
			continue
		}
		done = key
		send(m)
	}
}

// Move is a seat's move in view v, just well enough that the game goes
// on: one card from the left on its turn, and a pass on every play it may
// call. Nil when it has none (or no view).
func Move(v *protocol.View, seat int) protocol.Message {
	switch {
	case v == nil:
	case v.Phase == "play" && v.Turn == seat && len(v.Hand) > 0:
		c := v.Hand[0]
		rank := protocol.NoRank
		if v.Rank < 0 {
			rank = int8(c / 4)
		}
		return protocol.Play{No: v.No, Seat: seat, Cards: []protocol.Card{c}, Rank: rank}
	case Callable(v, seat):
		return protocol.Pass{No: v.Window.No, Seat: seat}
	}
	return nil
}

// Callable says whether seat may still call (or pass) in v's open window.
func Callable(v *protocol.View, seat int) bool {
	w := v.Window
	return w != nil && slices.Contains(w.Callers, seat) && !slices.Contains(w.Passed, seat)
}

// Heartbeats sends a heartbeat every half second until ctx ends: a host
// drops a peer silent for its Timing.DeadAfter.
func Heartbeats(ctx context.Context, send func(protocol.Message) error) {
	t := time.NewTicker(500 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			send(protocol.Heartbeat{})
		}
	}
}

// ---- what it knows ----

// Seated is the table, the rogue's seat and how many seats there are, as
// the host last said.
func (r *Rogue) Seated() (protocol.TableID, int, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.tid, r.seat, r.seats
}

// View is the seat's last view, nil before the deal.
func (r *Rogue) View() *protocol.View {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.view
}

// Over is the game's end event, once the game is over (until a new deal).
func (r *Rogue) Over() *protocol.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.over
}

// Lost is closed when the host ends the rogue's link.
func (r *Rogue) Lost() <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lost
}

// LastMove is the last honest move sent (what a replay resends), nil
// before any.
func (r *Rogue) LastMove() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lastMove
}

// Disorder is how many frames from the host came numbered below one it had
// sent already, and a few of them.
func (r *Rogue) Disorder() (int, []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.disorder, slices.Clone(r.disordered)
}

// AnsweredAt is when the last refusal of an attack came.
func (r *Rogue) AnsweredAt() time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.answeredAt
}

// Counts are the refusals so far that gave the right reason, by kind, and
// a few of those that didn't.
func (r *Rogue) Counts() (map[string]int, map[string][]string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	w := map[string][]string{}
	for k, v := range r.wrong {
		w[k] = slices.Clone(v)
	}
	return maps.Clone(r.refused), w
}

// WaitAnswer waits for the host to answer an attack of kind, until the
// game is over or for d at most: a bound for a host that will never
// answer, not a speed the host must keep.
func (r *Rogue) WaitAnswer(kind string, d time.Duration) bool {
	t := time.After(d)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case k := <-r.answers:
			if k == kind {
				return true
			}
		case <-tick.C:
			if r.Over() != nil {
				return false
			}
		case <-t:
			return false
		}
	}
}

// ---- the attacks ----

// Cached wraps Frame: a Reusable attack's frame is made once, in cache.
func (r *Rogue) Cached(cache map[string][]byte, kind string) Maker {
	if !Reusable[kind] {
		return r.Frame(kind)
	}
	return func(seq uint64) ([]byte, error) {
		if b, ok := cache[kind]; ok {
			return b, nil
		}
		b, err := r.Frame(kind)(seq)
		cache[kind] = b
		return b, err
	}
}

// Frame makes the frame of an attack of kind (Kinds, or Big).
func (r *Rogue) Frame(kind string) Maker {
	r.mu.Lock()
	tid, seat, v, last, commit := r.tid, r.seat, r.view, r.lastMove, r.commit
	seats := max(r.seats, 2)
	r.mu.Unlock()
	no := 1
	if v != nil {
		no = v.No
	}
	pass := protocol.Pass{No: no, Seat: seat}
	return func(seq uint64) ([]byte, error) {
		switch kind {
		case "forged-signature":
			b, err := protocol.Seal(r.Key, tid, 1, seq, pass)
			if err == nil {
				b[len(b)-1] ^= 0x55
			}
			return b, err
		case "forged-sender":
			return protocol.Seal(r.Other, tid, 1, seq, pass)
		case "replay":
			if last == nil {
				return nil, errors.New("nothing sent yet to replay")
			}
			r.mu.Lock()
			env, _ := protocol.Open(last, r.ID)
			if env != nil {
				r.kinds[env.Seq] = "replay"
			}
			r.mu.Unlock()
			return last, nil
		case "stale-term":
			return protocol.Seal(r.Key, tid, 0, seq, pass)
		case "future-term":
			return protocol.Seal(r.Key, tid, FutureTerm, seq, pass)
		case "other-table":
			var other protocol.TableID
			rand.Read(other[:])
			return protocol.Seal(r.Key, other, 1, seq, pass)
		case "other-seat":
			return protocol.Seal(r.Key, tid, 1, seq, protocol.Call{No: no, Seat: (seat + 1) % seats})
		case "late-call":
			// Signed as an honest late shout is: refused for being late.
			return protocol.Seal(r.Key, tid, 1, seq, gamewire.SignedMove(r.Key, tid, commit, protocol.Call{No: 1, Seat: seat}))
		case "garbage":
			b := make([]byte, 1+seq%200)
			rand.Read(b)
			b[0] = 0x92 // looks like an envelope, for a byte
			return b, nil
		case "bad-body":
			return SealRaw(r.Key, tid, 1, seq, protocol.TypeCall, []byte{0x93, 0xc1, 0xff, 0x00})
		case "unknown-type":
			return SealRaw(r.Key, tid, 1, seq, 200, []byte{0x90})
		case "not-a-move":
			return protocol.Seal(r.Key, tid, 1, seq, protocol.StateRequest{})
		case Big:
			return protocol.Seal(r.Key, tid, 1, seq, BigUpdate())
		}
		return nil, fmt.Errorf("no attack %q", kind)
	}
}

// BigUpdate is a host's update just under the size limit, all events: the
// kind of body that decodes to megabytes of Go values.
var BigUpdate = sync.OnceValue(func() protocol.Update {
	var big protocol.Update
	for len(big.Events) < 4000 {
		big.Events = append(big.Events, protocol.Event{Type: "x", Cards: []protocol.Card{1, 2, 3, 4, 5, 6, 7, 8}})
	}
	for {
		if _, err := protocol.Encode(big); err == nil {
			return big
		}
		big.Events = big.Events[:len(big.Events)*9/10]
	}
})
