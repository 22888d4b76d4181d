package protocol

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"os"
	"strings"
	"testing"
)

// frozenFile holds envelopes a 1.1 peer sealed while protocol still took
// libp2p keys and peer IDs. Unlike golden.txt it is never rewritten: it is
// what a peer on that release sends, byte for byte.
const frozenFile = "testdata/frozen-1.1.txt"

func frozenEnvelopes(t testing.TB) (names []string, env map[string][]byte) {
	f, err := os.Open(frozenFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	env = map[string][]byte{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		name, h, ok := strings.Cut(sc.Text(), " ")
		if !ok || name == "#" {
			continue
		}
		b, err := hex.DecodeString(h)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		names = append(names, name)
		env[name] = b
	}
	if len(names) == 0 {
		t.Fatalf("%s holds no envelopes", frozenFile)
	}
	return names, env
}

// grownSince11 are the types whose bodies a later minor version appended a
// field to (1.2: Hello.WebAddr, Player.Web, Settings.CallWindow; 1.3:
// Challenge.Share, Seated.Proof for the CPace join; 1.5: Step.Term, Seal
// and Sig, so every message carrying steps; 1.6: every move's Sig and
// Step.Mark): sealed again they carry it, so they are only opened.
var grownSince11 = map[Type]bool{TypeHello: true, TypeLobby: true, TypeStart: true, TypeChallenge: true, TypeSeated: true,
	TypeAudit: true, TypeUpdate: true, TypeState: true,
	TypePlay: true, TypeCall: true, TypePass: true, TypeGive: true, TypeQuads: true, TypeDoubt: true, TypeBelieve: true, TypeSkip: true}

// A 1.1 peer's envelopes open, name alice as their sender, and sealing what
// they hold again at 1.1 with alice's key gives the very same bytes: same
// peer ID bytes, same signature.
func TestFrozenEnvelopesOpenAndSealTheSame(t *testing.T) {
	names, env := frozenEnvelopes(t)
	for i, name := range names {
		e, err := Open(env[name], aliceID)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if e.Version != MakeVersion(1, 1) || e.Sender != aliceID || e.Seq != uint64(i+1) || e.Term != 3 || e.Table != testTable {
			t.Errorf("%s: opened %+v", name, e)
		}
		if grownSince11[e.Msg.Type()] {
			continue
		}
		body, err := Encode(e.Msg)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		again, err := sealFrame(alice, frame{e.Version, aliceID, e.Table, e.Term, e.Seq, e.Msg.Type(), body})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !bytes.Equal(again, env[name]) {
			t.Errorf("%s: sealed again differs\n 1.1: %x\n now: %x", name, env[name], again)
		}
	}
}

// The peer IDs inside bodies are bob's, and the join proof is over his ID.
func TestFrozenPeerIDsInBodies(t *testing.T) {
	_, env := frozenEnvelopes(t)
	open := func(name string) Message {
		e, err := Open(env[name], aliceID)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return e.Msg
	}
	if v := open("vote").(Vote); v.Candidate != bobID {
		t.Errorf("vote for %s, want %s", v.Candidate, bobID)
	}
	if h := open("newhost").(NewHost); h.Host != bobID {
		t.Errorf("new host %s, want %s", h.Host, bobID)
	}
	if l := open("lobby").(Lobby); l.Players[0].Peer != aliceID || l.Players[1].Peer != bobID || l.Players[2].Peer != "" {
		t.Errorf("lobby players %+v", l.Players)
	}
	// 1.1 sent the window only as a rule, in seconds (and in Window, whole
	// seconds nobody read); CallWindow comes out 0.
	if s := open("start").(Start).Settings; s.CallWindow != 0 || s.Rules["window"] != "6" || s.Window != 6 {
		t.Errorf("1.1 settings %+v", s)
	}
	// 1.1's proof (an HMAC of the code, which let a listener test codes
	// offline) still decodes as bytes; 1.3 hosts refuse it as too old.
	if h := open("hello").(Hello); len(h.Proof) == 0 {
		t.Errorf("hello's proof did not decode")
	}
}
