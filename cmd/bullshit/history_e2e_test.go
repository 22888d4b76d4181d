//go:build linux

package main

// Issue 13's insiders, against the real binary in namespaces: a player who
// rewrites history at a failover (attacks 1 and 2), and one person with two
// seats pooling their shares at the deal (attack 3). The liar is
// liar_e2e_test.go's.

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/journal"
	"github.com/bullshit-game/bullshit/node/shamir"
	"github.com/bullshit-game/bullshit/protocol"
)

// TestE2EForgedHistory: a seated player, never elected (its peer ID sorts
// last), rejoins the next host the moment the host is killed and answers
// its state request with its journal plus a call another player never
// made, in a window where that player could have called. The new host
// refuses the journal (no host signed the call) and says so; the game it
// rebuilds is the honest one, the survivors finish it, and their saved
// games and every audit verify.
func TestE2EForgedHistory(t *testing.T) {
	t.Parallel()
	h := historyGame(t, "call")
	h.refusedFor(t, "no signature vouches for")
	for _, g := range h.saved {
		// The forgery was a move the engine would have taken there:
		// the chain alone stopped it.
		if err := replayWith(g, h.journal, h.forged); err != nil {
			t.Errorf("the forged call would not have replayed after the liar's %d steps (%v): the attack proved nothing",
				h.journal, err)
		}
	}
}

// TestE2EUnreplayableHistory: the same liar, holding the old host's key (a
// stolen identity file), gives the new host a journal the chain vouches
// for whose last steps no engine replays. The new host drops it, says so,
// and rebuilds from another player's: the failover never stalls (no
// player gives hosting up and waits for the dead host), and the game ends
// verified.
func TestE2EUnreplayableHistory(t *testing.T) {
	t.Parallel()
	h := historyGame(t, "unreplayable")
	h.refusedFor(t, "doesn't replay")
	for _, g := range h.saved {
		if err := replayWith(g, h.journal, h.forged); err == nil {
			t.Errorf("the liar's extra steps replay: the test's lie is no lie")
		}
	}
}

// history is what a failover game with a liar left to check.
type history struct {
	newHost *proc
	killed  time.Time
	journal int           // the steps of the liar's journal before its lie
	forged  []engine.Step // its lie
	saved   []journal.SavedGame
}

// refusedFor checks the new host's screen named the liar's journal refused,
// for why.
func (h history) refusedFor(t *testing.T, why string) {
	t.Helper()
	n, err := h.newHost.await(time.Second, notice("Refused Liar's record of the game", h.killed))
	if err != nil {
		t.Errorf("the new host (%s) never said it refused the liar's journal", h.newHost.name)
		return
	}
	if !strings.Contains(n.str("text"), why) {
		t.Errorf("the new host refused the liar's journal, but not because it %s: %q", why, n.str("text"))
	}
	t.Logf("the new host said: %s", n.str("text"))
}

