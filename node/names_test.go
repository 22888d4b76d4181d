package node

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/node/table"
	"github.com/bullshit-game/bullshit/protocol"
)

// Names that read the same are one name to a table (issue 21): case,
// width, compatibility forms and the common look-alikes folded; names
// that only look different stay different.
func TestNickAlike(t *testing.T) {
	for _, c := range []struct {
		a, b  string
		alike bool
	}{
		// the same name, folded
		{"Hosty", "Hosty", true},
		{"Hosty", "hosty", true},
		{"Hosty", "HOSTY", true},
		{"Hosty", "Ｈｏｓｔｙ", true},       // fullwidth
		{"Hosty", "Нosty", true},       // Cyrillic Н
		{"Hosty", "Hоsty", true},       // Cyrillic о
		{"Hosty", "Ηοsty", true},       // Greek Eta, omicron
		{"Hosty", "Hosty ", true},      // a space after
		{"Hosty", "Hosty\u3000", true}, // an ideographic space after
		{"Ian", "lan", true},           // capital I, small L
		{"Bob", "B0b", true},           // zero for o
		{"Al", "A1", true},             // one for l
		{"Vernon", "Vemon", true},      // rn for m
		{"ﬁona", "fiona", true},        // a ligature (NFKC)
		{"Straße", "STRASSE", true},    // case folding, not lowering
		// different names
		{"Hosty", "Host", false},
		{"Hosty", "Ho sty", false},
		{"Zoë", "Zoe", false},
		{"Ada", "Ana", false},
		{"Ben", "Ben 2", false},
		{"李小龍", "李小虎", false},
	} {
		err := table.CheckNickAmong(c.b, []string{"Cleo", c.a})
		if (err != nil) != c.alike {
			t.Errorf("%q beside %q: %v, want alike %v", c.b, c.a, err, c.alike)
			continue
		}
		if err != nil && (!errors.Is(err, table.ErrNameTaken) || !errors.Is(err, protocol.ErrBadName) || !strings.Contains(err.Error(), c.a)) {
			t.Errorf("%q beside %q: %q does not name %q as a name refusal", c.b, c.a, err, c.a)
		}
	}
	if err := table.CheckNickAmong("Hosty", []string{"Hosty"}); err == nil || err.Error() != "Hosty is already at this table: choose another nickname." {
		t.Errorf("the same name: %v", err)
	}
	if err := table.CheckNickAmong("hosty", []string{"Hosty"}); err == nil || err.Error() != "That nickname looks too much like Hosty, who is already at this table: choose another." {
		t.Errorf("a name alike: %v", err)
	}
}

// A table refuses, at the hello, a nickname with an invisible letter and
// one that reads as the host's, a player's or a bot's, each with the
// reason, and changes nothing: the next player takes the next seat. A
// player taking its own seat back keeps its name.
func TestNetNickAlikeRefused(t *testing.T) {
	hn, tb, _ := hostTable(t, table.Settings{Name: "Kitchen", Seats: 3, Bots: []string{"Cleo"}})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	hosty := newLoopNode(t)
	first, err := Dial(ctx, hosty.h, hosty.key, info(hn), "Hosty", "", false, nil)
	if err != nil || first.Seat() != 0 {
		t.Fatalf("Hosty: %v, %v", first, err)
	}
	defer first.Close()
	alike := "That nickname looks too much like "
	for _, c := range []struct{ nick, says string }{
		{"Hosty\u3164", "A nickname can't hold invisible characters (U+3164)"},
		{"\u115FHosty", "A nickname can't hold invisible characters (U+115F)"},
		{"Hosty\u200D", "A nickname can't hold invisible characters (U+200D)"},
		{"\u0301Hosty", "A nickname can't hold a combining mark on its own (U+0301)"},
		{"Hosty", "Hosty is already at this table: choose another nickname."},
		{"hosty", alike + "Hosty, who is already at this table"},
		{"Нosty", alike + "Hosty, who is already at this table"},
		{"ＨＯＳＴＹ", alike + "Hosty, who is already at this table"},
		{"HOST", alike + "host, who is already at this table"}, // the host's own
		{"cleo", alike + "Cleo, who is already at this table"}, // a bot's
	} {
		nickRefused(t, ctx, hn, c.nick, c.says)
	}
	var seats []table.SeatInfo
	tb.Do(func() { seats = tb.State(-1).Seats })
	if seats[1].Peer != "" || seats[1].Name != "" {
		t.Fatalf("a refused name took seat 1: %+v", seats[1])
	}
	second := dialPlayer(t, ctx, hn, "Ada")
	if second.Seat() != 1 {
		t.Fatalf("Ada sat at %d, want 1", second.Seat())
	}
	// Hosty's own seat, taken back under its name, is no clash with itself.
	if _, _, err := tb.Sit(hosty.h.ID().String(), "Hosty"); err != nil {
		t.Fatalf("Hosty taking its seat back: %v", err)
	}
}

// A seated player back under another name is renamed at its own seat, and
// only to a name that reads as no one else's: a look-alike of another
// player's is refused with the reason and changes nothing (it went
// unchecked before), its own old name in other letters is no clash.
func TestRenameAtTheSeat(t *testing.T) {
	tb, err := table.NewTable(table.Settings{Name: "Kitchen", Seats: 3}, "Hal", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	if _, _, err := tb.Sit("ana", "Ana"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := tb.Sit("ben", "Ben"); err != nil {
		t.Fatal(err)
	}
	names := func() []string {
		var out []string
		tb.Do(func() {
			for _, s := range tb.State(-1).Seats {
				out = append(out, s.Name)
			}
		})
		return out
	}
	for _, c := range []struct{ nick, says string }{
		{"Вen", "That nickname looks too much like Ben, who is already at this table: choose another."}, // Cyrillic В
		{"Ben", "Ben is already at this table: choose another nickname."},
		{"hal", "That nickname looks too much like Hal, who is already at this table: choose another."}, // the host's
		{"Ana\u200D", "A nickname can't hold invisible characters (U+200D)"},
	} {
		_, _, err := tb.Sit("ana", c.nick)
		if !errors.Is(err, protocol.ErrBadName) || !strings.HasPrefix(err.Error(), c.says) {
			t.Errorf("Ana renaming to %q: %v, want %q", c.nick, err, c.says)
		}
		if got := names(); got[0] != "Ana" || got[1] != "Ben" {
			t.Errorf("after a refused rename to %q the seats are %q", c.nick, got)
		}
	}
	no, _, err := tb.Sit("ana", "ANA")
	if err != nil || no != 0 {
		t.Fatalf("Ana renaming to ANA: seat %d, %v", no, err)
	}
	if no, _, err := tb.Sit("ana", "Anna"); err != nil || no != 0 || names()[0] != "Anna" {
		t.Fatalf("Ana renaming to Anna: seat %d, %v, seats %q", no, err, names())
	}
}
