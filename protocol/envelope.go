package protocol

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/vmihailenco/msgpack/v5"
	"github.com/vmihailenco/msgpack/v5/msgpcode"
)

// domain is signed in front of every envelope so that an envelope signature
// can never be mistaken for any other signature made with the peer's key
// (libp2p signs its own handshakes with the same one).
const domain = "bullshit/envelope/v1\x00"

const sigSize = 64

// TableID names a table. The node draws it at random when it opens one.
type TableID [8]byte

func (t TableID) String() string { return hex.EncodeToString(t[:]) }

// Envelope is a verified message and who sent it where. Only Open and
// OpenRelayed make one, after the signature checked out.
type Envelope struct {
	Version Version // the sender's; same major as Current
	Sender  PeerID
	Table   TableID
	Term    uint64 // the sender's host term
	Seq     uint64 // the sender's sequence number, for Replay
	Msg     Message
}

// frame is an envelope as on the wire.
type frame struct {
	version Version
	sender  PeerID
	table   TableID
	term    uint64
	seq     uint64
	typ     Type
	body    []byte
}

var frameFields = [...]string{"Version", "Sender", "Table", "Term", "Seq", "Type", "Body"}

// Seal encodes m in an envelope signed with key, the sender's ed25519 key
// (the one its libp2p host runs on). A Signer does the same and counts
// sequence numbers itself.
func Seal(key ed25519.PrivateKey, table TableID, term, seq uint64, m Message) ([]byte, error) {
	id, err := PeerIDOf(key)
	if err != nil {
		return nil, err
	}
	return seal(key, id, table, term, seq, m)
}

func seal(key ed25519.PrivateKey, id PeerID, table TableID, term, seq uint64, m Message) ([]byte, error) {
	var body bytes.Buffer
	if err := encodeBody(&body, m); err != nil {
		return nil, err
	}
	return sealFrame(key, frame{Current, id, table, term, seq, m.Type(), body.Bytes()})
}

// sealFrame writes domain || inner array, signs that, then turns it into
// the wire form in place: 0x92 || inner array || signature.
func sealFrame(key ed25519.PrivateKey, f frame) ([]byte, error) {
	buf := bytes.NewBuffer(make([]byte, 0, len(domain)+f.size()))
	buf.WriteString(domain)
	f.encode(buf)
	signed := buf.Bytes()
	if n := len(signed) - len(domain) + 1 + 2 + sigSize; n > MaxSize {
		return nil, fmt.Errorf("%w: %s envelope is %d bytes", ErrTooBig, f.typ, n)
	}
	sig := ed25519.Sign(key, signed)
	out := signed[len(domain)-1:]
	out[0] = msgpcode.FixedArrayLow | 2
	out = append(out, msgpcode.Bin8, sigSize)
	return append(out, sig...), nil
}

// size is at least the bytes of the wire form.
func (f *frame) size() int {
	return 1 + 1 + 3 + 5 + len(f.sender) + 5 + len(f.table) + 9 + 9 + 2 + 5 + len(f.body) + 2 + sigSize
}

// encode writes the inner array, the part that is signed.
func (f *frame) encode(buf *bytes.Buffer) {
	e := msgpack.GetEncoder()
	e.Reset(buf)
	_ = e.EncodeArrayLen(len(frameFields))
	_ = e.EncodeUint(uint64(f.version))
	_ = e.EncodeBytes([]byte(f.sender))
	_ = e.EncodeBytes(f.table[:])
	_ = e.EncodeUint(f.term)
	_ = e.EncodeUint(f.seq)
	_ = e.EncodeUint(uint64(f.typ))
	_ = e.EncodeBytes(f.body)
	msgpack.PutEncoder(e)
}

// Open verifies an envelope that arrived on a stream from the peer from and
// decodes its message. It refuses an envelope sent by anyone but from
// (ErrSender), a bad or missing signature (ErrSignature), and anything that
// does not decode (a *DecodeError). It does not check Table, Term or Seq:
// that is the node's, with a Replay; OpenChecked lets it refuse them before
// the signature is verified.
//
// When the envelope verifies but its body does not decode (say a type from a
// newer minor version), Open returns the envelope, with Msg nil, and the
// error, so the node can refuse it by sequence number.
func Open(data []byte, from PeerID) (*Envelope, error) {
	return open(data, from, true)
}

// OpenRelayed is Open for an envelope passed on by a third peer (a log of
// moves in a hand-over, say): it trusts the sender named inside as long as
// the signature is that sender's.
func OpenRelayed(data []byte) (*Envelope, error) {
	return open(data, "", false)
}

