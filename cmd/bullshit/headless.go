package main

// host and join: a table and its players without a screen, for scripts,
// tests and servers. Each prints what its seat sees, one line per event
// (JSON with --json; the lines are cli.Printer's), and plays its seat as a
// bot.

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
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	ma "github.com/multiformats/go-multiaddr"

	"github.com/bullshit-game/bullshit/cli"
	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/bot"
	"github.com/bullshit-game/bullshit/node"
	"github.com/bullshit-game/bullshit/node/extbot"
	nodelan "github.com/bullshit-game/bullshit/node/lan"
	"github.com/bullshit-game/bullshit/node/table"
	"github.com/bullshit-game/bullshit/protocol"
)

// rulesFlag collects repeated --rules key=value.
type rulesFlag []string

func (r *rulesFlag) String() string     { return strings.Join(*r, ",") }
func (r *rulesFlag) Set(s string) error { *r = append(*r, s); return nil }

// netFlags are what host and join share.
type netFlags struct {
	dir, name, iface, listen string
	noMDNS, json             bool
	botName                  string
	web                      string
	profile                  string // the profile's directory, once device has found it
}

func (n *netFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&n.dir, "config", "", "profile `dir` (identity key and nickname; default: the user config dir's bullshit/)")
	fs.StringVar(&n.name, "nick", "", "your `nick`name at the table, 1 to 24 letters (default: the profile's, else Player and the end of your peer ID); a table refuses one that reads as a name it has")
	fs.StringVar(&n.iface, "iface", "", "LAN `interface` to use (default: guess)")
	fs.StringVar(&n.listen, "listen", "", "listen `multiaddr` instead of the LAN interface (e.g. /ip4/127.0.0.1/tcp/0)")
	fs.BoolVar(&n.noMDNS, "no-mdns", false, "don't advertise or browse by mDNS (join by address)")
	fs.BoolVar(&n.json, "json", false, "print one JSON object per line")
	fs.StringVar(&n.web, "web", "on", webUsage)
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
	n.profile = dir
	if err := checkNickFlag(n.name); err != nil {
		return nil, err
	}
	nick := strings.TrimSpace(n.name)
	if nick == "" {
		if err := savedNick(prof.Nickname); err != nil {
			return nil, err
		}
		nick = prof.Nickname
	}
	if nick == "" {
		nick = node.DefaultNick(prof.Key)
	}
	cfg := node.DeviceConfig{Key: prof.Key, Name: nick, Bots: makeAnyBot, Fallback: bot.Fallback, Web: webConfig(n.web)}
	if n.listen != "" {
		a, err := ma.NewMultiaddr(n.listen)
		if err != nil {
			return nil, fmt.Errorf("--listen: %w", err)
		}
		cfg.Listen = []ma.Multiaddr{a}
	}
	if !n.noMDNS || n.listen == "" {
		ifcs, err := nodelan.LAN(n.iface)
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
func makeAnyBot(name string, seat int, seed uint64) (table.Player, error) {
	return extbot.Resolve(name, seat, seed)
}

// stopper is how a headless run ends early: SIGINT or SIGTERM cancels its
// context, and it remembers which. A second signal kills the program at
// once, as it would without us.
type stopper struct {
	mu  sync.Mutex
	sig os.Signal
}

func signalContext() (context.Context, context.CancelFunc, *stopper) {
	ctx, cancel := context.WithCancel(context.Background())
	st := &stopper{}
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		defer signal.Stop(ch)
		select {
		case s := <-ch:
			st.mu.Lock()
			st.sig = s
			st.mu.Unlock()
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel, st
}

// signal is the signal that stopped the run, nil if none did.
func (s *stopper) signal() os.Signal {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sig
}

// or is err, or, when a signal stopped the run, the error that exits with
// 128 plus the signal's number (130 for SIGINT, 143 for SIGTERM).
func (s *stopper) or(err error) error {
	sig := s.signal()
	if sig == nil {
		return err
	}
	code := 1
	if n, ok := sig.(syscall.Signal); ok {
		code = 128 + int(n)
	}
	return &exitError{code: code, err: fmt.Errorf("stopped by %s; the game did not finish", signalName(sig))}
}

// name is the name of the signal that stopped the run, "" if none did.
func (s *stopper) name() string {
	if sig := s.signal(); sig != nil {
		return signalName(sig)
	}
	return ""
}

func signalName(sig os.Signal) string {
	switch sig {
	case syscall.SIGTERM:
		return "SIGTERM"
	case os.Interrupt:
		return "SIGINT"
	}
	return sig.String()
}

// ended is what a headless run returns once its game is over or stopped: a
// signal's exit status, PlayBot's error, or an error for a game that did not
// finish (nil when it did).
func ended(last table.Update, err error, stop *stopper) error {
	if last.View.Phase == engine.PhaseOver {
		return err
	}
	if stop.signal() != nil {
		return stop.or(err)
	}
	if err != nil {
		return err
	}
	return errors.New("the game did not finish")
}

// hostConfig is host's flags.
type hostConfig struct {
	nf        netFlags
	headless  bool
	name      string
	rules     engine.Rules
	seats     int
	bots      []string
	wait      time.Duration
	code      string
	reveal    time.Duration
	turnClock time.Duration
	grace     time.Duration
	pace      string
	seed      uint64
	sit       bool
	blind     bool
	journal   string
	resume    string
}

// parseHost parses host's flags; help is true when they asked for -h.
func parseHost(args []string) (c hostConfig, help bool, err error) {
	fs := flag.NewFlagSet("host", flag.ContinueOnError)
	c.nf.register(fs)
	var rules rulesFlag
	fs.BoolVar(&c.headless, "headless", false, "no screen: print events and play the host's seat as a bot")
	fs.StringVar(&c.name, "table", "Table", "the table's `name` in the lobby, 1 to 32 letters (your own name is --nick)")
	fs.StringVar(&c.name, "name", "Table", "old spelling of --table: the table's `name`, not yours (yours is --nick)")
	preset := fs.String("preset", "standard", "rules preset: "+strings.Join(engine.Presets, ", "))
	fs.Var(&rules, "rules", "a rules `key=value` (repeatable), keys as in REFEREE.md")
	seats := fs.Int("seats", 0, "seats in all (default: you, the players and the bots)")
	nbots := fs.Int("bots", 2, "bot seats")
	levels := fs.String("levels", "", "the bots' names, comma-separated (default medium)")
	players := fs.Int("players", 0, "other players to wait for before dealing")
	fs.DurationVar(&c.wait, "wait", 2*time.Minute, "the longest to wait for the players")
	fs.StringVar(&c.code, "code", "", "a join code: the table is private (the code is never advertised)")
	fs.DurationVar(&c.reveal, "reveal", table.DefaultTiming().Reveal, "the pause after a call, so every screen shows the cards")
	fs.DurationVar(&c.turnClock, "turn-clock", 0, "a person's turn clock (0 off; 30s or 60s)")
	fs.DurationVar(&c.grace, "grace", 0, "how long a player may be gone before a bot plays for them (0: the default, 30s)")
	fs.StringVar(&c.pace, "pace", "brisk", "bots' think times: brisk, relaxed or fast")
	fs.Uint64Var(&c.seed, "seed", 0, "the deal's seed (0: random)")
	fs.BoolVar(&c.sit, "sit", true, "take a seat (false: only host; every seat is a player or a bot)")
	fs.BoolVar(&c.blind, "blind", true, "deal blind: the host sees no card but its own seat's (every player's node or phone page of 2.2 takes part; otherwise the deal is in the clear and says why); --blind=false deals in the clear")
	fs.StringVar(&c.journal, "journal", "", "keep the table's journal in `file`")
	fs.StringVar(&c.resume, "resume", "", "host again the table of journal `file` (after a crash), same identity and address")
	if help, err := parseFlags(fs, args); help || err != nil {
		return c, help, err
	}
	if !c.headless {
		return c, false, errors.New("host needs --headless (to host with a screen, run bullshit and press N)")
	}
	if err := checkNickFlag(c.nf.name); err != nil {
		return c, false, err
	}
	if err := protocol.CheckTableName(c.name); err != nil {
		return c, false, fmt.Errorf("--table %.30q: %w", c.name, err)
	}
	if c.rules, err = parseRules(*preset, rules); err != nil {
		return c, false, err
	}
	for i := 0; i < *nbots; i++ {
		c.bots = append(c.bots, "medium")
	}
	if *levels != "" {
		c.bots = strings.Split(*levels, ",")
	}
	c.seats = *seats
	if c.seats == 0 {
		c.seats = len(c.bots) + *players
		if c.sit {
			c.seats++
		}
	}
	return c, false, nil
}

func runHost(args []string) error {
	c, help, err := parseHost(args)
	if help || err != nil {
		return err
	}
	nf, n := c.nf, c.seats
	ctx, cancel, stop := signalContext()
	defer cancel()
	if c.resume != "" {
		return resumeHost(ctx, stop, nf, c.resume, c.pace)
	}
	dev, err := nf.device(ctx)
	if err != nil {
		return err
	}
	defer dev.Close()
	hosted, err := dev.Open(table.Settings{Name: c.name, Rules: c.rules, Seats: n, Bots: c.bots, Pace: c.pace, Timing: table.Timing{Reveal: c.reveal},
		TurnClock: c.turnClock, Grace: c.grace, Code: c.code, Seed: c.seed, Blind: c.blind})
	if err != nil {
		return err
	}
	defer hosted.Close()
	if c.journal != "" {
		if err := hosted.Keep(c.journal); err != nil {
			return err
		}
	}
	out := cli.Printer{W: os.Stdout, JSON: nf.json}
	out.Table(cli.HostLine{ID: hosted.ID, Name: c.name, Seats: n, Nick: dev.Name, Sit: c.sit, Addrs: dev.Addrs(), Code: c.code,
		Web: dev.WebURL(), WebErr: dev.WebErr(), Words: dev.Words()})
	var sess *table.LocalSession
	seatNo := -1
	if c.sit {
		seatNo, sess, err = hosted.Sit("local", dev.Name)
		if err != nil {
			return err
		}
		sess.KeepDeckIn(nf.profile)
	} else if sess, err = hosted.Watch(); err != nil {
		return err
	}
	if seatNo >= 0 && !out.JSON {
		out.Seated(seatNo)
	}
	wctx, wcancel := context.WithTimeout(ctx, c.wait)
	err = hosted.WaitSeated(wctx, n)
	wcancel()
	if err != nil && ctx.Err() != nil {
		out.Result(table.Update{}, seatNo, stop.name())
		return stop.or(ctx.Err())
	}
	out.Dealing(n)
	if err := hosted.Start(); err != nil {
		return err
	}
	var p table.Player
	if seatNo >= 0 {
		if p, err = makeAnyBot(nf.botName, seatNo, c.seed+99); err != nil {
			return err
		}
	}
	last, err := table.PlayBot(ctx, sess, p, bot.Fallback, c.pace, out.Update)
	if stop.signal() != nil {
		last = endEarly(hosted, sess, last, out.Update)
	}
	out.Result(last, seatNo, stop.name())
	if last.View.Phase == engine.PhaseOver {
		// Stay a moment so the players' screens get the end.
		time.Sleep(300 * time.Millisecond)
	}
	return ended(last, err, stop)
}

// endEarly ends the game a signal stopped the host in, if one is in play:
// the players get the reveal and audit the plays so far (hosted.Close
// waits for it to reach them), and so does the host's own seat, whose
// audit it returns on last.
func endEarly(hosted *node.Hosted, sess table.Session, last table.Update, show func(table.Update)) table.Update {
	if ended, err := hosted.EndEarly(); !ended || err != nil {
		return last
	}
	t := time.NewTimer(2 * time.Second)
	defer t.Stop()
	for {
		select {
		case u, ok := <-sess.Updates():
			if !ok {
				return last
			}
			show(u)
			if u.Audit != nil {
				return u
			}
		case <-t.C:
			return last
		}
	}
}

// twoTables says what to type when a name is two tables': "two tables
// are called kitchen: 'kitchen' (maple-otter-lunar) and 'kitchen' (…);
// join with --table kitchen@maple-otter-lunar or by address".
func twoTables(err error) error {
	var two *node.ErrTwoTables
	if !errors.As(err, &two) {
		return err
	}
	var ts []string
	for _, t := range two.Tables {
		ts = append(ts, t.String())
	}
	n := "two"
	if len(ts) > 2 {
		n = strconv.Itoa(len(ts))
	}
	return fmt.Errorf("%s tables are called %s: %s; join with --table %s@%s or by address",
		n, two.Name, strings.Join(ts, " and "), two.Name, two.Tables[0].Fingerprint())
}

// joinConfig is join's flags; args holds the address, if one is given.
type joinConfig struct {
	nf       netFlags
	headless bool
	args     []string
	table    string
	code     string
	watch    bool
	wait     time.Duration
	pace     string
	capture  string
	save     string
	latency  string
}

// parseJoin parses join's flags; help is true when they asked for -h.
func parseJoin(args []string) (c joinConfig, help bool, err error) {
	fs := flag.NewFlagSet("join", flag.ContinueOnError)
	c.nf.register(fs)
	fs.BoolVar(&c.headless, "headless", false, "no screen: print events and play the seat as a bot")
	fs.StringVar(&c.table, "table", "", "the `name` of a table found on the LAN, or NAME@WORDS with its host's words when two share a name, or id:ID for its ID (a bare ID is read as a name) (default: the first found)")
	fs.StringVar(&c.code, "code", "", "the table's join code")
	fs.BoolVar(&c.watch, "watch", false, "watch instead of taking a seat")
	fs.DurationVar(&c.wait, "wait", 30*time.Second, "the longest to look for the table")
	fs.StringVar(&c.pace, "pace", "brisk", "the bot's think times: brisk, relaxed or fast")
	fs.StringVar(&c.capture, "capture", "", "write every frame received from the host to `file` (length-prefixed), for wire checks")
	fs.StringVar(&c.save, "save", "", "save the game in `dir` at its end, for bullshit verify")
	fs.StringVar(&c.latency, "latency", "", "log each of this seat's moves to `file`: when it was sent and when the host's answer came back (JSON lines)")
	if help, err := parseFlags(fs, args); help || err != nil {
		return c, help, err
	}
	if !c.headless {
		return c, false, errors.New("join needs --headless (to join with a screen, run bullshit, press A in the lobby and type the address)")
	}
	c.args = fs.Args()
	return c, false, nil
}

func runJoin(args []string) error {
	c, help, err := parseJoin(args)
	if help || err != nil {
		return err
	}
	nf := c.nf
	if c.save != "" {
		if err := saveDir(c.save); err != nil {
			return fmt.Errorf("--save %s: %w", c.save, err)
		}
	}
	ctx, cancel, stop := signalContext()
	defer cancel()
	dev, err := nf.device(ctx)
	if err != nil {
		return err
	}
	defer dev.Close()
	dev.SeatFiles(nf.profile, c.save) // in place before the host sends the game: a restart is the same party
	var onFrame func([]byte)
	if c.capture != "" {
		f, err := os.Create(c.capture)
		if err != nil {
			return err
		}
		defer f.Close()
		onFrame = frameWriter(f)
	}
	wctx, wcancel := context.WithTimeout(ctx, c.wait)
	r, err := joinTable(wctx, dev, c.args, c.table, c.code, c.watch, onFrame)
	wcancel()
	out := cli.Printer{W: os.Stdout, JSON: nf.json}
	if err != nil {
		if stop.signal() != nil {
			out.Result(table.Update{}, -1, stop.name())
		}
		return stop.or(err)
	}
	defer r.Close()
	out.Seated(r.Seat())
	var p table.Player
	if !c.watch {
		if p, err = makeAnyBot(nf.botName, r.Seat(), uint64(time.Now().UnixNano())); err != nil {
			return err
		}
	}
	var sess table.Session = r
	show := out.Update
	var lat *latencyLog
	if c.latency != "" {
		f, err := os.Create(c.latency)
		if err != nil {
			return err
		}
		defer f.Close()
		lat = &latencyLog{w: f, seat: r.Seat()}
		sess = latencySession{r, lat}
		// Noted once the update is shown, as a page notes its verdict
		// once drawn: both clocks stop at the screen.
		show = func(u table.Update) { out.Update(u); lat.answered(u) }
	}
	last, err := table.PlayBot(ctx, sess, p, bot.Fallback, c.pace, show)
	out.Result(last, r.Seat(), stop.name())
	if lat != nil {
		lat.close(last)
	}
	over := last.View.Phase == engine.PhaseOver
	if over && r.Hosting() {
		// We host since an election: stay a moment so the players get the end.
		time.Sleep(time.Second)
	}
	if over && c.save != "" {
		if serr := savedOK(r, c.save, last); serr != nil {
			return errors.Join(err, serr)
		}
	}
	return ended(last, err, stop)
}

// frameWriter writes each frame to f behind its length (a uvarint), for
// --capture.
func frameWriter(f *os.File) func([]byte) {
	var mu sync.Mutex
	return func(b []byte) {
		mu.Lock()
		defer mu.Unlock()
		// One write a frame: the program may end between two.
		buf := binary.AppendUvarint(make([]byte, 0, len(b)+binary.MaxVarintLen64), uint64(len(b)))
		f.Write(append(buf, b...))
	}
}

// joinTable joins the table at the address in args, if any, or else the
// one found on the LAN that table names (node.PickTable).
func joinTable(ctx context.Context, dev *node.Device, args []string, table, code string, watch bool, onFrame func([]byte)) (*node.Remote, error) {
	if len(args) > 0 {
		return dev.JoinAddr(ctx, args[0], code, watch, onFrame)
	}
	var r *node.Remote
	t, err := dev.FindTable(ctx, table)
	if err == nil {
		r, err = dev.Join(ctx, t, code, watch, onFrame)
	}
	return r, twoTables(err)
}

// saveDir makes --save's directory (and its parents) if it is missing, and
// checks a game can be written there, so that a game isn't played for
// nothing.
func saveDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".bullshit-save-check-*")
	if err != nil {
		return fmt.Errorf("can't write there: %w", err)
	}
	f.Close()
	return os.Remove(f.Name())
}

