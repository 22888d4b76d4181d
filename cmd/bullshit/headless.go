package main

// host and join: a table and its players without a screen, for scripts,
// tests and servers. Each prints what its seat sees, one line per event
// (JSON with --json), and plays its seat as a bot.

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	ma "github.com/multiformats/go-multiaddr"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/bot"
	"github.com/bullshit-game/bullshit/node"
	"github.com/bullshit-game/bullshit/node/extbot"
)

func init() {
	commands["host"] = runHost
	commands["join"] = runJoin
}

// rulesFlag collects repeated --rules key=value.
type rulesFlag []string

func (r *rulesFlag) String() string     { return strings.Join(*r, ",") }
func (r *rulesFlag) Set(s string) error { *r = append(*r, s); return nil }

// netFlags are what host and join share.
type netFlags struct {
	dir, name, iface, listen string
	noMDNS, json             bool
	botName                  string
}

func (n *netFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&n.dir, "config", "", "profile `dir` (identity key and nickname; default: the user config dir's bullshit/)")
	fs.StringVar(&n.name, "nick", "", "nickname at the table (default: the profile's)")
	fs.StringVar(&n.iface, "iface", "", "LAN `interface` to use (default: guess)")
	fs.StringVar(&n.listen, "listen", "", "listen `multiaddr` instead of the LAN interface (e.g. /ip4/127.0.0.1/tcp/0)")
	fs.BoolVar(&n.noMDNS, "no-mdns", false, "don't advertise or browse by mDNS (join by address)")
	fs.BoolVar(&n.json, "json", false, "print one JSON object per line")
	fs.StringVar(&n.botName, "bot", "medium", "the bot that plays this seat: "+strings.Join(bot.Names, ", ")+", LEVEL/STYLE or exec:PATH")
}

func (n *netFlags) device(ctx context.Context) (*node.Device, error) {
	dir := n.dir
	if dir == "" {
		var err error
		if dir, err = node.DefaultDir(); err != nil {
			return nil, err
		}
	}
	prof, err := node.LoadProfile(dir)
	if err != nil {
		return nil, err
	}
	nick := n.name
	if nick == "" {
		nick = prof.Nickname
	}
	if nick == "" {
		nick = "Player"
	}
	cfg := node.DeviceConfig{Key: prof.Key, Name: nick, Bots: makeAnyBot, Fallback: bot.Fallback}
	if n.listen != "" {
		a, err := ma.NewMultiaddr(n.listen)
		if err != nil {
			return nil, fmt.Errorf("--listen: %w", err)
		}
		cfg.Listen = []ma.Multiaddr{a}
	}
	if !n.noMDNS || n.listen == "" {
		ifcs, err := node.LAN(n.iface)
		if err != nil {
			if !n.noMDNS {
				return nil, err
			}
		} else {
			cfg.Iface = &ifcs[0]
		}
	}
	if n.noMDNS {
		if cfg.Listen == nil && cfg.Iface != nil {
			// Listen on the interface, but don't advertise or browse.
			d, err := node.NewDevice(ctx, cfg)
			if err != nil {
				return nil, err
			}
			return d.WithoutDiscovery(), nil
		}
		cfg.Iface = nil
	}
	return node.NewDevice(ctx, cfg)
}

// makeAnyBot seats engine bots, or external ones (exec:PATH).
func makeAnyBot(name string, seat int, seed uint64) (node.Player, error) {
	return extbot.Resolve(name, seat, seed)
}

// printer writes what a seat sees.
type printer struct {
	w    io.Writer
	json bool
}

func (p printer) line(v map[string]any, text string) {
	if p.json {
		b, _ := json.Marshal(v)
		fmt.Fprintln(p.w, string(b))
		return
	}
	fmt.Fprintln(p.w, text)
}

func (p printer) update(u node.Update) {
	if u.Notice != "" {
		p.line(map[string]any{"type": "notice", "text": u.Notice}, "* "+u.Notice)
	}
	if u.Refusal != nil {
		p.line(map[string]any{"type": "refused", "error": u.Refusal.Code, "message": u.Refusal.Msg}, "refused: "+u.Refusal.Msg)
	}
	for _, e := range u.Events {
		if p.json {
			b, _ := json.Marshal(e)
			fmt.Fprintln(p.w, string(b))
			continue
		}
		b, _ := json.Marshal(e)
		fmt.Fprintln(p.w, string(b))
	}
}

