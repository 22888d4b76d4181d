package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/bullshit-game/bullshit/cli"
	"github.com/bullshit-game/bullshit/engine"
)

// runRules prints how to play a table with the given preset and rules keys:
// the same text as the table's rules screen.
func runRules(args []string) error { return printRules(os.Stdout, os.Stderr, args) }

func printRules(out, errOut io.Writer, args []string) error {
	fs := flag.NewFlagSet("rules", flag.ContinueOnError)
	fs.SetOutput(errOut)
	preset := fs.String("preset", "standard", "rules preset: "+strings.Join(engine.Presets, ", "))
	var kv rulesFlag
	fs.Var(&kv, "rules", "a rules `key=value` (repeatable), keys as in REFEREE.md")
	seats := fs.Int("seats", 0, "seats at the table, 2 to 10 (0: say it for any table)")
	width := fs.Int("width", cli.RulesWidth, "wrap to this many columns")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: bullshit rules [--preset P] [--rules key=value …] [--seats N]\n\nPrints how to play a table with these rules, as the table's rules screen shows it.\n\n")
		fs.PrintDefaults()
	}
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if err := flagsOnly(fs); err != nil {
		return err
	}
	r, err := parseRules(*preset, kv)
	if err != nil {
		return err
	}
	if *seats != 0 {
		if err := r.Check(*seats); err != nil {
			return err
		}
	}
	for _, l := range cli.RulesText(r, *seats, *width) {
		fmt.Fprintln(out, l)
	}
	return nil
}
