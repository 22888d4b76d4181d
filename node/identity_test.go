package node

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

func TestLoadProfile_FirstRunThenSame(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cfg") // does not exist yet
	p1, err := LoadProfile(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p1.Key == nil || p1.Key.Type() != crypto.Ed25519 {
		t.Fatalf("key %v, want ed25519", p1.Key)
	}
	if p1.Nickname != "" || p1.Hints == nil {
		t.Fatalf("first run profile %+v, want empty nickname and a usable Hints map", p1)
	}
	p2, err := LoadProfile(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !p1.Key.Equals(p2.Key) {
		t.Fatal("second load made a new key: the peer ID would change")
	}
	if runtime.GOOS != "windows" {
		fi, err := os.Stat(filepath.Join(dir, KeyFile))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Fatalf("key file mode %v, want 0600", fi.Mode().Perm())
		}
	}
}

func TestSaveProfile_RoundTrip(t *testing.T) {
	dir := t.TempDir()
	p, err := LoadProfile(dir)
	if err != nil {
		t.Fatal(err)
	}
	p.Nickname = "Zoë 🃏"
	p.Hints["call"] = true
	if err := SaveProfile(dir, p); err != nil {
		t.Fatal(err)
	}
	q, err := LoadProfile(dir)
	if err != nil {
		t.Fatal(err)
	}
	if q.Nickname != p.Nickname || !q.Hints["call"] || q.Hints["other"] {
		t.Fatalf("reloaded %+v, want nickname %q and hint call", q, p.Nickname)
	}
	if !q.Key.Equals(p.Key) {
		t.Fatal("SaveProfile changed the key")
	}
	b, err := os.ReadFile(filepath.Join(dir, ProfileFile))
	if err != nil {
		t.Fatal(err)
	}
	kb, _ := crypto.MarshalPrivateKey(p.Key)
	if len(kb) > 0 && bytes.Contains(b, kb[len(kb)-32:]) {
		t.Fatal("profile.json holds key material")
	}
	if runtime.GOOS != "windows" {
		fi, _ := os.Stat(filepath.Join(dir, ProfileFile))
		if fi.Mode().Perm() != 0o600 {
			t.Fatalf("profile mode %v, want 0600", fi.Mode().Perm())
		}
	}
}

// Damaged files are errors, never a silent new identity.
func TestLoadProfile_Damaged(t *testing.T) {
	cases := []struct {
		name string
		file string
		data string
	}{
		{"garbage key", KeyFile, "not a key"},
		{"empty key", KeyFile, ""},
		{"bad json", ProfileFile, "{nickname:"},
		{"wrong json type", ProfileFile, `{"nickname": 7}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if c.file == ProfileFile {
				if _, err := LoadProfile(dir); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(dir, c.file), []byte(c.data), 0o600); err != nil {
				t.Fatal(err)
			}
			before, _ := os.ReadFile(filepath.Join(dir, KeyFile))
			if _, err := LoadProfile(dir); err == nil {
				t.Fatal("want an error")
			}
			after, _ := os.ReadFile(filepath.Join(dir, KeyFile))
			if string(before) != string(after) {
				t.Fatal("key file was rewritten")
			}
		})
	}
}

func TestLoadProfile_NotEd25519(t *testing.T) {
	dir := t.TempDir()
	k, _, err := crypto.GenerateSecp256k1Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := crypto.MarshalPrivateKey(k)
	os.WriteFile(filepath.Join(dir, KeyFile), b, 0o600)
	if _, err := LoadProfile(dir); err == nil {
		t.Fatal("want an error for a secp256k1 key")
	}
}

// Two programs starting at once on one directory end up with one identity.
func TestLoadProfile_Race(t *testing.T) {
	dir := t.TempDir()
	const n = 8
	ids := make([]peer.ID, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			p, err := LoadProfile(dir)
			if err != nil {
				errs[i] = err
				return
			}
			ids[i], errs[i] = peer.IDFromPrivateKey(p.Key)
		})
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if ids[i] != ids[0] {
			t.Fatalf("program %d got identity %s, program 0 got %s", i, ids[i], ids[0])
		}
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*"))
	if len(left) != 0 {
		t.Fatalf("temporary files left behind: %v", left)
	}
}

func TestProfile_BadArgs(t *testing.T) {
	if _, err := LoadProfile(""); err == nil {
		t.Error("LoadProfile(\"\"): want an error")
	}
	if err := SaveProfile("", &Profile{}); err == nil {
		t.Error("SaveProfile(\"\"): want an error")
	}
	if err := SaveProfile(t.TempDir(), nil); err == nil {
		t.Error("SaveProfile(nil): want an error")
	}
	d, err := DefaultDir()
	if err == nil && filepath.Base(d) != "bullshit" {
		t.Errorf("DefaultDir %q, want …/bullshit", d)
	}
}