// savedOK says what went wrong when a finished game was not saved.
func savedOK(r *node.Remote, dir string, last table.Update) error {
	path, err := r.Saved()
	switch {
	case err != nil:
		return fmt.Errorf("--save %s: the game was not saved: %w", dir, err)
	case path != "":
		return nil
	case r.Hosting():
		return fmt.Errorf("--save %s: the game was not saved: this program took over hosting it, and a host does not save its own seat's game", dir)
	case last.Audit == nil:
		return fmt.Errorf("--save %s: the game was not saved: the host's reveal of the deal never came", dir)
	}
	return fmt.Errorf("--save %s: the game was not saved", dir)
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
	seen    int          // the last play the seat has seen
}

type sentMove struct {
	move engine.Move
	no   int
	at   time.Time
	seen int // the last play the seat had seen when it sent the move
}

// latencySession notes every move on its way out.
type latencySession struct {
	table.Session
	log *latencyLog
}

// Send notes a move that went out. Its answer can't be read before Send
// returns (PlayBot reads updates and sends on one goroutine), so a move
// that never left isn't noted.
func (s latencySession) Send(cmd engine.Command) error {
	at := time.Now()
	err := s.Session.Send(cmd)
	if err == nil {
		s.log.mu.Lock()
		s.log.pending = append(s.log.pending, sentMove{cmd.Move, cmd.No, at, s.log.seen})
		s.log.mu.Unlock()
	}
	return err
}

