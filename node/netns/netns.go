// Package netns finds and checks what the namespace tests and `bullshit
// bench --netns` need to put processes on a pretend LAN (../shared/netns.sh,
// root, iproute2), and reaps the processes they start there. It is test
// and measurement tooling: it must never import testing (the shipped binary
// links it for the bench), and the game's own code never imports it.
package netns

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// Usable says why this machine can't make network namespaces (not root,
// no iproute2), nil when it can.
func Usable() error {
	if os.Geteuid() != 0 {
		return errors.New("needs root to create network namespaces")
	}
	if _, err := exec.LookPath("ip"); err != nil {
		return errors.New("needs iproute2 (the ip command)")
	}
	return nil
}

// Root is the module's root: the directory with go.mod at or above the
// working directory.
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("repository root (go.mod) not found")
		}
		dir = parent
	}
}

// Script is the path of netns.sh: $BS_NETNS_SH when set, else
// ../shared/netns.sh beside the module's root, where CI clones it. It says
// so when there is none.
func Script() (string, error) {
	if s := os.Getenv("BS_NETNS_SH"); s != "" {
		return s, nil
	}
	root, err := Root()
	if err != nil {
		return "", err
	}
	s := filepath.Join(root, "..", "shared", "netns.sh")
	if _, err := os.Stat(s); err != nil {
		return "", fmt.Errorf("netns.sh not found at %s (set BS_NETNS_SH)", s)
	}
	return s, nil
}

// Reap waits for a started process that was told to end (a signal, its
// stdin closed), and kills it if it is still there after grace.
func Reap(cmd *exec.Cmd, grace time.Duration) {
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(grace):
		cmd.Process.Kill()
		<-done
	}
}
