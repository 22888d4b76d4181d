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

// command is one of bullshit's subcommands: its name, what `bullshit help`
// says of it (a line, and more lines indented under it when one is not
// enough), and what runs it with the arguments after its name.
type command struct {
	name string
	help string
	run  func(args []string) error
}

// commands are the subcommands, in the order `bullshit help` lists them;
// each runs from its own file.
var commands = []command{
	{"play", "the same, with flags: --solo deals a game against bots at once,\n--nick, --bots, --preset, --config, --iface, --no-bell", runPlay},
	{"host", "host a table (--headless for scripts; --table names it, --nick is you)", runHost},
	{"join", "join a table by name or address (--headless for scripts)", runJoin},
	{"sim", "bot-only games, and a report on how the bots fare", runSim},
	{"referee", "the engine's JSON line protocol on stdin/stdout", func([]string) error { return referee.Run(os.Stdin, os.Stdout) }},
	{"verify", "check a saved game's fairness audit", runVerify},
	{"rules", "how to play a preset with rules keys, as the table's rules screen says it", runRules},
	{"stats", "your record: games, wins, rating, calls, sneaks, the people you play most", runStats},
	{"bench", "print every figure of BENCHMARKS.md", runBench},
}

// noCommand is what bare `bullshit` (flags, or nothing) runs.
const noCommand = "play"

// lookup is the command called name, nil if there is none.
func lookup(name string) *command {
	for i := range commands {
		if commands[i].name == name {
			return &commands[i]
		}
	}
	return nil
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
	name := cmd
	if name == "" {
		name = noCommand
	}
	if c := lookup(name); c != nil {
		return c.run(args)
	}
	usage(os.Stderr)
	return fmt.Errorf("unknown command %q", cmd)
}

// usage is `bullshit help`: the commands table, one command a line.
func usage(w io.Writer) {
	fmt.Fprint(w, "Usage: bullshit [command] [flags]\n\n")
	fmt.Fprintf(w, "  %-10s %s\n", "(none)", "the lobby: tables on this network, or a game against bots")
	for _, c := range commands {
		name := c.name
		for l := range strings.SplitSeq(c.help, "\n") {
			fmt.Fprintf(w, "  %-10s %s\n", name, l)
			name = "" // the lines after the first are indented under it
		}
	}
	fmt.Fprint(w, "\nbullshit COMMAND --help lists a command's flags.\n")
}
