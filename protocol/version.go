package protocol

import "strconv"

// Version is a protocol version, major<<8 | minor.
type Version uint16

// Current is the version this package speaks: 1.9. What each minor
// version added:
//
//	1.1  Lobby.Evening and StepShare.K
//	1.2  Hello.WebAddr, Player.Web, Player.WebAddr and CodeNotHost (phones
//	     at the table), Settings.CallWindow
//	1.3  join codes proved with CPace: Hello.Nonce, Hello.Share,
//	     Challenge.Share, Seated.Proof
//	1.4  the deal's coin toss: Toss, NonceCommit, NonceReveal, Lobby.Nonces
//	1.5  Lobby.Commits, so that spectators audit the toss too, and the
//	     journal's signed chain: Step.Term, Step.Seal, Step.Sig
//	1.6  a seat's signature of its own move: the moves' Sig and Step.Mark
//	1.7  Settings.Grace and Settings.BotPace, so that a host elected later
//	     keeps the table's
//	1.8  Player.MadeFor, the host's count of a person's moves it made for
//	     them (what decides a rating)
//	1.9  Lobby.Paused: the host has paused the game
const Current Version = 1<<8 | 9

// MakeVersion returns major.minor.
func MakeVersion(major, minor uint8) Version { return Version(major)<<8 | Version(minor) }

// Major is the part that must match for two peers to talk.
func (v Version) Major() uint8 { return uint8(v >> 8) }

// Minor only grows within a major; see the package comment.
func (v Version) Minor() uint8 { return uint8(v) }

func (v Version) String() string {
	return strconv.Itoa(int(v.Major())) + "." + strconv.Itoa(int(v.Minor()))
}

// Compatible says whether a peer speaking v can talk to this package.
func (v Version) Compatible() bool { return v.Major() == Current.Major() }
