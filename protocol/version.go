package protocol

import "strconv"

// Version is a protocol version, major<<8 | minor.
type Version uint16

// Current is the version this package speaks: 2.2, which is 2.1 and the
// blind table's three messages (types 89–91, blind.go: the deal's terms,
// the host's log, a move by handle), so that a host plays a game whose
// cards it never sees; a node of 2.1 or older is dealt as before.
//
// 2.1 was 2.0 and the
// mental deck's nine messages (types 80–88, deck.go: keys, recovery
// splits, shuffles, deals, openings, hand-overs, recovery, pooled
// sub-shares and the secrets published at the end). It changes no field
// of 2.0's. A 2.0 peer refuses those types as unknown (ErrUnknownType,
// the envelope still opened so that it can be refused by sequence
// number), which is the minor-version rule of the package comment: 2.0
// and 2.1 peers talk, as long as no deck message passes between them.
//
// 2.0 was 1.9 made plain. The rules travel as a typed struct (Rules)
// instead of a map of strings, every duration in milliseconds (a
// journal step's time in nanoseconds) with the unit in its name, nothing
// twice (1.x sent the call window as a rule in seconds and in ms), and no
// field nobody read (Settings.Pace, Window, Bots and Private, Hello.Seat,
// Lobby.Started, Leave.Reason, State.No and Data, StateRequest.No, and the
// Start, HostGone, NewHost, Share and Commit messages); every field of
// 1.x's minors is required. A 1.x peer and a 2.x one don't talk: each
// refuses the other's envelopes (ErrVersion, a *VersionError), and a host
// answers a joiner of another major with a Refusal it can read
// (Signer.SealRefusal, CodeVersion, VersionRefusal).
const Current Version = 2<<8 | 2 // major 2, minor 2

// Blind is the first version that plays at a blind table.
const Blind Version = 2<<8 | 2

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

// VersionError is the ErrVersion of an envelope of another major: the
// version its sender speaks and, when its header reads as this version's
// does, its sequence number, so that a host can answer it. Neither is
// verified.
type VersionError struct {
	Peer Version
	Seq  uint64 // 0 when the header did not read: garbage, likely
}

func (e *VersionError) Error() string {
	return "peer speaks " + e.Peer.String() + ", we speak " + Current.String()
}

// VersionRefusal is the sentence a host of Current refuses a joiner
// speaking peer with (CodeVersion).
func VersionRefusal(peer Version) string {
	if peer.Major() < Current.Major() {
		return "This table needs bullshit " + Current.String() + " or newer."
	}
	return "This table runs bullshit " + Current.String() + ", older than yours (" + peer.String() + "): its host needs to update."
}

// HostVersionRefusal is the sentence a joiner of Current says when the
// host it asked speaks host, another major, and its refusal can't be read.
func HostVersionRefusal(host Version) string {
	if host.Major() < Current.Major() {
		return "This table's host runs bullshit " + host.String() + ", older than yours (" + Current.String() + "): the host needs to update."
	}
	return "This table needs bullshit " + host.String() + " or newer."
}
