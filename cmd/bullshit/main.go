// Command bullshit is the game: the lobby and table in a terminal, a LAN
// host or player, the referee line protocol, the simulator and the audit.
// It parses flags into a config and wires the packages; nothing else.
package main

import (
	"fmt"
	"os"

	"github.com/bullshit-game/bullshit/engine/referee"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "bullshit:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	cmd := ""
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "referee":
		return referee.Run(os.Stdin, os.Stdout)
	case "help", "-h", "--help":
		usage()
		return nil
	}
	usage()
	return fmt.Errorf("unknown command %q", cmd)
}

func usage() {
	fmt.Fprint(os.Stderr, `Usage: bullshit [command]

  referee    the engine's JSON line protocol on stdin/stdout
`)
}
