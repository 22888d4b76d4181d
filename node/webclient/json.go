package webclient

import (
	"strconv"
	"unicode/utf8"
)

// The page gets State and Preview as JSON, written here by hand: with
// encoding/json the page's download grows by a sixth (its encoder,
// decoder and the reflection they keep alive). The bytes are the ones
// encoding/json writes for the same value, field for field in the order
// of the struct and its tags; json_test.go holds the two to that.

// AppendJSON appends s as JSON.
func (s State) AppendJSON(b []byte) []byte {
	o := open(b)
	o.str("status", s.Status)
	o.str("table", s.Table)
	o.str("preset", s.Preset)
	o.str("host", s.Host)
	list(&o, "rules", s.Rules, stringJSON)
	o.str("phase", s.Phase)
	o.bool("paused", s.Paused)
	o.int("you", s.You)
	o.bool("watching", s.Watching)
	list(&o, "seats", s.Seats, Seat.AppendJSON)
	o.int("play", s.Play)
	o.int("turn", s.Turn)
	o.str("rank", s.Rank)
	o.str("next", s.Next)
	o.str("pile", s.Pile)
	optional(&o, "last", s.Last, Claim.AppendJSON)
	o.int64("leftMS", s.LeftMS)
	o.int64("windowMS", s.WindowMS)
	list(&o, "reveal", s.Reveal, stringJSON)
	o.int64("revealMS", s.RevealMS)
	o.bool("blind", s.Blind)
	o.str("shuffling", s.Shuffling)
	o.int("coming", s.Coming)
	list(&o, "hand", s.Hand, Card.AppendJSON)
	o.key("moves")
	o.b = s.Moves.AppendJSON(o.b)
	o.str("assist", s.Assist)
	o.str("hint", s.Hint)
	list(&o, "news", s.News, stringJSON)
	o.str("refusal", s.Refusal)
	optional(&o, "sheet", s.Sheet, Sheet.AppendJSON)
	o.int("record", s.Record)
	o.int("restored", s.Restored)
	o.str("node", s.Node)
	return o.close()
}

// AppendJSON appends s as JSON.
func (s Seat) AppendJSON(b []byte) []byte {
	o := open(b)
	o.int("no", s.No)
	o.str("name", s.Name)
	o.str("bot", s.Bot)
	o.bool("connected", s.Connected)
	o.bool("covered", s.Covered)
	o.bool("web", s.Web)
	o.str("runBy", s.RunBy)
	o.str("cards", s.Cards)
	o.bool("lastCard", s.LastCard)
	o.bool("turn", s.Turn)
	o.int("out", s.Out)
	o.bool("you", s.You)
	return o.close()
}

// AppendJSON appends c as JSON.
func (c Claim) AppendJSON(b []byte) []byte {
	o := open(b)
	o.int("seat", c.Seat)
	o.str("name", c.Name)
	o.str("text", c.Text)
	o.str("moved", c.Moved)
	list(&o, "shown", c.Shown, Card.AppendJSON)
	return o.close()
}

// AppendJSON appends c as JSON.
func (c Card) AppendJSON(b []byte) []byte {
	o := open(b)
	o.int("id", c.ID)
	o.str("label", c.Label)
	o.int("rank", c.Rank)
	o.bool("red", c.Red)
	o.bool("match", c.Match)
	return o.close()
}

// AppendJSON appends m as JSON.
func (m Moves) AppendJSON(b []byte) []byte {
	o := open(b)
	o.bool("play", m.Play)
	o.bool("call", m.Call)
	o.bool("judge", m.Judge)
	o.int("give", m.Give)
	list(&o, "quads", m.Quads, RankWord.AppendJSON)
	o.bool("choose", m.Choose)
	list(&o, "ranks", m.Ranks, RankWord.AppendJSON)
	optional(&o, "claim", m.Claim, RankWord.AppendJSON)
	o.int("sneak", m.Sneak)
	o.bool("countLies", m.CountLies)
	o.int("cap", m.Cap)
	list(&o, "giveAuto", m.GiveAuto, intJSON)
	o.str("verb", m.Verb)
	return o.close()
}

// AppendJSON appends r as JSON.
func (r RankWord) AppendJSON(b []byte) []byte {
	o := open(b)
	o.int("rank", r.Rank)
	o.str("one", r.One)
	o.str("many", r.Many)
	return o.close()
}

