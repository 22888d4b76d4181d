package flood

// A stranger's flood at any host, from any addresses: what Run throws at
// a table on loopback, thrown by the end-to-end tests from a namespace of
// many LAN addresses at the real binary (cmd/bullshit, issue 13's attack
// 7). Only the flood: the host's CPU and the players are the caller's.

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
)

// An Attack is a stranger's flood made ready against a host: its nodes
// started, nothing sent yet.
type Attack struct {
	kind Kind
	f    flood
	e    *env
}

// NewAttack readies the stranger's flood named kind (of Kinds, Who
// Stranger) against the host's game at at, from addrs, addresses of this
// machine's own that the host can reach: its own nodes listen there, and
// its connections come from there. The web flood needs the host's web
// entry, web; the others take "".
func NewAttack(ctx context.Context, kind string, at peer.AddrInfo, web string, addrs []net.IP) (*Attack, error) {
	i := slices.IndexFunc(Kinds, func(k Kind) bool { return k.Name == kind })
	if i < 0 || Kinds[i].Who != Stranger {
		return nil, fmt.Errorf("flood: no stranger's flood %q", kind)
	}
	if len(addrs) == 0 {
		return nil, errors.New("flood: no addresses to flood from")
	}
	e := &env{at: at, web: web, addrs: addrs}
	f, err := Kinds[i].prep(ctx, e)
	if err != nil {
		return nil, fmt.Errorf("flood %s: %w", kind, err)
	}
	return &Attack{kind: Kinds[i], f: f, e: e}, nil
}

// Open is how many connections the flood holds open now: the slowloris's
// half-open ones (0 for the other floods), so that a caller can wait until
// they fill what the host lets them before the players come.
func (s *Attack) Open() int { return int(s.e.open.Load()) }

// Throw floods the host until ctx ends, cleans up after itself (its nodes
// closed: an Attack is thrown once) and says what it offered and what
// the host answered, as the flooder counted it; the host's figures
// (HostCPU, Shouts …) are Run's, zero here.
func (s *Attack) Throw(ctx context.Context) Result {
	r := Result{Kind: s.kind.Name, Who: s.kind.Who, What: s.kind.What}
	t0 := time.Now()
	t := s.f(ctx)
	r.Wall = time.Since(t0)
	r.take(t)
	return r
}
