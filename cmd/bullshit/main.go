// Command bullshit is the game: the lobby and table in a terminal, a LAN
// host or player, the referee line protocol, the simulator and the audit.
// It parses flags into a config and wires the packages; nothing else.
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/bullshit-game/bullshit/engine/referee"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "bullshit:", err)
		os.Exit(1)
	}
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
		usage()
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
	usage()
	return fmt.Errorf("unknown command %q", cmd)
}

func usage() {
	fmt.Fprint(os.Stderr, `Usage: bullshit [command] [flags]

  (none)     the lobby: tables on this network, or a game against bots
  referee    the engine's JSON line protocol on stdin/stdout
  sim        bot-only games, and a report on how the bots fare
  host       host a table (--headless for scripts)
  join       join a table by name or address (--headless for scripts)
  verify     check a saved game's fairness audit
  bench      print every figure of BENCHMARKS.md
`)
}
