package webwire

import "errors"

// errClosed is what a closed Conn's reads and writes return: net.ErrClosed's
// words, without package net, which the page does without (its init and
// tables are 60 kB of the download, for an error value and an interface).
var errClosed = errors.New("use of closed network connection")
