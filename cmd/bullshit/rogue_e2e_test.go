//go:build linux

package main

// A rogue peer (node/rogue): a program that takes a seat like anyone (its
// own key, the game's stream protocol) and plays it, badly but legally, so
// the game goes on, and then does everything a player must not: forged
// signatures, a sender that isn't itself, replays of its own envelopes,
// stale and future terms, another table's ID, moves for another seat,
// calls on plays long settled, garbage, bodies that don't decode, messages
// only a host sends, a frame over the size limit, and a flood of all of it
// at 10,000 messages a second. It counts the host's refusals by kind. It
// is this test binary again (TestMain runs it when BS_E2E_ROGUE is set),
// started inside a namespace with ip netns exec; `bullshit bench` floods a
// host on loopback with the same rogue (node/flood).
//
// TestE2ERogue plays a game with the attacks; it wants every bad message
// refused with the right reason, the game to end and verify for every honest
// seat, and every honest player's move answered. It passes or fails on none
// of its timings, which depend on the machine's load: the honest players'
// latency, calm and under the flood, is a figure it logs (t.Logf), as
// `bullshit bench` and BENCHMARKS.md report it.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node"
	nodelan "github.com/bullshit-game/bullshit/node/lan"
	roguepeer "github.com/bullshit-game/bullshit/node/rogue"
	"github.com/bullshit-game/bullshit/protocol"
)

const (
	rogueEnv      = "BS_E2E_ROGUE"       // "calm" or "attack": run the rogue, not the tests
	rogueAddrEnv  = "BS_E2E_ROGUE_ADDR"  // the host's join address
	rogueFloodEnv = "BS_E2E_ROGUE_FLOOD" // how long the flood lasts in all (default 6s, in bursts of 1s; it stops at the end of the game)
	rogueRateEnv  = "BS_E2E_ROGUE_RATE"  // messages a second in the flood (default 10000)
)

// rogue is the rogue peer (node/rogue) as these tests script it: seated
// over libp2p here, over a phone's channel in webrogue_e2e_test.go.
type rogue struct {
	*roguepeer.Rogue
	h    host.Host
	host peer.AddrInfo
	say  func(typ string, kv map[string]any)
}

func rogueMain(mode string) int {
	var mu sync.Mutex
	enc := json.NewEncoder(os.Stdout)
	say := func(typ string, kv map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		if kv == nil {
			kv = map[string]any{}
		}
		kv["type"] = typ
		enc.Encode(kv)
	}
	run := func() error { return runRogue(mode, say) }
	switch mode {
	case "web":
		run = func() error { return runWebRogue(say) }
	case "history", "shares", "late", "withhold", "stranger":
		run = func() error { return runLiar(mode, say) }
	case "impostor":
		run = func() error { return runImpostor(say) }
	case "lockout":
		run = func() error { return runLockout(say) }
	case "first-state":
		run = func() error { return runFirstState(say) }
	case "table-id":
		run = func() error { return runTableID(say) }
	case "rebind":
		run = func() error { return runRebind(say) }
	case "names":
		run = func() error { return runNames(say) }
	case "doorflood":
		run = func() error { return runDoorFlood(say) }
	case "phone":
		run = func() error { return runPhone(say) }
	case "codeflood":
		run = func() error { return runCodeFlood(say) }
	}
	if err := run(); err != nil {
		say("error", map[string]any{"text": err.Error()})
		return 1
	}
	return 0
}

// strangerTargets are what a flooding rogue is handed: the host it aims
// at ($BS_E2E_ROGUE_ADDR's) and the addresses it floods from, in $fromEnv.
func strangerTargets(fromEnv string) (peer.AddrInfo, []net.IP, error) {
	at, err := nodelan.ParseAddr(os.Getenv(rogueAddrEnv))
	if err != nil {
		return peer.AddrInfo{}, nil, err
	}
	from, err := addrsFromEnv(fromEnv)
	return at, from, err
}

