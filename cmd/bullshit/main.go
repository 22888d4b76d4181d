// Command bullshit is the game: the lobby and table in a terminal, a LAN
// host or player, the referee line protocol, the simulator and the audit.
// It parses flags into a config and wires the packages; nothing else.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/bullshit-game/bullshit/engine/referee"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "bullshit:", err)
		code := 1
		var ee *exitError
		if errors.As(err, &ee) {
			code = ee.code
		}
		os.Exit(code)
	}
}

// exitError is an error that ends the program with its own status: 128
// plus the signal's number when a signal stopped it, as a shell reports a
// program a signal killed.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// parseFlags parses a command's args into fs. help is true when they asked
// for -h: fs has printed its usage, and there is nothing more to do.
func parseFlags(fs *flag.FlagSet, args []string) (help bool, err error) {
	err = fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		return true, nil
	}
	return false, err
}

// flagsOnly refuses arguments left after a command's flags.
func flagsOnly(fs *flag.FlagSet) error {
	if fs.NArg() > 0 {
		return fmt.Errorf("%s takes no arguments, only flags (got %q)", fs.Name(), fs.Arg(0))
	}
	return nil
}

// commands are the subcommands; each lives in its own file.
var commands = map[string]func(args []string) error{
	"referee": func([]string) error { return referee.Run(os.Stdin, os.Stdout) },
}

func run(args []string) error {
	cmd := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	switch {
	case cmd == "help" || len(args) > 0 && cmd == "" && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help"):
		usage(os.Stdout)
		return nil
	}
	if f, ok := commands[cmd]; ok {
		return f(args)
	}
	if cmd == "" {
		if f, ok := commands["play"]; ok {
			return f(args)
		}
	}
	usage(os.Stderr)
	return fmt.Errorf("unknown command %q", cmd)
}

func usage(w io.Writer) {
	fmt.Fprint(w, `Usage: bullshit [command] [flags]

  (none)     the lobby: tables on this network, or a game against bots
  play       the same, with flags: --solo deals a game against bots at once,
             --nick, --bots, --preset, --config, --iface, --no-bell
  host       host a table (--headless for scripts; --table names it, --nick is you)
  join       join a table by name or address (--headless for scripts)
  sim        bot-only games, and a report on how the bots fare
  referee    the engine's JSON line protocol on stdin/stdout
  verify     check a saved game's fairness audit
  rules      how to play a preset with rules keys, as the table's rules screen says it
  stats      your record: games, wins, rating, calls, sneaks, the people you play most
  bench      print every figure of BENCHMARKS.md

bullshit COMMAND --help lists a command's flags.
`)
}
