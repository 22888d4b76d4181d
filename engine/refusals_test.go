package engine_test

import (
	"errors"
	"testing"

	"github.com/bullshit-game/bullshit/engine"
)

// TestRefusals covers every refusal code of REFEREE.md "Replies" and the
// order in which they apply where several fit: bad_command, game_over,
// bad_seat, bad_card, not_your_turn, not_in_hand, bad_count, bad_rank,
// too_late / no_window, own_play, already_passed, not_allowed. (The wire's
// own bad_command cases, such as a line that isn't JSON, are in the
// referee's tests.)
func TestRefusals(t *testing.T) {
	quadsOn := func(t testing.TB) *engine.Game {
		return table(t, rules(t, "standard", "quads", true), 0, "5C 5D 5H 5S AS", "2C 6C 6D 6H 6S", "3C")
	}
	quadsOff := func(t testing.TB) *engine.Game {
		return table(t, engine.Standard(), 0, "5C 5D 5H 5S AS", "2C 6C 6D 6H 6S", "3C")
	}
	won := func(t testing.TB) *engine.Game { return table(t, engine.Standard(), 0, "AS", "2C 2D", "3C") }
	next := func(t testing.TB) *engine.Game {
		return table(t, rules(t, "standard", "callers", "next"), 0, "AS AC", "2C 2D", "3C 3D")
	}
	free := func(t testing.TB) *engine.Game { return table(t, rules(t, "free"), 0, "AS AC 2D 3H 4S", "2C", "3C") }

	for _, g := range []struct {
		name  string
		setup func(t testing.TB) *engine.Game
		rows  []row
	}{
		{"each code", std3, []row{
			// One row a code, alone.
			{name: "bad_command", script: []string{"0 shout => bad_command"}},
			{name: "bad_seat", script: []string{"3 play AS => bad_seat"}},
			{name: "bad_card", script: []string{"0 play card=60 => bad_card"}},
			{name: "not_your_turn", script: []string{"1 play 2C => not_your_turn"}},
			{name: "not_in_hand", script: []string{"0 play 2C => not_in_hand"}},
			{name: "bad_count", script: []string{"0 play => bad_count"}},
			{name: "bad_rank", script: []string{"0 play AS rank=2 => bad_rank"}},
			{name: "no_window", script: []string{"1 call 1 => no_window"}},
			{name: "too_late", script: []string{"0 play AS", "tick 6", "1 call 1 => too_late"}},
			{name: "own_play", script: []string{"0 play AS", "0 call 1 => own_play"}},
			{name: "already_passed", script: []string{"0 play AS", "1 pass 1", "1 call 1 => already_passed"}},
			{name: "not_allowed", script: []string{"0 play AS", "1 doubt => not_allowed"}},
		}},
		{"game_over", won, []row{
			// After the end, game_over before anything but a bad command.
			{name: "game_over before bad_seat", script: []string{"0 play AS", "tick 6", "7 play 2C => game_over"}},
			{name: "game_over before bad_card", script: []string{"0 play AS", "tick 6", "1 play card=99 => game_over"}},
			{name: "game_over before not_your_turn", script: []string{"0 play AS", "tick 6", "2 play 3C => game_over"}},
			{name: "game_over before too_late", script: []string{"0 play AS", "tick 6", "1 call 1 => game_over"}},
			{name: "game_over before not_allowed", script: []string{"0 play AS", "tick 6", "1 skip => game_over"}},
			{name: "bad_command before game_over", script: []string{"0 play AS", "tick 6", "1 shout => bad_command"}},
		}},
		{"plays", std3, []row{
			// A play's checks, in order.
			{name: "bad_seat before bad_card", script: []string{"5 play card=99 => bad_seat"}},
			{name: "bad_card before not_your_turn", script: []string{"1 play card=99 => bad_card"}},
			{name: "not_your_turn before not_in_hand", script: []string{"1 play KH QH => not_your_turn"}},
			{name: "not_your_turn in a window before not_in_hand", script: []string{"0 play AS", "1 play AS => not_your_turn"}},
			{name: "not_in_hand before bad_count", script: []string{"0 play KH QH JH 10H 9H => not_in_hand"}},
			{name: "not_in_hand before bad_rank", script: []string{"0 play KH rank=K => not_in_hand"}},
			{name: "bad_count before bad_rank", script: []string{"0 play AS AC 2D 3H 4S rank=K => bad_count"}},
			{name: "claim bad_count before bad_rank", script: []string{"0 play AS claim=2 rank=K => bad_count"}},
		}},
		{"free ranks", free, []row{
			{name: "bad_count before a missing rank", script: []string{"0 play AS AC 2D 3H 4S => bad_count"}},
			{name: "missing rank", script: []string{"0 play AS => bad_rank"}},
		}},
		{"calls", std3, []row{
			// A call's checks, in order.
			{name: "bad_seat before no_window", script: []string{"4 call 1 => bad_seat"}},
			{name: "no_window for a play not made", script: []string{"0 play AS", "0 call 2 => no_window"}},
			{name: "too_late before own_play", script: []string{"0 play AS", "tick 6", "0 call 1 => too_late"}},
			{name: "too_late before already_passed", script: []string{"0 play AS", "1 pass 1", "2 pass 1", "1 call 1 => too_late"}},
			{name: "own_play before already_passed", script: []string{"0 play AS", "0 pass 1 => own_play", "0 pass 1 => own_play"}},
			{name: "believe in classic mode", script: []string{"0 play AS", "1 believe 5 => not_allowed"}},
		}},
		{"next only", next, []row{
			{name: "too_late before not_allowed", script: []string{"0 play AS", "1 pass 1", "2 call 1 => too_late"}},
			{name: "own_play before not_allowed", script: []string{"0 play AS", "0 call 1 => own_play"}},
			{name: "not_allowed", script: []string{"0 play AS", "2 call 1 => not_allowed"}},
		}},
		{"quads off", quadsOff, []row{
			// A move the table switches off is refused last.
			{name: "not_your_turn before not_allowed", script: []string{"1 quads 6C 6D 6H 6S => not_your_turn"}},
			{name: "not_in_hand before not_allowed", script: []string{"0 quads 6C 6D 6H 6S => not_in_hand"}},
			{name: "bad_count before not_allowed", script: []string{"0 quads 5C 5D 5H => bad_count"}},
			{name: "bad_rank before not_allowed", script: []string{"0 quads 5C 5D 5H AS => bad_rank"}},
			{name: "not_allowed", script: []string{"0 quads 5C 5D 5H 5S => not_allowed"}},
			{name: "bad_card before not_allowed", script: []string{"0 quads card=70 => bad_card"}},
		}},
		{"quads on", quadsOn, []row{
			{name: "lays", script: []string{"0 quads 5C 5D 5H 5S", "0 play AS"}},
		}},
		{"give", twist3, []row{
			// The hand-over's checks, in order.
			{name: "not_your_turn before not_in_hand", script: []string{"0 play AS AC 2D claim=2", "1 call 1", "2 give KS => not_your_turn"}},
			{name: "not_in_hand before bad_count", script: []string{"0 play AS AC 2D claim=2", "1 call 1", "1 give KS AS => not_in_hand"}},
			{name: "bad_count before too_late", script: []string{"0 play AS AC 2D claim=2", "1 call 1", "@13 1 give 2C 2H => bad_count"}},
			{name: "give with no hand-over", script: []string{"1 give 2C => not_your_turn"}},
		}},
		{"doubt mode", doubt3, []row{
			// V15 moves on their own table.
			{name: "not_your_turn before no_window", script: []string{"2 doubt => not_your_turn"}},
			{name: "no_window at a round's start", script: []string{"0 believe => no_window"}},
			{name: "no_window for a play not made", script: []string{"0 play AS rank=A", "1 doubt 2 => no_window"}},
			{name: "too_late for an earlier play", script: []string{"0 play AS rank=A", "1 play 2C", "2 doubt 1 => too_late"}},
			{name: "too_late for a round that ended", script: []string{"0 play AS rank=A", "1 skip", "2 skip", "0 doubt 1 => too_late"}},
			{name: "call not allowed", script: []string{"0 play AS rank=A", "1 call 1 => not_allowed"}},
			{name: "bad_seat before not_allowed", script: []string{"0 play AS rank=A", "8 call 1 => bad_seat"}},
		}},
	} {
		t.Run(g.name, func(t *testing.T) { rows(t, g.setup, g.rows) })
	}

	// The sentinels match by code, whatever the sentence; CodeOf reads it.
	_, err := std3(t).Play(0, 1, cards("2C"), 0, engine.NoRank)
	if !errors.Is(err, engine.ErrNotYourTurn) || errors.Is(err, engine.ErrTooLate) {
		t.Errorf("errors.Is: %v", err)
	}
	check(t, "CodeOf", engine.CodeOf(err), engine.CodeNotYourTurn)
	check(t, "CodeOf nil", engine.CodeOf(nil), engine.Code(""))
	check(t, "CodeOf other", engine.CodeOf(errors.New("x")), engine.Code(""))
	// Every sentinel reads as a sentence.
	for code, e := range sentinels {
		if engine.CodeOf(e) != code || e.Error() == "" {
			t.Errorf("sentinel %s: %v", code, e)
		}
	}
	check(t, "thirteen codes", len(sentinels), 13)
}
