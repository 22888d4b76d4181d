package protocol

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// OpenChecked refuses from the header without checking a signature: a
// thousand large envelopes for another table cost no verification, where
// Open verifies every one.
func TestOpenCheckedRefusesBeforeVerifying(t *testing.T) {
	other := TableID{9, 9, 9}
	big, err := Seal(alice, other, 3, 1, State{Shares: []StepShare{{Y: make([]byte, MaxSize-300)}}})
	if err != nil {
		t.Fatal(err)
	}
	errOther := errors.New("another table")
	check := func(h *Header) error {
		if h.Table != testTable {
			return errOther
		}
		return nil
	}
	before := Verifications()
	for range 1000 {
		if env, err := OpenChecked(big, aliceID, check); env != nil || !errors.Is(err, errOther) {
			t.Fatalf("OpenChecked = %v, %v; want the check's refusal", env, err)
		}
	}
	if n := Verifications() - before; n != 0 {
		t.Fatalf("1000 refused headers cost %d verifications, want 0", n)
	}
	for range 10 {
		if _, err := Open(big, aliceID); err != nil {
			t.Fatal(err)
		}
	}
	if n := Verifications() - before; n != 10 {
		t.Fatalf("10 Opens counted %d verifications", n)
	}

	// A header that passes goes on to the signature and the body.
	data := mustSeal(t, alice, 7, Call{No: 3, Seat: 1})
	var seen Header
	env, err := OpenChecked(data, aliceID, func(h *Header) error { seen = *h; return nil })
	if err != nil || !reflect.DeepEqual(env.Msg, Call{No: 3, Seat: 1}) {
		t.Fatalf("OpenChecked = %+v, %v", env, err)
	}
	if seen.Sender != aliceID || seen.Table != testTable || seen.Term != 3 || seen.Seq != 7 || seen.Type != TypeCall || seen.Body == 0 {
		t.Fatalf("header %+v", seen)
	}
	// The sender is matched before the check: a check never sees another
	// peer's envelope as this one's.
	if _, err := OpenChecked(data, bobID, func(*Header) error { t.Fatal("check ran"); return nil }); !errors.Is(err, ErrSender) {
		t.Fatalf("from bob: %v", err)
	}
	// A forged signature is still refused after a header that passes.
	forged := flip(data, len(data)-1)
	if _, err := OpenChecked(forged, aliceID, func(*Header) error { return nil }); !errors.Is(err, ErrSignature) {
		t.Fatalf("forged: %v", err)
	}
}

// Peek says what Check would, and records nothing.
func TestReplayPeek(t *testing.T) {
	var r Replay
	if err := r.Peek(aliceID, 1, 5); err != nil {
		t.Fatal(err)
	}
	if err := r.Peek(aliceID, 1, 5); err != nil {
		t.Fatalf("Peek recorded: %v", err)
	}
	if err := r.Check(aliceID, 1, 5); err != nil {
		t.Fatal(err)
	}
	if err := r.Peek(aliceID, 1, 5); !errors.Is(err, ErrReplay) {
		t.Fatalf("Peek after Check = %v", err)
	}
	if err := r.Peek(bobID, 0, 9); !errors.Is(err, ErrStaleTerm) {
		t.Fatalf("stale = %v", err)
	}
	if err := r.Peek(aliceID, 2, 1); err != nil || r.Term() != 1 {
		t.Fatalf("Peek of a new term = %v, term %d", err, r.Term())
	}
}

func TestCheckNames(t *testing.T) {
	for _, c := range []struct {
		name string
		ok   bool
		says string
	}{
		{"Ada", true, ""},
		{"Zoë 🃏", true, ""},
		{"👩‍👩‍👧 family", true, ""},
		{"李小龍", true, ""},
		{strings.Repeat("x", MaxNick), true, ""},
		{strings.Repeat("é", MaxNick), true, ""},
		{strings.Repeat("x", MaxNick+1), false, "at most 24 letters"},
		{strings.Repeat("x", 65236), false, "at most 24 letters"},
		{"", false, "empty"},
		{"   ", false, "empty"},
		{"a\x1b[2Jb", false, "control characters"},
		{"a\u009bb", false, "control characters"},
		{"tab\there", false, "control characters"},
		{"line\nbreak", false, "control characters"},
		{"evil\u202Eeman", false, "control characters"},
		{"a\xffb", false, "UTF-8"},
		// Invisible letters, and marks on nothing (issue 21): "Hosty" and
		// "Hosty" with a Hangul filler read the same.
		{"Hosty\u3164", false, "can't hold invisible characters (U+3164)"},
		{"\u115F\u1160", false, "invisible characters (U+115F)"},
		{"Ada\uFFA0", false, "invisible characters (U+FFA0)"},
		{"Ada\u200B", false, "invisible characters (U+200B)"},
		{"A\u200Dda", false, "invisible characters (U+200D)"},
		{"Ada\u2060", false, "invisible characters (U+2060)"},
		{"\uFEFFAda", false, "invisible characters (U+FEFF)"},
		{"Ada\u034F", false, "invisible characters (U+034F)"},
		{"Ada\uFE0F", false, "invisible characters (U+FE0F)"},
		{"\u2800", false, "invisible characters (U+2800)"},
		{"\u0301Ada", false, "a combining mark on its own (U+0301)"},
		{"Ada \u20DD", false, "a combining mark on its own (U+20DD)"},
		{"Rene\u0301", true, ""},
		{"❤️ Ada", true, ""},
	} {
		err := CheckNick(c.name)
		if (err == nil) != c.ok {
			t.Errorf("CheckNick(%.30q) = %v, want ok %v", c.name, err, c.ok)
			continue
		}
		if err != nil && (!errors.Is(err, ErrBadName) || !strings.Contains(err.Error(), c.says) || !strings.HasPrefix(err.Error(), "A nickname ")) {
			t.Errorf("CheckNick(%.30q) = %q, want a sentence saying %q", c.name, err, c.says)
		}
	}
	if err := CheckTableName(strings.Repeat("t", MaxTableName)); err != nil {
		t.Error(err)
	}
	if err := CheckTableName(strings.Repeat("t", MaxTableName+1)); err == nil || !strings.Contains(err.Error(), "A table's name is at most 32") {
		t.Errorf("long table name: %v", err)
	}
}

func TestClean(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                  "plain",
		"a\x1b[31mred\x1b[0m":    "a[31mred[0m",
		"two\nlines\tand a tab":  "two lines and a tab",
		"bad\xffbyte":            "badbyte",
		"rtl\u202Eoverride":      "rtloverride",
		strings.Repeat("é", 500): strings.Repeat("é", 300),
	} {
		if got := Clean(in, MaxText); got != want {
			t.Errorf("Clean(%.20q) = %.20q, want %.20q", in, got, want)
		}
	}
}
