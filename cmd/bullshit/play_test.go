package main

import (
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/cli"
	"github.com/bullshit-game/bullshit/engine"
)

// What the new-table form chose reaches the table: the turn clock once
// stopped at the form, so one idle player could hold a LAN table up for ever.
func TestTableSettingsFromTheForm(t *testing.T) {
	s := cli.TableSettings{Name: "Kitchen", Rules: engine.Standard(), Seats: 5, Bots: []string{"hard"}, Code: "1234", TurnClock: time.Minute}
	got := tableSettings(s)
	if got.Name != "Kitchen" || got.Seats != 5 || len(got.Bots) != 1 || got.Code != "1234" || got.TurnClock != time.Minute || got.Rules.Window != s.Rules.Window {
		t.Fatalf("the table gets %+v from %+v", got, s)
	}
}