// historyGame plays a table of the host, three players (each saving its
// game) and the liar telling lie, kills the host at the liar's word, and
// checks what every lie must leave true.
func historyGame(t *testing.T, lie string) history {
	const honest = 3
	l := newLAN(t, honest+2, false)
	dir := t.TempDir()
	name := "hist-" + l.prefix
	hostDir := filepath.Join(dir, "host")
	// The journal's chain and the shares are a clear table's: dealt in
	// the clear (a blind table relays no hidden part at a failover).
	host := l.start(1, "host", hostArgs(hostDir, name, honest+1, 0, "--blind=false")...)
	table := host.waitFor(20*time.Second, "the table line", isType("table"))
	// The players' identities are made first, so that the test knows who
	// is first in line: that one will host (and a host saves no game of
	// its own seat); the others save theirs. The seat whose call is
	// forged is the next in line; for the forged call it thinks at the
	// bots' usual pace (450 ms at least before it lets a play go), so
	// that the host is dead before it moves. The others are quick. The
	// liar's peer ID sorts after them all.
	order := make([]int, honest)
	ids := map[int]string{}
	for i := range order {
		order[i] = i + 2
		prof, err := node.LoadProfile(filepath.Join(dir, strconv.Itoa(i+2)))
		if err != nil {
			t.Fatal(err)
		}
		id, err := peer.IDFromPrivateKey(prof.Key)
		if err != nil {
			t.Fatal(err)
		}
		ids[i+2] = string(id)
	}
	sort.Slice(order, func(a, b int) bool { return ids[order[a]] < ids[order[b]] })
	var players []*proc
	var forger *proc
	for i := 2; i <= honest+1; i++ {
		args := []string{"--pace", "fast"}
		switch i {
		case order[0]:
		case order[1]:
			if lie == "call" {
				args[1] = "brisk"
			}
			args = append(args, "--save", filepath.Join(dir, "saved", strconv.Itoa(i)))
		default:
			args = append(args, "--save", filepath.Join(dir, "saved", strconv.Itoa(i)))
		}
		p := l.start(i, fmt.Sprintf("join%d", i), joinArgs(filepath.Join(dir, strconv.Itoa(i)), name, args...)...)
		if i == order[1] {
			forger = p
		}
		players = append(players, p)
	}
	for _, p := range players {
		seatOf(t, p)
	}
	forge := seatOf(t, forger)
	liar := l.startRogue(honest+2, "liar", rogueEnv+"=history", rogueAddrEnv+"="+hostAddr(t, table), lieEnv+"="+lie,
		lieSeatEnv+"="+strconv.Itoa(forge), lieKeyEnv+"="+hostDir, lieNickEnv+"=Liar", lieAfterEnv+"="+hex.EncodeToString([]byte(ids[order[honest-1]])))
	liar.waitFor(60*time.Second, "the liar's seat", isType("seated"))
	w := liar.waitFor(90*time.Second, "a window to lie in", isType("window"))
	host.kill()
	h := history{killed: time.Now()}
	t.Logf("killed the host %s after the liar saw play %d open", fmtMS(h.killed.Sub(w.at)), w.num("no"))

	f := liar.waitFor(30*time.Second, "the liar's forgery", isType("forged"))
	var fl struct {
		Journal  int
		Callable bool
		Steps    []struct {
			At         int64
			Tick       bool
			Move, Term int
			Seat, No   int
		}
	}
	json.Unmarshal([]byte(f.raw), &fl)
	h.journal = fl.Journal
	for _, s := range fl.Steps {
		h.forged = append(h.forged, gamewire.EngSteps([]protocol.Step{{AtNS: s.At, Tick: s.Tick, Move: uint8(s.Move), Seat: s.Seat,
			Rank: protocol.NoRank, No: s.No, Term: uint64(s.Term)}})...)
	}
	if lie == "call" && !fl.Callable {
		t.Logf("seat %d had moved before the host died: the forged call is on a window it had left", forge)
	}

	awaitEnd(t, players, h.killed, 2*time.Minute)
	games := finishGame(t, honest+2, 1, players, 10*time.Second)
	over := liar.waitFor(30*time.Second, "the liar to see the end", isType("over"))
	var o overEvent
	json.Unmarshal([]byte(over.raw), &o)
	if len(games) > 0 && !slices.Equal(o.Places, games[0].res.Places) {
		t.Errorf("the liar saw places %v, the players %v", o.Places, games[0].res.Places)
	}
	for _, ln := range liar.snapshot() {
		if ln.typ() == "error" {
			t.Errorf("liar: %s", ln.str("text"))
		}
	}
	if _, err := liar.await(time.Second, isType("state")); err != nil {
		t.Fatal("the new host never asked the liar for its journal: the lie was never told")
	}
	for _, p := range players {
		took, err := p.await(time.Second, notice("you are hosting now", h.killed))
		if err != nil {
			continue
		}
		// Two that took over the same term at once (on a busy machine
		// one can miss the other's answer twice) heal: the one later in
		// line yields and joins the other (node/newhost.go). The new host
		// is the one that didn't.
		if y, err := p.await(time.Second, notice("is ahead in line: joining them", took.at)); err == nil {
			t.Logf("%s took over and yielded: %s", p.name, y.str("text"))
			continue
		}
		if h.newHost != nil {
			t.Errorf("%s and %s both took over hosting, and neither yielded", h.newHost.name, p.name)
		}
		h.newHost = p
	}
	if h.newHost == nil {
		t.Fatal("no player took over hosting")
	}
	if want := players[order[0]-2]; h.newHost != want {
		t.Logf("%s took over hosting, not %s, the first in line", h.newHost.name, want.name)
	}

	// The survivors' saved games: each verifies, and none holds the lie.
	for i, p := range players {
		if p == h.newHost {
			continue // a host keeps no saved game of its own seat
		}
		files, _ := filepath.Glob(filepath.Join(dir, "saved", strconv.Itoa(i+2), "game-*.json"))
		if len(files) != 1 {
			t.Errorf("%s saved %d games, want 1", p.name, len(files))
			continue
		}
		out, err := exec.Command(bullshitBin(t), "verify", files[0]).CombinedOutput()
		if err != nil || !strings.HasPrefix(string(out), "verified: ") {
			t.Errorf("bullshit verify %s's game: %v\n%s", p.name, err, out)
		}
		g, err := journal.LoadGame(files[0])
		if err != nil {
			t.Fatal(err)
		}
		for j, st := range g.Steps {
			for _, f := range h.forged {
				if f.Cmd != nil && st.At == f.At && st.Cmd != nil && st.Cmd.Move == f.Cmd.Move && st.Cmd.Seat == f.Cmd.Seat && st.Cmd.No == f.Cmd.No {
					t.Errorf("%s's saved game has the liar's step as its step %d: %+v", p.name, j, *st.Cmd)
				}
			}
		}
		if len(g.Steps) <= h.journal {
			t.Errorf("%s's saved game has %d steps, no more than the liar's %d at the kill", p.name, len(g.Steps), h.journal)
		}
		h.saved = append(h.saved, g)
	}
	if len(h.saved) == 0 {
		t.Fatal("no saved game to check")
	}
	took := time.Duration(0)
	if n, err := h.newHost.await(time.Second, notice("you are hosting now", h.killed)); err == nil {
		took = n.at.Sub(h.killed)
	}
	t.Logf("FIGURE failover with a liar (%s): a new host %s after the kill", lie, fmtMS(took))
	return h
}

