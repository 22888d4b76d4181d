package cli

// The lines a headless seat prints, pinned: scripts and the end-to-end
// tests parse them, so a change to the printers shows here first. The
// games are recorded once from a live table (-record) into
// testdata/headless/*.rec.jsonl, and played back through the printer into
// the golden *.txt and *.jsonl (-update-headless rewrites those).

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/bot"
	"github.com/bullshit-game/bullshit/node/extbot"
	"github.com/bullshit-game/bullshit/node/table"
)

var (
	recordHeadless = flag.Bool("record", false, "record the games of testdata/headless again from live tables")
	updateHeadless = flag.Bool("update-headless", false, "rewrite the printed lines in testdata/headless")
)

// headlessGames are the recorded games: a preset each, so that most kinds
// of event are printed.
var headlessGames = []struct {
	name, preset string
	rules        []string
	seed         uint64
}{
	{"standard", "standard", []string{"window=1"}, 11},
	{"twist", "twist", []string{"window=1"}, 12},
	{"doubt", "doubt", []string{"window=1"}, 13},
}

// recordGame plays a table of three, the seat recorded a bot too, and
// keeps of each update what the printer reads, a line each.
func recordGame(t *testing.T, preset string, kv []string, seed uint64) []byte {
	rules, _ := engine.Preset(preset)
	for _, s := range kv {
		k, v, _ := strings.Cut(s, "=")
		if err := rules.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	tbl, err := table.NewTable(table.Settings{Name: "Golden", Rules: rules, Seats: 3, Bots: []string{"medium", "easy"}, Pace: "fast",
		Timing: table.Timing{Reveal: 10 * time.Millisecond}, Seed: seed}, "Host", anyBot, bot.Fallback)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Close()
	_, sess, err := tbl.Sit("hana", "Hana")
	if err != nil {
		t.Fatal(err)
	}
	if err := tbl.Start(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p, _ := anyBot("medium", 0, seed)
	var got []table.Update
	last, err := table.PlayBot(ctx, sess, p, bot.Fallback, "fast", func(u table.Update) { got = append(got, u) })
	if err != nil || last.View.Phase != engine.PhaseOver {
		t.Fatalf("the recorded game did not finish: %v", err)
	}
	var b bytes.Buffer
	var back []table.Update
	for i, u := range got {
		l, err := json.Marshal(recorded(u, i == len(got)-1))
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(l, '\n'))
		var r recUpdate
		if err := json.Unmarshal(l, &r); err != nil {
			t.Fatal(err)
		}
		back = append(back, r.update())
	}
	// The recording prints as the live game did.
	if live, rec := printGame(got), printGame(back); live != rec {
		t.Fatalf("the recording does not print as the live game did:\n%s", lineDiff(live, rec))
	}
	return b.Bytes()
}

// anyBot seats the engine's bots, as cmd/bullshit does.
func anyBot(name string, seat int, seed uint64) (table.Player, error) {
	return extbot.Resolve(name, seat, seed)
}

// recUpdate is what the printer reads of an update, as recorded: the
// rest is left out. The view only on the last, which the result reads.
type recUpdate struct {
	Events  []recEvent         `json:"events,omitempty"`
	You     int                `json:"you"`
	Seats   []string           `json:"seats"`
	Phase   table.TablePhase   `json:"phase"`
	Notice  string             `json:"notice,omitempty"`
	Refusal *engine.Refusal    `json:"refusal,omitempty"`
	Audit   *table.AuditResult `json:"audit,omitempty"`
	End     *recEnd            `json:"end,omitempty"`
}

// recEvent is an event as recorded, every field (the referee's JSON of an
// event leaves some out, and can't be read back).
type recEvent struct {
	Type    engine.EventType `json:"type"`
	To      []int            `json:"to"`
	Seat    int              `json:"seat"`
	Target  int              `json:"target"`
	No      int              `json:"no,omitempty"`
	Rank    engine.Rank      `json:"rank"`
	Claim   int              `json:"claim,omitempty"`
	Out     bool             `json:"out,omitempty"`
	Truth   bool             `json:"truth,omitempty"`
	Auto    bool             `json:"auto,omitempty"`
	Sneaked int              `json:"sneaked,omitempty"`
	Place   int              `json:"place,omitempty"`
	Count   engine.Count     `json:"count"`
	Cards   []engine.Card    `json:"cards"`
	Sizes   [4]engine.Count  `json:"sizes"` // hand before, after; pile before, after
	Counts  []engine.Count   `json:"counts"`
	Places  []int            `json:"places"`
	Hands   [][]engine.Card  `json:"hands"`
}

func recEvents(es []engine.Event) []recEvent {
	var out []recEvent
	for _, e := range es {
		z := e.Sizes
		out = append(out, recEvent{e.Type, e.To, e.Seat, e.Target, e.No, e.Rank, e.Claim, e.Out, e.Truth, e.Auto, e.Sneaked, e.Place,
			e.Count, e.Cards, [4]engine.Count{z.HandBefore, z.HandAfter, z.PileBefore, z.PileAfter}, e.Counts, e.Places, e.Hands})
	}
	return out
}

func (r recEvent) event() engine.Event {
	z := engine.Sizes{HandBefore: r.Sizes[0], HandAfter: r.Sizes[1], PileBefore: r.Sizes[2], PileAfter: r.Sizes[3]}
	return engine.Event{Type: r.Type, To: r.To, Seat: r.Seat, Target: r.Target, No: r.No, Rank: r.Rank, Claim: r.Claim, Out: r.Out,
		Truth: r.Truth, Auto: r.Auto, Sneaked: r.Sneaked, Place: r.Place, Count: r.Count, Cards: r.Cards, Sizes: z,
		Counts: r.Counts, Places: r.Places, Hands: r.Hands}
}

// recEnd is the last view's end of the game.
type recEnd struct {
	Over   bool          `json:"over"`
	No     int           `json:"no"`
	Places []int         `json:"places"`
	Winner *int          `json:"winner"`
	Final  *engine.Final `json:"final"`
}

func recorded(u table.Update, last bool) recUpdate {
	r := recUpdate{Events: recEvents(u.Events), You: u.Table.You, Phase: u.Table.Phase, Notice: u.Notice, Refusal: u.Refusal, Audit: u.Audit}
	for _, s := range u.Table.Seats {
		r.Seats = append(r.Seats, s.Name)
	}
	if last {
		r.End = &recEnd{u.View.Phase == engine.PhaseOver, u.View.No, u.View.Places, u.View.Winner, u.View.Final}
	}
	return r
}

func (r recUpdate) update() table.Update {
	u := table.Update{Notice: r.Notice, Refusal: r.Refusal, Audit: r.Audit}
	u.Table.You, u.Table.Phase = r.You, r.Phase
	for _, e := range r.Events {
		u.Events = append(u.Events, e.event())
	}
	for _, s := range r.Seats {
		u.Table.Seats = append(u.Table.Seats, table.SeatInfo{Name: s})
	}
	if e := r.End; e != nil {
		u.View.No, u.View.Places, u.View.Winner, u.View.Final = e.No, e.Places, e.Winner, e.Final
		if e.Over {
			u.View.Phase = engine.PhaseOver
		}
	}
	return u
}

// playBack prints a recorded game as a headless seat does, and then the
// lines around a game: the host's head, a notice, a refusal and each way
// a game may end unfinished.
func playBack(p Printer, ups []table.Update) {
	addrs := []string{"/ip4/127.0.0.1/tcp/4001/p2p/x", "/ip4/10.0.0.1/tcp/4001/p2p/x"}
	p.Table(HostLine{ID: "t1", Name: "Golden", Seats: 3, Nick: "Hana", Sit: true, Addrs: addrs, Code: "482913",
		Web: "http://10.0.0.1:8080", Words: "maple-otter-lunar"})
	p.Table(HostLine{ID: "t1", Name: "Golden", Seats: 3, Nick: "Hana", Addrs: addrs[:1],
		WebErr: errors.New("listen tcp :8080: address already in use"), Words: "maple-otter-lunar"})
	p.Table(HostLine{ID: "t1", Resumed: "/tmp/golden.journal", Addrs: addrs, Words: "maple-otter-lunar"})
	p.Seated(0)
	p.Seated(-1)
	p.Dealing(3)
	for _, u := range ups {
		p.Update(u)
	}
	last := ups[len(ups)-1]
	p.Result(last, 0, "")
	p.Result(last, 1, "")
	// The events the recorded games lack, and one of a kind no printer
	// knows.
	seven, _ := engine.ParseRank("7")
	quads, _ := engine.ParseCards([]string{"7C", "7D", "7H", "7S"})
	p.Update(table.Update{Table: last.Table, Events: []engine.Event{
		{Type: engine.EventQuads, Seat: 1, Rank: seven, Cards: quads}, {Type: engine.EventQuads, Seat: 0, Rank: seven, Cards: quads},
		{Type: engine.EventOut, Seat: 0, Place: 1}, {Type: engine.EventOut, Seat: 2, Place: 2},
		{Type: engine.EventSkip, Seat: 0, No: 4}, {Type: engine.EventSkip, Seat: 1, No: 4},
		{Type: engine.EventResume, No: 5}, {Type: engine.EventOver, Seat: -1},
		{Type: engine.EventGive, Seat: 1, Target: 0, Auto: true}, {Type: "mystery", Seat: 1, No: 3},
	}})
	p.Update(table.Update{Notice: "Host left; Ada is now hosting", Refusal: &engine.Refusal{Code: "not-your-turn", Msg: "it is not your turn"}})
	// Unfinished: the table closed, a signal before and during the game,
	// and a host that ended its game early on its way out.
	mid := table.Update{Table: last.Table}
	mid.View.No = 7
	mid.Table.Phase = table.PhasePlaying
	p.Result(mid, 0, "")
	p.Result(table.Update{}, -1, "SIGTERM")
	p.Result(mid, 0, "SIGINT")
	early := mid
	early.Audit = &table.AuditResult{Verified: true, Early: true, Plays: 7}
	p.Result(early, 0, "SIGTERM")
	early.Audit = &table.AuditResult{Early: true, Plays: 7, Problems: []string{"play 3 is not the card dealt"}}
	p.Result(early, 0, "")
	bad := last
	bad.Audit = &table.AuditResult{Problems: []string{"the seed does not match", "play 2 differs"}}
	p.Result(bad, 0, "")
	// A blind table's audit names a cheating node in its notes.
	noted := last
	noted.Audit = &table.AuditResult{Verified: true, Notes: []string{"Rook's node turned a play up falsely (a share in it doesn't prove itself): caught, and the play went against its player."}}
	p.Result(noted, 0, "")
	bad.Audit = nil
	p.Result(bad, 2, "")
}

// printGame is a game's updates and result printed, as text and as JSON.
func printGame(ups []table.Update) string {
	var out bytes.Buffer
	for _, js := range []bool{false, true} {
		p := Printer{&out, js}
		for _, u := range ups {
			p.Update(u)
		}
		p.Result(ups[len(ups)-1], 0, "")
	}
	return out.String()
}

func TestHeadlessGolden(t *testing.T) {
	dir := filepath.Join("testdata", "headless")
	for _, g := range headlessGames {
		t.Run(g.name, func(t *testing.T) {
			rec := filepath.Join(dir, g.name+".rec.jsonl")
			if *recordHeadless {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(rec, recordGame(t, g.preset, g.rules, g.seed), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			b, err := os.ReadFile(rec)
			if err != nil {
				t.Fatal(err)
			}
			var ups []table.Update
			for l := range bytes.Lines(b) {
				var r recUpdate
				if err := json.Unmarshal(l, &r); err != nil {
					t.Fatal(err)
				}
				ups = append(ups, r.update())
			}
			if len(ups) == 0 {
				t.Fatal("an empty recording")
			}
			for _, js := range []bool{false, true} {
				var out bytes.Buffer
				playBack(Printer{&out, js}, ups)
				golden := filepath.Join(dir, g.name+map[bool]string{false: ".txt", true: ".jsonl"}[js])
				if *updateHeadless || *recordHeadless {
					if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(out.Bytes(), want) {
					t.Errorf("%s: the printed lines changed (-update-headless rewrites them if they should):\n%s", golden, lineDiff(string(want), out.String()))
				}
			}
		})
	}
}

// lineDiff is the first line where got and want part.
func lineDiff(want, got string) string {
	w, g := bytes.Split([]byte(want), []byte("\n")), bytes.Split([]byte(got), []byte("\n"))
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b []byte
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if !bytes.Equal(a, b) {
			return "line " + strconv.Itoa(i+1) + ":\nwant " + string(a) + "\n got " + string(b)
		}
	}
	return "(same lines)"
}

// The host's first line names the table and the seat's nickname apart:
// `host --name Hal` sat as "Player" with nothing to say so.
func TestHostingHeadSaysTableAndNick(t *testing.T) {
	if got := hostingHead("Hal", 4, "Player", true); got != `Hosting "Hal" (4 seats); you sit as "Player" (--nick sets it)` {
		t.Errorf("head %q", got)
	}
	if got := hostingHead("Den", 3, "Hal", false); !strings.Contains(got, "you don't sit") {
		t.Errorf("head %q", got)
	}
}

// The host's screen names its words, as the lobby will show them.
func TestHostTextShowsItsWords(t *testing.T) {
	txt := tableText(`Hosting "kitchen" (4 seats)`, []string{"/ip4/10.0.0.1/tcp/4001/p2p/x"}, "482913", "maple-otter-lunar")
	if !strings.Contains(txt, "host's words: maple-otter-lunar") {
		t.Errorf("host text lacks its words:\n%s", txt)
	}
}
