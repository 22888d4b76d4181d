package main

// play is the default command: the terminal client, opening on the lobby.
// It reads the flags and the profile, and wires the client's Lobby to the
// node package; nothing else.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/bullshit-game/bullshit/cli"
	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/engine/bot"
	"github.com/bullshit-game/bullshit/node"
	"github.com/bullshit-game/bullshit/node/extbot"
	nodelan "github.com/bullshit-game/bullshit/node/lan"
	"github.com/bullshit-game/bullshit/node/table"
	"github.com/bullshit-game/bullshit/protocol"
)

// playConfig is what the play command's flags say.
type playConfig struct {
	dir    string
	name   string
	iface  string
	noBell bool
	bots   int
	preset string
	solo   bool
	web    string
}

func parsePlay(args []string) (playConfig, error) {
	var c playConfig
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	fs.StringVar(&c.dir, "config", "", "profile `dir` (default: the user config dir's bullshit/)")
	fs.StringVar(&c.name, "nick", "", "your `nick`name at the table, 1 to 24 letters (remembered)")
	fs.StringVar(&c.name, "name", "", "old spelling of --nick: your `nick`name")
	fs.StringVar(&c.iface, "iface", "", "network `interface` to find and host tables on (default: guess the LAN)")
	fs.BoolVar(&c.noBell, "no-bell", false, "never ring the terminal bell")
	fs.IntVar(&c.bots, "bots", 3, "bots in a game here (P in the lobby, or --solo)")
	fs.StringVar(&c.preset, "preset", "standard", "rules of a game here: "+strings.Join(engine.Presets, ", "))
	fs.StringVar(&c.web, "web", "on", webUsage)
	fs.BoolVar(&c.solo, "solo", false, "skip the lobby: deal a game against bots on this machine at once")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if err := flagsOnly(fs); err != nil {
		return c, err
	}
	if _, ok := engine.Preset(c.preset); !ok {
		return c, fmt.Errorf("no preset %q (try %s)", c.preset, strings.Join(engine.Presets, ", "))
	}
	if c.bots < 1 || c.bots > 9 {
		return c, fmt.Errorf("--bots is 1 to 9, not %d", c.bots)
	}
	if err := checkNickFlag(c.name); err != nil {
		return c, err
	}
	return c, nil
}

func runPlay(args []string) error {
	pc, err := parsePlay(args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if pc.dir == "" {
		if pc.dir, err = node.DefaultDir(); err != nil {
			return err
		}
	}
	prof, err := node.LoadProfile(pc.dir)
	if err != nil {
		return err
	}
	name := strings.TrimSpace(pc.name)
	if name != "" && name != prof.Nickname {
		prof.Nickname = name
		if err := node.SaveProfile(pc.dir, prof); err != nil {
			return err
		}
	}
	if name == "" {
		if err := savedNick(prof.Nickname); err != nil {
			return err
		}
		name = prof.Nickname
	}
	if name == "" && protocol.CheckNick(os.Getenv("USER")) == nil {
		name = os.Getenv("USER")
	}
	if name == "" {
		name = node.DefaultNick(prof.Key)
	}
	cfg := cli.Config{Name: name, ProfileDir: pc.dir, NoBell: pc.noBell, Bots: pc.bots, Preset: pc.preset, Solo: pc.solo}
	if id, err := peer.IDFromPrivateKey(prof.Key); err == nil {
		s := id.String()
		cfg.ID = s[max(0, len(s)-3):]
	}
	lobby := &lanLobby{name: name, games: filepath.Join(pc.dir, cli.GamesDir)}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := lobby.start(ctx, prof, pc.iface, webConfig(pc.web)); err != nil {
		cfg.LobbyErr = err
	} else {
		defer lobby.dev.Close()
		cfg.Iface, cfg.Addrs = lobby.iface, lobby.dev.Addrs()
	}
	return cli.Run(cfg, lobby)
}

// lanLobby is the client's lobby over the node package: tables found and
// hosted on the LAN through a node.Device, and games on this machine alone
// through table.Local.
type lanLobby struct {
	name  string
	games string // where a seat at another's table saves each game, for bullshit verify
	iface string
	dev   *node.Device
	ctx   context.Context

	mu      sync.Mutex
	tables  []cli.TableSummary
	infos   map[string]nodelan.TableInfo
	changed chan struct{}
}

// start brings up the device on the LAN and browses it.
func (l *lanLobby) start(ctx context.Context, prof *node.Profile, iface string, web *node.WebConfig) error {
	ifcs, err := nodelan.LAN(iface)
	if err != nil {
		return err
	}
	dev, err := node.NewDevice(ctx, node.DeviceConfig{Key: prof.Key, Name: l.name, Iface: &ifcs[0],
		Bots: makePlayBot, Fallback: bot.Fallback, Web: web})
	if err != nil {
		return err
	}
	l.dev, l.iface, l.ctx = dev, ifcs[0].Name, ctx
	l.changed = make(chan struct{}, 1)
	feed := dev.Browse(ctx)
	go func() {
		for ts := range feed {
			list := make([]cli.TableSummary, 0, len(ts))
			infos := make(map[string]nodelan.TableInfo, len(ts))
			for _, t := range ts {
				id := string(t.HostPeer) + "/" + t.ID
				infos[id] = t
				list = append(list, cli.TableSummary{ID: id, Name: t.Name, Host: t.Host, Taken: t.Taken,
					Seats: t.Seats, Preset: t.Preset, Playing: t.Phase == table.PhasePlaying, Locked: t.Private, Words: t.Fingerprint()})
			}
			l.mu.Lock()
			l.tables, l.infos = list, infos
			l.mu.Unlock()
			select {
			case l.changed <- struct{}{}:
			default:
			}
		}
		close(l.changed)
	}()
	return nil
}

func (l *lanLobby) Tables() []cli.TableSummary {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]cli.TableSummary(nil), l.tables...)
}

