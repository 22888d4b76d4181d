//go:build linux

package main

// An impostor table (issue 13, attack 6): a second host on the LAN takes
// the name of a private table, to catch the joiners who type it and to
// test the join code offline from what they send. Two impostors: the real
// binary hosting a table of the same name, and this test binary (rogueEnv
// "impostor") answering the game's stream as a table would, to capture
// what a joiner proves and try codes against it.

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/bullshit-game/bullshit/node"
	"github.com/bullshit-game/bullshit/node/gamewire"
	nodelan "github.com/bullshit-game/bullshit/node/lan"
	"github.com/bullshit-game/bullshit/protocol"
)

const impostorCodeEnv = "BS_E2E_CODE" // impostor: the table's true code, hidden in its dictionary

// impostorGuess is the impostor's one online guess, made with the share it
// sends: a code it does not know.
const impostorGuess = "000000"

// dictionary is the codes the impostor tries offline: the thousand that
// share the true code's first three digits, the true one among them.
func dictionary(code string) []string {
	var out []string
	for i := range 1000 {
		out = append(out, fmt.Sprintf("%s%03d", code[:3], i))
	}
	return out
}

// crackPake is every code of codes under which a host whose share was made
// with secret would accept the joiner's share and proof in ctx: what an
// impostor that captured a CPace exchange can test offline.
func crackPake(codes []string, ctx protocol.PakeContext, secret, share, proof []byte) []string {
	var hits []string
	for _, c := range codes {
		px, err := protocol.NewPake(protocol.Hosting, c, ctx, secret)
		if err == nil && px.Meet(share) == nil && px.Check(proof) {
			hits = append(hits, c)
		}
	}
	return hits
}

// crackHMAC is every code of codes whose HMAC over the nonce and the
// joiner's peer ID is proof: protocol 1.1's join proof, which gave the
// code away to whoever asked for it.
func crackHMAC(codes []string, nonce []byte, joiner peer.ID, proof []byte) []string {
	var hits []string
	for _, c := range codes {
		m := hmac.New(sha256.New, []byte(strings.ToUpper(c)))
		m.Write(nonce)
		m.Write([]byte(joiner))
		if hmac.Equal(m.Sum(nil), proof) {
			hits = append(hits, c)
		}
	}
	return hits
}

// runImpostor answers joiners as a private table would, without the code:
// the first with a challenge of protocol 1.1 (a nonce, no share: its
// joiners answered with a proof keyed with the code), every later one with
// a CPace challenge made with a guess. It tries each proof it gets against
// its dictionary and says what it found, then seats the joiner with a
// proof it can't make.
func runImpostor(say func(string, map[string]any)) error {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	codes := dictionary(os.Getenv(impostorCodeEnv))
	// The tester first finds a code where there is one to find: an
	// exchange whose both sides knew the code.
	start := time.Now()
	hits, err := pakeControl(codes, os.Getenv(impostorCodeEnv))
	if err != nil {
		return err
	}
	say("control", map[string]any{"hits": hits, "tried": len(codes), "ms": time.Since(start).Milliseconds()})

	_, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return err
	}
	hk, err := crypto.UnmarshalEd25519PrivateKey(key)
	if err != nil {
		return err
	}
	ifcs, err := nodelan.LAN("")
	if err != nil {
		return err
	}
	h, err := node.NewHost(ctx, node.HostConfig{Key: hk, Ifaces: ifcs[:1]})
	if err != nil {
		return err
	}
	defer h.Close()
	var tid protocol.TableID
	rand.Read(tid[:])
	var n atomic.Int64
	var seq atomic.Uint64
	seal := func(m protocol.Message) ([]byte, error) { return protocol.Seal(key, tid, 1, seq.Add(1), m) }
	h.SetStreamHandler(node.ProtocolID, func(st network.Stream) {
		defer st.Reset()
		kind := "cpace"
		if n.Add(1) == 1 {
			kind = "downgrade"
		}
		say("exchange", impostorExchange(st, kind, seal, tid, codes))
	})
	say("listening", map[string]any{"addrs": nodelan.JoinAddrs(h)})
	<-ctx.Done()
	return nil
}