// close notes every move still unanswered when the game ended, with the
// play the seat had seen when it sent it and the game's last.
func (l *latencyLog) close(last table.Update) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, m := range l.pending {
		b, _ := json.Marshal(map[string]any{"unanswered": m.move.String(), "no": m.no, "sent": m.at.UnixNano(),
			"seen": m.seen, "plays": last.View.No})
		fmt.Fprintf(l.w, "%s\n", b)
	}
	l.pending = nil
}

func (l *latencyLog) answered(u table.Update) {
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seen = max(l.seen, u.View.No)
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
		if e.Type == engine.EventReveal && l.calls[e.No] {
			delete(l.calls, e.No)
			fmt.Fprintf(l.w, "{\"reveal\":%d,\"answer\":%d}\n", e.No, now.UnixNano())
		}
		if e.Seat != l.seat {
			continue
		}
		for i, m := range l.pending {
			if m.move.String() != string(e.Type) {
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
func resumeHost(ctx context.Context, stop *stopper, nf netFlags, path, pace string) error {
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
	out := cli.Printer{W: os.Stdout, JSON: nf.json}
	out.Table(cli.HostLine{ID: hosted.ID, Resumed: path, Addrs: dev.Addrs(), Web: dev.WebURL(), WebErr: dev.WebErr(), Words: dev.Words()})
	seatNo, sess, err := hosted.Sit("local", dev.Name)
	var p table.Player
	if err != nil {
		// The host had no seat: watch.
		seatNo = -1
		if sess, err = hosted.Watch(); err != nil {
			return err
		}
	} else if p, err = makeAnyBot(nf.botName, seatNo, uint64(time.Now().UnixNano())); err != nil {
		return err
	}
	last, err := table.PlayBot(ctx, sess, p, bot.Fallback, pace, out.Update)
	out.Result(last, seatNo, stop.name())
	if last.View.Phase == engine.PhaseOver {
		time.Sleep(300 * time.Millisecond)
	}
	return ended(last, err, stop)
}
