// Package cli is the terminal client: the lobby, the waiting room, the
// table and the result sheet, as a bubbletea program. Its keys are
// bubbles key maps (keys.go), from which its bars and help are drawn; its
// text fields are bubbles' textinput, the countdown bubbles' progress.
//
// It is Model/Update/View. Update is pure: it reads messages and returns a
// new state and commands; every effect (a move sent to the table, a file
// saved, a bell rung, a wait on the network) lives in a tea.Cmd. The table
// reaches the screen as node.Updates pushed in as messages, and time as
// tick messages, so a test can drive a whole game with no terminal and no
// clock.
//
// The headless seats of `bullshit host --headless` and `join --headless`
// print their text here too (headless.go), beside the screen's sentences:
// a line an event, which scripts parse.
//
// It must never import libp2p or open a socket: it talks to a table.Session
// for a table and to the small Lobby interface for the tables around, both
// wired by cmd/bullshit. It must never decide a rule either: what is legal
// is the engine's to say, and a refusal comes back as a sentence to show.
package cli
