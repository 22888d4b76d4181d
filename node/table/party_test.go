package table

import (
	"testing"

	"github.com/bullshit-game/bullshit/protocol"
)

// A question put to a party that closes before it gets to it (Blind,
// HandNow, Knowledge: a bot asking as its node leaves the table) is never
// run later: the caller has stopped waiting, and what the question wrote
// then raced with the caller's read (the race detector caught it in
// TestBlindSecondNodeGone).
func TestPartyClosedBeforeItAnswers(t *testing.T) {
	p := NewParty(func() protocol.PeerID { return "" }, NewMailbox(), nil, nil, nil)
	release := make(chan struct{})
	p.post(func() { <-release }) // the party busy
	ran := make(chan struct{}, 1)
	answered := make(chan bool)
	go func() { answered <- p.do(func() { ran <- struct{}{} }) }()
	p.Close()
	if <-answered {
		t.Fatal("do says the party answered, and it was busy till after it closed")
	}
	drained := make(chan struct{})
	p.post(func() { close(drained) })
	close(release)
	<-drained // the party has gone through everything put to it
	select {
	case <-ran:
		t.Fatal("the question ran after the caller stopped waiting for it")
	default:
	}
}
