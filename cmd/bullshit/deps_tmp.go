package main

// deps_tmp keeps the pinned modules in go.mod until the packages that use them land.

import (
	_ "charm.land/bubbletea/v2"
	_ "charm.land/lipgloss/v2"
	_ "github.com/creack/pty"
	_ "github.com/hashicorp/mdns"
	_ "github.com/libp2p/go-libp2p"
	_ "github.com/libp2p/go-libp2p/core/crypto"
	_ "github.com/libp2p/go-libp2p/p2p/transport/tcp"
	_ "github.com/vmihailenco/msgpack/v5"
)
