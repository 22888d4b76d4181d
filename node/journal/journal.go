package journal

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/bullshit-game/bullshit/engine"
	"github.com/bullshit-game/bullshit/node/gamewire"
)

// The journal is the host's table on disk: a header (the table, the
// engine.Config with its secret seed, the seat names, the commitment's
// salt) and then every accepted engine.Step with its time, appended and
// fsynced one by one, so a host that crashes or restarts replays its game
// to the exact state it left (Resume).
//
// The file is a magic line and then records, each
//
//	length of payload (uvarint) | CRC-32C (Castagnoli, little-endian) | payload (JSON)
//
// where the CRC covers the length bytes and the payload. The first record
// is the header, every later one a step. A crash mid-append leaves a torn
// last record: opening the journal finds it (too short, or a CRC that
// doesn't match), cuts the file back to the last whole record and says how
// many bytes went. A record whose CRC holds but whose JSON doesn't decode
// was written that way: that is an error, never silently cut.
//
// The journal holds the seed, which decides every hand: it is created
// readable by its owner only.

// journalMagic opens every journal file.
const journalMagic = "bullshit journal v1\n"

// maxRecord bounds a record's length; a longer one is damage.
const maxRecord = 1 << 20

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Journal errors.
var (
	ErrNotJournal    = errors.New("not a bullshit game journal")
	ErrJournalHeader = errors.New("the journal's header is damaged")
	ErrJournalClosed = errors.New("the journal is closed")
)

// JournalError is a journal that can't be read or written as it is.
type JournalError struct {
	Path   string
	Offset int64 // the byte where the trouble is, -1 when not known
	Err    error
}

func (e *JournalError) Error() string {
	if e.Offset < 0 {
		return "journal " + e.Path + ": " + e.Err.Error()
	}
	return fmt.Sprintf("journal %s at byte %d: %v", e.Path, e.Offset, e.Err)
}

func (e *JournalError) Unwrap() error { return e.Err }

// JournalHeader is what a table is, before any step.
type JournalHeader struct {
	Table   string                  // the table's ID
	Name    string                  // the table's name
	Config  engine.Config           // rules, seats and the secret seed
	Seats   []string                // the seat names, by seat
	Salt    [gamewire.SaltSize]byte // the commitment's salt: Commit(Config.Seed, Salt)
	Started time.Time               // the host's wall clock at the deal; steps count from it
	// What a restarted host needs to seat everyone again: who sits where
	// (a peer ID, "local" for the host, "" for a bot), the bots' names, the
	// table's settings and where it listened.
	Owners   []string
	Bots     []string
	Settings SettingsJSON
	Listen   []string
	// Nonces are the players' nonces the deal mixed (node/table's toss.go): the engine
	// deals from DealSeed(Config.Seed, Salt, Nonces).
	Nonces [][gamewire.NonceSize]byte
}

// Dealt is the config the engine dealt from.
func (h JournalHeader) Dealt() engine.Config {
	c := h.Config
	c.Seed = gamewire.DealSeed(c.Seed, h.Salt, h.Nonces)
	return c
}

// SettingsJSON is a table's settings in a journal.
type SettingsJSON struct {
	Reveal    time.Duration `json:"reveal,omitempty"`
	TurnClock time.Duration `json:"turn_clock,omitempty"`
	Pace      string        `json:"pace,omitempty"`
	Private   bool          `json:"private,omitempty"`
	// Grace is how long a person may be away before a bot plays for
	// them: a host resumed from its journal waits no longer for a player
	// who died with it than the table did (0: the default).
	Grace time.Duration `json:"grace,omitempty"`
}

// Journal is an open journal, appended to by the host. It is safe for
// concurrent use.
type Journal struct {
	mu   sync.Mutex
	f    *os.File
	path string
	size int64 // bytes of whole records; the next one goes here
	n    int   // steps
	cut  int64
	buf  []byte
	err  error // a failed write: the tail on disk is unknown until reopened
}

// configJSON is an engine.Config on disk. The seed is a string, so a
// reader with float64 numbers (jq, JavaScript) can't round it.
type configJSON struct {
	Rules engine.Rules    `json:"rules"`
	Seats int             `json:"seats"`
	Seed  uint64          `json:"seed,string"`
	Hands [][]engine.Card `json:"hands,omitempty"`
	First *int            `json:"first,omitempty"`
	// Deck is a blind game's deck as its parties' shuffle left it (the
	// seed deals it, picking the dealer): revealed at its end.
	Deck []engine.Card `json:"deck,omitempty"`
}

func toConfigJSON(c engine.Config) configJSON {
	return configJSON{Rules: c.Rules, Seats: c.Seats, Seed: c.Seed, Hands: c.Hands, First: c.First, Deck: c.Deck}
}

