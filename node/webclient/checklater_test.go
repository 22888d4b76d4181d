package webclient

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// The signatures on an update's journal steps are checked after the page
// was handed the change when Config.CheckLater says so (the page draws
// first), before the next message, and they find what they found when
// checked at once: an honest signed chain is taken whole, and a step whose
// signature is forged stops the journal there and is named in the sheet,
// in the same words.
func TestJournalChecksAfterTheDraw(t *testing.T) {
	for _, forge := range []int{-1, 3} {
		var sheets [2][]string
		for k, later := range []bool{false, true} {
			h := newFakeHost(t, 7)
			h.chain, h.forge = true, forge
			ch, note := watch()
			var mu sync.Mutex
			var c *Client
			changes, checks, told := 0, 0, 0
			cfg := Config{Key: newKey(t), Nick: "Ada", Addr: h.addr(), OnChange: func() {
				mu.Lock()
				changes++
				mu.Unlock()
				note()
			}}
			if later {
				cfg.CheckLater = func() {
					mu.Lock()
					defer mu.Unlock()
					if changes == told {
						t.Errorf("check %d came before the page was told of its update", checks+1)
					}
					told = changes
					if c != nil { // nil until Join returns
						c.mu.Lock()
						held := len(c.rec.journal.Steps)
						c.mu.Unlock()
						// One step an update, and this one's isn't taken
						// yet; past a forged step the journal stays put.
						want := checks
						if forge >= 0 {
							want = min(checks, forge)
						}
						if held != want {
							t.Errorf("check %d: the journal holds %d steps before it, want %d", checks+1, held, want)
						}
					}
					checks++
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			cl, err := Join(ctx, cfg)
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			c = cl
			mu.Unlock()
			t.Cleanup(func() { cl.Close() })
			s := playOut(t, cl, ch)
			if later && checks == 0 {
				t.Error("CheckLater was never called")
			}
			cl.mu.Lock()
			held, sent := len(cl.rec.journal.Steps), len(h.steps)
			cl.mu.Unlock()
			switch {
			case forge < 0 && held != sent:
				t.Errorf("later=%v: an honest chain: the journal holds %d of %d steps", later, held, sent)
			case forge >= 0 && held != forge:
				t.Errorf("later=%v: step %d forged: the journal holds %d steps, want %d", later, forge+1, held, forge)
			}
			sheets[k] = s.Sheet.Problems
			named := strings.Contains(strings.Join(s.Sheet.Problems, " "), "journal")
			if named != (forge >= 0) {
				t.Errorf("later=%v, forged step %d: problems %q", later, forge, s.Sheet.Problems)
			}
		}
		if !slices.Equal(sheets[0], sheets[1]) {
			t.Errorf("forged step %d: problems checked at once %q, after the draw %q", forge, sheets[0], sheets[1])
		}
	}
}
