// Package lan finds tables on the local network: it chooses the network
// interface a table lives on (iface.go: the one the Wi-Fi or the cable is
// on, never a container bridge or a VPN), advertises a table and browses
// for them over multicast DNS (mdns.go), or in memory between the nodes of
// one process for tests (discovery.go's MemNet), and reads the address a
// player types where multicast is blocked (ParseAddr).
//
// It must never look beyond the local network (no DHT, no rendezvous, no
// DNS lookups: mDNS on one chosen interface only), never trust an advert
// (every TXT field is bounded and checked before it is shown, and a table
// is its host's peer ID and ID together, so a twin name can't stand in for
// it), and never open the game's stream: node dials the tables it finds.
// It knows a table only as its advert (TableInfo), and imports node/table
// for nothing but the phase words.
package lan