// check refuses a config with no rules: the zero Rules is no game, and
// would not survive being written back.
func (c configJSON) check() error {
	if c.Rules == (engine.Rules{}) {
		return errors.New("the config names no rules")
	}
	return nil
}

func (c configJSON) config() engine.Config {
	return engine.Config{Rules: c.Rules, Seats: c.Seats, Seed: c.Seed, Hands: c.Hands, First: c.First, Deck: c.Deck}
}

type headerJSON struct {
	Table    string       `json:"table"`
	Name     string       `json:"name"`
	Config   configJSON   `json:"config"`
	Seats    []string     `json:"seats"`
	Salt     hexBytes     `json:"salt"`
	Started  time.Time    `json:"started,omitzero"`
	Owners   []string     `json:"owners,omitempty"`
	Bots     []string     `json:"bots,omitempty"`
	Settings SettingsJSON `json:"settings,omitzero"`
	Listen   []string     `json:"listen,omitempty"`
	Nonces   []hexBytes   `json:"nonces,omitempty"`
}

// hexBytes is bytes written as hex in JSON.
type hexBytes []byte

func (h hexBytes) MarshalText() ([]byte, error) { return []byte(hex.EncodeToString(h)), nil }

func (h *hexBytes) UnmarshalText(b []byte) error {
	v, err := hex.DecodeString(string(b))
	*h = v
	return err
}

// hex32 reads 32 bytes of hex.
func hex32(h hexBytes, what string) ([32]byte, error) {
	var out [32]byte
	if len(h) != 32 {
		return out, fmt.Errorf("the %s is %d bytes, not 32", what, len(h))
	}
	copy(out[:], h)
	return out, nil
}

// MarshalJSON writes the header as the journal stores it.
func (h JournalHeader) MarshalJSON() ([]byte, error) {
	return json.Marshal(headerJSON{Table: h.Table, Name: h.Name, Config: toConfigJSON(h.Config), Seats: h.Seats,
		Salt: h.Salt[:], Started: h.Started, Owners: h.Owners, Bots: h.Bots, Settings: h.Settings, Listen: h.Listen,
		Nonces: hexList(h.Nonces)})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (h *JournalHeader) UnmarshalJSON(b []byte) error {
	var w headerJSON
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	if err := w.Config.check(); err != nil {
		return err
	}
	salt, err := hex32(w.Salt, "salt")
	if err != nil {
		return err
	}
	nonces, err := hex32List(w.Nonces, "nonce")
	if err != nil {
		return err
	}
	*h = JournalHeader{Table: w.Table, Name: w.Name, Config: w.Config.config(), Seats: w.Seats, Salt: salt, Started: w.Started,
		Owners: w.Owners, Bots: w.Bots, Settings: w.Settings, Listen: w.Listen, Nonces: nonces}
	return nil
}

// appendRecord frames payload as a record.
func appendRecord(b, payload []byte) []byte {
	start := len(b)
	b = binary.AppendUvarint(b, uint64(len(payload)))
	crc := crc32.Update(0, castagnoli, b[start:])
	crc = crc32.Update(crc, castagnoli, payload)
	b = binary.LittleEndian.AppendUint32(b, crc)
	return append(b, payload...)
}

// errTorn is a record that isn't whole: the tail of a crash, or damage.
var errTorn = errors.New("torn record")

// readRecord reads the record at the start of data and returns its
// payload and its length on disk.
func readRecord(data []byte) (payload []byte, size int, err error) {
	n, k := binary.Uvarint(data)
	if k <= 0 || n > maxRecord || len(data)-k < 4 || uint64(len(data)-k-4) < n {
		return nil, 0, errTorn
	}
	want := binary.LittleEndian.Uint32(data[k:])
	crc := crc32.Update(0, castagnoli, data[:k])
	payload = data[k+4 : k+4+int(n)]
	if crc32.Update(crc, castagnoli, payload) != want {
		return nil, 0, errTorn
	}
	return payload, k + 4 + int(n), nil
}

// CreateJournal starts a journal at path for a table about to deal. It
// refuses to overwrite a file that exists. The header is on disk, synced,
// before it returns.
func CreateJournal(path string, h JournalHeader) (*Journal, error) {
	if _, err := os.Lstat(path); err == nil {
		return nil, &JournalError{Path: path, Offset: -1, Err: fs.ErrExist}
	}
	head, err := json.Marshal(h)
	if err != nil {
		return nil, &JournalError{Path: path, Offset: -1, Err: err}
	}
	data := appendRecord([]byte(journalMagic), head)
	// Written whole under another name, then renamed: a crash leaves no
	// journal or a whole one, never half a header.
	tmp := path + ".new"
	if err := writeSynced(tmp, data, 0o600); err != nil {
		return nil, &JournalError{Path: path, Offset: -1, Err: err}
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return nil, &JournalError{Path: path, Offset: -1, Err: err}
	}
	if err := syncDir(filepath.Dir(path)); err != nil {
		return nil, &JournalError{Path: path, Offset: -1, Err: err}
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, &JournalError{Path: path, Offset: -1, Err: err}
	}
	return &Journal{f: f, path: path, size: int64(len(data))}, nil
}

// writeSynced writes data to a new file at path and syncs it.
func writeSynced(path string, data []byte, perm fs.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	return f.Close()
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, errors.ErrUnsupported) {
		return err
	}
	return nil
}

