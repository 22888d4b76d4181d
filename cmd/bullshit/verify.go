package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/bullshit-game/bullshit/cli"
	"github.com/bullshit-game/bullshit/node/gamewire"
	"github.com/bullshit-game/bullshit/node/journal"
)

// runVerify is `bullshit verify FILE [SHARED]`: check a saved game's
// commitment and replay it against what the seat was shown. It prints
// "verified", or every difference found and exits non-zero. With the text
// S wrote on the result sheet too, it checks that the text tells that
// game: its places, its winner, its best call and boldest sneak.
func runVerify(args []string) error { return verify(args, os.Stdout, os.Stderr) }

// maxShared bounds a shared text: a game's is a couple of KB.
const maxShared = 1 << 20

func verify(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: bullshit verify GAME.json [SHARED.txt]\n\nChecks a saved game: the host's seed against the commitment it published\nbefore the deal, and a replay of the whole game against what this seat was shown.\nWith the text S wrote on the result sheet (in the profile's shared/), checks\ntoo that it tells this game: the places, the winner, the best call and the\nboldest sneak.")
	}
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() < 1 || fs.NArg() > 2 {
		fs.Usage()
		return errors.New("verify takes one saved game file, and the text shared of it if you like")
	}
	path := fs.Arg(0)
	var facts *cli.SharedFacts
	if fs.NArg() == 2 {
		// The text is read first: a file that is no shared game is a
		// mistake in the command, not a verdict on the game.
		f, err := readShared(fs.Arg(1))
		if err != nil {
			return err
		}
		facts = &f
	}
	g, err := journal.LoadGame(path)
	if err != nil {
		return err
	}
	problems := journal.VerifyGame(g)
	who := fmt.Sprintf("seat %d", g.Seat+1) // counted from 1, as on the screen
	if g.Seat < 0 {
		who = "a spectator"
	}
	if len(problems) > 0 {
		fmt.Fprintf(stdout, "NOT verified: %q as %s:\n", g.Table, who)
		for _, p := range problems {
			fmt.Fprintln(stdout, "  "+p)
		}
		return fmt.Errorf("%s: the host's game did not check out", path)
	}
	fmt.Fprintf(stdout, "verified: %q as %s, %d steps replayed, %d events matched\n", g.Table, who, len(g.Steps), len(g.Events))
	if n := mixedNonces(g.Toss.Nonces); n > 0 {
		fmt.Fprintf(stdout, "  the deal mixed %d players' nonces into the host's seed\n", n)
	}
	for _, n := range journal.GameNotes(g) {
		fmt.Fprintln(stdout, "  note: "+n)
	}
	if facts == nil {
		return nil
	}
	if diff := cli.CheckShare(g, *facts); len(diff) > 0 {
		fmt.Fprintf(stdout, "the shared text does NOT tell this game (%s):\n", fs.Arg(1))
		for _, d := range diff {
			fmt.Fprintln(stdout, "  "+d)
		}
		return fmt.Errorf("%s: the shared text doesn't match the game", fs.Arg(1))
	}
	checked := fmt.Sprintf("%d places and the winner", len(facts.Places))
	switch {
	case facts.CallPlay >= 0 && facts.SneakPlay >= 0:
		checked = fmt.Sprintf("%d places, the winner, the best call and the boldest sneak", len(facts.Places))
	case facts.CallPlay >= 0:
		checked = fmt.Sprintf("%d places, the winner and the best call", len(facts.Places))
	}
	fmt.Fprintf(stdout, "the shared text tells this game: %s match\n", checked)
	return nil
}

// readShared reads the text S wrote.
func readShared(path string) (cli.SharedFacts, error) {
	f, err := os.Open(path)
	if err != nil {
		return cli.SharedFacts{}, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxShared+1))
	if err != nil {
		return cli.SharedFacts{}, err
	}
	if len(b) > maxShared {
		return cli.SharedFacts{}, fmt.Errorf("%s: too big for a shared game", path)
	}
	facts, err := cli.ParseShare(string(b))
	if err != nil {
		return facts, fmt.Errorf("%s: %w", path, err)
	}
	return facts, nil
}

// mixedNonces counts the players' nonces a deal mixed.
func mixedNonces(nonces [][gamewire.NonceSize]byte) int {
	n := 0
	for _, x := range nonces {
		if x != ([gamewire.NonceSize]byte{}) {
			n++
		}
	}
	return n
}