// Header is what an envelope says of itself outside its body. Before Open
// has verified the signature these are only claims: good for refusing an
// envelope, never for accepting one.
type Header struct {
	Version Version
	Sender  PeerID
	Table   TableID
	Term    uint64
	Seq     uint64
	Type    Type
	Body    int // bytes of the body
}

// OpenChecked is Open with check run on the envelope's header first, after
// the sender is matched with from but before the signature is verified or
// the body decoded: a node refuses what it would refuse anyway (another
// table, another term, a number it has seen, a type it never takes from
// this peer) without spending a verification or a decode on it. An error
// from check comes back as it is, with a nil envelope. check must not record
// anything (a Replay's Peek, not its Check): the header is not yet proven.
func OpenChecked(data []byte, from PeerID, check func(*Header) error) (*Envelope, error) {
	return openChecked(data, from, true, check)
}

func open(data []byte, from PeerID, checkFrom bool) (*Envelope, error) {
	return openChecked(data, from, checkFrom, nil)
}

// PeekSender is the sender an envelope names, its signature unchecked:
// good for choosing what to do with it, never for trusting it.
func PeekSender(data []byte) (PeerID, error) {
	f, _, _, err := parse(data)
	if err != nil {
		return "", err
	}
	return f.sender, nil
}

// verifications counts the envelope signatures this process has checked.
var verifications atomic.Uint64

// Verifications is how many envelope signatures this process has checked
// so far: what a flood of refused envelopes costs, for tests and the bench.
func Verifications() uint64 { return verifications.Load() }

func openChecked(data []byte, from PeerID, checkFrom bool, check func(*Header) error) (*Envelope, error) {
	f, signed, sig, err := parse(data)
	if err != nil {
		return nil, err
	}
	if checkFrom && f.sender != from {
		return nil, fmt.Errorf("%w: signed by %s, arrived from %s", ErrSender, f.sender, from)
	}
	if check != nil {
		h := Header{Version: f.version, Sender: f.sender, Table: f.table, Term: f.term, Seq: f.seq, Type: f.typ, Body: len(f.body)}
		if err := check(&h); err != nil {
			return nil, err
		}
	}
	if err := verify(f.sender, signed, sig); err != nil {
		return nil, err
	}
	env := &Envelope{Version: f.version, Sender: f.sender, Table: f.table, Term: f.term, Seq: f.seq}
	m, err := Decode(f.typ, f.body)
	if err != nil {
		return env, err
	}
	env.Msg = m
	return env, nil
}

// parse splits the wire form into its fields, the bytes that were signed
// (without the domain) and the signature. body aliases data.
func parse(data []byte) (f frame, signed, sig []byte, err error) {
	if len(data) > MaxSize {
		return f, nil, nil, decodeErr(ErrTooBig, "", "%d bytes", len(data))
	}
	rd := getReader(data)
	defer putReader(rd)
	fail := func(err error, field string) (frame, []byte, []byte, error) {
		if field != "" {
			err = within(err, field)
		}
		return frame{}, nil, nil, err
	}

	if c, err := rd.peek(); err != nil {
		return fail(err, "")
	} else if !isArray(c) {
		return fail(wrongType(c, "an envelope"), "")
	}
	if n, err := rd.length(rd.d.DecodeArrayLen, 1); err != nil {
		return fail(err, "")
	} else if n != 2 {
		return fail(decodeErr(ErrMalformed, "", "envelope of %d parts", n), "")
	}
	start := rd.pos()
	if c, err := rd.peek(); err != nil {
		return fail(err, "")
	} else if !isArray(c) {
		return fail(wrongType(c, "an envelope"), "")
	}
	n, err := rd.length(rd.d.DecodeArrayLen, 1)
	if err != nil {
		return fail(err, "")
	}
	if n == 0 {
		return fail(&DecodeError{Kind: ErrMissingField}, frameFields[0])
	}
	_, v, err := rd.integer(0, 0xffff)
	if err != nil {
		return fail(err, frameFields[0])
	}
	f.version = Version(v)
	if !f.version.Compatible() {
		// Read on as far as the header goes: every major so far lays it
		// out alike, and the sequence number lets a host answer.
		ve := &VersionError{Peer: f.version}
		if n >= len(frameFields) {
			if _, err := rd.frameBody(&f); err == nil {
				ve.Seq = f.seq
			}
		}
		return fail(&DecodeError{Kind: ErrVersion, Err: ve}, "")
	}
	if n < len(frameFields) {
		return fail(&DecodeError{Kind: ErrMissingField, Err: fmt.Errorf("%d of %d fields", n, len(frameFields))}, frameFields[n])
	}

	if field, err := rd.frameBody(&f); err != nil {
		return fail(err, field)
	}
	for range n - len(frameFields) {
		if err := rd.skip(0); err != nil {
			return fail(err, "")
		}
	}
	end := rd.pos()

	if sig, err = rd.bin(sigSize); err != nil {
		return fail(err, "Sig")
	}
	if rd.r.Len() != 0 {
		return fail(decodeErr(ErrMalformed, "", "%d trailing bytes", rd.r.Len()), "")
	}
	return f, data[start:end], sig, nil
}