func runRogue(mode string, say func(string, map[string]any)) error {
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	info, err := nodelan.ParseAddr(os.Getenv(rogueAddrEnv))
	if err != nil {
		return err
	}
	p, err := roguepeer.New(say)
	if err != nil {
		return err
	}
	r := &rogue{Rogue: p, host: info, say: say}
	hostKey, err := r.HostKey()
	if err != nil {
		return err
	}
	ifcs, err := nodelan.LAN("")
	if err != nil {
		return err
	}
	if r.h, err = node.NewHost(ctx, node.HostConfig{Key: hostKey, Ifaces: ifcs[:1]}); err != nil {
		return err
	}
	defer r.h.Close()
	if err := r.connect(ctx); err != nil {
		return fmt.Errorf("joining: %w", err)
	}
	_, seat, _ := r.Seated()
	say("seated", map[string]any{"seat": seat})
	go r.Play(ctx)
	go roguepeer.Heartbeats(ctx, r.Send)

	if mode == "attack" {
		if err := r.attack(ctx); err != nil {
			return err
		}
	}
	over, err := r.untilOver(ctx, func() error {
		time.Sleep(200 * time.Millisecond)
		return r.connect(ctx)
	})
	if err != nil {
		return err
	}
	disorder, examples := r.Disorder()
	say("over", map[string]any{"places": over.Places, "hands": handNames(over.Hands), "pile": cardNames(over.Cards),
		"out_of_order": disorder, "out_of_order_examples": examples})
	time.Sleep(500 * time.Millisecond)
	return nil
}