// pakeControl runs an exchange in which both sides use code and tries
// codes against it as crackPake does.
func pakeControl(codes []string, code string) ([]string, error) {
	pc := protocol.PakeContext{Joiner: "joiner", Host: "host", JoinerNonce: make([]byte, protocol.NonceSize), HostNonce: make([]byte, protocol.NonceSize)}
	rand.Read(pc.JoinerNonce)
	rand.Read(pc.HostNonce)
	sj, sh := make([]byte, protocol.SecretSize), make([]byte, protocol.SecretSize)
	rand.Read(sj)
	rand.Read(sh)
	j, err := protocol.NewPake(protocol.Joiner, code, pc, sj)
	if err != nil {
		return nil, err
	}
	hp, err := protocol.NewPake(protocol.Hosting, code, pc, sh)
	if err != nil {
		return nil, err
	}
	if err := j.Meet(hp.Share()); err != nil {
		return nil, err
	}
	return crackPake(codes, pc, sh, j.Share(), j.Confirm()), nil
}

// impostorExchange is one joiner's exchange with the impostor, and what
// the impostor learnt from it.
func impostorExchange(st network.Stream, kind string, seal func(protocol.Message) ([]byte, error), tid protocol.TableID, codes []string) map[string]any {
	out := map[string]any{"kind": kind}
	joiner := st.Conn().RemotePeer()
	br, w := bufio.NewReader(st), bufio.NewWriter(st)
	read := func() (protocol.Hello, bool) {
		st.SetReadDeadline(time.Now().Add(5 * time.Second))
		for {
			b, err := gamewire.ReadFrame(br)
			if err != nil {
				return protocol.Hello{}, false
			}
			if env, err := protocol.Open(b, protocol.PeerID(joiner)); err == nil {
				if m, ok := env.Msg.(protocol.Hello); ok {
					return m, true
				}
			}
		}
	}
	send := func(m protocol.Message) error {
		b, err := seal(m)
		if err == nil {
			gamewire.WriteFrame(w, b)
			err = w.Flush()
		}
		return err
	}
	first, ok := read()
	if !ok {
		out["error"] = "no hello"
		return out
	}
	nonce := make([]byte, protocol.NonceSize)
	rand.Read(nonce)
	secret := make([]byte, protocol.SecretSize)
	rand.Read(secret)
	pc := protocol.PakeContext{Joiner: string(joiner), Host: string(st.Conn().LocalPeer()), Table: tid, JoinerNonce: first.Nonce, HostNonce: nonce}
	ch := protocol.Challenge{Nonce: nonce}
	if kind == "cpace" {
		px, err := protocol.NewPake(protocol.Hosting, impostorGuess, pc, secret)
		if err != nil {
			out["error"] = err.Error()
			return out
		}
		ch.Share = px.Share()
	}
	if err := send(ch); err != nil {
		out["error"] = err.Error()
		return out
	}
	second, ok := read()
	out["proof"] = ok && len(second.Proof) > 0
	if !ok || len(second.Proof) == 0 {
		return out // the joiner gave nothing to test
	}
	start := time.Now()
	var hits []string
	if kind == "cpace" {
		hits = crackPake(codes, pc, secret, second.Share, second.Proof)
	} else {
		hits = crackHMAC(codes, nonce, joiner, second.Proof)
	}
	out["hits"], out["tried"], out["ms"] = hits, len(codes), time.Since(start).Milliseconds()
	// Seated all the same, with a proof the impostor can't make.
	bogus := make([]byte, 64)
	rand.Read(bogus)
	send(protocol.Seated{Seat: 1, Nick: second.Nick, Table: tid, Proof: bogus})
	time.Sleep(time.Second) // for the joiner to hang up on it
	return out
}

// joinRun is one run of `bullshit join` to its end.
type joinRun struct {
	p      *proc
	err    error
	stderr string
}

