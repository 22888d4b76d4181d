package node

import (
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/protocol"
)

// The protocol keeps its own plain wire types; package gamewire converts
// between them and the engine's (a browser player uses it too). These are
// its names here.

func wireCount(c engine.Count) protocol.Count                          { return gamewire.WireCount(c) }
func engCount(c protocol.Count) engine.Count                           { return gamewire.EngCount(c) }
func wireCards(cs []engine.Card) []protocol.Card                       { return gamewire.WireCards(cs) }
func engCards(cs []protocol.Card) []engine.Card                        { return gamewire.EngCards(cs) }
func wireCounts(cs []engine.Count) []protocol.Count                    { return gamewire.WireCounts(cs) }
func engCounts(cs []protocol.Count) []engine.Count                     { return gamewire.EngCounts(cs) }
func wireSizes(s engine.Sizes) protocol.Sizes                          { return gamewire.WireSizes(s) }
func engSizes(s protocol.Sizes) engine.Sizes                           { return gamewire.EngSizes(s) }
func wireHands(hs [][]engine.Card) [][]protocol.Card                   { return gamewire.WireHands(hs) }
func engHands(hs [][]protocol.Card) [][]engine.Card                    { return gamewire.EngHands(hs) }
func ms(d time.Duration) int64                                         { return gamewire.MS(d) }
func fromMS(n int64) time.Duration                                     { return gamewire.FromMS(n) }
func secs(d engine.Seconds) int64                                      { return gamewire.Secs(d) }
func fromSecs(n int64) engine.Seconds                                  { return gamewire.FromSecs(n) }
func wireEvent(e *engine.Event) protocol.Event                         { return gamewire.WireEvent(e) }
func engEvent(e protocol.Event) engine.Event                           { return gamewire.EngEvent(e) }
func wireView(v *engine.View) *protocol.View                           { return gamewire.WireView(v) }
func engView(w *protocol.View, rules engine.Rules) engine.View         { return gamewire.EngView(w, rules) }
func wireMove(c engine.Command, seat int) protocol.Message             { return gamewire.WireMove(c, seat) }
func engMove(m protocol.Message) (c engine.Command, seat int, ok bool) { return gamewire.EngMove(m) }

// engRefusal is the host's "no" as the engine's: the code as it came (the
// engine's and the protocol's codes are one set, refusal_test.go), the
// sentence cleaned for a screen.
func engRefusal(m protocol.Refusal) *engine.Refusal {
	return &engine.Refusal{Code: engine.Code(m.Code), Msg: protocol.Clean(m.Message, protocol.MaxText)}
}
