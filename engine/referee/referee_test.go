package referee_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/referee"
)

// reply is a referee reply, read back.
type reply struct {
	OK      *bool             `json:"ok"`
	Error   engine.Code       `json:"error"`
	Message string            `json:"message"`
	Events  []json.RawMessage `json:"events"`
	View    json.RawMessage   `json:"view"`
	State   json.RawMessage   `json:"state"`
}

// session runs lines through referee.Run, as a pipe would, and returns
// one reply per non-blank line.
func session(t testing.TB, lines ...string) []string {
	t.Helper()
	pr, pw := io.Pipe()
	go func() {
		for _, l := range lines {
			io.WriteString(pw, l+"\n")
		}
		pw.Close()
	}()
	var out bytes.Buffer
	if err := referee.Run(pr, &out); err != nil {
		t.Fatalf("Run: %v", err)
	}
	got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if out.Len() == 0 {
		got = nil
	}
	return got
}

func parse(t testing.TB, line string) reply {
	t.Helper()
	var r reply
	if err := json.Unmarshal([]byte(line), &r); err != nil {
		t.Fatalf("reply %q is not JSON: %v", line, err)
	}
	if r.OK == nil {
		t.Fatalf("reply %q has no ok", line)
	}
	if !*r.OK && (r.Error == "" || r.Message == "") {
		t.Fatalf("refusal %q lacks a code or a message", line)
	}
	if *r.OK && r.Events == nil {
		t.Fatalf("reply %q lacks events", line)
	}
	return r
}

// A small table: seat 0 plays first, aces.
const newStd = `{"cmd":"new","seats":3,"seed":7,"rules":"standard","hands":[["AS","AC","KD"],["2C","2H"],["3C","9D"]],"first":0}`

