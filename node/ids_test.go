package node

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/vmihailenco/msgpack/v5"

	"github.com/bullshit-game/bullshit/protocol"
)

// mustEd is the ed25519 key protocol signs with for the libp2p key k.
func mustEd(t testing.TB, k crypto.PrivKey) ed25519.PrivateKey {
	t.Helper()
	key, err := edKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// seededKey is a libp2p ed25519 key drawn from a seed.
func seededKey(t testing.TB, seed uint64) crypto.PrivKey {
	t.Helper()
	var s [32]byte
	s[0], s[1] = byte(seed), byte(seed>>8)
	k, _, err := crypto.GenerateEd25519Key(rand.NewChaCha8(s))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// protocol's peer IDs are libp2p's: the same bytes, the same text, the same
// key inside, for keys drawn at random.
func TestPeerIDsAreLibp2ps(t *testing.T) {
	for seed := range uint64(200) {
		k := seededKey(t, seed)
		want, err := peer.IDFromPrivateKey(k)
		if err != nil {
			t.Fatal(err)
		}
		id, err := protocol.PeerIDOf(mustEd(t, k))
		if err != nil || id != wireID(want) || peer.ID(id) != want {
			t.Fatalf("seed %d: PeerIDOf = %x, %v, want %x", seed, string(id), err, string(want))
		}
		if id.String() != want.String() {
			t.Fatalf("seed %d: text %s, libp2p prints %s", seed, id, want)
		}
		if back, err := protocol.ParsePeerID(want.String()); err != nil || back != id {
			t.Fatalf("seed %d: ParsePeerID(%s) = %x, %v", seed, want, string(back), err)
		}
		if back, err := peer.Decode(id.String()); err != nil || back != want {
			t.Fatalf("seed %d: libp2p reads %s as %s, %v", seed, id, back, err)
		}
		pub, err := id.PublicKey()
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		raw, _ := k.GetPublic().Raw()
		if !bytes.Equal(pub, raw) {
			t.Fatalf("seed %d: key %x, libp2p's %x", seed, pub, raw)
		}
		if byPub, err := protocol.NewPeerID(pub); err != nil || byPub != id {
			t.Fatalf("seed %d: NewPeerID = %x, %v", seed, string(byPub), err)
		}
	}
}

// A key that is not ed25519 is refused where the node turns a libp2p key
// into protocol's, with protocol's error.
func TestEdKeyRefusesOtherKeys(t *testing.T) {
	var s [32]byte
	secp, _, err := crypto.GenerateSecp256k1Key(rand.NewChaCha8(s))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := edKey(secp); !errors.Is(err, protocol.ErrKey) {
		t.Errorf("secp256k1: %v", err)
	}
	if _, err := newSigner(secp); !errors.Is(err, protocol.ErrKey) {
		t.Errorf("secp256k1 signer: %v", err)
	}
	id, _ := peer.IDFromPrivateKey(secp)
	if _, err := wireID(id).PublicKey(); !errors.Is(err, protocol.ErrKey) {
		t.Errorf("secp256k1 ID's key: %v", err)
	}
}

// sealOld seals the way protocol did with libp2p's types: the sender named
// by peer.IDFromPrivateKey, signed by the libp2p key's Sign.
func sealOld(t *testing.T, k crypto.PrivKey, table protocol.TableID, term, seq uint64, m protocol.Message) []byte {
	t.Helper()
	id, err := peer.IDFromPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	body, err := protocol.Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	var inner bytes.Buffer
	e := msgpack.NewEncoder(&inner)
	e.UseCompactInts(true)
	_ = e.EncodeArrayLen(7)
	_ = e.EncodeUint(uint64(protocol.Current))
	_ = e.EncodeBytes([]byte(id))
	_ = e.EncodeBytes(table[:])
	_ = e.EncodeUint(term)
	_ = e.EncodeUint(seq)
	_ = e.EncodeUint(uint64(m.Type()))
	_ = e.EncodeBytes(body)
	sig, err := k.Sign(append([]byte("bullshit/envelope/v1\x00"), inner.Bytes()...))
	if err != nil {
		t.Fatal(err)
	}
	out := append([]byte{0x92}, inner.Bytes()...)
	return append(append(out, 0xc4, byte(len(sig))), sig...)
}

// openOld checks an envelope the way protocol did with libp2p's types: the
// key from the sender's peer.ID, libp2p's Verify over the inner array.
func openOld(t *testing.T, b []byte) peer.ID {
	t.Helper()
	d := msgpack.NewDecoder(bytes.NewReader(b))
	if n, err := d.DecodeArrayLen(); err != nil || n != 2 {
		t.Fatalf("not an envelope: %d, %v", n, err)
	}
	inner, err := d.DecodeRaw()
	if err != nil {
		t.Fatal(err)
	}
	sig, err := d.DecodeBytes()
	if err != nil {
		t.Fatal(err)
	}
	fields := msgpack.NewDecoder(bytes.NewReader(inner))
	if n, err := fields.DecodeArrayLen(); err != nil || n != 7 {
		t.Fatalf("inner array of %d, %v", n, err)
	}
	_ = fields.Skip() // version
	sender, err := fields.DecodeBytes()
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.IDFromBytes(sender)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := id.ExtractPublicKey()
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := pub.Verify(append([]byte("bullshit/envelope/v1\x00"), inner...), sig); !ok || err != nil {
		t.Fatalf("libp2p does not verify it: %v", err)
	}
	return id
}

// The wire did not change when protocol dropped libp2p: what protocol
// seals now is byte for byte what it sealed with libp2p's key and ID,
// libp2p verifies it as before, and protocol opens the old bytes.
func TestEnvelopesAsWithLibp2p(t *testing.T) {
	table := protocol.TableID{1, 2, 3, 4, 5, 6, 7, 8}
	for seed := range uint64(20) {
		k, other := seededKey(t, seed), seededKey(t, seed+1000)
		me, _ := peer.IDFromPrivateKey(k)
		them, _ := peer.IDFromPrivateKey(other)
		for i, m := range []protocol.Message{
			protocol.Seated{Seat: 2, Nick: "bob", Table: table},
			protocol.Hello{Version: protocol.Current, Nick: "ada", Proof: []byte("0123456789abcdef0123456789abcdef")},
			protocol.Lobby{Players: []protocol.Player{{Seat: 0, Nick: "ada", Peer: wireID(me)}, {Seat: 1, Nick: "bot", Bot: "easy"}}},
		} {
			seq := uint64(i + 1)
			now, err := protocol.Seal(mustEd(t, k), table, 3, seq, m)
			if err != nil {
				t.Fatal(err)
			}
			old := sealOld(t, k, table, 3, seq, m)
			if !bytes.Equal(now, old) {
				t.Fatalf("seed %d, %s: sealed\n now %x\n old %x", seed, m.Type(), now, old)
			}
			if from := openOld(t, now); from != me {
				t.Fatalf("seed %d, %s: libp2p reads the sender as %s, not %s", seed, m.Type(), from, me)
			}
			env, err := protocol.Open(old, wireID(me))
			if err != nil {
				t.Fatalf("seed %d, %s: %v", seed, m.Type(), err)
			}
			if peer.ID(env.Sender) != me {
				t.Fatalf("seed %d, %s: sender %s", seed, m.Type(), env.Sender)
			}
			if _, err := protocol.Open(old, wireID(them)); !errors.Is(err, protocol.ErrSender) {
				t.Fatalf("seed %d, %s: opened as another's: %v", seed, m.Type(), err)
			}
		}
	}
}

// protocol takes as a peer ID exactly the bytes libp2p takes, and finds an
// ed25519 key in one only where libp2p finds that key, in the form libp2p
// writes it. It refuses one form libp2p reads: the key's protobuf written
// some other way, which no libp2p host names itself by.
func FuzzPeerIDBytesAsLibp2p(f *testing.F) {
	var s [32]byte
	k, _, _ := crypto.GenerateEd25519Key(rand.NewChaCha8(s))
	ed, _ := peer.IDFromPrivateKey(k)
	secp, _, _ := crypto.GenerateSecp256k1Key(rand.NewChaCha8(s))
	sp, _ := peer.IDFromPrivateKey(secp)
	for _, b := range [][]byte{
		[]byte(ed), []byte(sp), {}, {0}, {0, 0}, {0x12, 0x20}, append([]byte{0x12, 0x20}, make([]byte, 32)...),
		[]byte(ed)[:len(ed)-1], append([]byte(ed), 0), {0x80, 0x00, 0x00}, {0x00, 0xa4, 0x00},
		append(append([]byte{0x00, 0x24, 0x12, 0x20}, []byte(ed)[6:]...), 0x08, 0x01),
	} {
		f.Add(b)
	}
	f.Fuzz(readsLikeLibp2p)
}

// Mangled IDs, seeded: bytes flipped, cut short, lengthened.
func TestMangledPeerIDsReadAsLibp2p(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var ids [][]byte
	for seed := range uint64(4) {
		id, _ := peer.IDFromPrivateKey(seededKey(t, seed))
		ids = append(ids, []byte(id))
	}
	for range 5000 {
		b := bytes.Clone(ids[r.IntN(len(ids))])
		switch r.IntN(4) {
		case 0:
			b[r.IntN(len(b))] ^= byte(1 << r.IntN(8))
		case 1:
			b[r.IntN(6)] = byte(r.IntN(256))
		case 2:
			b = b[:r.IntN(len(b))]
		case 3:
			b = append(b, byte(r.IntN(256)))
		}
		readsLikeLibp2p(t, b)
	}
}

func readsLikeLibp2p(t *testing.T, b []byte) {
	text := peer.ID(b).String()
	id, err := protocol.ParsePeerID(text)
	_, libErr := peer.IDFromBytes(b)
	if len(b) > 0 && (err == nil) != (libErr == nil) {
		t.Fatalf("%x: protocol says %v, libp2p %v", b, err, libErr)
	}
	if err != nil {
		return
	}
	if id.String() != text || string(id) != string(b) {
		t.Fatalf("%x: read back as %x (%s)", b, string(id), id)
	}
	pub, err := id.PublicKey()
	libPub, libErr := peer.ID(b).ExtractPublicKey()
	var libEd []byte
	if libErr == nil && libPub.Type() == crypto.Ed25519 {
		libEd, _ = libPub.Raw()
	}
	switch {
	case err == nil && !bytes.Equal(pub, libEd):
		t.Fatalf("%x: key %x, libp2p finds %x (%v)", b, pub, libEd, libErr)
	case err != nil && libEd != nil:
		canon, _ := peer.IDFromPublicKey(libPub)
		if canon == peer.ID(b) {
			t.Fatalf("%x: libp2p finds key %x, protocol: %v", b, libEd, err)
		}
	}
}
