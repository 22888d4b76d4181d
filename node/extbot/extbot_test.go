package extbot

import (
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/bot"
	"github.com/bullshit-game/bullshit/engine/sim"
)

// play runs one game with the program at path in seat 0 and medium bots
// elsewhere, and returns the result and the program's fallbacks.
func play(t *testing.T, path, preset string, timeout time.Duration) (sim.Result, map[string]int) {
	t.Helper()
	if filepath.Ext(path) == ".py" {
		if _, err := exec.LookPath("python3"); err != nil {
			t.Skip("no python3 here")
		}
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	var ext *Bot
	mk := func(name string, seat int, seed uint64) (bot.Player, error) {
		if name == "ext" {
			b, err := New(abs, seat, timeout)
			ext = b
			return b, err
		}
		return bot.New(name, seat, seed)
	}
	r, _ := engine.Preset(preset)
	res, err := sim.Play(sim.Config{Rules: r, Seats: 3, Bots: []string{"ext", "medium", "medium"}, Seed: 42, Make: mk})
	if err != nil {
		t.Fatal(err)
	}
	if res.Net {
		t.Errorf("%s: the game hit the net", preset)
	}
	return res, ext.Fallbacks
}

// A well-behaved program plays whole games of every kind without one
// refusal or fallback.
func TestExecPlays(t *testing.T) {
	for _, preset := range engine.Presets {
		res, fb := play(t, "testdata/first.py", preset, 20*time.Second)
		if res.Seats[0].Refused != 0 || len(fb) != 0 {
			t.Errorf("%s: refused %d, fallbacks %v", preset, res.Seats[0].Refused, fb)
		}
		if res.Plays == 0 {
			t.Errorf("%s: no plays", preset)
		}
	}
}

// A refused answer is sent back and the second try counts.
func TestExecRetry(t *testing.T) {
	res, fb := play(t, "testdata/refused.py", "standard", 20*time.Second)
	if res.Seats[0].Refused == 0 {
		t.Errorf("the engine refused nothing: the test bot should have tried a bad call")
	}
	if len(fb) != 0 {
		t.Errorf("fallbacks %v: every second try was good", fb)
	}
}

// A line that isn't JSON gets the fallback, and the game goes on.
func TestExecGarbage(t *testing.T) {
	_, fb := play(t, "testdata/garbage.sh", "standard", 5*time.Second)
	if fb["garbage"] == 0 {
		t.Errorf("fallbacks %v: want garbage", fb)
	}
}

// A program that thinks too long gets the fallback, and the game goes on.
func TestExecSlow(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	start := time.Now()
	_, fb := play(t, "testdata/slow.sh", "standard", 50*time.Millisecond)
	if fb["slow"] == 0 {
		t.Errorf("fallbacks %v: want slow", fb)
	}
	t.Logf("%d slow decisions in %v", fb["slow"], time.Since(start))
}

// Resolve hands exec: names to New and the rest to bot.New.
func TestResolve(t *testing.T) {
	if _, err := Resolve("hard/bold", 0, 1); err != nil {
		t.Error(err)
	}
	if _, err := Resolve("wizard", 0, 1); err == nil {
		t.Error("an unknown bot was made")
	}
	if _, err := Resolve("exec:", 0, 1); err == nil {
		t.Error("exec: with no path was taken")
	}
	if _, err := Resolve("exec:/no/such/program", 0, 1); err == nil {
		t.Error("a missing program was started")
	}
}

// A table asks a program off its own goroutine (node/table: schedule),
// and asks anew when the game moves on while an answer is still on its
// way: two decisions at once. The program answers one at a time: the
// first decision asked is answered, and the other, if it waited behind a
// newer one, is dropped without a move (the table would drop its move
// anyway); no fallback is played. Under -race, the old Bot
// (no lock around a decision) failed here with a data race on its
// decision's state, as TestTableExecBotSeat did in 1 run of 12.
func TestExecAskedTwiceAtOnce(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3 here")
	}
	abs, err := filepath.Abs("testdata/first.py")
	if err != nil {
		t.Fatal(err)
	}
	b, err := New(abs, 0, 20*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	first := 0
	g, _, err := engine.New(engine.Config{Rules: engine.Standard(), Seats: 3, Seed: 7, First: &first})
	if err != nil {
		t.Fatal(err)
	}
	v := g.View(0)
	if v.Turn != 0 || v.Phase != engine.PhasePlay {
		t.Fatalf("seat 0 isn't to play: %+v", v)
	}
	for round := range 20 {
		var wg sync.WaitGroup
		var got [2]engine.Command
		var ok [2]bool
		for k := range 2 {
			w := v
			w.No = v.No + 2*round + k // another situation each time
			wg.Go(func() { got[k], _, ok[k] = b.Act(&w) })
		}
		wg.Wait()
		if !ok[0] && !ok[1] {
			t.Fatalf("round %d: neither decision was answered", round)
		}
		for k := range 2 {
			if ok[k] && got[k].Move != engine.MovePlay {
				t.Fatalf("round %d, decision %d: %+v", round, k, got[k])
			}
		}
	}
	if len(b.Fallbacks) != 0 {
		t.Fatalf("fallbacks %v: every decision had its answer", b.Fallbacks)
	}
}
