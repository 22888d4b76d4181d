//go:build js && wasm

package main

import (
	"slices"
	"testing"

	"github.com/bullshit-game/bullshit/node/webclient"
)

// The page's moves are read with the browser's JSON.parse (moveOf): what
// app.js sends reads as it did with encoding/json, and nothing the page
// could send panics.
func TestMoveOf(t *testing.T) {
	for _, c := range []struct {
		in   string
		want webclient.Move
	}{
		{`{"kind":"play","cards":[3,17],"claim":0,"rank":-1}`, webclient.Move{Kind: "play", Cards: []int{3, 17}, Rank: -1}},
		{`{"cards":[],"claim":2,"rank":5,"kind":"give","extra":{"x":1}}`, webclient.Move{Kind: "give", Cards: []int{}, Claim: 2, Rank: 5}},
		{`{"kind":"call"}`, webclient.Move{Kind: "call"}},
		{`{"kind":null,"cards":null}`, webclient.Move{}},
		{`null`, webclient.Move{}},
	} {
		got, err := moveOf(c.in)
		if err != nil || got.Kind != c.want.Kind || !slices.Equal(got.Cards, c.want.Cards) ||
			(got.Cards == nil) != (c.want.Cards == nil) || got.Claim != c.want.Claim || got.Rank != c.want.Rank {
			t.Errorf("moveOf(%s) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{``, `{`, `nope`, `[1]`, `"play"`, `7`, `{"kind":7}`, `{"cards":"12"}`,
		`{"cards":[1,"2"]}`, `{"cards":[1.5]}`, `{"claim":"2"}`, `{"rank":1e300}`, `{"rank":true}`, `{"cards":{"length":3}}`} {
		if m, err := moveOf(bad); err == nil {
			t.Errorf("moveOf(%s) = %+v, taken", bad, m)
		}
	}
}
