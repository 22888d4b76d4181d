package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/bullshit-game/bullshit/cli/rating"
	"github.com/bullshit-game/bullshit/node"
)

// runStats prints the profile's record: games, wins, average place, rating
// and deviation, calls, sneaks, and the people played most.
func runStats(args []string) error { return printStats(os.Stdout, os.Stderr, args) }

func printStats(out, errOut io.Writer, args []string) error {
	fs := flag.NewFlagSet("stats", flag.ContinueOnError)
	fs.SetOutput(errOut)
	dir := fs.String("config", "", "profile `dir` (default: the user config dir's bullshit/)")
	asJSON := fs.Bool("json", false, "print the whole ratings file's contents as JSON")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: bullshit stats [--config DIR] [--json]\n\nPrints your record: games, wins, average place, your rating ± its deviation,\nyour calls and sneaks, and the people you play most and how you fare against each.\n\n")
		fs.PrintDefaults()
	}
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if err := flagsOnly(fs); err != nil {
		return err
	}
	if *dir == "" {
		d, err := node.DefaultDir()
		if err != nil {
			return err
		}
		*dir = d
	}
	s, err := rating.Load(*dir)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(out, s)
	}
	for _, l := range s.Lines() {
		fmt.Fprintln(out, l)
	}
	return nil
}
