package table

import "sync"

// Mailbox delivers updates to one reader without ever blocking the table:
// puts queue up, and a pump goroutine hands them on in order.
type Mailbox struct {
	mu     sync.Mutex
	queue  []Update
	wake   chan struct{}
	Out    chan Update
	closed bool
	done   chan struct{}
}

func NewMailbox() *Mailbox {
	m := &Mailbox{wake: make(chan struct{}, 1), Out: make(chan Update, 16), done: make(chan struct{})}
	go m.pump()
	return m
}

func (m *Mailbox) Put(u Update) {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	m.queue = append(m.queue, u)
	m.mu.Unlock()
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

func (m *Mailbox) Close() {
	m.mu.Lock()
	if !m.closed {
		m.closed = true
		close(m.done)
	}
	m.mu.Unlock()
}

func (m *Mailbox) pump() {
	defer close(m.Out)
	for {
		m.mu.Lock()
		q := m.queue
		m.queue = nil
		closed := m.closed
		m.mu.Unlock()
		for _, u := range q {
			select {
			case m.Out <- u:
			case <-m.done:
				return
			}
		}
		if closed {
			return
		}
		if len(q) > 0 {
			continue
		}
		select {
		case <-m.wake:
		case <-m.done:
		}
	}
}

// NewHeldMailbox is a mailbox that delivers nothing: what is put in it
// stays, for Held to read (a test's replay of a player's audit).
func NewHeldMailbox() *Mailbox { return &Mailbox{wake: make(chan struct{}, 1)} }

// Held is what was put in a mailbox and not yet delivered.
func (m *Mailbox) Held() []Update {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Update(nil), m.queue...)
}