func TestSession(t *testing.T) {
	lines := []string{
		newStd,
		`{"cmd":"play","seat":0,"cards":["AS"]}`,
		`this is not json`,
		`{"cmd":"view","seat":1}`,
		``,
		`   `,
		`{"cmd":"call","seat":1,"no":1}`,
		`{"cmd":"call","seat":2,"no":1}`,
		`{"cmd":"tick","t":1.5}`,
		`{"cmd":"play","seat":1,"cards":["2C"]}`,
		`{"cmd":"pass","seat":0,"no":2}`,
		`{"cmd":"pass","seat":2,"no":2}`,
		`{"cmd":"tick","t":1}`,
		`{"cmd":"state"}`,
	}
	want := []string{
		`{"ok":true,"events":[{"type":"deal","to":"all","dealer":1,"first":0,"rank":"A","hands":[3,2,2]},{"type":"hand","to":[0],"seat":0,"cards":["AC","AS","KD"]},{"type":"hand","to":[1],"seat":1,"cards":["2C","2H"]},{"type":"hand","to":[2],"seat":2,"cards":["3C","9D"]}]}`,
		`{"ok":true,"events":[{"type":"play","to":"all","seat":0,"no":1,"rank":"A","claim":1,"out":false,"sizes":{"hand":[3,2],"pile":[0,1]}},{"type":"mine","to":[0],"seat":0,"no":1,"cards":["AS"]}]}`,
		`bad_command`,
		`view`,
		`{"ok":true,"events":[{"type":"call","to":"all","seat":1,"on":0,"no":1},{"type":"reveal","to":"all","seat":0,"no":1,"rank":"A","claim":1,"cards":["AS"],"truth":true,"sneaked":0},{"type":"take","to":"all","seat":1,"count":1}]}`,
		`too_late`,
		`{"ok":true,"events":[]}`,
		`{"ok":true,"events":[{"type":"play","to":"all","seat":1,"no":2,"rank":"2","claim":1,"out":false,"sizes":{"hand":[3,2],"pile":[0,1]}},{"type":"mine","to":[1],"seat":1,"no":2,"cards":["2C"]}]}`,
		`{"ok":true,"events":[{"type":"pass","to":"all","seat":0,"no":2}]}`,
		`{"ok":true,"events":[{"type":"pass","to":"all","seat":2,"no":2},{"type":"stand","to":"all","seat":1,"no":2}]}`,
		`bad_command`,
		`state`,
	}
	got := session(t, lines...)
	if len(got) != len(want) {
		t.Fatalf("%d replies, want %d (blank lines get none):\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i, w := range want {
		r := parse(t, got[i])
		switch w {
		case "view":
			if !*r.OK || r.View == nil {
				t.Errorf("reply %d: %s", i, got[i])
			}
		case "state":
			if !*r.OK || r.State == nil {
				t.Errorf("reply %d: %s", i, got[i])
			}
			var st struct {
				Hands [][]string `json:"hands"`
				Pile  []string   `json:"pile"`
				Out   []string   `json:"out"`
				Now   float64    `json:"now"`
			}
			json.Unmarshal(r.State, &st)
			if strings.Join(st.Hands[1], " ") != "AS 2H" || strings.Join(st.Pile, " ") != "2C" || st.Out == nil || st.Now != 1.5 {
				t.Errorf("state %s", r.State)
			}
		default:
			if strings.HasPrefix(w, "{") {
				if got[i] != w {
					t.Errorf("reply %d:\n got %s\nwant %s", i, got[i], w)
				}
			} else if *r.OK || string(r.Error) != w {
				t.Errorf("reply %d: %s, want %s", i, got[i], w)
			}
		}
	}
	// The same session gives the same bytes.
	if again := session(t, lines...); strings.Join(again, "\n") != strings.Join(got, "\n") {
		t.Error("the same session gave other replies")
	}
}

// TestWire covers the protocol's refusals: what is a bad command on the
// wire, and the precedence of REFEREE.md "Replies" through the referee.
func TestWire(t *testing.T) {
	won := `{"cmd":"new","seats":2,"seed":1,"hands":[["AS"],["2C"]],"first":0}`
	endIt := []string{won, `{"cmd":"play","seat":0,"cards":["AS"]}`, `{"cmd":"tick","t":6}`}
	for _, tc := range []struct {
		name  string
		setup []string
		line  string
		code  engine.Code // "" for ok
	}{
		// Lines that aren't commands.
		{"not JSON", nil, `hello`, engine.CodeBadCommand},
		{"truncated JSON", nil, `{"cmd":"new"`, engine.CodeBadCommand},
		{"an array", nil, `[1,2]`, engine.CodeBadCommand},
		{"a string", nil, `"new"`, engine.CodeBadCommand},
		{"null", nil, `null`, engine.CodeBadCommand},
		{"two objects", nil, `{"cmd":"state"} {"cmd":"state"}`, engine.CodeBadCommand},
		{"no cmd", nil, `{"seat":1}`, engine.CodeBadCommand},
		{"cmd not a string", nil, `{"cmd":5}`, engine.CodeBadCommand},
		{"unknown cmd", nil, `{"cmd":"fold","seat":0}`, engine.CodeBadCommand},
		{"no game yet", nil, `{"cmd":"play","seat":0,"cards":["AS"]}`, engine.CodeBadCommand},
		{"no game to view", nil, `{"cmd":"view","seat":0}`, engine.CodeBadCommand},
		{"no game to tick", nil, `{"cmd":"tick","t":1}`, engine.CodeBadCommand},
		{"no game state", nil, `{"cmd":"state"}`, engine.CodeBadCommand},
		// Missing or ill-typed fields.
		{"seat missing", []string{newStd}, `{"cmd":"play","cards":["AS"]}`, engine.CodeBadCommand},
		{"seat a string", []string{newStd}, `{"cmd":"play","seat":"0","cards":["AS"]}`, engine.CodeBadCommand},
		{"seat a fraction", []string{newStd}, `{"cmd":"play","seat":0.5,"cards":["AS"]}`, engine.CodeBadCommand},
		{"cards missing", []string{newStd}, `{"cmd":"play","seat":0}`, engine.CodeBadCommand},
		{"cards a string", []string{newStd}, `{"cmd":"play","seat":0,"cards":"AS"}`, engine.CodeBadCommand},
		{"cards of numbers", []string{newStd}, `{"cmd":"play","seat":0,"cards":[1]}`, engine.CodeBadCommand},
		{"claim a string", []string{newStd}, `{"cmd":"play","seat":0,"cards":["AS"],"claim":"1"}`, engine.CodeBadCommand},
		{"rank a number", []string{newStd}, `{"cmd":"play","seat":0,"cards":["AS"],"rank":1}`, engine.CodeBadCommand},
		{"no missing", []string{newStd}, `{"cmd":"call","seat":1}`, engine.CodeBadCommand},
		{"t missing", []string{newStd}, `{"cmd":"tick"}`, engine.CodeBadCommand},
		{"t a string", []string{newStd}, `{"cmd":"tick","t":"5"}`, engine.CodeBadCommand},
		{"view seat missing", []string{newStd}, `{"cmd":"view"}`, engine.CodeBadCommand},
		// new: seats, seed, rules, hands.
		{"one seat", nil, `{"cmd":"new","seats":1,"seed":1}`, engine.CodeBadCommand},
		{"eleven seats", nil, `{"cmd":"new","seats":11,"seed":1}`, engine.CodeBadCommand},
		{"seats missing", nil, `{"cmd":"new","seed":1}`, engine.CodeBadCommand},
		{"seed missing", nil, `{"cmd":"new","seats":3}`, engine.CodeBadCommand},
		{"seed a string", nil, `{"cmd":"new","seats":3,"seed":"x"}`, engine.CodeBadCommand},
		{"seed a numeric string", nil, `{"cmd":"new","seats":3,"seed":"5"}`, engine.CodeBadCommand},
		{"seats a numeric string", nil, `{"cmd":"new","seats":"3","seed":5}`, engine.CodeBadCommand},
		{"seed big", nil, `{"cmd":"new","seats":3,"seed":18446744073709551615}`, ""},
		{"seed negative", nil, `{"cmd":"new","seats":3,"seed":-5}`, ""},
		{"unknown preset", nil, `{"cmd":"new","seats":3,"seed":1,"rules":"poker"}`, engine.CodeBadCommand},
		{"unknown rules key", nil, `{"cmd":"new","seats":3,"seed":1,"rules":{"bluff":true}}`, engine.CodeBadCommand},
		{"rules value out of range", nil, `{"cmd":"new","seats":3,"seed":1,"rules":{"window":0.5}}`, engine.CodeBadCommand},
		{"rules value ill-typed", nil, `{"cmd":"new","seats":3,"seed":1,"rules":{"places":"maybe"}}`, engine.CodeBadCommand},
		{"rules a number", nil, `{"cmd":"new","seats":3,"seed":1,"rules":5}`, engine.CodeBadCommand},
		{"rules object over a preset", nil, `{"cmd":"new","seats":3,"seed":1,"rules":{"preset":"twist","window":4,"sneak":3}}`, ""},
		{"every rules key", nil, `{"cmd":"new","seats":4,"seed":1,"rules":{"sequence":"down","start":"5","cap":6,"direction":"ccw","jokers":2,"places":true,"quads":true,"first":"holder:2C","callers":"next","count_lies":true,"rapid":true,"sneak":1,"counts":"rough","window":10,"decks":2,"mode":"classic"}}`, ""},
		{"twist at two seats", nil, `{"cmd":"new","seats":2,"seed":1,"rules":"twist"}`, engine.CodeBadCommand},
		{"hands for too few seats", nil, `{"cmd":"new","seats":3,"seed":1,"hands":[["AS"],["2C"]]}`, engine.CodeBadCommand},
		{"too few hands before a bad card", nil, `{"cmd":"new","seats":3,"seed":1,"hands":[["XX"],["2C"]]}`, engine.CodeBadCommand},
		{"hands not lists", nil, `{"cmd":"new","seats":2,"seed":1,"hands":["AS","2C"]}`, engine.CodeBadCommand},
		{"hands with no card", nil, `{"cmd":"new","seats":2,"seed":1,"hands":[["XX"],["2C"]]}`, engine.CodeBadCard},
		{"hands with a card twice", nil, `{"cmd":"new","seats":2,"seed":1,"hands":[["AS"],["AS"]]}`, engine.CodeBadCard},
		{"first out of range", nil, `{"cmd":"new","seats":2,"seed":1,"first":2}`, engine.CodeBadSeat},
		// The clock.
		{"tick backwards", []string{newStd, `{"cmd":"tick","t":5}`}, `{"cmd":"tick","t":4}`, engine.CodeBadCommand},
		{"tick negative", []string{newStd}, `{"cmd":"tick","t":-1}`, engine.CodeBadCommand},
		{"tick the same time", []string{newStd, `{"cmd":"tick","t":5}`}, `{"cmd":"tick","t":5}`, ""},
		{"tick backwards after the end", endIt, `{"cmd":"tick","t":1}`, engine.CodeBadCommand},
		// After the end: game_over, but bad_command first.
		{"play after the end", endIt, `{"cmd":"play","seat":1,"cards":["2C"]}`, engine.CodeGameOver},
		{"tick after the end", endIt, `{"cmd":"tick","t":7}`, engine.CodeGameOver},
		{"game_over before bad_seat", endIt, `{"cmd":"play","seat":9,"cards":["2C"]}`, engine.CodeGameOver},
		{"game_over before bad_card", endIt, `{"cmd":"play","seat":1,"cards":["ZZ"]}`, engine.CodeGameOver},
		{"bad_command before game_over", endIt, `{"cmd":"play","cards":["2C"]}`, engine.CodeBadCommand},
		{"view after the end", endIt, `{"cmd":"view","seat":1}`, ""},
		{"state after the end", endIt, `{"cmd":"state"}`, ""},
		{"new after the end", endIt, newStd, ""},
		// Seats, then cards, then the engine's order.
		{"view of no seat", []string{newStd}, `{"cmd":"view","seat":3}`, engine.CodeBadSeat},
		{"bad_seat before bad_card", []string{newStd}, `{"cmd":"play","seat":3,"cards":["ZZ"]}`, engine.CodeBadSeat},
		{"bad_card before not_your_turn", []string{newStd}, `{"cmd":"play","seat":1,"cards":["ZZ"]}`, engine.CodeBadCard},
		{"bad_card for 1S", []string{newStd}, `{"cmd":"play","seat":0,"cards":["1S"]}`, engine.CodeBadCard},
		{"not_your_turn before not_in_hand", []string{newStd}, `{"cmd":"play","seat":1,"cards":["AS"]}`, engine.CodeNotYourTurn},
		{"not_in_hand before bad_count", []string{newStd}, `{"cmd":"play","seat":0,"cards":["AS","AS"],"claim":7}`, engine.CodeNotInHand},
		{"claim zero", []string{newStd}, `{"cmd":"play","seat":0,"cards":["AS"],"claim":0}`, engine.CodeBadCount},
		{"bad_count before bad_rank", []string{newStd}, `{"cmd":"play","seat":0,"cards":[],"rank":"Z"}`, engine.CodeBadCount},
		{"rank that isn't one", []string{newStd}, `{"cmd":"play","seat":0,"cards":["AS"],"rank":"Z"}`, engine.CodeBadRank},
		{"rank not required", []string{newStd}, `{"cmd":"play","seat":0,"cards":["AS"],"rank":"K"}`, engine.CodeBadRank},
		{"rank required, named", []string{newStd}, `{"cmd":"play","seat":0,"cards":["AS"],"rank":"A"}`, ""},
		{"lower-case cards", []string{newStd}, `{"cmd":"play","seat":0,"cards":["as","kd"]}`, ""},
		{"no_window", []string{newStd}, `{"cmd":"call","seat":1,"no":1}`, engine.CodeNoWindow},
		{"own_play", []string{newStd, `{"cmd":"play","seat":0,"cards":["AS"]}`}, `{"cmd":"call","seat":0,"no":1}`, engine.CodeOwnPlay},
		{"already_passed", []string{newStd, `{"cmd":"play","seat":0,"cards":["AS"]}`, `{"cmd":"pass","seat":1,"no":1}`}, `{"cmd":"pass","seat":1,"no":1}`, engine.CodeAlreadyPassed},
		{"too_late", []string{newStd, `{"cmd":"play","seat":0,"cards":["AS"]}`, `{"cmd":"tick","t":6}`}, `{"cmd":"call","seat":1,"no":1}`, engine.CodeTooLate},
		{"not_allowed", []string{newStd}, `{"cmd":"doubt","seat":0}`, engine.CodeNotAllowed},
		{"quads off, one card", []string{newStd}, `{"cmd":"quads","seat":0,"cards":["AS"]}`, engine.CodeBadCount},
		{"doubt with a bad no", []string{`{"cmd":"new","seats":2,"seed":1,"rules":"doubt","hands":[["AS","AC"],["2C"]],"first":0}`, `{"cmd":"play","seat":0,"cards":["AS"],"rank":"A"}`}, `{"cmd":"doubt","seat":1,"no":"x"}`, engine.CodeBadCommand},
		{"doubt with no no", []string{`{"cmd":"new","seats":2,"seed":1,"rules":"doubt","hands":[["AS","AC"],["2C"]],"first":0}`, `{"cmd":"play","seat":0,"cards":["AS"],"rank":"A"}`}, `{"cmd":"doubt","seat":1}`, ""},
		{"doubt naming play 0", []string{`{"cmd":"new","seats":2,"seed":1,"rules":"doubt","hands":[["AS","AC"],["2C"]],"first":0}`, `{"cmd":"play","seat":0,"cards":["AS"],"rank":"A"}`}, `{"cmd":"doubt","seat":1,"no":0}`, engine.CodeNoWindow},
		// Extra fields are ignored; a null field is missing.
		{"extra field", []string{newStd}, `{"cmd":"view","seat":0,"colour":"red"}`, ""},
		{"null seat", []string{newStd}, `{"cmd":"view","seat":null}`, engine.CodeBadCommand},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := session(t, append(tc.setup, tc.line)...)
			for i, l := range got[:len(got)-1] {
				if r := parse(t, l); !*r.OK {
					t.Fatalf("setup line %d refused: %s", i, l)
				}
			}
			r := parse(t, got[len(got)-1])
			if tc.code == "" {
				if !*r.OK {
					t.Fatalf("refused: %s", got[len(got)-1])
				}
				return
			}
			if *r.OK || r.Error != tc.code {
				t.Fatalf("got %s, want %s", got[len(got)-1], tc.code)
			}
		})
	}
}

