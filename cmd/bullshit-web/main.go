//go:build js && wasm

// Command bullshit-web is the player in a phone's browser: the page's Go
// half, compiled to WebAssembly and served by every node with its web
// entry on (node/webui embeds it). It keeps the player's key in
// localStorage, so a reload is the same player and gets its seat back,
// keeps the player's record of the deal in sessionStorage, so the audit
// after a reload still covers what the phone was shown before it
// (node/webclient/persist.go), and at a blind table its deck secret
// there too, so that a reload is the same party of the deck
// (node/webclient/blind.go), remembers the nickname, and bridges
// node/webclient to the page's JavaScript through one global object:
//
//	bullshit.me()                     the player's peer ID
//	bullshit.nick()                   the remembered nickname
//	bullshit.join(addr, nick, code, watch)   joins; errors come to onError
//	bullshit.move(json)               a webclient.Move; "" or why not
//	bullshit.preview(json)            a webclient.Preview, as JSON
//	bullshit.soonest(bool)            lay the hand out soonest-asked first
//	bullshit.state()                  the state now, as JSON
//	bullshit.rename(nick)             sits on under another name, in the waiting room: "" or why not;
//	                                  the table's refusal comes to onRenamed
//	bullshit.leave()
//	bullshit.save()                   writes the record to the tab's storage now
//	bullshit.onState = fn(json)       set by the page: every change
//	bullshit.onError = fn(text)       set by the page: a join that failed
//	bullshit.onRenamed = fn(text)     set by the page: a rename done ("") or refused (why)
package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"runtime/debug"
	"strings"
	"sync"
	"syscall/js"
	"time"

	"github.com/bullshit-game/bullshit/node/webclient"
	"github.com/bullshit-game/bullshit/node/webwire/jsthrow"
	"github.com/bullshit-game/bullshit/protocol"
)

const (
	keyItem  = "bullshit.key"
	nickItem = "bullshit.nick"
	// codeTableItem (in the tab's sessionStorage) is the table the tab's
	// join code was proved by: webclient.Config.CodeTable.
	codeTableItem = "bullshit.codeTable"
)

func storage() js.Value { return js.Global().Get("localStorage") }

func getItem(k string) string {
	v := storage().Call("getItem", k)
	if v.IsNull() || v.IsUndefined() {
		return ""
	}
	return v.String()
}

// session is the tab's sessionStorage as the client's Store: it lives as
// long as the tab, through reloads.
type session struct{}

func (session) Get(k string) string {
	v := js.Global().Get("sessionStorage").Call("getItem", k)
	if v.IsNull() || v.IsUndefined() {
		return ""
	}
	return v.String()
}

func (session) Set(k, v string) (err error) {
	// setItem throws when the storage is full.
	defer jsthrow.Catch(&err)
	js.Global().Get("sessionStorage").Call("setItem", k, v)
	return nil
}

func (session) Remove(k string) { js.Global().Get("sessionStorage").Call("removeItem", k) }

// gcLess lets the heap grow to five times what is live before the next
// collection, not twice: a collection costs the page's one thread 5–9 ms
// (measured in Chromium: 3 in a 50-play game, 14–27 ms in all), in the
// middle of whatever message it falls on, and a page holds one table's
// game in a few MB: the phone pays up to ~12 MB more memory, and the
// same game ran with no collection at all.
func gcLess() { debug.SetGCPercent(400) }

// key is the player's identity, made once and kept.
func key() ed25519.PrivateKey {
	if b, err := hex.DecodeString(getItem(keyItem)); err == nil && len(b) == ed25519.SeedSize {
		return ed25519.NewKeyFromSeed(b)
	}
	seed := make([]byte, ed25519.SeedSize)
	rand.Read(seed)
	storage().Call("setItem", keyItem, hex.EncodeToString(seed))
	return ed25519.NewKeyFromSeed(seed)
}

func main() {
	gcLess()
	p := &page{key: key(), api: js.Global().Get("Object").New(), kick: make(chan struct{}, 1)}
	go p.drawLoop()
	p.bind()
	js.Global().Set("bullshit", p.api)
	if f := js.Global().Get("bullshitReady"); f.Type() == js.TypeFunction {
		f.Invoke()
	}
	select {}
}

