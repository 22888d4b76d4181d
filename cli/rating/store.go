package rating

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/bullshit-game/bullshit/cli/internal/atomicfile"
)

// File is the ratings file in the profile directory.
const File = "ratings.json"

// version is the file's format.
const version = 1

// keep is how many games' changes the store remembers, so a game recorded
// again returns the same changes.
const keep = 50

// Player is someone this profile has played with.
type Player struct {
	Nick string `json:"nick"` // the nickname last seen
	Rating
	Games int `json:"games"` // rated games played together
}

// Versus is how you fare against one player or one kind of bot.
type Versus struct {
	Nick  string `json:"nick"`
	Bot   string `json:"bot,omitempty"` // the bot's name, for a bot
	Games int    `json:"games"`         // games together: a bot level at three seats of one game is one
	// Met counts the seats met: a bot level at three seats of a game is
	// met three times, and Ahead, Level and Behind count each meeting.
	// 0 in a file of an older version, which counted those as games.
	Met    int `json:"met,omitempty"`
	Ahead  int `json:"ahead"` // seats met you finished ahead of
	Level  int `json:"level"`
	Behind int `json:"behind"`
}

// Score is your share against them: 1 ahead, ½ level, 0 behind.
func (v Versus) Score() float64 {
	met := v.Met
	if met == 0 {
		met = v.Games
	}
	if met == 0 {
		return 0
	}
	return (float64(v.Ahead) + float64(v.Level)/2) / float64(met)
}

// Tally is your record across games. Games ended early count only in Early.
type Tally struct {
	Games  int `json:"games"`  // finished games you played
	Rated  int `json:"rated"`  // of which moved your rating
	Early  int `json:"early"`  // games the host ended early
	Wins   int `json:"wins"`   // first place, not shared
	Places int `json:"places"` // the sum of your places
	Seats  int `json:"seats"`  // the sum of the table sizes
	Calls  int `json:"calls"`  // calls (and doubts) made
	Right  int `json:"right"`  // of which found a lie
	Sneaks int `json:"sneaks"` // sneaks made
	Caught int `json:"caught"` // of which were caught
}

// Logged is a game recorded, by its ID.
type Logged struct {
	ID      string   `json:"id"`
	Changes []Change `json:"changes"`
}

// Store is a profile's ratings and record: ratings.json.
type Store struct {
	Version int                `json:"version"`
	Nick    string             `json:"nick,omitempty"` // your nickname last played under
	Me      *Rating            `json:"me,omitempty"`   // your rating; nil before your first rated game
	Players map[string]*Player `json:"players"`        // by peer ID
	Versus  map[string]*Versus `json:"versus"`         // by peer ID, or "bot:NAME"
	Tally   Tally              `json:"record"`
	Recent  []Logged           `json:"recent,omitempty"` // the last games recorded, oldest first
}

// NewStore is an empty store.
func NewStore() *Store {
	return &Store{Version: version, Players: map[string]*Player{}, Versus: map[string]*Versus{}}
}

// Mine is your rating: New before your first rated game.
func (s *Store) Mine() Rating {
	if s.Me == nil {
		return New()
	}
	return *s.Me
}

// Load reads the store in dir; a missing file is an empty store. A damaged
// file is an error, never silently replaced.
func Load(dir string) (*Store, error) {
	s := NewStore()
	if dir == "" {
		return s, nil
	}
	path := filepath.Join(dir, File)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read ratings: %w", err)
	}
	if err := json.Unmarshal(b, s); err != nil {
		return nil, fmt.Errorf("ratings %s is damaged (fix or delete it): %w", path, err)
	}
	if s.Version > version {
		return nil, fmt.Errorf("ratings %s is from a newer bullshit (format %d)", path, s.Version)
	}
	s.Version = version
	if s.Players == nil {
		s.Players = map[string]*Player{}
	}
	if s.Versus == nil {
		s.Versus = map[string]*Versus{}
	}
	return s, nil
}

// Save writes the store to dir, through a temporary file so a crash never
// leaves half a file.
func (s *Store) Save(dir string) error { return atomicfile.WriteJSON(dir, File, s) }

// Record adds a finished game to the profile in dir and returns every
// seat's rating change, for the result sheet. A game with an ID already
// recorded changes nothing and returns the changes it made then. A
// spectator (res.You -1) records nothing and gets nil.
func Record(dir string, res Result) ([]Change, error) {
	s, err := Load(dir)
	if err != nil {
		return nil, err
	}
	ch, fresh := s.Apply(res)
	if !fresh {
		return ch, nil
	}
	return ch, s.Save(dir)
}

