package gamewire

import (
	"strings"
	"testing"
)

// MustMix: every person's node but the dealer's, and the checking seat
// itself whatever the host calls it.
func TestMustMix(t *testing.T) {
	seats := []TossSeat{{Name: "Hosty", Peer: "h"}, {Name: "Ben", Peer: "b"}, {Name: "bot", Bot: true}, {Name: "Cleo", Peer: "c", Bot: true}}
	for _, c := range []struct {
		name string
		self int
		want []string
	}{
		{"a spectator", -1, []string{"", "Ben", "", ""}},
		{"Ben himself", 1, []string{"", "Ben", "", ""}},
		{"Cleo, whom the host calls a bot", 3, []string{"", "Ben", "", "Cleo"}},
	} {
		got := MustMix(seats, "h", c.self)
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// A deal that mixed no nonce of a seat it must is not verified: never
// asked, called too late, or another seat's left out, whatever the host
// says; a seat that isn't a player's node may go without.
func TestTossMustMixEveryPlayer(t *testing.T) {
	var round [32]byte
	round[3] = 9
	n1 := [NonceSize]byte{1}
	players := []string{"", "Ben", "Cleo"}
	commits := [][32]byte{{}, NonceHash(round, 1, n1), {}}
	for _, c := range []struct {
		name string
		seat int
		toss Toss
		want string // "" for no problem
	}{
		{"never asked", 1, Toss{Players: players, Nonces: nil}, "took no part in the deal's toss"},
		{"never asked, a nonce made up for it", 1, Toss{Players: players, Nonces: [][NonceSize]byte{{}, {7}, {8}}}, "took no part in the deal's toss"},
		{"called too late", 1, Toss{Round: round, Players: players}, "this seat's nonce wasn't part of the deal"},
		{"another seat left out", 1, Toss{Round: round, Commits: commits, Nonces: [][NonceSize]byte{{}, n1, {}}, Mine: n1, Revealed: true, Players: players},
			"didn't mix the nonce of Cleo (seat 3)"},
		{"a spectator", -1, Toss{Nonces: [][NonceSize]byte{{}, n1, {}}, Players: players}, "didn't mix the nonce of Cleo (seat 3)"},
		{"every player's nonce", 1, Toss{Round: round, Commits: commits, Nonces: [][NonceSize]byte{{}, n1, {}}, Mine: n1, Revealed: true,
			Players: []string{"", "Ben", ""}}, ""},
		{"a record from before the rule", 1, Toss{}, ""},
	} {
		p, _ := checkToss(round, 3, c.seat, c.toss)
		got := strings.Join(p, " | ")
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: problems %q, want %q", c.name, got, c.want)
		}
	}
}
