// Package extbot runs a bot written in any language as a child process
// speaking JSON lines (REFEREE.md, "External bots"): wherever a bot name
// is taken, exec:PATH plays the seat with the program at PATH.
//
// The program is sent {"event": EVENT} for everything its seat may see and
// {"decide": VIEW, "moves": [...]} when its seat may act, and answers each
// decide with one command object ({"cmd":"play","cards":["AS"]}, seat left
// out or its own). A refused answer is sent back as the referee's refusal
// reply and the program may try once more; after that, or after a line that
// isn't JSON, or after the think time limit, the seat's fallback move is
// played (bot.Fallback). It lives in node, not engine, because it owns a
// child process, a pipe reader goroutine and a timer.
package extbot

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/bot"
)

// DefaultTimeout is how long a program may think over one decision when
// the name didn't come with a limit.
const DefaultTimeout = 5 * time.Second

// Stderr receives the programs' standard error; nil discards it. The
// simulator points it at its own, for people writing bots.
var Stderr io.Writer

// MaxLine is the longest answer read.
const MaxLine = 1 << 20

// Bot is an external program in a seat. It satisfies bot.Player and
// bot.Retrier; Close ends the program.
type Bot struct {
	path    string
	seat    int
	timeout time.Duration

	cmd   *exec.Cmd
	in    io.WriteCloser
	out   chan []byte // lines to send; a writer goroutine drains it
	lines chan []byte
	done  chan struct{}

	// ask holds a decision from its question to its answer (Act, Retry):
	// the program answers one at a time, and a table asks again off its
	// goroutine while the last answer is still on its way.
	ask    sync.Mutex
	asked  atomic.Int64 // Acts begun: one that waited behind a newer one is stale
	mu     sync.Mutex   // guards dead and out's closing (Close may come from elsewhere)
	dead   bool
	closed bool
	key    string
	tries  int
	owed   int // answers to decisions that timed out, which may still come
	// Fallbacks counts decisions that ended in the fallback move, and why.
	Fallbacks map[string]int
}

// New starts the program at path for seat; timeout (0: DefaultTimeout)
// bounds each decision.
func New(path string, seat int, timeout time.Duration) (*Bot, error) {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	c := exec.Command(path)
	in, err := c.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := c.StdoutPipe()
	if err != nil {
		return nil, err
	}
	c.Stderr = Stderr
	if err := c.Start(); err != nil {
		return nil, fmt.Errorf("extbot: can't start %s: %w", path, err)
	}
	b := &Bot{path: path, seat: seat, timeout: timeout, cmd: c, in: in, out: make(chan []byte, Backlog),
		lines: make(chan []byte, 64), done: make(chan struct{}), Fallbacks: map[string]int{}}
	go b.read(out)
	go b.write()
	return b, nil
}

// Backlog is how many lines may wait for a program that isn't reading
// before it is given up on: the table never waits on its pipe.
const Backlog = 4096

func (b *Bot) write() {
	w := bufio.NewWriter(b.in)
	for line := range b.out {
		w.Write(line)
		if len(b.out) == 0 {
			if w.Flush() != nil {
				break
			}
		}
	}
	b.in.Close()
	for range b.out {
	}
}

// read hands the program's lines over until it closes its output.
func (b *Bot) read(out io.Reader) {
	defer close(b.lines)
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64*1024), MaxLine)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		select {
		case b.lines <- append([]byte(nil), line...):
		case <-b.done:
			return
		}
	}
}

// Resolve makes the bot called name: exec:PATH runs PATH (with the default
// time limit), anything else is bot.New's.
func Resolve(name string, seat int, seed uint64) (bot.Player, error) {
	if path, ok := strings.CutPrefix(name, "exec:"); ok {
		if path == "" {
			return nil, errors.New("extbot: exec: needs a program's path, as in exec:./mybot.py")
		}
		return New(path, seat, DefaultTimeout)
	}
	return bot.New(name, seat, seed)
}

func (b *Bot) send(v any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.dead {
		return
	}
	j, err := json.Marshal(v)
	if err != nil {
		return
	}
	select {
	case b.out <- append(j, '\n'):
	default:
		b.dead = true // not reading: from now on its seat plays the fallback
		close(b.out)
	}
}

// Observe sends the event to the program.
func (b *Bot) Observe(e *engine.Event) {
	if e == nil || !e.VisibleTo(b.seat) {
		return
	}
	b.send(struct {
		Event engine.Event `json:"event"`
	}{*e})
}