// frameBody reads a frame's fields after its version into f: sender,
// table, term, seq, type and body. On an error, field names the field.
func (rd *reader) frameBody(f *frame) (field string, err error) {
	id, err := rd.bin(-1)
	if err != nil {
		return frameFields[1], err
	}
	if f.sender, err = peerIDFromBytes(id); err != nil {
		return frameFields[1], &DecodeError{Kind: ErrMalformed, Err: err}
	}
	table, err := rd.bin(len(f.table))
	if err != nil {
		return frameFields[2], err
	}
	copy(f.table[:], table)
	if _, f.term, err = rd.integer(0, 1<<64-1); err != nil {
		return frameFields[3], err
	}
	if _, f.seq, err = rd.integer(0, 1<<64-1); err != nil {
		return frameFields[4], err
	}
	_, t, err := rd.integer(0, 0xff)
	if err != nil {
		return frameFields[5], err
	}
	f.typ = Type(t)
	if f.body, err = rd.bin(-1); err != nil {
		return frameFields[6], err
	}
	return "", nil
}

// bin reads a bin of n bytes (any n when n < 0) and returns it aliasing the
// input.
func (rd *reader) bin(n int) ([]byte, error) {
	if c, err := rd.peek(); err != nil {
		return nil, err
	} else if !isBin(c) {
		return nil, wrongType(c, "bytes")
	}
	got, err := rd.length(rd.d.DecodeBytesLen, 1)
	if err != nil {
		return nil, err
	}
	if n >= 0 && got != n {
		return nil, decodeErr(ErrMalformed, "", "%d bytes where %d belong", got, n)
	}
	p := rd.pos()
	_, _ = rd.r.Seek(int64(got), io.SeekCurrent)
	return rd.in[p : p+got : p+got], nil
}

func verify(sender PeerID, signed, sig []byte) error {
	pub, err := sender.PublicKey()
	if errors.Is(err, ErrKey) {
		return err
	} else if err != nil {
		return fmt.Errorf("%w: no public key in %s: %v", ErrSignature, sender, err)
	}
	verifications.Add(1)
	msg := make([]byte, 0, len(domain)+len(signed))
	msg = append(append(msg, domain...), signed...)
	if !ed25519.Verify(pub, msg, sig) {
		return fmt.Errorf("%w: from %s", ErrSignature, sender)
	}
	return nil
}

// Signer seals messages for one peer and numbers them. It is safe for
// concurrent use.
type Signer struct {
	key ed25519.PrivateKey
	id  PeerID
	seq atomic.Uint64 // the last number used
}

// NewSigner returns a Signer for an ed25519 key whose first envelope
// will carry sequence number first. Receivers refuse numbers they have seen
// from this peer in this term, so a peer that restarts with the same key
// should start above any number it may have used before (its clock in
// nanoseconds, say).
func NewSigner(key ed25519.PrivateKey, first uint64) (*Signer, error) {
	id, err := PeerIDOf(key)
	if err != nil {
		return nil, err
	}
	s := &Signer{key: key, id: id}
	s.seq.Store(first - 1)
	return s, nil
}

// ID is the peer ID the signer signs as.
func (s *Signer) ID() PeerID { return s.id }

// Seal encodes m for table under term, signs it with the next sequence
// number and returns the envelope and that number.
func (s *Signer) Seal(table TableID, term uint64, m Message) ([]byte, uint64, error) {
	seq := s.seq.Add(1)
	b, err := seal(s.key, s.id, table, term, seq, m)
	return b, seq, err
}

// SealRefusal is Seal for a Refusal to a peer that speaks v, another
// major (a *VersionError's Peer): the envelope says v, so that the peer
// opens it. The envelope and a Refusal, [Code, Message, Ref], are laid out
// alike in every major so far.
func (s *Signer) SealRefusal(v Version, table TableID, term uint64, r Refusal) ([]byte, uint64, error) {
	var body bytes.Buffer
	if err := encodeBody(&body, r); err != nil {
		return nil, 0, err
	}
	seq := s.seq.Add(1)
	b, err := sealFrame(s.key, frame{v, s.id, table, term, seq, r.Type(), body.Bytes()})
	return b, seq, err
}