func (p printer) result(u node.Update, seat int) {
	v := u.View
	left := []int{}
	if v.Final != nil {
		for _, h := range v.Final.Hands {
			left = append(left, len(h))
		}
	}
	m := map[string]any{"type": "result", "you": seat, "places": v.Places, "winner": v.Winner, "left": left, "plays": v.No}
	if u.Audit != nil {
		m["audit"] = map[string]any{"verified": u.Audit.Verified, "problems": u.Audit.Problems}
	}
	if v.Phase != engine.PhaseOver {
		m["unfinished"] = true
	}
	text := fmt.Sprintf("game over after %d plays: places %v, cards left %v", v.No, v.Places, left)
	p.line(m, text)
}

func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

func runHost(args []string) error {
	fs := flag.NewFlagSet("host", flag.ContinueOnError)
	var nf netFlags
	nf.register(fs)
	var rules rulesFlag
	headless := fs.Bool("headless", false, "no screen: print events and play the host's seat as a bot")
	name := fs.String("name", "Table", "the table's `name` in the lobby")
	preset := fs.String("preset", "standard", "rules preset: "+strings.Join(engine.Presets, ", "))
	fs.Var(&rules, "rules", "a rules `key=value` (repeatable), keys as in REFEREE.md")
	seats := fs.Int("seats", 0, "seats in all (default: you, the players and the bots)")
	nbots := fs.Int("bots", 2, "bot seats")
	levels := fs.String("levels", "", "the bots' names, comma-separated (default medium)")
	players := fs.Int("players", 0, "other players to wait for before dealing")
	wait := fs.Duration("wait", 2*time.Minute, "the longest to wait for the players")
	code := fs.String("code", "", "a join code: the table is private (the code is never advertised)")
	reveal := fs.Duration("reveal", 2*time.Second, "the pause after a call, so every screen shows the cards")
	turnClock := fs.Duration("turn-clock", 0, "a person's turn clock (0 off; 30s or 60s)")
	grace := fs.Duration("grace", 0, "how long a player may be gone before a bot plays for them (0: the default, 30s)")
	pace := fs.String("pace", "brisk", "bots' think times: brisk, relaxed or fast")
	seed := fs.Uint64("seed", 0, "the deal's seed (0: random)")
	sit := fs.Bool("sit", true, "take a seat (false: only host; every seat is a player or a bot)")
	journal := fs.String("journal", "", "keep the table's journal in `file`")
	resume := fs.String("resume", "", "host again the table of journal `file` (after a crash), same identity and address")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if !*headless {
		return errors.New("host needs --headless (to host with a screen, run bullshit and press N)")
	}
	r, err := parseRules(*preset, rules)
	if err != nil {
		return err
	}
	var bots []string
	for i := 0; i < *nbots; i++ {
		bots = append(bots, "medium")
	}
	if *levels != "" {
		bots = strings.Split(*levels, ",")
	}
	n := *seats
	if n == 0 {
		n = len(bots) + *players
		if *sit {
			n++
		}
	}
	ctx, cancel := signalContext()
	defer cancel()
	if *resume != "" {
		return resumeHost(ctx, nf, *resume, *pace)
	}
	dev, err := nf.device(ctx)
	if err != nil {
		return err
	}
	defer dev.Close()
	hosted, err := dev.Open(node.Settings{Name: *name, Rules: r, Seats: n, Bots: bots, Pace: *pace, Reveal: *reveal,
		TurnClock: *turnClock, Grace: *grace, Code: *code, Seed: *seed})
	if err != nil {
		return err
	}
	defer hosted.Close()
	if *journal != "" {
		if err := hosted.Keep(*journal); err != nil {
			return err
		}
	}
	out := printer{os.Stdout, nf.json}
	out.line(map[string]any{"type": "table", "id": hosted.ID, "name": *name, "seats": n, "addrs": dev.Addrs()},
		fmt.Sprintf("hosting %q (%d seats); join with: bullshit join %s", *name, n, strings.Join(dev.Addrs(), " or ")))
	var sess *node.LocalSession
	seatNo := -1
	if *sit {
		seatNo, sess, err = hosted.Sit("local", dev.Name)
		if err != nil {
			return err
		}
	} else if sess, err = hosted.Watch(); err != nil {
		return err
	}
	wctx, wcancel := context.WithTimeout(ctx, *wait)
	err = hosted.WaitSeated(wctx, n)
	wcancel()
	if err != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	if err := hosted.Start(); err != nil {
		return err
	}
	var p node.Player
	if seatNo >= 0 {
		if p, err = makeAnyBot(nf.botName, seatNo, *seed+99); err != nil {
			return err
		}
	}
	last, err := node.PlayBot(ctx, sess, p, bot.Fallback, *pace, out.update)
	out.result(last, seatNo)
	// Stay a moment so the players' screens get the end.
	time.Sleep(300 * time.Millisecond)
	return err
}