// page is the bridge between the client and the page's JavaScript: the
// player's key, the client at the table (nil before the first join), and
// the one object the page calls (bullshit) and is called back on.
type page struct {
	key  ed25519.PrivateKey
	api  js.Value
	kick chan struct{} // a change to draw; at most one pending

	mu sync.Mutex
	c  *webclient.Client
	// at is how the client sat: a rename sits again so, under its new name.
	at joined
}

// joined is a join's address, code and whether it watches.
type joined struct {
	addr, code string
	watch      bool
}

// call calls the page's function name, if it set one.
func (p *page) call(name string, args ...any) {
	if f := p.api.Get(name); f.Type() == js.TypeFunction {
		f.Invoke(args...)
	}
}

func (p *page) current() *webclient.Client {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.c
}

func (p *page) stateJSON() string {
	cl := p.current()
	if cl == nil {
		return "null"
	}
	return string(cl.State().AppendJSON(nil))
}

// Changes come from the client's goroutine; the page hears them
// coalesced, at most one pending: changes that come while the page draws
// one state are drawn together next, at once (a pause here was up to 10
// ms on every verdict). The record is written to the tab's storage after
// the drawing (DeferSave), in the same turn of the page's event loop, so
// a reload can't come between the two.
func (p *page) drawLoop() {
	for range p.kick {
		p.call("onState", p.stateJSON())
		if cl := p.current(); cl != nil {
			cl.Save()
		}
	}
}

func (p *page) onChange() {
	select {
	case p.kick <- struct{}{}:
	default:
	}
}

// bind sets the functions the page calls (the package comment lists them).
func (p *page) bind() {
	p.api.Set("me", fn(func([]js.Value) any { return webclient.PeerOf(p.key.Public().(ed25519.PublicKey)) }))
	p.api.Set("nick", fn(func([]js.Value) any { return getItem(nickItem) }))
	p.api.Set("join", fn(p.join))
	p.api.Set("move", p.withClient(func(cl *webclient.Client, args []js.Value) any {
		m, err := moveOf(str(arg(args, 0)))
		if err != nil {
			return err.Error()
		}
		go func() {
			if err := cl.Do(m); err != nil {
				p.call("onError", protocol.Sentence(err))
			}
		}()
		return ""
	}))
	p.api.Set("preview", p.withClient(func(cl *webclient.Client, args []js.Value) any {
		m, _ := moveOf(str(arg(args, 0)))
		return string(cl.Preview(m).AppendJSON(nil))
	}))
	p.api.Set("soonest", p.withClient(func(cl *webclient.Client, args []js.Value) any {
		cl.SetSoonest(arg(args, 0).Truthy())
		return nil
	}))
	p.api.Set("state", fn(func([]js.Value) any { return p.stateJSON() }))
	p.api.Set("save", p.withClient(func(cl *webclient.Client, _ []js.Value) any {
		cl.Save()
		return nil
	}))
	p.api.Set("rename", p.withClient(func(cl *webclient.Client, args []js.Value) any {
		nick := strings.TrimSpace(str(arg(args, 0)))
		if err := protocol.CheckNick(nick); err != nil {
			return err.Error()
		}
		if nick == getItem(nickItem) {
			return "That is your name already."
		}
		if cl.State().Phase != "waiting" {
			return RenameLater
		}
		p.mu.Lock()
		at := p.at
		p.mu.Unlock()
		p.sit(at, nick, "onRenamed", cl.Signer())
		return ""
	}))
	p.api.Set("leave", p.withClient(func(cl *webclient.Client, _ []js.Value) any {
		go cl.Close()
		return nil
	}))
}

// RenameLater is the page's answer to a rename once the game is on.
const RenameLater = "You can change your name in the waiting room, before the deal."

// join is bullshit.join(addr, nick, code, watch): it returns at once, and
// the client, once seated, replaces the one before.
func (p *page) join(args []js.Value) any {
	at := joined{addr: str(arg(args, 0)), code: str(arg(args, 2)), watch: arg(args, 3).Truthy()}
	var signer *protocol.Signer
	if cl := p.current(); cl != nil {
		signer = cl.Signer() // the client at the table now goes on until this one sits
	}
	p.sit(at, str(arg(args, 1)), "onError", signer)
	return nil
}

