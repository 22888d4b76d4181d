package node

// A player's identity: an ed25519 key made once and kept, so that the peer ID
// (what other players' tables remember) survives restarts, plus a small
// profile with the nickname and which first-run hints were shown.

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// Files in the config directory.
const (
	KeyFile     = "identity.key" // libp2p protobuf encoding of the private key
	ProfileFile = "profile.json"
)

// Profile is what a player's program remembers between runs.
type Profile struct {
	Nickname string `json:"nickname"`
	// Hints maps a first-run hint's name to true once the player has seen it.
	Hints map[string]bool `json:"hints,omitempty"`
	// Key is the player's identity; it lives in its own file, never in JSON.
	Key crypto.PrivKey `json:"-"`
}

// DefaultDir is where profiles live unless a flag says otherwise:
// $XDG_CONFIG_HOME/bullshit, ~/Library/Application Support/bullshit, %AppData%\bullshit.
func DefaultDir() (string, error) {
	d, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("find config directory: %w", err)
	}
	return filepath.Join(d, "bullshit"), nil
}

// LoadProfile reads the profile kept in dir, creating dir and the key on the
// first run. A missing profile file is an empty profile (no nickname yet). A
// damaged key file is an error, never silently replaced: that would change
// the player's peer ID.
func LoadProfile(dir string) (*Profile, error) {
	if dir == "" {
		return nil, errors.New("node: empty config directory")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create config directory: %w", err)
	}
	key, err := loadKey(filepath.Join(dir, KeyFile))
	if err != nil {
		return nil, err
	}
	p := &Profile{Key: key}
	path := filepath.Join(dir, ProfileFile)
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("read profile: %w", err)
	default:
		if err := json.Unmarshal(b, p); err != nil {
			return nil, fmt.Errorf("profile %s is damaged (fix or delete it): %w", path, err)
		}
	}
	if p.Hints == nil {
		p.Hints = map[string]bool{}
	}
	return p, nil
}

// SaveProfile writes p's nickname and hints to dir. The key file is not
// touched: it is written once, by LoadProfile.
func SaveProfile(dir string, p *Profile) error {
	if dir == "" || p == nil {
		return errors.New("node: SaveProfile needs a directory and a profile")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create config directory: %w", err)
	}
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return fmt.Errorf("encode profile: %w", err)
	}
	return writeFileAtomic(filepath.Join(dir, ProfileFile), append(b, '\n'))
}

// loadKey reads the key at path or makes it. Two programs starting at once on
// the same directory agree: the file is created exclusively and the loser
// reads the winner's key.
func loadKey(path string) (crypto.PrivKey, error) {
	for range 2 {
		b, err := os.ReadFile(path)
		if err == nil {
			k, err := crypto.UnmarshalPrivateKey(b)
			if err != nil {
				return nil, fmt.Errorf("identity key %s is damaged (delete it to make a new identity): %w", path, err)
			}
			if k.Type() != crypto.Ed25519 {
				return nil, fmt.Errorf("identity key %s is not ed25519", path)
			}
			return k, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("read identity key: %w", err)
		}
		k, _, err := crypto.GenerateEd25519Key(rand.Reader)
		if err != nil {
			return nil, fmt.Errorf("make identity key: %w", err)
		}
		b, err = crypto.MarshalPrivateKey(k)
		if err != nil {
			return nil, fmt.Errorf("encode identity key: %w", err)
		}
		// Write a temporary file, then link it into place: link fails if
		// the name exists, and the key file is never seen half written.
		tmp, err := writeTemp(path, b)
		if err != nil {
			return nil, err
		}
		err = os.Link(tmp, path)
		if err != nil && !errors.Is(err, fs.ErrExist) {
			// A file system without hard links (FAT): give up on
			// exclusivity rather than on the key.
			err = os.Rename(tmp, path)
		}
		os.Remove(tmp)
		if err == nil {
			return k, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("save identity key: %w", err)
		}
		// Someone else won the race: read theirs.
	}
	return nil, fmt.Errorf("identity key %s: could not create or read it", path)
}

// writeFile replaces path atomically with a 0600 file holding b.
func writeFileAtomic(path string, b []byte) error {
	tmp, err := writeTemp(path, b)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("save %s: %w", path, err)
	}
	return nil
}

// writeTemp writes b to a new 0600 file next to path and returns its name.
func writeTemp(path string, b []byte) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return "", fmt.Errorf("save %s: %w", path, err)
	}
	name := f.Name()
	// CreateTemp already makes 0600 files; Chmod says so on every system.
	_, err = f.Write(b)
	if err == nil {
		err = f.Chmod(0o600)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name)
		return "", fmt.Errorf("save %s: %w", path, err)
	}
	return name, nil
}

// DefaultNick is the nickname of a player who chose none: "Player" and
// the end of its peer ID, as the lobby shows it, so that two such players
// are two names to a table, which refuses names alike.
func DefaultNick(key crypto.PrivKey) string {
	id, err := peer.IDFromPrivateKey(key)
	if err != nil {
		return "Player"
	}
	s := id.String()
	return "Player " + s[max(0, len(s)-4):]
}