func runJoin(args []string) error {
	fs := flag.NewFlagSet("join", flag.ContinueOnError)
	var nf netFlags
	nf.register(fs)
	headless := fs.Bool("headless", false, "no screen: print events and play the seat as a bot")
	table := fs.String("table", "", "the `name` (or ID) of a table found on the LAN (default: the first found)")
	code := fs.String("code", "", "the table's join code")
	watch := fs.Bool("watch", false, "watch instead of taking a seat")
	wait := fs.Duration("wait", 30*time.Second, "the longest to look for the table")
	pace := fs.String("pace", "brisk", "the bot's think times: brisk, relaxed or fast")
	capture := fs.String("capture", "", "write every frame received from the host to `file` (length-prefixed), for wire checks")
	save := fs.String("save", "", "save the game in `dir` at its end, for bullshit verify")
	latency := fs.String("latency", "", "log each of this seat's moves to `file`: when it was sent and when the host's answer came back (JSON lines)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if !*headless {
		return errors.New("join needs --headless (to join with a screen, run bullshit)")
	}
	ctx, cancel := signalContext()
	defer cancel()
	dev, err := nf.device(ctx)
	if err != nil {
		return err
	}
	defer dev.Close()
	var onFrame func([]byte)
	if *capture != "" {
		f, err := os.Create(*capture)
		if err != nil {
			return err
		}
		defer f.Close()
		var mu sync.Mutex
		onFrame = func(b []byte) {
			mu.Lock()
			defer mu.Unlock()
			// One write a frame: the program may end between two.
			buf := binary.AppendUvarint(make([]byte, 0, len(b)+binary.MaxVarintLen64), uint64(len(b)))
			f.Write(append(buf, b...))
		}
	}
	var r *node.Remote
	wctx, wcancel := context.WithTimeout(ctx, *wait)
	if fs.NArg() > 0 {
		r, err = dev.JoinAddr(wctx, fs.Arg(0), *code, *watch, onFrame)
	} else {
		var t node.TableInfo
		if t, err = dev.FindTable(wctx, *table); err == nil {
			r, err = dev.Join(wctx, t, *code, *watch, onFrame)
		}
	}
	wcancel()
	if err != nil {
		return err
	}
	defer r.Close()
	r.SaveTo(*save)
	out := printer{os.Stdout, nf.json}
	out.line(map[string]any{"type": "seated", "seat": r.Seat()}, fmt.Sprintf("seated at seat %d", r.Seat()))
	var p node.Player
	if !*watch {
		if p, err = makeAnyBot(nf.botName, r.Seat(), uint64(time.Now().UnixNano())); err != nil {
			return err
		}
	}
	var sess node.Session = r
	show := out.update
	if *latency != "" {
		f, err := os.Create(*latency)
		if err != nil {
			return err
		}
		defer f.Close()
		lat := &latencyLog{w: f, seat: r.Seat()}
		sess = latencySession{r, lat}
		show = func(u node.Update) { lat.answered(u); out.update(u) }
	}
	last, err := node.PlayBot(ctx, sess, p, bot.Fallback, *pace, show)
	out.result(last, r.Seat())
	if r.Hosting() {
		// We host since an election: stay a moment so the players get the end.
		time.Sleep(time.Second)
	}
	return err
}