// A refused command changes nothing: the state before and after is the same.
func TestRefusedChangesNothing(t *testing.T) {
	ref := referee.New()
	ref.Handle([]byte(newStd))
	ref.Handle([]byte(`{"cmd":"play","seat":0,"cards":["AS"]}`))
	before := string(ref.Handle([]byte(`{"cmd":"state"}`)))
	for _, l := range []string{
		`{"cmd":"play","seat":1,"cards":["2C"]}`, `{"cmd":"call","seat":0,"no":1}`, `{"cmd":"call","seat":1,"no":2}`,
		`{"cmd":"give","seat":1,"cards":["2C"]}`, `{"cmd":"skip","seat":1}`, `{"cmd":"nonsense"}`, `{`,
	} {
		if r := parse(t, string(ref.Handle([]byte(l)))); *r.OK {
			t.Fatalf("%s accepted", l)
		}
		if after := string(ref.Handle([]byte(`{"cmd":"state"}`))); after != before {
			t.Fatalf("%s changed the state:\n%s\n%s", l, before, after)
		}
	}
}

// A line longer than MaxLine is refused, and the same game goes on.
func TestLongLine(t *testing.T) {
	long := `{"cmd":"view","seat":0,"pad":"` + strings.Repeat("x", referee.MaxLine) + `"}`
	got := session(t, newStd, long, `{"cmd":"play","seat":0,"cards":["AS"]}`, long+long, `{"cmd":"view","seat":0}`)
	if len(got) != 5 {
		t.Fatalf("%d replies", len(got))
	}
	for i, want := range []string{"", "bad_command", "", "bad_command", ""} {
		r := parse(t, got[i])
		if (want == "") != *r.OK || string(r.Error) != want {
			t.Errorf("reply %d: %.200s", i, got[i])
		}
	}
	// The game survived the long lines: seat 0's play is in its view.
	if !strings.Contains(got[4], `"no":1`) {
		t.Errorf("the game was lost: %.300s", got[4])
	}
	// A last line without a newline is still answered.
	var out bytes.Buffer
	referee.Run(strings.NewReader(newStd+"\n"+`{"cmd":"state"}`), &out)
	if n := strings.Count(out.String(), "\n"); n != 2 {
		t.Errorf("%d replies to two lines, the last unterminated", n)
	}
	// Windows line ends are fine.
	out.Reset()
	referee.Run(strings.NewReader(newStd+"\r\n"+`{"cmd":"state"}`+"\r\n"), &out)
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if r := parse(t, sc.Text()); !*r.OK {
			t.Errorf("CRLF: %s", sc.Text())
		}
	}
}