// Moves are the commands the view's seat may send now; none when it has
// nothing to do.
func Moves(v *engine.View) []string {
	me := v.Seat
	if v.Phase == engine.PhaseOver || me < 0 || (v.Placed != nil && me < len(v.Placed) && v.Placed[me] != 0) {
		return nil
	}
	var m []string
	switch v.Phase {
	case engine.PhaseCall:
		if v.Window != nil && contains(v.Window.Callers, me) {
			m = append(m, "call", "pass")
		}
		if v.Rules.Rapid && v.Turn == me && len(v.Hand) > 0 && v.Last != nil && !v.Last.Out {
			m = append(m, "play")
		}
	case engine.PhaseGive:
		if v.Give != nil && v.Give.From == me {
			m = append(m, "give")
		}
	case engine.PhasePlay:
		if v.Turn == me && len(v.Hand) > 0 {
			m = append(m, "play")
			if v.Rules.Quads {
				m = append(m, "quads")
			}
			if v.Rules.Doubt && v.Round != nil && v.Last != nil {
				m = append(m, "doubt", "believe", "skip")
			}
		}
	}
	return m
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Act asks the program what to do. The answer took real time already, so
// think is 0 (the simulator, which has no clock, gives it the think time of
// a medium built-in bot: engine/sim, bot.ThinkAt). Asked twice over the
// same situation with no Retry between, the first answer must have been
// dropped: the fallback is played.
func (b *Bot) Act(v *engine.View) (engine.Command, time.Duration, bool) {
	n := b.asked.Add(1)
	b.ask.Lock()
	defer b.ask.Unlock()
	if b.asked.Load() != n {
		// The game moved on while this one waited for the last answer:
		// the newer decision is the one to ask.
		return engine.Command{}, 0, false
	}
	moves := Moves(v)
	if len(moves) == 0 {
		return engine.Command{}, 0, false
	}
	key := v.Situation()
	if key == b.key {
		return b.fallback(v, "asked again")
	}
	b.key, b.tries = key, 0
	b.drain()
	b.send(struct {
		Decide *engine.View `json:"decide"`
		Moves  []string     `json:"moves"`
	}{v, moves})
	cmd, ok := b.answer(v)
	if !ok {
		return b.fallback(v, "")
	}
	return cmd, 0, true
}

// Retry sends a refusal back and reads the program's second try; ok is
// false once it has had it (the table then plays the fallback).
func (b *Bot) Retry(v *engine.View, refusal error) (engine.Command, bool) {
	b.ask.Lock()
	defer b.ask.Unlock()
	if b.tries >= 2 {
		b.Fallbacks["refused"]++
		return engine.Command{}, false
	}
	b.refuse(refusal)
	cmd, ok := b.answer(v)
	if !ok {
		return engine.Command{}, false
	}
	return cmd, true
}

func (b *Bot) fallback(v *engine.View, why string) (engine.Command, time.Duration, bool) {
	if why != "" {
		b.Fallbacks[why]++
	}
	cmd, ok := bot.Fallback(v)
	return cmd, 0, ok
}

func (b *Bot) refuse(err error) {
	var r *engine.Refusal
	if !errors.As(err, &r) {
		r = &engine.Refusal{Code: engine.CodeBadCommand, Msg: err.Error()}
	}
	b.send(struct {
		OK    bool        `json:"ok"`
		Error engine.Code `json:"error"`
		Msg   string      `json:"message"`
	}{false, r.Code, r.Msg})
}

// drain drops lines left over from a decision that timed out.
func (b *Bot) drain() {
	for {
		select {
		case _, ok := <-b.lines:
			if !ok {
				return
			}
		default:
			return
		}
	}
}

// answer reads the program's command, allowing it one more line when the
// first is a command that can't be read (refused as the referee would).
func (b *Bot) answer(v *engine.View) (engine.Command, bool) {
	t := time.NewTimer(b.timeout)
	defer t.Stop()
	for b.tries < 2 {
		var line []byte
		select {
		case l, ok := <-b.lines:
			if !ok {
				b.Fallbacks["gone"]++
				return engine.Command{}, false
			}
			line = l
		case <-t.C:
			b.Fallbacks["slow"]++
			b.owed++
			return engine.Command{}, false
		}
		cmd, err := Parse(line, v)
		if b.owed > 0 && stale(cmd, err, v) {
			// The late answer to a decision that timed out.
			b.owed--
			continue
		}
		b.tries++
		if err == nil {
			return cmd, true
		}
		var r *engine.Refusal
		if !errors.As(err, &r) {
			b.Fallbacks["garbage"]++
			return engine.Command{}, false // not JSON: no second try
		}
		if b.tries < 2 {
			b.refuse(err)
		}
	}
	b.Fallbacks["refused"]++
	return engine.Command{}, false
}

// stale reports whether an answer can't be meant for this view: a move it
// may not make now, or a call or let-go of another play.
func stale(c engine.Command, err error, v *engine.View) bool {
	if err != nil {
		return false
	}
	ok := false
	for _, m := range Moves(v) {
		if m == c.Move.String() {
			ok = true
		}
	}
	if !ok {
		return true
	}
	return (c.Move == engine.MoveCall || c.Move == engine.MovePass) && v.Window != nil && c.No != v.Window.No
}

var moveNames = map[string]engine.Move{
	"play": engine.MovePlay, "call": engine.MoveCall, "pass": engine.MovePass, "give": engine.MoveGive,
	"quads": engine.MoveQuads, "doubt": engine.MoveDoubt, "believe": engine.MoveBelieve, "skip": engine.MoveSkip,
}

// Parse reads a program's answer as a command for the view's seat. A line
// that isn't a JSON object is a plain error; a command that can't be read
// is a *engine.Refusal with the referee's code. A missing "no" on a call
// or a let-go means the open window's play.
func Parse(line []byte, v *engine.View) (engine.Command, error) {
	var f struct {
		Cmd   *string  `json:"cmd"`
		Seat  *int     `json:"seat"`
		Cards []string `json:"cards"`
		Claim *int     `json:"claim"`
		Rank  *string  `json:"rank"`
		No    *int     `json:"no"`
	}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(line, &probe); err != nil || probe == nil {
		return engine.Command{}, fmt.Errorf("extbot: %q is not a JSON object", truncate(line))
	}
	bad := func(msg string) (engine.Command, error) {
		return engine.Command{}, &engine.Refusal{Code: engine.CodeBadCommand, Msg: msg}
	}
	if err := json.Unmarshal(line, &f); err != nil {
		return bad("A field has the wrong type: " + err.Error())
	}
	if f.Cmd == nil {
		return bad("The \"cmd\" field is missing.")
	}
	m, ok := moveNames[*f.Cmd]
	if !ok {
		return bad(fmt.Sprintf("There is no move %q.", *f.Cmd))
	}
	if f.Seat != nil && *f.Seat != v.Seat {
		return engine.Command{}, &engine.Refusal{Code: engine.CodeBadSeat, Msg: fmt.Sprintf("You play seat %d, not %d.", v.Seat, *f.Seat)}
	}
	c := engine.Command{Move: m, Seat: v.Seat, Rank: engine.NoRank}
	switch m {
	case engine.MovePlay, engine.MoveGive, engine.MoveQuads:
		if f.Cards == nil {
			return bad("The \"cards\" field is missing.")
		}
		cards, err := engine.ParseCards(f.Cards)
		if err != nil {
			return engine.Command{}, err
		}
		c.Cards = cards
	}
	if m == engine.MovePlay {
		if f.Claim != nil {
			c.Claim = max(*f.Claim, -1)
			if c.Claim == 0 {
				c.Claim = -1
			}
		}
		if f.Rank != nil {
			rk, ok := engine.ParseRank(*f.Rank)
			if !ok {
				return engine.Command{}, &engine.Refusal{Code: engine.CodeBadRank, Msg: fmt.Sprintf("%q isn't a rank.", *f.Rank)}
			}
			c.Rank = rk
		}
	}
	if f.No != nil {
		c.No = *f.No
	} else if (m == engine.MoveCall || m == engine.MovePass) && v.Window != nil {
		c.No = v.Window.No
	}
	return c, nil
}

func truncate(b []byte) string {
	if len(b) > 60 {
		return string(b[:60]) + "…"
	}
	return string(b)
}

// Close ends the program: its input is closed, and it is killed if it
// hasn't gone a second later.
func (b *Bot) Close() error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil
	}
	b.closed = true
	if !b.dead {
		b.dead = true
		close(b.out)
	}
	b.mu.Unlock()
	select {
	case <-b.done:
	default:
		close(b.done)
	}
	exited := make(chan error, 1)
	go func() { exited <- b.cmd.Wait() }()
	select {
	case <-exited:
	case <-time.After(time.Second):
		b.cmd.Process.Kill()
		<-exited
	}
	return nil
}

// Blocking tells a host that Act waits on another program (up to the
// think-time limit), so it must be asked off the table's own goroutine.
func (b *Bot) Blocking() bool { return true }