// latencyLog writes, for each move the seat sends, when it was sent and when
// the host's answer reached the seat: the move's own event, or a refusal.
// For a call it also notes when the reveal came. The end-to-end tests read it
// to see how quickly a host answers honest players, calm or under a flood.
type latencyLog struct {
	mu      sync.Mutex
	w       io.Writer
	seat    int
	pending []sentMove
	calls   map[int]bool // calls answered whose reveal hasn't come
}

type sentMove struct {
	move engine.Move
	no   int
	at   time.Time
}

// latencySession notes every move on its way out.
type latencySession struct {
	node.Session
	log *latencyLog
}

func (s latencySession) Send(cmd engine.Command) error {
	s.log.mu.Lock()
	s.log.pending = append(s.log.pending, sentMove{cmd.Move, cmd.No, time.Now()})
	s.log.mu.Unlock()
	return s.Session.Send(cmd)
}

func (l *latencyLog) answered(u node.Update) {
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	write := func(m sentMove, refused bool, no int) {
		b, _ := json.Marshal(map[string]any{"move": m.move.String(), "no": no, "sent": m.at.UnixNano(),
			"answer": now.UnixNano(), "refused": refused})
		fmt.Fprintf(l.w, "%s\n", b)
	}
	if u.Refusal != nil && len(l.pending) > 0 {
		write(l.pending[0], true, l.pending[0].no)
		l.pending = l.pending[1:]
	}
	for _, e := range u.Events {
		if e.Type == "reveal" && l.calls[e.No] {
			delete(l.calls, e.No)
			fmt.Fprintf(l.w, "{\"reveal\":%d,\"answer\":%d}\n", e.No, now.UnixNano())
		}
		if e.Seat != l.seat {
			continue
		}
		for i, m := range l.pending {
			if m.move.String() != e.Type {
				continue
			}
			write(m, false, e.No)
			l.pending = append(l.pending[:i], l.pending[i+1:]...)
			if m.move == engine.MoveCall {
				if l.calls == nil {
					l.calls = map[int]bool{}
				}
				l.calls[e.No] = true
			}
			break
		}
	}
}

// parseRules reads a preset and key=value overrides.
func parseRules(preset string, kv []string) (engine.Rules, error) {
	r, ok := engine.Preset(preset)
	if !ok {
		return r, fmt.Errorf("no preset %q (try %s)", preset, strings.Join(engine.Presets, ", "))
	}
	for _, s := range kv {
		k, v, ok := strings.Cut(s, "=")
		if !ok {
			return r, fmt.Errorf("--rules takes key=value, not %q", s)
		}
		if err := r.Set(strings.TrimSpace(k), strings.TrimSpace(v)); err != nil {
			return r, err
		}
	}
	return r, nil
}

// resumeHost hosts a journal's table again and plays on.
func resumeHost(ctx context.Context, nf netFlags, path, pace string) error {
	if nf.listen == "" {
		addrs, err := node.JournalListen(path)
		if err != nil {
			return err
		}
		if len(addrs) > 0 {
			nf.listen = addrs[0].String()
		}
	}
	dev, err := nf.device(ctx)
	if err != nil {
		return err
	}
	defer dev.Close()
	hosted, err := dev.Resume(path)
	if err != nil {
		return err
	}
	defer hosted.Close()
	out := printer{os.Stdout, nf.json}
	out.line(map[string]any{"type": "table", "id": hosted.ID, "resumed": true, "addrs": dev.Addrs()},
		fmt.Sprintf("hosting again from %s; join with: bullshit join %s", path, strings.Join(dev.Addrs(), " or ")))
	seatNo, sess, err := hosted.Sit("local", dev.Name)
	var p node.Player
	if err != nil {
		// The host had no seat: watch.
		seatNo = -1
		if sess, err = hosted.Watch(); err != nil {
			return err
		}
	} else if p, err = makeAnyBot(nf.botName, seatNo, uint64(time.Now().UnixNano())); err != nil {
		return err
	}
	last, err := node.PlayBot(ctx, sess, p, bot.Fallback, pace, out.update)
	out.result(last, seatNo)
	time.Sleep(300 * time.Millisecond)
	return err
}
