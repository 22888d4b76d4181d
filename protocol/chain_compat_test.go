package protocol

import (
	"encoding/hex"
	"reflect"
	"testing"
)

// audit11 is the golden audit envelope as protocol 1.1 sealed it: its
// steps have no Term, Seal or Sig.
const audit11 = "9297cd0101c42600240801122048c9e03bc28f79b7ab845d90e33ffe09005b7ce3d27772c032424c43eb87b0cac408b5115eed00010203031941c44e96cfffffffffffffffffc41073616c742d73616c742d73616c742d21929201c40204059202c401349299ce59682f00c20102c402000102ff000099cf00000001bf08eb00c30000c000ff00000001c440cec52822d5d6253077be89c85cf604736e8441c40fd3d0acfe2133145a523a03a10b926d87a513ad4408968f65a0469cba0eb107111f5921d1935cc03b868005"

// A 1.1 peer's steps still open: the chain's fields are trailing and
// optional, and come out empty.
func TestStepFromOlderPeer(t *testing.T) {
	b, err := hex.DecodeString(audit11)
	if err != nil {
		t.Fatal(err)
	}
	env, err := Open(b, aliceID)
	if err != nil {
		t.Fatal(err)
	}
	if env.Version != MakeVersion(1, 1) {
		t.Fatalf("version %v", env.Version)
	}
	var want Audit
	for _, s := range samples() {
		if s.name == "audit" {
			want = s.msg.(Audit)
		}
	}
	if got := env.Msg.(Audit); !reflect.DeepEqual(got, want) {
		t.Fatalf("opened %+v\nwant %+v", got, want)
	}
}

// A step's chain fields go round the codec.
func TestStepChainFields(t *testing.T) {
	m := State{Term: 2, Steps: []Step{{At: 5, Move: 1, Seat: 1, Rank: 3, Hidden: 2, Term: 2, Seal: []byte{1, 2, 3}, Sig: []byte{9}}}}
	b, err := Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(m.Type(), b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, m) {
		t.Fatalf("got %+v", got)
	}
}