// untilOver waits for the game to end and returns its end; when the host
// drops the rogue (after the oversize frame) rejoin takes its seat back.
func (r *rogue) untilOver(ctx context.Context, rejoin func() error) (*protocol.Event, error) {
	for {
		over, lost := r.Over(), r.Lost()
		if over != nil {
			return over, nil
		}
		select {
		case <-ctx.Done():
			return nil, errors.New("the game did not end")
		case <-lost:
			if err := rejoin(); err != nil {
				return nil, fmt.Errorf("rejoining: %w", err)
			}
			_, seat, _ := r.Seated()
			r.say("reconnected", map[string]any{"seat": seat})
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func handNames(hs [][]protocol.Card) [][]string {
	out := [][]string{}
	for _, h := range hs {
		out = append(out, cardNames(h))
	}
	return out
}

func cardNames(cs []protocol.Card) []string {
	out := []string{}
	for _, c := range cs {
		out = append(out, engine.Card(c).String())
	}
	return out
}

// connect takes the rogue's seat (again, after the host hung up). The
// rogue plays its part in the deal's toss by the book (node/rogue): a
// deal without its nonce would fail every honest audit
// (gamewire.MustMix). It answers the toss at once and heartbeats
// (Heartbeats, from runRogue): a peer silent for Timing.DeadAfter (2 s)
// is dropped as dead.
func (r *rogue) connect(ctx context.Context) error {
	return r.Connect(ctx, r.h, r.host, node.ProtocolID, protocol.Hello{Version: protocol.Current, Nick: "rogue", Nonce: make([]byte, protocol.NonceSize)})
}

// going waits for the game to get going: a few plays settled, so that
// there is a late call to make, and an honest move to replay.
func (r *rogue) going(ctx context.Context) error {
	for {
		if v := r.View(); v != nil && v.No >= 3 && r.LastMove() != nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return errors.New("the game never got going")
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// isOver reports whether the game has ended.
func (r *rogue) isOver() bool { return r.Over() != nil }

// answeredAs is the kind an attack's refusal is counted under, where it
// is another's: the host checks the sender before it reads the number, so
// a forgery's refusal names no envelope, and read sorts it by its text.
var answeredAs = map[string]string{"forged-seat": "forged-sender"}

// oneByOne sends three of each kind of attack, one kind at a time, each
// answer awaited, and says how each kind was refused (with info). frame
// makes a kind's frames.
func (r *rogue) oneByOne(kinds []string, frame func(kind string) roguepeer.Maker, info map[string]any) error {
	const each = 3
	for _, kind := range kinds {
		as := kind
		if a, ok := answeredAs[kind]; ok {
			as = a
		}
		before, _ := r.Counts()
		for range each {
			if err := r.Write(kind, frame(kind)); err != nil {
				return fmt.Errorf("%s: %w", kind, err)
			}
			r.WaitAnswer(as, time.Minute)
		}
		after, wrong := r.Counts()
		line := map[string]any{"kind": kind, "sent": each, "refused": after[as] - before[as], "wrong": wrong[as], "over": r.isOver()}
		maps.Copy(line, info)
		r.say("attack", line)
	}
	return nil
}

func (r *rogue) attack(ctx context.Context) error {
	if err := r.going(ctx); err != nil {
		return err
	}
	first := time.Now()
	if err := r.oneByOne(roguepeer.Kinds, r.Frame, map[string]any{"first": first.UnixNano()}); err != nil {
		return err
	}

	// The flood: every kind in turn, in batches every 5 ms, in bursts of a
	// second with a second's calm between them, so that the honest players'
	// moves in the bursts can be held against theirs in the calm, under the
	// same load from everything else on the machine.
	floodFor := 6 * time.Second
	if d, err := time.ParseDuration(os.Getenv(rogueFloodEnv)); err == nil {
		floodFor = d
	}
	rate := 10000
	if n, err := strconv.Atoi(os.Getenv(rogueRateEnv)); err == nil {
		rate = n
	}
	before, _ := r.Counts()
	sent := map[string]int{}
	total := 0
	const tick, burst = 5 * time.Millisecond, time.Second
	perTick := max(1, rate*int(tick/time.Millisecond)/1000)
	cache := map[string][]byte{}
	var bursts [][2]int64
	var spent time.Duration
	var werr error
	for n := 0; spent < floodFor && werr == nil && !r.isOver(); {
		r.say("burst", map[string]any{"on": true})
		start := time.Now()
		next := start
		for time.Since(start) < min(burst, floodFor-spent) && werr == nil && !r.isOver() {
			werr = r.Writes(func(write func(string, roguepeer.Maker) error) error {
				for range perTick {
					kind := roguepeer.Kinds[n%len(roguepeer.Kinds)]
					n++
					if err := write(kind, r.Cached(cache, kind)); err != nil {
						return err
					}
					sent[kind]++
					total++
				}
				return nil
			})
			next = next.Add(tick)
			time.Sleep(time.Until(next))
		}
		end := time.Now()
		r.say("burst", map[string]any{"on": false})
		bursts = append(bursts, [2]int64{start.UnixNano(), end.UnixNano()})
		spent += end.Sub(start)
		if spent >= floodFor || werr != nil || r.isOver() {
			break
		}
		time.Sleep(burst)
	}
	end := time.Unix(0, bursts[len(bursts)-1][1])
	overEarly := r.isOver()
	if werr != nil && !overEarly {
		return fmt.Errorf("flood: %w", werr)
	}
	// Every one of them must be answered, however long the host takes (up to
	// a bound for one that never will), unless the game ends first.
	deadline := time.Now().Add(2 * time.Minute)
	answeredNow := func() int {
		now, _ := r.Counts()
		n := 0
		for _, k := range roguepeer.Kinds {
			n += now[k] - before[k]
		}
		return n
	}
	answered := answeredNow()
	for answered < total && time.Now().Before(deadline) && !r.isOver() {
		time.Sleep(50 * time.Millisecond)
		answered = answeredNow()
	}
	overEarly = overEarly || answered < total && r.isOver()
	drained := r.AnsweredAt()
	after, wrong := r.Counts()
	refused := map[string]int{}
	for _, k := range roguepeer.Kinds {
		refused[k] = after[k] - before[k]
	}
	r.say("flood", map[string]any{"bursts": bursts, "seconds": spent.Seconds(), "sent": total,
		"rate": float64(total) / spent.Seconds(), "by_kind": sent, "refused": refused, "over_early": overEarly,
		"answered": answered, "drained_ms": drained.Sub(end).Milliseconds(), "wrong": wrong})
	if r.isOver() {
		return nil
	}

	// Last, a frame over the size limit: refused, and the host hangs up.
	werr = r.Oversize()
	got := r.WaitAnswer("oversize", time.Minute)
	after, wrong = r.Counts()
	r.say("attack", map[string]any{"kind": "oversize", "sent": 1, "refused": after["oversize"], "wrong": wrong["oversize"],
		"answered": got, "err": fmt.Sprint(werr)})
	return nil
}

// ---- the test ----

// latSample is one honest move: sent at, answered after.
type latSample struct {
	move    string
	no      int
	sent    time.Time
	took    time.Duration
	refused bool
	reveal  time.Duration // a call's: sent to the reveal's arrival
}

// unanswered is a move that got no answer before its player left: sent
// when the player had seen play seen, in a game that ended at play plays.
type unanswered struct {
	who         string
	move        string
	seen, plays int
}

func readLatency(t *testing.T, path string) ([]latSample, []unanswered) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []latSample
	var un []unanswered
	revealed := map[int]int64{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var v struct {
			Move, Unanswered string
			No, Reveal       int
			Seen, Plays      int
			Sent, Answer     int64
			Refused          bool
		}
		if json.Unmarshal([]byte(line), &v) != nil {
			continue
		}
		if v.Unanswered != "" {
			un = append(un, unanswered{move: v.Unanswered, seen: v.Seen, plays: v.Plays})
			continue
		}
		if v.Reveal > 0 {
			revealed[v.Reveal] = v.Answer
			continue
		}
		out = append(out, latSample{move: v.Move, no: v.No, sent: time.Unix(0, v.Sent), took: time.Duration(v.Answer - v.Sent), refused: v.Refused})
	}
	for i, l := range out {
		if at, ok := revealed[l.no]; ok && l.move == "call" && !l.refused {
			out[i].reveal = time.Duration(at - l.sent.UnixNano())
		}
	}
	return out, un
}

// rogueRun is one game of the rogue test.
type rogueRun struct {
	lat        []latSample
	unanswered []unanswered
	attacked   time.Time // when the first attack went out
	rogue      *proc
	flood      outLine
	game       []seatGame
}

func rogueGame(t *testing.T, l *lan, dir, mode string, honest int) rogueRun {
	t.Helper()
	name := mode + "-" + l.prefix
	journal := filepath.Join(dir, mode+"-journal")
	// The turn clock is a backstop: should the rogue miss its turn, the
	// fallback move plays it and the game still ends.
	// The rogue plays a clear table's seat (node/rogue): dealt in the
	// clear, as for a node of an older version.
	host := l.start(1, mode+"-host", hostArgs(filepath.Join(dir, "host"), name, honest+1, 0,
		"--turn-clock", "5s", "--journal", journal, "--blind=false")...)
	table := host.waitFor(20*time.Second, "the table line", isType("table"))
	var players []*proc
	for i := 2; i <= honest+1; i++ {
		players = append(players, l.start(i, fmt.Sprintf("%s-join%d", mode, i), joinArgs(filepath.Join(dir, strconv.Itoa(i)), name,
			"--latency", filepath.Join(dir, fmt.Sprintf("%s-latency%d", mode, i)),
			"--capture", filepath.Join(dir, fmt.Sprintf("%s-capture%d", mode, i)))...))
	}
	rg := l.startRogue(honest+2, mode+"-rogue", rogueEnv+"="+mode, rogueAddrEnv+"="+hostAddr(t, table))
	run := rogueRun{rogue: rg}
	// The CPU each program burns during the bursts of the flood: the
	// host's is the figure; the rogue's and the players' say what was left.
	cpu := make(chan string, 1)
	go func() {
		progs := append([]*proc{host, rg}, players...)
		used := make([]time.Duration, len(progs))
		var wall time.Duration
		for i := 0; ; {
			l, j, err := rg.awaitFrom(i, 3*time.Minute, func(l outLine) bool { return l.typ() == "burst" || l.typ() == "flood" })
			if err != nil || l.typ() == "flood" {
				break
			}
			t0, before := time.Now(), cpuTimes(progs)
			_, i, err = rg.awaitFrom(j+1, time.Minute, isType("burst"))
			if err != nil {
				break
			}
			wall += time.Since(t0)
			for k, c := range cpuTimes(progs) {
				used[k] += c - before[k]
			}
			i++
		}
		var b strings.Builder
		for k, p := range progs {
			fmt.Fprintf(&b, " %s %.0f%%", p.name, 100*used[k].Seconds()/max(wall.Seconds(), 0.001))
		}
		cpu <- b.String()
	}()
	seats := honest + 2
	decks := 1
	if seats >= 7 {
		decks = 2
	}
	run.game = finishGame(t, seats, decks, append([]*proc{host}, players...), 2*time.Minute)
	over := rg.waitFor(30*time.Second, "the rogue to see the end", isType("over"))
	var o overEvent
	json.Unmarshal([]byte(over.raw), &o)
	if len(run.game) > 0 && !slices.Equal(o.Places, run.game[0].res.Places) {
		t.Errorf("the rogue saw places %v, the host %v", o.Places, run.game[0].res.Places)
	}
	for _, l := range rg.snapshot() {
		if l.typ() == "error" {
			t.Errorf("rogue: %s", l.str("text"))
		}
	}
	// Its own refusals race the host's updates and heartbeats to it: a
	// frame numbered below one already sent is one a player drops.
	if n := over.num("out_of_order"); n != 0 {
		t.Errorf("the host sent the rogue %d frames numbered below one it had already sent, e.g. %v: "+
			"a player drops those as replays (node/server.go srvConn.send numbers a frame before it takes the write lock)",
			n, over.v["out_of_order_examples"])
	}
	for i, p := range players {
		if l, ok := p.find(func(l outLine) bool { return strings.Contains(l.str("text"), "Lost the host") }); ok {
			t.Errorf("%s lost the host during the %s game: %s", p.name, mode, l.raw)
		}
		lat, un := readLatency(t, filepath.Join(dir, fmt.Sprintf("%s-latency%d", mode, i+2)))
		for j := range un {
			un[j].who = p.name
		}
		run.lat, run.unanswered = append(run.lat, lat...), append(run.unanswered, un...)
		checkCapture(t, p.name, filepath.Join(dir, fmt.Sprintf("%s-capture%d", mode, i+2)), hostPeer(t, table), journal)
	}
	run.flood, _ = rg.find(isType("flood"))
	if a, ok := rg.find(isType("attack")); ok {
		run.attacked = time.Unix(0, int64(a.v["first"].(float64)))
	}
	if run.flood.v != nil {
		t.Logf("FIGURE CPU during the flood's bursts (%% of one core):%s", <-cpu)
	}
	t.Logf("FIGURE rogue %s game: deal to result %s", mode, fmtMS(gameLength(host)))
	return run
}

// TestE2ERogue: a player that breaks every rule it can is refused each
// time, for the right reason, and the host still answers everyone else.
func TestE2ERogue(t *testing.T) {
	// Six honest players, the host and the rogue: eight seats, two decks, a
	// game long enough for a few hundred honest moves to time.
	const honest = 6
	l := newLAN(t, honest+2, false)
	run := rogueGame(t, l, t.TempDir(), "attack", honest)

	// Each single attack refused with the right reason.
	for _, line := range run.rogue.snapshot() {
		if line.typ() != "attack" {
			continue
		}
		kind := line.str("kind")
		if line.num("refused") != line.num("sent") || line.v["wrong"] != nil {
			t.Errorf("attack %s: %d sent, %d refused rightly; other answers: %v", kind, line.num("sent"), line.num("refused"), line.v["wrong"])
		}
		t.Logf("FIGURE attack %s: sent %d, refused %d", kind, line.num("sent"), line.num("refused"))
	}
	f := run.flood
	if f.v == nil {
		t.Fatal("the rogue never flooded")
	}
	sent, answered := f.num("sent"), f.num("answered")
	if wrong, _ := f.v["wrong"].(map[string]any); len(wrong) > 0 {
		t.Errorf("flood: refused for the wrong reason: %v", wrong)
	}
	switch over, _ := f.v["over_early"].(bool); {
	case !over && answered != sent:
		t.Errorf("flood: %d sent, %d refused", sent, answered)
	case over:
		t.Logf("the game ended during the flood: %d of %d answered before the host left", answered, sent)
	}
	var bursts [][2]time.Time
	for _, b := range f.v["bursts"].([]any) {
		b := b.([]any)
		bursts = append(bursts, [2]time.Time{time.Unix(0, int64(b[0].(float64))), time.Unix(0, int64(b[1].(float64)))})
	}
	t.Logf("FIGURE flood: %d messages in %d bursts over %.1f s (%.0f/s offered 10000/s), the last refused %d ms after the last burst; by kind %v",
		sent, len(bursts), f.v["seconds"], f.v["rate"], f.num("drained_ms"), f.v["refused"])

	// Every honest move answered, whatever the load. A move sent on the
	// game's last play may be answered ("The game is over.") after its
	// player has left; one sent earlier may not.
	for _, u := range run.unanswered {
		if u.seen < u.plays {
			t.Errorf("%s: its %s sent at play %d got no answer by the end of the game at play %d", u.who, u.move, u.seen, u.plays)
		} else {
			t.Logf("%s: its %s on the last play, %d, was not answered before it left", u.who, u.move, u.plays)
		}
	}

	// Honest players' moves to the host's answer, in the calm and in the
	// bursts of the same game: figures, not a pass or a fail (a busy
	// machine once took 103 ms at p99 under the flood, 16 ms calm).
	calm, flood := split(run.lat, run.attacked, bursts, 300*time.Millisecond)
	t.Logf("FIGURE honest move to the host's answer, calm: %s", spread(calm))
	t.Logf("FIGURE honest move to the host's answer, flood: %s", spread(flood))
	if calls := callReveals(run.lat); len(calls) > 0 {
		t.Logf("FIGURE honest calls, sent to reveal: %v", calls)
	}
}

// split sorts the honest moves: sent during a burst of the flood, or in the
// calm: before the first attack, or once the host has answered a burst
// (drain after it) and before the next. Moves in between are neither.
func split(ls []latSample, attacked time.Time, bursts [][2]time.Time, drain time.Duration) (calm, flood []time.Duration) {
	for _, l := range ls {
		in, near := false, false
		for _, b := range bursts {
			in = in || !l.sent.Before(b[0]) && !l.sent.After(b[1])
			near = near || l.sent.After(b[1]) && l.sent.Before(b[1].Add(drain))
		}
		switch {
		case in:
			flood = append(flood, l.took)
		case l.sent.Before(attacked) || len(bursts) > 0 && l.sent.After(bursts[0][0]) && !near:
			calm = append(calm, l.took)
		}
	}
	sort.Slice(calm, func(i, j int) bool { return calm[i] < calm[j] })
	sort.Slice(flood, func(i, j int) bool { return flood[i] < flood[j] })
	return calm, flood
}

// cpuTimes is each program's CPU time so far (user and system), from
// /proc; zero for a program that has ended.
func cpuTimes(ps []*proc) []time.Duration {
	out := make([]time.Duration, len(ps))
	for i, p := range ps {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.cmd.Process.Pid))
		if err != nil {
			continue
		}
		// The fields after the command name (which is in parentheses):
		// utime and stime are the 12th and 13th, in clock ticks (100 Hz).
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(f) > 12 {
			u, _ := strconv.ParseInt(f[11], 10, 64)
			s, _ := strconv.ParseInt(f[12], 10, 64)
			out[i] = time.Duration(u+s) * 10 * time.Millisecond
		}
	}
	return out
}

func spread(ds []time.Duration) string {
	return fmt.Sprintf("p50 %s, p90 %s, p99 %s, max %s (%d moves)", fmtMS(percentile(ds, 0.5)), fmtMS(percentile(ds, 0.9)),
		fmtMS(percentile(ds, 0.99)), fmtMS(percentile(ds, 1)), len(ds))
}

func callReveals(ls []latSample) []string {
	var out []string
	for _, l := range ls {
		if l.move == "call" && l.reveal > 0 {
			out = append(out, fmtMS(l.reveal))
		}
	}
	return out
}
