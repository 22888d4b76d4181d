package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/bullshit-game/bullshit/node"
)

func init() { commands["verify"] = runVerify }

// runVerify is `bullshit verify FILE`: check a saved game's commitment and
// replay it against what the seat was shown. It prints "verified", or
// every difference found and exits non-zero.
func runVerify(args []string) error { return verify(args, os.Stdout, os.Stderr) }

func verify(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: bullshit verify FILE\n\nChecks a saved game: the host's seed against the commitment it published\nbefore the deal, and a replay of the whole game against what this seat was shown.")
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errors.New("verify takes one saved game file")
	}
	path := fs.Arg(0)
	g, err := node.LoadGame(path)
	if err != nil {
		return err
	}
	problems := node.VerifyGame(g)
	who := fmt.Sprintf("seat %d", g.Seat+1) // counted from 1, as on the screen
	if g.Seat < 0 {
		who = "a spectator"
	}
	if len(problems) == 0 {
		fmt.Fprintf(stdout, "verified: %q as %s, %d steps replayed, %d events matched\n", g.Table, who, len(g.Steps), len(g.Events))
		return nil
	}
	fmt.Fprintf(stdout, "NOT verified: %q as %s:\n", g.Table, who)
	for _, p := range problems {
		fmt.Fprintln(stdout, "  "+p)
	}
	return fmt.Errorf("%s: the host's game did not check out", path)
}