func runJoinCmd(t *testing.T, l *lan, i int, name string, args ...string) joinRun {
	t.Helper()
	p := l.start(i, name, args...)
	if !p.waitEnd(60 * time.Second) {
		p.signal(syscall.SIGKILL)
		t.Fatalf("%s did not end", name)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return joinRun{p: p, err: p.err, stderr: p.stderr.String()}
}

// TestE2EImpostorTable: a private table and an impostor of the same name,
// each the real binary in a namespace of its own. `join --table NAME`
// refuses to guess between them, each time, and says how to name one;
// NAME@WORDS with the impostor's words gets a seat the joiner refuses (the
// impostor can't prove the code); with the table's words the game is
// played to a verified end. A third impostor, this test binary, captures
// the exchange a joiner makes with it: asked the 1.1 way, the joiner gives
// no proof at all; asked the CPace way, its proof tests true for no code
// of a dictionary that holds the real one (the same tester finds the code
// in an exchange made with it).
func TestE2EImpostorTable(t *testing.T) {
	t.Parallel()
	const code = "482913"
	l := newLAN(t, 4, false)
	dir := t.TempDir()
	name := "kitchen-" + l.prefix[len(l.prefix)-5:]
	host := l.start(1, "host", hostArgs(filepath.Join(dir, "host"), name, 1, 1, "--code", code)...)
	fake := l.start(2, "impostor", hostArgs(filepath.Join(dir, "impostor"), name, 1, 1)...)
	words := host.waitFor(20*time.Second, "the table line", isType("table")).str("words")
	fakeWords := fake.waitFor(20*time.Second, "the impostor's table line", isType("table")).str("words")
	if words == "" || words == fakeWords {
		t.Fatalf("the host's words %q, the impostor's %q", words, fakeWords)
	}
	rogue := l.startRogue(4, "rogue-impostor", rogueEnv+"=impostor", impostorCodeEnv+"="+code)
	listening := rogue.waitFor(60*time.Second, "the rogue impostor's address", isType("listening"))
	joinDir := filepath.Join(dir, "joiner")
	join := func(n int, more ...string) joinRun {
		args := []string{"join", "--headless", "--json", "--config", joinDir, "--pace", "fast", "--wait", "20s", "--code", code}
		return runJoinCmd(t, l, 3, fmt.Sprintf("join%d", n), append(args, more...)...)
	}

	// By name alone: never a guess, whatever the order the two are heard.
	for n := range 3 {
		r := join(n, "--table", name)
		if r.err == nil {
			t.Fatalf("join --table %s with two tables of the name joined one", name)
		}
		if _, ok := r.p.find(isType("seated")); ok {
			t.Errorf("join --table %s took a seat at one of two tables of the name", name)
		}
		want := []string{"two tables are called " + name, words, fakeWords, "join with --table " + name + "@"}
		for _, w := range want {
			if !strings.Contains(r.stderr, w) {
				t.Errorf("join --table %s said %q, without %q", name, strings.TrimSpace(r.stderr), w)
				break
			}
		}
	}

	// The impostor's words: it seats the joiner, which won't stay at a
	// table that can't prove the code.
	r := join(3, "--table", name+"@"+fakeWords)
	if r.err == nil || !strings.Contains(r.stderr, node.ErrImpostor.Error()) {
		t.Errorf("join --table %s@%s (the impostor): %v, %q; want %q", name, fakeWords, r.err, strings.TrimSpace(r.stderr), node.ErrImpostor)
	}

	// The capturing impostor, by address: first the 1.1 way, then CPace.
	addrs, _ := listening.v["addrs"].([]any)
	if len(addrs) == 0 {
		t.Fatalf("the rogue impostor listens nowhere: %s", listening.raw)
	}
	at := addrs[0].(string)
	for n, want := range []error{node.ErrOldHost, node.ErrImpostor} {
		r := join(4+n, at)
		if r.err == nil || !strings.Contains(r.stderr, want.Error()) {
			t.Errorf("join %s (the rogue impostor, exchange %d): %v, %q; want %q", at, n+1, r.err, strings.TrimSpace(r.stderr), want)
		}
	}
	control := rogue.waitFor(10*time.Second, "the tester's control", isType("control"))
	if hits, _ := control.v["hits"].([]any); len(hits) != 1 || hits[0] != code {
		t.Fatalf("the offline tester, on an exchange made with the code, found %v: it can't tell a code", control.v["hits"])
	}
	for _, kind := range []string{"downgrade", "cpace"} {
		x := rogue.waitFor(10*time.Second, "the "+kind+" exchange", func(o outLine) bool { return o.typ() == "exchange" && o.str("kind") == kind })
		if e := x.str("error"); e != "" {
			t.Errorf("%s exchange: %s", kind, e)
		}
		hits, _ := x.v["hits"].([]any)
		switch proof, _ := x.v["proof"].(bool); {
		case kind == "downgrade" && proof:
			t.Errorf("asked the 1.1 way, the joiner sent a proof; the impostor found %v among %d codes", hits, x.num("tried"))
		case kind == "cpace" && !proof:
			t.Errorf("the CPace exchange captured no proof: nothing was tested")
		case len(hits) > 0:
			t.Errorf("%s: the impostor found the code offline from one exchange: %v", kind, hits)
		case kind == "cpace":
			t.Logf("FIGURE a captured CPace proof against %d codes, the real one among them: no code tests true (%d ms; the tester finds the code of an exchange made with it in %d ms)",
				x.num("tried"), x.num("ms"), control.num("ms"))
		}
	}

	// The table's own words: seated, and the game played to its end.
	player := l.start(3, "player", "join", "--headless", "--json", "--config", joinDir, "--pace", "fast", "--wait", "20s",
		"--code", code, "--table", name+"@"+words)
	finishGame(t, 3, 1, []*proc{host, player}, 2*time.Minute)
}
