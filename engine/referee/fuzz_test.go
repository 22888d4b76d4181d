package referee_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/referee"
)

var codes = map[engine.Code]bool{
	engine.CodeBadCommand: true, engine.CodeGameOver: true, engine.CodeBadSeat: true, engine.CodeBadCard: true,
	engine.CodeNotYourTurn: true, engine.CodeNotInHand: true, engine.CodeBadCount: true, engine.CodeBadRank: true,
	engine.CodeNoWindow: true, engine.CodeTooLate: true, engine.CodeOwnPlay: true, engine.CodeAlreadyPassed: true,
	engine.CodeNotAllowed: true,
}

// FuzzReferee feeds arbitrary lines to one referee: every line gets a
// reply that is one JSON object with ok true or false (a known code and a
// message when false), never a panic, and the game keeps its cards. Each
// reply decodes, re-encodes and decodes to the same value.
func FuzzReferee(f *testing.F) {
	for _, s := range []string{
		newStd + "\n" + `{"cmd":"play","seat":0,"cards":["AS"]}` + "\n" + `{"cmd":"call","seat":1,"no":1}` + "\n" + `{"cmd":"state"}`,
		`{"cmd":"new","seats":4,"seed":9,"rules":"twist"}` + "\n" + `{"cmd":"view","seat":2}` + "\n" + `{"cmd":"tick","t":7}`,
		`{"cmd":"new","seats":3,"seed":2,"rules":{"preset":"doubt","places":true}}` + "\n" + `{"cmd":"skip","seat":0}`,
		`{"cmd":"new","seats":5,"seed":3,"rules":{"sneak":2,"counts":"rough","rapid":true,"quads":true,"jokers":2}}`,
		"garbage\n{}\n[]\nnull\n\"x\"\n{\"cmd\":\"tick\",\"t\":-1}",
		`{"cmd":"new","seats":2,"seed":1,"hands":[["AS","JK"],["2C"]],"first":1}`,
		`{"cmd":"play","seat":1e400,"cards":["AS"]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := referee.New()
		for _, line := range bytes.Split(data, []byte("\n")) {
			out := r.Handle(line)
			if bytes.IndexByte(out, '\n') >= 0 {
				t.Fatalf("reply to %q spans lines: %s", line, out)
			}
			var m map[string]any
			if err := json.Unmarshal(out, &m); err != nil {
				t.Fatalf("reply to %q is not a JSON object: %s", line, out)
			}
			ok, isBool := m["ok"].(bool)
			if !isBool {
				t.Fatalf("reply to %q has no ok: %s", line, out)
			}
			if !ok {
				code, _ := m["error"].(string)
				msg, _ := m["message"].(string)
				if !codes[engine.Code(code)] || msg == "" {
					t.Fatalf("refusal of %q: %s", line, out)
				}
			} else if _, has := m["events"].([]any); !has {
				t.Fatalf("reply to %q has no events: %s", line, out)
			}
			again, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			var m2 map[string]any
			if err := json.Unmarshal(again, &m2); err != nil || !reflect.DeepEqual(m, m2) {
				t.Fatalf("reply doesn't survive a round trip: %s", out)
			}
			if g := r.Game(); g != nil && !g.Conserved() {
				t.Fatalf("after %q: cards not conserved", line)
			}
		}
	})
}
