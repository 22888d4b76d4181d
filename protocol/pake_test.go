package protocol

import (
	"bytes"
	"crypto/sha512"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

const pakeFile = "testdata/pake.txt"

// fixedSecret is a side's scalar bytes from a name, as the vectors use.
func fixedSecret(name string) []byte {
	s := sha512.Sum512([]byte("bullshit test pake " + name))
	return s[:]
}

func pakeCtx() PakeContext {
	return PakeContext{Joiner: string(bobID), Host: string(aliceID), Table: testTable,
		JoinerNonce: []byte("joiner nonce 16b"), HostNonce: []byte("host nonce 16 by")}
}

// run is a whole exchange: the joiner with jcode, the host with hcode.
// It says whether each side's confirmation checked out at the other.
func run(t *testing.T, jcode, hcode string, jctx, hctx PakeContext) (j, h *Pake, hostOK, joinerOK bool) {
	t.Helper()
	var err error
	if j, err = NewPake(Joiner, jcode, jctx, fixedSecret("joiner")); err != nil {
		t.Fatal(err)
	}
	if h, err = NewPake(Hosting, hcode, hctx, fixedSecret("host")); err != nil {
		t.Fatal(err)
	}
	if err := j.Meet(h.Share()); err != nil {
		t.Fatal(err)
	}
	if err := h.Meet(j.Share()); err != nil {
		t.Fatal(err)
	}
	return j, h, h.Check(j.Confirm()), j.Check(h.Confirm())
}

// The exchange's bytes for fixed inputs: a change here is a change of
// protocol. Rewrite with: go test ./protocol -run PakeVectors -update
func TestPakeVectors(t *testing.T) {
	var lines []string
	for _, code := range []string{"482913", "maple-otter-7"} {
		j, h, hostOK, joinerOK := run(t, code, code, pakeCtx(), pakeCtx())
		if !hostOK || !joinerOK {
			t.Fatalf("code %q: the same code did not confirm (host %v, joiner %v)", code, hostOK, joinerOK)
		}
		lines = append(lines,
			fmt.Sprintf("code %q", code),
			fmt.Sprintf("joiner share %x", j.Share()),
			fmt.Sprintf("host share %x", h.Share()),
			fmt.Sprintf("key %x", j.Key()),
			fmt.Sprintf("joiner confirm %x", j.Confirm()),
			fmt.Sprintf("host confirm %x", h.Confirm()))
	}
	got := strings.Join(lines, "\n") + "\n"
	head := "# CPace over ristretto255 (pake.go) for fixed inputs: joiner bob, host alice,\n" +
		"# table " + testTable.String() + ", nonces \"joiner nonce 16b\" and \"host nonce 16 by\",\n" +
		"# scalars from SHA-512(\"bullshit test pake joiner\"/\"… host\"). Rewrite with -update.\n"
	if *update {
		if err := os.WriteFile(pakeFile, []byte(head+got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(pakeFile)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != head+got {
		t.Errorf("the exchange changed:\n got:\n%s\nwant:\n%s", got, want)
	}
}

func TestPakeProperties(t *testing.T) {
	other := pakeCtx()
	other.HostNonce = []byte("another host non")
	otherTable := pakeCtx()
	otherTable.Table = TableID{1}
	swapped := pakeCtx()
	swapped.Joiner, swapped.Host = swapped.Host, swapped.Joiner
	for _, c := range []struct {
		name         string
		jcode, hcode string
		jctx         PakeContext
		ok           bool
	}{
		// The same code gives both sides the same key.
		{"same code", "482913", "482913", pakeCtx(), true},
		// People type codes loosely.
		{"case, spaces and dashes", " maple otter-7", "MAPLE-OTTER-7", pakeCtx(), true},
		// Anything else and the confirmation fails on both sides.
		{"wrong code", "482914", "482913", pakeCtx(), false},
		{"empty code", "", "482913", pakeCtx(), false},
		{"other nonce", "482913", "482913", other, false},
		{"other table", "482913", "482913", otherTable, false},
		{"peers swapped", "482913", "482913", swapped, false},
	} {
		j, h, hostOK, joinerOK := run(t, c.jcode, c.hcode, c.jctx, pakeCtx())
		if hostOK != c.ok || joinerOK != c.ok {
			t.Errorf("%s: host checked %v, joiner checked %v, want %v", c.name, hostOK, joinerOK, c.ok)
		}
		if same := bytes.Equal(j.Key(), h.Key()); same != c.ok {
			t.Errorf("%s: same key %v, want %v", c.name, same, c.ok)
		}
	}
}

// A transcript from one session doesn't verify in another: the joiner's
// share and confirmation replayed to a host with a fresh nonce, and a
// host's confirmation replayed to another joiner.
func TestPakeTranscriptReplay(t *testing.T) {
	j, h, hostOK, joinerOK := run(t, "482913", "482913", pakeCtx(), pakeCtx())
	if !hostOK || !joinerOK {
		t.Fatal("the honest run failed")
	}
	ctx2 := pakeCtx()
	ctx2.HostNonce = []byte("a second session")
	h2, err := NewPake(Hosting, "482913", ctx2, fixedSecret("host 2"))
	if err != nil {
		t.Fatal(err)
	}
	if err := h2.Meet(j.Share()); err != nil {
		t.Fatal(err)
	}
	if h2.Check(j.Confirm()) {
		t.Error("a joiner's confirmation from another session verified")
	}
	j2, _ := NewPake(Joiner, "482913", ctx2, fixedSecret("joiner 2"))
	if err := j2.Meet(h.Share()); err != nil {
		t.Fatal(err)
	}
	if j2.Check(h.Confirm()) {
		t.Error("a host's confirmation from another session verified")
	}
	// A side's own confirmation reflected back never checks out.
	if h.Check(h.Confirm()) || j.Check(j.Confirm()) {
		t.Error("a reflected confirmation verified")
	}
}

// Bytes from a peer: no share that isn't a group element, nor the
// identity, is taken, and nothing checks before Meet.
func TestPakeRefusesBadShares(t *testing.T) {
	p, err := NewPake(Hosting, "482913", pakeCtx(), fixedSecret("host"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Check(nil) || p.Check(make([]byte, 64)) || p.Confirm() != nil {
		t.Error("a confirmation before Meet")
	}
	for name, s := range map[string][]byte{
		"empty": nil, "short": make([]byte, 31), "long": make([]byte, 33),
		"identity": make([]byte, 32), "not canonical": bytes.Repeat([]byte{0xff}, 32),
	} {
		if err := p.Meet(s); err == nil {
			t.Errorf("%s share taken", name)
		}
	}
	if _, err := NewPake(Joiner, "482913", PakeContext{JoinerNonce: []byte("short")}, fixedSecret("x")); err == nil {
		t.Error("a short nonce taken")
	}
}

func TestCheckCode(t *testing.T) {
	for code, ok := range map[string]bool{
		"": true, "482913": true, "maple-otter": true, "ab-12 cd": true,
		"1234": false, "12-34-5": false, " a b c ": false,
	} {
		if err := CheckCode(code); (err == nil) != ok {
			t.Errorf("CheckCode(%q) = %v, want ok %v", code, err, ok)
		}
	}
}

// The cost of the exchange on each side, per join: the node's numbers in
// BENCHMARKS.md come from here.
func BenchmarkPakeJoiner(b *testing.B) {
	h, _ := NewPake(Hosting, "482913", pakeCtx(), fixedSecret("host"))
	for b.Loop() {
		j, _ := NewPake(Joiner, "482913", pakeCtx(), fixedSecret("joiner"))
		if err := j.Meet(h.Share()); err != nil {
			b.Fatal(err)
		}
		_ = j.Confirm()
	}
}

func BenchmarkPakeHost(b *testing.B) {
	j, _ := NewPake(Joiner, "482913", pakeCtx(), fixedSecret("joiner"))
	for b.Loop() {
		h, _ := NewPake(Hosting, "482913", pakeCtx(), fixedSecret("host"))
		if err := h.Meet(j.Share()); err != nil {
			b.Fatal(err)
		}
		_ = h.Check(nil)
		_ = h.Confirm()
	}
}

// The join messages of a 1.x peer, which lack 2.0's required fields (the
// exchange's, a hello's seat where 2.0 has none), are refused, never
// half decoded; the envelope they come in is refused first anyway
// (ErrVersion), and the host answers that.
func TestJoinMessagesFromOlderPeers(t *testing.T) {
	for _, c := range []struct {
		typ  Type
		body []any
		want error
	}{
		{TypeHello, []any{MakeVersion(1, 1), "bob", -1, false, nil}, ErrMissingField},
		{TypeHello, []any{MakeVersion(1, 9), "bob", false, nil, "", make([]byte, 16)}, ErrMissingField},
		{TypeChallenge, []any{[]byte("0123456789abcdef")}, ErrMissingField},
		{TypeSeated, []any{1, "bob", testTable[:]}, ErrMissingField},
	} {
		if m, err := Decode(c.typ, mp(t, c.body)); !errors.Is(err, c.want) {
			t.Errorf("%s %v: decoded %+v, %v; want %v", c.typ, c.body, m, err, c.want)
		}
	}
}
