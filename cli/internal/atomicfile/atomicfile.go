// Package atomicfile writes the profile's JSON files (settings, hints,
// ratings) so that a crash never leaves half a file.
package atomicfile

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// WriteJSON writes v, indented, to dir/name through a temporary file in
// dir, creating dir (private to the user) if need be. An empty dir writes
// nothing: a profile kept nowhere.
func WriteJSON(dir, name string, v any) error {
	if dir == "" {
		return nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+name+".*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), filepath.Join(dir, name))
}
