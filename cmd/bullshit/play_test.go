package main

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/cli"
	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node"
	"github.com/bullshit-game/bullshit/protocol"
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

// A nickname no table takes is refused where it is typed, with the
// host's own sentence, and never saved: a 100-letter --name was once
// saved, and every table after refused it with no way to rename.
func TestNickRefusedWhereTyped(t *testing.T) {
	long := strings.Repeat("x", 100)
	for _, args := range [][]string{{"--nick", long}, {"--name", long}, {"--nick", "a\x1b[2Jb"}, {"--nick", "   "}} {
		if _, err := parsePlay(args); err == nil || !errors.Is(err, protocol.ErrBadName) {
			t.Errorf("play %q: %v, want a refusal of the nickname", args[0], err)
		}
	}
	if _, err := parsePlay([]string{"--nick", long}); err == nil || !strings.Contains(err.Error(), "A nickname is at most 24 letters.") {
		t.Errorf("play --nick of 100 letters says %v", err)
	}
	if _, _, err := parseHost([]string{"--headless", "--nick", long}); !errors.Is(err, protocol.ErrBadName) {
		t.Errorf("host --nick of 100 letters: %v", err)
	}
	if _, _, err := parseHost([]string{"--headless", "--table", strings.Repeat("t", 40)}); !errors.Is(err, protocol.ErrBadName) {
		t.Errorf("host --table of 40 letters: %v", err)
	}
	// runPlay refuses before the profile is written.
	dir := t.TempDir()
	if err := runPlay([]string{"--config", dir, "--nick", long, "--solo"}); err == nil {
		t.Fatal("play --nick of 100 letters ran")
	}
	if prof, err := node.LoadProfile(dir); err != nil || prof.Nickname != "" {
		t.Fatalf("the profile holds %q (%v) after a refused --nick", prof.Nickname, err)
	}
	// A profile an older version saved with such a name says how to rename.
	prof, _ := node.LoadProfile(dir)
	prof.Nickname = long
	if err := node.SaveProfile(dir, prof); err != nil {
		t.Fatal(err)
	}
	err := runPlay([]string{"--config", dir, "--solo"})
	if err == nil || !strings.Contains(err.Error(), "bullshit play --nick NAME") {
		t.Fatalf("a saved 100-letter nickname: %v", err)
	}
}

// --nick is the nickname everywhere; --name stays as the old spelling of
// what it meant: play's nickname, host's table name (now --table).
func TestNameFlagsSayOneThing(t *testing.T) {
	if c, err := parsePlay([]string{"--nick", "Ada"}); err != nil || c.name != "Ada" {
		t.Errorf("play --nick Ada: %+v %v", c, err)
	}
	if c, err := parsePlay([]string{"--name", "Ada"}); err != nil || c.name != "Ada" {
		t.Errorf("play --name Ada: %+v %v", c, err)
	}
	c, _, err := parseHost([]string{"--headless", "--nick", "Hal", "--table", "Kitchen"})
	if err != nil || c.nf.name != "Hal" || c.name != "Kitchen" {
		t.Errorf("host --nick Hal --table Kitchen: nick %q table %q %v", c.nf.name, c.name, err)
	}
	c, _, err = parseHost([]string{"--headless", "--name", "Kitchen"})
	if err != nil || c.name != "Kitchen" || c.nf.name != "" {
		t.Errorf("host --name Kitchen: nick %q table %q %v", c.nf.name, c.name, err)
	}
}
