package engine

import "fmt"

// Code names a refusal on the wire (../shared/REFEREE.md, "Replies").
type Code string

// The refusal codes, in the order the referee checks them.
const (
	CodeBadCommand    Code = "bad_command"
	CodeGameOver      Code = "game_over"
	CodeBadSeat       Code = "bad_seat"
	CodeBadCard       Code = "bad_card"
	CodeNotYourTurn   Code = "not_your_turn"
	CodeNotInHand     Code = "not_in_hand"
	CodeBadCount      Code = "bad_count"
	CodeBadRank       Code = "bad_rank"
	CodeNoWindow      Code = "no_window"
	CodeTooLate       Code = "too_late"
	CodeOwnPlay       Code = "own_play"
	CodeAlreadyPassed Code = "already_passed"
	CodeNotAllowed    Code = "not_allowed"
)

// A Refusal is the engine saying no: a code for the wire and a sentence a
// player can read. A refused command changes nothing.
type Refusal struct {
	Code Code
	Msg  string
}

func (r *Refusal) Error() string { return r.Msg }

// Is makes errors.Is match any refusal with the same code, so the sentinels
// below work however the sentence was worded.
func (r *Refusal) Is(target error) bool {
	t, ok := target.(*Refusal)
	return ok && t.Code == r.Code
}

func refuse(code Code, msg string) *Refusal { return &Refusal{Code: code, Msg: msg} }

func refusef(code Code, format string, args ...any) *Refusal {
	return &Refusal{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// The sentinel refusals; test with errors.Is(err, engine.ErrTooLate).
var (
	ErrBadCommand    = refuse(CodeBadCommand, "That isn't a command this table understands.")
	ErrGameOver      = refuse(CodeGameOver, "The game is over.")
	ErrBadSeat       = refuse(CodeBadSeat, "There is no such seat at this table.")
	ErrBadCard       = refuse(CodeBadCard, "That isn't a card.")
	ErrNotYourTurn   = refuse(CodeNotYourTurn, "It isn't your turn.")
	ErrNotInHand     = refuse(CodeNotInHand, "That card isn't in your hand.")
	ErrBadCount      = refuse(CodeBadCount, "That's the wrong number of cards.")
	ErrBadRank       = refuse(CodeBadRank, "You can't claim that rank now.")
	ErrNoWindow      = refuse(CodeNoWindow, "There's nothing to call right now.")
	ErrTooLate       = refuse(CodeTooLate, "Too late: that play was already settled.")
	ErrOwnPlay       = refuse(CodeOwnPlay, "You can't call your own play.")
	ErrAlreadyPassed = refuse(CodeAlreadyPassed, "You already let that play go.")
	ErrNotAllowed    = refuse(CodeNotAllowed, "This table's rules don't allow that.")
)

// CodeOf is the refusal code of err, or "" when err is not a refusal.
func CodeOf(err error) Code {
	if r, ok := err.(*Refusal); ok {
		return r.Code
	}
	return ""
}