// OpenJournal opens a journal to read it and append to it. A torn tail is
// cut off the file first (Cut says how many bytes went); it returns the
// header and every whole step.
func OpenJournal(path string) (*Journal, JournalHeader, []engine.Step, error) {
	var h JournalHeader
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, h, nil, &JournalError{Path: path, Offset: -1, Err: err}
	}
	j, h, steps, err := readJournal(f, path)
	if err != nil {
		f.Close()
		return nil, h, nil, err
	}
	return j, h, steps, nil
}

func readJournal(f *os.File, path string) (*Journal, JournalHeader, []engine.Step, error) {
	var h JournalHeader
	fail := func(off int, err error) (*Journal, JournalHeader, []engine.Step, error) {
		return nil, h, nil, &JournalError{Path: path, Offset: int64(off), Err: err}
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return fail(-1, err)
	}
	if !bytes.HasPrefix(data, []byte(journalMagic)) {
		return fail(0, ErrNotJournal)
	}
	off := len(journalMagic)
	head, size, err := readRecord(data[off:])
	if err != nil {
		return fail(off, ErrJournalHeader)
	}
	if err := json.Unmarshal(head, &h); err != nil {
		return fail(off, fmt.Errorf("%w: %v", ErrJournalHeader, err))
	}
	off += size
	var steps []engine.Step
	for off < len(data) {
		payload, size, err := readRecord(data[off:])
		if err != nil {
			break // the torn tail: cut below
		}
		var s engine.Step
		if err := json.Unmarshal(payload, &s); err != nil {
			return fail(off, fmt.Errorf("step %d is whole but unreadable: %v", len(steps), err))
		}
		steps = append(steps, s)
		off += size
	}
	j := &Journal{f: f, path: path, size: int64(off), n: len(steps), cut: int64(len(data) - off)}
	if j.cut > 0 {
		if err := f.Truncate(int64(off)); err != nil {
			return fail(off, fmt.Errorf("cutting a torn tail: %w", err))
		}
		if err := f.Sync(); err != nil {
			return fail(off, fmt.Errorf("cutting a torn tail: %w", err))
		}
	}
	return j, h, steps, nil
}

// Resume opens a journal and replays its steps: the game exactly as the
// host left it, with the journal open to go on appending.
func Resume(path string) (*Journal, *engine.Game, JournalHeader, []engine.Step, error) {
	j, h, steps, err := OpenJournal(path)
	if err != nil {
		return nil, nil, h, nil, err
	}
	g, _, err := engine.Replay(h.Dealt(), steps)
	if err != nil {
		j.Close()
		return nil, nil, h, nil, &JournalError{Path: path, Offset: -1, Err: fmt.Errorf("replaying: %w", err)}
	}
	return j, g, h, steps, nil
}

// Append writes a step and syncs it to disk before it returns. After a
// failed write the journal refuses more: reopen it, which cuts whatever
// half-written tail the failure left.
func (j *Journal) Append(s engine.Step) error {
	payload, err := json.Marshal(s)
	if err != nil {
		return &JournalError{Path: j.path, Offset: -1, Err: err}
	}
	if len(payload) > maxRecord {
		return &JournalError{Path: j.path, Offset: -1, Err: fmt.Errorf("a step of %d bytes", len(payload))}
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil {
		return ErrJournalClosed
	}
	if j.err != nil {
		return j.err
	}
	j.buf = appendRecord(j.buf[:0], payload)
	if _, err := j.f.WriteAt(j.buf, j.size); err != nil {
		j.err = &JournalError{Path: j.path, Offset: j.size, Err: err}
		return j.err
	}
	if err := j.f.Sync(); err != nil {
		j.err = &JournalError{Path: j.path, Offset: j.size, Err: err}
		return j.err
	}
	j.size += int64(len(j.buf))
	j.n++
	return nil
}

// Len is the number of steps in the journal.
func (j *Journal) Len() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.n
}

// Cut is how many bytes of torn tail opening the journal cut off.
func (j *Journal) Cut() int64 { return j.cut }

// Path is the journal's file.
func (j *Journal) Path() string { return j.path }

// Close closes the file. Every appended step is already on disk.
func (j *Journal) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil {
		return ErrJournalClosed
	}
	err := j.f.Close()
	j.f = nil
	return err
}
