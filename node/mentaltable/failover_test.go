package mentaltable

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/protocol"
)

// The host vanishes at every kind of moment and a new one takes over
// from the old one's log alone (Replay): mid-key, mid-split, mid-shuffle,
// mid-deal, while a called play's opening is due, while a pile is being
// handed over, while a silent party's play is being recovered, and at
// the end's publishing. The new host holds the same game and record as
// the old, nothing hidden crosses, and the game goes on to an audited end
// with every party's knowledge still what its seats saw.
func TestFailoverFromTheLog(t *testing.T) {
	for _, c := range underRace([]struct {
		moment string
		at     func(d *Driver) bool
	}{
		{"mid-keys", func(d *Driver) bool { return !d.H.rec.keysDone() && d.H.rec.keyed[1] }},
		{"mid-split", func(d *Driver) bool { return d.H.rec.keysDone() && !d.H.rec.splitDone() && d.H.rec.split[0] }},
		{"mid-shuffle", func(d *Driver) bool { return len(d.T.Steps) == 2 }},
		{"mid-deal", func(d *Driver) bool { return d.H.rec.shuffled() && d.H.rec.dealt[0] && !d.H.rec.dealDone() }},
		{"an opening due", func(d *Driver) bool { return d.H.calling != nil && d.H.calling.What == AskOpen }},
		{"a pile on its way", func(d *Driver) bool { return hostAsks(d, AskHand) }},
		{"a recovery", func(d *Driver) bool { return hostAsks(d, AskRecover) }},
		{"publishing", func(d *Driver) bool { return hostAsks(d, AskPublish) && d.H.rec.pubd[1] }},
	}) {
		t.Run(c.moment, func(t *testing.T) {
			r, _ := engine.Preset("standard")
			d := newDriver(t, r, 4, 61, nil)
			if c.moment == "a recovery" {
				d.Silent = func(party int, m protocol.Message) bool {
					o, ok := m.(protocol.DeckOpen)
					return ok && o.No > 0 // every call's opening: the first is recovered
				}
			}
			done := false
			d.BeforeHost = func() error {
				if done || !c.at(d) {
					return nil
				}
				done = true
				before, waiting, log := d.B.View(-1), d.H.Waiting(), len(d.H.Log())
				if err := d.Failover(); err != nil {
					return err
				}
				if !reflect.DeepEqual(before, d.B.View(-1)) || !reflect.DeepEqual(waiting, d.H.Waiting()) {
					return fmt.Errorf("the new host's game or record isn't the old one's")
				}
				t.Logf("failed over after %d inputs, waiting for %v", log, waiting)
				return nil
			}
			if err := d.Shuffle(); err != nil {
				t.Fatal(err)
			}
			w := newWatch(t, d)
			w.playAll(-1, 0, 0)
			if _, _, err := d.Finish(); err != nil {
				t.Fatal(err)
			}
			if !done {
				t.Fatalf("the game never came to %s", c.moment)
			}
		})
	}
}

// hostAsks reports whether the host waits on an ask of kind what.
func hostAsks(d *Driver, what AskKind) bool {
	for _, a := range d.H.rec.asks {
		if a.What == what {
			return true
		}
	}
	return false
}