// sit joins as at says under nick, in the background: the new client,
// once seated, replaces the one before, and its nick is remembered; a
// failure is said to the page's function onErr (a rename's goes to
// onRenamed, which hears "" once it is done). The same key sits again at
// its own seat, so a rename is this hello under another name: the host
// checks the name as it checks a newcomer's, and a refusal leaves the
// client before seated as it was. signer is the client's at the table
// now, if any: the two number their messages as one.
func (p *page) sit(at joined, nick, onErr string, signer *protocol.Signer) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
		defer cancel()
		cl, err := webclient.Join(ctx, webclient.Config{Key: p.key, Nick: nick, Code: at.code, CodeTable: session{}.Get(codeTableItem),
			Watch: at.watch, Addr: at.addr, OnChange: p.onChange, Store: session{}, DeferSave: true, CheckLater: nextTurn,
			Signer: signer})
		if err != nil {
			p.call(onErr, err.Error())
			return
		}
		storage().Call("setItem", nickItem, nick)
		if at.code != "" {
			session{}.Set(codeTableItem, cl.Table())
		}
		p.mu.Lock()
		old := p.c
		p.c, p.at = cl, at
		p.mu.Unlock()
		if old != nil {
			old.Save()
			old.Close()
		}
		if onErr == "onRenamed" {
			p.call("onRenamed", "")
		}
		p.onChange()
	}()
}

// nextTurn returns in a later turn of the page's event loop (a
// setTimeout) than the one it is called in. A change handed to onChange
// before the call is drawn in this turn (drawLoop runs before the turn
// ends), so the client's checks that wait for nextTurn come after the
// drawing, and the browser may paint between the two.
func nextTurn() {
	done := make(chan struct{})
	var f js.Func
	f = js.FuncOf(func(js.Value, []js.Value) any {
		f.Release()
		close(done)
		return nil
	})
	js.Global().Call("setTimeout", f)
	<-done
}

// withClient is f as a page function, given the client at the table;
// "Not at a table." before any.
func (p *page) withClient(f func(*webclient.Client, []js.Value) any) js.Func {
	return fn(func(args []js.Value) any {
		cl := p.current()
		if cl == nil {
			return "Not at a table."
		}
		return f(cl, args)
	})
}

func fn(f func(args []js.Value) any) js.Func {
	return js.FuncOf(func(_ js.Value, args []js.Value) any { return f(args) })
}

// arg is args[i], undefined past the end.
func arg(args []js.Value, i int) js.Value {
	if i < len(args) {
		return args[i]
	}
	return js.Undefined()
}

// str is v when it is a string, "" otherwise.
func str(v js.Value) string {
	if v.Type() == js.TypeString {
		return v.String()
	}
	return ""
}

// moveOf reads a webclient.Move the page wrote as JSON
// ({"kind":"play","cards":[3,17],"claim":0,"rank":-1}) with the browser's
// own JSON.parse: encoding/json would be a sixth of the page's download.
// A field missing or null stays zero; one of the wrong type is an error.
func moveOf(s string) (m webclient.Move, err error) {
	// JSON.parse throws on what isn't JSON.
	defer jsthrow.Catch(&err)
	v := js.Global().Get("JSON").Call("parse", s)
	if absent(v) {
		return m, nil
	}
	if v.Type() != js.TypeObject || js.Global().Get("Array").Call("isArray", v).Bool() {
		return m, errors.New("a move is a JSON object")
	}
	if k := v.Get("kind"); !absent(k) {
		if k.Type() != js.TypeString {
			return m, errors.New("a move's kind is a string")
		}
		m.Kind = k.String()
	}
	if cs := v.Get("cards"); !absent(cs) {
		if !js.Global().Get("Array").Call("isArray", cs).Bool() {
			return m, errors.New("a move's cards are an array")
		}
		m.Cards = make([]int, cs.Length())
		for i := range m.Cards {
			if m.Cards[i], err = intOf(cs.Index(i), "card"); err != nil {
				return m, err
			}
		}
	}
	if m.Claim, err = intOf(v.Get("claim"), "claim"); err != nil {
		return m, err
	}
	m.Rank, err = intOf(v.Get("rank"), "rank")
	return m, err
}

func absent(v js.Value) bool { return v.IsNull() || v.IsUndefined() }

// intOf is v as an int: a whole number in range, or 0 when absent.
func intOf(v js.Value, what string) (int, error) {
	if absent(v) {
		return 0, nil
	}
	if v.Type() != js.TypeNumber {
		return 0, errors.New("a move's " + what + " is a number")
	}
	f := v.Float()
	if f < -1<<53 || f > 1<<53 || f != float64(int(f)) {
		return 0, errors.New("a move's " + what + " is a whole number")
	}
	return int(f), nil
}