func (l *lanLobby) Changed() <-chan struct{} { return l.changed }

var errNoNet = errors.New("there is no network here: P plays against bots on this machine")

// joinTimeout bounds a join: a host that doesn't answer is reported, not
// waited on for ever.
const joinTimeout = 15 * time.Second

func (l *lanLobby) info(id string) (nodelan.TableInfo, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	t, ok := l.infos[id]
	if !ok {
		return t, errors.New("that table has gone from the network")
	}
	return t, nil
}

func (l *lanLobby) Create(s cli.TableSettings) (table.Session, error) {
	if l.dev == nil {
		return nil, errNoNet
	}
	ho, err := l.dev.Open(tableSettings(s))
	if err != nil {
		return nil, err
	}
	_, sess, err := ho.Sit("local", l.name)
	if err != nil {
		ho.Close()
		return nil, err
	}
	sess.KeepDeckIn(filepath.Dir(l.games)) // the profile's directory: games/ is in it
	return &ownSession{LocalSession: sess, close: ho.Close}, nil
}

func (l *lanLobby) join(id, code string, watch bool) (table.Session, error) {
	if l.dev == nil {
		return nil, errNoNet
	}
	t, err := l.info(id)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(l.ctx, joinTimeout)
	defer cancel()
	l.seatFiles()
	return session(l.dev.Join(ctx, t, code, watch, nil))
}

// seatFiles has each seat the lobby takes save each game it ends in the
// profile's games/, as `join --headless --save` does: what the share
// text's bullshit verify checks against (a directory that can't be made
// saves nothing; the sheet then names no file). The profile's directory
// keeps its toss and deck secret. Set before the seat's session starts:
// the host may send a game under way the moment it seats us.
func (l *lanLobby) seatFiles() {
	save := l.games
	if os.MkdirAll(l.games, 0o755) != nil {
		save = ""
	}
	l.dev.SeatFiles(filepath.Dir(l.games), save)
}

// session is a seat joined, as the lobby takes it (no session when
// err: a nil *Remote is no nil Session).
func session(r *node.Remote, err error) (table.Session, error) {
	if err != nil {
		return nil, err
	}
	return r, nil
}

func (l *lanLobby) Join(id, code string) (table.Session, error) { return l.join(id, code, false) }

func (l *lanLobby) Watch(id string) (table.Session, error) { return l.join(id, "", true) }

// JoinAddr takes "ADDRESS" or "ADDRESS CODE".
func (l *lanLobby) JoinAddr(addr string) (table.Session, error) {
	if l.dev == nil {
		return nil, errNoNet
	}
	f := strings.Fields(addr)
	if len(f) == 0 {
		return nil, errors.New("type the address the host's screen shows")
	}
	code := ""
	if len(f) > 1 {
		code = f[1]
	}
	ctx, cancel := context.WithTimeout(l.ctx, joinTimeout)
	defer cancel()
	l.seatFiles()
	return session(l.dev.JoinAddr(ctx, f[0], code, false, nil))
}

func (l *lanLobby) Solo(s cli.TableSettings) (table.Session, error) {
	set := tableSettings(s)
	set.Code = "" // nobody else can join a game on this machine alone
	t, sess, err := table.Local(set, l.name, makePlayBot, bot.Fallback)
	if err != nil {
		return nil, err
	}
	return &ownSession{LocalSession: sess, close: t.Close}, nil
}

// makePlayBot seats the engine's bots, or external ones (exec:PATH).
func makePlayBot(name string, seat int, seed uint64) (table.Player, error) {
	return extbot.Resolve(name, seat, seed)
}

// ownSession is a seat at a table this program hosts: leaving it closes
// the table.
type ownSession struct {
	*table.LocalSession
	close func()
}

func (s *ownSession) Close() error {
	err := s.LocalSession.Close()
	s.close()
	return err
}

// tableSettings is what the new-table form chose, as the node takes it.
func tableSettings(s cli.TableSettings) table.Settings {
	return table.Settings{Name: s.Name, Rules: s.Rules, Seats: s.Seats, Bots: s.Bots, Code: s.Code,
		TurnClock: s.TurnClock, Pace: "brisk", Blind: true}
}

// checkNickFlag refuses a --nick the table would refuse, where it is
// typed, before it is saved: the host checks a nickname with the same
// protocol.CheckNick.
func checkNickFlag(nick string) error {
	if nick == "" {
		return nil
	}
	if err := protocol.CheckNick(strings.TrimSpace(nick)); err != nil {
		return fmt.Errorf("--nick %.30q: %w", nick, err)
	}
	return nil
}

// savedNick refuses a profile's nickname no table would take (an older
// version saved any --name), saying how to choose another.
func savedNick(nick string) error {
	if nick == "" {
		return nil
	}
	if err := protocol.CheckNick(nick); err != nil {
		return fmt.Errorf("the nickname saved in your profile can't be used: %w Choose another with: bullshit play --nick NAME", err)
	}
	return nil
}