// AppendJSON appends s as JSON.
func (s Sheet) AppendJSON(b []byte) []byte {
	o := open(b)
	o.int("plays", s.Plays)
	list(&o, "rows", s.Rows, Row.AppendJSON)
	o.bool("verified", s.Verified)
	o.bool("checked", s.Checked)
	list(&o, "problems", s.Problems, stringJSON)
	o.bool("early", s.Early)
	o.str("summary", s.Summary)
	list(&o, "notes", s.Notes, stringJSON)
	optional(&o, "evening", s.Evening, Evening.AppendJSON)
	o.str("ratings", s.Ratings)
	o.str("next", s.Next)
	return o.close()
}

// AppendJSON appends e as JSON.
func (e Evening) AppendJSON(b []byte) []byte {
	o := open(b)
	o.int("games", e.Games)
	o.str("rule", e.Rule)
	list(&o, "lines", e.Lines, EveLine.AppendJSON)
	return o.close()
}

// AppendJSON appends l as JSON.
func (l EveLine) AppendJSON(b []byte) []byte {
	o := open(b)
	o.str("name", l.Name)
	o.bool("bot", l.Bot)
	o.str("points", l.Points)
	o.int("wins", l.Wins)
	o.int("games", l.Games)
	o.bool("you", l.You)
	return o.close()
}

// AppendJSON appends r as JSON.
func (r Row) AppendJSON(b []byte) []byte {
	o := open(b)
	o.int("place", r.Place)
	o.str("name", r.Name)
	o.int("cards", r.Cards)
	o.int("sneaked", r.Sneaked)
	o.int("caught", r.Caught)
	o.str("calls", r.Calls)
	o.bool("you", r.You)
	return o.close()
}

// AppendJSON appends p as JSON.
func (p Preview) AppendJSON(b []byte) []byte {
	o := open(b)
	o.str("label", p.Label)
	o.str("problem", p.Problem)
	o.str("shows", p.Shows)
	o.str("under", p.Under)
	return o.close()
}

// object writes one JSON object's members.
type object struct {
	b    []byte
	more bool // a member was written: the next needs a comma
}

func open(b []byte) object { return object{b: append(b, '{')} }

func (o *object) close() []byte { return append(o.b, '}') }

// key writes a member's name; its value follows.
func (o *object) key(k string) {
	if o.more {
		o.b = append(o.b, ',')
	}
	o.more = true
	o.b = appendString(o.b, k)
	o.b = append(o.b, ':')
}

func (o *object) str(k, v string) { o.key(k); o.b = appendString(o.b, v) }

func (o *object) int(k string, v int) { o.int64(k, int64(v)) }

func (o *object) int64(k string, v int64) { o.key(k); o.b = strconv.AppendInt(o.b, v, 10) }

// list writes member k, xs as an array (appendList); a function, as a
// method can't take a type parameter.
func list[T any](o *object, k string, xs []T, f func(T, []byte) []byte) {
	o.key(k)
	o.b = appendList(o.b, xs, f)
}

// optional writes member k, *p or null (appendPtr).
func optional[T any](o *object, k string, p *T, f func(T, []byte) []byte) {
	o.key(k)
	o.b = appendPtr(o.b, p, f)
}

func (o *object) bool(k string, v bool) { o.key(k); o.b = strconv.AppendBool(o.b, v) }

func intJSON(v int, b []byte) []byte { return strconv.AppendInt(b, int64(v), 10) }

func stringJSON(s string, b []byte) []byte { return appendString(b, s) }

// appendList writes xs as an array, null when it is nil (as encoding/json
// does).
func appendList[T any](b []byte, xs []T, f func(T, []byte) []byte) []byte {
	if xs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = f(x, b)
	}
	return append(b, ']')
}

func appendPtr[T any](b []byte, p *T, f func(T, []byte) []byte) []byte {
	if p == nil {
		return append(b, "null"...)
	}
	return f(*p, b)
}

// appendString writes s as a JSON string with encoding/json's escapes:
// quotes, backslashes and control characters; <, > and & (HTML-safe);
// U+2028 and U+2029; invalid UTF-8 as U+FFFD.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= ' ' && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		} else if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		} else {
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