// Before is a seat's rating as this store knows it before res, and whether
// it knows it at all.
func (s *Store) Before(res Result, seat int) (Rating, bool) {
	if seat == res.You {
		return s.Mine(), s.Me != nil
	}
	if seat < 0 || seat >= len(res.Seats) {
		return Rating{}, false
	}
	if p := s.Players[res.Seats[seat].Peer]; p != nil && res.Seats[seat].Peer != "" {
		return p.Rating, true
	}
	return Rating{}, false
}

// Apply adds res to the store and returns the changes; fresh is false when
// the game was recorded before (or res.You isn't a seat) and nothing
// changed.
func (s *Store) Apply(res Result) (changes []Change, fresh bool) {
	if res.You < 0 || res.You >= len(res.Seats) {
		return nil, false
	}
	if res.ID != "" {
		for _, l := range s.Recent {
			if l.ID == res.ID {
				return append([]Change(nil), l.Changes...), false
			}
		}
	}
	if s.Players == nil {
		s.Players = map[string]*Player{}
	}
	if s.Versus == nil {
		s.Versus = map[string]*Versus{}
	}
	changes = Compute(res, func(seat int) (Rating, bool) { return s.Before(res, seat) })
	if res.ID != "" {
		s.Recent = append(s.Recent, Logged{res.ID, changes})
		if len(s.Recent) > keep {
			s.Recent = append([]Logged(nil), s.Recent[len(s.Recent)-keep:]...)
		}
	}
	me := res.Seats[res.You]
	s.Nick = me.Nick
	if res.EndedEarly {
		s.Tally.Early++
		return changes, true
	}
	s.tally(res, me)
	s.meet(res, me)
	s.remember(res, changes)
	return changes, true
}

// tally adds a game played to the end to the player's own tally.
func (s *Store) tally(res Result, me Seat) {
	t := &s.Tally
	t.Games++
	t.Seats += len(res.Seats)
	if me.Place > 0 {
		t.Places += me.Place
		if me.Place == 1 && shared(res, 1) == 1 {
			t.Wins++
		}
	}
	t.Calls += me.Stats.Calls
	t.Right += me.Stats.Right
	t.Sneaks += max(me.Stats.Sneaks, 0)
	t.Caught += me.Stats.Caught
}

// meet adds the game to the player's record against each other seat.
func (s *Store) meet(res Result, me Seat) {
	seen := map[string]bool{}
	for i, o := range res.Seats {
		if i == res.You {
			continue
		}
		key := o.Peer
		if o.Bot != "" {
			key = "bot:" + strings.ToLower(o.Bot)
		}
		if key == "" {
			continue
		}
		v := s.Versus[key]
		if v == nil {
			v = &Versus{Bot: strings.ToLower(o.Bot)}
			s.Versus[key] = v
		}
		if o.Bot == "" {
			v.Nick = o.Nick
		}
		if !seen[key] {
			seen[key] = true
			v.Games++
		}
		v.Met++
		switch {
		case me.Place <= 0 || o.Place <= 0:
		case me.Place < o.Place:
			v.Ahead++
		case me.Place == o.Place:
			v.Level++
		default:
			v.Behind++
		}
	}
}

// remember keeps the ratings the game changed: the player's own, and each
// rated person's at the table.
func (s *Store) remember(res Result, changes []Change) {
	t := &s.Tally
	for i, c := range changes {
		o := res.Seats[i]
		switch {
		case i == res.You:
			if c.Rated {
				s.Me = &Rating{c.After, c.RDNew}
				t.Rated++
			}
		case o.Bot != "" || o.Peer == "":
		case c.Rated:
			p := s.Players[o.Peer]
			if p == nil {
				p = &Player{}
				s.Players[o.Peer] = p
			}
			p.Nick, p.Rating = o.Nick, Rating{c.After, c.RDNew}
			p.Games++
		default:
			if p := s.Players[o.Peer]; p != nil {
				p.Nick = o.Nick
			}
		}
	}
}

// shared is how many seats have place p.
func shared(res Result, p int) int {
	n := 0
	for _, s := range res.Seats {
		if s.Place == p {
			n++
		}
	}
	return n
}