// awaitEnd waits for every player's result, and fails at once should one
// give hosting up for want of the others ("No other player came back"): a
// failover that stalls alternates that with "you are hosting now" for
// ever.
func awaitEnd(t *testing.T, ps []*proc, after time.Time, wait time.Duration) {
	t.Helper()
	for end := time.Now().Add(wait); ; {
		done := 0
		for _, p := range ps {
			if n, ok := p.find(notice("No other player came back", after)); ok {
				var said []string
				for _, ln := range p.snapshot() {
					if ln.typ() == "notice" && ln.at.After(after) {
						said = append(said, ln.str("text"))
					}
				}
				t.Fatalf("the failover stalled: %s gave hosting up %s after the kill; it said %q",
					p.name, fmtMS(n.at.Sub(after)), said)
			}
			if _, ok := p.find(isType("result")); ok {
				done++
			}
		}
		if done == len(ps) {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("%d of %d players finished within %v of the kill", done, len(ps), wait)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// replayWith replays g's first n steps and then extra, as the engine would
// have at the new host.
func replayWith(g journal.SavedGame, n int, extra []engine.Step) error {
	if n > len(g.Steps) {
		return fmt.Errorf("the saved game has %d steps, fewer than %d", len(g.Steps), n)
	}
	cfg := g.Config
	cfg.Seed = gamewire.DealSeed(g.Config.Seed, g.Salt, g.Toss.Nonces)
	_, _, err := engine.Replay(cfg, append(slices.Clone(g.Steps[:n]), extra...))
	return err
}

// TestE2ETwoSeatsReadNoHands: one person with two seats (two identities on
// one laptop) at a table of the host and two other players keeps every
// share its seats are sent. Pooled, they rebuild neither the deal's seed
// nor any face-down play: the threshold is every player node but the
// host's, four here, and they hold two. Taking the two for a threshold of
// two (what the seats got before) gives a seed the commitment refuses.
// The game ends verified for everyone else.
func TestE2ETwoSeatsReadNoHands(t *testing.T) {
	t.Parallel()
	l := newLAN(t, 4, false)
	dir := t.TempDir()
	name := "pool-" + l.prefix
	host, table := l.startHost(dir, name, 4, 0, "--blind=false") // the shares are a clear table's
	var players []*proc
	for i := 2; i <= 3; i++ {
		players = append(players, l.start(i, fmt.Sprintf("join%d", i), joinArgs(filepath.Join(dir, strconv.Itoa(i)), name)...))
	}
	var liars []*proc
	for i := 1; i <= 2; i++ {
		liars = append(liars, l.startRogue(4, fmt.Sprintf("seat%d", i), rogueEnv+"=shares", rogueAddrEnv+"="+hostAddr(t, table),
			lieNickEnv+"=Two"+strconv.Itoa(i)))
	}
	finishGame(t, 5, 1, append([]*proc{host}, players...), 2*time.Minute)

	type held struct {
		X, K   uint8
		Y      string
		share  shamir.Share
		forced shamir.Share // the same point, taken for a threshold of two
	}
	var seed [2]held
	steps := map[string][2]held{}
	var commit [32]byte
	var trueSeed uint64
	var cards map[string]string
	for i, lp := range liars {
		o := lp.waitFor(30*time.Second, "the seat's shares", isType("over"))
		var v struct {
			Commit, Seed string
			Shares       map[string]held
			Cards        map[string]string
		}
		if err := json.Unmarshal([]byte(o.raw), &v); err != nil {
			t.Fatal(err)
		}
		hex.Decode(commit[:], []byte(v.Commit))
		s, err := strconv.ParseUint(v.Seed, 10, 64)
		if err != nil {
			t.Fatalf("%s never got the host's reveal (%v)", lp.name, err)
		}
		trueSeed = s
		cards = v.Cards
		for k, h := range v.Shares {
			y, _ := hex.DecodeString(h.Y)
			h.share = shamir.Share{X: h.X, K: h.K, Y: y}
			h.forced = shamir.Share{X: h.X, K: 2, Y: y}
			if k == "-1" {
				seed[i] = h
				continue
			}
			pair := steps[k]
			pair[i] = h
			steps[k] = pair
		}
	}
	if seed[0].Y == "" || seed[1].Y == "" {
		t.Fatal("a seat was sent no share of the seed")
	}
	if k := seed[0].K; k <= 2 {
		t.Errorf("the seed's threshold is %d at a table of four player nodes besides the host: two seats hold enough", k)
	}
	got, _, err := shamir.RecoverSeed(commit, seed[0].share, seed[1].share)
	if !errors.Is(err, shamir.ErrTooFewShares) {
		t.Errorf("two seats' shares of the seed: seed %d, %v; want too few shares", got, err)
	}
	// Taken for a threshold of two, the points give a seed that isn't the
	// game's, which the commitment refuses.
	if secret, err := shamir.Combine([]shamir.Share{seed[0].forced, seed[1].forced}); err == nil {
		if binary.LittleEndian.Uint64(secret) == trueSeed {
			t.Errorf("two seats' shares, taken for a threshold of two, give the game's seed %d", trueSeed)
		}
	}
	if _, _, err := shamir.RecoverSeed(commit, seed[0].forced, seed[1].forced); err == nil {
		t.Error("two seats' shares, taken for a threshold of two, give a seed the commitment accepts")
	}
	// Nor any face-down play: too few shares of each; taken for a
	// threshold of two, they give the cards only by chance (a byte in 256).
	pooled, right, opened := 0, 0, 0
	for k, pair := range steps {
		if pair[0].Y == "" || pair[1].Y == "" {
			continue
		}
		pooled++
		if b, err := shamir.Combine([]shamir.Share{pair[0].share, pair[1].share}); !errors.Is(err, shamir.ErrTooFewShares) {
			if opened++; opened == 1 {
				t.Errorf("step %s: two seats' shares gave %x, %v; want too few shares", k, b, err)
			}
		}
		if b, err := shamir.Combine([]shamir.Share{pair[0].forced, pair[1].forced}); err == nil && hex.EncodeToString(b) == cards[k] {
			right++
		}
	}
	if opened > 1 {
		t.Errorf("two seats' shares opened %d of %d face-down plays", opened, pooled)
	}
	if pooled < 5 {
		t.Fatalf("the two seats hold shares of %d face-down plays: too few to tell", pooled)
	}
	if right > pooled/2 {
		t.Errorf("two seats' shares, taken for a threshold of two, gave the cards of %d of %d face-down plays", right, pooled)
	}
	t.Logf("two seats held shares of the seed (threshold %d) and of %d face-down plays; taken for a threshold of two they gave %d plays' cards (chance: a byte in 256)",
		seed[0].K, pooled, right)
}
